#!/usr/bin/env bash
# The nginx recipe of deploy/nginx.conf under load, on loopback (issue 14, item 9): an origin of 2048×1365
# photographs, three `webimage serve` instances, nginx (deploy/nginx.conf with only its `# site:` lines
# rewritten) in front; wrk requests a random mix of 24 sources × widths 500–520 × qualities × JPEG/WebP
# (half popular URLs, half a long tail; half the sources as plain/ URLs, half base64) for DURATION seconds;
# one instance is killed with SIGKILL a third of the way in. Reports failed client requests (goal 0), nginx's
# cache hit ratio, requests per instance, retries, and whether each source stayed on one instance. Everything listens on 127.0.0.1 and
# stops on exit. The report is also written to benchmarks/work/cluster-report.txt.
# Usage: deploy/run-cluster.sh [DURATION_SECONDS]   (default 45)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-45}"
connections="${CLUSTER_CONNECTIONS:-16}"

scripts/install-deps.sh nginx wrk curl >&2
nice -n 19 swift build -c release --product webimage >&2
bin="$(swift build -c release --show-bin-path)/webimage"

scratch="$(mktemp -d)"
chmod 755 "$scratch"            # nginx's workers (nobody when started as root) read and write under it
mkdir -p "$scratch/www" "$scratch/lb" benchmarks/work
instance_pids=()
cleanup() {
    for pid in "${instance_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [[ -f $scratch/lb/nginx.pid ]] && { kill "$(cat "$scratch/lb/nginx.pid")" 2>/dev/null || true; }
    local_server_stop
    wait 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The origin: nginx serving 24 sources (links to one generated photograph; distinct URLs are what counts).
source scripts/lib/local-server.sh
"$bin" samples "$scratch/src" --size 2048x1365 --only photo.jpg >/dev/null
for i in $(seq 1 24); do ln "$scratch/src/photo.jpg" "$scratch/www/photo-$i.jpg"; done
local_server_start
origin="$base"

# Three instances, each with its own caches.
ports=()
for i in 1 2 3; do
    port=$(free_port)
    ports+=("$port")
    "$bin" serve --bind "127.0.0.1:$port" --allow-loopback-sources --cache-dir "$scratch/cache-$i" \
        > "$scratch/instance-$i.log" 2>&1 &
    instance_pids+=($!)
done
for port in "${ports[@]}"; do
    for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
    curl -sf -o /dev/null "http://127.0.0.1:$port/health" || { echo "instance on $port did not start" >&2; exit 1; }
done

# nginx: deploy/nginx.conf with the `# site:` lines pointed at this run.
lb_port=$(free_port)
python3 - deploy/nginx.conf "$scratch/lb" "$lb_port" "${ports[@]}" > "$scratch/lb/nginx.conf" <<'PY'
import re, sys
template, lb, listen, ports = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
out, upstreams_done = [], False
for line in open(template):
    indent = line[: len(line) - len(line.lstrip())]
    if "# site: pid" in line:
        line = f"pid {lb}/nginx.pid;\n"
    elif "# site: error log" in line:
        line = f"error_log {lb}/error.log warn;\n"
    elif "# site: upstream" in line:
        if upstreams_done:
            continue
        upstreams_done = True
        line = "".join(f"{indent}server 127.0.0.1:{p} max_fails=2 fail_timeout=10s;\n" for p in ports)
    elif "# site: cache" in line:
        line = re.sub(r"proxy_cache_path \S+", f"proxy_cache_path {lb}/cache", line)
    elif "# site: access log" in line:
        line = f"{indent}access_log {lb}/access.log webimage;\n"
    elif "# site: listen" in line:
        line = f"{indent}listen 127.0.0.1:{listen};\n"
    elif line.startswith("worker_processes"):
        line = "worker_processes 2;\n"
    out.append(line)
    if line.startswith("http {"):
        # Temporary files under the run's folder (nginx creates these, owned by its worker user).
        for kind in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]:
            out.append(f"    {kind}_temp_path {lb}/{kind}_temp;\n")
sys.stdout.write("".join(out))
PY
nginx -t -q -p "$scratch/lb/" -c "$scratch/lb/nginx.conf"
nginx -p "$scratch/lb/" -c "$scratch/lb/nginx.conf"
lb="http://127.0.0.1:$lb_port"
for _ in $(seq 50); do curl -sf -o /dev/null "$lb/nginx-health" && break; sleep 0.1; done

# The URL mix: half the requests from a popular set (24 sources × widths 500–520 × JPEG/WebP at q 80: 1,008
# URLs, soon all cached by nginx), half from a long tail (the same at q 30–99: 70,560 URLs, mostly misses, so
# the instances work all along, the killed one's sources included). Sources 1–12 as plain/ URLs, 13–24 base64.
python3 - "$origin" "$scratch" <<'PY'
import base64, sys
origin, scratch = sys.argv[1], sys.argv[2]
def url(i, width, quality, ext):
    source = f"{origin}/photo-{i}.jpg"
    options = f"/unsafe/rs:fit:{width}:0/q:{quality}"
    if i <= 12:
        return f"{options}/plain/{source}@{ext}"
    encoded = base64.urlsafe_b64encode(source.encode()).decode().rstrip("=")
    return f"{options}/{encoded[:24]}/{encoded[24:]}.{ext}"
