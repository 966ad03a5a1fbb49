#!/usr/bin/env bash
# Move generation against Fairy-Stockfish (pyffish) on positions from seeded random games.
# XQ_DIFFERENTIAL_POSITIONS sets how many (default 20000, about two minutes).
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(./scripts/venv.sh)
mkdir -p target/differential
dump=target/differential/movegen.tsv
"$python" tests/differential/movegen.py "$dump" "${XQ_DIFFERENTIAL_POSITIONS:-20000}"
XQ_DIFFERENTIAL_FILE="$PWD/$dump" cargo test -p xiangqi --test differential -- --ignored --nocapture
