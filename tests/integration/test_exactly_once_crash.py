"""Exactly once under crashes (issue 4 "Must show"): while a producer writes
at least a million records, the server is killed with SIGKILL at random
points at least ten times and restarted on the same data dir; afterwards a
verifier reads the topic's offsets and the table's `_kafka` metadata and finds
every (partition, offset) exactly once — no gap, no duplicate.

ST_CRASH_RECORDS and ST_CRASH_KILLS scale the run (defaults 1,000,000 / 10).
The kill points come from a seeded RNG (ST_CRASH_SEED) so a failure replays.
"""

import os
import random
import threading
import time

from harness.channels import ChannelSetup
from harness.exactly_once import SCHEMA, record_value, verify_exactly_once

RECORDS = int(os.environ.get("ST_CRASH_RECORDS", "1000000"))
KILLS = int(os.environ.get("ST_CRASH_KILLS", "10"))
SEED = int(os.environ.get("ST_CRASH_SEED", "20261130"))
PARTITIONS = 4


def produce_all(kafka, topic: str, done: threading.Event, errors: list) -> None:
    try:
        producer = kafka.producer(**{"linger.ms": 20, "batch.num.messages": 10000,
                                     "queue.buffering.max.messages": 500000})
        chunk = max(1, RECORDS // 40)
        for start in range(0, RECORDS, chunk):
            for n in range(start, min(RECORDS, start + chunk)):
                value = record_value(n)
                while True:
                    try:
                        producer.produce(topic, value, partition=n % PARTITIONS)
                        break
                    except BufferError:
                        producer.poll(0.05)
            producer.poll(0)
            time.sleep(0.25)  # Spread production over the kill window.
        remaining = producer.flush(120)
        if remaining:
            errors.append(f"{remaining} records never acknowledged by the broker")
    except Exception as e:  # noqa: BLE001 — reported by the test thread.
        errors.append(repr(e))
    finally:
        done.set()


def test_no_gap_no_duplicate_after_repeated_kill_9(fresh_server, kafka, topic_name):
    server = fresh_server()
    kafka.create_topic(topic_name, partitions=PARTITIONS)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1)
    channel.wait_status("ACTIVE")

    done, errors = threading.Event(), []
    producer = threading.Thread(target=produce_all, args=(kafka, topic_name, done, errors),
                                daemon=True)
    producer.start()
    rng = random.Random(SEED)
    kills = 0
    while kills < KILLS:
        time.sleep(rng.uniform(0.5, 3.0))
        server.proc.kill()  # SIGKILL: no drain, no shutdown hook.
        kills += 1
        server.start()
    producer.join(timeout=600)
    assert done.is_set() and not errors, errors

    end = kafka.end_offsets(topic_name)
    assert sum(end.values()) == RECORDS
    data = channel.wait_rows(RECORDS, timeout_s=600)
    print(verify_exactly_once(data, end))
    assert data.num_rows == RECORDS
    ids = data.column("id").to_pylist()
    assert len(set(ids)) == RECORDS
    print(f"verified {RECORDS} records over {PARTITIONS} partitions after {kills} kill -9")
