#!/usr/bin/env python3
"""Repetition rulings against pyffish (Fairy-Stockfish).

    rulings.py table TABLE.tsv
        Judges every case of crates/xiangqi/tests/data/rulings.tsv with pyffish and checks that
        pyffish gives the table's verdict, or, where the table says "differs (pyffish: X)", X.
        Exits 1 on any other answer.

    rulings.py judge CYCLES.tsv OUT.tsv
        Adds pyffish's verdict to the chase cycles that crates/xiangqi/tests/rulings.rs
        (`write_chase_cycles`) generates, one line per cycle:
            name  fen  moves (ICCS, ranks 0-9)  pyffish's verdict
        for `generated_cycles_agree_with_pyffish` in the same file. (The cycles are built in
        Rust because every pyffish call costs milliseconds; pyffish still checks each move.)

Verdicts: "red wins", "black wins", "draw" (or "ongoing" when pyffish sees no game end).
"""
import re
import sys

import pyffish as sf

V = "xiangqi"
SQ = re.compile(r"([a-i])(\d+)([a-i])(\d+)")


def to_ff(m):
    return re.sub(r"([a-i])(\d)", lambda x: x.group(1) + str(int(x.group(2)) + 1), m)


def from_ff(m):
    return re.sub(r"([a-i])(\d+)", lambda x: x.group(1) + str(int(x.group(2)) - 1), m)


def verdict(fen, moves):
    """pyffish's verdict after `moves` (pyffish notation) from `fen`."""
    red_to_move = (fen.split()[1] in ("w", "r")) == (len(moves) % 2 == 0)
    end, r = sf.is_optional_game_end(V, fen, moves)
    if not end:
        return "ongoing"
    if r == 0:
        return "draw"
    return ("red" if (r > 0) == red_to_move else "black") + " wins"


def check_table(path):
    total = agree = differ = 0
    bad = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        cid, fen, moves, expected, _reason, _rule, py = line.rstrip("\n").split("\t")[:7]
        got = verdict(fen, [to_ff(m) for m in moves.split()])
        total += 1
        m = re.match(r"differs \(pyffish: ([a-z ]+)\)", py)
        if m:
            differ += 1
            if got != m.group(1):
                bad.append("%s: the table says pyffish gives %s, it gives %s" % (cid, m.group(1), got))
        elif got == expected:
            agree += 1
        else:
            bad.append("%s: table %s, pyffish %s" % (cid, expected, got))
    print("%d cases: pyffish agrees on %d, differs as the table says on %d, otherwise on %d"
          % (total, agree, differ, len(bad)))
    for b in bad:
        print("  " + b)
    return 1 if bad else 0


def judge_cycles(src, dst):
    """Adds pyffish's verdict to each `name fen moves` line of `src` (the chase cycles that
    crates/xiangqi/tests/rulings.rs `write_chase_cycles` builds); a move pyffish rejects is
    an error."""
    n = 0
    with open(dst, "w", encoding="utf-8") as out:
        out.write("# name\tfen\tmoves\tpyffish verdict (pyffish %s)\n" % ".".join(map(str, sf.version())))
        for line in open(src, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            name, fen, moves = line.rstrip("\n").split("\t")[:3]
            out.write("\t".join([name, fen, moves, verdict(fen, [to_ff(m) for m in moves.split()])]) + "\n")
            n += 1
    print("%d cycles judged by pyffish into %s" % (n, dst), file=sys.stderr)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "table":
        sys.exit(check_table(sys.argv[2]))
    if len(sys.argv) >= 4 and sys.argv[1] == "judge":
        judge_cycles(sys.argv[2], sys.argv[3])
        return
    print(__doc__, file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
