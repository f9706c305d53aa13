#ifndef WIK_AVIF_SHIM_H
#define WIK_AVIF_SHIM_H
#include <avif/avif.h>
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

#define WIK_AVIF_FUNCTIONS(X) \
    X(avifDecoderCreate) \
    X(avifDecoderDestroy) \
    X(avifDecoderNextImage) \
    X(avifDecoderParse) \
    X(avifDecoderSetIOMemory) \
    X(avifEncoderAddImage) \
    X(avifEncoderCreate) \
    X(avifEncoderDestroy) \
    X(avifEncoderFinish) \
    X(avifImageCreate) \
    X(avifImageDestroy) \
    X(avifImageRGBToYUV) \
    X(avifImageSetMetadataExif) \
    X(avifImageSetMetadataXMP) \
    X(avifImageSetProfileICC) \
    X(avifImageSetViewRect) \
    X(avifImageYUVToRGB) \
    X(avifRGBImageSetDefaults) \
    X(avifRWDataFree) \
    X(avifResultToString)

typedef struct wik_avif_functions {
    WIK_AVIF_FUNCTIONS(WIK_FUNCTION_FIELD)
} wik_avif_functions;

/// Looks every function of the table up in the opened library (handle) into a table in static storage;
/// NULL, with the name of the first function not found in `*missing`, when one is not there.
static inline const wik_avif_functions *_Nullable wik_avif_functions_load(void *_Nonnull handle, const char *_Nullable *_Nonnull missing) {
    // Static storage, filled once (the caller loads it once): it lives as long as the process, as the library does,
    // and LeakSanitizer sees it as reachable.
    static wik_avif_functions storage;
    wik_avif_functions *table = &storage;
    WIK_AVIF_FUNCTIONS(WIK_FUNCTION_LOAD)
    return table;
}

#endif
