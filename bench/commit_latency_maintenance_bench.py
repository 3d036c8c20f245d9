#!/usr/bin/env python3
"""Commit latency of a streaming table at 10 vs N commits with snapshot
expiration running (issue 10 target: ratio <= 1.2).

Runs bench/commit_latency_maintenance_bench (C++: the real SQLite catalog,
local object store, commit engine and maintenance service; a delivery-style
FastAppend of one data file per commit; snapshot expiration in a second
thread every --expire-every commits; the injected clock advances
--seconds-per-commit per commit). Prints the median commit latency over
commits 1-10, 901-1000 and the last 100, the ratios of the last to the
first two, and the metadata file size and snapshot count; with
--baseline-commits, the same without expiration for contrast.

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


def median_ms(samples: list[dict], first: int, last: int) -> float:
    """Median latency of commits first..last (1-based, inclusive)."""
    return statistics.median(s["ms"] for s in samples[first - 1:last])


def summary(label: str, samples: list[dict]) -> dict:
    n = len(samples)
    at_10 = median_ms(samples, 1, 10)
    row = {"run": label, "commits": n, "median_ms_commits_1_10": round(at_10, 3)}
    # The window of kept snapshots fills within the first few hundred
    # commits; from there on a flat cost means the same median at 1,000 and N.
    if n >= 1000:
        row["median_ms_commits_901_1000"] = round(median_ms(samples, 901, 1000), 3)
    tail_from = max(1, n - 99)
    at_n = median_ms(samples, tail_from, n)
    row[f"median_ms_commits_{tail_from}_{n}"] = round(at_n, 3)
    row["ratio_n_vs_10"] = round(at_n / at_10, 3)
    if n >= 1000:
        row["ratio_n_vs_1000"] = round(at_n / row["median_ms_commits_901_1000"], 3)
    row["metadata_bytes_at_10"] = samples[min(9, n - 1)]["metadata_bytes"]
    row["metadata_bytes_end"] = samples[-1]["metadata_bytes"]
    row["snapshots_end"] = samples[-1]["snapshots"]
    print(json.dumps(row), flush=True)
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
    parser.add_argument("--samples-out", help="write every commit's sample here (JSON lines)")
    args = parser.parse_args()
    tool = pathlib.Path(args.build_dir) / "bench" / "commit_latency_maintenance_bench"
    with_expiration = run(tool, args.commits, True, args)
    if args.samples_out:
        pathlib.Path(args.samples_out).write_text(
            "".join(json.dumps(s) + "\n" for s in with_expiration))
    summary("expiration on", with_expiration)
    if args.baseline_commits:
        summary("expiration off", run(tool, args.baseline_commits, False, args))


if __name__ == "__main__":
    main()
