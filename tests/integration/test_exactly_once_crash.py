"""Exactly once under crashes (issue 4 "Must show"): while a producer writes
at least a million records, the server is killed with SIGKILL at random
points at least ten times and restarted on the same data dir; afterwards a
verifier reads the topic's offsets and the table's `_kafka` metadata and finds
every (partition, offset) exactly once — no gap, no duplicate.

ST_CRASH_RECORDS and ST_CRASH_KILLS scale the run (defaults 1,000,000 / 10).
The kill points come from a seeded RNG (ST_CRASH_SEED) so a failure replays.
"""

import collections
import json
import os
import random
import threading
import time

from harness.channels import ChannelSetup

RECORDS = int(os.environ.get("ST_CRASH_RECORDS", "1000000"))
KILLS = int(os.environ.get("ST_CRASH_KILLS", "10"))
SEED = int(os.environ.get("ST_CRASH_SEED", "20261130"))
PARTITIONS = 4

SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "ts": {"type": "string", "format": "date-time"},
        "payload": {"type": "string"},
    },
    "required": ["id", "ts"],
}


def produce_all(kafka, topic: str, done: threading.Event, errors: list) -> None:
    try:
        producer = kafka.producer(**{"linger.ms": 20, "batch.num.messages": 10000,
                                     "queue.buffering.max.messages": 500000})
        chunk = max(1, RECORDS // 40)
        for start in range(0, RECORDS, chunk):
            for n in range(start, min(RECORDS, start + chunk)):
                value = json.dumps({"id": n, "ts": f"2026-11-30T{(n // 60000) % 24:02d}:"
                                    f"{(n // 1000) % 60:02d}:00Z", "payload": "x" * 40})
                while True:
                    try:
                        producer.produce(topic, value.encode(), partition=n % PARTITIONS)
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
    meta = data.column("_kafka").to_pylist()
    seen = collections.Counter((m["partition"], m["offset"]) for m in meta)
    duplicates = [k for k, c in seen.items() if c > 1]
    assert not duplicates, f"{len(duplicates)} duplicated offsets, e.g. {duplicates[:5]}"
    for partition, last in end.items():
        missing = [o for o in range(last) if (partition, o) not in seen]
        assert not missing, f"partition {partition}: {len(missing)} offsets missing, " \
                            f"e.g. {missing[:5]}"
    assert data.num_rows == RECORDS
    ids = data.column("id").to_pylist()
    assert len(set(ids)) == RECORDS
    print(f"verified {RECORDS} records over {PARTITIONS} partitions after {kills} kill -9")
