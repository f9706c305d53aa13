#include "wik_memory.h"

// Any C library header defines __GLIBC__ on glibc (without one, the test below was always false and the
// thresholds were never set).
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int wik_set_malloc_thresholds(int mmap_bytes, int trim_bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, mmap_bytes) == 1 && mallopt(M_TRIM_THRESHOLD, trim_bytes) == 1;
#else
    (void)mmap_bytes;
    (void)trim_bytes;
    return 0;
#endif
}

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Async-signal-safe: one write and _exit. */
static void wik_bus_error_handler(int signal_number) {
    (void)signal_number;
    static const char message[] = "webimage: an input file was cut short by another program while it was being read\n";
    ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
    (void)ignored;
    _exit(1);
}

int wik_exit_on_bus_error(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = wik_bus_error_handler;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGBUS, &action, NULL) == 0;
}
