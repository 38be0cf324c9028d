#!/usr/bin/env python3
"""A UCI engine that misbehaves on purpose, for the arena's robustness tests.

Usage: faulty_engine.py MODE N MARKER ENGINE [ARGS...]

It forwards everything to a real UCI engine (ENGINE ARGS...) and behaves
until the N-th `go` of its life, where, by MODE (only if the file MARKER does
not exist yet, which it then creates: a restarted engine behaves):
  crash    exits at once (a killed or crashed engine)
  hang     stops answering (a hung engine)
  garbage  answers 'bestmove z9z9' (a move that is not a move)
  illegal  answers with a well-formed but illegal move (a1a8)
  slow     thinks two seconds longer than asked (a loss on time on a short clock)
"""
import os
import subprocess
import sys
import time


def main() -> None:
    mode, n, marker, command = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    armed = not os.path.exists(marker)
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    gos = 0
    for line in sys.stdin:
        if line.startswith("go"):
            gos += 1
            if gos == n and armed:
                open(marker, "w").close()
                if mode == "crash":
                    engine.kill()
                    sys.exit(3)
                if mode == "hang":
                    while True:
                        time.sleep(60)
                if mode == "slow":
                    time.sleep(2)
                if mode in ("garbage", "illegal"):
                    print("info depth 1 score cp 0", flush=True)
                    print("bestmove z9z9" if mode == "garbage" else "bestmove a1a8", flush=True)
                    continue
        engine.stdin.write(line)
        engine.stdin.flush()
        if line.strip() == "quit":
            break
        expect = {"uci": "uciok", "isready": "readyok"}.get(line.split()[0] if line.split() else "")
        if line.startswith("go"):
            expect = "bestmove"
        while expect:
            out = engine.stdout.readline()
            if not out:
                sys.exit(1)
            sys.stdout.write(out)
            sys.stdout.flush()
            if out.startswith(expect):
                break
    engine.wait()


if __name__ == "__main__":
    main()
