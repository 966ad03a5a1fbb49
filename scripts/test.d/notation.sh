#!/usr/bin/env bash
# WXF notation against pyffish on every move of the test games.
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(bash scripts/venv.sh)
mkdir -p target
"$python" tests/differential/notation.py crates/xiangqi/tests/data/games.tsv target/notation_wxf.tsv
NOTATION_CASES="$PWD/target/notation_wxf.tsv" cargo test -p xiangqi --test notation_pyffish -- --ignored
