// JPEG glue: see include/wik_jpeg.h.
//
// libjpeg reports fatal errors by calling error_exit, which must not return; ours copies the
// message into the caller's buffer and longjmps back to the public function that set the jump
// buffer. Those functions are the only callers of libjpeg, so no longjmp ever crosses Swift.
#include "wik_jpeg.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/// Progressive files with more scans than this are rejected: each scan re-walks the whole
/// coefficient buffer, so a hostile file with thousands of tiny scans costs minutes of CPU
/// (libjpeg-turbo's own advice for untrusted input, cf. djpeg -maxscans).
#define WIK_JPEG_MAX_SCANS 1000
/// Rows handed to libjpeg per read/write call; more than any row group libjpeg produces at once.
#define WIK_JPEG_ROW_BATCH 32

// MARK: - Errors and warnings

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int status;
    char *err;
    size_t err_len;
} wik_jpeg_error;

static void wik_jpeg_set_message(wik_jpeg_error *error, const char *text) {
    if (error->err != NULL && error->err_len > 0) {
        snprintf(error->err, error->err_len, "%s", text);
    }
}

/// Records `text` and `status`, then jumps back to the public entry point.
__attribute__((noreturn)) static void wik_jpeg_fail(j_common_ptr cinfo, int status, const char *text) {
    wik_jpeg_error *error = (wik_jpeg_error *)cinfo->err;
    error->status = status;
    wik_jpeg_set_message(error, text);
    longjmp(error->jump, 1);
}

static void wik_jpeg_error_exit(j_common_ptr cinfo) {
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    int code = cinfo->err->msg_code;
    int status;
    if (code == JERR_NO_BACKING_STORE || code == JERR_OUT_OF_MEMORY) {
        status = WIK_JPEG_TOO_LARGE;
    } else {
        status = cinfo->is_decompressor ? WIK_JPEG_CORRUPT : WIK_JPEG_ENCODE_FAILED;
    }
    wik_jpeg_fail(cinfo, status, text);
}

/// Warnings are counted, never printed. Running out of data (libjpeg then feeds a fake EOI and
/// carries on with grey) means the file is cut, so it ends the decode at once as truncated.
static void wik_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return; // trace messages
    cinfo->err->num_warnings++;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        wik_jpeg_fail(cinfo, WIK_JPEG_TRUNCATED, text);
    }
}

static void wik_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo; // never write to stderr
}

static void wik_jpeg_init_error(wik_jpeg_error *error, char *err, size_t err_len) {
    jpeg_std_error(&error->pub);
    error->pub.error_exit = wik_jpeg_error_exit;
    error->pub.emit_message = wik_jpeg_emit_message;
    error->pub.output_message = wik_jpeg_output_message;
    error->status = WIK_JPEG_OK;
    error->err = err;
    error->err_len = err_len;
    if (err != NULL && err_len > 0) err[0] = '\0';
}

// MARK: - Decoding

typedef struct {
    struct jpeg_decompress_struct cinfo;
    wik_jpeg_error error;
    struct jpeg_progress_mgr progress;
} wik_jpeg_decoder;

static void wik_jpeg_progress(j_common_ptr cinfo) {
    if (cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->input_scan_number > WIK_JPEG_MAX_SCANS) {
        char text[96];
        snprintf(text, sizeof text, "more than %d scans in a progressive JPEG", WIK_JPEG_MAX_SCANS);
        wik_jpeg_fail(cinfo, WIK_JPEG_CORRUPT, text);
    }
}

static wik_jpeg_color_space wik_jpeg_color_space_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return WIK_JPEG_COLOR_GRAY;
    case JCS_YCbCr: return WIK_JPEG_COLOR_YCBCR;
    case JCS_RGB: return WIK_JPEG_COLOR_RGB;
    case JCS_CMYK: return WIK_JPEG_COLOR_CMYK;
    case JCS_YCCK: return WIK_JPEG_COLOR_YCCK;
    default: return WIK_JPEG_COLOR_UNKNOWN;
    }
}

