// Vector replacements for libjpeg-turbo's scaled inverse DCTs: see wik_jpeg_use_vector_idct in
// wik_jpeg_private.h.
//
// An N×N block is the 8×8 block's inverse transform evaluated at N points per side (libjpeg's own
// definition of its scaled IDCTs):
//     out(i, j) = 1/4 · Σu Σv C(u) C(v) F(u, v) cos((2i+1)uπ / 2N) cos((2j+1)vπ / 2N),
// u and v below min(N, 8), C(0) = 1/√2, C(k) = 1 otherwise. It is computed as two matrix products on
// float vectors (columns, then rows), skipping the rows and columns of coefficients that are all zero,
// as most are after quantisation. libjpeg computes the same sums in 13-bit fixed point; each sample
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
typedef float wik_v16f __attribute__((vector_size(64)));

#define WIK_IDCT_MAX 16

// basis[N][i][k] = C(k)/2 · cos((2i+1)kπ / 2N): the 1-D transform of one side, for k < min(N, 8).
static float wik_basis[WIK_IDCT_MAX + 1][WIK_IDCT_MAX][8];
// transposed[N][k] = the vector over i of basis[N][i][k] (16 lanes, zero past N).
static wik_v16f wik_transposed[WIK_IDCT_MAX + 1][8];
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
                wik_transposed[n][k][i] = (float)value;
            }
        }
    }
}

// Rounds, adds the level shift, clamps to 0…255 and writes `count` samples.
static inline void wik_store_samples(const wik_v16f *samples, JSAMPROW row, int count) {
    const wik_v16f values = *samples;
    uint8_t bytes[16];
#if defined(__SSE2__)
    __m128i packed[4];
    for (int q = 0; q < 4; q++) {
        __m128 part = _mm_setr_ps(values[4 * q], values[4 * q + 1], values[4 * q + 2], values[4 * q + 3]);
        // Clamped first: a sample of 2³¹ or more (hostile coefficients) would convert to INT_MIN, i.e. black.
        part = _mm_min_ps(_mm_max_ps(_mm_add_ps(part, _mm_set1_ps(128.0f)), _mm_set1_ps(-1.0f)), _mm_set1_ps(256.0f));
        packed[q] = _mm_cvtps_epi32(part);
    }
    __m128i words_low = _mm_packs_epi32(packed[0], packed[1]), words_high = _mm_packs_epi32(packed[2], packed[3]);
    _mm_storeu_si128((__m128i *)(void *)bytes, _mm_packus_epi16(words_low, words_high));
#else
    for (int j = 0; j < 16; j++) {
        float value = nearbyintf(values[j] + 128.0f);
        bytes[j] = value <= 0.0f ? 0 : value >= 255.0f ? 255 : (uint8_t)value;
    }
#endif
    memcpy(row, bytes, (size_t)count);
}

// The transform, inlined into one function per instruction set below.
static inline __attribute__((always_inline)) void wik_idct_scaled_body(
    jpeg_component_info *compptr, JCOEFPTR coef_block, JSAMPARRAY output_buf, JDIMENSION output_col) {
    const int n = compptr->DCT_scaled_size;
    const int k_count = n < 8 ? n : 8;
    // No table means no scan has carried this component yet: libjpeg then writes mid-grey (all zero).
    const UINT16 *quant = compptr->quant_table != NULL ? compptr->quant_table->quantval : NULL;

    // Dequantised coefficient rows (lanes past k_count zero), which rows are not all zero, and which
    // columns; whole rows at a time in vector registers (a lane written alone stalls the reload).
    wik_v8f rows[8];
    int row_used[8], used_rows = 0, column_mask = 0;
    if (quant != NULL) {
        wik_v8s nonzero_columns = {0};
        for (int u = 0; u < k_count; u++) {
            wik_v8s coefficients;
            wik_v8u steps;
            memcpy(&coefficients, coef_block + u * 8, sizeof coefficients);
            memcpy(&steps, quant + u * 8, sizeof steps);
            wik_v8s nonzero = (coefficients != 0) & wik_lane_mask[k_count];
            uint64_t halves[2];
            memcpy(halves, &nonzero, sizeof halves);
            if ((halves[0] | halves[1]) == 0) continue;
            nonzero_columns |= nonzero;
            rows[used_rows] = __builtin_convertvector(coefficients & wik_lane_mask[k_count], wik_v8f)
                * __builtin_convertvector(steps, wik_v8f);
            row_used[used_rows++] = u;
        }
        for (int v = 0; v < 8; v++) column_mask |= nonzero_columns[v] != 0 ? 1 << v : 0;
    }
    if (used_rows == 0 || (column_mask == 1 && used_rows == 1 && row_used[0] == 0)) {
        // Only the DC (or nothing): every sample is DC / 8.
        wik_v16f flat = {0};
        const float dc = used_rows == 0 ? 0.0f : rows[0][0] * 0.125f;
        for (int j = 0; j < 16; j++) flat[j] = dc;
        for (int i = 0; i < n; i++) wik_store_samples(&flat, output_buf[i] + output_col, n);
        return;
    }

    // Columns: work[i] (over v) = Σu basis[i][u] · rows[u].
    wik_v8f work[WIK_IDCT_MAX];
    for (int i = 0; i < n; i++) {
        wik_v8f sum = {0};
        for (int r = 0; r < used_rows; r++) sum += wik_basis[n][i][row_used[r]] * rows[r];
        work[i] = sum;
    }
    // Rows: out[i] (over j) = Σv work[i][v] · transposed[v].
    for (int i = 0; i < n; i++) {
        wik_v16f sum = {0};
        for (int v = 0; v < k_count; v++) {
            if (column_mask & (1 << v)) sum += work[i][v] * wik_transposed[n][v];
        }
        wik_store_samples(&sum, output_buf[i] + output_col, n);
    }
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
