// JPEG glue: see include/wik_jpeg.h