/// Reads the header and sets the output colour space and scale. Call only under a jump buffer.
static void wik_jpeg_begin(wik_jpeg_decoder *d, const uint8_t *data, size_t size, int scale_denom) {
    jpeg_create_decompress(&d->cinfo);
    d->progress.progress_monitor = wik_jpeg_progress;
    d->cinfo.progress = &d->progress;
    if (size == 0) wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_TRUNCATED, "the data is empty");
    if (size > ULONG_MAX) wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_CORRUPT, "the data is too large");
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_CORRUPT, "the scale denominator must be 1, 2, 4 or 8");
    }
    jpeg_mem_src(&d->cinfo, data, (unsigned long)size);
    jpeg_read_header(&d->cinfo, TRUE);
    switch (d->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
        d->cinfo.out_color_space = JCS_EXT_RGBA;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        d->cinfo.out_color_space = JCS_CMYK; // converted to RGBA row by row
        break;
    default: {
        char text[96];
        snprintf(text, sizeof text, "unsupported JPEG colour space with %d components", d->cinfo.num_components);
        wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_CORRUPT, text);
    }
    }
    d->cinfo.scale_num = 1;
    d->cinfo.scale_denom = (unsigned int)scale_denom;
    jpeg_calc_output_dimensions(&d->cinfo);
}

static void wik_jpeg_prepare_decoder(wik_jpeg_decoder *d, char *err, size_t err_len) {
    memset(d, 0, sizeof *d);
    wik_jpeg_init_error(&d->error, err, err_len);
    d->cinfo.err = &d->error.pub;
}

int wik_jpeg_read_header(const uint8_t *data, size_t size, int scale_denom,
                         wik_jpeg_info *info, char *err, size_t err_len) {
    wik_jpeg_decoder d;
    wik_jpeg_prepare_decoder(&d, err, err_len);
    memset(info, 0, sizeof *info);
    if (setjmp(d.error.jump)) {
        jpeg_destroy_decompress(&d.cinfo);
        return d.error.status;
    }
    wik_jpeg_begin(&d, data, size, scale_denom);
    info->width = d.cinfo.image_width;
    info->height = d.cinfo.image_height;
    info->output_width = d.cinfo.output_width;
    info->output_height = d.cinfo.output_height;
    info->components = d.cinfo.num_components;
    info->color_space = wik_jpeg_color_space_of(d.cinfo.jpeg_color_space);
    info->progressive = d.cinfo.progressive_mode ? 1 : 0;
    info->adobe_marker = d.cinfo.saw_Adobe_marker ? 1 : 0;
    jpeg_destroy_decompress(&d.cinfo);
    return WIK_JPEG_OK;
}

/// (a × b + 127) / 255, exactly, as Pillow's MULDIV255.
static inline unsigned wik_mul_div255(unsigned a, unsigned b) {
    unsigned t = a * b + 128;
    return ((t >> 8) + t) >> 8;
}

/// Converts CMYK rows to RGBA in place. The inks are read as stored inverted (0 = full ink), as
/// Photoshop writes them with its Adobe APP14 marker, and as Chrome, Firefox and Pillow read every
/// CMYK JPEG, marker or not: a file without the marker decodes the same. The conversion is the
/// naive R = (1 − C)(1 − K) browsers use without an ICC profile, rounded exactly like Pillow's.
static void wik_jpeg_cmyk_to_rgba(uint8_t *row, uint32_t width) {
    for (uint32_t x = 0; x < width; x++, row += 4) {
        unsigned c = 255u - row[0], m = 255u - row[1], y = 255u - row[2], k = 255u - row[3];
        unsigned nk = 255 - k;
        row[0] = (uint8_t)(nk - wik_mul_div255(c, nk));
        row[1] = (uint8_t)(nk - wik_mul_div255(m, nk));
        row[2] = (uint8_t)(nk - wik_mul_div255(y, nk));
        row[3] = 255;
    }
}

