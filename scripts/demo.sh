#!/usr/bin/env bash
# The demo until the full one exists: generate sample images with WebImageKit's own encoders,
# then run `webimage info` on them and `webimage convert` between formats. Writes only ./demo-output/.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product webimage >&2
bin="$(swift build -c release --show-bin-path)/webimage"
out=demo-output
rm -rf "$out"
mkdir -p "$out/converted"

echo "== webimage samples $out/samples"
"$bin" samples "$out/samples"

echo
echo "== webimage info $out/samples/*"
"$bin" info "$out"/samples/*

echo
echo "== webimage convert (every sample to every other format)"
for input in "$out"/samples/*; do
    name=$(basename "$input"); name=${name//./-}
    for ext in jpg png webp gif avif; do
        "$bin" convert "$input" "$out/converted/$name.$ext" --quality 80
    done
done

echo
echo "== webimage info --json $out/converted/animation.webp"
"$bin" info --json "$out/converted/animation-gif.webp"

echo
echo "== an error goes to stderr with a non-zero exit"
printf 'not an image' > "$out/broken.jpg"
if "$bin" info "$out/broken.jpg"; then echo "unexpected success" >&2; exit 1; else echo "(exit status $?)"; fi

echo
echo "Done: the images are in $out/."
