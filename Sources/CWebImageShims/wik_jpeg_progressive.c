// Incremental JPEG decoding: see the progressive section of include/wik_jpeg.h.
//
// libjpeg runs in buffered-image mode over a suspending data source, the way browsers drive it.
// The source never inserts a fake EOI: when the bytes run out, fill_input_buffer returns FALSE and
// libjpeg backs up to a safe point (the start of a marker segment, or of an MCU). The decoder keeps
// the stream position between calls; each call re-attaches the source to the caller's buffer (which
// holds all the bytes so far) at that position, so no byte is parsed or entropy-decoded twice.
//
// Each call first absorbs all new input into libjpeg's coefficient buffer, counting completed scans,
// then renders:
//   - while the first scan is incomplete, one output pass of scan 1 stays open across calls and
//     advances as far as the data allows (libjpeg suspends the pass where the input stops), so a
//     baseline file grows from the top and its rows below stay transparent;
//   - each time a newer scan is complete and the next one has begun, one full output pass of that
//     scan (a progressive file sharpens scan by scan, full size; at most one pass per call and one
//     per scan in total).
// Once EOI is read the caller decodes the whole data one-shot, which gives the exact final image.
#include "wik_jpeg.h"
#include "wik_jpeg_private.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// The same limit as the one-shot decoder (see wik_jpeg.c).
#define WIK_JPEG_MAX_SCANS 1000

struct wik_jpeg_progressive {
    /// First member, so libjpeg's callbacks can reach the decoder from their `cinfo`.
    struct jpeg_decompress_struct cinfo;
    wik_jpeg_error error;
    struct jpeg_source_mgr source;
    size_t max_memory;
    /// Bytes of the stream consumed so far, including bytes skip_input_data dropped past the end.
    size_t position;
    /// During a call: bytes skip_input_data still has to drop beyond the end of the data.
    size_t pending_skip;
    /// `cinfo` is created and not yet destroyed.
    int alive;
    /// The status of the failed call, once one failed (the decoder is then unusable).
    int failed;
    int header_read;
    int started;
    /// An output pass is open (suspended part-way, to be continued with more data).
    int pass_open;
    /// A finished pass awaits jpeg_finish_output (it needs the next scan's SOS first).
    int finishing;
    int first_pass_started;
    int completed_scans;
    /// The scan of the last complete output pass (0: none yet).
    int shown_scan;
    uint32_t valid_rows;
    uint8_t *pixels;
};

// MARK: - Suspending source

static void wik_source_init(j_decompress_ptr cinfo) { (void)cinfo; }

/// No more bytes in this call: suspend (libjpeg keeps the unconsumed bytes for the next call).
static boolean wik_source_fill(j_decompress_ptr cinfo) {
    (void)cinfo;
    return FALSE;
}

static void wik_source_skip(j_decompress_ptr cinfo, long num_bytes) {
    if (num_bytes <= 0) return;
    wik_jpeg_progressive *d = (wik_jpeg_progressive *)cinfo;
    struct jpeg_source_mgr *src = cinfo->src;
    size_t count = (size_t)num_bytes;
    if (count > src->bytes_in_buffer) {
        d->pending_skip += count - src->bytes_in_buffer;
        src->next_input_byte += src->bytes_in_buffer;
        src->bytes_in_buffer = 0;
    } else {
        src->next_input_byte += count;
        src->bytes_in_buffer -= count;
    }
}

static void wik_source_term(j_decompress_ptr cinfo) { (void)cinfo; }

/// Points the source at `data` from the saved position.
static void wik_source_attach(wik_jpeg_progressive *d, const uint8_t *data, size_t size) {
    if (data == NULL) size = 0;
    if (d->position >= size) {
        d->source.next_input_byte = data == NULL ? NULL : data + size;
        d->source.bytes_in_buffer = 0;
        d->pending_skip = d->position - size;
    } else {
        d->source.next_input_byte = data + d->position;
        d->source.bytes_in_buffer = size - d->position;
        d->pending_skip = 0;
    }
}

/// Saves the position reached in `data` (of `size` bytes) for the next call.
static void wik_source_detach(wik_jpeg_progressive *d, const uint8_t *data, size_t size) {
    if (data == NULL) size = 0;
    d->position = size - d->source.bytes_in_buffer + d->pending_skip;
    d->pending_skip = 0;
    d->source.next_input_byte = NULL;
    d->source.bytes_in_buffer = 0;
}

// MARK: - Life cycle

