"""Produce → visible latency of a channel, as a reader experiences it.

Probes are produced one at a time at a fixed pace; each probe's broker offset
comes from its delivery report and its start time is taken just before
produce(). A poller keeps calling PyIceberg's load_table through the Iceberg
REST catalog and, for every snapshot it has not seen, reads the offset ranges
the channel records in the snapshot summary (`streamtables.kafka-offsets`,
"p:from-to,..."); a probe is visible at the first poll that shows a snapshot
covering its offset. The probes' rows are checked afterwards by a scan.
"""

import json
import statistics
import threading
import time


def _ranges(summary_text: str):
    for item in filter(None, (summary_text or "").split(",")):
        partition, span = item.split(":")
        start, end = span.split("-")
        yield int(partition), int(start), int(end)


def measure(setup, kafka, probes: int, interval_s: float, timeout_s: float) -> dict:
    """Produces `probes` records to setup.topic, `interval_s` apart; returns
    {"latencies": [...], "p50":..., "p99":..., "max":...} in seconds."""
    sent = {}  # (partition, offset) -> produce start time
    starts = {}
    lock = threading.Lock()
    visible_at = {}
    done = threading.Event()

    def poll():
        catalog = setup.catalog()
        seen = set()
        while not done.is_set():
            try:
                table = catalog.load_table(f"{setup.namespace}.{setup.table}")
            except Exception:  # noqa: BLE001 — the table appears on first delivery.
                time.sleep(0.02)
                continue
            now = time.monotonic()
            for snapshot in table.snapshots():
                if snapshot.snapshot_id in seen:
                    continue
                seen.add(snapshot.snapshot_id)
                text = snapshot.summary.additional_properties.get("streamtables.kafka-offsets")
                with lock:
                    for partition, start, end in _ranges(text):
                        for offset in range(start, end):
                            visible_at.setdefault((partition, offset), now)
            time.sleep(0.02)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    producer = kafka.producer(**{"linger.ms": 0})

    def report(err, msg, i):
        if err is None:
            with lock:
                sent[(msg.partition(), msg.offset())] = starts[i]

    for i in range(probes):
        value = json.dumps({"id": i, "ts": "2026-11-30T12:00:00Z", "probe": True}).encode()
        starts[i] = time.monotonic()
        producer.produce(setup.topic, value, on_delivery=lambda e, m, i=i: report(e, m, i))
        producer.poll(0)
        time.sleep(interval_s)
    assert producer.flush(30) == 0
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with lock:
            if len(sent) == probes and all(k in visible_at for k in sent):
                break
        time.sleep(0.05)
    done.set()
    poller.join(timeout=10)
    with lock:
        missing = [k for k in sent if k not in visible_at]
        latencies = sorted(visible_at[k] - t for k, t in sent.items() if k in visible_at)
    assert len(sent) == probes, f"only {len(sent)} of {probes} probes acknowledged"
    assert not missing, f"{len(missing)} probes never visible within {timeout_s}s"
    return {
        "latencies": latencies,
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(round(0.99 * (len(latencies) - 1))))],
        "max": latencies[-1],
    }
