#!/usr/bin/env bash
# The downloader beside curl (issue 5): 1,000 distinct small images, then 1,000 requests for one URL,
# six transfers at once, from nginx on 127.0.0.1; and (issue 33) 300 distinct 100 KB images prefetched into
# a fresh disk cache beside curl writing the same files. Rewrites the "download" section of benchmarks/RESULTS.md.
# Usage: scripts/bench-download.sh [count]   (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-1000}"

source scripts/lib/local-server.sh
bench_prepare hyperfine

# The images: one small JPEG (about 20 KB) under $count names; distinct URLs are what matters here.
"$bin" samples "$scratch/src" --size 256x192 --only photo.jpg >/dev/null
for ((i = 0; i < count; i++)); do ln "$scratch/src/photo.jpg" "$scratch/www/$i.jpg"; done
image_bytes=$(stat -c %s "$scratch/src/photo.jpg")

# The prefetch row: one 1024×768 JPEG (about 100 KB) under 300 names.
prefetch_count=300
"$bin" samples "$scratch/large" --size 1024x768 --only photo.jpg >/dev/null
mkdir -p "$scratch/www/large"
for ((i = 0; i < prefetch_count; i++)); do ln "$scratch/large/photo.jpg" "$scratch/www/large/$i.jpg"; done
large_bytes=$(stat -c %s "$scratch/large/photo.jpg")

local_server_start

for ((i = 0; i < count; i++)); do echo "$base/$i.jpg"; done > "$scratch/distinct.txt"
for ((i = 0; i < count; i++)); do echo "$base/0.jpg"; done > "$scratch/same.txt"
for list in distinct same; do
    sed 's/.*/url = "&"\noutput = "\/dev\/null"/' "$scratch/$list.txt" > "$scratch/$list.curl"
done

# requests COMMAND...: how many requests one run of COMMAND made, from nginx's access log.
requests() { : > "$scratch/access.log"; "$@" >/dev/null; sleep 0.2; wc -l < "$scratch/access.log"; }
declare -A made
for list in distinct same; do
    made[webimage-$list]=$(requests "$bin" bench-download --url-file "$scratch/$list.txt" --concurrency 6)
    made[curl-$list]=$(requests curl -s --parallel --parallel-max 6 -K "$scratch/$list.curl")
    hyperfine --warmup 2 --runs 20 --export-json "$scratch/$list.json" \
        -n "webimage-$list" "$bin bench-download --url-file $scratch/$list.txt --concurrency 6" \
        -n "curl-$list" "curl -s --parallel --parallel-max 6 -K $scratch/$list.curl" >&2
done
# Prefetch: webimage into a fresh disk cache beside curl writing the same files, each run into a fresh folder after
# a `sync`, so that no run waits for the writeback of an earlier one's files.
for ((i = 0; i < prefetch_count; i++)); do echo "$base/large/$i.jpg"; done > "$scratch/prefetch.txt"
for ((i = 0; i < prefetch_count; i++)); do printf 'url = "%s/large/%d.jpg"\noutput = "%s/pf-curl/%d.jpg"\n' "$base" "$i" "$scratch" "$i"; done \
    > "$scratch/prefetch.curl"
prefetch_webimage="$bin prefetch --input $scratch/prefetch.txt --concurrency 6 --cache-dir $scratch/pf-cache"
prefetch_curl="curl -s --parallel --parallel-max 6 -K $scratch/prefetch.curl"
rm -rf "$scratch/pf-cache" "$scratch/pf-curl" && mkdir "$scratch/pf-curl"
made[webimage-prefetch]=$(requests $prefetch_webimage)
made[curl-prefetch]=$(requests $prefetch_curl)
stored=$(find "$scratch/pf-cache" -type f ! -name '.*' | wc -l)
written=$(find "$scratch/pf-curl" -type f | wc -l)
if [[ $stored -ne $prefetch_count || $written -ne $prefetch_count ]]; then
    echo "prefetch: webimage stored $stored files and curl wrote $written, not $prefetch_count each" >&2
    exit 1
fi
hyperfine --warmup 2 --runs 20 --export-json "$scratch/prefetch.json" \
    --prepare "rm -rf $scratch/pf-cache && sync" -n webimage-prefetch "$prefetch_webimage" \
    --prepare "rm -rf $scratch/pf-curl && mkdir $scratch/pf-curl && sync" -n curl-prefetch "$prefetch_curl" >&2

"$bin" bench-download --url-file "$scratch/distinct.txt" --concurrency 6 > "$scratch/inprocess.json"
: > "$scratch/empty.txt"
hyperfine --runs 20 -n startup "$bin bench-download --url-file $scratch/empty.txt" --export-json "$scratch/startup.json" >&2

