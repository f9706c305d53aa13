#ifndef WIK_MEMORY_H
#define WIK_MEMORY_H

/// Makes glibc's malloc serve every block of at least `mmap_bytes` with mmap, so that freeing it returns the
/// memory to the system (a fixed threshold also turns off glibc's raising of it to the largest block
/// freed), and keep up to `trim_bytes` free at the top of each heap instead of returning it at once.
/// Returns 1 on success, 0 where it is not supported.
int wik_set_malloc_thresholds(int mmap_bytes, int trim_bytes);

/// Makes SIGBUS (a memory-mapped file cut short by another program while it is read) end the process with
/// a message on standard error and exit status 1 instead of a crash. For the command-line tool, which maps
/// its input files. Returns 1 when the handler is installed.
int wik_exit_on_bus_error(void);

#endif
