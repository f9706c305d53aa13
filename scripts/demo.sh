#!/usr/bin/env bash
# `make demo`: builds webimage (release) and runs `webimage demo`, which serves generated images from an
# embedded origin on 127.0.0.1 and loads them cold, warm and from disk. Writes only ./demo-output/.
set -euo pipefail
cd "$(dirname "$0")/.."

# `make demo` passes the flags of `make test`'s build, so the two share it.
read -r -a flags <<< "${SWIFT_FLAGS:--c release}"
swift build "${flags[@]}" --product webimage >&2
bin="$(swift build "${flags[@]}" --show-bin-path)/webimage"
"$bin" demo --output demo-output
test -s demo-output/contact-sheet.png
"$bin" info demo-output/contact-sheet.png
