// PNG glue: see include/wik_png.h.
//
// Every public function that calls libpng sets its own setjmp first, so libpng's longjmp lands in
// this file and never crosses a Swift frame. State that changes after setjmp lives on the heap
// (the decoder or encoder struct), never in local variables, so it is valid after a longjmp.
#include "wik_png.h"
#include "wik_png_private.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

// The most memory libpng may allocate for one ancillary chunk (eXIf, iCCP, text...), in bytes.
#define WIK_PNG_CHUNK_MALLOC_MAX (8u << 20)
// The most ancillary chunks (sPLT, text, unknown) libpng keeps from one file.
#define WIK_PNG_CHUNK_CACHE_MAX 256u
// How many bytes a decoder reading on from a file reads at a time.
#define WIK_PNG_FILE_BUFFER_SIZE ((size_t)64 << 10)

// Colour management and text are not used: ignoring these chunks saves inflating them. Pixel values
// are taken as sRGB whatever gAMA/cHRM/iCCP say, as libvips does.
static const png_byte wik_png_ignored_chunks[] = "iCCP\0tEXt\0zTXt\0iTXt\0";

void wik_png_copy_message(char *destination, size_t capacity, const char *text) {
    if (destination == NULL || capacity == 0) return;
    size_t length = text != NULL ? strlen(text) : 0;
    if (length >= capacity) length = capacity - 1;
    if (length > 0) memcpy(destination, text, length);
    destination[length] = '\0';
}

// ---------------------------------------------------------------------------------------------
// Reader set-up shared with wik_png_progressive.c (see wik_png_private.h)

void wik_png_configure_reader(png_structp png) {
    // Dimensions are checked by the caller against its own pixel limit before any pixel memory
    // exists (libpng allocates row buffers only in png_read_update_info), so libpng's per-side
    // limit is raised to the PNG maximum: an oversized IHDR must read as "too large", not "invalid".
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_chunk_malloc_max(png, WIK_PNG_CHUNK_MALLOC_MAX);
    png_set_chunk_cache_max(png, WIK_PNG_CHUNK_CACHE_MAX);
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, wik_png_ignored_chunks,
                                (int)(sizeof wik_png_ignored_chunks / 5));
}

int wik_png_has_alpha(png_structp png, png_infop info) {
    return (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
}

void wik_png_set_rgba_transforms(png_structp png, png_infop info) {
    const int bit_depth = png_get_bit_depth(png, info);
    const int color_type = png_get_color_type(png, info);
    const int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (bit_depth == 16) png_set_scale_16(png); // round(v / 257), unlike png_set_strip_16
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) png_set_interlace_handling(png);
    png_read_update_info(png, info);

    if (png_get_rowbytes(png, info) != (size_t)png_get_image_width(png, info) * 4
        || png_get_channels(png, info) != 4 || png_get_bit_depth(png, info) != 8) {
        png_error(png, "libpng did not produce 8-bit RGBA rows");
    }
}

// ---------------------------------------------------------------------------------------------
// Decoding

struct wik_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;      // the bytes being read: the caller's, then file_buffer's
    size_t size;
    size_t offset;
    int fd;                   // where to read on once data is used up; -1 for none
    uint8_t *file_buffer;     // WIK_PNG_FILE_BUFFER_SIZE bytes when fd is set
    int read_errno;           // the errno of a failed read(2); 0 when none failed
    png_bytepp rows;          // row pointers of wik_png_read_rgba; freed on every path
    char *message;            // the current call's message buffer
    size_t message_capacity;
    int truncated;            // the read function ran past the end of the data
    int out_of_memory;
    int header_read;
    int pixels_read;
    int rows_started;         // wik_png_start_rows succeeded: rows are read one call at a time
    png_uint_32 rows_done;    // rows read so far (non-interlaced) by wik_png_read_rows or wik_png_read_rgba
    int failed;               // a row-by-row call failed: libpng's state is no longer usable
    int lenient;              // wik_png_decoder_set_lenient was called
    int rows_lost;            // lenient: the data broke at row rows_done; later rows are transparent
    wik_png_damage damage;    // lenient: what was let pass
    // Lenient: the chunks as libpng reads them, so that an IDAT cut short by the end of the data is handed over
    // shortened to the bytes there are, with a CRC that matches them: libpng then inflates every byte the file
    // has, as browsers do, instead of failing on a chunk longer than the data.
    size_t position;          // bytes handed to libpng so far
    size_t next_chunk;        // where the next chunk's header starts (after the 8-byte signature at first)
    size_t total;             // the whole data's size: the caller's bytes plus what the file has after them
    size_t cut_crc_at;        // where the shortened IDAT's CRC goes; 0 when no IDAT was shortened
    uLong cut_crc;            // the CRC of the shortened IDAT's type and data, as they are handed over
};

