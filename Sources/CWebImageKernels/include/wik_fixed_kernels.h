#pragma once
#ifndef WIK_FIXED_KERNELS_H
#define WIK_FIXED_KERNELS_H
// The resampler's 16-bit fixed-point passes (issue 33), for opaque 8-bit images: weights are int16 with
// `p` fraction bits, pixels bytes or int16 with a few fraction bits, products summed in int32
// (`_mm256_madd_epi16` on CPUs with AVX2, chosen at run time; plain C elsewhere). Integer sums are exact,
// so both give the same bytes. Each sum is then rounded to the nearest multiple of 2^shift (halves up),
// shifted right by `shift` and saturated to int16. The caller picks weights and shifts so that no int32
// sum overflows (see FixedPointTaps in WebImageCore).
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The vertical pass over RGBA8 rows: for each of the `4 × width` channels i,
/// out[i] = narrow(Σt weights[t] · rows[t][i], shift).
void wik_fixed_columns_u8(const uint8_t *const *rows, const int16_t *weights, size_t taps, size_t width, int shift,
                          int16_t *out);

/// The vertical pass over rows of int16 values: for each of `count` values i,
/// out[i] = narrow(Σt weights[t] · rows[t][i], shift).
void wik_fixed_columns_i16(const int16_t *const *rows, const int16_t *weights, size_t taps, size_t count, int shift,
                           int16_t *out);

/// The horizontal pass over one row of int16 RGBA pixels (4 values each): for each x < count and channel c,
/// out[4x + c] = narrow(Σt weights[offsets[x] + t] · row[4 (firsts[x] + t) + c], shift) for t < counts[x].
void wik_fixed_row(const int16_t *row, const intptr_t *firsts, const intptr_t *counts, const intptr_t *offsets,
                   const int16_t *weights, size_t count, int shift, int16_t *out);

/// Writes `count` int16 RGBA pixels with `fraction_bits` fraction bits as RGBA8: colour channels rounded to
/// the nearest integer (halves up) and clamped to 0…255, alpha 255 (the source was opaque).
void wik_fixed_store_rgba8(const int16_t *pixels, size_t count, int fraction_bits, uint8_t *output);
/// The same, one channel at a time in plain C (what the vector loop must equal). For tests.
void wik_fixed_store_rgba8_plain(const int16_t *pixels, size_t count, int fraction_bits, uint8_t *output);

/// The passes in plain C, which the functions above run on CPUs without AVX2. For tests, which compare
/// the two paths byte for byte.
void wik_fixed_columns_u8_plain(const uint8_t *const *rows, const int16_t *weights, size_t taps, size_t width,
                                int shift, int16_t *out);
void wik_fixed_columns_i16_plain(const int16_t *const *rows, const int16_t *weights, size_t taps, size_t count,
                                 int shift, int16_t *out);
void wik_fixed_row_plain(const int16_t *row, const intptr_t *firsts, const intptr_t *counts, const intptr_t *offsets,
                         const int16_t *weights, size_t count, int shift, int16_t *out);

#ifdef __cplusplus
}
#endif
#endif
