// JPEG glue: see include/wik_jpeg.h.
//
// libjpeg reports fatal errors by calling error_exit, which must not return; ours copies the
// message into the caller's buffer and longjmps back to the public function that set the jump
// buffer. Those functions are the only callers of libjpeg, so no longjmp ever crosses Swift.
#include "wik_jpeg.h"
#include "wik_jpeg_private.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>

/// Progressive files with more scans than this are rejected: each scan re-walks the whole
/// coefficient buffer, so a hostile file with thousands of tiny scans costs minutes of CPU
/// (libjpeg-turbo's own advice for untrusted input, cf. djpeg -maxscans).
#define WIK_JPEG_MAX_SCANS 1000

// MARK: - Errors and warnings (shared with wik_jpeg_encode.c through wik_jpeg_private.h)

static void wik_jpeg_set_message(wik_jpeg_error *error, const char *text) {
    if (error->err != NULL && error->err_len > 0) {
        snprintf(error->err, error->err_len, "%s", text);
    }
}

/// Records `text` and `status`, then jumps back to the public entry point.
__attribute__((noreturn)) void wik_jpeg_fail(j_common_ptr cinfo, int status, const char *text) {
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

/// Whether libjpeg warning `code` means the data is damaged (rather than, say, an odd JFIF header).
static int wik_jpeg_is_damage_warning(int code) {
    switch (code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_EXTRANEOUS_DATA:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_BOGUS_PROGRESSION:
    case JWRN_TOO_MUCH_DATA:
        return 1;
    default:
        return 0;
    }
}

/// Warnings are counted, never printed. Running out of data (libjpeg then feeds a fake EOI and
/// carries on with grey) means the file is cut: a strict decode ends at once as truncated (and, with
/// fail_on_damage, at any other damage warning as corrupt), a lenient
/// one (error->damage set) records it, like every other damage warning, and carries on as browsers do.
static void wik_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return; // trace messages
    cinfo->err->num_warnings++;
    wik_jpeg_error *error = (wik_jpeg_error *)cinfo->err;
    int code = cinfo->err->msg_code;
    if (error->damage == NULL) {
        if (code == JWRN_JPEG_EOF || (error->fail_on_damage && wik_jpeg_is_damage_warning(code))) {
            char text[JMSG_LENGTH_MAX];
            (*cinfo->err->format_message)(cinfo, text);
            wik_jpeg_fail(cinfo, code == JWRN_JPEG_EOF ? WIK_JPEG_TRUNCATED : WIK_JPEG_CORRUPT, text);
        }
        return;
    }
    if (!wik_jpeg_is_damage_warning(code)) return;
    wik_jpeg_damage *damage = error->damage;
    if (code == JWRN_JPEG_EOF) damage->truncated = 1;
    if (damage->found) return;
    damage->found = 1;
    damage->row = error->reading_rows && cinfo->is_decompressor
        ? (int32_t)((j_decompress_ptr)cinfo)->output_scanline : -1;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(damage->message, sizeof damage->message, "%s", text);
}

static void wik_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo; // never write to stderr
}

void wik_jpeg_init_error(wik_jpeg_error *error, char *err, size_t err_len) {
    jpeg_std_error(&error->pub);
    error->pub.error_exit = wik_jpeg_error_exit;
    error->pub.emit_message = wik_jpeg_emit_message;
    error->pub.output_message = wik_jpeg_output_message;
    error->status = WIK_JPEG_OK;
    error->err = err;
    error->err_len = err_len;
    error->damage = NULL;
    error->reading_rows = 0;
    if (err != NULL && err_len > 0) err[0] = '\0';
}

/// Makes the decode lenient when `damage` is not NULL, recording what it lets pass there; strict (every
/// damage warning fails) when it is NULL.
static void wik_jpeg_set_damage(wik_jpeg_error *error, wik_jpeg_damage *damage) {
    error->damage = damage;
    error->fail_on_damage = damage == NULL;
    if (damage != NULL) {
        memset(damage, 0, sizeof *damage);
        damage->row = -1;
    }
}
// MARK: - Decoding

