/* The operations of Benchmarks/InProcess/InProcess.swift with libvips, in one process (issue 15, item 4).
 *
 *   bench_vips WORK_DIR ITERATIONS THREADS    prints "name<TAB>median ms<TAB>p90 ms" per operation
 *
 * Each input is read into memory before timing; each operation then runs once as a warm-up and ITERATIONS
 * times timed. vips is lazy: every result is either encoded to a memory buffer (as the webimage side encodes)
 * or written to a memory buffer with vips_image_write_to_memory, so every pixel is computed. The operation
 * cache is off (vips_cache_set_max(0)) and the worker threads are set with vips_concurrency_set(THREADS). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vips/vips.h>

#define SEQUENTIAL "access", VIPS_ACCESS_SEQUENTIAL

/* Every pixel of `image` computed into a memory buffer, then freed; `image` is unreffed. */
static void materialise(VipsImage *image) {
    size_t size;
    void *pixels = vips_image_write_to_memory(image, &size);
    if (!pixels) vips_error_exit("write_to_memory");
    g_free(pixels);
    g_object_unref(image);
}

/* `webimage convert … --thumbnail 256x256` to JPEG: shrink-on-load thumbnail, JPEG at quality 90 with
 * optimised Huffman tables and no metadata, as WebImageKit's encoder writes it (4:4:4 at 90 on both sides). */
static void thumbnail_jpeg(const void *data, size_t length) {
    VipsImage *thumb;
    void *jpeg;
    size_t size;
    if (vips_thumbnail_buffer((void *)data, length, &thumb, 256, "height", 256, NULL)) vips_error_exit("thumbnail");
    if (vips_jpegsave_buffer(thumb, &jpeg, &size, "Q", 90, "optimize_coding", TRUE, "strip", TRUE, NULL))
        vips_error_exit("jpegsave");
    g_free(jpeg);
    g_object_unref(thumb);
}

/* Every pixel of a still image (`webimage decode`). */
static void decode_still(const void *data, size_t length) {
    VipsImage *image = vips_image_new_from_buffer(data, length, "", SEQUENTIAL, NULL);
    if (!image) vips_error_exit("load");
    materialise(image);
}

/* Every pixel of every frame of an animation (n = -1: the frames stacked into one tall image). */
static void decode_animation(const void *data, size_t length) {
    VipsImage *image = vips_image_new_from_buffer(data, length, "", SEQUENTIAL, "n", -1, NULL);
    if (!image) vips_error_exit("load");
    materialise(image);
}

/* `webimage decode --scale-down`: to the 60 MB budget (as vipsthumbnail -s WxH). */
static void thumbnail_to(const void *data, size_t length, int width, int height) {
    VipsImage *thumb;
    if (vips_thumbnail_buffer((void *)data, length, &thumb, width, "height", height, NULL)) vips_error_exit("thumbnail");
    materialise(thumb);
}

/* 8192×5461 JPEG → 4857×3238, 8000×6000 PNG → 4579×3434. */
static void scale_down_jpeg(const void *data, size_t length) { thumbnail_to(data, length, 4857, 3238); }
static void scale_down_png(const void *data, size_t length) { thumbnail_to(data, length, 4579, 3434); }

/* `vips resize rgba-4000.png out 0.2` (Lanczos 3): 800×600, kept in memory or encoded to PNG with the
 * settings of WebImageKit's PNG encoder (zlib level 3, adaptive row filters). */
static VipsImage *resize(const void *data, size_t length) {
    VipsImage *image = vips_image_new_from_buffer(data, length, "", SEQUENTIAL, NULL), *small;
    if (!image || vips_resize(image, &small, 0.2, NULL)) vips_error_exit("resize");
    g_object_unref(image);
    return small;
}

static void resize_only(const void *data, size_t length) { materialise(resize(data, length)); }

static void resize_png(const void *data, size_t length) {
    VipsImage *small = resize(data, length);
    void *png;
    size_t size;
    if (vips_pngsave_buffer(small, &png, &size, "compression", 3, "filter", VIPS_FOREIGN_PNG_FILTER_ALL, "strip", TRUE, NULL))
        vips_error_exit("pngsave");
    g_free(png);
    g_object_unref(small);
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const struct {
    const char *name, *file;
    void (*run)(const void *, size_t);
} cases[] = {
    {"thumbnail-6000", "photo.jpg", thumbnail_jpeg},
    {"thumbnail-10000", "huge.jpg", thumbnail_jpeg},
    {"decode-10000", "huge.jpg", decode_still},
    {"decode-8192", "photo-8192.jpg", decode_still},
    {"scale-down-8192", "photo-8192.jpg", scale_down_jpeg},
    {"decode-8000-png", "photo-8000.png", decode_still},
    {"scale-down-8000-png", "photo-8000.png", scale_down_png},
    {"resize-800x600", "rgba-4000.png", resize_only},
    {"resize-800x600-png", "rgba-4000.png", resize_png},
    {"gif-all-frames", "animation.gif", decode_animation},
};

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s WORK_DIR ITERATIONS THREADS\n", argv[0]);
        return 2;
    }
    if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
    int iterations = atoi(argv[2]);
    vips_cache_set_max(0);
    vips_concurrency_set(atoi(argv[3]));
    double *ms = g_new(double, iterations);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *path = g_build_filename(argv[1], cases[c].file, NULL);
        gchar *data;
        gsize length;
        GError *error = NULL;
        if (!g_file_get_contents(path, &data, &length, &error)) {
            fprintf(stderr, "%s: %s\n", path, error->message);
            return 1;
        }
        cases[c].run(data, length); /* warm-up */
        for (int i = 0; i < iterations; i++) {
            double start = now_ms();
            cases[c].run(data, length);
            ms[i] = now_ms() - start;
        }
        qsort(ms, iterations, sizeof ms[0], compare);
        /* Nearest rank, as package-benchmark's percentiles: the smallest sample with 50 % (90 %) at or below it. */
        printf("%s\t%.1f\t%.1f\n", cases[c].name, ms[(iterations - 1) / 2], ms[(iterations * 9 + 9) / 10 - 1]);
        fflush(stdout);
        g_free(data);
        g_free(path);
    }
    g_free(ms);
    vips_shutdown();
    return 0;
}
