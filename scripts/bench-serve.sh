#!/usr/bin/env bash
# The image server beside thumbor and nginx's image_filter (issue 14, item 10). One origin (nginx on
# 127.0.0.1) of 2048×1365 photographs under 400 names; wrk asks each server for "fit into width W" with W
# cycling 500–520 and then the next name, so no result is ever asked for twice (each original is fetched
# once and then resized 21 times); JPEG, PNG, WebP and AVIF output where the server can; 4 and 64
# connections. Every cell starts its server afresh (empty caches), and the three servers run back to back,
# format by format, in the same run. Prints a table and rewrites the "serve" section of benchmarks/RESULTS.md.
#   webimage serve   release build, default workers (one per core), its own caches in a fresh folder
#   webimage serve --dialect thumbor   the same binary asked thumbor's own URLs (issue 32)
#   thumbor 7.8      from PyPI in benchmarks/work/thumbor-venv; one process per core, each on its own port
#                    (with --processes N they share one socket and one process may accept every connection:
#                    it did here), wrk's threads split over the ports; file storage for originals (shared),
#                    no result storage; unsafe URLs
#   nginx            image_filter (libgd) reading the files itself, one worker per core; its output format
#                    is its input's, so its PNG and WebP cells read PNG and WebP originals
# Then (issue 33) webimage asked for a new source on every request, beside libjpeg-turbo's ceiling for that work
# (djpeg + cjpeg, scripts/lib/jpeg_ceiling.py) and libvips doing it in process (benchmarks/serve/vips_serve_work.c).
# Usage: scripts/bench-serve.sh [SECONDS_PER_CELL]   (default 20; about 11 minutes in all)
#        BENCH_SERVERS="webimage thumbor" BENCH_FORMATS="jpg" scripts/bench-serve.sh 5   (a quick check; the
#        RESULTS.md section is then written from that subset)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
names=400

scripts/install-deps.sh nginx wrk curl libnginx-mod-http-image-filter >&2
source scripts/lib/webimage-binary.sh   # WEBIMAGE=path benchmarks that binary instead of building one
venv=benchmarks/work/thumbor-venv
if [[ ! -x $venv/bin/thumbor ]]; then
    python3 -m venv "$venv"
    nice -n 19 "$venv/bin/pip" install -q 'thumbor==7.8.*' >&2
fi
thumbor_version=$("$venv/bin/python" -c 'import thumbor; print(thumbor.__version__)')

