# Sourced by the benchmark scripts that need an HTTP origin.
#   bench_prepare PACKAGES...  installs the packages (and nginx, curl), sets $bin (scripts/lib/webimage-binary.sh)
#                              and $scratch (a temporary folder removed, with nginx stopped, on exit);
#   local_server_start         serves "$scratch/www" with nginx on a free 127.0.0.1 port and sets $base
#                              to its URL and $access_log to its log.

bench_prepare() {
    scripts/install-deps.sh nginx curl "$@" >&2
    source scripts/lib/webimage-binary.sh
    scratch="$(mktemp -d)"
    chmod 755 "$scratch"
    mkdir -p "$scratch/www"
    trap 'local_server_stop; rm -rf "$scratch"' EXIT
}

local_server_start() {
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$scratch/tmp"
    cat > "$scratch/nginx.conf" <<CONF
worker_processes 2;
pid $scratch/nginx.pid;
error_log $scratch/error.log;
events { worker_connections 1024; }
http {
    access_log $scratch/access.log;
    client_body_temp_path $scratch/tmp;
    proxy_temp_path $scratch/tmp;
    fastcgi_temp_path $scratch/tmp;
    uwsgi_temp_path $scratch/tmp;
    scgi_temp_path $scratch/tmp;
    types { image/jpeg jpg; image/png png; image/gif gif; image/webp webp; image/avif avif; }
    server { listen 127.0.0.1:$port; root $scratch/www; keepalive_requests 100000; }
}
CONF
    nginx -c "$scratch/nginx.conf"
    base="http://127.0.0.1:$port"
    access_log="$scratch/access.log"
    for _ in $(seq 50); do curl -s -o /dev/null "$base/" && break; sleep 0.1; done
}

local_server_stop() {
    [[ -f $scratch/nginx.pid ]] && kill "$(cat "$scratch/nginx.pid")" 2>/dev/null
    return 0
}
