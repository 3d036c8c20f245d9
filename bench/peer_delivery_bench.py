#!/usr/bin/env python3
"""Delivery side by side with the peers (issue 15): streamtables, Apache
Iceberg's Kafka Connect sink and Spark Structured Streaming on one broker, one
preloaded topic and one machine, one after the other.

  ST_BENCH_JARS=1 tools/install.sh --no-apt     # the Connect and spark-kafka jar sets
  .venv/bin/python bench/peer_delivery_bench.py --build-dir build [--size-mb 2048]
      [--freshness 10] [--probe-seconds 30] [--systems references,streamtables,connect,spark]
      [--format json|avro]

One real Kafka 4.1 broker; one 8-partition topic preloaded once with --size-mb
of the ~1 KB JSON clickstream records of bench/delivery_bench.py. Then each
system, alone on the machine (the others are stopped), delivers the whole
topic into an Iceberg table with the same Iceberg schema, partitioned by
hour(ts), Parquet/zstd, committing every --freshness seconds:

  streamtables  a JSON channel (test harness server, the schema registered in
                its Glue registry), table in a table bucket;
  connect       Kafka Connect 4.1 standalone + iceberg-kafka-connect 1.11.0,
                JsonConverter without schemas, commit interval = freshness,
                2 tasks (2 cores), into a Hadoop-catalog warehouse on the local
                disk;
  spark         pyspark 3.5 local[2], Kafka source → from_json with the same
                schema → Iceberg 1.10 (fanout writer), processing-time trigger
                = freshness, into a Hadoop-catalog warehouse on the local disk.

Where the peers write: a local warehouse, not our table bucket. Through our
REST catalog and S3 endpoint every peer PUT would be served (SigV4-verified,
encrypted) by our server's CPU, which would be charged to neither side; on the
local disk the peers do strictly less work than we do (our objects are
encrypted at rest, theirs are plain files), so the comparison favours them.
The peers' tables are created up front (by Spark, same schema and
partitioning); Connect's `iceberg.tables.auto-create-enabled` is on but finds
the table, because a table inferred from schemaless JSON would have `ts` as a
string and no partitioning — a cheaper job than ours. event_id is a string in
the peers' tables (Spark cannot write Iceberg's uuid type), a uuid in ours.

Per system: wall seconds from start to every preloaded record committed (the
current snapshot's total-records; a peer's start includes its JVM's start-up,
ours the resume of a channel whose server is up: first_commit_s shows that
part), MB/s and records/s over that time, CPU
seconds per GB of every process of that system (the server; the Connect JVM;
the pyspark driver and its JVM — from /proc, utime+stime, sampled the moment
the last record is committed; the shared broker is charged to nobody), the sum
of the processes' peak RSS (VmHWM), data files and their mean size (snapshot
summary), and at the end every table is read back with PyIceberg (a scan of one
column, ours through our REST catalog, the peers' from their metadata files)
and must hold each preloaded record and probe once, by its event_id (the
script exits non-zero otherwise). Then a probe stream at 2 records/s for --probe-seconds into
partition 0 gives produce → visible latency p50/p99 (visible = the first
snapshot whose total-records covers the probe; its timestamp-ms, same clock).
A row per system and the ratios against streamtables.

--format avro: the same records as Avro behind the Confluent framing
(confluent-kafka's AvroSerializer with delivery_bench.AVRO_SCHEMA, registered
in our server's built-in registry, which both systems read from):
streamtables runs an AVRO_CONFLUENT channel; Spark strips the 5-byte header
and decodes with spark-avro's from_avro and the same writer schema (the
registry-less way Spark users decode Confluent Avro). Kafka Connect is not
run: reading Confluent-framed Avro needs Confluent's AvroConverter
(io.confluent:kafka-connect-avro-converter), which is published on
Confluent's own Maven repository, not on Maven Central, the only one this
machine reaches. The references are then librdkafka consume and zstd of the
Avro bytes (simdjson does not apply).

Physical references on the same topic and bytes, before the systems run
(`references` in --systems), each on one core, printed beside our figure:
raw librdkafka consume configured as our channel's consumer
(build/bench/rdkafka_consume_reference), once one record per C++ consume()
call and once in batches as the channel takes them, simdjson alone on the records with
the runtime-dispatched kernel and with the On-Demand kernel our decoder is
compiled for (build/bench/json_parse_reference, on the first 256 MB), and
`zstd -1 -T1` of the raw record bytes (the codec floor of writing them).
"""

