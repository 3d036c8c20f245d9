#!/usr/bin/env python3
"""Many channels at once on one server (issue 15: a server-wide delivery
memory budget): 20 channels on 20 topics of 4 partitions each, all resumed
together, with the server-wide budget (--delivery-memory-mb, default 512) and,
as the baseline in the same script, without it (0: only each channel's own
--delivery-buffer-mb).

  .venv/bin/python bench/many_channels_bench.py --build-dir build
      [--channels 20] [--mb-per-channel 60] [--freshness 30] [--budgets 512,0]

One Kafka 4.1 broker; the topics are preloaded once with the ~1 KB JSON
records of bench/delivery_bench.py. Per budget a fresh server (new data dir)
creates one JSON channel per topic (one table bucket, one role each), pauses
them all, then resumes them all at once and waits until every channel's table
holds its topic. Reported: seconds until every worker has read its topic
(streamtables_delivery_rows_total) and that rate; wall seconds to all
committed (which includes the last batches waiting out the freshness), total MB/s, the
per-channel MB/s (each channel's bytes / the time its last record was
committed; min, median, max: fairness), the server's peak RSS (VmHWM), the
peak of streamtables_delivery_buffered_bytes sampled from /metrics every
0.2 s, server CPU-seconds per GB, and commits.
"""

import argparse
import os
import pathlib
import re
import statistics
import sys
import tempfile
import time
import uuid

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))
sys.path.insert(0, str(REPO / "bench"))

from delivery_bench import (SCHEMA, channel_route, committed_records, preload,  # noqa: E402
                            proc_cpu_seconds, proc_peak_rss_mib, rows_read_by_channel)
from harness.channels import ChannelSetup, register_cluster  # noqa: E402
from harness.kafka import KafkaBroker  # noqa: E402
from harness.server import StreamtablesServer  # noqa: E402

PARTITIONS = 4
# More server flags for a diagnostic run, e.g. ST_BENCH_SERVER_ARGS="--delivery-buffer-mb 8".
EXTRA_ARGS = os.environ.get("ST_BENCH_SERVER_ARGS", "").split()


def buffered_bytes(server) -> int:
    text = server.metrics_text()
    # Every sample carries the replica label (docs/replicas.md).
    m = re.search(r"^streamtables_delivery_buffered_bytes(?:\{[^}]*\})? (\d+)", text, re.M)
    return int(m.group(1)) if m else -1


def counter_sum(server, name: str) -> int:
    """A per-channel counter summed over every channel."""
    text = server.metrics_text()
    return sum(int(float(v)) for v in re.findall(rf"^{name}\{{[^}}]*\}} (\S+)", text, re.M))


def commits(server) -> int:
    return counter_sum(server, "streamtables_delivery_commits_total")


