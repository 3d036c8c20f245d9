#!/usr/bin/env python3
"""PyIceberg scan-planning time of a many-commit table before and after
maintenance (issue 10: the scan cost of a streaming table must not grow with
its age).

Starts `streamtables server` (test harness; scheduler off, so only the runs
started here touch the table), makes a table of --commits PyIceberg appends
of --rows rows each (one small data file per commit, as a channel at low
freshness leaves them), then times PyIceberg `load_table` + `scan().plan_files()`
(medians of --repeats, each timed on its own) before maintenance, after compaction, and after
snapshot expiration too, and after one more append (run now through `streamtables table maintenance run`,
the test-only clock offset making every snapshot older than
maxSnapshotAgeHours). Baseline in the same run: the table before maintenance.

  .venv/bin/python bench/scan_planning_bench.py --build-dir build [--commits 10000] [--builder native]

--builder pyiceberg (the default) makes the history with PyIceberg appends
over HTTP, as a user would; --builder native stops the server and makes the
same appends (one real Parquet file of --rows rows each, one snapshot each,
through the server's own commit path) with build/bench/append_commits,
--snapshots-per-commit of them per catalog commit, which turns hours into
minutes at 10,000 commits. Planning is timed with PyIceberg either way.
"""

import subprocess

import argparse
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))

import pyarrow as pa  # noqa: E402

from harness.server import StreamtablesServer  # noqa: E402
from iceberg_rest_clients import new_bucket, pyiceberg_catalog  # noqa: E402

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


def plan_seconds(cat, name: str, repeats: int) -> tuple[float, float, int, int]:
    """Medians of load_table and of scan().plan_files() alone; files; snapshots."""
    loads, plans, files = [], [], 0
    for _ in range(repeats):
        started = time.perf_counter()
        table = cat.load_table(name)
        loaded = time.perf_counter()
        files = len(list(table.scan().plan_files()))
        loads.append(loaded - started)
        plans.append(time.perf_counter() - loaded)
    return statistics.median(plans), statistics.median(loads), files, len(table.snapshots())


def run_job(server, arn: str, job: str) -> dict:
    """Runs `job` now through the CLI (no 60 s harness limit: expiring 10,000
    snapshots at once takes minutes); prints how long it took."""
    binary = pathlib.Path(server.build_dir) / "src" / "cli" / "streamtables"
    started = time.perf_counter()
    out = subprocess.run([str(binary), "table", "maintenance", "run", "--bucket", arn,
                          "--namespace", "ns", "t", "--job", job, "--json",
                          "--data-dir", str(server.data_dir)],
                         capture_output=True, text=True, timeout=3600, check=True)
    print(f"{job}: {time.perf_counter() - started:.1f} s", flush=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=str(REPO / "build"))
    parser.add_argument("--commits", type=int, default=10000)
    parser.add_argument("--rows", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--builder", choices=("pyiceberg", "native"), default="pyiceberg")
    parser.add_argument("--snapshots-per-commit", type=int, default=50,
                        help="native builder: snapshots per catalog commit (same table reached)")
    args = parser.parse_args()
    os.environ["ST_BUILD_DIR"] = str(pathlib.Path(args.build_dir).resolve())
    work = pathlib.Path(tempfile.mkdtemp(prefix="scan-planning-bench-"))
    server = StreamtablesServer(
        work / "server", build_dir=pathlib.Path(args.build_dir),
        extra_args=["--maintenance-interval-seconds", "0", "--allow-test-only-options", "yes",
                    "--test-only-clock-offset-hours", "200"]).start()
    try:
        arn = new_bucket(server, prefix="planning")
        cat = pyiceberg_catalog(server, arn)
        cat.create_namespace("ns")
        table = cat.create_table("ns.t", schema=SCHEMA)
        started = time.perf_counter()
        if args.builder == "native":
            server.stop()
            subprocess.run([str(pathlib.Path(args.build_dir) / "bench" / "append_commits"),
                            "--data-dir", str(server.data_dir), "--bucket-arn", arn,
                            "--namespace", "ns", "--table", "t", "--commits", str(args.commits),
                            "--rows", str(args.rows),
                            "--snapshots-per-commit", str(args.snapshots_per_commit)], check=True)
            server.start()
            cat = pyiceberg_catalog(server, arn)  # The restart picked new ports.
        else:
            for n in range(args.commits):
                table.append(pa.Table.from_pylist(
                    [{"id": n * args.rows + i, "name": f"r{n}"} for i in range(args.rows)],
                    schema=SCHEMA))
        print(f"{args.commits} appends ({args.builder}) in {time.perf_counter() - started:.0f} s",
              flush=True)

        rows = []
        before = plan_seconds(cat, "ns.t", args.repeats)
        rows.append(("before maintenance", *before))
        print(f"before: plan {before[0] * 1000:.1f} ms, load {before[1] * 1000:.0f} ms, "
              f"{before[2]} files, {before[3]} snapshots", flush=True)
        compaction = run_job(server, arn, "icebergCompaction")
        assert compaction["status"] == "Successful", compaction
        rows.append(("after compaction", *plan_seconds(cat, "ns.t", args.repeats)))
        expiration = run_job(server, arn, "icebergSnapshotManagement")
        assert expiration["status"] == "Successful", expiration
        rows.append(("after compaction + snapshot expiration",
                     *plan_seconds(cat, "ns.t", args.repeats)))
        # The replace snapshot keeps the old manifests with their entries
        # DELETED; the next append (what a channel does every freshness
        # interval) drops manifests with no live entry.
        cat.load_table("ns.t").append(pa.Table.from_pylist(
            [{"id": args.commits * args.rows + i, "name": "last"} for i in range(args.rows)],
            schema=SCHEMA))
        rows.append(("... and one more append", *plan_seconds(cat, "ns.t", args.repeats)))
        total = cat.load_table("ns.t").scan().to_arrow().num_rows
        assert total == (args.commits + 1) * args.rows, total

        print(f"\n| table ({args.commits} commits of {args.rows} rows) | plan_files (median of "
              f"{args.repeats}) | ratio vs before | load_table | data files planned | snapshots |")
        print("|---|---|---|---|---|---|")
        for label, seconds, load, files, snapshots in rows:
            print(f"| {label} | {seconds * 1000:.1f} ms | {seconds / before[0]:.3f} | "
                  f"{load * 1000:.0f} ms | {files} | {snapshots} |")
        print(f"rows read back after maintenance: {total}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
