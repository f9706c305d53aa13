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
    /// The IHDR's size exceeds the caller's limit (progressive reader only; checked before any pixel memory).
    WIK_PNG_TOO_LARGE = 5,
    /// Reading the file a decoder reads on from failed (read(2) set errno; the message names it).
    WIK_PNG_READ_FAILED = 6,
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

/// Makes the decoder read on from `fd`, from its current position, once the data given to
/// wik_png_decoder_create is used up, so a file never has to be in memory whole: the caller passes the
/// file's first bytes as the data and the descriptor positioned just after them. The descriptor must
/// stay open until the decoder is destroyed (which does not close it). Call before wik_png_read_header;
/// returns 1, or 0 when memory runs out or the call is out of order.
int wik_png_decoder_read_on_from(wik_png_decoder *decoder, int fd);

/// Makes the decoder lenient, as browsers are with damaged files: chunk checksum (CRC) errors are
/// ignored, and a non-interlaced image whose data breaks or ends after some rows keeps those rows with
/// the rest transparent (0), as does an image whose chunks after the pixels (up to IEND) are missing or
/// broken. wik_png_get_damage then says what was let pass. Call before wik_png_read_header.
void wik_png_decoder_set_lenient(wik_png_decoder *decoder);
/// What a lenient decoder let pass.
typedef struct wik_png_damage {
    /// 1 when a chunk's CRC did not match and the chunk was used anyway.
    int checksum_mismatch;
    /// 1 when the data broke or ended before IEND (see `first_bad_row` and `truncated`).
    int ended_early;
    /// 1 when that was the data running out; 0 when it was corrupt.
    int truncated;
    /// The first row not decoded (transparent), or -1 when every row was decoded.
    int32_t first_bad_row;
    /// libpng's text of the first thing let pass.
    char message[200];
} wik_png_damage;
/// Copies the damage the decoder let pass so far into `damage` (all zero, row -1, when none).
void wik_png_get_damage(const wik_png_decoder *decoder, wik_png_damage *damage);
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

/// Row-by-row decoding, the alternative to wik_png_read_rgba for a non-interlaced image (an Adam7 one
/// returns WIK_PNG_INVALID_ARGUMENT: its rows are complete only after the last pass). Sets up the
/// same RGBA conversion; call once, after a successful wik_png_read_header.
wik_png_status wik_png_start_rows(wik_png_decoder *decoder, char *message, size_t message_capacity);

/// Decodes the next `count` rows as 8-bit RGBA into `pixels`, `stride` bytes apart. A failure is final.
wik_png_status wik_png_read_rows(wik_png_decoder *decoder, uint8_t *pixels, size_t stride, uint32_t count,
                                 char *message, size_t message_capacity);

/// After the last row, reads on to IEND (so a cut file fails) and any eXIf chunk after the image data.
wik_png_status wik_png_finish_rows(wik_png_decoder *decoder, char *message, size_t message_capacity);

/// The raw eXIf chunk (a TIFF-structured block), if the file has one; valid until the decoder is destroyed.
/// Returns 1 and sets `exif`/`size` when present, 0 otherwise. Call after wik_png_read_rgba to also see
/// an eXIf chunk that follows the image data.
int wik_png_exif(const wik_png_decoder *decoder, const uint8_t **exif, size_t *size);

/// Encodes 8-bit RGBA rows (`stride` bytes apart) as an 8-bit RGBA PNG when `keep_alpha` is 1, else as
/// 8-bit RGB (the alpha bytes are dropped), with zlib level `compression_level` (0–9) and libpng's
/// default filters; Adam7-interlaced when `interlace` is 1. With `palette_rgb` (`palette_count` RGB
/// triples, 1–256), `pixels` are instead one palette index a pixel and the file is an 8-bit palette PNG
/// (colour type 3), with a tRNS chunk making entry `transparent_index` transparent when it is 0 or more.
/// On success `*output` is a malloc'd buffer of `*output_size` bytes that the caller releases with wik_png_free.
wik_png_status wik_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                                   int keep_alpha, int compression_level, int interlace,
                                   const uint8_t *palette_rgb, int palette_count, int transparent_index,
                                   uint8_t **output, size_t *output_size,
                                   char *message, size_t message_capacity);

/// Frees a buffer returned by wik_png_encode_rgba.
void wik_png_free(void *buffer);

// ---------------------------------------------------------------------------------------------
// Progressive decoding (wik_png_progressive.c), through libpng's push reader (png_process_data).
//
// The caller pushes each new run of bytes once, in order; rows land in an RGBA output buffer that
// the reader owns (calloc'd, so rows not yet received are transparent black) and that the caller
// reads, never writes, between pushes. Adam7 images are drawn "blocky": each pass's pixels fill
// the whole block they stand for, so after the first pass the image is a coarse full-size preview
// that later passes refine; the last pass leaves exactly the one-shot decoder's pixels.
// libpng 1.6.39's push reader does not interpret eXIf chunks: callers read the orientation themselves.

/// A progressive PNG reader's state; lives across pushes until wik_png_progressive_destroy.
typedef struct wik_png_progressive wik_png_progressive;

/// What the reader has seen so far.
typedef struct wik_png_progress {
    /// 1 once the IHDR and every chunk before the first IDAT were read and the output buffer exists.
    int has_header;
    /// Valid when has_header is 1 (width and height also after a WIK_PNG_TOO_LARGE failure).
    wik_png_header header;
    /// The output buffer, width × height × 4 bytes of RGBA rows; NULL until has_header.
    const uint8_t *pixels;
    size_t pixels_size;
    /// Rows written so far (counting every row of every pass): a change means the pixels changed.
    uint64_t rows_written;
    /// The Adam7 pass (0–6) of the last row written; 0 for a non-interlaced image.
    int pass;
    /// The image row the last row written went to.
    uint32_t last_row;
    /// 1 once the IEND chunk was read: the pixels are the final image.
    int complete;
} wik_png_progress;

/// Creates a reader that rejects (WIK_PNG_TOO_LARGE) an IHDR of more than `maximum_pixel_count`
/// pixels or a side over `maximum_side`. NULL when memory runs out.
wik_png_progressive *wik_png_progressive_create(uint64_t maximum_pixel_count, uint32_t maximum_side);

/// Makes the reader use chunks whose CRC is wrong, as browsers do with damaged files. Call before the first push.
void wik_png_progressive_set_lenient(wik_png_progressive *reader);

/// Frees the reader, its libpng structures and its output buffer.
void wik_png_progressive_destroy(wik_png_progressive *reader);

/// Feeds the next `size` bytes of the file. A failure is final: every later push returns the same
/// status and message. Bytes pushed after IEND are ignored. The message is empty on success.
wik_png_status wik_png_progressive_push(wik_png_progressive *reader, const uint8_t *data, size_t size,
                                        char *message, size_t message_capacity);

/// Fills `progress` with the reader's current state.
void wik_png_progressive_get_progress(const wik_png_progressive *reader, wik_png_progress *progress);

#ifdef __cplusplus
}
#endif
#endif
