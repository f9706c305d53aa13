#!/usr/bin/env bash
# Where one server request's CPU goes (issue 33, item 2): `webimage serve` under `perf record`, asked by wrk
# (4 connections) to fit JPEG sources (2048×1365, nginx origin on 127.0.0.1) into 512 px, every request a source
# not asked before (so each one fetches, caches, decodes, resamples and encodes). Prints the share of the server's
# samples by object (libjpeg-turbo, the kernel, webimage, the Swift runtime…) and the largest symbols outside
# libjpeg-turbo, as the table benchmarks/RESULTS.md keeps.
# Usage: scripts/profile-serve.sh [SECONDS]   (default 15)
#        WEBIMAGE=path scripts/profile-serve.sh   profiles that binary instead of building one (a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-15}"
names=4000

source scripts/lib/local-server.sh
scripts/install-deps.sh wrk linux-perf >&2
bench_prepare
trap 'kill "${server:-0}" 2>/dev/null || true; local_server_stop; rm -rf "$scratch"' EXIT
"$bin" samples "$scratch/src" --size 2048x1365 --only photo.jpg >/dev/null
for ((i = 0; i < names; i++)); do ln "$scratch/src/photo.jpg" "$scratch/www/photo-$(printf %05d "$i").jpg"; done
for ((i = 0; i < 16; i++)); do ln "$scratch/src/photo.jpg" "$scratch/www/warm-$i.jpg"; done
local_server_start

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --bind "127.0.0.1:$port" --allow-loopback-sources --cache-dir "$scratch/cache" > "$scratch/server.log" 2>&1 &
server=$!
for _ in $(seq 300); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done

# Thread t of 2 asks for names t, t+2, t+4, …: no source is asked twice.
cat > "$scratch/distinct.lua" <<LUA
local next_id = 0
function setup(thread) thread:set("id", next_id); next_id = next_id + 1 end
function init(args) k = id end
function request()
    local path = string.format("/unsafe/rs:fit:512:0/plain/$base/photo-%05d.jpg@jpg", k % $names)
    k = k + 2
    return wrk.format("GET", path)
end
LUA
# perf follows the threads there are when it attaches: warm up first so that the decoding threads exist (names
# above those wrk asks for, so that every profiled request is still a new source).
warmers=()
for ((i = 0; i < 16; i++)); do
    curl -s -o /dev/null "http://127.0.0.1:$port/unsafe/rs:fit:512:0/plain/$base/warm-$i.jpg@jpg" &
    warmers+=($!)
done
wait "${warmers[@]}"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
ticks_before=$(cpu_ticks)
perf record -F 499 -g -p "$server" -o "$scratch/perf.data" -- sleep "$seconds" > /dev/null 2>&1 &
recorder=$!
wrk -t 2 -c 4 -d "${seconds}s" --timeout 30s -s "$scratch/distinct.lua" "http://127.0.0.1:$port" > "$scratch/wrk.txt" 2>&1 || true
wait "$recorder" || true
requests=$(awk '/Requests\/sec/ {print $2}' "$scratch/wrk.txt")
if grep -q "Non-2xx" "$scratch/wrk.txt"; then echo "profile-serve: some answers were not 2xx:" >&2; cat "$scratch/wrk.txt" >&2; fi
# The server's own CPU per request (user + system, from /proc), apart from wrk's and nginx's on the same cores.
cpu_per_request=$(python3 -c "import os, sys; print(round((int(sys.argv[2]) - int(sys.argv[1])) / os.sysconf('SC_CLK_TCK') * 1000 / (float(sys.argv[3]) * float(sys.argv[4])), 2))" \
    "$ticks_before" "$(cpu_ticks)" "$requests" "$seconds")
[[ -n ${PROFILE_THREADS:-} ]] && perf report -i "$scratch/perf.data" --no-children --sort comm --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' >&2
perf report -i "$scratch/perf.data" --no-children --sort dso --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' > "$scratch/dso.txt" || true
perf report -i "$scratch/perf.data" --no-children --sort dso,symbol --stdio 2>/dev/null | grep -E '^ +[0-9.]+%' > "$scratch/symbols.txt" || true
python3 - "$scratch/dso.txt" "$scratch/symbols.txt" "$requests" "$seconds" "$cpu_per_request" <<'PY'
import re, sys
print(f"{sys.argv[3]} req/s over {sys.argv[4]} s, 4 connections, every request a new source; the server's CPU: {sys.argv[5]} ms a request.")
print()
print("Self samples by object:")
print()
print("| share | object |")
print("|---|---|")
for line in open(sys.argv[1]):
    match = re.match(r"\s+([0-9.]+)%\s+(.*)", line)
    if match and float(match.group(1)) >= 0.5:
        print(f"| {float(match.group(1)):.1f} % | {match.group(2).strip()} |")
# libjpeg-turbo is stripped and built without frame pointers: its share is decode and encode together. The
# other objects by symbol (self samples), the largest first.
print()
print("Largest symbols outside libjpeg-turbo (self samples):")
print()
print("| share | object | symbol |")
print("|---|---|---|")
shown = 0
for line in open(sys.argv[2]):
    match = re.match(r"\s+([0-9.]+)%\s+(\S+)\s+\[.\]\s+(.*)", line)
    if not match or "libjpeg" in match.group(2):
        continue
    print(f"| {float(match.group(1)):.1f} % | {match.group(2)} | `{match.group(3).strip()[:80]}` |")
    shown += 1
    if shown == 15:
        break
PY
