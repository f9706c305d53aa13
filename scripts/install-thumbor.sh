#!/usr/bin/env bash
# thumbor 7.8 and libthumbor from PyPI, in their own virtual environment under benchmarks/work (not in git): the
# thumbor the compatibility tests (ThumborCompatibilityTests) and scripts/bench-serve.sh start beside this server.
# Quiet and quick when it is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=benchmarks/work/thumbor-venv
[[ -x $venv/bin/thumbor && -x $venv/bin/python ]] && "$venv/bin/python" -c 'import thumbor, libthumbor' 2>/dev/null && exit 0
scripts/install-deps.sh python3-venv >&2
echo "install-thumbor: installing thumbor 7.8 and libthumbor into $venv" >&2
python3 -m venv "$venv"
"$venv/bin/pip" install -q 'thumbor==7.8.*' libthumbor >&2
