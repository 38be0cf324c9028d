#!/usr/bin/env python3
"""Time to depth of UCI engines on the same positions, measured in one run.

For each position and each engine: `go depth D` from a fresh game
(`ucinewgame`), the wall time until `bestmove`, the nodes of the last `info`
line, and nodes per second. Engines alternate position by position, so a
machine that slows down slows both alike.

    scripts/time-to-depth.py --depth 10 \
        --engine old=/path/to/old/ajaxlab --engine new=target/release/ajaxlab

Each engine is started as `PATH uci`. Positions default to the Ajax Falcon
Chess and Ajax Modern Random Chess start positions; `--fen VARIANT:FEN`
adds others (variant as the engine's UCI_Variant names it).
"""

import argparse
import subprocess
import sys
import time

DEFAULT_POSITIONS = [
    ("ajaxfalcon",
     "rnbmqkmbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBMQKMBNR[FFff] w KQkq - 0 1"),
    ("ajaxrandom",
     "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBKQABNR[MMmm] w IABCDEFGHiabcdefgh - 0 1"),
]


class Engine:
    def __init__(self, name, path):
        self.name = name
        self.proc = subprocess.Popen([path, "uci"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"{self.name}: engine exited while waiting for '{prefix}'")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def search(self, variant, fen, depth):
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait("readyok")
        started = time.perf_counter()
        self.send(f"go depth {depth}")
        lines = self.wait("bestmove")
        seconds = time.perf_counter() - started
        nodes = 0
        for line in lines:
            words = line.split()
            if words[:1] == ["info"] and "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
        return seconds, nodes

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--engine", action="append", required=True,
                        help="NAME=PATH of an ajaxlab-style binary (started as PATH uci)")
    parser.add_argument("--fen", action="append", default=[],
                        help="VARIANT:FEN of another position")
    args = parser.parse_args()
    positions = list(DEFAULT_POSITIONS)
    for item in args.fen:
        variant, _, fen = item.partition(":")
        if not fen:
            sys.exit(f"--fen {item!r}: expected VARIANT:FEN")
        positions.append((variant, fen))
    engines = []
    for item in args.engine:
        name, _, path = item.partition("=")
        if not path:
            sys.exit(f"--engine {item!r}: expected NAME=PATH")
        engines.append(Engine(name, path))
    print(f"{'position':<12} {'engine':<10} {'depth':>5} {'seconds':>9} {'nodes':>12} {'knps':>8}")
    for variant, fen in positions:
        for engine in engines:
            seconds, nodes = engine.search(variant, fen, args.depth)
            print(f"{variant:<12} {engine.name:<10} {args.depth:>5} {seconds:>9.3f} "
                  f"{nodes:>12} {nodes / max(seconds, 1e-9) / 1000:>8.0f}", flush=True)
    for engine in engines:
        engine.quit()


if __name__ == "__main__":
    main()