scratch="$(mktemp -d)"
chmod 755 "$scratch"
mkdir -p "$scratch/www" "$scratch/results"
server_pids=()
cleanup() {
    for pid in "${server_pids[@]}"; do kill $(pgrep -P "$pid") "$pid" 2>/dev/null || true; done
    [[ -f $scratch/imgnginx/nginx.pid ]] && { kill "$(cat "$scratch/imgnginx/nginx.pid")" 2>/dev/null || true; }
    local_server_stop
    wait 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_http() { for _ in $(seq 300); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "bench-serve: $1 did not answer" >&2; return 1; }

# The originals: one generated photograph (JPEG, and PNG and WebP copies for nginx), linked under $names names.
source scripts/lib/local-server.sh
"$bin" samples "$scratch/src" --size 2048x1365 --only photo.jpg >/dev/null
"$venv/bin/python" -c '
import sys; from PIL import Image
image = Image.open(sys.argv[1] + "/photo.jpg"); image.load()
image.save(sys.argv[1] + "/photo.png"); image.save(sys.argv[1] + "/photo.webp", quality=90)' "$scratch/src"
for ext in jpg png webp; do
    for ((i = 0; i <= names; i++)); do ln "$scratch/src/photo.$ext" "$scratch/www/photo-$(printf %04d "$i").$ext"; done
done
local_server_start
origin="$base"
source_bytes=$(stat -c %s "$scratch/src/photo.jpg")

# start_SERVER FORMAT: starts the server on $port (thumbor: also on the ports in $extra_ports) and sets
# $server_pids (the processes whose trees are measured) and $pattern (the wrk path, with %d for the width and
# %04d for the name).
start_webimage() {
    "$bin" serve --bind "127.0.0.1:$port" --allow-loopback-sources --cache-dir "$scratch/cache" \
        > "$scratch/server.log" 2>&1 &
    server_pids=($!)
    local extension=$1
    pattern="/unsafe/rs:fit:%d:0/plain/$origin/photo-%04d.jpg@$extension"
}
# webimage serve answering thumbor's own URLs (--dialect thumbor, issue 32): the same paths thumbor is asked.
start_thumborurls() {
    "$bin" serve --bind "127.0.0.1:$port" --allow-loopback-sources --cache-dir "$scratch/cache" \
        --dialect thumbor --allow-unsafe-urls > "$scratch/server.log" 2>&1 &
    server_pids=($!)
    local format=$1 filters=""
    [[ $format != jpg ]] && filters="filters:format($format)/"
    pattern="/unsafe/%dx0/${filters}$origin/photo-%04d.jpg"
}
# BASELINE_WEBIMAGE=path adds a "baseline" server: that binary, started as webimage is (an earlier build, to
# compare a change in the same run: BENCH_SERVERS="webimage baseline").
start_baseline() {
    local saved=$bin
    bin=${BASELINE_WEBIMAGE:?set BASELINE_WEBIMAGE to the binary to compare with}
    start_webimage "$@"
    bin=$saved
}
start_thumbor() {
    cat > "$scratch/thumbor.conf" <<CONF
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '$scratch/cache/thumbor-storage'
RESULT_STORAGE = 'thumbor.result_storages.no_storage'
ALLOW_UNSAFE_URL = True
QUALITY = 80
WEBP_QUALITY = 80
AUTO_WEBP = False
MAX_AGE = 3600
CONF
    server_pids=()
    for thumbor_port in "$port" $extra_ports; do
        "$venv/bin/thumbor" --ip 127.0.0.1 --port "$thumbor_port" --conf "$scratch/thumbor.conf" \
            --log-level error >> "$scratch/server.log" 2>&1 &
        server_pids+=($!)
    done
    local format=$1 filters=""
    [[ $format != jpg ]] && filters="filters:format($format)/"
    pattern="/unsafe/%dx0/${filters}$origin/photo-%04d.jpg"
}
start_nginx() {
    mkdir -p "$scratch/imgnginx"
    cat > "$scratch/imgnginx/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_http_image_filter_module.so;
worker_processes $(nproc);
pid $scratch/imgnginx/nginx.pid;
error_log $scratch/imgnginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $scratch/imgnginx/tmp;
    proxy_temp_path $scratch/imgnginx/tmp;
    fastcgi_temp_path $scratch/imgnginx/tmp;
    uwsgi_temp_path $scratch/imgnginx/tmp;
    scgi_temp_path $scratch/imgnginx/tmp;
    server {
        listen 127.0.0.1:$port;
        keepalive_requests 100000;
        location = /health { return 200; }
        location ~ ^/resize/(?<width>\d+)/(?<file>[^/]+)\$ {
            alias $scratch/www/\$file;
            image_filter resize \$width -;
            image_filter_buffer 20M;
            image_filter_jpeg_quality 80;
            image_filter_webp_quality 80;
        }
    }
}
CONF
    nginx -p "$scratch/imgnginx/" -c "$scratch/imgnginx/nginx.conf" -g 'daemon off;' &
    server_pids=($!)
    pattern="/resize/%d/photo-%04d.$1"
}
stop_server() {
    for pid in "${server_pids[@]}"; do kill $(pgrep -P "$pid") "$pid" 2>/dev/null || true; done
    for pid in "${server_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    server_pids=()
    rm -rf "$scratch/cache"
}

