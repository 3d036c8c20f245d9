#!/usr/bin/env python3
"""Commit latency of a streaming table at 10 vs N commits with snapshot
expiration running (issue 10 target: ratio <= 1.2).

Runs bench/commit_latency_maintenance_bench (C++: the real SQLite catalog,
local object store, commit engine and maintenance service; a delivery-style
FastAppend of one data file per commit; snapshot expiration in a second
thread every --expire-every commits; the injected clock advances
--seconds-per-commit per commit). Prints the median commit latency over
commits 1-10 and over the last 100 commits, their ratio, and the metadata
file size and snapshot count at the end; with --baseline-commits, the same
without expiration for contrast.

  .venv/bin/python bench/commit_latency_maintenance_bench.py --build-dir build \\
      [--commits 10000] [--baseline-commits 2000]
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import tempfile


def run(tool: pathlib.Path, commits: int, expire: bool, args) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="st-commit-bench-") as work:
        out = subprocess.run(
            [str(tool), "--dir", work, "--commits", str(commits),
             "--expire", "on" if expire else "off", "--expire-every", str(args.expire_every),
             "--seconds-per-commit", str(args.seconds_per_commit),
             "--max-age-hours", str(args.max_age_hours), "--keep", str(args.keep)],
            check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def summary(label: str, samples: list[dict]) -> dict:
    first = statistics.median(s["ms"] for s in samples[:10])
    tail = samples[-100:] if len(samples) > 100 else samples[-10:]
    last = statistics.median(s["ms"] for s in tail)
    row = {"run": label, "commits": len(samples), "median_ms_commits_1_10": round(first, 3),
           f"median_ms_last_{len(tail)}": round(last, 3), "ratio": round(last / first, 3),
           "metadata_bytes_end": samples[-1]["metadata_bytes"],
           "snapshots_end": samples[-1]["snapshots"]}
    print(json.dumps(row))
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--commits", type=int, default=10000)
    parser.add_argument("--baseline-commits", type=int, default=0)
    parser.add_argument("--expire-every", type=int, default=50)
    parser.add_argument("--seconds-per-commit", type=int, default=60)
    parser.add_argument("--max-age-hours", type=int, default=1)
    parser.add_argument("--keep", type=int, default=1)
    args = parser.parse_args()
    tool = pathlib.Path(args.build_dir) / "bench" / "commit_latency_maintenance_bench"
    with_expiration = run(tool, args.commits, True, args)
    summary("expiration on", with_expiration)
    if args.baseline_commits:
        summary("expiration off", run(tool, args.baseline_commits, False, args))


if __name__ == "__main__":
    main()
