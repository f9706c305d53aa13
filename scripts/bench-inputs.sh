# Sourced by the benchmark scripts: installs the reference tools, builds webimage in release mode and
# generates the inputs into benchmarks/work/ (kept between runs; delete the folder to regenerate).
scripts/install-deps.sh libvips-tools python3-pil hyperfine imagemagick time >&2
# A plain release build of its own (no -enable-testing), so the figures are those users get.
swift build -c release --scratch-path .build-bench --product webimage >&2
bin="$(swift build -c release --scratch-path .build-bench --show-bin-path)/webimage"
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