python3 - "$scratch" "$count" "$image_bytes" benchmarks/RESULTS.md \
    "${made[webimage-distinct]}" "${made[curl-distinct]}" "${made[webimage-same]}" "${made[curl-same]}" \
    "$prefetch_count" "$large_bytes" "${made[webimage-prefetch]}" "${made[curl-prefetch]}" <<'PY'
import json, platform, subprocess, sys, datetime, re
sys.path.insert(0, "scripts/lib")
from report_section import write_section
scratch, count, size, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
made = dict(zip(["webimage-distinct", "curl-distinct", "webimage-same", "curl-same"], sys.argv[5:9]))
prefetch_count, large_size = int(sys.argv[9]), int(sys.argv[10])
made.update({"webimage-prefetch": sys.argv[11], "curl-prefetch": sys.argv[12]})
def means(name):
    """Each command's median, mean and σ in seconds."""
    return {r["command"]: (r["median"], r["mean"], r["stddev"] or 0.0) for r in json.load(open(f"{scratch}/{name}.json"))["results"]}
startup = means("startup")["startup"][0]
def cell(times):
    median, mean, sigma = (value * 1000 for value in times)
    return f"{median:.0f} ({mean:.0f} ± {sigma:.0f})"
inprocess = json.load(open(f"{scratch}/inprocess.json"))
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
curl = subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]
nginx = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip().split("/")[-1]
lines = [
    "## Downloader",
    "",
    f"Measured {datetime.date.today()} on {cpu}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores, "
    f"Linux {platform.release()}; {swift}; curl {curl}; nginx {nginx} on 127.0.0.1 (2 workers).",
    "",
    f"Command: `scripts/bench-download.sh {count}`. {count:,} URLs requested at once, 6 transfers at a time: "
    f"`webimage bench-download` (release; `ImageDownloader.data(for:)`: HTTP/1.1 keep-alive, status/type/size checks, "
    f"each {size:,}-byte 256×192 JPEG downloaded, not decoded) beside `curl --parallel --parallel-max 6 -K list` (to /dev/null). "
    "hyperfine, 2 warm-up runs + 20 runs, the median in ms (then mean ± σ), the ratio of the medians: this host has "
    "slow spells that stretch a run in ten, which a mean carries; the whole process is timed for both "
    f"(webimage's start-up and shutdown alone: {startup * 1000:.0f} ms). Requests = lines in nginx's access log for one run.",
    "",
    "| workload | webimage ms | curl ms | ratio | webimage requests | curl requests |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
]
for list, label in [("distinct", f"{count:,} distinct URLs"), ("same", f"{count:,} requests for one URL")]:
    m = means(list)
    ours, theirs = m[f"webimage-{list}"], m[f"curl-{list}"]
    lines.append(f"| {label} | {cell(ours)} | {cell(theirs)} | "
                 f"{ours[0]/theirs[0]:.2f} | {made[f'webimage-{list}']} | {made[f'curl-{list}']} |")
m = means("prefetch")
ours, theirs = m["webimage-prefetch"], m["curl-prefetch"]
lines.append(f"| {prefetch_count} distinct {large_size / 1000:.0f} KB images into the disk cache | "
             f"{cell(ours)} | {cell(theirs)} | "
             f"{ours[0]/theirs[0]:.2f} | {made['webimage-prefetch']} | {made['curl-prefetch']} |")
lines += [
    "",
    f"Disk-cache row: `webimage prefetch --concurrency 6 --cache-dir <fresh folder>` ({prefetch_count} URLs of one "
    f"{large_size:,}-byte 1024×768 JPEG; the bytes stored as downloaded, not decoded, each renamed into place with its "
    "length and validators in extended attributes, not flushed) beside "
    "`curl --parallel --parallel-max 6 -K list` with an `output = \"<folder>/<i>.jpg\"` line per URL (written, not flushed); "
    "hyperfine, 2 warm-up runs + 20 runs, each from an empty folder after a `sync` (`--prepare`), so that no run pays "
    "for the writeback of an earlier one's files.",
    "",
    f"In process, without start-up: {inprocess['requested']:,} distinct images downloaded in "
    f"{inprocess['seconds']*1000:.0f} ms ({inprocess['requested']/inprocess['seconds']:,.0f} images/s). "
    "Ratio = webimage / curl; below 1 is faster. For one URL, a request under way is shared by every caller that asks for the URL meanwhile (SPEC DL-48); a caller that asks after it ended makes a new one.",
]
write_section(path, "download", lines)
PY
