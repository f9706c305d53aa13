#!/usr/bin/env bash
# Issue 15, item 4: the same operations timed inside one process, where a server pays the work alone (no
# process start-up), WebImageKit (benchmarks/inprocess, package-benchmark) beside libvips
# (benchmarks/inprocess/vips/bench_vips.c) with 1 and 2 worker threads. Prints one markdown table; the
# figures are copied into benchmarks/RESULTS.md by hand.
#
#   scripts/bench-inprocess.sh [iterations]     default 15 per operation, after one warm-up
#   JOBS=1 nice -n 19 scripts/bench-inprocess.sh   on a shared machine
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-15}
package=benchmarks/inprocess
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

scripts/install-deps.sh libvips-dev pkg-config >&2
for input in photo.jpg huge.jpg photo-8192.jpg photo-8000.png rgba-4000.png animation.gif; do
    [[ -f benchmarks/work/$input ]] || { source scripts/bench-inputs.sh; break; }
done

gcc -O2 -o "$out/bench_vips" "$package/vips/bench_vips.c" $(pkg-config --cflags --libs vips)
swift build --package-path "$package" -c release -j "${JOBS:-$(nproc)}" --product InProcess >&2
INPROCESS_ITERATIONS=$iterations swift package --package-path "$package" -j "${JOBS:-$(nproc)}" \
    --allow-writing-to-directory "$out" benchmark --target InProcess --format histogramPercentiles --path "$out" --no-progress >&2
for threads in 1 2; do
    "$out/bench_vips" benchmarks/work "$iterations" "$threads" >"$out/vips-$threads.tsv"
done

/usr/bin/python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
labels = {
    "thumbnail-6000": "thumbnail 256 px of the 6000×4000 JPEG, JPEG encoded",
    "thumbnail-10000": "thumbnail 256 px of the 10000×10000 JPEG, JPEG encoded",
    "decode-10000": "full decode of the 10000×10000 JPEG",
    "decode-8192": "full decode of the 8192×5461 JPEG",
    "scale-down-8192": "scale-down of the 8192×5461 JPEG to 60 MB (4857×3238)",
    "decode-8000-png": "full decode of the 8000×6000 RGB PNG",
    "scale-down-8000-png": "scale-down of the 8000×6000 PNG to 60 MB (4579×3434)",
    "resize-800x600": "resize of the 4000×3000 RGBA PNG to 800×600",
    "resize-800x600-png": "the same resize, PNG encoded",
    "gif-all-frames": "animated GIF decode, 800×533, 12 frames",
}

def percentiles(name, metric):
    """package-benchmark's percentile file: {percentile: value} in the units set in InProcess.swift."""
    with open(f"{out}/Current_run.InProcess.{name}.{metric}.histogram.percentiles.tsv") as lines:
        next(lines)
        return {int(p): float(v) for p, v in (line.split() for line in lines)}

def vips(threads):
    with open(f"{out}/vips-{threads}.tsv") as lines:
        return {name: float(median) for name, median, _ in (line.split("\t") for line in lines)}

vips1, vips2 = vips(1), vips(2)
print("| operation | webimage median ms (p90) | vips 1 thread ms | vips 2 threads ms | webimage ÷ vips 1 thread "
      "| webimage ÷ vips 2 threads | webimage peak RSS MB (Δ) | webimage mallocs |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for name, label in labels.items():
    wall = percentiles(name, "wallClock")
    median, p90 = wall[50] / 1000, wall[90] / 1000
    peak = percentiles(name, "peakMemoryResident")[100] / 1000
    delta = percentiles(name, "peakMemoryResidentDelta")[100] / 1000
    mallocs = percentiles(name, "mallocCountTotal")[50]
    print(f"| {label} | {median:.1f} ({p90:.1f}) | {vips1[name]:.1f} | {vips2[name]:.1f} | {median / vips1[name]:.2f} "
          f"| {median / vips2[name]:.2f} | {peak:.0f} ({delta:.0f}) | {mallocs:.0f} |")
PY
