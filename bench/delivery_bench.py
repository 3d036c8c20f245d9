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

--formats json,avro,protobuf (issue 14): the same run once per format in one
server, each on its own 8-partition topic holding the same logical records (the
JSON fields above): JSON (the JSON channel), Avro (confluent-kafka's
AvroSerializer through the built-in Confluent-compatible registry, an
AVRO_CONFLUENT channel) and Protobuf (ProtobufSerializer, a PROTOBUF_CONFLUENT
channel). Binary values are smaller than JSON text, so besides CPU-s per GB of
the topic's own bytes it prints server CPU-s per million records and per GB of
the JSON text of the same records, and the ratios against JSON (target Avro
<= 1.5 CPU-s/GB and <= the JSON figure).

  .venv/bin/python bench/delivery_bench.py --build-dir build [--size-mb 2048] [--freshness 10]
  .venv/bin/python bench/delivery_bench.py --build-dir build --size-mb 256 --compare-sse
  .venv/bin/python bench/delivery_bench.py --build-dir build --size-mb 1024 --formats json,avro,protobuf

ST_BENCH_PERF=<path> samples the server with `perf record -F 999` from resume to
all committed (one file per run: <path>, <path>.1, ...); read it with
`perf report -i <path> --no-children --sort dso,symbol`; ST_BENCH_PERF_ARGS adds
perf record arguments (e.g. "-F 299 --call-graph dwarf,16384"); ST_BENCH_PERF_STAT=<path>
writes `perf stat` counts (instructions user/kernel, cycles) there instead.
"""

import argparse
import json
import os
import pathlib
import re
import signal
import subprocess
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


def record_values(n: int) -> dict:
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
    return value


def record(n: int) -> bytes:
    return json.dumps(record_values(n), separators=(",", ":")).encode()


# The JSON schema's fields as Avro (optional fields as unions with null, as the
# JSON schema's non-required properties are optional columns) and as proto3.
AVRO_SCHEMA = {
    "type": "record", "name": "Click", "namespace": "bench",
    "fields": [
        {"name": "event_id", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        *({"name": name, "type": ["null", kind], "default": None} for name, kind in (
            ("user_id", "long"), ("session_id", "string"), ("page", "string"),
            ("referrer", "string"), ("user_agent", "string"), ("country", "string"),
            ("duration_ms", "long"), ("price", "double"), ("clicked", "boolean"),
            ("tags", {"type": "array", "items": "string"}),
            ("device", {"type": "record", "name": "Device",
                        "fields": [{"name": "os", "type": ["null", "string"], "default": None},
                                   {"name": "model", "type": ["null", "string"],
                                    "default": None}]}),
            ("body", "string"))),
    ],
}

PROTO_FILE = """syntax = "proto3";
package bench;
import "google/protobuf/timestamp.proto";
message Device { optional string os = 1; optional string model = 2; }
message Click {
  string event_id = 1;
  google.protobuf.Timestamp ts = 2;
  optional int64 user_id = 3;
  optional string session_id = 4;
  optional string page = 5;
  optional string referrer = 6;
  optional string user_agent = 7;
  optional string country = 8;
  optional int64 duration_ms = 9;
  optional double price = 10;
  optional bool clicked = 11;
  repeated string tags = 12;
  Device device = 13;
  optional string body = 14;
}
"""

CONVERTERS = {"json": "JSON", "avro": "AVRO_CONFLUENT", "protobuf": "PROTOBUF_CONFLUENT"}


def parse_ts(text: str):
    import datetime as dt
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.timezone.utc)


def click_message_class(work: pathlib.Path):
    """protoc -> FileDescriptorSet -> a message class (no generated module)."""
    import subprocess

    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    root = work / "proto"
    root.mkdir(parents=True, exist_ok=True)
    (root / "click.proto").write_text(PROTO_FILE)
    out = root / "set.pb"
    subprocess.run(["protoc", f"-I{root}", "-I/usr/include", "--include_imports",
                    f"--descriptor_set_out={out}", "click.proto"], check=True, cwd=root)
    pool = descriptor_pool.DescriptorPool()
    for f in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file:
        pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("bench.Click"))


def encoder_for(fmt: str, server, topic: str, work: pathlib.Path):
    """n -> the value bytes of record n in `fmt` (Avro and Protobuf through
    confluent-kafka's serializers and our registry, which frame the value)."""
    if fmt == "json":
        return record
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.serialization import MessageField, SerializationContext
    registry = SchemaRegistryClient({
        "url": server.api_url + "/schema-registry",
        "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    context = SerializationContext(topic, MessageField.VALUE)
    if fmt == "avro":
        from confluent_kafka.schema_registry.avro import AvroSerializer
        serializer = AvroSerializer(registry, json.dumps(AVRO_SCHEMA))

        def avro(n: int) -> bytes:
            value = record_values(n)
            value["ts"] = parse_ts(value["ts"])
            return serializer(value, context)
        return avro
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    cls = click_message_class(work)
    serializer = ProtobufSerializer(cls, registry, {"use.deprecated.format": False})

    def protobuf(n: int) -> bytes:
        value = record_values(n)
        message = cls()
        for key, v in value.items():
            if key == "ts":
                message.ts.FromDatetime(parse_ts(v))
            elif key == "tags":
                message.tags.extend(v)
            elif key == "device":
                message.device.os, message.device.model = v["os"], v["model"]
            else:
                setattr(message, key, v)
        return serializer(message, context)
    return protobuf


def proc_cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_peak_rss_mib(pid: int) -> float:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def preload(broker, topic: str, size_bytes: int, partitions: int = 8,
            first: int = 0, encode=record, count: int = 0) -> tuple[int, int]:
    """Produces records first.. until size_bytes of values (or, with count,
    exactly count records); returns (records, value bytes)."""
    producer = broker.producer(**{"linger.ms": 50, "batch.size": 1 << 20,
                                  "queue.buffering.max.kbytes": 512 * 1024,
                                  "compression.type": "lz4"})
    n, total = first, 0
    while (n - first < count) if count else (total < size_bytes):
        value = encode(n)
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


def rows_read_by_channel(server) -> dict[str, int]:
    """streamtables_delivery_rows_total per channel ARN: records each worker
    has taken from Kafka into its batch (decoded and shredded), committed or not."""
    out = {}
    for m in re.finditer(r'^streamtables_delivery_rows_total\{[^}]*channel_arn="([^"]+)"[^}]*\} (\S+)',
                         server.metrics_text(), re.M):
        out[m.group(1)] = int(float(m.group(2)))
    return out


def rows_read(server, setup: ChannelSetup) -> int:
    return rows_read_by_channel(server).get(setup.channel_arn, 0)


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


_PERF_RUNS = 0


def start_perf(pid: int):
    """`perf record` on the server when ST_BENCH_PERF names an output file."""
    global _PERF_RUNS
    path = os.environ.get("ST_BENCH_PERF", "") or os.environ.get("ST_BENCH_PERF_STAT", "")
    if not path:
        return None
    out = path if _PERF_RUNS == 0 else f"{path}.{_PERF_RUNS}"
    _PERF_RUNS += 1
    if os.environ.get("ST_BENCH_PERF_STAT"):  # Counts: steadier than CPU time on a noisy VM.
        argv = ["perf", "stat", "-e", "instructions:u,instructions:k,cycles", "-x,"]
    else:
        argv = ["perf", "record", "-F", "999", "-q",
                *os.environ.get("ST_BENCH_PERF_ARGS", "").split()]  # e.g. --call-graph dwarf
    proc = subprocess.Popen([*argv, "-p", str(pid), "-o", out],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # perf attaches before the channel resumes.
    return proc


def deliver(server, broker, topic: str, args, setup, converter: str = "JSON", encode=record,
            count: int = 0) -> dict:
    """Preloads `topic` (values from `encode`; `count` records, else
    --size-mb), then times the channel (`setup`, else a new SSE-S3 one of
    `converter`) from resume until every record is committed."""
    setup = setup or ChannelSetup.create(server, broker, topic, schema=SCHEMA,
                                         converter=converter, freshness=args.freshness)
    setup.wait_status("ACTIVE")
    channel_route(server, setup, "pause")
    setup.wait_status("SUSPENDED")
    t0 = time.monotonic()
    records, total = preload(broker, topic, args.size_mb << 20, encode=encode, count=count)
    print(f"preloaded {records} records, {total / 1e6:.0f} MB in "
          f"{time.monotonic() - t0:.0f} s", flush=True)

    base_s = baseline_consume(broker, topic, records)
    pid = server.proc.pid
    cpu0 = proc_cpu_seconds(pid)
    perf = start_perf(pid)
    t0 = time.monotonic()
    channel_route(server, setup, "resume")
    # Two clocks: when the worker has read (decoded, shredded) every record,
    # and when all are committed. A preloaded topic is read faster than the
    # freshness, so the last batch then waits out the rest of F before its
    # commit: "to all committed" measures F as much as speed, "read" does not.
    read_s = read_cpu = None
    while True:
        if read_s is None and rows_read(server, setup) >= records:
            read_s = time.monotonic() - t0
            read_cpu = proc_cpu_seconds(pid) - cpu0
        if committed_records(setup) >= records:
            break
        time.sleep(0.1 if read_s is None else 0.5)
    elapsed = time.monotonic() - t0
    cpu = proc_cpu_seconds(pid) - cpu0
    if perf is not None:
        perf.send_signal(signal.SIGINT)
        perf.wait(timeout=120)
    if read_s is None:  # Read and committed between two samples.
        read_s, read_cpu = elapsed, cpu
    # Idle from here on, so that a later run in the same server has the
    # machine to itself.
    channel_route(server, setup, "pause")
    return {
        "records": records, "mb": total / 1e6,
        "baseline_consume_mb_s": total / 1e6 / base_s,
        "read_s": read_s, "read_mb_s": total / 1e6 / read_s,
        "read_cpu_s_per_gb": read_cpu / (total / 1e9),
        "delivery_s": elapsed, "delivery_mb_s": total / 1e6 / elapsed,
        "delivery_records_s": records / elapsed,
        "cpu_s_per_gb": cpu / (total / 1e9), "cpu_s_per_m_records": cpu / (records / 1e6),
        "peak_rss_mib": proc_peak_rss_mib(pid),
        "ratio_vs_baseline": base_s / elapsed,
    }


def compare_formats(server, broker, args, work: pathlib.Path) -> dict:
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = set(formats) - set(CONVERTERS)
    if unknown:
        raise SystemExit(f"--formats: unknown {sorted(unknown)}; known: {sorted(CONVERTERS)}")
    # Every format carries the same records: as many as --size-mb of JSON text.
    count, json_bytes = 0, 0
    while json_bytes < args.size_mb << 20:
        json_bytes += len(record(count))
        count += 1
    results = {}
    for fmt in formats:
        topic = f"clicks-bench-{fmt}"
        broker.create_topic(topic, partitions=8)
        results[fmt] = deliver(server, broker, topic, args, None, converter=CONVERTERS[fmt],
                               encode=encoder_for(fmt, server, topic, work), count=count)
        r = results[fmt]
        r["value_bytes_per_record"] = r["mb"] * 1e6 / r["records"]
        r["cpu_s_per_json_gb"] = r["cpu_s_per_m_records"] * count / 1e6 / (json_bytes / 1e9)
        r["json_equivalent_mb_s"] = json_bytes / 1e6 / r["delivery_s"]
        print(f"{fmt}: {r['delivery_mb_s']:.1f} MB/s of its own bytes, "
              f"{r['cpu_s_per_gb']:.2f} CPU-s/GB, {r['cpu_s_per_json_gb']:.2f} CPU-s per JSON GB",
              flush=True)
    keys = list(results[formats[0]])
    print("| metric | " + " | ".join(formats) + " |\n|---|" + "---|" * len(formats))
    for key in keys:
        cells = [results[f][key] for f in formats]
        print(f"| {key} | " + " | ".join(f"{c:.2f}" if isinstance(c, float) else str(c)
                                         for c in cells) + " |")
    if "json" in results:
        base = results["json"]
        for fmt in formats:
            if fmt == "json":
                continue
            r = results[fmt]
            r["ratio_cpu_per_record_vs_json"] = r["cpu_s_per_m_records"] / base["cpu_s_per_m_records"]
            r["ratio_records_s_vs_json"] = r["delivery_records_s"] / base["delivery_records_s"]
            print(f"{fmt} / json: CPU per record {r['ratio_cpu_per_record_vs_json']:.2f}x, "
                  f"records/s {r['ratio_records_s_vs_json']:.2f}x")
    print(f"records per format: {count} ({json_bytes / 1e6:.0f} MB as JSON); load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return results


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
    parser.add_argument("--formats", default="",
                        help="comma-separated json,avro,protobuf: the same records in each "
                             "format, one after the other in one server; print the ratios")
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
        elif args.formats:
            result = compare_formats(server, broker, args, work)
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
