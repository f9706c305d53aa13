#pragma once
#ifndef WIK_JPEG_H
#define WIK_JPEG_H
// JPEG glue over libjpeg-turbo's classic jpeglib API. Every libjpeg call happens inside these
// functions, each with its own jump buffer, so libjpeg's longjmp never crosses a Swift frame.
// Warnings are recorded, never printed; errors are copied into the caller's `err` buffer.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The outcome of a call.
typedef enum {
    WIK_JPEG_OK = 0,
    /// The data is not a valid JPEG (or uses a feature libjpeg-turbo does not decode).
    WIK_JPEG_CORRUPT = 1,
    /// The data ends before the image does (libjpeg's premature-EOF warning, also a missing EOI).
    WIK_JPEG_TRUNCATED = 2,
    /// Decoding needs more working memory than `max_memory` allows (huge progressive images).
    WIK_JPEG_TOO_LARGE = 3,
    /// The encoder failed.
    WIK_JPEG_ENCODE_FAILED = 4,
    /// Progressive decoding: the bytes so far hold nothing displayable yet (header or first rows missing).
    WIK_JPEG_NEED_MORE_DATA = 5,
    /// Progressive decoding: a partial image is available (the end of the image has not arrived).
    WIK_JPEG_PARTIAL = 6,
} wik_jpeg_status;

/// The colour space of the encoded data.
typedef enum {
    WIK_JPEG_COLOR_UNKNOWN = 0,
    WIK_JPEG_COLOR_GRAY = 1,
    WIK_JPEG_COLOR_YCBCR = 2,
    WIK_JPEG_COLOR_RGB = 3,
    WIK_JPEG_COLOR_CMYK = 4,
    WIK_JPEG_COLOR_YCCK = 5,
} wik_jpeg_color_space;

/// What the header declares, plus the output size for the requested DCT scale.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// The decoded size when scaling by 1/scale_denom (libjpeg rounds up: ceil(width / denom)).
    uint32_t output_width;
    uint32_t output_height;
    int components;
    wik_jpeg_color_space color_space;
    int progressive;
    /// An Adobe APP14 marker is present (informational: CMYK is always read as inverted inks).
    int adobe_marker;
} wik_jpeg_info;

/// Parses the header (up to the first scan). `scale_denom` is 1, 2, 4 or 8.
int wik_jpeg_read_header(const uint8_t *data, size_t size, int scale_denom,
                         wik_jpeg_info *info, char *err, size_t err_len);

/// What a lenient decode let pass: libjpeg's warnings about damaged data (a premature end, after
/// which libjpeg inserts an EOI and fills the rest grey; corrupt entropy data it skipped or zeroed).
/// A strict decode passes NULL instead: a premature end then fails as WIK_JPEG_TRUNCATED, any other damage
/// warning as WIK_JPEG_CORRUPT.
typedef struct wik_jpeg_damage {
    /// 1 once a damage warning was seen.
    int found;
    /// 1 when the data ended early (JWRN_JPEG_EOF), 0 for other corrupt data.
    int truncated;
    /// The output row being decoded when the first damage was seen; -1 when it came before any row was
    /// output (a multi-scan or progressive file reads all its data in jpeg_start_decompress).
    int32_t row;
    /// libjpeg's text of the first damage warning.
    char message[200];
} wik_jpeg_damage;

/// Decodes into 8-bit RGBA (alpha 255) at 1/scale_denom size, straight into `out`
/// (`out_height` rows of `out_stride` bytes). `out_width`/`out_height` must equal the output size
/// the header reported. `max_memory` caps libjpeg's working memory in bytes (0: no cap). With `damage`
/// (lenient), damaged data decodes as libjpeg fills it in and is recorded there; NULL is strict.
int wik_jpeg_decode_rgba(const uint8_t *data, size_t size, int scale_denom,
                         uint8_t *out, size_t out_stride, uint32_t out_width, uint32_t out_height,
                         size_t max_memory, wik_jpeg_damage *damage, char *err, size_t err_len);

/// Decodes a CMYK or YCCK JPEG into its CMYK samples as stored (4 bytes a pixel, `out_width` × 4 bytes
/// a row, Adobe-inverted when the file is), for conversion through the file's ICC profile. `damage` as
/// for wik_jpeg_decode_rgba.
int wik_jpeg_decode_cmyk(const uint8_t *data, size_t size, int scale_denom,
                         uint8_t *out, uint32_t out_width, uint32_t out_height,
                         size_t max_memory, wik_jpeg_damage *damage, char *err, size_t err_len);

/// Encodes RGBA pixels (the alpha channel is ignored) as a baseline JPEG, or a progressive one when
/// `progressive` is non-zero. `quality` is 0–100;
/// below 90 chroma is subsampled 4:2:0, from 90 up it is kept 4:4:4. When `exif_orientation` is
/// 2–8 an EXIF APP1 segment with that orientation tag is written. On success `*out` holds the
/// file (release it with wik_jpeg_free) and `*out_size` its length.
int wik_jpeg_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                         int quality, int progressive, int exif_orientation,
                         uint8_t **out, size_t *out_size, char *err, size_t err_len);

