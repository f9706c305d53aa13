// Vector replacements for libjpeg-turbo's scaled inverse DCTs: see wik_jpeg_use_vector_idct in
// wik_jpeg_private.h.
//
// An N×N block is the 8×8 block's inverse transform evaluated at N points per side (libjpeg's own
// definition of its scaled IDCTs):
//     out(i, j) = 1/4 · Σu Σv C(u) C(v) F(u, v) cos((2i+1)uπ / 2N) cos((2j+1)vπ / 2N),
// u and v below min(N, 8), C(0) = 1/√2, C(k) = 1 otherwise. It is computed as two matrix products on
// float vectors of 8 lanes (rows, then columns), skipping the rows and columns of coefficients that are
// all zero, as most are after quantisation. libjpeg computes the same sums in 13-bit fixed point; each sample
// differs from its by at most one level (tests).
#include "wik_jpeg_private.h"

#include <jpegint.h> // struct jpeg_inverse_dct, installed with libjpeg-turbo's headers
#include <math.h>
#include <pthread.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef float wik_v8f __attribute__((vector_size(32)));
typedef int16_t wik_v8s __attribute__((vector_size(16)));
typedef uint16_t wik_v8u __attribute__((vector_size(16)));

#define WIK_IDCT_MAX 16

// basis[N][i][k] = C(k)/2 · cos((2i+1)kπ / 2N): the 1-D transform of one side, for k < min(N, 8).
static float wik_basis[WIK_IDCT_MAX + 1][WIK_IDCT_MAX][8];
// columns[N][k] = the vector over i of basis[N][i][k] (16 lanes, zero past N).
static float wik_columns[WIK_IDCT_MAX + 1][8][16] __attribute__((aligned(64)));
static pthread_once_t wik_basis_once = PTHREAD_ONCE_INIT;
// wik_lane_mask[k]: all ones in the first k lanes.
static const wik_v8s wik_lane_mask[9] = {
    {0, 0, 0, 0, 0, 0, 0, 0}, {-1, 0, 0, 0, 0, 0, 0, 0}, {-1, -1, 0, 0, 0, 0, 0, 0},
    {-1, -1, -1, 0, 0, 0, 0, 0}, {-1, -1, -1, -1, 0, 0, 0, 0}, {-1, -1, -1, -1, -1, 0, 0, 0},
    {-1, -1, -1, -1, -1, -1, 0, 0}, {-1, -1, -1, -1, -1, -1, -1, 0}, {-1, -1, -1, -1, -1, -1, -1, -1},
};

static void wik_make_basis(void) {
    for (int n = 1; n <= WIK_IDCT_MAX; n++) {
        for (int k = 0; k < 8; k++) {
            const double scale = (k == 0 ? sqrt(0.5) : 1.0) / 2.0;
            for (int i = 0; i < WIK_IDCT_MAX; i++) {
                const double value = i < n && k < n ? scale * cos((2.0 * i + 1.0) * k * M_PI / (2.0 * n)) : 0.0;
                wik_basis[n][i][k] = (float)value;
                wik_columns[n][k][i] = (float)value;
            }
        }
    }
}

#if defined(__SSE2__)
// Adds the level shift, clamps (a sample of 2³¹ or more, from hostile coefficients, would convert to
// INT_MIN, i.e. black) and rounds four samples to 32-bit integers.
static inline __m128i wik_round4(const float *samples) {
    __m128 part = _mm_loadu_ps(samples);
    part = _mm_min_ps(_mm_max_ps(_mm_add_ps(part, _mm_set1_ps(128.0f)), _mm_set1_ps(-1.0f)), _mm_set1_ps(256.0f));
    return _mm_cvtps_epi32(part);
}
#endif

// Writes the first `count` (1…16) of `samples` (level-shifted, rounded, clamped to 0…255) at `row`, in
// stores of fixed size (a memcpy of variable length is a library call per row of every block).
static inline void wik_store_samples(const float *samples, JSAMPROW row, int count) {
    uint8_t bytes[16];
#if defined(__SSE2__)
    const __m128i low = _mm_packs_epi32(wik_round4(samples), wik_round4(samples + 4));
    const __m128i high = count > 8 ? _mm_packs_epi32(wik_round4(samples + 8), wik_round4(samples + 12)) : low;
    _mm_storeu_si128((__m128i *)(void *)bytes, _mm_packus_epi16(low, high));
#else
    for (int j = 0; j < count; j++) {
        float value = nearbyintf(samples[j] + 128.0f);
        bytes[j] = value <= 0.0f ? 0 : value >= 255.0f ? 255 : (uint8_t)value;
    }
#endif
    int at = 0;
    if (count & 16) { memcpy(row, bytes, 16); return; }
    if (count & 8) { memcpy(row, bytes, 8); at = 8; }
    if (count & 4) { memcpy(row + at, bytes + at, 4); at += 4; }
    if (count & 2) { memcpy(row + at, bytes + at, 2); at += 2; }
    if (count & 1) row[at] = bytes[at];
}

