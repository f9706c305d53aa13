// Progressive PNG reader over libpng's push API: see include/wik_png.h.
//
// libpng calls back from inside png_process_data: the info callback once the chunks before the first
// IDAT are read (the pixel limit is checked and the output buffer allocated there, nothing earlier),
// the row callback for each decoded row, the end callback at IEND. Errors longjmp back to the setjmp
// of wik_png_progressive_push; every field that changes lives in the heap struct, so it is intact
// afterwards, and a failed reader stays failed.
#include "wik_png.h"
#include "wik_png_private.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define WIK_PNG_PROGRESSIVE_MESSAGE_CAPACITY 256

struct wik_png_progressive {
    png_structp png;
    png_infop info;
    uint64_t maximum_pixel_count;
    uint32_t maximum_side;
    wik_png_header header;
    int has_header;
    int interlaced;
    uint8_t *pixels;          // calloc'd in the info callback; freed by destroy
    size_t pixels_size;
    size_t stride;
    uint64_t rows_written;
    int pass;
    uint32_t last_row;
    int complete;
    int lenient;              // wik_png_progressive_set_lenient: chunks with a bad CRC are used
    int configured;           // callbacks and limits installed (on the first push)
    int too_large;
    int out_of_memory;
    wik_png_status failure;   // WIK_PNG_OK until a push fails; then sticky
    char message[WIK_PNG_PROGRESSIVE_MESSAGE_CAPACITY];
};

static void wik_png_progressive_error(png_structp png, png_const_charp text) {
    wik_png_progressive *reader = (wik_png_progressive *)png_get_error_ptr(png);
    wik_png_copy_message(reader->message, sizeof reader->message, text);
    png_longjmp(png, 1);
}

static void wik_png_progressive_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text; // warnings are not failures, and nothing is printed
}

static void wik_png_progressive_info(png_structp png, png_infop info) {
    wik_png_progressive *reader = (wik_png_progressive *)png_get_progressive_ptr(png);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    reader->header.width = width;
    reader->header.height = height;
    reader->header.bit_depth = bit_depth;
    reader->header.color_type = color_type;
    reader->header.interlace_method = interlace;
    reader->header.has_alpha = wik_png_has_alpha(png, info);

    // The limit is checked before any pixel memory exists.
    if (width > reader->maximum_side || height > reader->maximum_side
        || (uint64_t)width * height > reader->maximum_pixel_count) {
        reader->too_large = 1;
        png_error(png, "the image exceeds the pixel limit");
    }
    wik_png_set_rgba_transforms(png, info); // includes png_set_interlace_handling and png_read_update_info
    reader->interlaced = interlace != PNG_INTERLACE_NONE;
    reader->stride = (size_t)width * 4;
    if (height > 0 && reader->stride > SIZE_MAX / height) {
        reader->too_large = 1;
        png_error(png, "the image does not fit in memory");
    }
    reader->pixels_size = reader->stride * height;
    reader->pixels = calloc(reader->pixels_size > 0 ? reader->pixels_size : 1, 1);
    if (reader->pixels == NULL) {
        reader->out_of_memory = 1;
        png_error(png, "out of memory for the pixels");
    }
    reader->has_header = 1;
}

static void wik_png_progressive_row(png_structp png, png_bytep new_row, png_uint_32 row, int pass) {
    wik_png_progressive *reader = (wik_png_progressive *)png_get_progressive_ptr(png);
    // For Adam7, libpng also calls back for rows a pass does not touch, with new_row NULL.
    if (new_row == NULL || reader->pixels == NULL || row >= reader->header.height) return;
    png_bytep destination = reader->pixels + (size_t)row * reader->stride;
    if (reader->interlaced) {
        // "Blocky" combine: the pass's pixels fill the block they stand for (libpng also repeats a
        // pass row over the rows of its block), so early passes give a coarse full-size preview.
        png_progressive_combine_row(png, destination, new_row);
    } else {
        memcpy(destination, new_row, reader->stride);
    }
    reader->rows_written++;
    reader->pass = pass;
    reader->last_row = row;
}

static void wik_png_progressive_end(png_structp png, png_infop info) {
    (void)info;
    wik_png_progressive *reader = (wik_png_progressive *)png_get_progressive_ptr(png);
    reader->complete = 1;
}

wik_png_progressive *wik_png_progressive_create(uint64_t maximum_pixel_count, uint32_t maximum_side) {
    wik_png_progressive *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->maximum_pixel_count = maximum_pixel_count;
    reader->maximum_side = maximum_side;
    // Creation errors are caught by libpng itself (it returns NULL), so no setjmp is needed here.
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader,
                                         wik_png_progressive_error, wik_png_progressive_warning);
    if (reader->png == NULL) {
        free(reader);
        return NULL;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        png_destroy_read_struct(&reader->png, NULL, NULL);
        free(reader);
        return NULL;
    }
    return reader;
}

void wik_png_progressive_set_lenient(wik_png_progressive *reader) {
    if (reader != NULL && !reader->configured) reader->lenient = 1;
}

void wik_png_progressive_destroy(wik_png_progressive *reader) {
    if (reader == NULL) return;
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader->pixels);
    free(reader);
}

wik_png_status wik_png_progressive_push(wik_png_progressive *reader, const uint8_t *data, size_t size,
                                        char *message, size_t message_capacity) {
    if (reader == NULL || (data == NULL && size > 0)) return WIK_PNG_INVALID_ARGUMENT;
    if (reader->failure != WIK_PNG_OK) {
        wik_png_copy_message(message, message_capacity, reader->message);
        return reader->failure;
    }
    wik_png_copy_message(message, message_capacity, "");
    if (reader->complete || size == 0) return WIK_PNG_OK;
    png_structp png = reader->png;
    png_infop info = reader->info;

    if (setjmp(png_jmpbuf(png))) {
        reader->failure = reader->too_large ? WIK_PNG_TOO_LARGE
                        : reader->out_of_memory ? WIK_PNG_NO_MEMORY : WIK_PNG_CORRUPT;
        wik_png_copy_message(message, message_capacity, reader->message);
        return reader->failure;
    }
    if (!reader->configured) {
        reader->configured = 1;
        png_set_progressive_read_fn(png, reader, wik_png_progressive_info, wik_png_progressive_row,
                                    wik_png_progressive_end);
        wik_png_configure_reader(png);
        if (reader->lenient) png_set_crc_action(png, PNG_CRC_WARN_USE, PNG_CRC_WARN_USE);
    }
    // libpng only reads from the buffer; its prototype is not const.
    png_process_data(png, info, (png_bytep)data, size);
    return WIK_PNG_OK;
}

void wik_png_progressive_get_progress(const wik_png_progressive *reader, wik_png_progress *progress) {
    if (progress == NULL) return;
    memset(progress, 0, sizeof *progress);
    if (reader == NULL) return;
    progress->has_header = reader->has_header;
    progress->header = reader->header;
    progress->pixels = reader->pixels;
    progress->pixels_size = reader->pixels != NULL ? reader->pixels_size : 0;
    progress->rows_written = reader->rows_written;
    progress->pass = reader->pass;
    progress->last_row = reader->last_row;
    progress->complete = reader->complete;
}
