#!/usr/bin/env bash
# Creates .venv with the Python packages the differential tests use (pyffish: Fairy-Stockfish's
# Python binding, an independent Xiangqi implementation). Prints the venv's python path.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import pyffish" 2>/dev/null; then
    python3 -m venv .venv >&2
    .venv/bin/pip install --quiet --disable-pip-version-check pyffish >&2
fi
echo "$PWD/.venv/bin/python"
