#!/usr/bin/env bash
# Fuzzing (issue 8): builds the libFuzzer targets of Fuzz/ with AddressSanitizer, writes the seed corpora,
# runs each target for the given seconds and prints executions and crashes per target; rewrites the "fuzz"
# section of benchmarks/RELIABILITY.md. Crashing inputs are kept in fuzz-artifacts/<target>/.
# Usage: scripts/fuzz.sh [seconds per target]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
targets=(Detect JPEG PNG GIF WebP AVIF Progressive FrameSources KeyScale ServerURL)
targets+=(TIFF BMP ICO) # issue 16
targets+=(HEIC JXL SVG PDF)

scripts/install-deps.sh >&2
flags=(--package-path Fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
swift build "${flags[@]}" >&2
bin="$(swift build "${flags[@]}" --show-bin-path)"
python3 scripts/fuzz_corpus.py fuzz-corpus >&2

export SWIFT_BACKTRACE=enable=no
rows=()
for target in "${targets[@]}"; do
    mkdir -p "fuzz-artifacts/$target" "fuzz-corpus/$target"
    log="fuzz-artifacts/$target.log"
    "$bin/Fuzz$target" "fuzz-corpus/$target" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 \
        -timeout=10 -artifact_prefix="fuzz-artifacts/$target/" > "$log" 2>&1 || true
    executions=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
    crashes=$(find "fuzz-artifacts/$target" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' -o -name 'leak-*' \) | wc -l)
    corpus=$(find "fuzz-corpus/$target" -maxdepth 1 -type f | wc -l)
    printf '%-14s %12s executions %3s crashes %6s corpus files\n' "$target" "${executions:-0}" "$crashes" "$corpus"
    rows+=("$target ${executions:-0} $crashes $corpus")
done

python3 - "$seconds" benchmarks/RELIABILITY.md "${rows[@]}" <<'PY'
import datetime, os, re, sys
sys.path.insert(0, "scripts/lib")
from report_section import write_section
seconds, path, rows = sys.argv[1], sys.argv[2], [r.split() for r in sys.argv[3:]]
lines = [
    "## Fuzzing",
    "",
    f"Measured {datetime.date.today()}, {os.cpu_count()} cores. Command: `scripts/fuzz.sh {seconds}`: libFuzzer with AddressSanitizer, "
    f"{seconds} s per target, seeds from the committed fixtures and their truncations (`scripts/fuzz_corpus.py`); decoding limits "
    "4 megapixels and 64 MiB of frames. Crashes, out-of-memory and timeouts are kept in `fuzz-artifacts/<target>/`.",
    "",
    "| target | what it fuzzes | executions | crashes | corpus after |",
    "| --- | --- | ---: | ---: | ---: |",
]
what = {
    "Detect": "format detection, decoder choice", "JPEG": "JPEG decoder (full and thumbnail)", "PNG": "PNG and APNG decoder",
    "GIF": "GIF decoder", "WebP": "WebP decoder (still, animated)", "AVIF": "AVIF decoder", "HEIC": "HEIC/HEIF decoder (libheif)", "JXL": "JPEG XL decoder (libjxl)",
    "SVG": "SVG rasterizer (librsvg)", "PDF": "PDF rasterizer (poppler)", "Progressive": "progressive decoders fed in chunks",
    "FrameSources": "on-demand animation frames", "KeyScale": "the `@2x`/`@3x` key parser",
}
what.update({"TIFF": "TIFF decoder (libtiff from memory)", "BMP": "BMP decoder (depths, masks, RLE)", "ICO": "ICO/CUR decoder"})
for target, executions, crashes, corpus in rows:
    lines.append(f"| Fuzz{target} | {what.get(target, '')} | {int(executions):,} | {crashes} | {int(corpus):,} |")
write_section(path, "fuzz", lines, header="# Reliability\n\nEach section is rewritten by the script named in it.\n")
PY
