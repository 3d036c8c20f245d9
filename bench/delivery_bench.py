#!/usr/bin/env python3
"""Delivery throughput (issue 4 target: >= 100 MB/s on the 2-core machine with
the broker on it, peak RSS <= 256 MiB).

Starts a real Kafka 4.1 broker and `streamtables server` (test harness),
creates a JSON channel on an 8-partition topic, pauses it, preloads --size-mb
of ~1 KB JSON clickstream records, then:
  baseline: a confluent-kafka (librdkafka) consumer reads the whole topic
            raw, in this process — what consuming alone costs on this machine;
  delivery: resumes the channel and times until every record is committed
            (the table's snapshot summary total-records reaches the count).
Reports MB/s, records/s, the server's CPU-seconds per GB (utime+stime from
/proc/<pid>/stat) and its peak RSS (VmHWM), and the ratio delivery/baseline.

--compare-sse (issue 11): the same run twice in one server, on two topics of
the same size, into a table bucket with the default SSE-S3 (AES256) and into
one whose encryption is aws:kms with a key of the built-in KMS (the role is
granted kms:GenerateDataKey and kms:Decrypt on it); prints both and the ratio
SSE-KMS / SSE-S3 (target >= 0.9x). Every object is encrypted, so SSE-S3 is
the "without a KMS key" baseline; both pay the AES-256-GCM envelope.

  .venv/bin/python bench/delivery_bench.py --build-dir build [--size-mb 2048] [--freshness 10]
  .venv/bin/python bench/delivery_bench.py --build-dir build --size-mb 256 --compare-sse
"""

import argparse
import json
import os
import pathlib
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))

from harness.channels import ChannelSetup, service_role_policy  # noqa: E402
from harness.kafka import KafkaBroker  # noqa: E402
from harness.server import StreamtablesServer  # noqa: E402

SCHEMA = {
    "type": "object",
    "properties": {
        "event_id": {"type": "string", "format": "uuid"},
        "ts": {"type": "string", "format": "date-time"},
        "user_id": {"type": "integer"},
        "session_id": {"type": "string"},
        "page": {"type": "string"},
        "referrer": {"type": "string"},
        "user_agent": {"type": "string"},
        "country": {"type": "string"},
        "duration_ms": {"type": "integer"},
        "price": {"type": "number"},
        "clicked": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "device": {"type": "object", "properties": {"os": {"type": "string"},
                                                    "model": {"type": "string"}}},
        "body": {"type": "string"},
    },
    "required": ["event_id", "ts"],
}