import argparse
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))
sys.path.insert(0, str(REPO / "bench"))

from delivery_bench import (  # noqa: E402
    AVRO_SCHEMA, SCHEMA, channel_route, encoder_for, preload, record)
from harness import paths  # noqa: E402
from harness.channels import ChannelSetup  # noqa: E402
from harness.kafka import KafkaBroker  # noqa: E402
from harness.ports import free_port  # noqa: E402
from harness.server import StreamtablesServer  # noqa: E402

TOPIC = "peers-bench"
PARTITIONS = 8

# The Iceberg schema our channel makes from SCHEMA, as Spark DDL (event_id
# aside, see the docstring).
SPARK_DDL = ("event_id STRING, ts TIMESTAMP, user_id BIGINT, session_id STRING, page STRING, "
             "referrer STRING, user_agent STRING, country STRING, duration_ms BIGINT, "
             "price DOUBLE, clicked BOOLEAN, tags ARRAY<STRING>, "
             "device STRUCT<os: STRING, model: STRING>, body STRING")

_LOG4J2 = """status = error
rootLogger.level = warn
rootLogger.appenderRef.stdout.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
"""


# ------------------------------------------------------------------ references

REFERENCE_SAMPLE_BYTES = 256 << 20


def _child_cpu(argv: list[str], stdout=subprocess.DEVNULL, stdin=None) -> tuple[float, float, str]:
    """Runs argv; returns (wall s, CPU s of the child, its stdout if captured)."""
    before = os.times()
    t0 = time.monotonic()
    out = subprocess.run(argv, stdout=stdout, stdin=stdin, stderr=subprocess.PIPE, check=False)
    wall = time.monotonic() - t0
    after = os.times()
    if out.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({out.returncode}): {out.stderr.decode()[-2000:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system -
                                                          before.children_system)
    text = out.stdout.decode() if isinstance(out.stdout, bytes) else ""
    return wall, cpu, text


def run_references(broker, build_dir: pathlib.Path, work: pathlib.Path,
                   records: int, encode=record) -> list[dict]:
    bench = build_dir / "bench"
    rows = []
    # One record per consume() call, and batches as our channel's consumer
    # takes them (RdKafkaConsumer::Refill).
    for mode, what in (("single", "librdkafka consume(), one record per call"),
                       ("batch", "librdkafka batch consume (as our channel's consumer)")):
        _, _, text = _child_cpu([str(bench / "rdkafka_consume_reference"), broker.bootstrap,
                                 TOPIC, str(records), "0", mode], stdout=subprocess.PIPE)
        line = text.strip().splitlines()[-1]
        print(line, flush=True)
        mb_s = float(line.split(" MB/s")[0].rsplit(" ", 1)[1])
        cpu_gb = float(line.split(" CPU-s/GB")[0].rsplit(" ", 1)[1])
        rows.append({"reference": what, "mb_s": mb_s, "cpu_s_per_gb": cpu_gb})
    # The raw record bytes, regenerated as the preload made them.
    raw = work / "records.jsonl"
    sample = work / "sample.jsonl"
    with raw.open("wb") as f, sample.open("wb") as g:
        written = 0
        for n in range(records):
            value = encode(n)
            f.write(value + b"\n")
            if written < REFERENCE_SAMPLE_BYTES:
                g.write(value + b"\n")
                written += len(value)
    text = ""
    if encode is record:  # JSON: simdjson alone on the same records.
        _, _, text = _child_cpu([str(bench / "json_parse_reference"), str(sample)],
                                stdout=subprocess.PIPE)
    for line in text.strip().splitlines():
        print(line, flush=True)
        what = line.split(": ")[0]
        rows.append({"reference": what, "mb_s": float(line.split(" MB/s")[0].rsplit(" ", 1)[1]),
                     "cpu_s_per_gb": float(line.split(" CPU-s/GB")[0].rsplit(" ", 1)[1])})
    wall, cpu, _ = _child_cpu(["zstd", "-1", "-T1", "-q", "-c", str(raw)])
    size = raw.stat().st_size
    print(f"zstd -1 -T1: {size / 1e6 / wall:.1f} MB/s, {cpu / (size / 1e9):.3f} CPU-s/GB",
          flush=True)
    rows.append({"reference": "zstd -1 -T1 of the raw records", "mb_s": size / 1e6 / wall,
                 "cpu_s_per_gb": cpu / (size / 1e9)})
    raw.unlink()
    sample.unlink()
    return rows


# ------------------------------------------------------------------ /proc

def process_tree(root: int) -> list[int]:
    """`root` and every live descendant."""
    children: dict[int, list[int]] = {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def tree_cpu_seconds(root: int) -> float:
    total = 0.0
    for pid in process_tree(root):
        try:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, and the reaped children's cutime, cstime (short-lived
        # helpers such as Spark's Python workers).
        total += sum(int(f) for f in fields[11:15])
    return total / os.sysconf("SC_CLK_TCK")


def tree_peak_rss_mib(root: int) -> float:
    total = 0.0
    for pid in process_tree(root):
        try:
            for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            pass
    return total


# ------------------------------------------------------------------ tables

def hadoop_snapshots(table_dir: pathlib.Path) -> list[dict]:
    """Snapshots of a Hadoop-catalog table (version-hint.text → vN.metadata.json)."""
    hint = table_dir / "metadata" / "version-hint.text"
    try:
        version = hint.read_text().strip()
        meta = json.loads((table_dir / "metadata" / f"v{version}.metadata.json").read_text())
    except (OSError, ValueError):
        return []
    return meta.get("snapshots", [])


def pyiceberg_snapshots(setup: ChannelSetup) -> list[dict]:
    try:
        table = setup.load_table()
    except Exception:  # noqa: BLE001 — the table appears on first delivery.
        return []
    return [{"timestamp-ms": s.timestamp_ms, "summary": dict(s.summary.additional_properties)}
            for s in table.metadata.snapshots]


def scan_rows(table) -> int:
    """Distinct event ids of a PyIceberg table, read (one column), not taken
    from a summary; -1 when some row is there twice."""
    import pyarrow as pa
    import pyarrow.compute as pc
    ids = table.scan(selected_fields=("event_id",)).to_arrow().column("event_id")
    if isinstance(ids.type, pa.BaseExtensionType):  # Ours is an Iceberg uuid.
        ids = pa.chunked_array([c.storage for c in ids.chunks], type=ids.type.storage_type)
    distinct = pc.count_distinct(ids).as_py()
    return distinct if distinct == len(ids) else -1


def hadoop_table_rows(table_dir: pathlib.Path) -> int:
    from pyiceberg.table import StaticTable
    version = (table_dir / "metadata" / "version-hint.text").read_text().strip()
    return scan_rows(StaticTable.from_metadata(
        str(table_dir / "metadata" / f"v{version}.metadata.json")))


def total_records(snapshots: list[dict]) -> int:
    if not snapshots:
        return 0
    last = max(snapshots, key=lambda s: s["timestamp-ms"])
    return int(last["summary"].get("total-records", 0))


# ------------------------------------------------------------------ systems

class System:
    name = ""

    def start(self) -> int:  # returns the root pid to account
        raise NotImplementedError

    def snapshots(self) -> list[dict]:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError


class Streamtables(System):
    name = "streamtables"

    def __init__(self, work, broker, build_dir, freshness, fmt="json"):
        self.server = StreamtablesServer(work / "server", build_dir=build_dir).start()
        if fmt == "avro":
            self.setup = ChannelSetup.create(self.server, broker, TOPIC,
                                             converter="AVRO_CONFLUENT", freshness=freshness)
        else:
            self.setup = ChannelSetup.create(self.server, broker, TOPIC, schema=SCHEMA,
                                             freshness=freshness)
        self.setup.wait_status("ACTIVE")
        # Paused until its turn: the channel reads from the earliest offset.
        channel_route(self.server, self.setup, "pause")
        self.setup.wait_status("SUSPENDED")

    def start(self) -> int:
        channel_route(self.server, self.setup, "resume")
        return self.server.proc.pid

    def snapshots(self):
        return pyiceberg_snapshots(self.setup)

    def rows(self) -> int:  # Through our Iceberg REST catalog and S3 endpoint.
        return scan_rows(self.setup.load_table())

    def stop(self):
        self.server.stop()


def spark_child(args) -> None:
    """The Spark Structured Streaming job (runs as its own process)."""
    from harness import spark_engine
    from pyspark.sql import functions as F
    from pyspark.sql.types import _parse_datatype_string

    work = pathlib.Path(args.work)
    kafka_jars = [str(p) for p in paths.jar_dir("spark-kafka").glob("*.jar")
                  if p.name.startswith(("spark-sql-kafka", "spark-token-provider", "kafka-clients",
                                        "commons-pool2", "spark-avro"))]
    # make_session's `local` catalog warehouse is <work_dir>/warehouse.
    spark = spark_engine.make_session(pathlib.Path(args.warehouse).parent, app_name="peer-bench",
                                      extra_jars=kafka_jars)
    tables = args.create.split(",") if args.create else []
    for table in tables:
        spark.sql(f"CREATE TABLE IF NOT EXISTS local.db.{table} ({SPARK_DDL}) USING iceberg "
                  "PARTITIONED BY (hours(ts)) TBLPROPERTIES ("
                  "'write.parquet.compression-codec'='zstd', 'format-version'='2')")
    if args.create:
        spark.stop()
        return
    schema = _parse_datatype_string(SPARK_DDL)
    source = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", args.bootstrap)
              .option("subscribe", TOPIC).option("startingOffsets", "earliest")
              .option("failOnDataLoss", "false").load())
    if args.format == "avro":
        # The Confluent framing's 5 bytes (magic 0, schema id) off, then the
        # writer schema the records were serialized with.
        from pyspark.sql.avro.functions import from_avro
        payload = F.expr("substring(value, 6, length(value) - 5)")
        rows = source.select(from_avro(payload, json.dumps(AVRO_SCHEMA)).alias("r")).select("r.*")
    else:
        rows = source.select(F.from_json(F.col("value").cast("string"),
                                         schema).alias("r")).select("r.*")
    query = (rows.writeStream.format("iceberg").outputMode("append")
             .trigger(processingTime=f"{args.freshness} seconds")
             .option("fanout-enabled", "true")
             .option("checkpointLocation", str(work / "checkpoint"))
             .toTable("local.db.spark_events"))
    query.awaitTermination()


class PeerProcess(System):
    """A peer run as its own process group, writing a Hadoop-catalog table
    db.<table> under the shared local warehouse."""

    table = ""

    def launch(self, argv, log_name: str) -> int:
        self.log = self.work / log_name
        self.proc = subprocess.Popen(argv, stdout=open(self.log, "w"), stderr=subprocess.STDOUT,
                                     start_new_session=True)
        return self.proc.pid

    def snapshots(self):
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.name} exited; see {self.log}")
        return hadoop_snapshots(self.warehouse / "db" / self.table)

    def rows(self) -> int:
        return hadoop_table_rows(self.warehouse / "db" / self.table)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


