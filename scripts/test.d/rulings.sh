#!/usr/bin/env bash
# Repetition rulings against pyffish (Fairy-Stockfish): the hand-built table
# crates/xiangqi/tests/data/rulings.tsv, then generated chase cycles (built by the Rust test
# write_chase_cycles, judged by pyffish, compared by generated_cycles_agree_with_pyffish).
# RULINGS_CYCLES (default 2000) and RULINGS_SEED (default 1) choose the cycles; about a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(bash scripts/venv.sh)
mkdir -p target
"$python" tests/differential/rulings.py table crates/xiangqi/tests/data/rulings.tsv
cycles="$PWD/target/chase_cycles.tsv"
RULINGS_GENERATE="$cycles,${RULINGS_CYCLES:-2000},${RULINGS_SEED:-1}" \
    cargo test -p xiangqi --test rulings write_chase_cycles -- --ignored
"$python" tests/differential/rulings.py judge "$cycles" "$PWD/target/chase_cycles_judged.tsv"
RULINGS_CASES="$PWD/target/chase_cycles_judged.tsv" \
    cargo test -p xiangqi --test rulings generated_cycles_agree_with_pyffish -- --ignored --nocapture
