#!/usr/bin/env python3
"""Game-end cases judged by pyffish (Fairy-Stockfish), for crates/xiangqi/tests/game_end_pyffish.rs.

Builds positions and move sequences that reach each ending (checkmate, stalemate, perpetual
check, perpetual chase, plain repetition, the move limit, no attackers) plus random games and
random repetition cycles, asks pyffish for its verdict, and writes one TSV line per case:

    name  fen  moves (ICCS, ranks 0-9)  outcome  how  insufficient

outcome: ongoing | red wins | black wins | draw. how: nomoves (game_result), optional
(is_optional_game_end), immediate (is_immediate_game_end) or none. insufficient: pyffish's
has_insufficient_material for Red and Black, e.g. "1 1".

pyffish's xiangqi rules: 3-fold repetition with perpetual check and chasing rules, the
50-move (100-ply) rule; material draws are only reported by has_insufficient_material.

Usage: game_end.py OUT.tsv [SEED]
"""
import random
import re
import sys

import pyffish as sf

V = "xiangqi"
START = sf.start_fen(V)


def to_ff(m):
    return re.sub(r"([a-i])(\d)", lambda x: x.group(1) + str(int(x.group(2)) + 1), m)


def from_ff(m):
    return re.sub(r"([a-i])(\d+)", lambda x: x.group(1) + str(int(x.group(2)) - 1), m)


def side_to_move(fen, n):
    red = fen.split()[1] in ("w", "r")
    return "red" if red == (n % 2 == 0) else "black"


def verdict(fen, moves):
    """pyffish's outcome after `moves` (pyffish notation) from `fen`."""
    side = side_to_move(fen, len(moves))
    if not sf.legal_moves(V, fen, moves):
        r, how = sf.game_result(V, fen, moves), "nomoves"
    else:
        end, r = sf.is_optional_game_end(V, fen, moves)
        how = "optional"
        if not end:
            end, r = sf.is_immediate_game_end(V, fen, moves)
            how = "immediate"
            if not end:
                r, how = None, "none"
    if r is None:
        outcome = "ongoing"
    elif r == 0:
        outcome = "draw"
    else:
        winner = side if r > 0 else ("black" if side == "red" else "red")
        outcome = winner + " wins"
    ins = sf.has_insufficient_material(V, fen, moves)
    return outcome, how, "%d %d" % (int(ins[0]), int(ins[1]))


