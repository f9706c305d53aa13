#ifndef WIK_SHIMS_H
#define WIK_SHIMS_H
// C glue for libraries that report errors with setjmp/longjmp (libjpeg, libpng). Each entry point
// sets its own jump buffer, so a longjmp never crosses a Swift frame. Every symbol starts with wik_.
// Also the one malloc setting the command-line tool makes (wik_memory.h) and where its tasks run (wik_executor.h).
#include "wik_jpeg.h"
#include "wik_png.h"
#include "wik_memory.h"
#include "wik_executor.h"
#endif
