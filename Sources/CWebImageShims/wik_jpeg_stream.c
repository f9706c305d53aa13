// JPEG band-by-band decoding: see wik_jpeg_stream_* in include/wik_jpeg.h.
//
// The decompressor lives on the heap, so its state is intact after a longjmp. Each public function
// sets its own jump buffer before calling libjpeg, so libjpeg's longjmp lands in the function that
// called it and never crosses a Swift frame; between calls no libjpeg code runs.
#include "wik_jpeg.h"
#include "wik_jpeg_private.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct wik_jpeg_stream {
    struct jpeg_decompress_struct cinfo;
    wik_jpeg_error error;
    struct jpeg_progress_mgr progress;
    /// 1 while the decompressor exists (created and not yet destroyed).
    int created;
    /// The status of the first failure; later calls return it without touching libjpeg.
    int failed_status;
    int cmyk;
    /// What a lenient stream let pass.
    wik_jpeg_damage damage;
    /// The output size, kept after a lenient stream's decompressor is gone.
    uint32_t width, height;
    /// Rows handed to the caller so far.
    uint32_t produced;
    /// Lenient, after an error in the entropy data: the rest of the rows are grey, without libjpeg.
    int grey;
};

/// Writes `count` grey opaque rows (what libjpeg makes of missing data) from `out` on.
static void wik_stream_grey_rows(uint8_t *out, size_t out_stride, uint32_t width, uint32_t count) {
    for (uint32_t y = 0; y < count; y++) {
        uint8_t *row = out + (size_t)y * out_stride;
        memset(row, 128, (size_t)width * 4);
        for (uint32_t x = 0; x < width; x++) row[x * 4 + 3] = 255;
    }
}

/// After a longjmp in wik_jpeg_stream_read: whether a lenient stream goes on in grey (rows were output before
/// the error, which was in the data, not memory); records the damage when it does.
static int wik_stream_goes_on_grey(wik_jpeg_stream *s) {
    if (s->error.damage == NULL || s->error.status != WIK_JPEG_CORRUPT || s->cinfo.output_scanline == 0) return 0;
    if (!s->damage.found) {
        s->damage.found = 1;
        s->damage.row = (int32_t)s->cinfo.output_scanline;
        snprintf(s->damage.message, sizeof s->damage.message, "%s", s->error.err != NULL ? s->error.err : "corrupt JPEG data");
    }
    s->grey = 1;
    jpeg_destroy_decompress(&s->cinfo);
    s->created = 0;
    return 1;
}

/// Points the error manager at this call's message buffer.
static void wik_stream_begin_call(wik_jpeg_stream *s, char *err, size_t err_len) {
    s->error.err = err;
    s->error.err_len = err_len;
    if (err != NULL && err_len > 0) err[0] = '\0';
}

/// After a longjmp: remembers the status and releases libjpeg's memory at once.
static int wik_stream_failed(wik_jpeg_stream *s) {
    s->failed_status = s->error.status != WIK_JPEG_OK ? s->error.status : WIK_JPEG_CORRUPT;
    if (s->created) {
        jpeg_destroy_decompress(&s->cinfo);
        s->created = 0;
    }
    return s->failed_status;
}

wik_jpeg_stream *wik_jpeg_stream_open(const uint8_t *data, size_t size, int scale_num, size_t max_memory,
                                      int vector_idct, int lenient, uint32_t *out_width, uint32_t *out_height,
                                      int *status, char *err, size_t err_len) {
    *out_width = 0;
    *out_height = 0;
    wik_jpeg_stream *s = calloc(1, sizeof *s);
    if (s == NULL) {
        *status = WIK_JPEG_TOO_LARGE;
        if (err != NULL && err_len > 0) snprintf(err, err_len, "out of memory for the decoder");
        return NULL;
    }
    wik_jpeg_init_error(&s->error, err, err_len);
    s->damage.row = -1;
    if (lenient) s->error.damage = &s->damage;
    else s->error.fail_on_damage = 1;
    s->cinfo.err = &s->error.pub;
    if (setjmp(s->error.jump)) {
        *status = wik_stream_failed(s);
        free(s);
        return NULL;
    }
    jpeg_create_decompress(&s->cinfo);
    s->created = 1;
    s->progress.progress_monitor = wik_jpeg_limit_scans;
    s->cinfo.progress = &s->progress;
    if (size == 0) wik_jpeg_fail((j_common_ptr)&s->cinfo, WIK_JPEG_TRUNCATED, "the data is empty");
    if (size > ULONG_MAX) wik_jpeg_fail((j_common_ptr)&s->cinfo, WIK_JPEG_CORRUPT, "the data is too large");
    if (scale_num < 1 || scale_num > 16) {
        wik_jpeg_fail((j_common_ptr)&s->cinfo, WIK_JPEG_CORRUPT, "the scale numerator must be 1 to 16");
    }
    if (max_memory > 0) s->cinfo.mem->max_memory_to_use = max_memory > LONG_MAX ? LONG_MAX : (long)max_memory;
    jpeg_mem_src(&s->cinfo, data, (unsigned long)size);
    jpeg_read_header(&s->cinfo, TRUE);
    wik_jpeg_choose_output_color_space(&s->cinfo);
    s->cinfo.scale_num = (unsigned int)scale_num;
    s->cinfo.scale_denom = 8;
    jpeg_start_decompress(&s->cinfo);
    if (vector_idct) wik_jpeg_use_vector_idct(&s->cinfo);
    s->cmyk = s->cinfo.out_color_space == JCS_CMYK;
    s->error.reading_rows = 1;
    *out_width = s->width = s->cinfo.output_width;
    *out_height = s->height = s->cinfo.output_height;
    *status = WIK_JPEG_OK;
    return s;
}

