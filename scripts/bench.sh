#!/usr/bin/env bash
# Every comparison in one go: codecs, thumbnails and resizing (beside libvips and Pillow), the caches, the
# downloader (beside curl), the manager (beside Pillow and curl) and the peak memory of 200 loads at once. Each script installs the reference tools
# it needs and rewrites its own section of benchmarks/RESULTS.md (machine and date included); then the
# ratio chart (benchmarks/ratios.svg) and the summary table of benchmarks/RESULTS.md are redrawn from the new figures.
# Usage: scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bench-codecs.sh
scripts/bench-thumbnails.sh
scripts/bench-cache.sh
scripts/bench-download.sh
scripts/bench-manager.sh
scripts/bench-load-memory.sh
python3 scripts/bench_chart.py
sed -i "s/^Last full run: .*/Last full run: $(date -u +%F) with \`scripts\/bench.sh\`./" benchmarks/RESULTS.md