/// Whether a lenient decode that `damage` describes has pixels to show: not when the data ended before the first
/// row was output (a file cut in its headers or first rows: browsers show nothing). Sets the message when not.
static int wik_jpeg_has_pixels(const wik_jpeg_damage *damage, char *err, size_t err_len) {
    if (damage == NULL || !damage->found || !damage->truncated || damage->row != 0) return 1;
    if (err != NULL && err_len > 0) snprintf(err, err_len, "the data ends before the first row (%s)", damage->message);
    return 0;
}

typedef struct {
    struct jpeg_decompress_struct cinfo;
    wik_jpeg_error error;
    struct jpeg_progress_mgr progress;
    /// A lenient progressive decode: the last scan read whole, and whether the input broke after it.
    int completed_scans;
    int input_broken;
} wik_jpeg_decoder;

/// After a fatal error while reading rows: records it as the damage (unless an earlier warning was recorded)
/// and fills the rows from the last whole one returned down with grey, as libjpeg fills data that is missing.
static void wik_jpeg_keep_rows_before_error(wik_jpeg_decoder *d, wik_jpeg_damage *damage, uint8_t *out, size_t out_stride,
                                            uint32_t out_width, uint32_t out_height) {
    const JDIMENSION kept = d->cinfo.output_scanline;
    if (!damage->found) {
        damage->found = 1;
        damage->row = (int32_t)kept;
        snprintf(damage->message, sizeof damage->message, "%s", d->error.err != NULL ? d->error.err : "corrupt JPEG data");
    }
    for (uint32_t y = kept; y < out_height; y++) {
        uint8_t *row = out + (size_t)y * out_stride;
        memset(row, 128, (size_t)out_width * 4);
        for (uint32_t x = 0; x < out_width; x++) row[x * 4 + 3] = 255;
    }
}

void wik_jpeg_limit_scans(j_common_ptr cinfo) {
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

/// RGBA straight from libjpeg for grey, YCbCr and RGB; CMYK/YCCK come out as CMYK and are converted
/// to RGBA row by row. Anything else fails. Call only under a jump buffer, after the header is read.
void wik_jpeg_choose_output_color_space(j_decompress_ptr cinfo) {
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo->out_color_space = JCS_EXT_RGBA;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;
        break;
    default: {
        char text[96];
        snprintf(text, sizeof text, "unsupported JPEG colour space with %d components", cinfo->num_components);
        wik_jpeg_fail((j_common_ptr)cinfo, WIK_JPEG_CORRUPT, text);
    }
    }
}

/// Reads the header and sets the output colour space and scale. Call only under a jump buffer.
static void wik_jpeg_begin(wik_jpeg_decoder *d, const uint8_t *data, size_t size, int scale_denom) {
    jpeg_create_decompress(&d->cinfo);
    d->progress.progress_monitor = wik_jpeg_limit_scans;
    d->cinfo.progress = &d->progress;
    if (size == 0) wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_TRUNCATED, "the data is empty");
    if (size > ULONG_MAX) wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_CORRUPT, "the data is too large");
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_CORRUPT, "the scale denominator must be 1, 2, 4 or 8");
    }
    jpeg_mem_src(&d->cinfo, data, (unsigned long)size);
    jpeg_read_header(&d->cinfo, TRUE);
    wik_jpeg_choose_output_color_space(&d->cinfo);
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

/// a × b / 255 rounded to the nearest integer, computed exactly as Pillow's MULDIV255.
static inline unsigned wik_mul_div255(unsigned a, unsigned b) {
    unsigned t = a * b + 128;
    return ((t >> 8) + t) >> 8;
}

