#!/usr/bin/env bash
# Game ends against pyffish: builds the cases with tests/differential/game_end.py, then compares.
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(bash scripts/venv.sh)
mkdir -p target
"$python" tests/differential/game_end.py target/game_end.tsv "${GAME_END_SEED:-1}"
GAME_END_CASES="$PWD/target/game_end.tsv" cargo test -p xiangqi --test game_end_pyffish -- --ignored