int wik_jpeg_decode_rgba(const uint8_t *data, size_t size, int scale_denom,
                         uint8_t *out, size_t out_stride, uint32_t out_width, uint32_t out_height,
                         size_t max_memory, char *err, size_t err_len) {
    wik_jpeg_decoder d;
    wik_jpeg_prepare_decoder(&d, err, err_len);
    if (setjmp(d.error.jump)) {
        jpeg_destroy_decompress(&d.cinfo);
        return d.error.status;
    }
    wik_jpeg_begin(&d, data, size, scale_denom);
    if (max_memory > 0) d.cinfo.mem->max_memory_to_use = max_memory > LONG_MAX ? LONG_MAX : (long)max_memory;
    if (d.cinfo.output_width != out_width || d.cinfo.output_height != out_height
        || out_stride / 4 < (size_t)out_width) {
        char text[128];
        snprintf(text, sizeof text, "the output is %ux%u pixels, not the %ux%u allocated",
                 d.cinfo.output_width, d.cinfo.output_height, out_width, out_height);
        wik_jpeg_fail((j_common_ptr)&d.cinfo, WIK_JPEG_CORRUPT, text);
    }
    jpeg_start_decompress(&d.cinfo);
    int cmyk = d.cinfo.out_color_space == JCS_CMYK;
    JSAMPROW rows[WIK_JPEG_ROW_BATCH];
    while (d.cinfo.output_scanline < d.cinfo.output_height) {
        JDIMENSION first = d.cinfo.output_scanline;
        JDIMENSION count = d.cinfo.output_height - first;
        if (count > WIK_JPEG_ROW_BATCH) count = WIK_JPEG_ROW_BATCH;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = out + (size_t)(first + i) * out_stride;
        JDIMENSION read = jpeg_read_scanlines(&d.cinfo, rows, count);
        if (read == 0) wik_jpeg_fail((j_common_ptr)&d.cinfo, WIK_JPEG_CORRUPT, "libjpeg returned no rows");
        if (cmyk) {
            for (JDIMENSION i = 0; i < read; i++) wik_jpeg_cmyk_to_rgba(rows[i], out_width);
        }
    }
    // Reads through to EOI: a file cut after its last scan still reports the premature end.
    jpeg_finish_decompress(&d.cinfo);
    jpeg_destroy_decompress(&d.cinfo);
    return WIK_JPEG_OK;
}

// MARK: - Encoding

/// A growable in-memory destination; unlike jpeg_mem_dest, the buffer stays reachable on error.
typedef struct {
    struct jpeg_destination_mgr pub;
    uint8_t *buffer;
    size_t capacity;
    size_t size;
} wik_jpeg_destination;

typedef struct {
    struct jpeg_compress_struct cinfo;
    wik_jpeg_error error;
    wik_jpeg_destination dest;
} wik_jpeg_encoder;

