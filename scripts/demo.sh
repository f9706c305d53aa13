#!/usr/bin/env bash
# `make demo`: builds webimage (release) and runs `webimage demo`, which serves generated images from an
# embedded origin on 127.0.0.1 and loads them cold, warm and from disk. Writes only ./demo-output/.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product webimage >&2
bin="$(swift build -c release --show-bin-path)/webimage"
"$bin" demo --output demo-output
test -s demo-output/contact-sheet.png
"$bin" info demo-output/contact-sheet.png
