// See include/wik_fixed_kernels.h. The plain functions are the definition; the AVX2 ones do the same
// integer sums eight or sixteen values at a time, pairing two taps per `_mm256_madd_epi16`, and finish
// their tails with the plain code.
#include "wik_fixed_kernels.h"

#include <string.h>

// Rounds `sum`, which has `shift` fraction bits, to the nearest integer (halves up) and saturates it to
// int16. `>>` of a negative int32 is an arithmetic shift on GCC and Clang, as `_mm256_sra_epi32` is.
static inline int16_t wik_narrow(int32_t sum, int shift) {
    const int32_t rounded = (sum + ((1 << shift) >> 1)) >> shift;
    return rounded < INT16_MIN ? INT16_MIN : rounded > INT16_MAX ? INT16_MAX : (int16_t)rounded;
}

// Values [begin, end) of the vertical pass over bytes, 64 at a time so that compilers vectorise the tap loop.
static void wik_fixed_columns_u8_range(const uint8_t *const *rows, const int16_t *weights, size_t taps,
                                       size_t begin, size_t end, int shift, int16_t *out) {
    enum { chunk = 64 };
    for (size_t i = begin; i < end; i += chunk) {
        const size_t n = end - i < chunk ? end - i : chunk;
        int32_t sums[chunk] = {0};
        for (size_t t = 0; t < taps; t++) {
            const uint8_t *row = rows[t] + i;
            const int32_t weight = weights[t];
            for (size_t j = 0; j < n; j++) sums[j] += (int32_t)row[j] * weight;
        }
        for (size_t j = 0; j < n; j++) out[i + j] = wik_narrow(sums[j], shift);
    }
}

// The same over int16 values.
static void wik_fixed_columns_i16_range(const int16_t *const *rows, const int16_t *weights, size_t taps,
                                        size_t begin, size_t end, int shift, int16_t *out) {
    enum { chunk = 64 };
    for (size_t i = begin; i < end; i += chunk) {
        const size_t n = end - i < chunk ? end - i : chunk;
        int32_t sums[chunk] = {0};
        for (size_t t = 0; t < taps; t++) {
            const int16_t *row = rows[t] + i;
            const int32_t weight = weights[t];
            for (size_t j = 0; j < n; j++) sums[j] += (int32_t)row[j] * weight;
        }
        for (size_t j = 0; j < n; j++) out[i + j] = wik_narrow(sums[j], shift);
    }
}

void wik_fixed_columns_u8_plain(const uint8_t *const *rows, const int16_t *weights, size_t taps, size_t width,
                                int shift, int16_t *out) {
    wik_fixed_columns_u8_range(rows, weights, taps, 0, width * 4, shift, out);
}

void wik_fixed_columns_i16_plain(const int16_t *const *rows, const int16_t *weights, size_t taps, size_t count,
                                 int shift, int16_t *out) {
    wik_fixed_columns_i16_range(rows, weights, taps, 0, count, shift, out);
}

void wik_fixed_row_plain(const int16_t *row, const intptr_t *firsts, const intptr_t *counts, const intptr_t *offsets,
                         const int16_t *weights, size_t count, int shift, int16_t *out) {
    for (size_t x = 0; x < count; x++) {
        const int16_t *source = row + firsts[x] * 4;
        const int16_t *taps = weights + offsets[x];
        int32_t sums[4] = {0, 0, 0, 0};
        for (intptr_t t = 0; t < counts[x]; t++) {
            for (int c = 0; c < 4; c++) sums[c] += (int32_t)source[t * 4 + c] * taps[t];
        }
        for (int c = 0; c < 4; c++) out[x * 4 + (size_t)c] = wik_narrow(sums[c], shift);
    }
}