def record(n: int) -> bytes:
    value = {
        "event_id": f"{n:08x}-0000-4000-8000-{n:012x}",
        "ts": f"2026-11-30T{(n // 3_600_000) % 24:02d}:{(n // 60_000) % 60:02d}:"
              f"{(n // 1000) % 60:02d}.{n % 1000:03d}Z",
        "user_id": n % 100_003,
        "session_id": f"s-{n % 7919:06d}-{n % 13}",
        "page": f"/products/category-{n % 97}/item-{n % 10_007}",
        "referrer": "https://www.example.com/search?q=" + str(n % 5000),
        "user_agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                      "Chrome/131.0 Safari/537.36",
        "country": ("US", "DE", "FR", "IN", "BR", "JP")[n % 6],
        "duration_ms": (n * 37) % 60_000,
        "price": (n % 10_000) / 100,
        "clicked": n % 3 == 0,
        "tags": ["promo", f"t{n % 17}", f"c{n % 5}"],
        "device": {"os": ("android", "ios", "linux")[n % 3], "model": f"model-{n % 211}"},
    }
    text = json.dumps(value, separators=(",", ":"))
    value["body"] = "lorem ipsum dolor sit amet " * ((1000 - len(text)) // 27)
    return json.dumps(value, separators=(",", ":")).encode()


def proc_cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_peak_rss_mib(pid: int) -> float:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def preload(broker, topic: str, size_bytes: int, partitions: int = 8,
            first: int = 0) -> tuple[int, int]:
    producer = broker.producer(**{"linger.ms": 50, "batch.size": 1 << 20,
                                  "queue.buffering.max.kbytes": 512 * 1024,
                                  "compression.type": "lz4"})
    n, total = first, 0
    while total < size_bytes:
        value = record(n)
        while True:
            try:
                producer.produce(topic, value, partition=n % partitions)
                break
            except BufferError:
                producer.poll(0.05)
        n += 1
        total += len(value)
        if n % 10000 == 0:
            producer.poll(0)
    assert producer.flush(300) == 0
    return n - first, total


def baseline_consume(broker, topic: str, records: int) -> float:
    consumer = broker.consumer(f"bench-baseline-{time.time_ns()}",
                               **{"auto.offset.reset": "earliest", "enable.auto.commit": False,
                                  "fetch.max.bytes": 64 << 20})
    consumer.subscribe([topic])
    got, started = 0, None
    while got < records:
        batch = consumer.consume(num_messages=10000, timeout=5)
        if batch and started is None:
            started = time.monotonic()
        got += sum(1 for m in batch if m.error() is None)
    elapsed = time.monotonic() - started
    consumer.close()
    return elapsed


def committed_records(setup: ChannelSetup) -> int:
    try:
        snapshot = setup.load_table().current_snapshot()
    except Exception:  # noqa: BLE001 — the table appears on first delivery.
        return 0
    return 0 if snapshot is None else int(snapshot.summary["total-records"])


def channel_route(server, setup, action: str) -> None:
    from urllib.parse import quote

    r = server.signed_request("POST", f"{server.api_url}/v1/clusters/"
                              f"{quote(setup.cluster_arn, safe='')}/channels/"
                              f"{quote(setup.channel_arn, safe='')}/{action}", service="kafka")
    assert r.status_code == 200, r.text


def kms_channel_setup(server, broker, topic: str, args) -> ChannelSetup:
    """A channel into a table bucket encrypted with a new KMS key; its role
    may use the key."""
    key_arn = server.boto3_client("kms").create_key(Description="bench")["KeyMetadata"]["Arn"]
    name, dlq = "bench-kms", "dlq-bench-kms"
    s3t = server.boto3_client("s3tables")
    bucket_arn = s3t.create_table_bucket(
        name=name, encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": key_arn})["arn"]
    policy = service_role_policy(server.region, server.account_id, name, dlq)
    policy["Statement"].append({"Effect": "Allow", "Action": ["kms:GenerateDataKey",
                                                              "kms:Decrypt"],
                                "Resource": [key_arn]})
    return ChannelSetup.create(server, broker, topic, schema=SCHEMA, freshness=args.freshness,
                               create_bucket=False, bucket_name=name, bucket_arn=bucket_arn,
                               dlq_bucket=dlq, role_policy=policy)


def deliver(server, broker, topic: str, args, setup) -> dict:
    """Preloads `topic`, then times the channel (`setup`, else a new SSE-S3
    one) from resume until every record is committed."""
    setup = setup or ChannelSetup.create(server, broker, topic, schema=SCHEMA,
                                         freshness=args.freshness)
    setup.wait_status("ACTIVE")
    channel_route(server, setup, "pause")
    setup.wait_status("SUSPENDED")
    t0 = time.monotonic()
    records, total = preload(broker, topic, args.size_mb << 20)
    print(f"preloaded {records} records, {total / 1e6:.0f} MB in "
          f"{time.monotonic() - t0:.0f} s", flush=True)

    base_s = baseline_consume(broker, topic, records)
    pid = server.proc.pid
    cpu0 = proc_cpu_seconds(pid)
    t0 = time.monotonic()
    channel_route(server, setup, "resume")
    while committed_records(setup) < records:
        time.sleep(0.5)
    elapsed = time.monotonic() - t0
    cpu = proc_cpu_seconds(pid) - cpu0
    # Idle from here on, so that a later run in the same server has the
    # machine to itself.
    channel_route(server, setup, "pause")
    return {
        "records": records, "mb": total / 1e6,
        "baseline_consume_mb_s": total / 1e6 / base_s,
        "delivery_s": elapsed, "delivery_mb_s": total / 1e6 / elapsed,
        "delivery_records_s": records / elapsed,
        "cpu_s_per_gb": cpu / (total / 1e9), "peak_rss_mib": proc_peak_rss_mib(pid),
        "ratio_vs_baseline": base_s / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=str(REPO / "build"))
    parser.add_argument("--size-mb", type=int, default=2048)
    parser.add_argument("--freshness", type=int, default=10)
    parser.add_argument("--json-out", default="")
    parser.add_argument("--buffer-mb", type=int, default=0,
                        help="server --delivery-buffer-mb (0: the server's default)")
    parser.add_argument("--compare-sse", action="store_true",
                        help="deliver into an SSE-S3 and an SSE-KMS table bucket; print the ratio")
    args = parser.parse_args()
    os.environ["ST_BUILD_DIR"] = str(pathlib.Path(args.build_dir).resolve())

    work = pathlib.Path(tempfile.mkdtemp(prefix="delivery-bench-"))
    broker = KafkaBroker(work / "kafka", name="kafka", heap="1g").start()
    extra = ["--delivery-buffer-mb", str(args.buffer_mb)] if args.buffer_mb else []
    server = StreamtablesServer(work / "server", build_dir=pathlib.Path(args.build_dir),
                                extra_args=extra).start()
    try:
        if args.compare_sse:
            results = {}
            for sse in ("AES256", "aws:kms"):
                topic = "clicks-bench-" + ("kms" if sse == "aws:kms" else "s3")
                broker.create_topic(topic, partitions=8)
                results[sse] = deliver(server, broker, topic, args,
                                       kms_channel_setup(server, broker, topic, args)
                                       if sse == "aws:kms" else None)
            print("| metric | SSE-S3 | SSE-KMS |\n|---|---|---|")
            for key in results["AES256"]:
                a, b = results["AES256"][key], results["aws:kms"][key]
                print(f"| {key} | {a:.2f} | {b:.2f} |" if isinstance(a, float) else
                      f"| {key} | {a} | {b} |")
            ratio = results["aws:kms"]["delivery_mb_s"] / results["AES256"]["delivery_mb_s"]
            print(f"ratio SSE-KMS / SSE-S3 delivery MB/s: {ratio:.2f}x (target >= 0.9x); "
                  f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            result = {"sse_s3": results["AES256"], "sse_kms": results["aws:kms"],
                      "ratio_kms_vs_s3": ratio}
        else:
            topic = "clicks-bench"
            broker.create_topic(topic, partitions=8)
            result = deliver(server, broker, topic, args, None)
            print("| metric | value |\n|---|---|")
            for key, value in result.items():
                print(f"| {key} | {value:.2f} |" if isinstance(value, float) else
                      f"| {key} | {value} |")
        if args.json_out:
            pathlib.Path(args.json_out).write_text(json.dumps(result, indent=2))
    finally:
        server.stop()
        broker.stop()


if __name__ == "__main__":
    main()