wik_jpeg_progressive *wik_jpeg_progressive_create(size_t max_memory) {
    wik_jpeg_progressive *d = calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->max_memory = max_memory;
    wik_jpeg_init_error(&d->error, NULL, 0);
    d->cinfo.err = &d->error.pub;
    if (setjmp(d->error.jump)) { // jpeg_create_decompress fails only when out of memory
        jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->alive = 1;
    if (max_memory > 0) d->cinfo.mem->max_memory_to_use = max_memory > LONG_MAX ? LONG_MAX : (long)max_memory;
    d->source.init_source = wik_source_init;
    d->source.fill_input_buffer = wik_source_fill;
    d->source.skip_input_data = wik_source_skip;
    d->source.resync_to_restart = jpeg_resync_to_restart;
    d->source.term_source = wik_source_term;
    d->cinfo.src = &d->source;
    return d;
}

void wik_jpeg_progressive_free(wik_jpeg_progressive *d) {
    if (d == NULL) return;
    if (d->alive) jpeg_destroy_decompress(&d->cinfo);
    free(d->pixels);
    free(d);
}

/// Starts a public call: routes messages to `err`. Returns the earlier failure, or WIK_JPEG_OK.
static int wik_progressive_begin_call(wik_jpeg_progressive *d, char *err, size_t err_len) {
    d->error.err = err;
    d->error.err_len = err_len;
    d->error.status = WIK_JPEG_OK;
    if (err != NULL && err_len > 0) err[0] = '\0';
    if (d->failed) {
        if (err != NULL && err_len > 0) snprintf(err, err_len, "an earlier call failed");
        return d->failed;
    }
    return WIK_JPEG_OK;
}

/// After a longjmp: libjpeg's state is undefined, so release it and remember the failure.
static int wik_progressive_fail(wik_jpeg_progressive *d) {
    int status = d->error.status == WIK_JPEG_OK ? WIK_JPEG_CORRUPT : d->error.status;
    if (d->alive) jpeg_destroy_decompress(&d->cinfo);
    d->alive = 0;
    d->failed = status;
    free(d->pixels);
    d->pixels = NULL;
    return status;
}

// MARK: - Header

int wik_jpeg_progressive_read_header(wik_jpeg_progressive *d, const uint8_t *data, size_t size,
                                     wik_jpeg_info *info, char *err, size_t err_len) {
    if (d == NULL || info == NULL) return WIK_JPEG_CORRUPT;
    memset(info, 0, sizeof *info);
    int earlier = wik_progressive_begin_call(d, err, err_len);
    if (earlier != WIK_JPEG_OK) return earlier;
    if (setjmp(d->error.jump)) return wik_progressive_fail(d);
    if (!d->header_read) {
        wik_source_attach(d, data, size);
        int result = jpeg_read_header(&d->cinfo, TRUE);
        wik_source_detach(d, data, size);
        if (result == JPEG_SUSPENDED) return WIK_JPEG_NEED_MORE_DATA;
        wik_jpeg_choose_output_color_space(&d->cinfo);
        d->header_read = 1;
    }
    info->width = d->cinfo.image_width;
    info->height = d->cinfo.image_height;
    info->output_width = d->cinfo.image_width;
    info->output_height = d->cinfo.image_height;
    info->components = d->cinfo.num_components;
    switch (d->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: info->color_space = WIK_JPEG_COLOR_GRAY; break;
    case JCS_YCbCr: info->color_space = WIK_JPEG_COLOR_YCBCR; break;
    case JCS_RGB: info->color_space = WIK_JPEG_COLOR_RGB; break;
    case JCS_CMYK: info->color_space = WIK_JPEG_COLOR_CMYK; break;
    case JCS_YCCK: info->color_space = WIK_JPEG_COLOR_YCCK; break;
    default: info->color_space = WIK_JPEG_COLOR_UNKNOWN; break;
    }
    info->progressive = d->cinfo.progressive_mode ? 1 : 0;
    info->adobe_marker = d->cinfo.saw_Adobe_marker ? 1 : 0;
    return WIK_JPEG_OK;
}

// MARK: - Decoding

/// Reads rows of the open output pass into the canvas until the pass ends or the input runs out.
static void wik_progressive_read_rows(wik_jpeg_progressive *d) {
    j_decompress_ptr cinfo = &d->cinfo;
    size_t stride = (size_t)cinfo->output_width * 4;
    int cmyk = cinfo->out_color_space == JCS_CMYK;
    JSAMPROW rows[WIK_JPEG_ROW_BATCH];
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->output_height - first;
        if (count > WIK_JPEG_ROW_BATCH) count = WIK_JPEG_ROW_BATCH;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = d->pixels + (size_t)(first + i) * stride;
        JDIMENSION read = jpeg_read_scanlines(cinfo, rows, count);
        if (cmyk) {
            for (JDIMENSION i = 0; i < read; i++) wik_jpeg_cmyk_to_rgba(rows[i], cinfo->output_width);
        }
        if (read == 0) return; // suspended: the input stops here
    }
}