void wik_fixed_store_rgba8_plain(const int16_t *pixels, size_t count, int fraction_bits, uint8_t *output) {
    const int32_t half = (1 << fraction_bits) >> 1;
    for (size_t x = 0; x < count; x++) {
        for (int c = 0; c < 3; c++) {
            const int32_t value = ((int32_t)pixels[x * 4 + (size_t)c] + half) >> fraction_bits;
            output[x * 4 + (size_t)c] = (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
        }
        output[x * 4 + 3] = 255;
    }
}

#if defined(__x86_64__)
#include <emmintrin.h>

// Four pixels at a time with SSE2 (every x86-64 CPU has it): a saturating add of the half, an arithmetic shift
// and a saturating pack to bytes give the plain loop's bytes (a sum the add saturates is above 255 either way).
void wik_fixed_store_rgba8(const int16_t *pixels, size_t count, int fraction_bits, uint8_t *output) {
    const __m128i half = _mm_set1_epi16((int16_t)((1 << fraction_bits) >> 1));
    const __m128i shift = _mm_cvtsi32_si128(fraction_bits);
    const __m128i opaque = _mm_set1_epi32((int32_t)0xFF000000u);
    size_t x = 0;
    for (; x + 4 <= count; x += 4) {
        const __m128i first = _mm_loadu_si128((const __m128i *)(const void *)(pixels + x * 4));
        const __m128i second = _mm_loadu_si128((const __m128i *)(const void *)(pixels + x * 4 + 8));
        const __m128i low = _mm_sra_epi16(_mm_adds_epi16(first, half), shift);
        const __m128i high = _mm_sra_epi16(_mm_adds_epi16(second, half), shift);
        _mm_storeu_si128((__m128i *)(void *)(output + x * 4), _mm_or_si128(_mm_packus_epi16(low, high), opaque));
    }
    wik_fixed_store_rgba8_plain(pixels + x * 4, count - x, fraction_bits, output + x * 4);
}
#else
void wik_fixed_store_rgba8(const int16_t *pixels, size_t count, int fraction_bits, uint8_t *output) {
    wik_fixed_store_rgba8_plain(pixels, count, fraction_bits, output);
}
#endif

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

#define WIK_AVX2 __attribute__((target("avx2")))

// Two taps' weights as the int16 pair (first, second) in every int32 lane, as `_mm256_madd_epi16` reads them.
WIK_AVX2 static inline __m256i wik_weight_pair(int16_t first, int16_t second) {
    return _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)first | ((uint32_t)(uint16_t)second << 16)));
}

// Rounds eight int32 sums with `shift` fraction bits to the nearest integer (halves up).
WIK_AVX2 static inline __m256i wik_round_shift(__m256i sums, __m256i half, __m128i shift) {
    return _mm256_sra_epi32(_mm256_add_epi32(sums, half), shift);
}

WIK_AVX2 static void wik_fixed_columns_u8_avx2(const uint8_t *const *rows, const int16_t *weights, size_t taps,
                                               size_t width, int shift, int16_t *out) {
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi32((1 << shift) >> 1);
    const __m128i count = _mm_cvtsi32_si128(shift);
    size_t x = 0;
    for (; x + 8 <= width; x += 8) { // 32 bytes of each row: 8 pixels
        // Sums of bytes {0-3, 16-19}, {4-7, 20-23}, {8-11, 24-27}, {12-15, 28-31}: unpacking works within 128-bit lanes.
        __m256i s0 = zero, s1 = zero, s2 = zero, s3 = zero;
        for (size_t t = 0; t < taps; t += 2) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(rows[t] + x * 4));
            const int paired = t + 1 < taps;
            // An odd last tap is paired with zero bytes and weight 0.
            const __m256i b = paired ? _mm256_loadu_si256((const __m256i *)(const void *)(rows[t + 1] + x * 4)) : zero;
            const __m256i weight = wik_weight_pair(weights[t], paired ? weights[t + 1] : 0);
            const __m256i low = _mm256_unpacklo_epi8(a, b), high = _mm256_unpackhi_epi8(a, b); // a0 b0 a1 b1 …
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_unpacklo_epi8(low, zero), weight));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_unpackhi_epi8(low, zero), weight));
            s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_unpacklo_epi8(high, zero), weight));
            s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(_mm256_unpackhi_epi8(high, zero), weight));
        }
        const __m256i first = _mm256_packs_epi32(wik_round_shift(s0, half, count), wik_round_shift(s1, half, count));
        const __m256i second = _mm256_packs_epi32(wik_round_shift(s2, half, count), wik_round_shift(s3, half, count));
        // first holds values {0-7 | 16-23}, second {8-15 | 24-31}: put the lanes back in order.
        _mm256_storeu_si256((__m256i *)(void *)(out + x * 4), _mm256_permute2x128_si256(first, second, 0x20));
        _mm256_storeu_si256((__m256i *)(void *)(out + x * 4 + 16), _mm256_permute2x128_si256(first, second, 0x31));
    }
    wik_fixed_columns_u8_range(rows, weights, taps, x * 4, width * 4, shift, out);
}

WIK_AVX2 static void wik_fixed_columns_i16_avx2(const int16_t *const *rows, const int16_t *weights, size_t taps,
                                                size_t count, int shift, int16_t *out) {
    const __m256i zero = _mm256_setzero_si256(), half = _mm256_set1_epi32((1 << shift) >> 1);
    const __m128i bits = _mm_cvtsi32_si128(shift);
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i s0 = zero, s1 = zero; // values {0-3 | 8-11} and {4-7 | 12-15}
        for (size_t t = 0; t < taps; t += 2) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(rows[t] + i));
            const int paired = t + 1 < taps;
            const __m256i b = paired ? _mm256_loadu_si256((const __m256i *)(const void *)(rows[t + 1] + i)) : zero;
            const __m256i weight = wik_weight_pair(weights[t], paired ? weights[t + 1] : 0);
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), weight));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), weight));
        }
        // Packing within lanes puts {0-3, 4-7 | 8-11, 12-15} back in order.
        const __m256i packed = _mm256_packs_epi32(wik_round_shift(s0, half, bits), wik_round_shift(s1, half, bits));
        _mm256_storeu_si256((__m256i *)(void *)(out + i), packed);
    }
    wik_fixed_columns_i16_range(rows, weights, taps, i, count, shift, out);
}

