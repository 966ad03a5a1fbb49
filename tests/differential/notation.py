#!/usr/bin/env python3
"""WXF notation of every move of tests/data/games.tsv as pyffish writes it, for
crates/xiangqi/tests/notation_pyffish.rs. Output TSV: id, start FEN, ICCS moves, WXF moves.

pyffish writes `=` for a sideways move where WXF also allows `.`; for tandem pawns it uses its
own ordinal-and-file form (`27=8`), which the Rust test leaves out.

Usage: notation.py GAMES.tsv OUT.tsv
"""
import re
import sys

import pyffish as sf


def to_ff(m):
    return re.sub(r"([a-i])(\d)", lambda x: x.group(1) + str(int(x.group(2)) + 1), m)


def main():
    src, out = sys.argv[1], sys.argv[2]
    n = 0
    with open(src, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as o:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            moves = cols[2].split()
            wxf = sf.get_san_moves("xiangqi", cols[1], [to_ff(m) for m in moves], False, sf.NOTATION_XIANGQI_WXF)
            o.write("\t".join([cols[0], cols[1], cols[2], " ".join(wxf)]) + "\n")
            n += 1
    print("%d games written to %s" % (n, out), file=sys.stderr)


if __name__ == "__main__":
    main()
