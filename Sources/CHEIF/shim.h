#ifndef WIK_HEIF_SHIM_H
#define WIK_HEIF_SHIM_H
#include <libheif/heif.h>
#include <dlfcn.h>
#include <stdlib.h>

// The library is opened with dlopen on first use instead of being linked (see CodecLibraries.swift),
// so its functions are called through a table of pointers typed after their declarations above.
#ifndef WIK_FUNCTION_TABLE_MACROS
#define WIK_FUNCTION_TABLE_MACROS
#define WIK_FUNCTION_FIELD(name) __typeof__(name) *_Nonnull name;
#define WIK_FUNCTION_LOAD(name)                                       \
    if (!(*(void **)&table->name = dlsym(handle, #name))) {          \
        *missing = #name;                                              \
        return NULL;                                                   \
    }
#endif

#define WIK_HEIF_FUNCTIONS(X) \
    X(heif_context_add_XMP_metadata) \
    X(heif_context_add_exif_metadata) \
    X(heif_context_alloc) \
    X(heif_context_encode_image) \
    X(heif_context_free) \
    X(heif_context_get_encoder_for_format) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_memory_without_copy) \
    X(heif_context_write) \
    X(heif_decode_image) \
    X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) \
    X(heif_encoder_release) \
    X(heif_encoder_set_lossy_quality) \
    X(heif_encoding_options_alloc) \
    X(heif_encoding_options_free) \
    X(heif_image_add_plane) \
    X(heif_image_create) \
    X(heif_image_get_bits_per_pixel_range) \
    X(heif_image_get_height) \
    X(heif_image_get_plane) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_number_of_thumbnails) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_thumbnail) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_is_premultiplied_alpha) \
    X(heif_image_handle_release) \
    X(heif_image_release)

typedef struct wik_heif_functions {
    WIK_HEIF_FUNCTIONS(WIK_FUNCTION_FIELD)
} wik_heif_functions;

/// Looks every function of the table up in the opened library (handle) into a table in static storage;
/// NULL, with the name of the first function not found in `*missing`, when one is not there.
static inline const wik_heif_functions *_Nullable wik_heif_functions_load(void *_Nonnull handle, const char *_Nullable *_Nonnull missing) {
    // Static storage, filled once (the caller loads it once): it lives as long as the process, as the library does,
    // and LeakSanitizer sees it as reachable.
    static wik_heif_functions storage;
    wik_heif_functions *table = &storage;
    WIK_HEIF_FUNCTIONS(WIK_FUNCTION_LOAD)
    return table;
}

#endif