class Spark(PeerProcess):
    name = "spark"
    table = "spark_events"

    def __init__(self, work, broker, freshness, warehouse, fmt="json"):
        self.work, self.broker, self.freshness = work, broker, freshness
        self.warehouse = warehouse
        self.fmt = fmt
        self.proc = None

    def _argv(self, *extra):
        return [sys.executable, __file__, "--spark-child", "--work", str(self.work),
                "--warehouse", str(self.warehouse), "--bootstrap", self.broker.bootstrap,
                "--freshness", str(self.freshness), "--format", self.fmt, *extra]

    def create_tables(self, *names: str) -> None:
        subprocess.run(self._argv("--create", ",".join(names)), check=True,
                       stdout=open(self.work / "create.log", "w"), stderr=subprocess.STDOUT)

    def start(self) -> int:
        return self.launch(self._argv(), "spark.log")


class Connect(PeerProcess):
    name = "connect"
    table = "connect_events"

    def __init__(self, work, broker, freshness, warehouse):
        self.work, self.broker, self.freshness = work, broker, freshness
        self.warehouse = warehouse
        self.proc = None
        work.mkdir(parents=True, exist_ok=True)
        plugins = work / "plugins"
        plugins.mkdir(exist_ok=True)
        # plugin.path wants a folder of plugin folders; the jar cache holds
        # other sets too, so the Iceberg one is linked alone.
        link = plugins / "iceberg-kafka-connect"
        if not link.exists():
            link.symlink_to(paths.jar_dir("connect-iceberg"), target_is_directory=True)
        broker.create_topic("control-iceberg", partitions=1)
        (work / "log4j2.properties").write_text(_LOG4J2)
        (work / "worker.properties").write_text("\n".join([
            f"bootstrap.servers={broker.bootstrap}",
            "key.converter=org.apache.kafka.connect.json.JsonConverter",
            "key.converter.schemas.enable=false",
            "value.converter=org.apache.kafka.connect.json.JsonConverter",
            "value.converter.schemas.enable=false",
            f"offset.storage.file.filename={work / 'connect.offsets'}",
            f"plugin.path={plugins}",
            f"listeners=http://127.0.0.1:{free_port()}",
            "consumer.max.partition.fetch.bytes=8388608",
            # A sink task handles the coordinator's commit requests only
            # between polls, and an idle task polls for up to this long (60 s
            # by default): tuned to the freshness, as a user after freshness
            # F would.
            f"offset.flush.interval.ms={freshness * 1000}",
            "",
        ]))
        (work / "sink.properties").write_text("\n".join([
            "name=iceberg-sink",
            "connector.class=org.apache.iceberg.connect.IcebergSinkConnector",
            "tasks.max=2",
            f"topics={TOPIC}",
            "iceberg.tables=db.connect_events",
            "iceberg.tables.auto-create-enabled=true",
            "iceberg.catalog.type=hadoop",
            f"iceberg.catalog.warehouse=file://{warehouse}",
            f"iceberg.control.commit.interval-ms={freshness * 1000}",
            "iceberg.control.topic=control-iceberg",
            "",
        ]))

    def start(self) -> int:
        jars = sorted(paths.jar_dir("connect-worker").glob("*.jar"))
        java = paths.java_home() / "bin" / "java"
        argv = [str(java), "-Xmx1g", f"-Dlog4j2.configurationFile=file:{self.work}/log4j2.properties",
                "-cp", ":".join(str(j) for j in jars),
                "org.apache.kafka.connect.cli.ConnectStandalone",
                str(self.work / "worker.properties"), str(self.work / "sink.properties")]
        return self.launch(argv, "connect.log")


