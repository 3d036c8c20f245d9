"""Exactly-once checks and steady load for delivery tests.

verify_exactly_once(data, end_offsets, dead_letters) checks that every Kafka
(partition, offset) below the topic's end offsets is in the table's `_kafka`
metadata or in the dead-letter queue exactly once: no gap, no duplicate,
nothing outside the topic.

SteadyProducer produces JSON records {"id", "ts", "payload"} at a fixed rate
(every `bad_every`-th one is not JSON, so it goes to the DLQ) from a thread,
with an idempotent producer that rides out broker restarts.

channel_metric(text, name, channel_arn) reads one sample of /metrics.

Typical use (see test_delivery_faults.py):
  load = SteadyProducer(kafka, topic, rate=2000, partitions=4).start()
  ...fault...
  load.stop()
  data = channel.wait_rows(load.good, timeout_s=120)
  print(verify_exactly_once(data, kafka.end_offsets(topic),
                            [(d["partition"], d["offset"]) for d in channel.dlq_lines()]))
"""

import collections
import json
import threading
import time
from typing import Iterable, Optional

SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "ts": {"type": "string", "format": "date-time"},
        "payload": {"type": "string"},
    },
    "required": ["id", "ts"],
}


def record_value(n: int) -> bytes:
    """Record n of a run: unique id, a timestamp inside one day (hour partitions)."""
    return json.dumps({"id": n, "ts": f"2026-11-30T{(n // 60000) % 24:02d}:"
                       f"{(n // 1000) % 60:02d}:00Z", "payload": "x" * 40}).encode()


def verify_exactly_once(data, end_offsets: dict, dead_letters: Iterable = ()) -> str:
    """Asserts every offset below end_offsets[partition] is delivered once, to the
    table (`data`, a pyarrow Table with `_kafka`) or as a dead letter ((partition,
    offset) pairs); returns a one-line summary."""
    rows = collections.Counter((m["partition"], m["offset"])
                               for m in (data.column("_kafka").to_pylist() if data else []))
    dead = collections.Counter((int(p), int(o)) for p, o in dead_letters)
    for what, seen in (("table", rows), ("dead-letter queue", dead)):
        duplicates = sorted(k for k, c in seen.items() if c > 1)
        assert not duplicates, f"{len(duplicates)} offsets twice in the {what}, " \
                               f"e.g. {duplicates[:5]}"
    both = sorted(set(rows) & set(dead))
    assert not both, f"{len(both)} offsets in the table and the DLQ, e.g. {both[:5]}"
    delivered = set(rows) | set(dead)
    outside = sorted(k for k in delivered if not 0 <= k[1] < end_offsets.get(k[0], 0))
    assert not outside, f"{len(outside)} offsets beyond the topic, e.g. {outside[:5]}"
    for partition, end in sorted(end_offsets.items()):
        missing = [o for o in range(end) if (partition, o) not in delivered]
        assert not missing, f"partition {partition}: {len(missing)} offsets missing, " \
                            f"e.g. {missing[:5]}"
    total = sum(end_offsets.values())
    return (f"exactly once: {total} offsets over {len(end_offsets)} partitions, "
            f"{len(rows)} rows + {len(dead)} dead letters, no gap, no duplicate")


def channel_metric(text: str, name: str, channel_arn: str) -> Optional[float]:
    """The value of metric `name` for the channel, or None when absent."""
    label = f'channel_arn="{channel_arn}"'
    for line in text.splitlines():
        if line.startswith(name + "{") and label in line:
            return float(line.rsplit(" ", 1)[1])
    return None


class SteadyProducer:
    """Produces `rate` records/s round-robin over `partitions` until stop()."""

    def __init__(self, kafka, topic: str, rate: int, partitions: int, bad_every: int = 0):
        self.kafka, self.topic, self.rate = kafka, topic, rate
        self.partitions, self.bad_every = partitions, bad_every
        self.produced = 0  # Handed to the client.
        self.bad = 0
        self.errors: list = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="steady-producer")

    @property
    def good(self) -> int:
        return self.produced - self.bad

    def start(self) -> "SteadyProducer":
        self._thread.start()
        return self

    def _on_delivery(self, err, _msg):
        if err is not None:
            self.errors.append(str(err))

    def _run(self) -> None:
        # Idempotent: a broker restart neither duplicates nor reorders a record.
        producer = self.kafka.producer(**{
            "enable.idempotence": True, "acks": "all", "linger.ms": 20,
            "queue.buffering.max.messages": 1000000, "message.timeout.ms": 600000,
            "log_level": 0})
        try:
            started = time.monotonic()
            while not self._stop.is_set():
                due = int((time.monotonic() - started) * self.rate)
                while self.produced < due:
                    n = self.produced
                    bad = self.bad_every and n % self.bad_every == self.bad_every - 1
                    value = b"{not json" if bad else record_value(n)
                    try:
                        producer.produce(self.topic, value, partition=n % self.partitions,
                                         on_delivery=self._on_delivery)
                    except BufferError:
                        producer.poll(0.05)
                        continue
                    self.produced += 1
                    self.bad += 1 if bad else 0
                producer.poll(0)
                time.sleep(0.01)
            remaining = producer.flush(300)
            if remaining:
                self.errors.append(f"{remaining} records never acknowledged by the broker")
        except Exception as e:  # noqa: BLE001 — reported by stop().
            self.errors.append(repr(e))

    def stop(self) -> None:
        """Stops producing, waits until every record is acknowledged; raises on errors."""
        self._stop.set()
        self._thread.join(timeout=360)
        assert not self._thread.is_alive(), "producer did not finish flushing"
        assert not self.errors, f"producer errors: {self.errors[:5]}"
