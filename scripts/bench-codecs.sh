#!/usr/bin/env bash
# Decode speed of webimage beside libvips and Pillow, in one hyperfine run per image, on generated
# inputs encoded by the reference tools themselves. Rewrites benchmarks/RESULTS.md (the codec section).
#
#   scripts/bench-codecs.sh [runs]        default 10 runs per command
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}

scripts/install-deps.sh libvips-tools python3-pil hyperfine imagemagick >&2
swift build -c release --product webimage >&2
bin="$(swift build -c release --show-bin-path)/webimage"
work=benchmarks/work
mkdir -p "$work"
py=/usr/bin/python3

# Inputs: a 6000×4000 photo-like source from our generator, encoded to each format by the reference tools.
if [[ ! -f $work/photo.png ]]; then
    "$bin" samples "$work" --size 6000x4000 --only photo.png,alpha.png >&2
fi
[[ -f $work/photo.jpg ]] || vips copy "$work/photo.png" "$work/photo.jpg[Q=85]"
[[ -f $work/photo-progressive.jpg ]] || vips copy "$work/photo.png" "$work/photo-progressive.jpg[Q=85,interlace]"
[[ -f $work/photo.webp ]] || vips copy "$work/photo.png" "$work/photo.webp[Q=80]"
[[ -f $work/alpha-lossless.webp ]] || vips copy "$work/alpha.png" "$work/alpha-lossless.webp[lossless]"
[[ -f $work/photo-1920.png ]] || vips thumbnail "$work/photo.png" "$work/photo-1920.png" 1920
[[ -f $work/photo.avif ]] || vips heifsave "$work/photo-1920.png" "$work/photo.avif" --compression av1 --Q 60 --effort 2
[[ -f $work/animation.gif ]] || "$py" - "$work" <<'PY'
import sys
from PIL import Image
work = sys.argv[1]
base = Image.open(f"{work}/photo-1920.png").convert("RGB").resize((800, 533))
frames = [base.rotate(angle, expand=False).quantize(colors=255) for angle in range(0, 120, 10)]
frames[0].save(f"{work}/animation.gif", save_all=True, append_images=frames[1:], duration=80, loop=0)
PY

pillow_load='import sys; from PIL import Image, ImageSequence; im = Image.open(sys.argv[1]); [f.convert("RGBA") for f in ImageSequence.Iterator(im)]'
cases=(
    "JPEG baseline 6000×4000|photo.jpg|"
    "JPEG progressive 6000×4000|photo-progressive.jpg|"
    "PNG RGBA 3000×2000|alpha.png|"
    "WebP lossy 6000×4000|photo.webp|"
    "WebP lossless RGBA 3000×2000|alpha-lossless.webp|"
    "GIF animated 800×533, 12 frames|animation.gif|[n=-1]"
    "AVIF 1920×1280|photo.avif|"
)

json_files=()
for case in "${cases[@]}"; do
    IFS='|' read -r label file vips_suffix <<<"$case"
    path="$work/$file"
    out="$work/${file%.*}-${file##*.}.json"
    commands=(-n webimage "$bin decode --quiet $path" -n vips "vips avg $path$vips_suffix")
    if [[ $file != *.avif ]]; then
        commands+=(-n pillow "$py -c '$pillow_load' $path")
    fi
    echo "== $label" >&2
    hyperfine -N --warmup 2 --runs "$runs" --export-json "$out" "${commands[@]}" >&2
    json_files+=("$label=$out")
done
startup="$work/startup.json"
hyperfine -N --warmup 2 --runs "$runs" --export-json "$startup" \
    -n webimage "$bin decode --help" -n vips "vips --version" -n pillow "$py -c 'import PIL.Image'" >&2

"$py" scripts/bench_report.py codecs "$startup" "${json_files[@]}"
