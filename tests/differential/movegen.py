#!/usr/bin/env python3
"""Dumps positions from seeded random games with Fairy-Stockfish's legal moves and check status.

Usage: movegen.py OUT.tsv [POSITIONS]. Each line: FEN, in-check flag (0/1), the legal moves in
ICCS with ranks 0-9 (pyffish writes 1-10), sorted. The Rust test
crates/xiangqi/tests/differential.rs compares our move generator with this file.
"""
import random
import re
import sys

import pyffish as sf

VARIANT = "xiangqi"
SQUARE_PAIR = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_iccs(move):
    m = SQUARE_PAIR.match(move)
    if not m:
        raise ValueError(f"unexpected pyffish move {move!r}")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def starts():
    yield sf.start_fen(VARIANT)
    with open("crates/xiangqi/tests/data/perft.tsv", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            yield line.split("\t")[1]


def main():
    out_path = sys.argv[1]
    wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    rng = random.Random(20261130)
    start_fens = list(starts())
    written = 0
    with open(out_path, "w", encoding="utf-8") as out:
        game = 0
        while written < wanted:
            fen = start_fens[game % len(start_fens)]
            game += 1
            for _ply in range(160):
                moves = sf.legal_moves(VARIANT, fen, [])
                check = sf.gives_check(VARIANT, fen, [])
                iccs = sorted(to_iccs(m) for m in moves)
                out.write(f"{fen}\t{int(check)}\t{' '.join(iccs)}\n")
                written += 1
                if not moves or written >= wanted:
                    break
                move = rng.choice(moves)
                fen = sf.get_fen(VARIANT, fen, [move])
    print(f"wrote {written} positions from {game} random games to {out_path}")


if __name__ == "__main__":
    main()
