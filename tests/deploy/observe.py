#!/usr/bin/env python3
"""What the deploy tests read of a running coordinator and of its games, as
an operator would: the status page's JSON, its Prometheus metrics, and the
Parquet files (with DuckDB).

  observe.py campaign HTTP_URL ID      prints: STATE PAIRS_DONE PAIRS_TOTAL
  observe.py metric HTTP_URL NAME      prints the metric's value (0 if absent)
  observe.py games CAMPAIGN_DIR        prints: ROWS DISTINCT_GAME_IDS

Exits 2 (saying why) when the coordinator does not answer, so a caller can
wait for it."""
import json
import sys
import urllib.error
import urllib.request


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode()
    except (urllib.error.URLError, OSError) as e:
        print(f"{url}: {e}", file=sys.stderr)
        sys.exit(2)


def campaign(base, name):
    for c in json.loads(fetch(f"{base}/api/campaigns")):
        if c["id"] == name:
            print(c["state"], c["pairs_done"], c["pairs_total"])
            return
    print(f"{base}/api/campaigns: no campaign {name}", file=sys.stderr)
    sys.exit(2)


def metric(base, name):
    for line in fetch(f"{base}/metrics").splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            print(int(float(line.rsplit(" ", 1)[1])))
            return
    print(0)


def games(directory):
    import duckdb

    [(rows, distinct)] = duckdb.sql(
        f"select count(*), count(distinct game_id) from '{directory}/unit-*.parquet'"
    ).fetchall()
    print(rows, distinct)


commands = {"campaign": campaign, "metric": metric, "games": games}
if len(sys.argv) < 3 or sys.argv[1] not in commands:
    sys.exit(__doc__)
commands[sys.argv[1]](*sys.argv[2:])
