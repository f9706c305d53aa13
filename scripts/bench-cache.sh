#!/usr/bin/env bash
# Measures the memory and disk caches (issue 4) and rewrites the "cache" section of benchmarks/RESULTS.md.
# Usage: scripts/bench-cache.sh [--entries N] [--operations N]   (extra options go to `webimage bench-cache`)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/webimage-binary.sh
binary=$bin
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

"$binary" bench-cache --directory "$scratch/cache" "$@" > "$scratch/results.json"

python3 - "$scratch/results.json" benchmarks/RESULTS.md <<'PY'
import json, platform, subprocess, sys, datetime, re
sys.path.insert(0, "scripts/lib")
from report_section import write_section
results = json.load(open(sys.argv[1]))
path = sys.argv[2]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
lines = [
    "## Caches",
    "",
    f"Measured {datetime.date.today()} on {cpu}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores, "
    f"Linux {platform.release()}; {swift}.",
    "",
    "Command: `scripts/bench-cache.sh` (release build, `webimage bench-cache`). Memory: `MemoryCache` with "
    f"{results['entries']:,} keys, random order; each sample times a batch of 64 operations (a clock read costs about as much "
    "as one operation), p50/p99 over the batches, ns per operation. With 2 threads both run at once on one cache.",
    "",
    "| memory cache | threads | p50 ns/op | p99 ns/op |",
    "| --- | ---: | ---: | ---: |",
]
for m in results["memory"]:
    lines.append(f"| {m['operation']} | {m['threads']} | {m['p50']:.0f} | {m['p99']:.0f} |")
n, size = results["entries"], results["entryBytes"]
lines += [
    "",
    f"Disk: `DiskStorage` on the temporary directory, {n:,} entries of {size} bytes, one thread (the I/O queue's view).",
    "",
    "| disk cache | result |",
    "| --- | ---: |",
    f"| store, atomic rename, no fsync (default) | {results['storesPerSecond']:,.0f} entries/s |",
    f"| store, fsync before rename (`synchronizesWrites`) | {results['syncedStoresPerSecond']:,.0f} entries/s |",
    f"| query (hits) | {results['queriesPerSecond']:,.0f} entries/s |",
    f"| clean {n:,} entries to half the size limit | {results['cleanMilliseconds']:.0f} ms ({results['cleanRemoved']:,} removed) |",
]
write_section(path, "cache", lines)
PY