for name, qualities in (("popular", [80]), ("tail", [q for q in range(30, 100) if q != 80])):
    with open(f"{scratch}/{name}.txt", "w") as f:
        for i in range(1, 25):
            for width in range(500, 521):
                for quality in qualities:
                    for ext in ("jpg", "webp"):
                        print(url(i, width, quality, ext), file=f)
PY
cat > "$scratch/mix.lua" <<LUA
local popular, tail = {}, {}
for line in io.lines("$scratch/popular.txt") do popular[#popular + 1] = line end
for line in io.lines("$scratch/tail.txt") do tail[#tail + 1] = line end
local next_id = 0
function setup(thread) next_id = next_id + 1; thread:set("id", next_id) end
function init(args) math.randomseed(os.time() * 1000 + id) end
function request()
    local urls = math.random() < 0.5 and popular or tail
    return wrk.format("GET", urls[math.random(#urls)])
end
LUA

echo "cluster: nginx on $lb, instances on ${ports[*]}, origin $origin; ${duration}s of load, ${connections} connections" >&2
kill_at=$((duration / 3))
nice -n 19 wrk -t 2 -c "$connections" -d "${duration}s" --timeout 40s -s "$scratch/mix.lua" "$lb" > "$scratch/wrk.txt" 2>&1 &
wrk_pid=$!
sleep "$kill_at"
kill_epoch=$(date +%s.%N)
kill -KILL "${instance_pids[1]}"
wait "${instance_pids[1]}" 2>/dev/null || true
echo "cluster: killed instance 2 (127.0.0.1:${ports[1]}, pid ${instance_pids[1]}) with SIGKILL at ${kill_at}s" >&2
wait "$wrk_pid"
sleep 0.5

python3 - "$scratch" "$kill_epoch" "$kill_at" "$duration" "$connections" "${ports[@]}" <<'PY' | tee benchmarks/work/cluster-report.txt
import collections, datetime, re, sys
scratch, kill_epoch, kill_at, duration, connections = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
ports = sys.argv[6:]
wrk = open(f"{scratch}/wrk.txt").read()
line_re = re.compile(r'\[(?P<time>[^\]]+)\] "(?P<request>[^"]*)" (?P<status>\d+) \d+ \S+ cache=(?P<cache>\S*) '
                     r'upstream="(?P<upstream>[^"]*)" upstream_status="(?P<ustatus>[^"]*)" upstream_time="[^"]*" source="(?P<source>[^"]*)"')
rows = [m.groupdict() for m in map(line_re.search, open(f"{scratch}/lb/access.log")) if m]
statuses = collections.Counter(r["status"] for r in rows)
cache = collections.Counter(r["cache"] or "-" for r in rows)
failed = sum(n for s, n in statuses.items() if not (s.startswith("2") or s == "304"))
tried = collections.Counter()      # every attempt nginx made on an instance
answered = collections.Counter()   # the instance whose response the client got
retried = 0
for r in rows:
    addresses = [a.strip() for a in re.split(r"[,:]\s", r["upstream"]) if a.strip() and a.strip() != "-"]
    for a in addresses:
        tried[a] += 1
    if addresses:
        answered[addresses[-1]] += 1
    if len(addresses) > 1:
        retried += 1
when = lambda r: datetime.datetime.strptime(r["time"], "%d/%b/%Y:%H:%M:%S %z").timestamp()
# Stickiness: which instances answered each source's misses, before and after the kill.
before, after = collections.defaultdict(set), collections.defaultdict(set)
for r in rows:
    if r["cache"] == "MISS" and r["upstream"] not in ("", "-"):
        (before if when(r) < kill_epoch - 1 else after)[r["source"]].add(r["upstream"].split(",")[-1].strip())
moved = sorted(s for s in before if s in after and before[s] != after[s])
killed = f"127.0.0.1:{ports[1]}"
moved_not_from_killed = [s for s in moved if killed not in before[s]]
wrk_requests = re.search(r"(\d+) requests in", wrk)
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", wrk)
sockets = re.search(r"Socket errors: (.*)", wrk)
print(f"Cluster test: {len(ports)} webimage serve instances behind nginx (deploy/nginx.conf), {duration} s of wrk, "
      f"{connections} connections, instance 2 killed with SIGKILL at {kill_at} s.")
print(f"  client (wrk): {wrk_requests.group(1) if wrk_requests else '?'} requests, "
      f"non-2xx/3xx: {non2xx.group(1) if non2xx else 0}, socket errors: {sockets.group(1) if sockets else 'none'}")
print(f"  nginx: {len(rows)} requests, statuses {dict(sorted(statuses.items()))}, failed (not 2xx/304): {failed}")
hits = cache.get("HIT", 0)
print(f"  cache: {dict(sorted(cache.items()))}; hit ratio {hits / max(len(rows), 1):.1%}")
for i, port in enumerate(ports, 1):
    address = f"127.0.0.1:{port}"
    note = " (killed)" if address == killed else ""
    print(f"  instance {i} {address}{note}: {tried[address]} attempts, {answered[address]} responses")
print(f"  requests retried on another instance: {retried}")
print(f"  sources whose misses moved to another instance after the kill: {len(moved)} "
      f"({len(moved) - len(moved_not_from_killed)} from the killed instance, {len(moved_not_from_killed)} from others)")
print(f"  sources per instance before the kill: " + ", ".join(
      f"{a}: {sum(1 for s in before if a in before[s])}" for a in [f'127.0.0.1:{p}' for p in ports]))
print()
print(wrk.strip())
PY
