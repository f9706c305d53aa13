#pragma once
#ifndef WIK_KERNELS_H
#define WIK_KERNELS_H
// Pixel loops that Swift cannot write as vector code: converting float pixels to bytes needs the
// saturating packs of the CPU's vector unit, which Swift's SIMD types do not expose (written with SIMD4
// operations, the clamp and the packing compile to a branch and a scalar move per channel).
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

#ifdef __cplusplus
}
#endif
#endif
