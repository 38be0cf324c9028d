#!/usr/bin/env python3
"""Random playouts by Fairy-Stockfish (pyffish), the independent implementation
ajaxlab's rules are checked against.

Usage: playouts.py [--no-san] [VARIANTS_FILE]

Loads VARIANTS_FILE into Fairy-Stockfish (default: fsf-variants.ini beside this
script) and reads jobs from stdin, one per line: VARIANT<TAB>FEN<TAB>SEED<TAB>MAX_PLIES<TAB>CHESS960
(VARIANT is Fairy-Stockfish's UCI_Variant name, CHESS960 is 0 or 1). For each job
it plays uniformly random legal moves and prints, per game:

    G<TAB>FEN                                   the start position as FSF prints it
    P<TAB>FEN<TAB>LEGAL MOVES<TAB>CHOSEN MOVE<TAB>SAN   one line per position reached

where LEGAL MOVES are FSF's UCI strings, sorted, space-separated, CHOSEN MOVE
is '-' when the game ends (no legal move, or the ply limit), and SAN is FSF's
SAN of the chosen move (get_san, the form pychess writes in PGN), or '-'
(always '-' with --no-san: each pyffish call costs milliseconds).
"""
import os
import random
import sys

import pyffish as sf


def main() -> None:
    args = sys.argv[1:]
    with_san = "--no-san" not in args
    files = [a for a in args if a != "--no-san"]
    default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fsf-variants.ini")
    variants = files[0] if files else default
    with open(variants, encoding="utf-8") as f:
        sf.load_variant_config(f.read())
    out = sys.stdout
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        variant, fen, seed, max_plies, chess960 = line.split("\t")
        rng = random.Random(int(seed))
        is960 = chess960 == "1"
        fen = sf.get_fen(variant, fen, [], is960)
        out.write(f"G\t{fen}\n")
        for ply in range(int(max_plies) + 1):
            legal = sorted(sf.legal_moves(variant, fen, [], is960))
            chosen = rng.choice(legal) if legal and ply < int(max_plies) else "-"
            san = sf.get_san(variant, fen, chosen, is960) if with_san and chosen != "-" else "-"
            out.write(f"P\t{fen}\t{' '.join(legal)}\t{chosen}\t{san}\n")
            if chosen == "-":
                break
            fen = sf.get_fen(variant, fen, [chosen], is960)
    out.flush()


if __name__ == "__main__":
    main()
