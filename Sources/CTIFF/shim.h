#include <stdarg.h>
#include <stdint.h>
#include <tiffio.h>