/// Releases a buffer returned by wik_jpeg_encode_rgba.
void wik_jpeg_free(uint8_t *buffer);

// MARK: - Progressive (incremental) decoding

/// One download's incremental decoder: libjpeg in buffered-image mode over a suspending source.
/// Each call is handed all the bytes received so far (every call's data starts with the previous
/// call's); the decoder keeps its position, so every byte is entropy-decoded once in total.
typedef struct wik_jpeg_progressive wik_jpeg_progressive;

/// What a progressive decode call produced.
typedef struct {
    /// The output size (at the requested DCT scale).
    uint32_t width;
    uint32_t height;
    /// Rows [0, valid_rows) hold decoded pixels (alpha 255); the rows below are transparent (all zero).
    uint32_t valid_rows;
    /// Whether any pixel changed since the previous call.
    int updated;
    /// The number of scans fully received so far.
    int completed_scans;
    /// `width` × `height` RGBA pixels owned by the decoder, valid until the next call or wik_jpeg_progressive_free.
    const uint8_t *pixels;
} wik_jpeg_partial;

/// Creates a decoder, or returns NULL when out of memory. `max_memory` caps libjpeg's working memory (0: no cap).
wik_jpeg_progressive *wik_jpeg_progressive_create(size_t max_memory);

/// Releases the decoder and everything it holds; NULL is ignored.
void wik_jpeg_progressive_free(wik_jpeg_progressive *decoder);

/// Reads the header from the bytes so far: WIK_JPEG_OK with `info` filled (`output_*` at full
/// scale), WIK_JPEG_NEED_MORE_DATA, or an error status (the decoder is then unusable).
int wik_jpeg_progressive_read_header(wik_jpeg_progressive *decoder, const uint8_t *data, size_t size,
                                     wik_jpeg_info *info, char *err, size_t err_len);

/// Consumes the new bytes and renders the best image they allow. Call only after the header was
/// read; `scale_denom` (1, 2, 4 or 8) is used by the first call. Returns WIK_JPEG_OK when the end of
/// the image (EOI) was read (`out` is then not filled: decode the whole data one-shot),
/// WIK_JPEG_PARTIAL with `out` filled, WIK_JPEG_NEED_MORE_DATA when no row is decodable yet, or an
/// error status (the decoder is then unusable and reports the same error again).
int wik_jpeg_progressive_decode(wik_jpeg_progressive *decoder, const uint8_t *data, size_t size,
                                int scale_denom, wik_jpeg_partial *out, char *err, size_t err_len);

// MARK: - Streaming (band-by-band) decoding

/// A decode in progress that hands out rows in bands, for resampling while decoding (wik_jpeg_stream.c).
/// Each call sets its own jump buffer; after a failure every later call returns the same status.
typedef struct wik_jpeg_stream wik_jpeg_stream;

/// Reads the header, sets the scale to `scale_num`/8 (1–16; libjpeg scales inside the IDCT) and starts
/// decompressing (a progressive file is read in full here, into libjpeg's coefficient buffer). On
/// success returns the stream and the output size; on failure NULL with `*status` and `err` set.
/// `data` must outlive the stream. `max_memory` caps libjpeg's working memory in bytes (0: no cap).
/// With `vector_idct` 1, the scales whose IDCT libjpeg-turbo has no SIMD for (3/8, 5/8, 6/8, 7/8 and
/// their doubled chroma sizes) use our vector IDCT instead (each sample within one level of libjpeg's; 0 keeps libjpeg's).
/// With `lenient` 1, damaged data decodes as libjpeg fills it in; wik_jpeg_stream_damage says what was seen.
wik_jpeg_stream *wik_jpeg_stream_open(const uint8_t *data, size_t size, int scale_num, size_t max_memory,
                                      int vector_idct, int lenient, uint32_t *out_width, uint32_t *out_height,
                                      int *status, char *err, size_t err_len);

/// The damage a lenient stream has seen so far (`found` 0 when none, and always for a strict stream).
const wik_jpeg_damage *wik_jpeg_stream_damage(const wik_jpeg_stream *stream);

/// Decodes the next rows as RGBA (alpha 255), at most `max_rows`, into `out` (`out_stride` bytes apart,
/// at least 4 × output width); `*rows_read` is how many were written (0 only once every row was read).
int wik_jpeg_stream_read(wik_jpeg_stream *stream, uint8_t *out, size_t out_stride, uint32_t max_rows,
                         uint32_t *rows_read, char *err, size_t err_len);

/// Reads on to the end of the image (EOI) after the last row, so a cut file reports truncation.
int wik_jpeg_stream_finish(wik_jpeg_stream *stream, char *err, size_t err_len);

/// Releases the stream and everything libjpeg holds for it; NULL is ignored.
void wik_jpeg_stream_free(wik_jpeg_stream *stream);

#ifdef __cplusplus
}
#endif
#endif
