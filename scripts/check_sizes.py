#!/usr/bin/env python3
"""Fails when a source file is over 900 lines or a function over 150 lines.

The project's bounds on size (small modules with one job each): a longer
file or function is cut into named parts.
Usage: scripts/check_sizes.py CRATE_DIR...  (each searched for *.rs under
src/). A function's length runs from its `fn` line to the line that closes
its body, counted by braces outside strings, chars and comments.
"""
import pathlib
import re
import sys

MAX_FILE_LINES = 900
MAX_FN_LINES = 150
FN_START = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")
# Strings (with escapes), raw strings, char literals and comments: no brace
# in them counts.
NOISE = re.compile(
    r'r(#*)"[\s\S]*?"\1|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'|//[^\n]*|/\*[\s\S]*?\*/'
)


def blank_noise(text: str) -> str:
    """`text` with the inside of strings, chars and comments blanked, its
    line breaks kept so that line numbers stay."""
    return NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def long_functions(lines: list[str]):
    """(line, name, length) of each function over the bound."""
    i = 0
    while i < len(lines):
        m = FN_START.match(lines[i])
        if not m:
            i += 1
            continue
        depth, j, opened = 0, i, False
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            opened = opened or "{" in lines[j]
            if (opened and depth <= 0) or (not opened and lines[j].rstrip().endswith(";")):
                break
            j += 1
        if opened and j - i + 1 > MAX_FN_LINES:
            yield i + 1, m.group(6), j - i + 1
        i += 1


def main(crates: list[str]) -> int:
    problems = []
    for crate in crates:
        for path in sorted(pathlib.Path(crate, "src").rglob("*.rs")):
            text = path.read_text(encoding="utf-8")
            lines = blank_noise(text).split("\n")
            if text.endswith("\n"):
                lines.pop()
            if len(lines) > MAX_FILE_LINES:
                problems.append(f"{path}: {len(lines)} lines (at most {MAX_FILE_LINES})")
            for line, name, length in long_functions(lines):
                problems.append(f"{path}:{line}: fn {name} is {length} lines (at most {MAX_FN_LINES})")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"{len(problems)} over the bounds: cut them into named parts", file=sys.stderr)
        return 1
    print(f"sizes: every file of {', '.join(crates)} within {MAX_FILE_LINES} lines, every function within {MAX_FN_LINES}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: check_sizes.py CRATE_DIR... (as .ci/run gives them)", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
