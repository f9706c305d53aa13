# Sourced by the benchmark scripts: installs the reference tools, builds webimage in release mode and
# generates the inputs into benchmarks/work/ (kept between runs; delete the folder to regenerate).
scripts/install-deps.sh libvips-tools python3-pil hyperfine imagemagick time >&2
scripts/install-deps.sh libheif-examples libjxl-tools librsvg2-bin >&2
source scripts/lib/webimage-binary.sh
work=benchmarks/work
py=/usr/bin/python3
mkdir -p "$work"

# A 6000×4000 photo-like source from our generator, encoded to each format by the reference tools.
[[ -f $work/photo.png ]] || "$bin" samples "$work" --size 6000x4000 --only photo.png,alpha.png >&2
[[ -f $work/photo.jpg ]] || vips copy "$work/photo.png" "$work/photo.jpg[Q=85]"
[[ -f $work/photo-progressive.jpg ]] || vips copy "$work/photo.png" "$work/photo-progressive.jpg[Q=85,interlace]"
[[ -f $work/photo.webp ]] || vips copy "$work/photo.png" "$work/photo.webp[Q=80]"
[[ -f $work/alpha-lossless.webp ]] || vips copy "$work/alpha.png" "$work/alpha-lossless.webp[lossless]"
[[ -f $work/photo-1920.png ]] || vips thumbnail "$work/photo.png" "$work/photo-1920.png" 1920
[[ -f $work/photo.avif ]] || vips heifsave "$work/photo-1920.png" "$work/photo.avif" --compression av1 --Q 60 --effort 2
# Issue 16's formats, encoded by their reference tools from the same 1920×1280 photo; a vector drawing for SVG/PDF.
[[ -f $work/photo.heic ]] || heif-enc -q 60 "$work/photo-1920.png" -o "$work/photo.heic" >/dev/null
[[ -f $work/photo.jxl ]] || cjxl "$work/photo-1920.png" "$work/photo.jxl" -d 1 >/dev/null 2>&1
[[ -f $work/drawing.svg ]] || "$py" - "$work/drawing.svg" <<'PY'
import random, sys
random.seed(16)
shapes = []
for i in range(2000):
    x, y, r = random.uniform(0, 1600), random.uniform(0, 1200), random.uniform(4, 60)
    colour = "#%06x" % random.randrange(1 << 24)
    shapes.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}" fill-opacity="0.7"/>')
    shapes.append(f'<path d="M{x:.1f} {y:.1f} q 40 -60 90 10 t 80 30" stroke="{colour}" stroke-width="3" fill="none"/>')
svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">' + "".join(shapes) + "</svg>"
open(sys.argv[1], "w").write(svg)
PY
[[ -f $work/drawing.pdf ]] || rsvg-convert -f pdf -o "$work/drawing.pdf" "$work/drawing.svg"
[[ -f $work/rgba-4000.png ]] || vips thumbnail "$work/alpha.png" "$work/rgba-4000.png" 4000 --height 3000 --size force
[[ -f $work/huge.jpg ]] || vips resize "$work/photo.png" "$work/huge.jpg[Q=85]" 1.6667 --vscale 2.5
[[ -f $work/photo-8192.jpg ]] || vips resize "$work/photo.png" "$work/photo-8192.jpg[Q=85]" 1.365334 --vscale 1.36525
[[ -f $work/photo-8000.png ]] || vips resize "$work/photo.png" "$work/photo-8000.png" 1.333334 --vscale 1.5
# Issue 16: TIFF (LZW, as cameras and scanners write it) and a Display P3 JPEG (the same photo, profile assigned).
[[ -f $work/photo.tif ]] || vips copy "$work/photo.png" "$work/photo.tif[compression=lzw]"
[[ -f $work/photo-p3.jpg ]] || convert "$work/photo.jpg" -profile Tests/WebImageCodersTests/Fixtures/icc/display-p3.icc "$work/photo-p3.jpg"
[[ -f $work/animation.gif ]] || "$py" - "$work" <<'PY'
import sys
from PIL import Image
work = sys.argv[1]
base = Image.open(f"{work}/photo-1920.png").convert("RGB").resize((800, 533))
frames = [base.rotate(angle, expand=False).quantize(colors=255) for angle in range(0, 120, 10)]
frames[0].save(f"{work}/animation.gif", save_all=True, append_images=frames[1:], duration=80, loop=0)
PY

# peak_kb COMMAND...: the peak resident memory of one run, in KiB (GNU time).
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