/// Converts CMYK rows to RGBA in place. The inks are read as stored inverted (0 = full ink), as
/// Photoshop writes them with its Adobe APP14 marker, and as Chrome, Firefox and Pillow read every
/// CMYK JPEG, marker or not: a file without the marker decodes the same. The conversion is the
/// naive R = (1 − C)(1 − K) browsers use without an ICC profile, rounded exactly like Pillow's.
void wik_jpeg_cmyk_to_rgba(uint8_t *row, uint32_t width) {
    for (uint32_t x = 0; x < width; x++, row += 4) {
        unsigned c = 255u - row[0], m = 255u - row[1], y = 255u - row[2], k = 255u - row[3];
        unsigned nk = 255 - k;
        row[0] = (uint8_t)(nk - wik_mul_div255(c, nk));
        row[1] = (uint8_t)(nk - wik_mul_div255(m, nk));
        row[2] = (uint8_t)(nk - wik_mul_div255(y, nk));
        row[3] = 255;
    }
}

/// Reads every output row into `out` (`out_stride` apart), converting CMYK rows to RGBA. Call under a jump buffer,
/// after jpeg_start_decompress or jpeg_start_output.
static void wik_jpeg_read_rows(wik_jpeg_decoder *d, uint8_t *out, size_t out_stride) {
    d->error.reading_rows = 1;
    const int cmyk = d->cinfo.out_color_space == JCS_CMYK;
    JSAMPROW rows[WIK_JPEG_ROW_BATCH];
    while (d->cinfo.output_scanline < d->cinfo.output_height) {
        JDIMENSION first = d->cinfo.output_scanline;
        JDIMENSION count = d->cinfo.output_height - first;
        if (count > WIK_JPEG_ROW_BATCH) count = WIK_JPEG_ROW_BATCH;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = out + (size_t)(first + i) * out_stride;
        JDIMENSION read = jpeg_read_scanlines(&d->cinfo, rows, count);
        if (read == 0) wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_CORRUPT, "libjpeg returned no rows");
        if (cmyk) {
            for (JDIMENSION i = 0; i < read; i++) wik_jpeg_cmyk_to_rgba(rows[i], d->cinfo.output_width);
        }
    }
}

/// A lenient decode of a progressive file, in libjpeg's buffered-image mode: every scan is read, then one output
/// pass shows them, as the normal mode does. When the data ends inside a marker (libjpeg's made-up end of image
/// then breaks it with an error), the output shows the scans completed before, as Chromium, which waits for more
/// data there, shows such files. Any other error fails, as it does in Chromium.
static int wik_jpeg_decode_progressive(wik_jpeg_decoder *d, wik_jpeg_damage *damage, uint8_t *out, size_t out_stride) {
    if (setjmp(d->error.jump)) {
        if (d->error.status != WIK_JPEG_CORRUPT || !damage->truncated || d->completed_scans == 0 || d->input_broken) {
            jpeg_destroy_decompress(&d->cinfo);
            return d->error.status;
        }
        d->input_broken = 1;
    }
    if (!d->input_broken) {
        d->cinfo.buffered_image = TRUE;
        jpeg_start_decompress(&d->cinfo);
        for (;;) {
            const int result = jpeg_consume_input(&d->cinfo);
            if (result == JPEG_SCAN_COMPLETED) d->completed_scans = d->cinfo.input_scan_number;
            if (result == JPEG_REACHED_EOI || result == JPEG_SUSPENDED) break;
        }
    }
    if (setjmp(d->error.jump)) {
        jpeg_destroy_decompress(&d->cinfo);
        return d->error.status;
    }
    // After broken input, the last completed scan, without block smoothing (which may read on to the next scan's
    // rows): the output's scan then never catches up with the input's, so libjpeg reads no more of it.
    if (d->input_broken) d->cinfo.do_block_smoothing = FALSE;
    jpeg_start_output(&d->cinfo, d->input_broken ? d->completed_scans : d->cinfo.input_scan_number);
    wik_jpeg_read_rows(d, out, out_stride);
    // Finishing would read on to the next scan's marker (the broken one): a broken decode just ends.
    if (!d->input_broken) {
        jpeg_finish_output(&d->cinfo);
        jpeg_finish_decompress(&d->cinfo);
    }
    jpeg_destroy_decompress(&d->cinfo);
    return WIK_JPEG_OK;
}

