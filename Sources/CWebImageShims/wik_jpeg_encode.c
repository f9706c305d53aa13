// JPEG encoding glue: see include/wik_jpeg.h. Shares the error manager in wik_jpeg.c.
#include "wik_jpeg.h"
#include "wik_jpeg_private.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>

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
                         int quality, int progressive, int exif_orientation,
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
    if (progressive) jpeg_simple_progression(&e.cinfo);
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