// Fills the n×n block with one sample (a block with only a DC coefficient): rounded and clamped once,
// as wik_store_samples does, then n bytes a row (n a constant where this is inlined: fixed stores).
static inline __attribute__((always_inline)) void wik_store_flat(
    float sample, JSAMPARRAY output_buf, JDIMENSION output_col, const int n) {
    float samples[16];
    for (int j = 0; j < 16; j++) samples[j] = sample;
    uint8_t bytes[16];
    wik_store_samples(samples, bytes, 8); // the same rounding and clamping as every other sample
    for (int i = 0; i < n; i++) memset(output_buf[i] + output_col, bytes[0], (size_t)n);
}

// The two passes for one size `n` (a constant where this is inlined, so that the loops over the output's
// rows unroll into independent vector operations). Rows first: partial[r] (over j) = Σv F(u_r, v) ·
// columns[n][v], for the used coefficient rows u_r and columns v; then output row i (over j) =
// Σr basis[n][i][u_r] · partial[r]. Eight lanes of j at a time: one pass up to n = 8, two above.
static inline __attribute__((always_inline)) void wik_transform(
    const int n, const float (*coefficients)[8], const int *row_used, int used_rows, int column_mask,
    JSAMPARRAY output_buf, JDIMENSION output_col) {
    float samples[WIK_IDCT_MAX][16] __attribute__((aligned(32)));
    for (int half = 0; half < (n > 8 ? 2 : 1); half++) {
        // Two rows at a time, so that two chains of multiply-adds overlap.
        wik_v8f partial[8];
        for (int r = 0; r < used_rows; r += 2) {
            const int s = r + 1 < used_rows ? r + 1 : r;
            wik_v8f first = {0}, second = {0};
            for (int mask = column_mask; mask != 0; mask &= mask - 1) {
                const int v = __builtin_ctz((unsigned)mask);
                wik_v8f column;
                memcpy(&column, &wik_columns[n][v][8 * half], sizeof column);
                first += coefficients[r][v] * column;
                second += coefficients[s][v] * column;
            }
            partial[r] = first;
            partial[s] = second;
        }
        wik_v8f out[WIK_IDCT_MAX];
        for (int i = 0; i < n; i++) out[i] = (wik_v8f){0};
        for (int r = 0; r < used_rows; r++) {
            const int u = row_used[r];
            for (int i = 0; i < n; i++) out[i] += wik_basis[n][i][u] * partial[r];
        }
        for (int i = 0; i < n; i++) memcpy(&samples[i][8 * half], &out[i], sizeof out[i]);
    }
    for (int i = 0; i < n; i++) wik_store_samples(samples[i], output_buf[i] + output_col, n);
}

// The transform of one block at a size `n` below 8, a constant where this is inlined: every coefficient
// row and column below n, zero or not, with every loop unrolled, so that all of a pass's rows are summed
// at once as independent chains of multiply-adds. (Skipping the all-zero ones, as the larger sizes do,
// serialises the few that are left: the sums wait on each other's latency, for a fifth more time.)
static inline __attribute__((always_inline)) void wik_idct_narrow(
    const int n, const UINT16 *quant, JCOEFPTR coef_block, JSAMPARRAY output_buf, JDIMENSION output_col) {
    static const wik_v8s not_dc = {0, -1, -1, -1, -1, -1, -1, -1};
    float coefficients[8][8] __attribute__((aligned(32)));
    wik_v8s nonzero_ac = {0};
    for (int u = 0; u < n; u++) {
        wik_v8s row;
        wik_v8u steps = {0};
        memcpy(&row, coef_block + u * 8, sizeof row);
        if (quant != NULL) memcpy(&steps, quant + u * 8, sizeof steps);
        row &= wik_lane_mask[n];
        nonzero_ac |= u == 0 ? (row != 0) & not_dc : row != 0;
        const wik_v8f dequantised = __builtin_convertvector(row, wik_v8f) * __builtin_convertvector(steps, wik_v8f);
        memcpy(coefficients[u], &dequantised, sizeof dequantised);
    }
    uint64_t halves[2];
    memcpy(halves, &nonzero_ac, sizeof halves);
    float samples[8][16] __attribute__((aligned(32)));
    if ((halves[0] | halves[1]) == 0) { // only the DC: every sample is DC / 8
        wik_store_flat(coefficients[0][0] * 0.125f, output_buf, output_col, n);
        return;
    }
    wik_v8f column[8], partial[8], out[8];
    for (int v = 0; v < n; v++) memcpy(&column[v], &wik_columns[n][v][0], sizeof column[v]);
    for (int u = 0; u < n; u++) partial[u] = (wik_v8f){0};
    for (int v = 0; v < n; v++) {
        for (int u = 0; u < n; u++) partial[u] += coefficients[u][v] * column[v];
    }
    for (int i = 0; i < n; i++) out[i] = (wik_v8f){0};
    for (int u = 0; u < n; u++) {
        for (int i = 0; i < n; i++) out[i] += wik_basis[n][i][u] * partial[u];
    }
    for (int i = 0; i < n; i++) {
        memcpy(samples[i], &out[i], sizeof out[i]);
        wik_store_samples(samples[i], output_buf[i] + output_col, n);
    }
}

