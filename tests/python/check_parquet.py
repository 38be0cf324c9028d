#!/usr/bin/env python3
"""Reads ajaxlab game files with pyarrow and DuckDB, as a user would, and checks
the documented schema. Usage: check_parquet.py FILE|DIRECTORY EXPECTED_ROWS
(a directory: every games file below it, a match's or a campaign's)."""
import json
import os
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

path, expected = sys.argv[1], int(sys.argv[2])
if os.path.isdir(path):
    files = sorted(str(f) for pattern in ("games-*.parquet", "unit-*.parquet")
                   for f in Path(path).rglob(pattern))
else:
    files = [path]
assert files, f"no games files in {path}"
table = pa.concat_tables([pq.read_table(f) for f in files])
assert table.num_rows == expected, (table.num_rows, expected)
columns = {
    "run_id": "string", "game_id": "uint64", "pair_id": "uint64", "variant": "string",
    "start_number": "uint32", "start_fen": "string", "opening_moves": "list<item: string not null>",
    "random_plies": "uint32", "seed": "uint64", "white_name": "string", "white_version": "string",
    "white_params": "list<item: int32 not null>", "black_name": "string", "black_version": "string",
    "black_params": "list<item: int32 not null>", "time_control": "string", "result": "string",
    "termination": "string", "plies": "uint32", "moves": "list<item: string not null>",
    "final_fen": "string", "scores": "list<item: int32>", "depths": "list<item: uint32>",
    "nodes": "list<item: uint64>", "times_ms": "list<item: uint32 not null>",
    "started_at": "timestamp[ms, tz=UTC]", "ended_at": "timestamp[ms, tz=UTC]",
}
schema = {f.name: str(f.type) for f in table.schema}
for name, kind in columns.items():
    assert schema.get(name) == kind, (name, schema.get(name), kind)
meta = pq.read_schema(files[0]).metadata
names = json.loads(meta[b"ajaxlab.param_names"])
assert "afc.falcon.mg" in names, names[:5]
rows = table.to_pylist()
for r in rows:
    assert r["result"] in ("1-0", "0-1", "1/2-1/2"), r["result"]
    assert r["plies"] == len(r["moves"]) == len(r["scores"]) == len(r["times_ms"])
    assert len(r["white_params"]) in (0, len(names))
con = duckdb.connect()
n, = con.execute("select count(*) from read_parquet(?)", [files]).fetchone()
assert n == expected
by_result = con.execute("select result, count(*) from read_parquet(?) group by result",
                        [files]).fetchall()
print(f"ok: {n} rows, {len(schema)} columns, results {dict(by_result)}")
