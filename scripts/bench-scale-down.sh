#!/usr/bin/env bash
# Issue 15's figures in one run: scale-down of an 8192×5461 JPEG and an 8000×6000 PNG to the 60 MB default
# budget beside their full decode and vipsthumbnail, the 4000×3000 PNG → 800×600 resize beside vips, and the
# 256 px JPEG thumbnail beside `djpeg -scale 1/8`. Time with hyperfine, peak RSS with GNU time (two runs
# each). Prints; the figures are copied into benchmarks/RESULTS.md by hand.
#
#   scripts/bench-scale-down.sh [runs]        default 5 runs per command
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
source scripts/bench-inputs.sh
scripts/install-deps.sh libjpeg-turbo-progs >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
peaks() { local label=$1; shift; echo "peak RSS $label: $(peak "$@") KiB, $(peak "$@") KiB"; }
times() { # mean ± σ from hyperfine, then each command's median and minimum (the host's noise skews means)
    hyperfine -N --warmup 1 --runs "$runs" --export-json "$out/times.json" "$@" 2>&1 | grep -E "Benchmark|Time"
    /usr/bin/python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print("  median %.1f ms, min %.1f ms: %s" % (r["median"] * 1e3, r["min"] * 1e3, r["command"]))' "$out/times.json"
}

times -n "JPEG full decode" "$bin decode --quiet $work/photo-8192.jpg" \
      -n "JPEG scale-down" "$bin decode --quiet --scale-down $work/photo-8192.jpg" \
      -n "vipsthumbnail JPEG" "vipsthumbnail $work/photo-8192.jpg -s 4857x3238 -o $out/v.v"
peaks "JPEG full decode" "$bin" decode --quiet "$work/photo-8192.jpg"
peaks "JPEG scale-down" "$bin" decode --quiet --scale-down "$work/photo-8192.jpg"
peaks "vipsthumbnail JPEG" vipsthumbnail "$work/photo-8192.jpg" -s 4857x3238 -o "$out/v.v"

times -n "PNG full decode" "$bin decode --quiet $work/photo-8000.png" \
      -n "PNG scale-down" "$bin decode --quiet --scale-down $work/photo-8000.png" \
      -n "vipsthumbnail PNG" "vipsthumbnail $work/photo-8000.png -s 4579x3434 -o $out/v.v"
peaks "PNG full decode" "$bin" decode --quiet "$work/photo-8000.png"
peaks "PNG scale-down" "$bin" decode --quiet --scale-down "$work/photo-8000.png"
peaks "vipsthumbnail PNG" vipsthumbnail "$work/photo-8000.png" -s 4579x3434 -o "$out/v.v"

times -n "webimage resize" "$bin convert $work/rgba-4000.png $out/w.png --force --transform resize:800x600" \
      -n "vips resize" "vips resize $work/rgba-4000.png $out/v.png 0.2" \
      -n "vipsthumbnail" "vipsthumbnail $work/rgba-4000.png -s 800x600 -o $out/t.png"
peaks "webimage resize" "$bin" convert "$work/rgba-4000.png" "$out/w.png" --force --transform resize:800x600
peaks "vips resize" vips resize "$work/rgba-4000.png" "$out/v.png" 0.2
peaks "vipsthumbnail" vipsthumbnail "$work/rgba-4000.png" -s 800x600 -o "$out/t.png"

runs=$((runs * 2)) times -n "webimage thumbnail 256" "$bin convert $work/photo.jpg $out/w.jpg --force --thumbnail 256x256" \
      -n "djpeg -scale 1/8" "djpeg -scale 1/8 -outfile $out/d.ppm $work/photo.jpg"
times -n "djpeg -scale 5/8 (8192×5461)" "djpeg -scale 5/8 -outfile /dev/null $work/photo-8192.jpg" \
      -n "djpeg full (8192×5461)" "djpeg -outfile /dev/null $work/photo-8192.jpg"

# The two "scale-down takes no longer than the full decode" goals once more with the commands alternated run
# by run, so that the host's slow spells (σ up to 30 % on shared machines) fall on both sides alike.
interleaved() {
    /usr/bin/python3 - "$((runs * 2))" "$@" <<'PY'
import statistics, subprocess, sys, time
runs, commands = int(sys.argv[1]), sys.argv[2:]
times = [[] for _ in commands]
for command in commands:  # warm-up
    subprocess.run(command.split(), stdout=subprocess.DEVNULL, check=True)
for _ in range(runs):
    for index, command in enumerate(commands):
        start = time.perf_counter()
        subprocess.run(command.split(), stdout=subprocess.DEVNULL, check=True)
        times[index].append((time.perf_counter() - start) * 1e3)
for command, measured in zip(commands, times):
    print(f"  interleaved, {runs} runs: median {statistics.median(measured):.1f} ms, min {min(measured):.1f} ms: {command}")
PY
}
interleaved "$bin decode --quiet $work/photo-8192.jpg" "$bin decode --quiet --scale-down $work/photo-8192.jpg"
interleaved "$bin decode --quiet $work/photo-8000.png" "$bin decode --quiet --scale-down $work/photo-8000.png"