# ------------------------------------------------------------------ the run

def run_system(system: System, broker, records: int, size_bytes: int, next_record: int,
               probe_seconds: float, timeout_s: float, encode=record) -> tuple[dict, int]:
    t0 = time.monotonic()
    root = system.start()
    cpu_s = rss = first_commit_s = None
    while True:
        snaps = system.snapshots()
        got = total_records(snaps)
        if first_commit_s is None and got > 0:
            first_commit_s = time.monotonic() - t0
        if got >= records:
            elapsed = time.monotonic() - t0
            cpu_s = tree_cpu_seconds(root)
            rss = tree_peak_rss_mib(root)
            break
        if time.monotonic() - t0 > timeout_s:
            system.stop()
            raise RuntimeError(f"{system.name}: {got} of {records} records after {timeout_s} s")
        time.sleep(0.25)
    snaps = system.snapshots()
    last = max(snaps, key=lambda s: s["timestamp-ms"])["summary"]
    files = int(last.get("total-data-files", 0))
    size = int(last.get("total-files-size", 0))
    print(f"  {system.name}: {records} records in {elapsed:.1f} s; probing", flush=True)

    # Probe stream: 2 records/s into partition 0, each visible when the first
    # snapshot's total-records covers it (partition order = commit order).
    producer = broker.producer(**{"linger.ms": 0})
    sent = []
    base = got
    deadline = time.monotonic() + probe_seconds
    n = next_record
    while time.monotonic() < deadline:
        producer.produce(TOPIC, encode(n), partition=0)
        producer.flush(10)
        sent.append(time.time() * 1000)
        n += 1
        time.sleep(0.5)
    wait_until = time.monotonic() + 120
    while total_records(system.snapshots()) < base + len(sent) and time.monotonic() < wait_until:
        time.sleep(0.25)
    snaps = sorted(system.snapshots(), key=lambda s: s["timestamp-ms"])
    latencies = []
    for k, produced_ms in enumerate(sent):
        visible = next((s["timestamp-ms"] for s in snaps
                        if int(s["summary"].get("total-records", 0)) >= base + k + 1), None)
        if visible is not None:
            latencies.append((visible - produced_ms) / 1000)
    # Every system's table read back with PyIceberg: each preloaded record and
    # probe once (the check; the summaries above only say "at least").
    rows = system.rows()
    system.stop()
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] if latencies else None

    return {
        "system": system.name, "wall_s": elapsed, "first_commit_s": first_commit_s, "mb_s": size_bytes / 1e6 / elapsed,
        "records_s": records / elapsed, "cpu_s_per_gb": cpu_s / (size_bytes / 1e9),
        "peak_rss_mib": rss, "data_files": files,
        "mean_file_mb": size / files / 1e6 if files else 0.0,
        "probes_visible": f"{len(latencies)}/{len(sent)}",
        "visible_p50_s": pct(0.5), "visible_p99_s": pct(0.99),
        "rows_read": rows, "rows_expected": records + len(sent),
    }, n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=str(REPO / "build"))
    parser.add_argument("--size-mb", type=int, default=2048)
    parser.add_argument("--freshness", type=int, default=10)
    parser.add_argument("--probe-seconds", type=float, default=30)
    parser.add_argument("--systems", default="references,streamtables,connect,spark")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--json-out", default="")
    parser.add_argument("--format", choices=("json", "avro"), default="json",
                        help="the records' encoding (avro: Confluent-framed, see the docstring)")
    # The Spark job's own process (internal).
    parser.add_argument("--spark-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work", help=argparse.SUPPRESS)
    parser.add_argument("--warehouse", help=argparse.SUPPRESS)
    parser.add_argument("--bootstrap", help=argparse.SUPPRESS)
    parser.add_argument("--create", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spark_child:
        spark_child(args)
        return
    os.environ["ST_BUILD_DIR"] = str(pathlib.Path(args.build_dir).resolve())
    wanted = args.systems.split(",")
    if args.format == "avro" and "connect" in wanted:
        print("connect: not run with --format avro: Kafka Connect reads Confluent-framed Avro "
              "with io.confluent:kafka-connect-avro-converter, which is published on "
              "Confluent's Maven repository, not Maven Central", flush=True)
        wanted.remove("connect")

    work = pathlib.Path(tempfile.mkdtemp(prefix="peer-bench-"))
    warehouse = work / "warehouse"
    broker = KafkaBroker(work / "kafka", name="kafka", heap="1g").start()
    systems: list[System] = []
    registry_server = None  # --format avro without streamtables: the registry alone.
    results = []
    references: list[dict] = []
    try:
        broker.create_topic(TOPIC, partitions=PARTITIONS)
        # Everything is set up before the preload; each system then starts
        # from the earliest offset in its turn.
        if "streamtables" in wanted:
            systems.append(Streamtables(work / "st", broker, pathlib.Path(args.build_dir),
                                        args.freshness, args.format))
        encode = record
        if args.format == "avro":
            # Serialized through our built-in registry (the channel reads the
            # writer schema there; Spark is given the same schema).
            st_system = next((s for s in systems if isinstance(s, Streamtables)), None)
            if st_system is None:
                registry_server = StreamtablesServer(
                    work / "registry", build_dir=pathlib.Path(args.build_dir)).start()
            registry = st_system.server if st_system else registry_server
            encode = encoder_for("avro", registry, TOPIC, work)
        spark = Spark(work / "spark", broker, args.freshness, warehouse, args.format)
        (work / "spark").mkdir(parents=True, exist_ok=True)
        peer_tables = [t for s, t in (("connect", "connect_events"), ("spark", "spark_events"))
                       if s in wanted]
        if peer_tables:
            spark.create_tables(*peer_tables)
        if "connect" in wanted:
            systems.append(Connect(work / "connect", broker, args.freshness, warehouse))
        if "spark" in wanted:
            systems.append(spark)
        t0 = time.monotonic()
        records, total = preload(broker, TOPIC, args.size_mb << 20, encode=encode)
        print(f"preloaded {records} records, {total / 1e6:.0f} MB in "
              f"{time.monotonic() - t0:.0f} s", flush=True)
        if "references" in wanted:
            references = run_references(broker, pathlib.Path(args.build_dir), work, records,
                                        encode)
        # Probes of one system are records the next one delivers too.
        expected, next_record = records, records
        for system in systems:
            result, after = run_system(system, broker, expected, total, next_record,
                                       args.probe_seconds, args.timeout, encode)
            results.append(result)
            expected += after - next_record
            next_record = after
            print(json.dumps(result), flush=True)
    finally:
        for system in systems:
            try:
                system.stop()
            except Exception:  # noqa: BLE001
                pass
        if registry_server is not None:
            registry_server.stop()
        broker.stop()

    ours = next((r for r in results if r["system"] == "streamtables"), None)
    cols = ["system", "wall_s", "first_commit_s", "mb_s", "records_s", "cpu_s_per_gb", "peak_rss_mib", "data_files",
            "mean_file_mb", "visible_p50_s", "visible_p99_s", "probes_visible", "rows_read",
            "rows_expected"]
    print(f"\n{records} {args.format} records, {total / 1e6:.0f} MB, {PARTITIONS} partitions, "
          f"freshness {args.freshness} s")
    print("| " + " | ".join(cols) + " | ours / it (MB/s) | it / ours (CPU/GB) |")
    print("|" + "---|" * (len(cols) + 2))
    for r in results:
        cells = [f"{r[c]:.2f}" if isinstance(r[c], float) else str(r[c]) for c in cols]
        ratio = f"{ours['mb_s'] / r['mb_s']:.2f}" if ours else "-"
        cpu = f"{r['cpu_s_per_gb'] / ours['cpu_s_per_gb']:.2f}" if ours else "-"
        print("| " + " | ".join(cells) + f" | {ratio} | {cpu} |")
    if references:
        print("\n| physical reference (one core) | MB/s | CPU-s/GB | ours / it (CPU/GB) |")
        print("|---|---|---|---|")
        for r in references:
            mine = f"{ours['cpu_s_per_gb'] / r['cpu_s_per_gb']:.1f}" if ours else "-"
            print(f"| {r['reference']} | {r['mb_s']:.1f} | {r['cpu_s_per_gb']:.3f} | {mine} |")
    if args.json_out:
        pathlib.Path(args.json_out).write_text(
            json.dumps({"systems": results, "references": references}, indent=2))
    shutil.rmtree(work, ignore_errors=True)
    wrong = [r["system"] for r in results if r["rows_read"] != r["rows_expected"]]
    if wrong:
        sys.exit(f"rows read back with PyIceberg differ from the records produced: {wrong}")
    print("every table read back with PyIceberg holds each produced record once (by event_id)")


if __name__ == "__main__":
    main()
