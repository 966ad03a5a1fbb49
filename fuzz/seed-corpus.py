#!/usr/bin/env python3
"""Writes starting corpora for the fuzz targets from the repository's own data.

    python3 fuzz/seed-corpus.py [--qi target/release/qi] [--games 150]

Seeds `fuzz/corpus/<target>/` for fen, notation, pgn, link_seed, link_compact,
engine_protocol, uci_loop, preview_link, games_tsv, puzzle_file, huarong_text, huarong_code,
xqf, dhtmlxq and cbr (api_json and api_call were seeded by hand,
see README.md). Inputs come from crates/xiangqi/tests/data (games, perft and rulings
positions), the PGN example and the Huarong Dao classics and puzzles; FENs, other notations
and links are written by the `qi` binary, so a build of it is needed. Existing files are kept:
a corpus only grows. Standard library only.
"""

import argparse
import hashlib
import json
import pathlib
import random
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "crates/xiangqi/tests/data"
CORPUS = ROOT / "fuzz/corpus"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def rows(path):
    """Tab-separated rows of a data file, comments skipped."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


def write(target, data):
    """Writes one input, named by its content as libFuzzer does."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


class Qi:
    def __init__(self, binary):
        self.binary = str(binary)

    def run(self, *args):
        return subprocess.run([self.binary, *args], check=True, capture_output=True, text=True).stdout.strip()

    def convert(self, fen, moves, notation):
        """The moves in `notation` and the FEN after them."""
        out = json.loads(self.run("moves", "convert", "--json", "--to", notation, "--fen", fen, *moves))
        return out["moves"], out["fen"]

    def link(self, fen, moves, form):
        return self.run("link", "encode", "--format", form, "--fen", fen, *moves)


