#include <stddef.h>
#include "wik_executor.h"

// Swift's runtime hook (swift/Runtime/Concurrency.h): when set, swift_task_enqueueGlobal calls it with the
// job and the original implementation instead of enqueueing the job itself. Its calling convention is Swift's.
extern void *swift_task_enqueueGlobal_hook;

static void (*wik_global_enqueue)(void *job);

__attribute__((swiftcall)) static void wik_enqueue_global(void *job, void *original) {
    (void)original;
    wik_global_enqueue(job);
}

int wik_route_global_executor(void (*enqueue)(void *job)) {
    if (swift_task_enqueueGlobal_hook != NULL) return 0;
    wik_global_enqueue = enqueue;
    swift_task_enqueueGlobal_hook = (void *)wik_enqueue_global;
    return 1;
}