int wik_jpeg_decode_rgba(const uint8_t *data, size_t size, int scale_denom,
                         uint8_t *out, size_t out_stride, uint32_t out_width, uint32_t out_height,
                         size_t max_memory, wik_jpeg_damage *damage, char *err, size_t err_len) {
    wik_jpeg_decoder d;
    wik_jpeg_prepare_decoder(&d, err, err_len);
    wik_jpeg_set_damage(&d.error, damage);
    if (setjmp(d.error.jump)) {
        // Lenient: an error after some rows were output keeps them, the rest grey, as Chromium shows them (it draws
        // rows as they come). A progressive file's error comes before any row (its scans are all read first), and
        // Chromium, which reads them first too when it has the whole file, shows nothing then either.
        if (damage != NULL && d.error.status == WIK_JPEG_CORRUPT && d.error.reading_rows && d.cinfo.output_scanline > 0) {
            wik_jpeg_keep_rows_before_error(&d, damage, out, out_stride, out_width, out_height);
            jpeg_destroy_decompress(&d.cinfo);
            return WIK_JPEG_OK;
        }
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
    if (damage != NULL && d.cinfo.progressive_mode) {
        const int status = wik_jpeg_decode_progressive(&d, damage, out, out_stride);
        return status == WIK_JPEG_OK && !wik_jpeg_has_pixels(damage, err, err_len) ? WIK_JPEG_TRUNCATED : status;
    }
    jpeg_start_decompress(&d.cinfo);
    wik_jpeg_read_rows(&d, out, out_stride);
    // Reads through to EOI: a file cut after its last scan still reports the premature end.
    jpeg_finish_decompress(&d.cinfo);
    jpeg_destroy_decompress(&d.cinfo);
    return wik_jpeg_has_pixels(damage, err, err_len) ? WIK_JPEG_OK : WIK_JPEG_TRUNCATED;
}

// MARK: - Raw CMYK (for colour management)

int wik_jpeg_decode_cmyk(const uint8_t *data, size_t size, int scale_denom,
                         uint8_t *out, uint32_t out_width, uint32_t out_height,
                         size_t max_memory, wik_jpeg_damage *damage, char *err, size_t err_len) {
    wik_jpeg_decoder d;
    wik_jpeg_prepare_decoder(&d, err, err_len);
    wik_jpeg_set_damage(&d.error, damage);
    if (setjmp(d.error.jump)) {
        jpeg_destroy_decompress(&d.cinfo);
        return d.error.status;
    }
    wik_jpeg_begin(&d, data, size, scale_denom);
    if (max_memory > 0) d.cinfo.mem->max_memory_to_use = max_memory > LONG_MAX ? LONG_MAX : (long)max_memory;
    if (d.cinfo.out_color_space != JCS_CMYK) {
        wik_jpeg_fail((j_common_ptr)&d.cinfo, WIK_JPEG_CORRUPT, "the JPEG is not CMYK or YCCK");
    }
    if (d.cinfo.output_width != out_width || d.cinfo.output_height != out_height) {
        wik_jpeg_fail((j_common_ptr)&d.cinfo, WIK_JPEG_CORRUPT, "the output size differs from the one allocated");
    }
    jpeg_start_decompress(&d.cinfo);
    d.error.reading_rows = 1;
    JSAMPROW rows[WIK_JPEG_ROW_BATCH];
    while (d.cinfo.output_scanline < d.cinfo.output_height) {
        JDIMENSION first = d.cinfo.output_scanline;
        JDIMENSION count = d.cinfo.output_height - first;
        if (count > WIK_JPEG_ROW_BATCH) count = WIK_JPEG_ROW_BATCH;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = out + (size_t)(first + i) * out_width * 4;
        JDIMENSION read = jpeg_read_scanlines(&d.cinfo, rows, count);
        if (read == 0) wik_jpeg_fail((j_common_ptr)&d.cinfo, WIK_JPEG_CORRUPT, "libjpeg returned no rows");
    }
    jpeg_finish_decompress(&d.cinfo);
    jpeg_destroy_decompress(&d.cinfo);
    return WIK_JPEG_OK;
}