def with_counters(fen, halfmoves, fullmove):
    return " ".join(fen.split()[:4] + [str(halfmoves), str(fullmove)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qi", default=ROOT / "target/release/qi", help="the qi binary")
    parser.add_argument("--games", type=int, default=150, help="games sampled from games.tsv")
    args = parser.parse_args()
    qi = Qi(args.qi)
    rng = random.Random(10)

    games = [(r[1], r[2].split()) for r in rows(DATA / "games.tsv")]
    games = rng.sample(games, min(args.games, len(games)))
    starts = [r[1] for r in rows(DATA / "perft.tsv")] + [r[1] for r in rows(DATA / "rulings.tsv")]

    for fen in starts:
        write("fen", fen)
    pgn_games = []
    for index, (fen, moves) in enumerate(games):
        cut = rng.randrange(1, len(moves)) if len(moves) > 1 else len(moves)
        prefix, after = moves[:cut], moves[cut : cut + 1]
        _, here = qi.convert(fen, prefix, "iccs")
        write("fen", here)
        write("fen", with_counters(here, rng.randrange(0, 120), rng.randrange(1, 300)))
        # The next move in each notation, from the position it is played in.
        for notation in ("iccs", "wxf", "chinese"):
            if after:
                written, _ = qi.convert(here, after, notation)
                write("notation", f"{here}|{written[0]}")
        # Links: a game from its start, and from a later position with move counters (version 2).
        write("link_compact", qi.link(fen, moves, "compact").removeprefix("g="))
        counted = with_counters(here, rng.randrange(1, 100), rng.randrange(2, 200))
        rest = moves[cut:]
        write("link_compact", qi.link(counted, rest, "compact").removeprefix("g="))
        seed = dict(part.split("=", 1) for part in qi.link(fen, moves, "seed").split("&"))
        write("link_seed", f"{seed['p']}|{seed.get('r', '')}")
        # (The seed format has no move counters: its starts have the default ones.)
        seed = dict(part.split("=", 1) for part in qi.link(with_counters(here, 0, 1), rest, "seed").split("&"))
        write("link_seed", f"{seed['p']}|{seed.get('r', '')}")
        # UCI / UCCI: a game's position commands and the ways to start a search.
        fen_moves = f"fen {fen} moves {' '.join(moves)}"
        write("engine_protocol", f"uci\nisready\nposition {fen_moves}\ngo wtime 300000 btime 300000 winc 2000 binc 2000\n")
        write("engine_protocol", f"ucci\nposition {fen_moves}\ngo time 300000 increment 2000 opptime 280000\n")
        if index % 5 == 0:
            write("uci_loop", f"uci\nisready\nposition {fen_moves}\ngo wtime 300000 btime 300000\nquit\n")
            write("uci_loop", f"ucci\r\nposition {fen_moves}\r\ngo ponder time 9000\r\nponderhit\r\n")
        # Previews: the first byte picks oEmbed (raw, or as a board link's url), the board
        # page, the embed page or the card; the rest is the link's query.
        compact, seed_query = qi.link(fen, moves, "compact"), qi.link(fen, moves, "seed")
        plain = f"fen={fen.replace(' ', '%20')}&moves={'.'.join(moves)}"
        for pick, query in enumerate((compact, seed_query, plain, f"{compact}&ply=3&flip=1", plain)):
            if index % 10 == pick:
                write("preview_link", bytes([pick]) + query.encode())
                write("preview_link", bytes([(pick + 1) % 5]) + query.encode())
        if index % 3 == 0:
            notation = ("wxf", "chinese", "iccs")[index // 3 % 3]
            written, _ = qi.convert(fen, moves, notation)
            headers = f'[Game "Chinese Chess"]\n[FEN "{fen}"]\n[Format "{notation.upper()}"]\n[Result "*"]\n\n'
            numbered = " ".join(f"{n // 2 + 1}. {m}" if n % 2 == 0 else m for n, m in enumerate(written))
            pgn_games.append(headers + numbered + " *\n")

    for text in pgn_games:
        write("pgn", text)
        write("pgn", text.encode("gbk", errors="replace"))
    write("pgn", (ROOT / "crates/xiangqi/examples/data/sample.pgn").read_bytes())
    # Several games in one input, near the server's 64 KiB body limit.
    big = ""
    for text in pgn_games * 8:
        if len(big) + len(text) > 60000:
            break
        big += text + "\n"
    write("pgn", big)

    for line in (
        "uci\nucinewgame\nisready\nsetoption name Hash value 64\nsetoption name MultiPV value 3\n",
        "position startpos\ngo depth 12\nstop\nquit\n",
        "position startpos moves h2e2 h9g7\ngo movetime 1000\n",
        "position startpos\ngo infinite\nponderhit\nstop\n",
        "position startpos\ngo nodes 100000 searchmoves h2e2 b2e2\n",
        "ucci\nbanmoves h2e2\nposition startpos\ngo depth 8\n",
        "setoption name Threads value 1\nsetoption name Clear Hash\n",
        "position startpos\ngo wtime 0 btime 0 movestogo 40\n",
    ):
        write("engine_protocol", line)
    for text in (
        b"uci\nposition startpos\ngo depth 2\ngo depth -5\ngo foo\ngo nodes 1e30\nisready\nquit\n",
        b"uci\n\xff\xfe\nposition startpos moves h2e2\ngo movetime 1\n",
        b"ucci\nposition startpos\ngo infinite\nstop\nprobe startpos\n",
        b"position startpos\ngo " + b"x" * 70000 + b"\nisready",
        b"setoption name MultiPV value 3\nsetoption name Level value 1\nposition startpos\ngo depth 2\n",
    ):
        write("uci_loop", text)
    for query in ("g=", "p=&r=", "moves=h2e2.h9g7&lang=zh", "url=http%3A%2F%2Fh%2Fembed%3Fmoves%3Dh2e2&maxwidth=300",
                  "fen=3k5/R8/9/9/9/9/9/9/8R/4K4%20w%20-%20-%200%201&moves=i1i9"):
        for pick in range(5):
            write("preview_link", bytes([pick]) + query.encode())
    longest = max(games, key=lambda g: len(g[1]))
    write("engine_protocol", f"position fen {longest[0]} moves {' '.join(longest[1])}\ngo depth 1\n" * 40)

    # Data files as they are read: games files of a few lines, puzzle files with their header.
    game_lines = [line for line in (DATA / "games.tsv").read_text(encoding="utf-8").splitlines()
                  if line and not line.startswith("#")]
    for start in range(0, 60, 3):
        write("games_tsv", "# id\tstart_fen\tmoves\n" + "\n".join(game_lines[start : start + 3]) + "\n")
    puzzle_text = (ROOT / "crates/puzzle/data/puzzles.tsv").read_text(encoding="utf-8").splitlines()
    header = [line for line in puzzle_text if line.startswith("#")]
    puzzles = [line for line in puzzle_text if line and not line.startswith("#")]
    for start in range(0, 100, 5):
        write("puzzle_file", "\n".join(header + puzzles[start : start + 5]) + "\n")

    layouts = [r[1] for r in rows(ROOT / "crates/huarong/data/huarong-classic.tsv")]
    layouts += [r[1] for r in rows(ROOT / "crates/huarong/data/puzzles.tsv")][:200]
    for layout in layouts:
        write("huarong_text", layout)
        write("huarong_text", layout.replace("/", "\n") + "\n")
    for entry in json.loads(qi.run("huarong", "list", "--json"))["layouts"]:
        write("huarong_code", entry["share_code"])

    # Records: the real XQF files, each also as DhtmlXQ, and a few games as DhtmlXQ.
    records = DATA / "records"
    for path in sorted(records.glob("*.xqf")):
        write("xqf", path.read_bytes())
        block = qi.run("record", "convert", str(path), "--to", "dhtmlxq")
        write("dhtmlxq", block)
        write("dhtmlxq", block.encode("gbk", errors="replace"))
        write("dhtmlxq", "<p>" + block.replace("\n", "<br />") + "</p>")
    for text in pgn_games[:20]:
        proc = subprocess.run([qi.binary, "record", "convert", "-", "--to", "dhtmlxq"],
                              input=text.encode(), capture_output=True, check=True)
        write("dhtmlxq", proc.stdout)
    # The real DhtmlXQ pages (every header and movelist form the sites write): the
    # fuzzer found the record-number overflow within seconds once they were seeds.
    for path in sorted((records / "dhtmlxq").glob("*.html")):
        write("dhtmlxq", path.read_bytes())
    for path in sorted(records.glob("*.cb[rl]")):
        write("cbr", path.read_bytes())

    for folder in sorted(CORPUS.iterdir()):
        print(f"{folder.name}: {sum(1 for _ in folder.iterdir())} inputs")


if __name__ == "__main__":
    main()
