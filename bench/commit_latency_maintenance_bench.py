#!/usr/bin/env python3
"""Commit latency of a streaming table at 10 vs N commits with snapshot
expiration running (issue 10 target: ratio <= 1.2), on the SQLite catalog
and, with --backends sqlite,postgresql,postgresql+s3, on a real PostgreSQL
15 server (tools/pg_cluster.sh: initdb into a temp dir, loopback port) and
on PostgreSQL with the objects in a real s3proxy (the scale-out
configuration), in the same script (issue 13: commit latency on PostgreSQL
vs SQLite at 10 and 10,000 commits).

Runs bench/commit_latency_maintenance_bench (C++: the real SQLite catalog,
local object store, commit engine and maintenance service; a delivery-style
FastAppend of one data file per commit; snapshot expiration in a second
thread every --expire-every commits; the injected clock advances
--seconds-per-commit per commit). Prints the median commit latency over
commits 1-10, 901-1000 and the last 100, the ratios of the last to the
first two, and the metadata file size and snapshot count; with
--baseline-commits, the same without expiration for contrast.

  .venv/bin/python bench/commit_latency_maintenance_bench.py --build-dir build \\
      [--commits 10000] [--baseline-commits 2000] [--backends sqlite,postgresql,postgresql+s3]
"""

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import uuid

REPO = pathlib.Path(__file__).resolve().parent.parent


def run(tool: pathlib.Path, commits: int, expire: bool, args, where: tuple) -> list[dict]:
    catalog, object_store, env = where
    with tempfile.TemporaryDirectory(prefix="st-commit-bench-") as work:
        out = subprocess.run(
            [str(tool), "--dir", work, "--commits", str(commits),
             *(["--catalog", catalog] if catalog else []),
             *(["--object-store", object_store] if object_store else []),
             "--expire", "on" if expire else "off", "--expire-every", str(args.expire_every),
             "--seconds-per-commit", str(args.seconds_per_commit),
             "--max-age-hours", str(args.max_age_hours), "--keep", str(args.keep)],
            check=True, capture_output=True, text=True, env=env)
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
    row["retries"] = sum(s.get("retries", 0) for s in samples)
    # One table's commits are serial (a compare-and-swap on its pointer):
    # this is the most one table can take at this latency.
    row["commits_per_s_at_end"] = round(1000.0 / at_n, 1)
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
    parser.add_argument("--samples-out",
                        help="write every commit's sample to SAMPLES_OUT.<backend> (JSON lines)")
    parser.add_argument("--backends", default="sqlite",
                        help="comma-separated: sqlite, postgresql (run one after the other)")
    args = parser.parse_args()
    tool = pathlib.Path(args.build_dir) / "bench" / "commit_latency_maintenance_bench"
    cluster = None
    proxy = None

    def catalog_for(backend: str) -> tuple:
        """(--catalog, --object-store, environment) of one run: a new SQLite
        file or a new database; the local directory or a new s3proxy prefix."""
        nonlocal cluster, proxy
        if backend not in ("sqlite", "postgresql", "postgresql+s3"):
            parser.error(f"unknown backend {backend!r}")
        if backend == "sqlite":
            return "", "", None
        sys.path.insert(0, str(REPO / "tests" / "integration"))
        if cluster is None:
            from harness.postgres import PostgresCluster
            cluster = PostgresCluster().start()
        catalog = cluster.create_database(f"bench_{uuid.uuid4().hex[:8]}")
        if backend == "postgresql":
            return catalog, "", None
        if proxy is None:
            from harness.s3proxy import S3Proxy
            proxy = S3Proxy(pathlib.Path(tempfile.mkdtemp(prefix="st-bench-s3proxy-")),
                            heap="1g").start()
        return (catalog, proxy.object_store_url(f"bench-{uuid.uuid4().hex[:8]}"),
                {**os.environ, **proxy.credentials_env()})

    results = {}
    try:
        for backend in args.backends.split(","):
            with_expiration = run(tool, args.commits, True, args, catalog_for(backend))
            if args.samples_out:
                pathlib.Path(f"{args.samples_out}.{backend}").write_text(
                    "".join(json.dumps(s) + "\n" for s in with_expiration))
            results[backend] = summary(f"{backend}, expiration on", with_expiration)
            if args.baseline_commits:
                summary(f"{backend}, expiration off",
                        run(tool, args.baseline_commits, False, args, catalog_for(backend)))
    finally:
        if cluster is not None:
            cluster.stop()
        if proxy is not None:
            proxy.stop()
            shutil.rmtree(proxy.work_dir, ignore_errors=True)
    if "sqlite" in results:
        lite = results["sqlite"]
        n = lite["commits"]
        tail = f"median_ms_commits_{max(1, n - 99)}_{n}"
        for backend in (b for b in results if b != "sqlite"):
            other = results[backend]
            print(json.dumps({
                f"{backend}_vs_sqlite_at_10": round(
                    other["median_ms_commits_1_10"] / lite["median_ms_commits_1_10"], 3),
                f"{backend}_vs_sqlite_at_end": round(other[tail] / lite[tail], 3)}), flush=True)

if __name__ == "__main__":
    main()
