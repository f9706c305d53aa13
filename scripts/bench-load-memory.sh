#!/usr/bin/env bash
# Peak memory of many simultaneous loads through one manager (issue 13): `webimage fetch` asks for 200
# distinct 2048×1365 JPEGs at once from nginx on 127.0.0.1, with 6 and with 200 transfers at a time, and GNU
# time reports the peak RSS; then again with the memory cache limited to 1 MiB, which shows what is not the
# cache. Rewrites the "load-memory" section of benchmarks/RESULTS.md.
# Usage: scripts/bench-load-memory.sh [count]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-200}"

source scripts/lib/local-server.sh
bench_prepare python3-pil time

# Distinct photos: noise (so that each is a large, hard-to-compress JPEG) with a square in a different place.
/usr/bin/python3 - "$scratch/www" "$count" <<'PY'
import sys
from PIL import Image, ImageDraw
folder, count = sys.argv[1], int(sys.argv[2])
noise = Image.effect_noise((2048, 1365), 40).convert("L")
base = Image.merge("RGB", (noise, Image.linear_gradient("L").resize((2048, 1365)), noise.transpose(Image.FLIP_LEFT_RIGHT)))
for i in range(count):
    image = base.copy()
    x, y = i * 10 % 1900, i * 6 % 1200
    ImageDraw.Draw(image).rectangle([x, y, x + 140, y + 140], fill=(i % 256, 255 - i % 256, 128))
    image.save(f"{folder}/{i}.jpg", quality=85)
PY
local_server_start
mapfile -t urls < <(for ((i = 0; i < count; i++)); do echo "$base/$i.jpg"; done)
bytes=$(du -cb "$scratch"/www/*.jpg | tail -1 | cut -f1)

# peak ENV... -- ARGS...: the peak RSS in KiB of one cold fetch (empty disk cache).
peak() {
    rm -rf "$scratch/cache"
    /usr/bin/time -f %M -o "$scratch/peak" "$bin" fetch --cache-dir "$scratch/cache" "$@" "${urls[@]}" > /dev/null
    cat "$scratch/peak"
}
declare -A results
for run in 1 2 3; do
    results[default-6]+="$(peak --concurrency 6) "
    results[default-200]+="$(peak --concurrency 200) "
    results[nocache-6]+="$(peak --concurrency 6 --memory-cache 1) "
done

python3 - benchmarks/RESULTS.md "$count" "$bytes" "${results[default-6]}" "${results[default-200]}" "${results[nocache-6]}" <<'PY'
import datetime, platform, re, subprocess, sys
sys.path.insert(0, "scripts/lib")
from report_section import write_section
path, count, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
runs = [[int(v) / 1024 for v in arg.split()] for arg in sys.argv[4:7]]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
def row(label, values):
    return f"| {label} | {max(values):.0f} | {min(values):.0f} |"
lines = [
    "## Many loads at once: peak memory",
    "",
    f"Measured {datetime.date.today()} on {cpu}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores; {swift}.",
    "",
    f"Command: `scripts/bench-load-memory.sh {count}`. `webimage fetch` (release) requests {count} distinct 2048×1365 "
    f"JPEGs ({total / count / 1e6:.1f} MB each, noise) at once from nginx on 127.0.0.1 into an empty disk cache, through one "
    "`ImageManager` with the default memory cache (20% of RAM, at most 256 MiB of pixels; each image is 11.2 MB decoded). "
    "Peak RSS from GNU time, 3 cold runs each, in MB.",
    "",
    "| run | highest peak | lowest peak |",
    "| --- | ---: | ---: |",
    row("default cache, 6 transfers at a time (the default)", runs[0]),
    row("default cache, 200 transfers at a time", runs[1]),
    row("memory cache limited to 1 MiB, 6 transfers", runs[2]),
    "",
    "Decoding runs one image per core; bodies that arrive faster than that wait, at most 16 MB of them (loads wait "
    "before their download beyond that), and the tool returns freed pixel buffers to the system (a fixed glibc mmap "
    "threshold). So the peak is the cache's limit plus the last row: the process, the decodes in flight and the waiting bodies.",
]
write_section(path, "load-memory", lines)
PY