// The transform of one block at a size `n` above 8, a constant where this is inlined (so that the loops
// over the coefficient rows and the output's rows unroll, without branches).
static inline __attribute__((always_inline)) void wik_idct_block(
    const int n, const UINT16 *quant, JCOEFPTR coef_block, JSAMPARRAY output_buf, JDIMENSION output_col) {
    const int k_count = n < 8 ? n : 8;
    // Dequantised coefficient rows that are not all zero (lanes past k_count zero), which rows they
    // are, and which columns are not all zero; each row dequantised as one vector. Every row is written
    // at the next free place, which moves on only past a row that is not all zero.
    float coefficients[8][8] __attribute__((aligned(32)));
    int row_used[8], used_rows = 0, column_mask = 0;
    if (quant != NULL) {
        wik_v8s nonzero_columns = {0};
        for (int u = 0; u < k_count; u++) {
            wik_v8s row;
            wik_v8u steps;
            memcpy(&row, coef_block + u * 8, sizeof row);
            memcpy(&steps, quant + u * 8, sizeof steps);
            const wik_v8s nonzero = (row != 0) & wik_lane_mask[k_count];
            uint64_t halves[2];
            memcpy(halves, &nonzero, sizeof halves);
            nonzero_columns |= nonzero;
            const wik_v8f dequantised = __builtin_convertvector(row & wik_lane_mask[k_count], wik_v8f)
                * __builtin_convertvector(steps, wik_v8f);
            memcpy(coefficients[used_rows], &dequantised, sizeof dequantised);
            row_used[used_rows] = u;
            used_rows += (halves[0] | halves[1]) != 0;
        }
        for (int v = 0; v < 8; v++) column_mask |= nonzero_columns[v] != 0 ? 1 << v : 0;
    }
    if (used_rows == 0 || (column_mask == 1 && used_rows == 1 && row_used[0] == 0)) {
        // Only the DC (or nothing): every sample is DC / 8.
        wik_store_flat(used_rows == 0 ? 0.0f : coefficients[0][0] * 0.125f, output_buf, output_col, n);
        return;
    }
    wik_transform(n, coefficients, row_used, used_rows, column_mask, output_buf, output_col);
}

// The transform, inlined into one function per instruction set below.
static inline __attribute__((always_inline)) void wik_idct_scaled_body(
    jpeg_component_info *compptr, JCOEFPTR coef_block, JSAMPARRAY output_buf, JDIMENSION output_col) {
    // No table means no scan has carried this component yet: libjpeg then writes mid-grey (all zero).
    const UINT16 *quant = compptr->quant_table != NULL ? compptr->quant_table->quantval : NULL;
#define WIK_NARROW(N) \
    case N: wik_idct_narrow(N, quant, coef_block, output_buf, output_col); break
#define WIK_SIZE(N) \
    case N: wik_idct_block(N, quant, coef_block, output_buf, output_col); break
    switch (compptr->DCT_scaled_size) {
        WIK_NARROW(3); WIK_NARROW(5); WIK_NARROW(6); WIK_NARROW(7); WIK_SIZE(9); WIK_SIZE(10); WIK_SIZE(11);
        WIK_SIZE(12); WIK_SIZE(13); WIK_SIZE(14); WIK_SIZE(15); WIK_SIZE(16);
        default: break; // wik_jpeg_use_vector_idct installs this function for these sizes only
    }
#undef WIK_NARROW
#undef WIK_SIZE
}

static void wik_idct_scaled(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
                            JSAMPARRAY output_buf, JDIMENSION output_col) {
    (void)cinfo;
    wik_idct_scaled_body(compptr, coef_block, output_buf, output_col);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
// The same with 256-bit vectors and fused multiply-adds, chosen at run time where the CPU has them.
__attribute__((target("avx2,fma"))) static void wik_idct_scaled_avx2(
    j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block, JSAMPARRAY output_buf,
    JDIMENSION output_col) {
    (void)cinfo;
    wik_idct_scaled_body(compptr, coef_block, output_buf, output_col);
}
#define WIK_HAS_AVX2() (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
#else
#define wik_idct_scaled_avx2 wik_idct_scaled
#define WIK_HAS_AVX2() 0
#endif

void wik_jpeg_use_vector_idct(j_decompress_ptr cinfo) {
    pthread_once(&wik_basis_once, wik_make_basis);
    const inverse_DCT_method_ptr method = WIK_HAS_AVX2() ? wik_idct_scaled_avx2 : wik_idct_scaled;
    for (int ci = 0; ci < cinfo->num_components && ci < MAX_COMPONENTS; ci++) {
        const int n = cinfo->comp_info[ci].DCT_scaled_size;
        // libjpeg-turbo has SIMD for 1, 2, 4 and 8; the other sizes are plain C there.
        if (n >= 3 && n <= WIK_IDCT_MAX && n != 4 && n != 8) cinfo->idct->inverse_DCT[ci] = method;
    }
}