# Hand-made cases: (name, fen, ICCS moves with ranks 0-9).
HAND = [
    ("mate-rook", "3k5/9/3P5/9/9/9/9/9/9/4K3R w - - 0 1", "i0i9"),
    ("mate-two-rooks", "4k4/9/9/9/9/9/9/r8/1r7/3K5 b - - 0 1", "a2a0"),
    ("stalemate", "4k4/3P1P3/9/9/9/9/9/9/9/3K5 b - - 0 1", ""),
    ("perpetual-check", "4k4/9/9/9/R8/9/9/9/9/5K3 w - - 0 1", "a5e5 e9d9 e5d5 d9e9 d5e5 e9d9 e5d5 d9e9 d5e5"),
    ("perpetual-check-black", "5k3/9/9/9/9/r8/9/9/9/4K4 b - - 0 1", "a4e4 e0d0 e4d4 d0e0 d4e4 e0d0 e4d4 d0e0 d4e4"),
    ("chase-rook-cannon", "5k3/9/2c6/9/9/9/2R6/9/9/4K4 b - - 0 1", "c7d7 c3d3 d7c7 d3c3 c7d7 c3d3 d7c7 d3c3"),
    ("chase-protected", "5k3/9/2c4r1/9/9/9/2R6/9/9/4K4 b - - 0 1", "c7d7 c3d3 d7c7 d3c3 c7d7 c3d3 d7c7 d3c3"),
    ("chase-by-pawn", "3k5/9/9/9/9/9/7p1/7C1/9/4K4 w - - 0 1", "h2g2 h3g3 g2h2 g3h3 h2g2 h3g3 g2h2 g3h3"),
    ("chase-by-rook", "3k5/9/9/9/9/9/7r1/7C1/9/4K4 w - - 0 1", "h2g2 h3g3 g2h2 g3h3 h2g2 h3g3 g2h2 g3h3"),
    ("chase-horse-by-cannon", "3k5/9/9/9/9/9/9/9/1n7/C3K4 b - - 0 1", "b1c3 a0c0 c3b1 c0a0 b1c3 a0c0 c3b1 c0a0"),
    ("repetition-start", START, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9"),
    ("move-limit", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 99 80", "a1a2"),
    ("move-limit-not-yet", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 98 80", "a1a2"),
    ("no-attackers", "3k5/4a4/9/9/9/9/9/4B4/9/4K4 w - - 0 1", ""),
    ("no-attackers-after-capture", "3k5/4a4/9/9/9/9/9/4B4/4p4/4K4 w - - 0 1", "e0e1"),
    ("one-pawn-left", "3k5/4a4/9/9/P8/9/9/4B4/9/4K4 w - - 0 1", ""),
]

SPARSE = [
    "3ak4/4a4/4b4/9/2p6/6R2/9/4B4/4A4/3AK1C2 w - - 0 1",
    "2bak4/4a4/4b4/9/9/2r6/9/4B4/4A1n2/2CAK4 w - - 0 1",
    "4k4/4a4/4b4/4N4/9/9/4r4/9/4A4/3AK4 b - - 0 1",
    "3k5/9/9/9/9/9/9/9/4A4/3AK1R2 w - - 0 1",
    "2b1k4/4a4/9/p3R4/9/9/4c4/9/9/3K5 w - - 0 1",
    "3k1ab2/4a4/9/6N2/2p6/9/9/2n6/4A4/4K4 w - - 0 1",
]


def random_games(rng, out, count):
    for g in range(count):
        fen = rng.choice(SPARSE + [START])
        moves = []
        for ply in range(rng.randint(20, 160)):
            legal = sf.legal_moves(V, fen, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
            if ply % 7 == 0:
                end, _ = sf.is_optional_game_end(V, fen, moves)
                if end:
                    break
        out.append(("random-%d" % g, fen, moves))


def reverse(m):
    return m[2:] + m[:2] if len(m) == 4 else None


def split(m):
    mm = re.match(r"([a-i]\d+)([a-i]\d+)", m)
    return mm.group(2) + mm.group(1)


def random_cycles(rng, out, count, prefer_checks):
    made = 0
    tries = 0
    while made < count and tries < count * 20:
        tries += 1
        fen = rng.choice(SPARSE + [START])
        moves = []
        for _ in range(rng.randint(0, 30)):
            legal = sf.legal_moves(V, fen, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        cycle = []
        ok = True
        for step in range(2):
            legal = sf.legal_moves(V, fen, moves + cycle)
            quiet = [m for m in legal if not sf.is_capture(V, fen, moves + cycle, m)]
            if prefer_checks and step == 0:
                checks = [m for m in quiet if sf.gives_check(V, fen, moves + cycle + [m])]
                quiet = checks or quiet
            if not quiet:
                ok = False
                break
            cycle.append(rng.choice(quiet))
        if not ok:
            continue
        back = [split(cycle[0]), split(cycle[1])]
        seq = cycle[:1] + [cycle[1]] + back
        # a b a' b' twice: the position before a occurs for the third time.
        full = moves[:]
        good = True
        for m in seq + seq:
            if m not in sf.legal_moves(V, fen, full):
                good = False
                break
            full.append(m)
        if not good:
            continue
        out.append(("cycle-%s%d" % ("check-" if prefer_checks else "", made), fen, full))
        made += 1


SQ = re.compile(r"([a-i]\d+)([a-i]\d+)")


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


def captures_from(fen, sq):
    """Squares the piece on `sq` could capture on if it were its side's turn."""
    parts = fen.split()
    parts[1] = "b" if parts[1] == "w" else "w"
    swapped = " ".join(parts)
    board = board_of(swapped)
    try:
        legal = sf.legal_moves(V, swapped, [])
    except Exception:
        return []
    out = []
    for m in legal:
        a, b = SQ.match(m).groups()
        if a == sq and b in board and board[b].lower() != "k":
            out.append(b)
    return out


def chase_cycles(rng, out, count):
    """Cycles where a rook, horse or cannon follows a piece: a attacks it, b moves it away,
    a' (a taken back) attacks it again on its new square, b' takes it back."""
    made = tries = 0
    while made < count and tries < count * 30:
        tries += 1
        fen0 = rng.choice(SPARSE + [START])
        pre = []
        for _ in range(rng.randint(0, 20)):
            legal = sf.legal_moves(V, fen0, pre)
            if not legal:
                break
            pre.append(rng.choice(legal))
        fen = sf.get_fen(V, fen0, pre)
        board = board_of(fen)
        legal = sf.legal_moves(V, fen, [])
        rng.shuffle(legal)
        found = None
        for a in legal[:12]:
            x, y = SQ.match(a).groups()
            if board.get(x, "k").lower() not in "rnc" or y in board:
                continue
            fen_a = sf.get_fen(V, fen, [a])
            for t in captures_from(fen_a, y):
                for b in sf.legal_moves(V, fen_a, []):
                    bx, by = SQ.match(b).groups()
                    if bx != t or by in board_of(fen_a):
                        continue
                    fen_b = sf.get_fen(V, fen_a, [b])
                    if y + x not in sf.legal_moves(V, fen_b, []):
                        continue
                    fen_c = sf.get_fen(V, fen_b, [y + x])
                    if by not in captures_from(fen_c, x) or by + bx not in sf.legal_moves(V, fen_c, []):
                        continue
                    found = [a, b, y + x, by + bx]
                    break
                if found:
                    break
            if found:
                break
        if found:
            out.append(("cycle-chase-%d" % made, fen0, pre + found + found))
            made += 1


def main():
    path = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    cases = [(n, f, [to_ff(m) for m in ms.split()]) for n, f, ms in HAND]
    random_games(rng, cases, 60)
    random_cycles(rng, cases, 80, False)
    random_cycles(rng, cases, 80, True)
    chase_cycles(rng, cases, 40)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# name\tfen\tmoves\toutcome\thow\tinsufficient (from pyffish %s)\n" % (sf.version(),))
        for name, fen, moves in cases:
            outcome, how, ins = verdict(fen, moves)
            f.write("\t".join([name, fen, " ".join(from_ff(m) for m in moves), outcome, how, ins]) + "\n")
    print("%d cases written to %s" % (len(cases), path), file=sys.stderr)


if __name__ == "__main__":
    main()
