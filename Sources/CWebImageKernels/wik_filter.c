// See include/wik_kernels.h. Written with the compiler's vector types; each body is inlined into a
// plain function and, on x86-64, into one for AVX2 with fused multiply-adds, chosen once at run time.
#include "wik_kernels.h"

#include <string.h>

typedef float wik_v4f __attribute__((vector_size(16)));
typedef float wik_v16f __attribute__((vector_size(64)));
typedef uint8_t wik_v16b __attribute__((vector_size(16)));
typedef uint8_t wik_v4b __attribute__((vector_size(4)));

#define WIK_INLINE static inline __attribute__((always_inline))

// Colour channels times alpha · (1/255), alpha kept (alpha rounded to float first, then each colour
// channel times it: the same products whether done for one pixel or four).
WIK_INLINE wik_v4f wik_premultiplied4(wik_v4f pixel) {
    const float alpha = pixel[3] * (1.0f / 255.0f);
    const wik_v4f factor = {alpha, alpha, alpha, 1};
    return pixel * factor;
}

WIK_INLINE void wik_filter_columns_body(const uint8_t *const *rows, const float *weights, size_t taps, size_t width,
                                        int premultiply, float *out) {
    const wik_v16f ones = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const float k = 1.0f / 255.0f;
    const wik_v16f scale = {k, k, k, 1, k, k, k, 1, k, k, k, 1, k, k, k, 1};
    size_t x = 0;
    for (; x + 4 <= width; x += 4) {
        wik_v16f sum = {0};
        for (size_t t = 0; t < taps; t++) {
            wik_v16b bytes;
            memcpy(&bytes, rows[t] + x * 4, sizeof bytes);
            wik_v16f pixels = __builtin_convertvector(bytes, wik_v16f);
            if (premultiply) {
                pixels *= __builtin_shufflevector(pixels, ones, 3, 3, 3, 16, 7, 7, 7, 16, 11, 11, 11, 16, 15, 15, 15, 16) * scale;
            }
            sum += pixels * weights[t];
        }
        memcpy(out + x * 4, &sum, sizeof sum);
    }
    for (; x < width; x++) {
        wik_v4f sum = {0};
        for (size_t t = 0; t < taps; t++) {
            wik_v4b bytes;
            memcpy(&bytes, rows[t] + x * 4, sizeof bytes);
            wik_v4f pixel = __builtin_convertvector(bytes, wik_v4f);
            if (premultiply) pixel = wik_premultiplied4(pixel);
            sum += pixel * weights[t];
        }
        memcpy(out + x * 4, &sum, sizeof sum);
    }
}

WIK_INLINE void wik_combine_rows_body(const float *const *rows, const float *weights, size_t taps, size_t count,
                                     float *out) {
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        wik_v16f sum = {0};
        for (size_t t = 0; t < taps; t++) {
            wik_v16f values;
            memcpy(&values, rows[t] + i, sizeof values);
            sum += values * weights[t];
        }
        memcpy(out + i, &sum, sizeof sum);
    }
    for (; i < count; i += 4) { // whole pixels: count is a multiple of 4
        wik_v4f sum = {0};
        for (size_t t = 0; t < taps; t++) {
            wik_v4f values;
            memcpy(&values, rows[t] + i, sizeof values);
            sum += values * weights[t];
        }
        memcpy(out + i, &sum, sizeof sum);
    }
}

WIK_INLINE void wik_filter_row_body(const float *row, const intptr_t *firsts, const intptr_t *counts,
                                    const intptr_t *offsets, const float *weights, size_t count, float *out) {
    for (size_t x = 0; x < count; x++) {
        const float *source = row + firsts[x] * 4;
        const float *taps = weights + offsets[x];
        wik_v4f sum = {0};
        for (intptr_t t = 0; t < counts[x]; t++) {
            wik_v4f pixel;
            memcpy(&pixel, source + t * 4, sizeof pixel);
            sum += pixel * taps[t];
        }
        memcpy(out + x * 4, &sum, sizeof sum);
    }
}

void wik_filter_columns_plain(const uint8_t *const *rows, const float *weights, size_t taps, size_t width,
                                     int premultiply, float *out) {
    wik_filter_columns_body(rows, weights, taps, width, premultiply, out);
}

void wik_combine_rows_plain(const float *const *rows, const float *weights, size_t taps, size_t count,
                                   float *out) {
    wik_combine_rows_body(rows, weights, taps, count, out);
}

void wik_filter_row_plain(const float *row, const intptr_t *firsts, const intptr_t *counts,
                                 const intptr_t *offsets, const float *weights, size_t count, float *out) {
    wik_filter_row_body(row, firsts, counts, offsets, weights, count, out);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2,fma"))) static void wik_filter_columns_avx2(
    const uint8_t *const *rows, const float *weights, size_t taps, size_t width, int premultiply, float *out) {
    wik_filter_columns_body(rows, weights, taps, width, premultiply, out);
}

__attribute__((target("avx2,fma"))) static void wik_combine_rows_avx2(
    const float *const *rows, const float *weights, size_t taps, size_t count, float *out) {
    wik_combine_rows_body(rows, weights, taps, count, out);
}

__attribute__((target("avx2,fma"))) static void wik_filter_row_avx2(
    const float *row, const intptr_t *firsts, const intptr_t *counts, const intptr_t *offsets, const float *weights,
    size_t count, float *out) {
    wik_filter_row_body(row, firsts, counts, offsets, weights, count, out);
}

static int wik_has_avx2(void) {
    static int answer = -1; // a benign race: every thread computes the same value
    if (__atomic_load_n(&answer, __ATOMIC_RELAXED) < 0) {
        __builtin_cpu_init();
        __atomic_store_n(&answer, __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"), __ATOMIC_RELAXED);
    }
    return __atomic_load_n(&answer, __ATOMIC_RELAXED);
}
#else
#define wik_has_avx2() 0
#define wik_filter_columns_avx2 wik_filter_columns_plain
#define wik_filter_row_avx2 wik_filter_row_plain
#define wik_combine_rows_avx2 wik_combine_rows_plain
#endif

void wik_filter_columns(const uint8_t *const *rows, const float *weights, size_t taps, size_t width, int premultiply,
                        float *out) {
    if (wik_has_avx2()) wik_filter_columns_avx2(rows, weights, taps, width, premultiply, out);
    else wik_filter_columns_plain(rows, weights, taps, width, premultiply, out);
}

void wik_combine_rows(const float *const *rows, const float *weights, size_t taps, size_t count, float *out) {
    if (wik_has_avx2()) wik_combine_rows_avx2(rows, weights, taps, count, out);
    else wik_combine_rows_plain(rows, weights, taps, count, out);
}

void wik_filter_row(const float *row, const intptr_t *firsts, const intptr_t *counts, const intptr_t *offsets,
                    const float *weights, size_t count, float *out) {
    if (wik_has_avx2()) wik_filter_row_avx2(row, firsts, counts, offsets, weights, count, out);
    else wik_filter_row_plain(row, firsts, counts, offsets, weights, count, out);
}
