"""Delivery spread over replicas (issue 13 item 4): three `streamtables server`
replicas on one PostgreSQL catalog and one s3proxy object store consume one
channel's 12-partition topic as one Kafka consumer group (cooperative-sticky,
each replica a static member). While records are produced, one replica is
killed with SIGKILL and restarted after its session expired (so its
partitions move to the others and back: incremental revokes and assigns),
then another one, the same way. Afterwards the per-(partition, offset)
verifier finds every record exactly once, PyIceberg and DuckDB read the same
row count through two different replicas, and more than one replica
committed (their "delivered" log lines), so the spread is real.

ST_SPREAD_RECORDS scales the run (default 300,000; the issue asks for 1 M,
which takes about three times as long here).
"""

import collections
import dataclasses
import json
import os
import threading
import time
import uuid

import pytest

from harness import duckdb_engine
from harness.channels import ChannelSetup
from harness.exactly_once import SCHEMA, record_value, verify_exactly_once
from harness.replicas import ReplicaSet
from harness.s3proxy import S3Proxy
from test_iceberg_rest_engines import duckdb_attach

RECORDS = int(os.environ.get("ST_SPREAD_RECORDS", "300000"))
PARTITIONS = 12
PRODUCE_SECONDS = 55.0
# Longer than the consumer's session timeout (10 s): the killed static
# member's partitions are reassigned to the survivors before it comes back.
DEAD_SECONDS = 14.0


@pytest.fixture(scope="module")
def s3proxy(tmp_path_factory):
    proxy = S3Proxy(tmp_path_factory.mktemp("s3proxy-spread")).start()
    yield proxy
    proxy.stop()


def produce_spread(kafka, topic: str, done: threading.Event, errors: list) -> None:
    """RECORDS records, record n keyed n on partition n % PARTITIONS, spread
    evenly over PRODUCE_SECONDS."""
    try:
        producer = kafka.producer(**{"enable.idempotence": True, "acks": "all", "linger.ms": 20,
                                     "queue.buffering.max.messages": 500000})
        started = time.monotonic()
        for n in range(RECORDS):
            while True:
                try:
                    producer.produce(topic, record_value(n), key=str(n).encode(),
                                     partition=n % PARTITIONS)
                    break
                except BufferError:
                    producer.poll(0.05)
            if n % 5000 == 4999:
                producer.poll(0)
                ahead = started + PRODUCE_SECONDS * (n + 1) / RECORDS - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
        remaining = producer.flush(120)
        if remaining:
            errors.append(f"{remaining} records never acknowledged by the broker")
    except Exception as e:  # noqa: BLE001 — reported by the test thread.
        errors.append(repr(e))
    finally:
        done.set()


def delivered_rows(replicas, i: int) -> int:
    """Rows replica i committed over all its runs (its "delivered" log lines)."""
    path = replicas[i].log_path
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        if '"event":"delivered"' in line:
            total += int(json.loads(line)["rows"])
    return total


def test_three_replicas_deliver_one_channel_exactly_once_through_kill_9(
        tmp_path, build_dir, postgres, kafka, topic_name, s3proxy):
    url = postgres.create_database(f"spread_{uuid.uuid4().hex[:8]}")
    replicas = ReplicaSet(tmp_path, build_dir, url, s3proxy, n=3).start_all()
    try:
        kafka.create_topic(topic_name, partitions=PARTITIONS)
        channel = ChannelSetup.create(replicas[0], kafka, topic_name, schema=SCHEMA, freshness=2)
        channel.wait_status("ACTIVE")

        done, errors = threading.Event(), []
        producer = threading.Thread(target=produce_spread,
                                    args=(kafka, topic_name, done, errors), daemon=True)
        producer.start()
        time.sleep(8)
        for victim in (2, 1):
            replicas[victim].proc.kill()  # SIGKILL: no drain, no leave-group.
            time.sleep(DEAD_SECONDS)
            replicas[victim].start()
            time.sleep(6)
        producer.join(timeout=240)
        assert done.is_set() and not errors, errors
        end = kafka.end_offsets(topic_name)
        assert sum(end.values()) == RECORDS

        # PyIceberg through replica 1, DuckDB through replica 2.
        via_r1 = dataclasses.replace(channel, server=replicas[1])
        data = via_r1.wait_rows(RECORDS, timeout_s=150)
        print(verify_exactly_once(data, end))
        assert data.num_rows == RECORDS
        assert sorted(data.column("id").to_pylist()) == list(range(RECORDS))

        duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
        try:
            duckdb_attach(duck, replicas[2], channel.bucket_arn)
            count, distinct = duck.execute(
                f"SELECT count(*), count(DISTINCT id) FROM st.{channel.namespace}.{channel.table}"
            ).fetchone()
        finally:
            duck.close()
        assert (count, distinct) == (RECORDS, RECORDS)

        # The spread is real: several replicas committed rows, every one of
        # them took part in rebalances, and the rows they report add up.
        rows = {i: delivered_rows(replicas, i) for i in range(len(replicas))}
        print(f"rows committed per replica: {rows}")
        assert sum(1 for n in rows.values() if n > 0) >= 2, rows
        assert sum(rows.values()) <= RECORDS, rows  # A kill may cut a log line short, no more.
        for i in range(len(replicas)):
            assert replicas.log_lines(i, "partitions_assigned") > 0, i
        kinds = collections.Counter()
        for i in range(len(replicas)):
            for line in replicas[i].log_path.read_text(errors="replace").splitlines():
                if '"event":"partitions_assigned"' in line:
                    kinds[json.loads(line).get("protocol", "?")] += 1
        print(f"assignments by protocol: {dict(kinds)}")
        assert kinds.get("COOPERATIVE", 0) > 0, kinds
    finally:
        replicas.stop_all()