static void wik_jpeg_init_destination(j_compress_ptr cinfo) {
    wik_jpeg_destination *dest = (wik_jpeg_destination *)cinfo->dest;
    // A guess at the final size; untouched pages cost nothing and the buffer is trimmed at the end.
    size_t guess = (size_t)cinfo->image_width * cinfo->image_height / 2 + 16384;
    if (guess > ((size_t)1 << 28)) guess = (size_t)1 << 28;
    dest->buffer = malloc(guess);
    if (dest->buffer == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    dest->capacity = guess;
    dest->pub.next_output_byte = dest->buffer;
    dest->pub.free_in_buffer = guess;
}

static boolean wik_jpeg_empty_output_buffer(j_compress_ptr cinfo) {
    wik_jpeg_destination *dest = (wik_jpeg_destination *)cinfo->dest;
    size_t used = dest->capacity; // libjpeg calls this only when the buffer is full
    size_t grown = dest->capacity * 2;
    uint8_t *buffer = realloc(dest->buffer, grown);
    if (buffer == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 11); // the old buffer stays owned by dest
    dest->buffer = buffer;
    dest->capacity = grown;
    dest->pub.next_output_byte = buffer + used;
    dest->pub.free_in_buffer = grown - used;
    return TRUE;
}

static void wik_jpeg_term_destination(j_compress_ptr cinfo) {
    wik_jpeg_destination *dest = (wik_jpeg_destination *)cinfo->dest;
    dest->size = dest->capacity - dest->pub.free_in_buffer;
}

/// A minimal EXIF block: "Exif\0\0" and a big-endian TIFF header with one IFD entry, Orientation.
static void wik_jpeg_write_orientation(j_compress_ptr cinfo, int orientation) {
    const JOCTET exif[32] = {
        'E', 'x', 'i', 'f', 0, 0,
        'M', 'M', 0, 42, 0, 0, 0, 8,           // TIFF header, first IFD at offset 8
        0, 1,                                  // one entry
        0x01, 0x12, 0, 3, 0, 0, 0, 1,          // tag 0x0112 Orientation, SHORT, count 1
        0, (JOCTET)orientation, 0, 0,          // the value, left-justified
        0, 0, 0, 0,                            // no next IFD
    };
    jpeg_write_marker(cinfo, JPEG_APP0 + 1, exif, sizeof exif);
}

int wik_jpeg_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                         int quality, int exif_orientation,
                         uint8_t **out, size_t *out_size, char *err, size_t err_len) {
    wik_jpeg_encoder e;
    memset(&e, 0, sizeof e);
    wik_jpeg_init_error(&e.error, err, err_len);
    e.cinfo.err = &e.error.pub;
    *out = NULL;
    *out_size = 0;
    if (setjmp(e.error.jump)) {
        jpeg_destroy_compress(&e.cinfo);
        free(e.dest.buffer);
        return e.error.status;
    }
    jpeg_create_compress(&e.cinfo);
    if (stride / 4 < (size_t)width) wik_jpeg_fail((j_common_ptr)&e.cinfo, WIK_JPEG_ENCODE_FAILED, "the row stride is too small");
    e.dest.pub.init_destination = wik_jpeg_init_destination;
    e.dest.pub.empty_output_buffer = wik_jpeg_empty_output_buffer;
    e.dest.pub.term_destination = wik_jpeg_term_destination;
    e.cinfo.dest = &e.dest.pub;
    e.cinfo.image_width = width;
    e.cinfo.image_height = height;
    e.cinfo.input_components = 4;
    e.cinfo.in_color_space = JCS_EXT_RGBA; // the alpha byte is skipped
    jpeg_set_defaults(&e.cinfo);
    jpeg_set_quality(&e.cinfo, quality < 0 ? 0 : quality > 100 ? 100 : quality, TRUE);
    if (quality >= 90) { // keep full chroma resolution (4:4:4); the defaults are 4:2:0
        e.cinfo.comp_info[0].h_samp_factor = 1;
        e.cinfo.comp_info[0].v_samp_factor = 1;
    }
    e.cinfo.optimize_coding = TRUE; // optimal Huffman tables: smaller files for one extra pass
    jpeg_start_compress(&e.cinfo, TRUE);
    if (exif_orientation >= 2 && exif_orientation <= 8) wik_jpeg_write_orientation(&e.cinfo, exif_orientation);
    JSAMPROW rows[WIK_JPEG_ROW_BATCH];
    while (e.cinfo.next_scanline < e.cinfo.image_height) {
        JDIMENSION first = e.cinfo.next_scanline;
        JDIMENSION count = e.cinfo.image_height - first;
        if (count > WIK_JPEG_ROW_BATCH) count = WIK_JPEG_ROW_BATCH;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = (JSAMPROW)(pixels + (size_t)(first + i) * stride);
        jpeg_write_scanlines(&e.cinfo, rows, count);
    }
    jpeg_finish_compress(&e.cinfo);
    jpeg_destroy_compress(&e.cinfo);
    uint8_t *trimmed = realloc(e.dest.buffer, e.dest.size > 0 ? e.dest.size : 1);
    *out = trimmed != NULL ? trimmed : e.dest.buffer;
    *out_size = e.dest.size;
    return WIK_JPEG_OK;
}

void wik_jpeg_free(uint8_t *buffer) {
    free(buffer);
}
