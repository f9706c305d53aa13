// Internal to CWebImageShims: the libjpeg error manager shared by the JPEG decoder and encoder.
#ifndef WIK_JPEG_PRIVATE_H
#define WIK_JPEG_PRIVATE_H
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jpeglib.h>

#include "wik_jpeg.h"

/// Rows handed to libjpeg per read/write call; more than any row group libjpeg produces at once.
#define WIK_JPEG_ROW_BATCH 32

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int status;
    char *err;
    size_t err_len;
    /// Where a lenient decode records damage warnings; NULL for a strict one (a premature end fails).
    wik_jpeg_damage *damage;
    /// 1 while output rows are being read, so a damage warning can name the row.
    int reading_rows;
    /// A strict decode (no `damage`): every damage warning fails, not only a premature end.
    int fail_on_damage;
} wik_jpeg_error;

/// Installs our handlers: errors longjmp to `error->jump` with their message copied into `err`,
/// warnings are counted and never printed, a premature end of data ends the call as truncated.
void wik_jpeg_init_error(wik_jpeg_error *error, char *err, size_t err_len);

/// Records `text` and `status`, then jumps back to the public entry point.
__attribute__((noreturn)) void wik_jpeg_fail(j_common_ptr cinfo, int status, const char *text);

/// Sets the output colour space for the header just read: RGBA for grey/YCbCr/RGB, CMYK for CMYK/YCCK
/// (converted with wik_jpeg_cmyk_to_rgba); fails for anything else. Call under a jump buffer.
void wik_jpeg_choose_output_color_space(j_decompress_ptr cinfo);

/// libjpeg's progress monitor for decoders: fails a progressive file with more scans than we accept.
void wik_jpeg_limit_scans(j_common_ptr cinfo);

/// After jpeg_start_decompress, replaces libjpeg's scaled inverse DCTs that have no SIMD (the sizes other
/// than 1, 2, 4 and 8: the 3/8, 5/8, 6/8 and 7/8 scales and the doubled chroma sizes that go with them)
/// with vector ones (wik_jpeg_scaled_idct.c). The single output pass keeps them.
void wik_jpeg_use_vector_idct(j_decompress_ptr cinfo);

/// Converts `width` pixels of inverted-ink CMYK (libjpeg's JCS_CMYK output) to opaque RGBA in place.
void wik_jpeg_cmyk_to_rgba(uint8_t *row, uint32_t width);

#endif
