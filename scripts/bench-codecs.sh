#!/usr/bin/env bash
# Decode speed of webimage beside libvips and Pillow, in one hyperfine run per image, on generated
# inputs encoded by the reference tools themselves. Rewrites benchmarks/RESULTS.md (the codec section).
#
#   scripts/bench-codecs.sh [runs]        default 10 runs per command
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}

source scripts/bench-inputs.sh

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
cases+=("TIFF LZW 6000×4000|photo.tif|" "JPEG Display P3 → sRGB 6000×4000 (vips: plain decode)|photo-p3.jpg|") # issue 16
cases+=(
    "HEIC 1920×1280|photo.heic|"
    "JPEG XL 1920×1280|photo.jxl|"
    "SVG 1600×1200, 4,000 shapes|drawing.svg|"
    "PDF page 1200×900 (vector, from the SVG)|drawing.pdf|"
)

json_files=()
for case in "${cases[@]}"; do
    IFS='|' read -r label file vips_suffix <<<"$case"
    path="$work/$file"
    out="$work/${file%.*}-${file##*.}.json"
    memory="${out%.json}.mem"
    commands=(-n webimage "$bin decode --quiet $path" -n vips "vips avg $path$vips_suffix")
    {
        echo "webimage $(peak_kb "$bin" decode --quiet "$path")"
        echo "vips $(peak_kb vips avg "$path$vips_suffix")"
    } >"$memory"
    if [[ $file != *.avif && $file != *.heic && $file != *.jxl && $file != *.svg && $file != *.pdf ]]; then # Pillow 9.4 reads none of these
        commands+=(-n pillow "$py -c '$pillow_load' $path")
        echo "pillow $(peak_kb "$py" -c "$pillow_load" "$path")" >>"$memory"
    fi
    echo "== $label" >&2
    hyperfine -N --warmup 2 --runs "$runs" --export-json "$out" "${commands[@]}" >&2
    json_files+=("$label=$out=$memory")
done
startup="$work/startup.json"
hyperfine -N --warmup 2 --runs "$runs" --export-json "$startup" \
    -n webimage "$bin decode --help" -n vips "vips --version" -n pillow "$py -c 'import PIL.Image'" >&2

"$py" scripts/bench_report.py codecs "$startup" "${json_files[@]}"