/// Records the first thing a lenient decoder lets pass.
static void wik_png_note_damage(wik_png_decoder *decoder, const char *text) {
    if (decoder->damage.message[0] == '\0') wik_png_copy_message(decoder->damage.message, sizeof decoder->damage.message, text);
}

/// After a longjmp in a lenient decode: whether to keep what was decoded (rows before `decoder->rows_done`,
/// all of them when `rows_complete`) rather than fail. A failed read(2) or allocation always fails, and so
/// does damage before the first row: there is nothing to show.
static int wik_png_keeps_partial(wik_png_decoder *decoder, int rows_complete) {
    if (!decoder->lenient || decoder->read_errno != 0 || decoder->out_of_memory) return 0;
    if (!rows_complete && decoder->rows_done == 0) return 0;
    decoder->damage.ended_early = 1;
    decoder->damage.truncated = decoder->truncated;
    if (!rows_complete) {
        decoder->damage.first_bad_row = (int32_t)decoder->rows_done;
        decoder->rows_lost = 1;
    }
    wik_png_note_damage(decoder, decoder->message != NULL && decoder->message[0] != '\0' ? decoder->message : "broken image data");
    return 1;
}

/// Clears rows `first` up to `height` (each `row_bytes` wide, `stride` apart) to transparent.
static void wik_png_clear_rows(uint8_t *pixels, size_t stride, size_t row_bytes, png_uint_32 first, png_uint_32 height) {
    for (png_uint_32 y = first; y < height; y++) memset(pixels + (size_t)y * stride, 0, row_bytes);
}

static void wik_png_decoder_error(png_structp png, png_const_charp text) {
    wik_png_decoder *decoder = (wik_png_decoder *)png_get_error_ptr(png);
    wik_png_copy_message(decoder->message, decoder->message_capacity, text);
    png_longjmp(png, 1);
}

static void wik_png_decoder_warning(png_structp png, png_const_charp text) {
    wik_png_decoder *decoder = (wik_png_decoder *)png_get_error_ptr(png);
    wik_png_copy_message(decoder->message, decoder->message_capacity, text);
    if (decoder->lenient && text != NULL && strstr(text, "CRC error") != NULL) {
        // Browsers refuse a file whose header or palette is damaged: there is nothing safe to show.
        if (strncmp(text, "IHDR", 4) == 0 || strncmp(text, "PLTE", 4) == 0) png_error(png, text);
        decoder->damage.checksum_mismatch = 1;
        wik_png_note_damage(decoder, text);
    }
}

// Replaces used-up data with the file's next bytes; 0 at the end of the file or when read(2) fails.
static int wik_png_read_on(wik_png_decoder *decoder) {
    if (decoder->fd < 0) return 0;
    ssize_t count;
    do {
        count = read(decoder->fd, decoder->file_buffer, WIK_PNG_FILE_BUFFER_SIZE);
    } while (count < 0 && errno == EINTR);
    if (count <= 0) {
        if (count < 0) decoder->read_errno = errno;
        return 0;
    }
    decoder->data = decoder->file_buffer;
    decoder->size = (size_t)count;
    decoder->offset = 0;
    return 1;
}

/// Copies the next `length` bytes of the data into `out`; fails as truncated at the end of the data.
static void wik_png_copy_data(png_structp png, wik_png_decoder *decoder, png_bytep out, size_t length) {
    while (length > 0) {
        if (decoder->offset == decoder->size && !wik_png_read_on(decoder)) {
            if (decoder->read_errno != 0) {
                char text[128];
                snprintf(text, sizeof text, "reading the file failed: %s", strerror(decoder->read_errno));
                png_error(png, text);
            }
            decoder->truncated = 1;
            png_error(png, "the data ends before the PNG is complete");
        }
        size_t available = decoder->size - decoder->offset;
        size_t count = length < available ? length : available;
        memcpy(out, decoder->data + decoder->offset, count);
        decoder->offset += count;
        out += count;
        length -= count;
    }
}

