#!/usr/bin/env python3
"""Reads every game of an ajaxlab PGN file with another implementation.

Usage: check_pgn.py GAMES.pgn EXPECTED_GAMES

Chess and Chess960 games go through python-chess's PGN reader, which must
report no error and replay every move. Ajax games go through Fairy-Stockfish
(pyffish, with tests/fsf/fsf-variants.ini): each SAN token must be the
get_san of exactly one legal move, which is then played. Prints one line
per variant with the games and plies read; exits 1 on the first failure.
"""
import io
import os
import re
import sys

import chess.pgn
import pyffish as sf

FSF_NAMES = {"ajax-falcon": "ajaxfalcon", "ajax-modern-random": "ajaxrandom"}


def tokens(movetext):
    text = re.sub(r"\{[^}]*\}", " ", movetext)
    out = []
    for token in text.split():
        token = re.sub(r"^\d+\.+", "", token)
        if token and token not in ("1-0", "0-1", "1/2-1/2", "*"):
            out.append(token)
    return out


def replay_fsf(variant, fen, sans):
    current = fen
    for i, san in enumerate(sans):
        legal = sf.legal_moves(variant, current, [])
        # get_san only for moves to the token's destination (or castling).
        dest = re.findall(r"[a-j]\d+", san)
        near = [m for m in legal if san.startswith("O-O") or (dest and dest[-1 if "/" not in san else 0] in m)]
        found = [m for m in near if sf.get_san(variant, current, m) == san]
        if len(found) != 1:
            # Fairy-Stockfish leaves a gating move unqualified even when two
            # pieces could make it; ajaxlab qualifies it (Nde2/M): accept a
            # qualified token naming one of the moves get_san would name.
            found = [m for m in near if qualified(variant, current, m, san)]
        if len(found) != 1:
            sys.exit(f"{variant}: token {i + 1} '{san}' names {found} at {current}")
        current = sf.get_fen(variant, current, found[0:1])
    return len(sans)


def qualified(variant, fen, move, san):
    plain = sf.get_san(variant, fen, move)
    if "/" not in plain or plain[0] in "abcdefghijO":
        return False
    origin = move[:2]
    head, dest = plain[0], plain[1:]
    return san in (head + origin[0] + dest, head + origin[1:] + dest, head + origin + dest)


def main():
    path, expected = sys.argv[1], int(sys.argv[2])
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "fsf", "fsf-variants.ini"), encoding="utf-8") as f:
        sf.load_variant_config(f.read())
    with open(path, encoding="utf-8") as f:
        text = f.read()
    counts = {}
    for chunk in re.split(r"\n\n(?=\[Event )", text.strip()):
        head, movetext = chunk.split("\n\n", 1)
        headers = dict(re.findall(r'^\[(\w+) "(.*)"\]$', head, re.M))
        variant = headers.get("Variant", "Standard")
        sans = tokens(movetext)
        if variant in FSF_NAMES:
            fen = headers.get("FEN") or sf.start_fen(FSF_NAMES[variant])
            plies = replay_fsf(FSF_NAMES[variant], fen, sans)
        else:
            game = chess.pgn.read_game(io.StringIO(chunk))
            if game is None or game.errors:
                sys.exit(f"python-chess: {game and game.errors} in {head}")
            plies = len(list(game.mainline_moves()))
            if plies != len(sans):
                sys.exit(f"python-chess read {plies} of {len(sans)} moves in {head}")
        games, total = counts.get(variant, (0, 0))
        counts[variant] = (games + 1, total + plies)
    read = sum(g for g, _ in counts.values())
    if read != expected:
        sys.exit(f"read {read} games, expected {expected}")
    for variant, (games, plies) in sorted(counts.items()):
        print(f"{variant}: {games} games, {plies} plies read")


if __name__ == "__main__":
    main()