WIK_AVX2 static void wik_fixed_row_avx2(const int16_t *row, const intptr_t *firsts, const intptr_t *counts,
                                        const intptr_t *offsets, const int16_t *weights, size_t count, int shift,
                                        int16_t *out) {
    // Two pixels' channels interleaved, c0 of the first, c0 of the second, c1, c1, …, in each 128-bit lane.
    const __m256i interleave = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                                0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    const __m128i interleave128 = _mm256_castsi256_si128(interleave);
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1); // weight pairs (0, 1) low, (2, 3) high
    const __m128i half = _mm_set1_epi32((1 << shift) >> 1), bits = _mm_cvtsi32_si128(shift);
    for (size_t x = 0; x < count; x++) {
        const int16_t *source = row + firsts[x] * 4;
        const int16_t *taps = weights + offsets[x];
        const intptr_t n = counts[x];
        intptr_t t = 0;
        __m256i wide = _mm256_setzero_si256(); // taps 0, 1 (mod 4) in the low lane, taps 2, 3 in the high lane
        for (; t + 4 <= n; t += 4) {
            const __m256i pixels = _mm256_shuffle_epi8(
                _mm256_loadu_si256((const __m256i *)(const void *)(source + t * 4)), interleave);
            const __m256i pairs = _mm256_permutevar8x32_epi32(
                _mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(const void *)(taps + t))), spread);
            wide = _mm256_add_epi32(wide, _mm256_madd_epi16(pixels, pairs));
        }
        __m128i sums = _mm_add_epi32(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
        for (; t + 2 <= n; t += 2) {
            const __m128i pixels = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(source + t * 4)),
                                                    interleave128);
            int32_t pair;
            memcpy(&pair, taps + t, sizeof pair);
            sums = _mm_add_epi32(sums, _mm_madd_epi16(pixels, _mm_set1_epi32(pair)));
        }
        if (t < n) { // the last tap with weight 0 for its partner
            const __m128i pixel = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(source + t * 4)),
                                                     _mm_setzero_si128());
            sums = _mm_add_epi32(sums, _mm_madd_epi16(pixel, _mm_set1_epi32((int32_t)(uint16_t)taps[t])));
        }
        const __m128i rounded = _mm_sra_epi32(_mm_add_epi32(sums, half), bits);
        _mm_storel_epi64((__m128i *)(void *)(out + x * 4), _mm_packs_epi32(rounded, rounded));
    }
}

static int wik_fixed_has_avx2(void) {
    static int answer = -1; // a benign race: every thread computes the same value
    if (__atomic_load_n(&answer, __ATOMIC_RELAXED) < 0) {
        __builtin_cpu_init();
        __atomic_store_n(&answer, __builtin_cpu_supports("avx2") ? 1 : 0, __ATOMIC_RELAXED);
    }
    return __atomic_load_n(&answer, __ATOMIC_RELAXED);
}
#else
#define wik_fixed_has_avx2() 0
#define wik_fixed_columns_u8_avx2 wik_fixed_columns_u8_plain
#define wik_fixed_columns_i16_avx2 wik_fixed_columns_i16_plain
#define wik_fixed_row_avx2 wik_fixed_row_plain
#endif

void wik_fixed_columns_u8(const uint8_t *const *rows, const int16_t *weights, size_t taps, size_t width, int shift,
                          int16_t *out) {
    if (wik_fixed_has_avx2()) wik_fixed_columns_u8_avx2(rows, weights, taps, width, shift, out);
    else wik_fixed_columns_u8_plain(rows, weights, taps, width, shift, out);
}

void wik_fixed_columns_i16(const int16_t *const *rows, const int16_t *weights, size_t taps, size_t count, int shift,
                           int16_t *out) {
    if (wik_fixed_has_avx2()) wik_fixed_columns_i16_avx2(rows, weights, taps, count, shift, out);
    else wik_fixed_columns_i16_plain(rows, weights, taps, count, shift, out);
}

void wik_fixed_row(const int16_t *row, const intptr_t *firsts, const intptr_t *counts, const intptr_t *offsets,
                   const int16_t *weights, size_t count, int shift, int16_t *out) {
    if (wik_fixed_has_avx2()) wik_fixed_row_avx2(row, firsts, counts, offsets, weights, count, shift, out);
    else wik_fixed_row_plain(row, firsts, counts, offsets, weights, count, shift, out);
}
