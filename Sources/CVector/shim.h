// librsvg (SVG) and poppler-glib (PDF) in one module: both draw through cairo and report through GLib,
// and those shared headers must belong to a single Clang module for Swift to see them once.
#include <cairo.h>
#include <librsvg/rsvg.h>
#include <poppler/glib/poppler.h>
