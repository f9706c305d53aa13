// See include/wik_kernels.h. SSE2 (every x86-64) four pixels at a time; elsewhere the same arithmetic
// one channel at a time, which gives the same bytes.
#include "wik_kernels.h"

#include <math.h>

#if defined(__SSE2__)
#include <emmintrin.h>

// One pixel's channels made straight (un-premultiplied) and its alpha clamped, as the scalar code does.
static inline __m128 wik_straight(__m128 pixel) {
    const __m128 zero = _mm_setzero_ps(), full = _mm_set1_ps(255.0f);
    // maxps returns its second operand when either is NaN, so a NaN alpha becomes 0.
    __m128 alpha = _mm_min_ps(_mm_max_ps(_mm_shuffle_ps(pixel, pixel, _MM_SHUFFLE(3, 3, 3, 3)), zero), full);
    __m128 factor = _mm_and_ps(_mm_div_ps(full, alpha), _mm_cmpgt_ps(alpha, zero)); // 0 where alpha is 0
    const __m128 colour = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
    __m128 straight = _mm_mul_ps(pixel, _mm_or_ps(_mm_and_ps(colour, factor), _mm_andnot_ps(colour, _mm_set1_ps(1.0f))));
    return _mm_or_ps(_mm_and_ps(colour, straight), _mm_andnot_ps(colour, alpha));
}

// Clamps to 0…255 (NaN to 0) and rounds to the nearest integer, ties to even (the default MXCSR mode).
static inline __m128i wik_round_clamped(__m128 pixel) {
    return _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(pixel, _mm_setzero_ps()), _mm_set1_ps(255.0f)));
}

void wik_store_rgba8(const float *pixels, size_t count, int premultiplied, uint8_t *output) {
    const __m128i opaque = _mm_set1_epi32((int)0xFF000000u);
    size_t x = 0;
    for (; x + 4 <= count; x += 4) {
        __m128 p[4];
        for (int i = 0; i < 4; i++) {
            p[i] = _mm_loadu_ps(pixels + (x + (size_t)i) * 4);
            if (premultiplied) p[i] = wik_straight(p[i]);
        }
        __m128i low = _mm_packs_epi32(wik_round_clamped(p[0]), wik_round_clamped(p[1]));
        __m128i high = _mm_packs_epi32(wik_round_clamped(p[2]), wik_round_clamped(p[3]));
        __m128i bytes = _mm_packus_epi16(low, high);
        if (!premultiplied) bytes = _mm_or_si128(bytes, opaque);
        _mm_storeu_si128((__m128i *)(void *)(output + x * 4), bytes);
    }
    for (; x < count; x++) {
        __m128 p = _mm_loadu_ps(pixels + x * 4);
        if (premultiplied) p = wik_straight(p);
        __m128i words = _mm_packs_epi32(wik_round_clamped(p), _mm_setzero_si128());
        __m128i bytes = _mm_packus_epi16(words, words);
        if (!premultiplied) bytes = _mm_or_si128(bytes, opaque);
        uint32_t packed = (uint32_t)_mm_cvtsi128_si32(bytes);
        for (int i = 0; i < 4; i++) output[x * 4 + (size_t)i] = (uint8_t)(packed >> (8 * i));
    }
}

#else

static inline uint8_t wik_round_clamped(float value) {
    if (!(value > 0.0f)) return 0; // NaN too
    if (value > 255.0f) return 255;
    return (uint8_t)nearbyintf(value); // ties to even in the default rounding mode
}

void wik_store_rgba8(const float *pixels, size_t count, int premultiplied, uint8_t *output) {
    for (size_t x = 0; x < count; x++) {
        const float *p = pixels + x * 4;
        float r = p[0], g = p[1], b = p[2], a = 255.0f;
        if (premultiplied) {
            a = p[3] > 0.0f ? (p[3] < 255.0f ? p[3] : 255.0f) : 0.0f;
            float factor = a > 0.0f ? 255.0f / a : 0.0f;
            r *= factor;
            g *= factor;
            b *= factor;
        }
        output[x * 4] = wik_round_clamped(r);
        output[x * 4 + 1] = wik_round_clamped(g);
        output[x * 4 + 2] = wik_round_clamped(b);
        output[x * 4 + 3] = wik_round_clamped(a);
    }
}

#endif