# rss_poll OUT ROOT_PID...: the largest sum of VmRSS over the ROOT_PIDs and their descendants, sampled every
# 0.2 s until OUT.stop exists; also the sum of their VmHWM at the end. Written to OUT as JSON (kB).
rss_poll() {
    python3 - "$@" <<'PY' &
import json, os, sys, time
out, roots = sys.argv[1], [int(p) for p in sys.argv[2:]]
def tree():
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
                children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
            except OSError:
                pass
    pids, todo = [], list(roots)
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo += children.get(pid, [])
    return pids
def field(pid, name):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(name + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
peak, pids = 0, list(roots)
while not os.path.exists(out + ".stop"):
    pids = tree()
    peak = max(peak, sum(field(p, "VmRSS") for p in pids))
    time.sleep(0.2)
json.dump({"peak_rss_kb": peak, "hwm_sum_kb": sum(field(p, "VmHWM") for p in tree()), "processes": len(pids)}, open(out, "w"))
PY
}

# The wrk script: thread t of 2 takes requests t, t+2, t+4, …; request k is width 500 + k mod 21 of name ⌊k/21⌋.
# With BENCH_PORTS (thumbor), thread t connects to the t-th port.
cat > "$scratch/cycle.lua" <<'LUA'
local pattern = os.getenv("BENCH_PATTERN")
local names = tonumber(os.getenv("BENCH_NAMES"))
local ports = {}
for port in string.gmatch(os.getenv("BENCH_PORTS") or "", "%d+") do ports[#ports + 1] = port end
local next_id = 0
function setup(thread)
    thread:set("id", next_id)
    if #ports > 0 then thread.addr = wrk.lookup("127.0.0.1", ports[next_id % #ports + 1])[1] end
    next_id = next_id + 1
end
function init(args) k = id end
function request()
    local path = string.format(pattern, 500 + k % 21, math.floor(k / 21) % names + 1)
    k = k + 2
    return wrk.format("GET", path)
end
LUA

read -r -a servers <<< "${BENCH_SERVERS:-webimage thumborurls thumbor nginx}"   # a subset for a quick check
read -r -a formats <<< "${BENCH_FORMATS:-jpg png webp avif}"
# AVIF in thumbor's PIL engine: Pillow's own AVIF support (Pillow ≥ 11.3, as pip installs it) or pillow-avif-plugin.
thumbor_avif=$("$venv/bin/python" -c 'from thumbor.engines.pil import HAVE_AVIF; print(int(HAVE_AVIF))' 2>/dev/null || echo 0)
for format in "${formats[@]}"; do
    for connections in 4 64; do
        for server in "${servers[@]}"; do
            [[ $server == nginx && $format == avif ]] && continue
            [[ $server == thumbor && $format == avif && $thumbor_avif != 1 ]] && continue
            cell="$server-$format-$connections"
            port=$(free_port)
            extra_ports="" bench_ports=""
            if [[ $server == thumbor ]]; then
                for ((p = 1; p < $(nproc); p++)); do extra_ports+="$(free_port) "; done
                bench_ports="$port $extra_ports"
            fi
            "start_$server" "$format"
            for p in $port $extra_ports; do wait_http "http://127.0.0.1:$p/health"; done
            # One request outside the cycle (name 0): warms the server up and checks the output.
            warm=$(printf "$pattern" 512 0)
            curl -s -o "$scratch/results/$cell.out" -w '%{http_code} %{content_type} %{size_download}\n' \
                "http://127.0.0.1:$port$warm" > "$scratch/results/$cell.check"
            for p in $extra_ports; do curl -s -o /dev/null "http://127.0.0.1:$p$warm"; done
            rss_poll "$scratch/results/$cell.rss" "${server_pids[@]}"
            echo "bench-serve: $cell ($(cat "$scratch/results/$cell.check"))" >&2
            BENCH_PATTERN="$pattern" BENCH_NAMES=$names BENCH_PORTS="$bench_ports" wrk -t 2 -c "$connections" -d "${seconds}s" --timeout 60s \
                --latency -s "$scratch/cycle.lua" "http://127.0.0.1:$port" > "$scratch/results/$cell.wrk" 2>&1 || true
            touch "$scratch/results/$cell.rss.stop"
            wait $! 2>/dev/null || true
            for _ in $(seq 50); do [[ -s $scratch/results/$cell.rss ]] && break; sleep 0.1; done
            "$venv/bin/python" -c '
import sys; from PIL import Image
try:
    image = Image.open(sys.argv[1]); print(f"{image.format} {image.width}x{image.height}")
except Exception as error:
    print(f"unreadable: {error}")' "$scratch/results/$cell.out" >> "$scratch/results/$cell.check"
            stop_server
        done
    done
done
# Issue 33: every request a source not asked before (so each one is fetched, cached, decoded, resized and
# encoded), JPEG, 4 connections, beside libjpeg-turbo's own ceiling for that work (scripts/lib/jpeg_ceiling.py)
# and libvips doing it in process on two threads (benchmarks/serve/vips_serve_work.c). The server's own CPU per
# request is read from /proc, apart from wrk's and nginx's on the same cores.
if [[ " ${servers[*]} " == *" webimage "* && " ${formats[*]} " == *" jpg "* ]]; then
    fresh_names=$((seconds * 400))
    python3 -c 'import os, sys
for i in range(2 * int(sys.argv[2])): os.link(sys.argv[1] + "/src/photo.jpg", sys.argv[1] + "/www/fresh-%06d.jpg" % i)' "$scratch" "$fresh_names"
    for run in fresh fresh-store; do
        offset=0; [[ $run == fresh-store ]] && offset=$fresh_names
        cat > "$scratch/$run.lua" <<LUA
local next_id = 0
function setup(thread) thread:set("id", next_id); next_id = next_id + 1 end
function init(args) k = id end
function request()
    local path = string.format("/unsafe/rs:fit:%d:0/plain/$origin/fresh-%06d.jpg@jpg", 500 + k % 21, $offset + k % $fresh_names)
    k = k + 2
    return wrk.format("GET", path)
end
LUA
    done
    # Twice: with the default settings (a source asked for once is not written to the source cache), then with
    # WEBIMAGE_SERVE_CACHE_MIN_USES=1 (every source written, as before that setting), each on fresh names.
    for run in fresh fresh-store; do
        port=$(free_port)
        if [[ $run == fresh-store ]]; then WEBIMAGE_SERVE_CACHE_MIN_USES=1 start_webimage jpg; else start_webimage jpg; fi
        wait_http "http://127.0.0.1:$port/health"
        warmers=()
        for ((i = 1; i <= 16; i++)); do curl -s -o /dev/null "http://127.0.0.1:$port$(printf "$pattern" 512 "$i")" & warmers+=($!); done
        wait "${warmers[@]}"
        ticks_before=$(awk '{print $14 + $15}' "/proc/${server_pids[0]}/stat")
        echo "bench-serve: webimage, a new source every request ($run)" >&2
        wrk -t 2 -c 4 -d "${seconds}s" --timeout 60s --latency -s "$scratch/$run.lua" "http://127.0.0.1:$port" > "$scratch/results/$run.wrk" 2>&1 || true
        ticks_after=$(awk '{print $14 + $15}' "/proc/${server_pids[0]}/stat")
        echo "$ticks_before $ticks_after $(getconf CLK_TCK)" > "$scratch/results/$run.ticks"
        stop_server
    done
    scripts/install-deps.sh libjpeg-turbo-progs libvips-tools libvips-dev pkg-config >&2
    echo "bench-serve: libjpeg-turbo's ceiling (djpeg + cjpeg)" >&2
    python3 scripts/lib/jpeg_ceiling.py "$scratch/src/photo.jpg" 10 "$scratch/results/ceiling.json"
    gcc -O2 -o "$scratch/vips_serve_work" benchmarks/serve/vips_serve_work.c $(pkg-config --cflags --libs vips) -lpthread
    echo "bench-serve: libvips in process, two threads" >&2
    "$scratch/vips_serve_work" "$scratch/src/photo.jpg" "$seconds" "$(nproc)" > "$scratch/results/vips.tsv"
fi
rm -rf benchmarks/work/serve-results && cp -r "$scratch/results" benchmarks/work/serve-results

python3 - "$scratch/results" "$seconds" "$names" "$source_bytes" "$thumbor_version" benchmarks/RESULTS.md <<'PY'
import datetime, json, os, platform, re, subprocess, sys
sys.path.insert(0, "scripts/lib")
from report_section import write_section
results, seconds, names, source_bytes, thumbor_version, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]

def to_ms(value, unit):
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]

