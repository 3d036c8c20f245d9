"""Exactly once under crashes (issue 4 "Must show"): while a producer writes
at least a million records, the server is killed with SIGKILL at random
points at least ten times and restarted on the same data dir; afterwards a
verifier reads the topic's offsets and the table's `_kafka` metadata and finds
every (partition, offset) exactly once — no gap, no duplicate.

Table maintenance runs all the while (issue 10 "Must show"): the scheduler
and the hot-partition compaction pass run every second, and the test-only clock offset makes every snapshot look
200 hours old, so each pass expires all but the newest snapshot and deletes
what only the expired ones reached, racing delivery's commits and the kills.
Afterwards every snapshot the table still has reads back in full (no file it
references is missing) and the snapshot count stayed small.

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
# Maintenance every second; 200 h > maxSnapshotAgeHours (120) so snapshots
# expire at once, < unreferencedDays + nonCurrentDays (13 days) so the
# delivery's not-yet-committed files are never old enough to be removed.
# The hot-partition compaction pass every second too (the harness turns it off
# by default), so compaction's replace commits race delivery as well.
MAINTENANCE_ARGS = ["--maintenance-interval-seconds", "1", "--hot-compaction-interval-seconds", "1",
                    "--allow-test-only-options", "yes", "--test-only-clock-offset-hours", "200"]


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
    server = fresh_server(extra_args=MAINTENANCE_ARGS)
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
    data = wait_rows_through_expiration(channel, RECORDS, timeout_s=600)
    print(verify_exactly_once(data, end))
    assert data.num_rows == RECORDS
    ids = data.column("id").to_pylist()
    assert len(set(ids)) == RECORDS
    print(f"verified {RECORDS} records over {PARTITIONS} partitions after {kills} kill -9")

    # Maintenance ran and kept the table small; every snapshot left reads in full.
    metrics = server.metrics_text()
    runs = maintenance_runs(metrics, "icebergSnapshotManagement")
    assert runs > 0, "snapshot expiration never ran"
    compactions = maintenance_runs(metrics, "icebergCompaction")
    table = channel.load_table()
    snapshots = table.snapshots()
    assert len(snapshots) <= 20, f"{len(snapshots)} snapshots left after expiration"
    for snapshot in snapshots:
        table.scan(snapshot_id=snapshot.snapshot_id).to_arrow()  # A missing file raises.
    live_files = len(table.inspect.files())
    print(f"snapshot expiration ran {runs:.0f} times, compaction {compactions:.0f} times (since the "
          f"last restart); {len(snapshots)} snapshots left, all readable; {live_files} live files")


def wait_rows_through_expiration(channel, count: int, timeout_s: float):
    """channel.wait_rows, except that a read whose snapshot expired under it
    (a file gone between loading the table and reading it: every Iceberg
    reader races expiration so) is retried; the read that returns is whole."""
    deadline = time.monotonic() + timeout_s
    seen, last_error = 0, None
    while time.monotonic() < deadline:
        try:
            data = channel.read_arrow()
        except (OSError, FileNotFoundError) as e:
            last_error = e
            time.sleep(0.3)
            continue
        seen = 0 if data is None else data.num_rows
        if seen >= count:
            return data
        time.sleep(0.3)
    raise AssertionError(f"{seen} rows, expected {count} within {timeout_s}s; last read error "
                         f"{last_error!r}")


def maintenance_runs(metrics: str, job: str) -> float:
    total = 0.0
    for line in metrics.splitlines():
        if line.startswith("streamtables_maintenance_job_runs_total") and f'job="{job}"' in line:
            total += float(line.rsplit(" ", 1)[1])
    return total
