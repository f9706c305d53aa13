// PNG glue: see include/wik_png.h