/// Configures the output and allocates the (transparent) canvas. Call only under the jump buffer.
static void wik_progressive_start(wik_jpeg_progressive *d, int scale_denom) {
    j_common_ptr common = (j_common_ptr)&d->cinfo;
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        wik_jpeg_fail(common, WIK_JPEG_CORRUPT, "the scale denominator must be 1, 2, 4 or 8");
    }
    d->cinfo.scale_num = 1;
    d->cinfo.scale_denom = (unsigned int)scale_denom;
    d->cinfo.buffered_image = TRUE;
    jpeg_calc_output_dimensions(&d->cinfo);
    size_t width = d->cinfo.output_width, height = d->cinfo.output_height;
    if (width == 0 || height == 0 || width > SIZE_MAX / 4 / height) {
        wik_jpeg_fail(common, WIK_JPEG_TOO_LARGE, "the output size overflows");
    }
    d->pixels = calloc(width * height, 4);
    if (d->pixels == NULL) wik_jpeg_fail(common, WIK_JPEG_TOO_LARGE, "cannot allocate the output");
    jpeg_start_decompress(&d->cinfo); // buffered-image mode: sets up only, never suspends
    d->started = 1;
}

/// Feeds every byte received into the coefficient buffer, counting the scans it completes.
static void wik_progressive_absorb(wik_jpeg_progressive *d) {
    while (!jpeg_input_complete(&d->cinfo)) {
        int result = jpeg_consume_input(&d->cinfo);
        if (result == JPEG_SUSPENDED || result == JPEG_REACHED_EOI) return;
        if (result == JPEG_SCAN_COMPLETED) d->completed_scans++;
        if (d->cinfo.input_scan_number > WIK_JPEG_MAX_SCANS) {
            char text[96];
            snprintf(text, sizeof text, "more than %d scans in a progressive JPEG", WIK_JPEG_MAX_SCANS);
            wik_jpeg_fail((j_common_ptr)&d->cinfo, WIK_JPEG_CORRUPT, text);
        }
    }
}

/// Advances the open pass, or starts one for the first or the newest complete scan. Returns
/// whether any row was written. All input is absorbed first, so libjpeg's own input calls inside
/// the output functions find nothing left to read (and no scan completion goes uncounted).
static int wik_progressive_render(wik_jpeg_progressive *d) {
    int updated = 0;
    if (d->finishing) {
        if (!jpeg_finish_output(&d->cinfo)) return 0;
        d->finishing = 0;
    }
    for (;;) {
        if (!d->pass_open) {
            // The newest complete scan whose successor has started: while the input sits between
            // scan s and the next SOS, libjpeg's block smoothing makes a pass of a DC scan s wait
            // for input on its last rows, so scan s is shown once the next scan begins.
            int scan = d->completed_scans;
            if (scan > 0 && d->cinfo.input_scan_number <= scan) scan--;
            if (scan <= d->shown_scan) {
                if (d->first_pass_started) return updated;
                scan = 1; // the first scan, shown as far as it has arrived
            }
            jpeg_start_output(&d->cinfo, scan);
            d->pass_open = 1;
            d->first_pass_started = 1;
        }
        JDIMENSION before = d->cinfo.output_scanline;
        wik_progressive_read_rows(d);
        if (d->cinfo.output_scanline > before) updated = 1;
        if (d->cinfo.output_scanline > d->valid_rows) d->valid_rows = d->cinfo.output_scanline;
        if (d->cinfo.output_scanline < d->cinfo.output_height) return updated; // continues next call
        d->pass_open = 0;
        d->shown_scan = d->cinfo.output_scan_number;
        if (!jpeg_finish_output(&d->cinfo)) {
            d->finishing = 1;
            return updated;
        }
    }
}

int wik_jpeg_progressive_decode(wik_jpeg_progressive *d, const uint8_t *data, size_t size,
                                int scale_denom, wik_jpeg_partial *out, char *err, size_t err_len) {
    if (d == NULL || out == NULL) return WIK_JPEG_CORRUPT;
    memset(out, 0, sizeof *out);
    int earlier = wik_progressive_begin_call(d, err, err_len);
    if (earlier != WIK_JPEG_OK) return earlier;
    if (!d->header_read) {
        if (err != NULL && err_len > 0) snprintf(err, err_len, "the header has not been read");
        return WIK_JPEG_CORRUPT;
    }
    if (setjmp(d->error.jump)) return wik_progressive_fail(d);
    wik_source_attach(d, data, size);
    if (!d->started) wik_progressive_start(d, scale_denom);
    wik_progressive_absorb(d);
    if (jpeg_input_complete(&d->cinfo)) {
        wik_source_detach(d, data, size);
        return WIK_JPEG_OK;
    }
    int updated = wik_progressive_render(d);
    wik_source_detach(d, data, size);
    out->width = d->cinfo.output_width;
    out->height = d->cinfo.output_height;
    out->valid_rows = d->valid_rows;
    out->updated = updated;
    out->completed_scans = d->completed_scans;
    out->pixels = d->pixels;
    return d->valid_rows == 0 ? WIK_JPEG_NEED_MORE_DATA : WIK_JPEG_PARTIAL;
}
