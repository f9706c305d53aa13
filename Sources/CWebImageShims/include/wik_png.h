#pragma once
#ifndef WIK_PNG_H
#define WIK_PNG_H
// PNG glue over libpng 1.6. libpng reports fatal errors by longjmp, so every libpng call happens in
// wik_png.c inside a function that owns its setjmp; error and warning text is copied into the
// caller's message buffer and nothing is printed. Only standard headers here: Swift never sees png.h.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of a wik_png_* call.
typedef enum wik_png_status {
    WIK_PNG_OK = 0,
    /// The data is not a valid PNG (bad signature, CRC mismatch, bad zlib stream, invalid chunk...).
    WIK_PNG_CORRUPT = 1,
    /// The data ends before the image and its IEND chunk are complete.
    WIK_PNG_TRUNCATED = 2,
    /// A memory allocation failed.
    WIK_PNG_NO_MEMORY = 3,
    /// The caller broke the contract (calls out of order, a buffer too small).
    WIK_PNG_INVALID_ARGUMENT = 4,
} wik_png_status;

/// What the IHDR (plus tRNS) says about the image.
typedef struct wik_png_header {
    uint32_t width;
    uint32_t height;
    /// 1, 2, 4, 8 or 16.
    int bit_depth;
    /// The PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    int color_type;
    /// 0 none, 1 Adam7.
    int interlace_method;
    /// 1 when the decoded pixels may be non-opaque (alpha colour type or a tRNS chunk).
    int has_alpha;
} wik_png_header;

/// A decoder reading a PNG held in memory; the data must outlive the decoder.
typedef struct wik_png_decoder wik_png_decoder;

/// Creates a decoder over `data`; NULL when memory runs out.
wik_png_decoder *wik_png_decoder_create(const uint8_t *data, size_t size);

/// Frees the decoder and everything it allocated (including the EXIF block returned by wik_png_exif).
void wik_png_decoder_destroy(wik_png_decoder *decoder);

/// Reads the signature and every chunk up to the first IDAT. On failure, `header->width` and
/// `header->height` still hold the IHDR's values when the IHDR itself was read (0 otherwise).
wik_png_status wik_png_read_header(wik_png_decoder *decoder, wik_png_header *header,
                                   char *message, size_t message_capacity);

/// Decodes the whole image as 8-bit RGBA (straight alpha; 16-bit samples scaled as round(v/257))
/// into `pixels` (`stride` bytes per row, `capacity` bytes in all), then reads on to IEND.
/// Call once, after a successful wik_png_read_header.
wik_png_status wik_png_read_rgba(wik_png_decoder *decoder, uint8_t *pixels, size_t stride, size_t capacity,
                                 char *message, size_t message_capacity);

/// The raw eXIf chunk (a TIFF-structured block), if the file has one; valid until the decoder is destroyed.
/// Returns 1 and sets `exif`/`size` when present, 0 otherwise. Call after wik_png_read_rgba to also see
/// an eXIf chunk that follows the image data.
int wik_png_exif(const wik_png_decoder *decoder, const uint8_t **exif, size_t *size);

/// Encodes 8-bit RGBA rows (`stride` bytes apart) as an 8-bit RGBA PNG when `keep_alpha` is 1, else as
/// 8-bit RGB (the alpha bytes are dropped), with zlib level `compression_level` (0–9) and libpng's
/// default filters. On success `*output` is a malloc'd buffer of `*output_size` bytes that the caller
/// releases with wik_png_free.
wik_png_status wik_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                                   int keep_alpha, int compression_level,
                                   uint8_t **output, size_t *output_size,
                                   char *message, size_t message_capacity);

/// Frees a buffer returned by wik_png_encode_rgba.
void wik_png_free(void *buffer);

#ifdef __cplusplus
}
#endif
#endif
