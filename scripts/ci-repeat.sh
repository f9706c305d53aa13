#!/usr/bin/env bash
# Runs the thread-sanitizer stage (`make test-tsan`) N times (default 10) and prints how many runs passed,
# so that a flaky suite cannot land unnoticed. The first run builds; the others reuse the build.
# Usage: scripts/ci-repeat.sh [N] [make target]   e.g. scripts/ci-repeat.sh 10 test
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
target=${2:-test-tsan}
logs=$(mktemp -d)
passed=0
for run in $(seq 1 "$runs"); do
    start=$(date +%s)
    if make "$target" >"$logs/run-$run.log" 2>&1; then
        passed=$((passed + 1))
        outcome=passed
    else
        outcome="FAILED (log: $logs/run-$run.log)"
    fi
    echo "run $run of $runs: $outcome in $(( $(date +%s) - start )) s"
done
echo "make $target: $passed of $runs runs passed"
[[ $passed -eq $runs ]]
