#!/usr/bin/env python3
"""A channel at dataFreshnessInSeconds 1 fed continuously with table maintenance
on (issue 10 "Must show"): live data files per partition, the metadata file
size and the mean commit latency stay flat while the table ages, and every
record is in the table exactly once.

Starts a real Kafka 4.1 broker and `streamtables server` (test harness) with
the maintenance scheduler every --interval-s seconds and the hot-partition
compaction pass (its own interval, --hot-interval-s), creates a JSON channel
with freshness 1 s, produces --rate records/s for --minutes, and every
--sample-s seconds prints: commits and mean commit latency in that window
(streamtables_delivery_commit_seconds_total / commits_total), the current
metadata file's bytes, snapshots, live data files and the most live data
files of one partition (PyIceberg's inspect.files of the current snapshot).
The test-only clock offset (--clock-offset-hours, default 200) makes
snapshots older than maxSnapshotAgeHours at once, so expiration keeps the
minimum: a 10-minute run shows the steady state a real table reaches after
its maxSnapshotAgeHours.

Baseline in the same run: the first sample window (a young table) against
the last (the aged one): ratios of commit latency and metadata bytes.

  .venv/bin/python bench/maintenance_soak.py --build-dir build [--minutes 10] [--rate 200]
"""

import argparse
import collections
import os
import pathlib
import re
import statistics
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))

from harness.channels import ChannelSetup  # noqa: E402
from harness.exactly_once import SCHEMA, SteadyProducer, verify_exactly_once  # noqa: E402
from harness.kafka import KafkaBroker  # noqa: E402
from harness.server import StreamtablesServer  # noqa: E402


def metric_sum(text: str, name: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if re.match(rf"^{name}(\{{| )", line):
            total += float(line.rsplit(" ", 1)[1])
    return total


def files_per_partition(table) -> collections.Counter:
    files = table.inspect.files()
    parts = files.column("partition").to_pylist() if files.num_rows else []
    return collections.Counter(tuple(sorted((p or {}).items())) for p in parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=str(REPO / "build"))
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--rate", type=int, default=200, help="records per second")
    parser.add_argument("--partitions", type=int, default=2, help="Kafka partitions")
    parser.add_argument("--sample-s", type=float, default=30)
    parser.add_argument("--interval-s", type=int, default=60,
                        help="--maintenance-interval-seconds of the server")
    parser.add_argument("--hot-interval-s", type=int, default=10,
                        help="--hot-compaction-interval-seconds of the server (0: leave out)")
    parser.add_argument("--clock-offset-hours", type=int, default=200)
    parser.add_argument("--server-arg", action="append", default=[],
                        help="another server argument (repeatable)")
    args = parser.parse_args()
    os.environ["ST_BUILD_DIR"] = str(pathlib.Path(args.build_dir).resolve())

    server_args = ["--maintenance-interval-seconds", str(args.interval_s)]
    if args.hot_interval_s:
        server_args += ["--hot-compaction-interval-seconds", str(args.hot_interval_s)]
    if args.clock_offset_hours:
        server_args += ["--allow-test-only-options", "yes",
                        "--test-only-clock-offset-hours", str(args.clock_offset_hours)]
    server_args += args.server_arg

    work = pathlib.Path(tempfile.mkdtemp(prefix="maintenance-soak-"))
    broker = KafkaBroker(work / "kafka", name="kafka").start()
    server = StreamtablesServer(work / "server", build_dir=pathlib.Path(args.build_dir),
                                extra_args=server_args).start()
    try:
        broker.create_topic("soak", partitions=args.partitions)
        channel = ChannelSetup.create(server, broker, "soak", schema=SCHEMA, freshness=1)
        channel.wait_status("ACTIVE")
        load = SteadyProducer(broker, "soak", rate=args.rate, partitions=args.partitions).start()
        started = time.monotonic()
        rows = []
        last_commits = last_commit_s = 0.0
        print("| t (s) | records | commits | mean commit (ms) | metadata bytes | snapshots "
              "| live files | max files/partition | partitions |", flush=True)
        print("|---|---|---|---|---|---|---|---|---|", flush=True)
        while time.monotonic() - started < args.minutes * 60:
            time.sleep(args.sample_s)
            text = server.metrics_text()
            commits = metric_sum(text, "streamtables_delivery_commits_total")
            commit_s = metric_sum(text, "streamtables_delivery_commit_seconds_total")
            window = commits - last_commits
            mean_ms = (commit_s - last_commit_s) / window * 1000 if window else float("nan")
            last_commits, last_commit_s = commits, commit_s
            table = channel.load_table()
            with table.io.new_input(table.metadata_location).open() as f:
                metadata_bytes = len(f.read())
            per_partition = files_per_partition(table)
            row = dict(t=time.monotonic() - started, records=load.produced, commits=window,
                       mean_ms=mean_ms, metadata_bytes=metadata_bytes,
                       snapshots=len(table.snapshots()),
                       live_files=sum(per_partition.values()),
                       max_files=max(per_partition.values(), default=0),
                       partitions=len(per_partition))
            rows.append(row)
            print(f"| {row['t']:.0f} | {row['records']} | {row['commits']:.0f} | "
                  f"{row['mean_ms']:.1f} | {row['metadata_bytes']} | {row['snapshots']} | "
                  f"{row['live_files']} | {row['max_files']} | {row['partitions']} |", flush=True)
        load.stop()
        assert not load.errors, load.errors[:3]
        data = channel.wait_rows(load.good, timeout_s=300)
        print(verify_exactly_once(data, broker.end_offsets("soak")))
        failures = metric_sum(server.metrics_text(), "streamtables_maintenance_job_failures_total")
        runs = metric_sum(server.metrics_text(), "streamtables_maintenance_job_runs_total")
        first, last = rows[0], rows[-1]
        steady = rows[len(rows) // 2:]
        print(f"\nmaintenance: {runs:.0f} job runs, {failures:.0f} failed")
        print(f"mean commit latency: first window {first['mean_ms']:.1f} ms, last "
              f"{last['mean_ms']:.1f} ms, ratio {last['mean_ms'] / first['mean_ms']:.2f}; "
              f"median of the second half {statistics.median(r['mean_ms'] for r in steady):.1f} ms")
        print(f"metadata file: first {first['metadata_bytes']} B, last {last['metadata_bytes']} B, "
              f"ratio {last['metadata_bytes'] / first['metadata_bytes']:.2f}")
        print(f"max live files in one partition over the run: "
              f"{max(r['max_files'] for r in rows)}; at the end {last['max_files']}")
    finally:
        server.stop()
        broker.stop()


if __name__ == "__main__":
    main()
