#!/usr/bin/env bash
# The playground's acceptance test (issue 14, item 8): headless Chromium loads `webimage serve --playground`'s
# page with its form filled through the query (`/?src=…&w=…&format=png&auto=1`), which fetches the image URL it
# builds; the screenshot must show the processed image, pixel for pixel where it sits on the page, and the
# page's DOM must show the status, Content-Type, byte size, dimensions and URL of the server's answer.
# Also: the same check fails on the page before it runs (so it can fail), an origin 404 shows the server's
# one-line message, and with signatures on the page refuses to fetch unsigned and works with a pasted signature.
#
# Everything listens on 127.0.0.1 only (a python3 http.server origin serving `webimage samples`, two servers).
# Prints PASS or FAIL; exits non-zero on failure.
#   WEBIMAGE=path    use this webimage binary (default: a debug build, built if needed)
#   SCREENSHOT=path  keep the screenshot of the page (quantized, small), e.g. docs/playground.png
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "FAIL: $*"; exit 1; }
trap 'echo "FAIL: line $LINENO: $BASH_COMMAND"' ERR
py=/usr/bin/python3   # Debian's, with python3-pil (another python3 may come first on PATH)

scripts/install-deps.sh chromium python3-pil fonts-dejavu-core curl >&2
if [[ -z ${WEBIMAGE:-} ]]; then
    nice -n 19 swift build --product webimage >&2
    WEBIMAGE="$(swift build --show-bin-path)/webimage"
fi
[[ -x $WEBIMAGE ]] || fail "no webimage binary at $WEBIMAGE"

scratch="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT

