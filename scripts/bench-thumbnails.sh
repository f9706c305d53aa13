#!/usr/bin/env bash
# Thumbnails and resizes with webimage beside vipsthumbnail/vips and Pillow: time (hyperfine) and peak
# memory (GNU time) in one run. Rewrites the "thumbnails" section of benchmarks/RESULTS.md.
#
#   scripts/bench-thumbnails.sh [runs]        default 10 runs per command
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}

source scripts/bench-inputs.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

pillow_thumb='import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.thumbnail((256, 256), Image.LANCZOS); im.save(sys.argv[2])'
pillow_resize='import sys; from PIL import Image; Image.open(sys.argv[1]).resize((800, 600), Image.LANCZOS).save(sys.argv[2])'
pillow_decode='import sys; from PIL import Image; Image.open(sys.argv[1]).convert("RGBA")'
# Scale-down to the 60 MB default budget (15,728,640 pixels): 8192×5461 → 4857×3238, 8000×6000 → 4579×3434.
pillow_scale='import sys; from PIL import Image; im = Image.open(sys.argv[1]); size = (int(sys.argv[2]), int(sys.argv[3])); im.draft("RGB", size); im.convert("RGBA").resize(size, Image.LANCZOS)'

# label | webimage command | vips command | Pillow command
cases=(
    "thumbnail 256 px of a 6000×4000 JPEG|$bin convert $work/photo.jpg $out/w.jpg --force --thumbnail 256x256|vipsthumbnail $work/photo.jpg -s 256 -o $out/v.jpg|$py -c '$pillow_thumb' $work/photo.jpg $out/p.jpg"
    "thumbnail 256 px of a 10000×10000 JPEG|$bin convert $work/huge.jpg $out/w.jpg --force --thumbnail 256x256|vipsthumbnail $work/huge.jpg -s 256 -o $out/v.jpg|$py -c '$pillow_thumb' $work/huge.jpg $out/p.jpg"
    "full decode of the 10000×10000 JPEG (for scale)|$bin decode --quiet $work/huge.jpg|vips avg $work/huge.jpg|$py -c '$pillow_decode' $work/huge.jpg"
    "thumbnail 256 px of a 6000×4000 WebP|$bin convert $work/photo.webp $out/w.webp --force --thumbnail 256x256|vipsthumbnail $work/photo.webp -s 256 -o $out/v.webp|$py -c '$pillow_thumb' $work/photo.webp $out/p.webp"
    "resize 4000×3000 RGBA PNG to 800×600 PNG|$bin convert $work/rgba-4000.png $out/w.png --force --transform resize:800x600|vips resize $work/rgba-4000.png $out/v.png 0.2|$py -c '$pillow_resize' $work/rgba-4000.png $out/p.png"
    "scale-down of an 8192×5461 JPEG to 60 MB (4857×3238)|$bin decode --quiet --scale-down $work/photo-8192.jpg|vipsthumbnail $work/photo-8192.jpg -s 4857x3238 -o $out/v.v|$py -c '$pillow_scale' $work/photo-8192.jpg 4857 3238"
    "full decode of the 8192×5461 JPEG (for scale)|$bin decode --quiet $work/photo-8192.jpg|vips avg $work/photo-8192.jpg|$py -c '$pillow_decode' $work/photo-8192.jpg"
    "scale-down of an 8000×6000 PNG to 60 MB (4579×3434)|$bin decode --quiet --scale-down $work/photo-8000.png|vipsthumbnail $work/photo-8000.png -s 4579x3434 -o $out/v.v|$py -c '$pillow_scale' $work/photo-8000.png 4579 3434"
    "full decode of the 8000×6000 PNG (for scale)|$bin decode --quiet $work/photo-8000.png|vips avg $work/photo-8000.png|$py -c '$pillow_decode' $work/photo-8000.png"
    "animated GIF decode, 800×533, 12 frames|$bin decode --quiet $work/animation.gif|vips avg $work/animation.gif[n=-1]|$py -c 'import sys; from PIL import Image, ImageSequence; [f.convert(\"RGBA\") for f in ImageSequence.Iterator(Image.open(sys.argv[1]))]' $work/animation.gif"
)

args=()
index=0
for case in "${cases[@]}"; do
    IFS='|' read -r label ours vips pillow <<<"$case"
    index=$((index + 1))
    json="$work/thumbnails-$index.json"
    memory="$work/thumbnails-$index.mem"
    echo "== $label" >&2
    hyperfine -N --warmup 1 --runs "$runs" --export-json "$json" -n webimage "$ours" -n vips "$vips" -n pillow "$pillow" >&2
    {
        echo "webimage $(eval peak_kb $ours)"
        echo "vips $(eval peak_kb $vips)"
        echo "pillow $(eval peak_kb $pillow)"
    } >"$memory"
    args+=("$label=$json=$memory")
done
startup="$work/startup.json"
hyperfine -N --warmup 2 --runs "$runs" --export-json "$startup" \
    -n webimage "$bin decode --help" -n vips "vips --version" -n pillow "$py -c 'import PIL.Image'" >&2

# Issue 33: the JPEG thumbnail beside libjpeg-turbo's own floor for it, a DCT-scaled 1/8 decode (djpeg).
scripts/install-deps.sh libjpeg-turbo-progs >&2
floor="$work/thumbnail-floor.json"
hyperfine -N --warmup 3 --runs $((runs * 3)) --export-json "$floor" \
    -n webimage "$bin convert $work/photo.jpg $out/w.jpg --force --thumbnail 256x256" \
    -n djpeg "djpeg -scale 1/8 -outfile $out/d.ppm $work/photo.jpg" >&2

THUMBNAIL_FLOOR="$floor" "$py" scripts/bench_report.py thumbnails "$startup" "${args[@]}"
