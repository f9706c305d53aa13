#!/usr/bin/env bash
# ImageManager (issue 6): memory-hit latency and throughput, and cold loads over loopback beside Pillow
# (keep-alive HTTP fetch + decode in one Python process) and curl (fetch only). Rewrites the "manager"
# section of benchmarks/RESULTS.md.
# Usage: scripts/bench-manager.sh [cold loads]   (default 50)
set -euo pipefail
cd "$(dirname "$0")/.."
loads="${1:-50}"

source scripts/lib/local-server.sh
bench_prepare python3-pil

"$bin" samples "$scratch/src" --size 1024x768 --only photo.jpg >/dev/null
cp "$scratch/src/photo.jpg" "$scratch/www/photo.jpg"
local_server_start
url="$base/photo.jpg"

"$bin" bench-manager --url "$url" --cold-loads "$loads" --directory "$scratch/caches" > "$scratch/manager.json"

# Pillow: the same cold work (fetch over a kept-alive connection, decode), timed per load in-process.
/usr/bin/python3 - "$url" "$loads" > "$scratch/pillow.json" <<'PY'
import http.client, io, json, sys, time, urllib.parse
from PIL import Image
url, loads = urllib.parse.urlsplit(sys.argv[1]), int(sys.argv[2])
connection = http.client.HTTPConnection(url.hostname, url.port)
times = []
for n in range(loads):
    start = time.perf_counter()
    connection.request("GET", f"{url.path}?n={n}")
    body = connection.getresponse().read()
    Image.open(io.BytesIO(body)).convert("RGBA").load()
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(json.dumps({"p50": times[len(times) // 2], "p99": times[min(len(times) - 1, int((len(times) - 1) * 0.99))]}))
PY

# curl: fetch only, one process per load (time_total excludes process start).
for ((n = 0; n < loads; n++)); do curl -s -o /dev/null -w '%{time_total}\n' "$url?n=$n"; done > "$scratch/curl.txt"

python3 - "$scratch" "$loads" benchmarks/RESULTS.md <<'PY'
import json, platform, subprocess, sys, datetime, re
sys.path.insert(0, "scripts/lib")
from report_section import write_section
scratch, loads, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ours = json.load(open(f"{scratch}/manager.json"))
pillow = json.load(open(f"{scratch}/pillow.json"))
curl = sorted(float(line) * 1000 for line in open(f"{scratch}/curl.txt"))
curl_p50 = curl[len(curl) // 2]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
pil = subprocess.run(["/usr/bin/python3", "-c", "import PIL; print(PIL.__version__)"], capture_output=True, text=True).stdout.strip()
lines = [
    "## Manager",
    "",
    f"Measured {datetime.date.today()} on {cpu}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores, "
    f"Linux {platform.release()}; {swift}; Pillow {pil}; nginx on 127.0.0.1.",
    "",
    f"Command: `scripts/bench-manager.sh {loads}` (release build, `webimage bench-manager`). Memory hits: 1,000 images in "
    "the memory cache, keys in turn; each sample times a batch of 64 loads, p50/p99 over the batches, ns per load. "
    f"Throughput: {ours['tasks']} tasks at once on one manager.",
    "",
    "| memory hit | p50 ns | p99 ns |",
    "| --- | ---: | ---: |",
    f"| `try await loadImage(from:)` | {ours['asyncHitP50']:.0f} | {ours['asyncHitP99']:.0f} |",
    f"| `loadImage(with:completed:)` (delivered before it returns) | {ours['callbackHitP50']:.0f} | {ours['callbackHitP99']:.0f} |",
    "",
    f"Throughput: {ours['hitsPerSecond']:,.0f} memory hits/s with {ours['tasks']} tasks.",
    "",
    f"Cold loads: a {ours['coldBytes']:,}-byte 1024×768 JPEG, {ours['coldLoads']} loads, each a miss (a fresh cache, `?n=` added): "
    "download over a kept-alive connection, decode, store on disk (`.waitStoreCache`, fsync) and in memory. Pillow does the "
    "same fetch (http.client, kept alive) and decode, without storing; curl only fetches, one process per load.",
    "",
    "| cold load | p50 ms | p99 ms | webimage ÷ it |",
    "| --- | ---: | ---: | ---: |",
    f"| webimage (`ImageManager`) | {ours['coldP50']:.2f} | {ours['coldP99']:.2f} | |",
    f"| Pillow (fetch + decode) | {pillow['p50']:.2f} | {pillow['p99']:.2f} | {ours['coldP50'] / pillow['p50']:.2f} |",
    f"| curl (fetch only) | {curl_p50:.2f} | {curl[min(len(curl) - 1, int((len(curl) - 1) * 0.99))]:.2f} | (does no decode: {ours['coldP50'] / curl_p50:.1f}×) |",
]
write_section(path, "manager", lines)
PY