static uint32_t wik_png_big_endian(const png_byte *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

static void wik_png_write_big_endian(png_byte *bytes, uint32_t value) {
    bytes[0] = (png_byte)(value >> 24);
    bytes[1] = (png_byte)(value >> 16);
    bytes[2] = (png_byte)(value >> 8);
    bytes[3] = (png_byte)value;
}

/// libpng reads a chunk's 8-byte header, its data in pieces, then its 4-byte CRC, never across a chunk's end. A
/// lenient decoder follows along; at the header of an IDAT that the data ends inside, it shortens the chunk's
/// length to the bytes there are (at least one), and at that chunk's end it hands over the matching CRC.
static void wik_png_read_data(png_structp png, png_bytep out, size_t length) {
    wik_png_decoder *decoder = (wik_png_decoder *)png_get_io_ptr(png);
    const size_t start = decoder->position;
    if (decoder->cut_crc_at != 0 && start == decoder->cut_crc_at && length == 4) {
        wik_png_write_big_endian(out, (uint32_t)decoder->cut_crc);
        decoder->position += 4;
        decoder->cut_crc_at = 0;
        return;
    }
    wik_png_copy_data(png, decoder, out, length);
    decoder->position += length;
    if (!decoder->lenient) return;
    if (decoder->cut_crc_at != 0 && start < decoder->cut_crc_at) {
        decoder->cut_crc = crc32(decoder->cut_crc, out, (uInt)length);
    } else if (start == decoder->next_chunk && length == 8) {
        const size_t data_length = wik_png_big_endian(out);
        const size_t data_start = decoder->position;
        decoder->next_chunk = data_start + data_length + 4;
        if (memcmp(out + 4, "IDAT", 4) == 0 && data_length <= PNG_UINT_31_MAX && decoder->total > data_start
            && decoder->total - data_start < data_length) {
            const size_t available = decoder->total - data_start;
            wik_png_write_big_endian(out, (uint32_t)available);
            decoder->next_chunk = data_start + available + 4;
            decoder->cut_crc_at = data_start + available;
            decoder->cut_crc = crc32(crc32(0L, Z_NULL, 0), out + 4, 4);
        }
    }
}

static wik_png_status wik_png_decoder_failure(wik_png_decoder *decoder) {
    free(decoder->rows);
    decoder->rows = NULL;
    if (decoder->read_errno != 0) return WIK_PNG_READ_FAILED;
    if (decoder->truncated) return WIK_PNG_TRUNCATED;
    if (decoder->out_of_memory) return WIK_PNG_NO_MEMORY;
    return WIK_PNG_CORRUPT;
}

static void wik_png_decoder_begin_call(wik_png_decoder *decoder, char *message, size_t message_capacity) {
    decoder->message = message;
    decoder->message_capacity = message_capacity;
    wik_png_copy_message(message, message_capacity, "");
}

wik_png_decoder *wik_png_decoder_create(const uint8_t *data, size_t size) {
    wik_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->size = data != NULL ? size : 0;
    decoder->fd = -1;
    decoder->next_chunk = 8;
    decoder->total = decoder->size;
    decoder->damage.first_bad_row = -1;
    // Creation errors are caught by libpng itself (it returns NULL), so no setjmp is needed here.
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder,
                                          wik_png_decoder_error, wik_png_decoder_warning);
    if (decoder->png == NULL) {
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    return decoder;
}

int wik_png_decoder_read_on_from(wik_png_decoder *decoder, int fd) {
    if (decoder == NULL || fd < 0 || decoder->fd >= 0 || decoder->header_read) return 0;
    decoder->file_buffer = malloc(WIK_PNG_FILE_BUFFER_SIZE);
    if (decoder->file_buffer == NULL) return 0;
    decoder->fd = fd;
    // The data's whole size, for a lenient decode of a file cut short: the caller's bytes and the file's rest.
    struct stat status;
    off_t here = lseek(fd, 0, SEEK_CUR);
    if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && here >= 0 && status.st_size >= here) {
        decoder->total = decoder->size + (size_t)(status.st_size - here);
    }
    return 1;
}

void wik_png_decoder_set_lenient(wik_png_decoder *decoder) {
    if (decoder != NULL) decoder->lenient = 1;
}

