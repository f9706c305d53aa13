#ifndef WIK_JXL_SHIM_H
#define WIK_JXL_SHIM_H
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
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

#define WIK_JXL_FUNCTIONS(X) \
    X(JxlColorEncodingSetToSRGB) \
    X(JxlDecoderCreate) \
    X(JxlDecoderDestroy) \
    X(JxlDecoderFlushImage) \
    X(JxlDecoderGetBasicInfo) \
    X(JxlDecoderGetColorAsEncodedProfile) \
    X(JxlDecoderGetColorAsICCProfile) \
    X(JxlDecoderGetFrameHeader) \
    X(JxlDecoderGetICCProfileSize) \
    X(JxlDecoderImageOutBufferSize) \
    X(JxlDecoderProcessInput) \
    X(JxlDecoderReleaseInput) \
    X(JxlDecoderSetImageOutBuffer) \
    X(JxlDecoderSetInput) \
    X(JxlDecoderSetKeepOrientation) \
    X(JxlDecoderSetParallelRunner) \
    X(JxlDecoderSetUnpremultiplyAlpha) \
    X(JxlDecoderSubscribeEvents) \
    X(JxlEncoderAddImageFrame) \
    X(JxlEncoderCloseInput) \
    X(JxlEncoderCreate) \
    X(JxlEncoderDestroy) \
    X(JxlEncoderFrameSettingsCreate) \
    X(JxlEncoderFrameSettingsSetOption) \
    X(JxlEncoderInitBasicInfo) \
    X(JxlEncoderInitFrameHeader) \
    X(JxlEncoderProcessOutput) \
    X(JxlEncoderSetBasicInfo) \
    X(JxlEncoderSetColorEncoding) \
    X(JxlEncoderSetFrameDistance) \
    X(JxlEncoderSetFrameHeader) \
    X(JxlEncoderSetFrameLossless) \
    X(JxlEncoderSetParallelRunner)

#define WIK_JXL_THREADS_FUNCTIONS(X) \
    X(JxlThreadParallelRunner) \
    X(JxlThreadParallelRunnerCreate) \
    X(JxlThreadParallelRunnerDestroy)

typedef struct wik_jxl_functions {
    WIK_JXL_FUNCTIONS(WIK_FUNCTION_FIELD)
    WIK_JXL_THREADS_FUNCTIONS(WIK_FUNCTION_FIELD)
} wik_jxl_functions;

/// Looks every function of the table up in the opened library (jxl, threads) into a table in static storage;
/// NULL, with the name of the first function not found in `*missing`, when one is not there.
static inline const wik_jxl_functions *_Nullable wik_jxl_functions_load(void *_Nonnull jxl, void *_Nonnull threads, const char *_Nullable *_Nonnull missing) {
    // Static storage, filled once (the caller loads it once): it lives as long as the process, as the library does,
    // and LeakSanitizer sees it as reachable.
    static wik_jxl_functions storage;
    wik_jxl_functions *table = &storage;
    void *handle = jxl;
    WIK_JXL_FUNCTIONS(WIK_FUNCTION_LOAD)
    handle = threads;
    WIK_JXL_THREADS_FUNCTIONS(WIK_FUNCTION_LOAD)
    return table;
}

#endif
