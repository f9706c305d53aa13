#!/usr/bin/env bash
# The Python tools some server tests start: moto's S3 server (with boto3 to prepare it) and two imgproxy URL
# builders from PyPI (pyimgproxy, imgproxy), in a virtual environment under benchmarks/work (not in git); and
# thumbor with libthumbor in another (scripts/install-thumbor.sh). Quiet and quick when they are already there.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-thumbor.sh   # thumbor and libthumbor for the thumbor-dialect tests, in a venv of their own
venv=benchmarks/work/moto-venv
[[ -x $venv/bin/moto_server && -x $venv/bin/python ]] && "$venv/bin/python" -c 'import boto3, pyimgproxy, imgproxy' 2>/dev/null && exit 0
scripts/install-deps.sh python3-venv >&2
echo "install-test-tools: installing moto[server], boto3, pyimgproxy and imgproxy into $venv" >&2
python3 -m venv "$venv"
"$venv/bin/pip" install -q 'moto[server]' boto3 'pyimgproxy==0.4' 'imgproxy==1.0.0' >&2
