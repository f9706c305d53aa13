#pragma once
#ifndef WIK_KERNELS_H
#define WIK_KERNELS_H
// The resampler's pixel loops, which Swift cannot write as fast vector code: converting float pixels to
// bytes needs the saturating packs of the CPU's vector unit, which Swift's SIMD types do not expose (the
// clamp and the packing compiled to a branch and a scalar move per channel), and the filters need fused
// multiply-adds on wide vectors, chosen at run time where the CPU has them (AVX2 and FMA on x86-64).
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes `count` float RGBA pixels (channels on the 0…255 scale, 4 floats per pixel) as RGBA8 bytes.
/// With `premultiplied`, colour is divided by alpha first (alpha clamped to 0…255; colour 0 where alpha
/// is 0); without, alpha is written as 255 (the source was opaque). Every channel is then clamped to
/// 0…255 (NaN to 0) and rounded to the nearest integer, ties to even.
void wik_store_rgba8(const float *pixels, size_t count, int premultiplied, uint8_t *output);

/// The vertical pass: for each of `width` RGBA8 pixels, out = Σt weights[t] · pixel(rows[t]), as 4 floats
/// per pixel, in tap order. With `premultiply`, each pixel's colour channels are first multiplied by
/// alpha · (1/255).
void wik_filter_columns(const uint8_t *const *rows, const float *weights, size_t taps, size_t width, int premultiply,
                        float *out);

/// The vertical pass over rows of float pixels: out[i] = Σt weights[t] · rows[t][i] for each of `count`
/// floats (a multiple of 4: whole RGBA pixels), in tap order.
void wik_combine_rows(const float *const *rows, const float *weights, size_t taps, size_t count, float *out);

/// The horizontal pass over one row of float RGBA pixels: for each x < count,
/// out[x] = Σt weights[offsets[x] + t] · row[firsts[x] + t] for t < counts[x], in tap order.
void wik_filter_row(const float *row, const intptr_t *firsts, const intptr_t *counts, const intptr_t *offsets,
                    const float *weights, size_t count, float *out);

/// The three passes as compiled without AVX2, which the functions above run on CPUs without it; the same sums,
/// rounded twice where a fused multiply-add rounds once. For tests, which compare the two paths.
void wik_filter_columns_plain(const uint8_t *const *rows, const float *weights, size_t taps, size_t width,
                              int premultiply, float *out);
void wik_combine_rows_plain(const float *const *rows, const float *weights, size_t taps, size_t count, float *out);
void wik_filter_row_plain(const float *row, const intptr_t *firsts, const intptr_t *counts, const intptr_t *offsets,
                          const float *weights, size_t count, float *out);

#ifdef __cplusplus
}
#endif
#endif
