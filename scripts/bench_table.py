#!/usr/bin/env python3
"""Medians of `troupe bench --json` runs as a Markdown table.

Reads JSON lines (files given, or stdin), groups runs by
(mix, nodes, placed_per_node, partitions, window) and prints one row per group
with the median of each figure and the number of runs.

    troupe bench --nodes 1000 --pods 2000 --mix cpu --runs 3 --json | python3 scripts/bench_table.py
"""
import json
import statistics
import sys

KEY = ("mix", "nodes", "placed_per_node", "partitions", "window")
FIGURES = ("pods_per_second", "latency_p50_ms", "latency_p99_ms", "peak_rss_bytes", "rss_bytes_per_node")


def rows(lines):
    for line in lines:
        line = line.strip()
        if line:
            yield json.loads(line)


def main(paths):
    lines = []
    if paths:
        for p in paths:
            with open(p) as f:
                lines.extend(f)
    else:
        lines = sys.stdin.readlines()
    groups = {}
    for r in rows(lines):
        groups.setdefault(tuple(r.get(k) for k in KEY), []).append(r)
    print("| mix | nodes | placed/node | partitions | window | runs | pods/s | p50 ms | p99 ms | peak RSS MiB | RSS B/node | failed |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key, runs in groups.items():
        med = {f: statistics.median(r[f] for r in runs) for f in FIGURES}
        failed = statistics.median(r["failed"] for r in runs)
        print("| %s | %d | %d | %d | %s | %d | %.0f | %.2f | %.2f | %.0f | %.0f | %d |" % (
            key[0], key[1], key[2], key[3], key[4] or "all", len(runs), med["pods_per_second"],
            med["latency_p50_ms"], med["latency_p99_ms"], med["peak_rss_bytes"] / 2**20,
            med["rss_bytes_per_node"], failed))


if __name__ == "__main__":
    main(sys.argv[1:])
