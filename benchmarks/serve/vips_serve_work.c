/* The work of one image-server request done by libvips in process, as imgproxy's engine does it (issue 33):
 * the 2048×1365 JPEG source, already in memory, thumbnailed to fit width W (vips_thumbnail_buffer, which
 * shrinks on load) and encoded at quality 80 (vips_jpegsave_buffer). No HTTP, no fetching, no caching.
 *
 *   vips_serve_work SOURCE.jpg SECONDS THREADS    prints "images<TAB>seconds<TAB>cpu_ms_per_image"
 *
 * THREADS threads each run requests back to back, W cycling 500–520 as scripts/bench-serve.sh asks; libvips's
 * own worker threads are set to 1 (vips_concurrency_set) and its operation cache is off, so each thread is one
 * request at a time, as a server with one worker per core runs them. CPU is the process's user + system time. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <vips/vips.h>

static void *source;
static size_t source_length;
static double deadline;
static long done[64];

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu_s(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

/* One request: fit into width `width`, JPEG at quality 80. */
static void request(int width) {
    VipsImage *thumb;
    void *jpeg;
    size_t size;
    if (vips_thumbnail_buffer(source, source_length, &thumb, width, NULL)) vips_error_exit("thumbnail");
    if (vips_jpegsave_buffer(thumb, &jpeg, &size, "Q", 80, NULL)) vips_error_exit("jpegsave");
    g_free(jpeg);
    g_object_unref(thumb);
}

static void *worker(void *argument) {
    long index = (long)argument, count = 0;
    while (now_s() < deadline) {
        request(500 + (int)(count % 21));
        count++;
    }
    done[index] = count;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s SOURCE.jpg SECONDS THREADS\n", argv[0]);
        return 2;
    }
    if (VIPS_INIT(argv[0])) vips_error_exit(NULL);
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    gchar *contents;
    gsize length;
    if (!g_file_get_contents(argv[1], &contents, &length, NULL)) vips_error_exit("read");
    source = contents;
    source_length = length;
    int threads = atoi(argv[3]);
    if (threads < 1 || threads > 64) threads = 1;
    request(512); /* warm-up: libraries loaded, first allocations made */
    pthread_t ids[64];
    double start = now_s(), cpu_start = cpu_s();
    deadline = start + atof(argv[2]);
    for (long i = 0; i < threads; i++) pthread_create(&ids[i], NULL, worker, (void *)i);
    long images = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(ids[i], NULL);
        images += done[i];
    }
    double seconds = now_s() - start, cpu = cpu_s() - cpu_start;
    printf("%ld\t%.3f\t%.3f\n", images, seconds, images ? cpu * 1000 / images : 0);
    return 0;
}
