#!/usr/bin/env python3
"""Produce → visible-in-PyIceberg latency with dataFreshnessInSeconds 1 (issue 4
target: p99 <= 2 s over 1,000 probes).

Starts a real Kafka 4.1 broker and `streamtables server` (test harness),
creates a JSON channel with freshness 1 s, produces --probes records
--interval-ms apart and measures, per probe, the time until PyIceberg's
load_table shows a snapshot whose recorded offset ranges cover it
(harness/freshness.py). Baseline in the same run: the same probes' produce →
consume latency through a plain librdkafka consumer (what Kafka alone costs).

  .venv/bin/python bench/freshness_bench.py --build-dir build [--probes 1000] [--interval-ms 20]
"""

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import threading
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))

from harness import freshness  # noqa: E402
from harness.channels import ChannelSetup  # noqa: E402
from harness.kafka import KafkaBroker  # noqa: E402
from harness.server import StreamtablesServer  # noqa: E402

SCHEMA = {"type": "object",
          "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"},
                         "probe": {"type": "boolean"}},
          "required": ["id", "ts"]}


def kafka_baseline(broker, topic: str, probes: int, interval_s: float) -> list[float]:
    consumer = broker.consumer(f"freshness-baseline-{time.time_ns()}",
                               **{"auto.offset.reset": "earliest", "fetch.wait.max.ms": 10})
    consumer.subscribe([topic])
    while not consumer.assignment():
        consumer.poll(0.1)
    starts, arrived = {}, {}
    stop = threading.Event()

    def consume():
        while len(arrived) < probes and not stop.is_set():
            msg = consumer.poll(0.05)
            if msg is not None and msg.error() is None:
                arrived[msg.value()] = time.monotonic()

    reader = threading.Thread(target=consume, daemon=True)
    reader.start()
    producer = broker.producer(**{"linger.ms": 0})
    for i in range(probes):
        value = f"baseline-{i}".encode()
        starts[value] = time.monotonic()
        producer.produce(topic, value)
        producer.poll(0)
        time.sleep(interval_s)
    producer.flush(30)
    reader.join(timeout=60)
    stop.set()
    reader.join()
    consumer.close()
    return sorted(arrived[v] - t for v, t in starts.items() if v in arrived)


def pct(values, q):
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=str(REPO / "build"))
    parser.add_argument("--probes", type=int, default=1000)
    parser.add_argument("--interval-ms", type=float, default=20)
    args = parser.parse_args()
    os.environ["ST_BUILD_DIR"] = str(pathlib.Path(args.build_dir).resolve())
    work = pathlib.Path(tempfile.mkdtemp(prefix="freshness-bench-"))
    broker = KafkaBroker(work / "kafka", name="kafka").start()
    server = StreamtablesServer(work / "server", build_dir=pathlib.Path(args.build_dir)).start()
    try:
        broker.create_topic("probes", partitions=4)
        broker.create_topic("baseline", partitions=1)
        setup = ChannelSetup.create(server, broker, "probes", schema=SCHEMA, freshness=1)
        setup.wait_status("ACTIVE")
        result = freshness.measure(setup, broker, args.probes, args.interval_ms / 1000, 120)
        base = kafka_baseline(broker, "baseline", args.probes, args.interval_ms / 1000)
        print(f"| probes | visible p50 | visible p99 | max | kafka-only p50 | kafka-only p99 |")
        print(f"|---|---|---|---|---|---|")
        print(f"| {args.probes} | {result['p50']:.3f} s | {result['p99']:.3f} s | "
              f"{result['max']:.3f} s | {statistics.median(base) * 1000:.1f} ms | "
              f"{pct(base, 0.99) * 1000:.1f} ms |")
    finally:
        server.stop()
        broker.stop()


if __name__ == "__main__":
    main()