free_port() { "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
get() { curl --noproxy '*' -s "$@"; }

# The origin: a generated photo-like JPEG.
"$WEBIMAGE" samples "$scratch/origin" --only photo.jpg --size 900x600 >/dev/null
origin_port=$(free_port)
"$py" -m http.server --bind 127.0.0.1 --directory "$scratch/origin" "$origin_port" >"$scratch/origin.log" 2>&1 &
pids+=($!)
origin="http://127.0.0.1:$origin_port"

# start_server NAME ARGS...: starts `webimage serve --playground` on a free port; sets $server.
start_server() {
    local name=$1 port
    shift
    port=$(free_port)
    "$WEBIMAGE" serve --bind "127.0.0.1:$port" --playground --allow-loopback-sources \
        --cache-dir "$scratch/cache-$name" "$@" >"$scratch/$name.log" 2>&1 &
    pids+=($!)
    server="http://127.0.0.1:$port"
    for _ in $(seq 100); do
        [[ $(get -o /dev/null -w '%{http_code}' "$server/health") == 200 ]] && return 0
        sleep 0.1
    done
    cat "$scratch/$name.log" >&2
    fail "webimage serve ($name) did not start"
}
for _ in $(seq 50); do get -o /dev/null "$origin/photo.jpg" && break; sleep 0.1; done

browser() {
    timeout 90 chromium --headless --no-sandbox --disable-gpu --no-proxy-server --hide-scrollbars --no-first-run \
        --disable-dev-shm-usage --user-data-dir="$scratch/profile" --force-device-scale-factor=1 \
        --window-size=1200,820 --virtual-time-budget=5000 "$@" 2>>"$scratch/chromium.log"
}
# dom URL FILE: the page's DOM after its script ran.
dom() { browser --dump-dom "$1" >"$2"; }
# shot URL FILE: a screenshot of the page after its script ran.
shot() { browser --screenshot="$2" "$1" >/dev/null; [[ -s $2 ]] || fail "no screenshot of $1"; }

# text FILE ID: the text of the element with that id in a dumped DOM (tags dropped, entities decoded).
text() {
    "$py" - "$1" "$2" <<'PY'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
match = re.search(r'<(\w+)[^>]*\bid="%s"[^>]*>(.*?)</\1>' % re.escape(sys.argv[2]), page, re.S)
print(html.unescape(re.sub(r"<[^>]*>", "", match.group(2))).strip() if match else "<missing>")
PY
}
expect_text() { # FILE ID WANTED
    local got
    got=$(text "$1" "$2")
    [[ $got == "$3" ]] || fail "#$2 shows '$got', expected '$3'"
}

# found SCREENSHOT IMAGE: whether IMAGE appears unscaled in SCREENSHOT (a 24×24 grid of its pixels within 12
# levels per channel, at least 98% of them); prints where.
found() {
    "$py" - "$1" "$2" <<'PY'
import sys
from PIL import Image, ImageStat
shot = Image.open(sys.argv[1]).convert("RGB")
want = Image.open(sys.argv[2]).convert("RGB")
(W, H), (w, h) = shot.size, want.size
if max(ImageStat.Stat(want).stddev) < 20:
    sys.exit("the expected image is too plain to find")
sp, wp = shot.load(), want.load()
grid = [(x * (w - 1) // 23, y * (h - 1) // 23) for x in range(24) for y in range(24)]
close = lambda a, b: all(abs(i - j) <= 12 for i, j in zip(a, b))
ax, ay = w // 2, h // 2
anchor = wp[ax, ay]
for y in range(H - h + 1):
    for x in range(W - w + 1):
        if not close(sp[x + ax, y + ay], anchor):
            continue
        hits = sum(close(sp[x + gx, y + gy], wp[gx, gy]) for gx, gy in grid)
        if hits >= 0.98 * len(grid):
            print(f"at {x},{y} ({hits}/{len(grid)} samples)")
            sys.exit(0)
sys.exit(1)
PY
}

start_server open
source_url="$origin/photo.jpg"
query="src=$("$py" -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$source_url")"
query+="&w=360&h=240&rt=fill&g=ce&format=png&q=90"
image_url="$server/unsafe/rs:fill:360:240/q:90/plain/$source_url@png"

# What the server answers for the URL the page should build.
status=$(get -o "$scratch/expected.png" -w '%{http_code}' "$image_url")
[[ $status == 200 ]] || fail "the image URL answered $status: $(head -c 300 "$scratch/expected.png")"
size=$(stat -c %s "$scratch/expected.png")
dimensions=$("$py" -c 'import sys; from PIL import Image; w, h = Image.open(sys.argv[1]).size; print(f"{w} × {h}")' "$scratch/expected.png")

# Before it runs (no auto=1), the page shows no image: the pixel check must not find it.
shot "$server/?$query" "$scratch/idle.png"
if found "$scratch/idle.png" "$scratch/expected.png" >/dev/null; then fail "the image was found on a page that did not fetch it"; fi

# With auto=1 it builds the URL, fetches it and shows what came back.
dom "$server/?$query&auto=1" "$scratch/page.html"
expect_text "$scratch/page.html" url "$image_url"
expect_text "$scratch/page.html" status "200 OK"
expect_text "$scratch/page.html" type "image/png"
expect_text "$scratch/page.html" dimensions "$dimensions"
bytes=$(text "$scratch/page.html" bytes)
[[ $bytes == "$("$py" -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$size") bytes"* ]] || fail "#bytes shows '$bytes', expected $size bytes"
[[ $(text "$scratch/page.html" time) =~ ^[0-9]+\ ms$ ]] || fail "#time shows '$(text "$scratch/page.html" time)'"

shot "$server/?$query&auto=1" "$scratch/page.png"
where=$(found "$scratch/page.png" "$scratch/expected.png") || fail "the screenshot does not show the processed image"
echo "playground: the processed image ($dimensions, $size bytes) is on the page $where" >&2

# An origin 404: the page shows the status and the server's one-line message.
missing_url="$server/unsafe/w:100/plain/$origin/missing.jpg"
missing_status=$(get -o "$scratch/missing.txt" -w '%{http_code}' "$missing_url")
dom "$server/?src=$origin/missing.jpg&w=100&auto=1" "$scratch/missing.html"
[[ $(text "$scratch/missing.html" status) == "$missing_status "* ]] || fail "#status shows '$(text "$scratch/missing.html" status)', expected $missing_status"
expect_text "$scratch/missing.html" error "$(head -n 1 "$scratch/missing.txt")"

# Signatures on: without one the page fetches nothing and says why; with a pasted one it works.
key=736563726574 salt=68656C6C6F
start_server signed --key "$key" --salt "$salt"
dom "$server/?$query&auto=1" "$scratch/unsigned.html"
[[ $(text "$scratch/unsigned.html" error) == *"paste the signature"* ]] || fail "with signatures on, the page does not ask for one"
expect_text "$scratch/unsigned.html" status "–"
signed_path="/rs:fill:360:240/q:90/plain/$source_url@png"
expect_text "$scratch/unsigned.html" signed-path "$signed_path"
signature=$("$py" -c '
import base64, hashlib, hmac, sys
key, salt, path = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), sys.argv[3].encode()
print(base64.urlsafe_b64encode(hmac.new(key, salt + path, hashlib.sha256).digest()).rstrip(b"=").decode())' "$key" "$salt" "$signed_path")
dom "$server/?$query&sig=$signature&auto=1" "$scratch/signed.html"
expect_text "$scratch/signed.html" url "$server/$signature$signed_path"
expect_text "$scratch/signed.html" status "200 OK"
expect_text "$scratch/signed.html" type "image/png"

if [[ -n ${SCREENSHOT:-} ]]; then
    # Cropped below the lowest row that is not the page's background, in 256 colours.
    "$py" - "$scratch/page.png" "$SCREENSHOT" <<'PY'
import sys
from PIL import Image
page = Image.open(sys.argv[1]).convert("RGB")
width, height = page.size
background = page.getpixel((width - 1, height - 1))
pixels = page.load()
bottom = max(y for y in range(height) if any(pixels[x, y] != background for x in range(0, width, 2)))
page.crop((0, 0, width, min(height, bottom + 24))).quantize(256).save(sys.argv[2], optimize=True)
PY
    echo "playground: screenshot written to $SCREENSHOT" >&2
fi
echo PASS
