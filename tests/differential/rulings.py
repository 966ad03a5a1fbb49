#!/usr/bin/env python3
"""Repetition rulings against pyffish (Fairy-Stockfish).

    rulings.py table TABLE.tsv
        Judges every case of crates/xiangqi/tests/data/rulings.tsv with pyffish and checks that
        pyffish gives the table's verdict, or, where the table says "differs (pyffish: X)", X.
        Exits 1 on any other answer.

    rulings.py generate OUT.tsv COUNT [SEED]
        Builds COUNT chase cycles (see `chase_cycles`) and writes one line per cycle:
            name  fen  moves (ICCS, ranks 0-9)  pyffish's verdict  kind
        for crates/xiangqi/tests/rulings.rs (`generated_cycles_agree_with_pyffish`).

Verdicts: "red wins", "black wins", "draw" (or "ongoing" when pyffish sees no game end).
"""
import random
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


def board_of(fen):
    """Square (pyffish notation) -> FEN letter."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board["abcdefghi"[f] + str(10 - i)] = c
                f += 1
    return board


def flip_turn(fen):
    parts = fen.split()
    parts[1] = "b" if parts[1] in ("w", "r") else "w"
    return " ".join(parts)


def captures(fen, by_other_side=False):
    """(from, to) of the legal captures in `fen`, of the side not to move if asked (a position
    where that side's king is attacked has none)."""
    if by_other_side:
        fen = flip_turn(fen)
    board = board_of(fen)
    try:
        legal = sf.legal_moves(V, fen, [])
    except Exception:
        return []
    out = []
    for m in legal:
        mm = SQ.match(m)
        a, b = mm.group(1) + mm.group(2), mm.group(3) + mm.group(4)
        if b in board:
            out.append((a, b))
    return out


# Sparse positions to start from: random legal play from these gives varied material.
STARTS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3akab2/9/4b4/p3p3p/2r3n2/2P6/P3P3P/2N1B4/4A4/2BAK1R2 w - - 0 1",
    "2bak4/4a4/4b4/9/9/2r6/9/4B4/4A1n2/2CAK4 w - - 0 1",
    "3ak4/4a4/4b4/9/2p6/6R2/9/4B4/4A4/3AK1C2 w - - 0 1",
    "3k1ab2/4a4/9/6N2/2p6/9/9/2n6/4A4/4K4 w - - 0 1",
    "2bakab2/9/2n1c1n2/p1p3p1p/4r4/2P3P2/P3P3P/2N1C1N2/4R4/2BAKAB2 w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
    "4ka3/4a4/4b4/2R6/9/9/6c2/4B4/4A4/3AK4 w - - 0 1",
]

CHASERS = "rnbacRNBAC"


def chase_cycles(rng, count):
    """Cycles in which a piece follows a fleeing one: the chaser's move a attacks the target,
    the target's move b takes it away (to a square the chaser's return move a' attacks), a'
    attacks it there, b' takes it back: a b a' b' twice, reaching the start a third time.
    The chaser is a rook, horse, cannon, advisor or elephant of either side, the target any
    piece it can capture after a; whether that is a chase is for the rules to say (protected
    targets, pins, exchanges, checks and discovered attacks all occur)."""
    made = tries = 0
    out = []
    while made < count and tries < count * 40:
        tries += 1
        fen0 = rng.choice(STARTS)
        pre = []
        for _ in range(rng.randint(2, 40)):
            legal = sf.legal_moves(V, fen0, pre)
            quiet = [m for m in legal if not sf.is_capture(V, fen0, pre, m)]
            if not legal:
                break
            pre.append(rng.choice(quiet if quiet and rng.random() < 0.7 else legal))
        if not sf.legal_moves(V, fen0, pre):
            continue
        fen = sf.get_fen(V, fen0, pre)
        board = board_of(fen)
        moves = sf.legal_moves(V, fen, [])
        rng.shuffle(moves)
        found = None
        for a in moves[:16]:
            mm = SQ.match(a)
            x, y = mm.group(1) + mm.group(2), mm.group(3) + mm.group(4)
            if board.get(x, "k") not in CHASERS or y in board:
                continue
            fen_a = sf.get_fen(V, fen, [a])
            targets = [t for f, t in captures(fen_a, by_other_side=True) if f == y]
            rng.shuffle(targets)
            for t in targets:
                flee = [b for b in sf.legal_moves(V, fen_a, []) if b.startswith(t) and SQ.match(b).group(3) + SQ.match(b).group(4) not in board_of(fen_a)]
                rng.shuffle(flee)
                for b in flee:
                    q = SQ.match(b).group(3) + SQ.match(b).group(4)
                    fen_b = sf.get_fen(V, fen_a, [b])
                    back = y + x
                    if back not in sf.legal_moves(V, fen_b, []):
                        continue
                    fen_c = sf.get_fen(V, fen_b, [back])
                    if (x, q) not in captures(fen_c, by_other_side=True):
                        continue
                    if q + t not in sf.legal_moves(V, fen_c, []):
                        continue
                    found = [a, b, back, q + t]
                    break
                if found:
                    break
            if found:
                break
        if not found:
            continue
        cycle = found + found
        v = verdict(fen, cycle)
        if v == "ongoing":
            continue
        out.append(("chase-%d" % made, fen, " ".join(from_ff(m) for m in cycle), v))
        made += 1
    return out


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "table":
        sys.exit(check_table(sys.argv[2]))
    if len(sys.argv) >= 4 and sys.argv[1] == "generate":
        count = int(sys.argv[3])
        rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
        cases = chase_cycles(rng, count)
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            f.write("# name\tfen\tmoves\tpyffish verdict (pyffish %s)\n" % sf.version())
            for c in cases:
                f.write("\t".join(c) + "\n")
        print("%d chase cycles written to %s" % (len(cases), sys.argv[2]), file=sys.stderr)
        return
    print(__doc__, file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
