#ifndef WIK_TIFF_SHIM_H
#define WIK_TIFF_SHIM_H
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <tiffio.h>

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

#define WIK_TIFF_FUNCTIONS(X) \
    X(TIFFClientOpenExt) \
    X(TIFFClose) \
    X(TIFFIsTiled) \
    X(TIFFNumberOfStrips) \
    X(TIFFNumberOfTiles) \
    X(TIFFOpenOptionsAlloc) \
    X(TIFFOpenOptionsFree) \
    X(TIFFOpenOptionsSetErrorHandlerExtR) \
    X(TIFFOpenOptionsSetMaxSingleMemAlloc) \
    X(TIFFOpenOptionsSetWarningHandlerExtR) \
    X(TIFFRGBAImageBegin) \
    X(TIFFRGBAImageEnd) \
    X(TIFFRGBAImageGet) \
    X(TIFFReadDirectory) \
    X(TIFFReadEncodedStrip) \
    X(TIFFReadEncodedTile) \
    X(TIFFReadScanline) \
    X(TIFFScanlineSize64) \
    X(TIFFStripSize64) \
    X(TIFFTileSize64) \
    X(TIFFVGetField) \
    X(TIFFVGetFieldDefaulted) \
    X(TIFFVSetField) \
    X(TIFFWriteScanline)

typedef struct wik_tiff_functions {
    WIK_TIFF_FUNCTIONS(WIK_FUNCTION_FIELD)
} wik_tiff_functions;

/// Looks every function of the table up in the opened library (handle) into a table in static storage;
/// NULL, with the name of the first function not found in `*missing`, when one is not there.
static inline const wik_tiff_functions *_Nullable wik_tiff_functions_load(void *_Nonnull handle, const char *_Nullable *_Nonnull missing) {
    // Static storage, filled once (the caller loads it once): it lives as long as the process, as the library does.
    static wik_tiff_functions storage;
    wik_tiff_functions *table = &storage;
    WIK_TIFF_FUNCTIONS(WIK_FUNCTION_LOAD)
    return table;
}

#endif