void wik_png_get_damage(const wik_png_decoder *decoder, wik_png_damage *damage) {
    if (decoder == NULL || damage == NULL) return;
    *damage = decoder->damage;
}

void wik_png_decoder_destroy(wik_png_decoder *decoder) {
    if (decoder == NULL) return;
    free(decoder->file_buffer);
    free(decoder->rows);
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}

wik_png_status wik_png_read_header(wik_png_decoder *decoder, wik_png_header *header,
                                   char *message, size_t message_capacity) {
    if (decoder == NULL || header == NULL || decoder->header_read) return WIK_PNG_INVALID_ARGUMENT;
    wik_png_decoder_begin_call(decoder, message, message_capacity);
    memset(header, 0, sizeof *header);
    png_structp png = decoder->png;
    png_infop info = decoder->info;

    if (setjmp(png_jmpbuf(png))) {
        // Report the IHDR's size even so, so the caller can tell "too large" from "broken".
        header->width = png_get_image_width(png, info);
        header->height = png_get_image_height(png, info);
        return wik_png_decoder_failure(decoder);
    }
    png_set_read_fn(png, decoder, wik_png_read_data);
    wik_png_configure_reader(png);
    // Lenient, as browsers: image data and ancillary chunks whose CRC is wrong are used, with a warning (recorded
    // as damage; a wrong CRC on IHDR or PLTE still fails, in the warning handler), and zlib's Adler-32 checksum of
    // the image data is not checked.
    if (decoder->lenient) {
        png_set_crc_action(png, PNG_CRC_WARN_USE, PNG_CRC_WARN_USE);
#ifdef PNG_IGNORE_ADLER32
        png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    }
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlace_method = interlace;
    header->has_alpha = wik_png_has_alpha(png, info);
    decoder->header_read = 1;
    return WIK_PNG_OK;
}

wik_png_status wik_png_read_rgba(wik_png_decoder *decoder, uint8_t *pixels, size_t stride, size_t capacity,
                                 char *message, size_t message_capacity) {
    if (decoder == NULL || pixels == NULL || !decoder->header_read || decoder->pixels_read) {
        return WIK_PNG_INVALID_ARGUMENT;
    }
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    const png_uint_32 width = png_get_image_width(png, info);
    const png_uint_32 height = png_get_image_height(png, info);
    const size_t row_bytes = (size_t)width * 4;
    if (width == 0 || height == 0 || stride < row_bytes || capacity < row_bytes
        || (capacity - row_bytes) / stride < (size_t)height - 1) {
        return WIK_PNG_INVALID_ARGUMENT;
    }
    decoder->pixels_read = 1;
    wik_png_decoder_begin_call(decoder, message, message_capacity);

    if (setjmp(png_jmpbuf(png))) {
        // Lenient: a non-interlaced image keeps the rows before the damage (an interlaced one only damage after its rows).
        int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
        int rows_complete = decoder->rows_done == height;
        if ((!interlaced || rows_complete) && wik_png_keeps_partial(decoder, rows_complete)) {
            wik_png_clear_rows(pixels, stride, row_bytes, decoder->rows_done, height);
            free(decoder->rows);
            decoder->rows = NULL;
            return WIK_PNG_OK;
        }
        return wik_png_decoder_failure(decoder);
    }
    wik_png_set_rgba_transforms(png, info);
    if (png_get_interlace_type(png, info) == PNG_INTERLACE_NONE) {
        // Row by row, counting, so a lenient decode knows which rows it has when the data breaks.
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, pixels + (size_t)y * stride, NULL);
            decoder->rows_done = y + 1;
        }
    } else {
        decoder->rows = malloc((size_t)height * sizeof(png_bytep));
        if (decoder->rows == NULL) {
            decoder->out_of_memory = 1;
            png_error(png, "out of memory for row pointers");
        }
        for (png_uint_32 y = 0; y < height; y++) decoder->rows[y] = pixels + (size_t)y * stride;
        png_read_image(png, decoder->rows);
        decoder->rows_done = height;
    }
    // Read on to IEND, so a file cut after its image data, or missing IEND, fails (when strict).
    png_read_end(png, info);

    free(decoder->rows);
    decoder->rows = NULL;
    return WIK_PNG_OK;
}