def cell(name):
    wrk_path = f"{results}/{name}.wrk"
    if not os.path.exists(wrk_path):
        return None
    text = open(wrk_path).read()
    out = {"check": open(f"{results}/{name}.check").read().split("\n")}
    m = re.search(r"Requests/sec:\s+([\d.]+)", text)
    out["rps"] = float(m.group(1)) if m else 0.0
    m = re.search(r"(\d+) requests in", text)
    out["requests"] = int(m.group(1)) if m else 0
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
        out[f"p{pct}"] = to_ms(*m.groups()) if m else None
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    errors = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if m:
        errors += sum(map(int, m.groups()))
    out["errors"] = errors
    m = re.search(r"Transfer/sec:\s+([\d.]+)(B|KB|MB|GB)", text)
    transfer = float(m.group(1)) * {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}[m.group(2)] if m else 0
    out["kb_per_response"] = transfer / out["rps"] / 1024 if out["rps"] else 0
    try:
        rss = json.load(open(f"{results}/{name}.rss"))
    except (OSError, ValueError):
        rss = {"peak_rss_kb": 0, "hwm_sum_kb": 0, "processes": 0}
    out.update(rss)
    return out

servers = [("webimage", "webimage serve"), ("thumborurls", "webimage serve --dialect thumbor"), ("baseline", "webimage serve (baseline build)"),
           ("thumbor", f"thumbor {thumbor_version}"), ("nginx", "nginx image_filter")]
