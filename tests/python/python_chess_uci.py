#!/usr/bin/env python3
"""Drives `ajaxlab uci` with python-chess (chess.engine) through hundreds of
chess and Chess960 positions: every best move must be legal and every info
line well formed. Usage: python_chess_uci.py AJAXLAB_BINARY"""
import random
import sys

import chess
import chess.engine

binary = sys.argv[1]
rng = random.Random(2026)
checked = {"chess": 0, "chess960": 0}
with chess.engine.SimpleEngine.popen_uci([binary, "uci"]) as engine:
    assert engine.id["name"].startswith("ajaxlab"), engine.id
    for game in range(40):
        chess960 = game % 2 == 1
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        board.chess960 = chess960
        for ply in range(rng.randrange(4, 12)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        for _ in range(8):
            if board.is_game_over(claim_draw=False):
                break
            result = engine.play(board, chess.engine.Limit(nodes=400), info=chess.engine.INFO_ALL)
            assert result.move in board.legal_moves, (board.fen(), result.move)
            info = result.info
            assert info.get("depth", 0) >= 1, info
            assert "score" in info and "nodes" in info and "pv" in info, info
            assert all(isinstance(m, chess.Move) for m in info["pv"]), info
            checked["chess960" if chess960 else "chess"] += 1
            board.push(result.move)
    analysis = engine.analyse(chess.Board(), chess.engine.Limit(depth=6))
    assert analysis["depth"] == 6, analysis
assert checked["chess"] >= 100 and checked["chess960"] >= 100, checked
print(f"ok: {checked}")