wik_png_status wik_png_start_rows(wik_png_decoder *decoder, char *message, size_t message_capacity) {
    if (decoder == NULL || !decoder->header_read || decoder->pixels_read) return WIK_PNG_INVALID_ARGUMENT;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) return WIK_PNG_INVALID_ARGUMENT;
    decoder->pixels_read = 1;
    wik_png_decoder_begin_call(decoder, message, message_capacity);
    if (setjmp(png_jmpbuf(png))) {
        decoder->failed = 1;
        return wik_png_decoder_failure(decoder);
    }
    wik_png_set_rgba_transforms(png, info);
    decoder->rows_started = 1;
    return WIK_PNG_OK;
}

wik_png_status wik_png_read_rows(wik_png_decoder *decoder, uint8_t *pixels, size_t stride, uint32_t count,
                                 char *message, size_t message_capacity) {
    if (decoder == NULL || !decoder->rows_started || decoder->failed || pixels == NULL) return WIK_PNG_INVALID_ARGUMENT;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    const png_uint_32 height = png_get_image_height(png, info);
    if (stride < (size_t)png_get_image_width(png, info) * 4 || count > height - decoder->rows_done) {
        return WIK_PNG_INVALID_ARGUMENT;
    }
    wik_png_decoder_begin_call(decoder, message, message_capacity);
    const size_t row_bytes = (size_t)png_get_image_width(png, info) * 4;
    // Rows of the call in which the data broke, and of every later call, are transparent.
    volatile uint32_t first = 0; // the first row of this call not yet read; survives the longjmp
    if (setjmp(png_jmpbuf(png))) {
        if (!wik_png_keeps_partial(decoder, 0)) {
            decoder->failed = 1;
            return wik_png_decoder_failure(decoder);
        }
    }
    if (decoder->rows_lost) {
        wik_png_clear_rows(pixels, stride, row_bytes, first, count);
        decoder->rows_done += count - first;
        return WIK_PNG_OK;
    }
    for (uint32_t y = 0; y < count; y++) {
        png_read_row(png, pixels + (size_t)y * stride, NULL);
        decoder->rows_done++;
        first = y + 1;
    }
    return WIK_PNG_OK;
}

wik_png_status wik_png_finish_rows(wik_png_decoder *decoder, char *message, size_t message_capacity) {
    if (decoder == NULL || !decoder->rows_started || decoder->failed) return WIK_PNG_INVALID_ARGUMENT;
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (decoder->rows_done != png_get_image_height(png, info)) return WIK_PNG_INVALID_ARGUMENT;
    wik_png_decoder_begin_call(decoder, message, message_capacity);
    if (decoder->rows_lost) return WIK_PNG_OK; // the data broke earlier: nothing after it to read
    if (setjmp(png_jmpbuf(png))) {
        if (wik_png_keeps_partial(decoder, 1)) return WIK_PNG_OK;
        decoder->failed = 1;
        return wik_png_decoder_failure(decoder);
    }
    // Read on to IEND, so a file cut after its image data, or missing IEND, fails (when strict).
    png_read_end(png, info);
    return WIK_PNG_OK;
}

int wik_png_exif(const wik_png_decoder *decoder, const uint8_t **exif, size_t *size) {
    if (decoder == NULL || exif == NULL || size == NULL) return 0;
    png_uint_32 length = 0;
    png_bytep bytes = NULL;
    // png_get_eXIf_1 never raises an error, so it needs no setjmp.
    if (png_get_eXIf_1(decoder->png, decoder->info, &length, &bytes) == 0 || bytes == NULL || length == 0) {
        return 0;
    }
    *exif = bytes;
    *size = length;
    return 1;
}

// ---------------------------------------------------------------------------------------------
// Encoding

typedef struct wik_png_encoder {
    uint8_t *buffer;          // the growing output, malloc'd
    size_t size;
    size_t capacity;
    png_bytepp rows;
    char *message;
    size_t message_capacity;
    int out_of_memory;
} wik_png_encoder;

static void wik_png_encoder_error(png_structp png, png_const_charp text) {
    wik_png_encoder *encoder = (wik_png_encoder *)png_get_error_ptr(png);
    wik_png_copy_message(encoder->message, encoder->message_capacity, text);
    png_longjmp(png, 1);
}

static void wik_png_encoder_warning(png_structp png, png_const_charp text) {
    wik_png_encoder *encoder = (wik_png_encoder *)png_get_error_ptr(png);
    wik_png_copy_message(encoder->message, encoder->message_capacity, text);
}

