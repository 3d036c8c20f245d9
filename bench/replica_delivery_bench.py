#!/usr/bin/env python3
"""Delivery of one channel spread over 1, 2 and 3 replicas (issue 13 item 4).

Starts a real Kafka 4.1 broker, PostgreSQL and s3proxy once; for every
replica count and run: a fresh catalog database, N `streamtables server`
replicas on it and on the one s3proxy store (tests/integration/harness/
replicas.py), a JSON channel on a 12-partition topic, paused while --size-mb
of the ~1 KB clickstream records of delivery_bench.py are preloaded, then
resumed and timed until every record is committed (the table's snapshot
summary total-records reaches the count). Reports, per replica count, the
medians over --runs of:
  delivery MB/s          record bytes / wall time from resume to the last commit;
  CPU-s/GB per replica   each replica's utime+stime (/proc/<pid>/stat) over the
                         run / GB delivered, averaged over the replicas (and the
                         sum over all replicas);
  commits/s              the table's commits over the run from every replica
                         (streamtables_delivery_commits_total) / wall time;
  commit retries         commits rebuilt on a table another replica moved
                         (streamtables_delivery_commit_retries_total);
  min row share          the smallest share of the rows one replica committed
                         (1/N: evenly spread; the first replica to rejoin after
                         the resume takes all partitions until the others join);
and the ratios vs 1 replica. The machine has 2 cores, so more replicas add
no cores: the interesting figures are the cost per GB and the commit rate.

  .venv/bin/python bench/replica_delivery_bench.py --build-dir build [--size-mb 1024] [--runs 3]
"""

import argparse
import json
import os
import pathlib
import shutil
import statistics
import sys
import tempfile
import time
import uuid

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))
sys.path.insert(0, str(REPO / "bench"))

from delivery_bench import (SCHEMA, channel_route, committed_records, preload,  # noqa: E402
                            proc_cpu_seconds)
from harness.channels import ChannelSetup  # noqa: E402
from harness.exactly_once import channel_metric  # noqa: E402
from harness.kafka import KafkaBroker  # noqa: E402
from harness.postgres import PostgresCluster  # noqa: E402
from harness.replicas import ReplicaSet  # noqa: E402
from harness.s3proxy import S3Proxy  # noqa: E402

PARTITIONS = 12


def metric_sum(replicas, name: str, channel_arn: str) -> float:
    return sum(channel_metric(r.metrics_text(), name, channel_arn) or 0.0 for r in replicas)


def one_run(work: pathlib.Path, args, broker, postgres, s3proxy, n: int) -> dict:
    tag = uuid.uuid4().hex[:8]
    url = postgres.create_database(f"bench_{tag}")
    replicas = ReplicaSet(work / f"r{n}-{tag}", pathlib.Path(args.build_dir), url, s3proxy, n=n,
                          prefix=f"bench-{tag}").start_all()
    try:
        topic = f"clicks-{tag}"
        broker.create_topic(topic, partitions=PARTITIONS)
        setup = ChannelSetup.create(replicas[0], broker, topic, schema=SCHEMA,
                                    freshness=args.freshness)
        setup.wait_status("ACTIVE")
        channel_route(replicas[0], setup, "pause")
        setup.wait_status("SUSPENDED")
        records, total = preload(broker, topic, args.size_mb << 20, partitions=PARTITIONS)
        pids = [r.proc.pid for r in replicas.replicas]
        cpu0 = [proc_cpu_seconds(p) for p in pids]
        commits0 = metric_sum(replicas.replicas, "streamtables_delivery_commits_total",
                              setup.channel_arn)
        retries0 = metric_sum(replicas.replicas, "streamtables_delivery_commit_retries_total",
                              setup.channel_arn)
        t0 = time.monotonic()
        channel_route(replicas[0], setup, "resume")
        while committed_records(setup) < records:
            time.sleep(0.25)
        elapsed = time.monotonic() - t0
        cpu = [proc_cpu_seconds(p) - c for p, c in zip(pids, cpu0)]
        per_replica_commits = [channel_metric(r.metrics_text(), "streamtables_delivery_commits_total",
                                              setup.channel_arn) or 0.0 for r in replicas.replicas]
        rows = [channel_metric(r.metrics_text(), "streamtables_delivery_rows_successful_total",
                               setup.channel_arn) or 0.0 for r in replicas.replicas]
        commits = sum(per_replica_commits) - commits0
        retries = metric_sum(replicas.replicas, "streamtables_delivery_commit_retries_total",
                             setup.channel_arn) - retries0
        assert committed_records(setup) == records, "more records than produced"
        gb = total / 1e9
        return {
            "replicas": n, "records": records, "mb": total / 1e6, "delivery_s": elapsed,
            "delivery_mb_s": total / 1e6 / elapsed,
            "cpu_s_per_gb_per_replica": statistics.mean(cpu) / gb,
            "cpu_s_per_gb_all": sum(cpu) / gb,
            "commits_per_s": commits / elapsed, "commit_retries": retries,
            "replicas_that_committed": sum(1 for c in per_replica_commits if c > 0),
            # The smallest replica's share of the rows (1/N when evenly spread).
            "min_row_share": min(rows) / max(1.0, sum(rows)),
        }
    finally:
        replicas.stop_all()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=str(REPO / "build"))
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--freshness", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--replicas", default="1,2,3")
    parser.add_argument("--json-out", default="")
    args = parser.parse_args()
    os.environ["ST_BUILD_DIR"] = str(pathlib.Path(args.build_dir).resolve())

    work = pathlib.Path(tempfile.mkdtemp(prefix="replica-bench-"))
    broker = KafkaBroker(work / "kafka", name="kafka", heap="1g").start()
    postgres = PostgresCluster().start()
    s3proxy = S3Proxy(work / "s3proxy", heap="512m").start()
    runs: dict[int, list] = {}
    try:
        for _ in range(args.runs):
            for n in (int(x) for x in args.replicas.split(",")):
                result = one_run(work, args, broker, postgres, s3proxy, n)
                print(json.dumps(result), flush=True)
                runs.setdefault(n, []).append(result)
    finally:
        s3proxy.stop()
        postgres.stop()
        broker.stop()
        shutil.rmtree(work, ignore_errors=True)  # The topics and objects: GBs per run.

    keys = ["delivery_mb_s", "cpu_s_per_gb_per_replica", "cpu_s_per_gb_all", "commits_per_s",
            "commit_retries", "replicas_that_committed", "min_row_share"]
    medians = {n: {k: statistics.median(r[k] for r in rs) for k in keys} for n, rs in runs.items()}
    base = medians.get(1)
    print(f"\nmedians of {args.runs} runs, {args.size_mb} MB each, freshness {args.freshness} s, "
          f"{PARTITIONS} partitions; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| replicas | " + " | ".join(keys) + " | MB/s vs 1 | CPU-s/GB (all) vs 1 |")
    print("|---" * (len(keys) + 3) + "|")
    for n, m in sorted(medians.items()):
        ratios = (f"{m['delivery_mb_s'] / base['delivery_mb_s']:.2f}x | "
                  f"{m['cpu_s_per_gb_all'] / base['cpu_s_per_gb_all']:.2f}x") if base else "- | -"
        print(f"| {n} | " + " | ".join(f"{m[k]:.2f}" for k in keys) + f" | {ratios} |")
    if args.json_out:
        pathlib.Path(args.json_out).write_text(json.dumps({"runs": runs, "medians": medians},
                                                          indent=2))


if __name__ == "__main__":
    main()