int wik_jpeg_stream_read(wik_jpeg_stream *s, uint8_t *out, size_t out_stride, uint32_t max_rows,
                         uint32_t *rows_read, char *err, size_t err_len) {
    *rows_read = 0;
    if (s == NULL) return WIK_JPEG_CORRUPT;
    if (s->failed_status != WIK_JPEG_OK) return s->failed_status;
    if (out == NULL || out_stride / 4 < (size_t)s->width) return WIK_JPEG_CORRUPT;
    const uint32_t wanted = max_rows < s->height - s->produced ? max_rows : s->height - s->produced;
    if (s->grey) {
        wik_stream_grey_rows(out, out_stride, s->width, wanted);
        s->produced += wanted;
        *rows_read = wanted;
        return WIK_JPEG_OK;
    }
    wik_stream_begin_call(s, err, err_len);
    if (setjmp(s->error.jump)) {
        if (!wik_stream_goes_on_grey(s)) return wik_stream_failed(s);
        // This call's rows before the error are kept (output_scanline counts them); the rest are grey.
        uint32_t kept = s->damage.row >= 0 && (uint32_t)s->damage.row > s->produced ? (uint32_t)s->damage.row - s->produced : 0;
        if (kept > wanted) kept = wanted;
        wik_stream_grey_rows(out + (size_t)kept * out_stride, out_stride, s->width, wanted - kept);
        s->produced += wanted;
        *rows_read = wanted;
        return WIK_JPEG_OK;
    }
    JSAMPROW rows[WIK_JPEG_ROW_BATCH];
    uint32_t total = 0;
    while (total < wanted) {
        uint32_t count = wanted - total;
        if (count > WIK_JPEG_ROW_BATCH) count = WIK_JPEG_ROW_BATCH;
        for (uint32_t i = 0; i < count; i++) rows[i] = out + (size_t)(total + i) * out_stride;
        JDIMENSION read = jpeg_read_scanlines(&s->cinfo, rows, count);
        if (read == 0) wik_jpeg_fail((j_common_ptr)&s->cinfo, WIK_JPEG_CORRUPT, "libjpeg returned no rows");
        if (s->cmyk) {
            for (JDIMENSION i = 0; i < read; i++) wik_jpeg_cmyk_to_rgba(rows[i], s->cinfo.output_width);
        }
        total += read;
    }
    s->produced += total;
    *rows_read = total;
    return WIK_JPEG_OK;
}

int wik_jpeg_stream_finish(wik_jpeg_stream *s, char *err, size_t err_len) {
    if (s == NULL) return WIK_JPEG_CORRUPT;
    if (s->failed_status != WIK_JPEG_OK) return s->failed_status;
    wik_stream_begin_call(s, err, err_len);
    if (s->produced < s->height) {
        if (err != NULL && err_len > 0) snprintf(err, err_len, "finished before every row was read");
        return WIK_JPEG_CORRUPT;
    }
    if (!s->grey) {
        if (setjmp(s->error.jump)) {
            // Lenient: every row was output, so an error after them (an unknown marker) costs nothing.
            if (s->error.damage == NULL || s->error.status != WIK_JPEG_CORRUPT) return wik_stream_failed(s);
            wik_stream_goes_on_grey(s);
            return WIK_JPEG_OK;
        }
        jpeg_finish_decompress(&s->cinfo);
    }
    if (s->error.damage != NULL && s->damage.found && s->damage.truncated && s->damage.row == 0) {
        // Cut before its first row: browsers show nothing.
        if (err != NULL && err_len > 0) snprintf(err, err_len, "the data ends before the first row (%s)", s->damage.message);
        return WIK_JPEG_TRUNCATED;
    }
    return WIK_JPEG_OK;
}

const wik_jpeg_damage *wik_jpeg_stream_damage(const wik_jpeg_stream *s) {
    return &s->damage;
}

void wik_jpeg_stream_free(wik_jpeg_stream *s) {
    if (s == NULL) return;
    if (s->created) jpeg_destroy_decompress(&s->cinfo);
    free(s);
}