def run(work: pathlib.Path, broker, build_dir, channels, mb_per_channel, budget_mb, freshness):
    server = StreamtablesServer(work, build_dir=build_dir,
                                extra_args=["--delivery-memory-mb", str(budget_mb),
                                            *EXTRA_ARGS]).start()
    # A new channel starts at the end of its topic: each run gets topics of
    # its own, preloaded once its channels are created and paused.
    topics = [f"many-{budget_mb}-{i:02d}" for i in range(channels)]
    try:
        for topic in topics:
            broker.create_topic(topic, partitions=PARTITIONS)
        cluster = register_cluster(server, broker)
        bucket = f"many-{uuid.uuid4().hex[:8]}"
        server.boto3_client("s3tables").create_table_bucket(name=bucket)
        setups = []
        for topic in topics:
            setup = ChannelSetup.create(server, broker, topic, schema=SCHEMA, freshness=freshness,
                                        cluster_arn=cluster, create_bucket=False,
                                        bucket_name=bucket, dlq_bucket=f"dlq-{bucket}")
            setups.append(setup)
        for setup in setups:
            setup.wait_status("ACTIVE")
            channel_route(server, setup, "pause")
        for setup in setups:
            setup.wait_status("SUSPENDED")
        sizes, counts = [], []
        t0 = time.monotonic()
        for i, topic in enumerate(topics):
            n, size = preload(broker, topic, mb_per_channel << 20, partitions=PARTITIONS,
                              first=i * 10_000_000)
            counts.append(n)
            sizes.append(size)
        print(f"preloaded {channels} topics, {sum(counts)} records, "
              f"{sum(sizes) / 1e6:.0f} MB in {time.monotonic() - t0:.0f} s", flush=True)
        pid = server.proc.pid
        cpu0 = proc_cpu_seconds(pid)
        t0 = time.monotonic()
        for setup in setups:
            channel_route(server, setup, "resume")
        done: dict[int, float] = {}
        # When every worker has read its topic: the commits then wait out the
        # freshness, so "done" measures F as much as speed (delivery_bench.py).
        read: dict[int, float] = {}
        peak_buffered = 0
        last_check = 0.0
        while len(done) < len(setups):
            peak_buffered = max(peak_buffered, buffered_bytes(server))
            if len(read) < len(setups):
                rows = rows_read_by_channel(server)
                for i, setup in enumerate(setups):
                    if i not in read and rows.get(setup.channel_arn, 0) >= counts[i]:
                        read[i] = time.monotonic() - t0
            if time.monotonic() - last_check >= 1.0:
                last_check = time.monotonic()
                for i, setup in enumerate(setups):
                    if i not in done and committed_records(setup) >= counts[i]:
                        done[i] = time.monotonic() - t0
            if time.monotonic() - t0 > 1800:
                raise RuntimeError(f"only {len(done)} of {len(setups)} channels done in 30 min")
            time.sleep(0.2)
        wall = max(done.values())
        read_s = max(read.values()) if len(read) == len(setups) else wall
        cpu = proc_cpu_seconds(pid) - cpu0
        total = sum(sizes)
        per_channel = sorted(sizes[i] / 1e6 / done[i] for i in done)
        return {
            "budget_mb": budget_mb, "read_s": read_s, "read_mb_s": total / 1e6 / read_s,
            "wall_s": wall, "total_mb_s": total / 1e6 / wall,
            "channel_mb_s_min": per_channel[0],
            "channel_mb_s_median": statistics.median(per_channel),
            "channel_mb_s_max": per_channel[-1],
            "peak_rss_mib": proc_peak_rss_mib(pid),
            "peak_buffered_mib": peak_buffered / (1 << 20),
            "cpu_s_per_gb": cpu / (total / 1e9), "commits": commits(server),
            # Consumers remade for a new prefetch bound as channels joined.
            "resizes": counter_sum(server, "streamtables_delivery_consumer_resizes_total"),
        }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=str(REPO / "build"))
    parser.add_argument("--channels", type=int, default=20)
    parser.add_argument("--mb-per-channel", type=int, default=60)
    parser.add_argument("--freshness", type=int, default=30)
    parser.add_argument("--budgets", default="512,0",
                        help="--delivery-memory-mb values, one server run each")
    args = parser.parse_args()
    build_dir = pathlib.Path(args.build_dir).resolve()

    work = pathlib.Path(tempfile.mkdtemp(prefix="many-channels-bench-"))
    broker = KafkaBroker(work / "kafka", name="kafka", heap="1g").start()
    results = []
    try:
        for budget in (int(b) for b in args.budgets.split(",")):
            result = run(work / f"server-{budget}", broker, build_dir, args.channels,
                         args.mb_per_channel, budget, args.freshness)
            print(result, flush=True)
            results.append(result)
    finally:
        broker.stop()

    cols = ["budget_mb", "read_s", "read_mb_s", "wall_s", "total_mb_s", "channel_mb_s_min", "channel_mb_s_median",
            "channel_mb_s_max", "peak_rss_mib", "peak_buffered_mib", "cpu_s_per_gb", "commits", "resizes"]
    print(f"\n{args.channels} channels × {PARTITIONS} partitions, {args.mb_per_channel} MB each, "
          f"freshness {args.freshness} s")
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in results:
        print("| " + " | ".join(f"{r[c]:.1f}" if isinstance(r[c], float) else str(r[c])
                                for c in cols) + " |")
    if len(results) == 2:
        a, b = results
        print(f"peak RSS {a['budget_mb']} / {b['budget_mb']}: "
              f"{a['peak_rss_mib'] / b['peak_rss_mib']:.2f}; total MB/s: "
              f"{a['total_mb_s'] / b['total_mb_s']:.2f}")


if __name__ == "__main__":
    main()
