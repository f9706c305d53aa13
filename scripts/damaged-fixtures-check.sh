#!/usr/bin/env bash
# Issue 31: asks headless Chromium again what it shows for each damaged fixture and compares the answer with the
# chromium.json the decoder tests (DamagedFixtureTests) are pinned to, so those pins stay Chromium's own.
# Prints PASS or FAIL; exits non-zero on a difference. Regenerate the fixtures with scripts/make-damaged-fixtures.py.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh chromium >&2
folder=Tests/WebImageCodersTests/Fixtures/damaged
now="$(mktemp)"
trap 'rm -f "$now"' EXIT
python3 scripts/chromium_decodes.py "$folder" > "$now"
if diff -u "$folder/chromium.json" "$now"; then
    echo "PASS: Chromium shows the $(ls "$folder" | grep -vc '\.json$') damaged fixtures as chromium.json says"
else
    echo "FAIL: Chromium's answer differs from $folder/chromium.json (above)"
    exit 1
fi