formats = [("jpg", "JPEG"), ("png", "PNG"), ("webp", "WebP"), ("avif", "AVIF")]
fmt_ms = lambda v: "—" if v is None else (f"{v:.0f}" if v >= 10 else f"{v:.1f}")
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
nginx = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip().split("/")[-1]
wrk = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split()[1]
load = os.getloadavg()
lines = [
    "## Image server",
    "",
    f"Measured {datetime.date.today()} on {cpu}, {os.cpu_count()} cores, Linux {platform.release()}; {swift}; "
    f"thumbor {thumbor_version} (PIL engine, Python {platform.python_version()}); nginx {nginx} with image_filter (libgd); wrk {wrk}. "
    f"Load average at the end: {load[0]:.1f} (the machine is shared: figures are noisy, the three servers ran back to back in one run).",
    "",
    f"Command: `scripts/bench-serve.sh {seconds}`. One origin (nginx on 127.0.0.1) of a 2048×1365 photograph "
    f"({source_bytes // 1024} KB JPEG) under {names} names; wrk -t 2 --latency, {seconds} s per cell, asks for width W = 500–520 "
    "(then the next name), so no result is reused: `webimage serve` `/unsafe/rs:fit:W:0/plain/SOURCE@FORMAT`, thumbor "
    "`/unsafe/Wx0/filters:format(FORMAT)/SOURCE` (one process per core, each on its own port, wrk's two threads split "
    "over them; file storage for originals, no result storage; `webimage serve --dialect thumbor` is asked thumbor's very paths), "
    "nginx `image_filter resize W -` on the file (one worker per core; its output format is its input's, so its PNG and WebP "
    "cells read 2048×1365 PNG and WebP originals). Quality 80 everywhere. Every cell starts its server with empty caches. "
    "Peak RSS: the largest sum of RSS over the server's processes, sampled every 0.2 s. Errors: non-2xx and socket errors. "
    "Ratio: req/s ÷ thumbor's.",
    "",
    "| output | connections | server | req/s | ratio | p50 ms | p99 ms | peak RSS MB | errors | KB/response |",
    "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
]
table = []
for format, label in formats:
    for connections in (4, 64):
        thumbor = cell(f"thumbor-{format}-{connections}")
        for server, server_label in servers:
            c = cell(f"{server}-{format}-{connections}")
            if c is None:
                continue
            ratio = f"{c['rps'] / thumbor['rps']:.2f}" if thumbor and thumbor["rps"] else "—"
            lines.append(f"| {label} | {connections} | {server_label} | {c['rps']:.1f} | {ratio} | {fmt_ms(c['p50'])} | "
                         f"{fmt_ms(c['p99'])} | {c['peak_rss_kb'] / 1024:.0f} | {c['errors']} | {c['kb_per_response']:.0f} |")
            table.append((label, connections, server, c))
