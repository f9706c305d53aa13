#!/usr/bin/env bash
# What one server request opens (issue 29): starts `webimage serve` under `strace -f -e trace=openat`, caches a
# source with two requests (a source is written to the cache on its second request), then asks for a new size of
# it and counts, for that third request only, the opens
# of the source's cache file, of the results folder, and of /etc/passwd and /etc/group.
# Usage: WEBIMAGE=path/to/webimage scripts/strace-request.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh strace nginx curl >&2
bin="${WEBIMAGE:-$(swift build -c release --show-bin-path)/webimage}"
scratch="$(mktemp -d)"
# strace passes SIGTERM on to the server it traces; the server then drains and exits.
trap 'kill $(jobs -p) 2>/dev/null || true; pkill -f "$scratch/cache" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$scratch"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
origin_port=$(free_port) server_port=$(free_port)
mkdir -p "$scratch/www"
"$bin" samples "$scratch/www" --size 1024x683 --only photo.jpg >/dev/null
python3 -m http.server "$origin_port" --bind 127.0.0.1 --directory "$scratch/www" >/dev/null 2>&1 &
strace -f -qq -e trace=openat -o "$scratch/trace" "$bin" serve --bind "127.0.0.1:$server_port" \
    --allow-loopback-sources --cache-dir "$scratch/cache" >/dev/null 2>&1 &
for _ in $(seq 300); do curl -s -o /dev/null "http://127.0.0.1:$server_port/health" && break; sleep 0.1; done
source="http://127.0.0.1:$origin_port/photo.jpg"
curl -s -o /dev/null -w "first request: %{http_code}\n" "http://127.0.0.1:$server_port/_/w:300/plain/$source"
curl -s -o /dev/null -w "second request, which caches the source: %{http_code}\n" "http://127.0.0.1:$server_port/_/w:299/plain/$source"
sleep 1  # the source's cache write runs behind the first answer
before=$(wc -l < "$scratch/trace")
curl -s -o /dev/null -w "new size of the cached source: %{http_code}\n" "http://127.0.0.1:$server_port/_/w:301/plain/$source"
sleep 0.5
tail -n +"$((before + 1))" "$scratch/trace" > "$scratch/request"
echo "opens of the source's cache file: $(grep -c "cache/sources/[0-9a-f]\{32\}" "$scratch/request" || true)"
echo "opens under the results folder:    $(grep -c "cache/results/" "$scratch/request" || true)"
echo "opens of /etc/passwd or /etc/group: $(grep -cE '/etc/(passwd|group)' "$scratch/request" || true)"
echo "all openat calls:                   $(wc -l < "$scratch/request")"
