#!/usr/bin/env bash
# Soak (issue 8): 100,000+ loads with random cancellations through one ImageManager against nginx on
# 127.0.0.1 (mixed sizes and formats, plus URLs that answer 404 and bytes that are no image), for at least
# the given minutes. Prints the counts and resident memory after warm-up, at half and at the end, and
# rewrites the "soak" section of benchmarks/RELIABILITY.md.
# Usage: scripts/soak.sh [minutes]   (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-1}"

source scripts/lib/local-server.sh
bench_prepare
for size in 64x48 256x192 800x600 1600x1200; do
    "$bin" samples "$scratch/src-$size" --size "$size" >/dev/null
    for file in "$scratch/src-$size"/*; do cp "$file" "$scratch/www/$size-$(basename "$file")"; done
done
head -c 5000 /dev/urandom > "$scratch/www/noise.jpg"
local_server_start
# 40 variants of every file (nginx ignores the query, the cache does not): more than the memory cache holds.
{
    for file in "$scratch"/www/*; do for v in $(seq 40); do echo "$base/$(basename "$file")?v=$v"; done; done
    for i in $(seq 20); do echo "$base/missing-$i.png"; done
} > "$scratch/urls.txt"

"$bin" soak --url-file "$scratch/urls.txt" --loads 100000 --seconds $((minutes * 60)) --directory "$scratch/cache" \
    > "$scratch/soak.json"
cat "$scratch/soak.json"

python3 - "$scratch/soak.json" "$minutes" "$(wc -l < "$scratch/urls.txt")" benchmarks/RELIABILITY.md <<'PY'
import json, os, platform, re, subprocess, sys, datetime
sys.path.insert(0, "scripts/lib")
from report_section import write_section
r = json.load(open(sys.argv[1]))
minutes, urls, path = sys.argv[2], sys.argv[3], sys.argv[4]
grew = r["residentAtEnd"] - r["residentAfterWarmUp"]
verdict = "no growth after warm-up" if grew <= max(16, 0.1 * r["residentAfterWarmUp"]) else f"**grew by {grew:.0f} MiB after warm-up**"
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
lines = [
    "## Soak",
    "",
    f"Measured {datetime.date.today()} on {cpu}, {os.cpu_count()} cores. Command: `scripts/soak.sh {minutes}` (release build, "
    f"`webimage soak`): {urls} URLs on nginx (JPEG, PNG, WebP, AVIF, GIF and animated WebP at four sizes up to 1600×1200, each "
    "under 40 query variants, 20 URLs that answer 404 and one that is noise), picked at random, 64 loads at once through one "
    "`ImageManager` (memory cache 64 MiB, disk cache in a temporary folder), 30% of them cancelled after 0–2 ms, 10% with "
    "`.retryFailed` so that failed URLs are asked again.",
    "",
    "| loads | completed (memory / disk / network) | failed | cancelled | duplicated or late | seconds | RSS after warm-up (¼ of the loads) | RSS at half | RSS at end | RSS peak |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    f"| {r['loads']:,} | {r['completed']:,} ({r['fromMemory']:,} / {r['fromDisk']:,} / {r['fromNetwork']:,}) | {r['failed']:,} | {r['cancelled']:,} | {r['duplicates']} | {r['seconds']:.0f} | "
    f"{r['residentAfterWarmUp']:.0f} MiB | {r['residentAtHalf']:.0f} MiB | {r['residentAtEnd']:.0f} MiB | {r['residentPeak']:.0f} MiB |",
    "",
    "Resident memory at every tenth of the run (MiB): " + ", ".join(f"{v:.0f}" for v in r["residentByTenth"]) + ".",
    "",
    f"Every load ended exactly once (completed + failed + cancelled = {r['completed'] + r['failed'] + r['cancelled']:,} of {r['loads']:,}); "
    f"resident memory: {verdict}.",
]
write_section(path, "soak", lines, header="# Reliability\n\nEach section is rewritten by the script named in it.\n")
PY