static void wik_png_write_data(png_structp png, png_bytep data, size_t length) {
    wik_png_encoder *encoder = (wik_png_encoder *)png_get_io_ptr(png);
    if (length > SIZE_MAX - encoder->size) png_error(png, "output too large");
    size_t needed = encoder->size + length;
    if (needed > encoder->capacity) {
        size_t capacity = encoder->capacity > 0 ? encoder->capacity : 8192;
        while (capacity < needed) capacity = capacity > SIZE_MAX / 2 ? needed : capacity * 2;
        uint8_t *grown = realloc(encoder->buffer, capacity);
        if (grown == NULL) {
            encoder->out_of_memory = 1;
            png_error(png, "out of memory for the encoded PNG");
        }
        encoder->buffer = grown;
        encoder->capacity = capacity;
    }
    memcpy(encoder->buffer + encoder->size, data, length);
    encoder->size = needed;
}

static void wik_png_flush_data(png_structp png) {
    (void)png;
}

wik_png_status wik_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                                   int keep_alpha, int compression_level, int interlace,
                                   const uint8_t *palette_rgb, int palette_count, int transparent_index,
                                   uint8_t **output, size_t *output_size,
                                   char *message, size_t message_capacity) {
    if (output == NULL || output_size == NULL) return WIK_PNG_INVALID_ARGUMENT;
    int indexed = palette_rgb != NULL;
    *output = NULL;
    *output_size = 0;
    wik_png_copy_message(message, message_capacity, "");
    if (pixels == NULL || width == 0 || height == 0 || width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX
        || stride < (size_t)width * (indexed ? 1 : 4)
        || (indexed && (palette_count < 1 || palette_count > 256 || transparent_index >= palette_count))) {
        return WIK_PNG_INVALID_ARGUMENT;
    }
    // Heap state: it changes after setjmp and must be intact after a longjmp.
    wik_png_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) return WIK_PNG_NO_MEMORY;
    encoder->message = message;
    encoder->message_capacity = message_capacity;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, encoder,
                                              wik_png_encoder_error, wik_png_encoder_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(encoder);
        return WIK_PNG_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        wik_png_status status = encoder->out_of_memory ? WIK_PNG_NO_MEMORY : WIK_PNG_CORRUPT;
        png_destroy_write_struct(&png, &info);
        free(encoder->rows);
        free(encoder->buffer);
        free(encoder);
        return status;
    }
    png_set_write_fn(png, encoder, wik_png_write_data, wik_png_flush_data);
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_compression_level(png, compression_level < 0 ? 0 : compression_level > 9 ? 9 : compression_level);
    int color_type = indexed ? PNG_COLOR_TYPE_PALETTE : keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB;
    png_set_IHDR(png, info, width, height, 8, color_type,
                 interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (indexed) {
        png_color colors[256];
        for (int i = 0; i < palette_count; i++) {
            colors[i].red = palette_rgb[3 * i];
            colors[i].green = palette_rgb[3 * i + 1];
            colors[i].blue = palette_rgb[3 * i + 2];
        }
        png_set_PLTE(png, info, colors, palette_count);
        if (transparent_index >= 0) {
            png_byte alpha[256];
            memset(alpha, 255, sizeof alpha);
            alpha[transparent_index] = 0;
            png_set_tRNS(png, info, alpha, transparent_index + 1, NULL);
        }
    }
    png_write_info(png, info);
    // The rows stay RGBA in memory; for an RGB file libpng drops the fourth byte of every pixel.
    if (!keep_alpha && !indexed) png_set_filler(png, 0, PNG_FILLER_AFTER);

    encoder->rows = malloc((size_t)height * sizeof(png_bytep));
    if (encoder->rows == NULL) {
        encoder->out_of_memory = 1;
        png_error(png, "out of memory for row pointers");
    }
    // libpng copies each row before transforming it, so the input is never written to.
    for (uint32_t y = 0; y < height; y++) encoder->rows[y] = (png_bytep)(pixels + (size_t)y * stride);
    png_write_image(png, encoder->rows);
    png_write_end(png, NULL);

    png_destroy_write_struct(&png, &info);
    *output = encoder->buffer;
    *output_size = encoder->size;
    free(encoder->rows);
    free(encoder);
    return WIK_PNG_OK;
}

void wik_png_free(void *buffer) {
    free(buffer);
}
