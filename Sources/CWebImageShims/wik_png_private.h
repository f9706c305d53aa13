// Internal to CWebImageShims: the libpng set-up shared by the one-shot reader (wik_png.c) and the
// progressive reader (wik_png_progressive.c), so both decode to exactly the same pixels.
#ifndef WIK_PNG_PRIVATE_H
#define WIK_PNG_PRIVATE_H
#include <stddef.h>

#include <png.h>

/// Copies `text` (NUL-terminated, possibly NULL) into `destination`, truncating to `capacity - 1`.
void wik_png_copy_message(char *destination, size_t capacity, const char *text);

/// Reader limits and chunk handling: no per-side limit (callers check their own pixel limit),
/// bounded ancillary chunks, CRC errors fatal, colour-management and text chunks skipped.
/// Call before any data is read. May call png_error: only inside a setjmp.
void wik_png_configure_reader(png_structp png);

/// Requests the transforms to 8-bit RGBA straight alpha (palette and grey expanded, tRNS to alpha,
/// 16-bit samples scaled as round(v/257), an opaque alpha added, Adam7 deinterlaced), then calls
/// png_read_update_info and checks the resulting rows are 8-bit RGBA. Call once the header is read.
/// May call png_error: only inside a setjmp.
void wik_png_set_rgba_transforms(png_structp png, png_infop info);

/// 1 when the decoded pixels may be non-opaque (an alpha colour type or a tRNS chunk).
int wik_png_has_alpha(png_structp png, png_infop info);

#endif