w = {(l, n, s): c for l, n, s, c in table}
goal = []
for n in (4, 64):
    ours, theirs = w.get(("JPEG", n, "webimage")), w.get(("JPEG", n, "thumbor"))
    if ours and theirs and theirs["rps"]:
        goal.append(f"{n} connections: {ours['rps'] / theirs['rps']:.2f}× thumbor's req/s (goal ≥ 2.5), "
                    f"p99 {fmt_ms(ours['p99'])} ms vs {fmt_ms(theirs['p99'])} ms")
lines += ["", "JPEG → fit 512, issue 14's goal: " + "; ".join(goal) + "."]
checks = [f"{s} {l} {n}: {c['check'][0]} / {c['check'][1] if len(c['check']) > 1 else ''}" for l, n, s, c in table if n == 4]
lines += ["", "First response of each 4-connection cell (status, type, bytes / decoded format and size): " + "; ".join(checks) + "."]
def fresh_run(name):
    """req/s and the server's CPU ms a request of one new-source run."""
    text = open(f"{results}/{name}.wrk").read()
    m = re.search(r"Requests/sec:\s+([\d.]+)", text)
    rps = float(m.group(1)) if m else 0.0
    m = re.search(r"(\d+) requests in", text)
    count = int(m.group(1)) if m else 0
    before, after, hz = (int(v) for v in open(f"{results}/{name}.ticks").read().split())
    return rps, ((after - before) / hz * 1000 / count if count else 0.0)

if os.path.exists(f"{results}/fresh.wrk") and os.path.exists(f"{results}/ceiling.json"):
    rps, server_ms = fresh_run("fresh")
    stored_rps, stored_ms = fresh_run("fresh-store")
    ceiling = json.load(open(f"{results}/ceiling.json"))
    images, vips_seconds, vips_ms = open(f"{results}/vips.tsv").read().split()
    vips_rps = int(images) / float(vips_seconds)
    cores = os.cpu_count()
    gross_rps, net_rps = cores * 1000 / ceiling["gross_ms"], cores * 1000 / ceiling["net_ms"]
    lines += [
        "",
        "### Every request a new source, beside libjpeg-turbo's ceiling (issue 33)",
        "",
        f"`webimage serve`, JPEG, wrk -t 2 -c 4 for {seconds} s, W = 500–520 and a source not asked before on every request "
        "(each one fetched from the origin, decoded, resized and encoded; with the default settings, a source and a result "
        "asked for once are not written to the caches; the second row writes every source and result, "
        "`WEBIMAGE_SERVE_CACHE_MIN_USES=1`). libjpeg-turbo's ceiling: "
        "`djpeg -scale S` (1/4 up to 512 px, 3/8 above) plus `cjpeg -quality 80` of the W-wide result, CPU from getrusage "
        "averaged over the 21 widths, whole and net of the tools' own start (`scripts/lib/jpeg_ceiling.py`); as req/s, "
        f"{cores} cores ÷ that CPU. libvips: `benchmarks/serve/vips_serve_work.c`, `vips_thumbnail_buffer` + `vips_jpegsave_buffer` "
        f"(Q 80) of the source in memory, {cores} threads, vips concurrency 1, cache off, no HTTP. The server's CPU is its "
        "own user + system time from /proc over the run; wrk and the origin share the cores.",
        "",
        "| | req/s | CPU ms a request | webimage's share |",
        "| --- | ---: | ---: | ---: |",
        f"| webimage serve, a new source every request | {rps:.1f} | {server_ms:.2f} | |",
        f"| webimage serve, every source and result written to the caches | {stored_rps:.1f} | {stored_ms:.2f} | "
        f"{stored_rps / gross_rps:.2f} of the ceiling's req/s |",
        f"| libjpeg-turbo ceiling (djpeg + cjpeg, whole processes) | {gross_rps:.1f} | {ceiling['gross_ms']:.2f} | {rps / gross_rps:.2f} of its req/s |",
        f"| libjpeg-turbo ceiling, net of the tools' start | {net_rps:.1f} | {ceiling['net_ms']:.2f} | {rps / net_rps:.2f} of its req/s, "
        f"{ceiling['net_ms'] / server_ms:.2f} of its CPU |",
        f"| libvips in process ({cores} threads) | {vips_rps:.1f} | {float(vips_ms):.2f} | {rps / vips_rps:.2f}× its req/s |",
    ]
write_section(path, "serve", lines)
PY
