"""Record expiration run by the server's maintenance service on a table
partitioned by hour(ts) (timestamptz), written by PyIceberg and read back by
PyIceberg, DuckDB and Spark: rows older than now − days are gone (whole files
dropped, the file straddling the horizon rewritten without its old rows),
newer rows intact, and GetTableRecordExpirationJobStatus reports the counts.
A channel whose table has record expiration sends records older than the
horizon (by Kafka timestamp here) to its DLQ as RECORD_EXPIRED.
"""

import base64
import datetime
import json
import time

import pyarrow as pa
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import HourTransform
from pyiceberg.types import LongType, NestedField, TimestamptzType

from harness.channels import ChannelSetup
from iceberg_rest_clients import new_bucket, pyiceberg_catalog, s3_writes_available
from test_iceberg_rest_engines import spark_catalog
from test_maintenance_snapshots import NO_SCHEDULER, duckdb_rows_sql, run_job

SCHEMA = Schema(NestedField(1, "id", LongType(), required=True),
                NestedField(2, "ts", TimestamptzType(), required=True))
SPEC = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=HourTransform(),
                                    name="ts_hour"))
ARROW = pa.schema([pa.field("id", pa.int64(), nullable=False),
                   pa.field("ts", pa.timestamp("us", tz="UTC"), nullable=False)])


def batch(first: int, count: int, at: datetime.datetime) -> pa.Table:
    return pa.Table.from_pylist([{"id": i, "ts": at + datetime.timedelta(seconds=i % 60)}
                                 for i in range(first, first + count)], schema=ARROW)


def record_expiration(server, method: str, path: str, table_arn: str, body=None) -> dict:
    r = server.signed_request(method, server.api_url + path, params={"tableArn": table_arn},
                              body=json.dumps(body) if body is not None else None,
                              headers={"Content-Type": "application/json"} if body else {})
    assert r.status_code < 300, r.text
    return r.json() if r.content else {}


def test_old_files_dropped_new_rows_intact_and_counts_reported(fresh_server):
    server = fresh_server(extra_args=NO_SCHEDULER)
    assert s3_writes_available(server)
    arn = new_bucket(server, prefix="recexp")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA, partition_spec=SPEC)
    now = datetime.datetime.now(datetime.timezone.utc).replace(minute=0, second=0, microsecond=0)
    old = now - datetime.timedelta(days=3)
    table.append(batch(0, 40, old))                                  # One old hour.
    table.append(batch(40, 30, old + datetime.timedelta(hours=5)))   # Another old hour.
    table.append(batch(100, 25, now))                                # Fresh.
    table_arn = server.boto3_client("s3tables").get_table(
        tableBucketARN=arn, namespace="ns", name="t")["tableARN"]

    assert record_expiration(server, "GET", "/table-record-expiration-job-status",
                             table_arn) == {"status": "Disabled"}
    record_expiration(server, "PUT", "/table-record-expiration", table_arn,
                      {"value": {"status": "enabled", "settings": {"days": 1}}})
    assert record_expiration(server, "GET", "/table-record-expiration-job-status",
                             table_arn) == {"status": "NotYetRun"}

    result = run_job(server, arn, "recordExpiration")
    assert result["status"] == "Successful", result
    assert result["deletedRecords"] == 70 and result["deletedDataFiles"] == 2

    after = cat.load_table("ns.t")
    got = sorted(r["id"] for r in after.scan().to_arrow().to_pylist())
    assert got == list(range(100, 125))
    assert sorted(r[0] for r in duckdb_rows_sql(server, arn, "SELECT id FROM st.ns.t")) == got
    assert after.current_snapshot().summary.operation.value == "delete"

    status = record_expiration(server, "GET", "/table-record-expiration-job-status", table_arn)
    assert status["status"] == "Successful"
    assert "lastRunTimestamp" in status
    assert status["metrics"]["deletedDataFiles"] == 2
    assert status["metrics"]["deletedRecords"] == 70
    assert status["metrics"]["removedFilesSize"] > 0


def rows_at(first: int, stamps: list) -> pa.Table:
    return pa.Table.from_pylist([{"id": first + i, "ts": ts} for i, ts in enumerate(stamps)],
                                schema=ARROW)


def live_files(table) -> dict:
    return {task.file.file_path: task.file for task in table.scan().plan_files()}


def enable_and_run(server, arn: str) -> tuple[str, dict]:
    """Turns record expiration on for ns.t at 1 day and runs the job now:
    the table's ARN and the job's result."""
    table_arn = server.boto3_client("s3tables").get_table(
        tableBucketARN=arn, namespace="ns", name="t")["tableARN"]
    record_expiration(server, "PUT", "/table-record-expiration", table_arn,
                      {"value": {"status": "enabled", "settings": {"days": 1}}})
    return table_arn, run_job(server, arn, "recordExpiration")


def test_straddling_file_rewritten_without_old_rows_in_one_overwrite(fresh_server, spark):
    # With days = 1 the horizon is now − 24 h, inside hour P (of yesterday),
    # where one file holds rows on both sides. No clock offset: it would date
    # the job's snapshot hours ahead of the real clock, and DuckDB then fails
    # to load the table (it HEADs an older metadata file at AWS's host).
    server = fresh_server(extra_args=NO_SCHEDULER)
    hour, day = datetime.timedelta(hours=1), datetime.timedelta(days=1)
    margin = datetime.timedelta(seconds=30)  # Bounds how long the job may take to start.
    horizon = datetime.datetime.now(datetime.timezone.utc) - day
    hour_start = horizon.replace(minute=0, second=0, microsecond=0)
    if hour_start + hour - horizon < 2 * margin:  # No room for new rows in P: wait for the next.
        time.sleep((hour_start + hour - horizon).total_seconds() + 1)
        horizon = datetime.datetime.now(datetime.timezone.utc) - day
        hour_start = horizon.replace(minute=0, second=0, microsecond=0)
    step_old = (horizon - hour_start) / 30
    step_new = (hour_start + hour - horizon - margin) / 31
    old_in_p = [hour_start + i * step_old for i in range(30)]           # Before the horizon.
    new_in_p = [horizon + margin + (i + 1) * step_new for i in range(30)]  # After it, still in P.

    arn = new_bucket(server, prefix="recexp")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA, partition_spec=SPEC)
    table.append(batch(0, 20, hour_start - datetime.timedelta(days=2)))  # Wholly old.
    table.append(rows_at(100, old_in_p + new_in_p))                      # Straddles: ids 100-159.
    table.append(batch(200, 25, horizon + day - hour))                   # Fresh.
    before = live_files(cat.load_table("ns.t"))
    assert len(before) == 3
    straddler = next(p for p, f in before.items() if f.record_count == 60)
    fresh = next(p for p, f in before.items() if f.record_count == 25)
    table_arn, result = enable_and_run(server, arn)
    assert result["status"] == "Successful", result
    assert result["deletedRecords"] == 20 + 30 and result["deletedDataFiles"] == 2, result

    after = cat.load_table("ns.t")
    assert after.current_snapshot().summary.operation.value == "overwrite"
    files = live_files(after)
    assert fresh in files and straddler not in files and len(files) == 2
    (rewritten,) = set(files) - {fresh}
    assert rewritten.startswith(after.location() + "/data/ts_hour=")
    assert files[rewritten].record_count == 30
    assert files[rewritten].partition == before[straddler].partition

    expected = list(range(130, 160)) + list(range(200, 225))
    got = sorted(r["id"] for r in after.scan().to_arrow().to_pylist())
    assert got == expected
    assert sorted(r[0] for r in duckdb_rows_sql(server, arn, "SELECT id FROM st.ns.t")) == expected
    name = spark_catalog(spark, server, arn)
    assert sorted(r[0] for r in spark.sql(f"SELECT id FROM {name}.ns.t").collect()) == expected
    # The kept rows are byte-for-byte the written ones.
    kept = {r["id"]: r["ts"] for r in after.scan().to_arrow().to_pylist()}
    assert [kept[130 + i] for i in range(30)] == new_in_p

    status = record_expiration(server, "GET", "/table-record-expiration-job-status", table_arn)
    assert status["status"] == "Successful"
    assert status["metrics"] == {"deletedDataFiles": 2, "deletedRecords": 50,
                                 "removedFilesSize": sum(before[p].file_size_in_bytes
                                                         for p in before if p != fresh)}


def test_a_straddling_file_past_the_memory_budget_fails_the_job_naming_it(fresh_server):
    """Record expiration's rewrite of a straddling file is under
    --compaction-memory-budget-mb like compaction: 400,000 rows (6.4 MB of
    decoded values, a few MB as rows) against a 2 MB budget fail the job
    naming the file, and the table is unchanged for every reader."""
    server = fresh_server(extra_args=NO_SCHEDULER + ["--compaction-memory-budget-mb", "2"])
    hour, day = datetime.timedelta(hours=1), datetime.timedelta(days=1)
    horizon = datetime.datetime.now(datetime.timezone.utc) - day
    hour_start = horizon.replace(minute=0, second=0, microsecond=0)
    if hour_start + hour - horizon < datetime.timedelta(minutes=1):
        time.sleep((hour_start + hour - horizon).total_seconds() + 1)
        horizon = datetime.datetime.now(datetime.timezone.utc) - day
        hour_start = horizon.replace(minute=0, second=0, microsecond=0)
    rows = 400_000
    start_us = int(hour_start.timestamp() * 1_000_000)
    span_us = int(3_599 * 1_000_000)  # The whole hour P: rows on both sides of the horizon.
    stamps = pa.array([start_us + i * span_us // rows for i in range(rows)], pa.int64())
    data = pa.table({"id": pa.array(range(rows), pa.int64()),
                     "ts": stamps.cast(pa.timestamp("us", tz="UTC"))}, schema=ARROW)

    arn = new_bucket(server, prefix="recexp")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA, partition_spec=SPEC)
    table.append(data)
    table = cat.load_table("ns.t")
    (straddler,) = live_files(table)
    before_snapshot = table.metadata.current_snapshot_id
    table_arn, result = enable_and_run(server, arn)
    assert result["status"] == "Failed", result
    message = result.get("failureMessage", "")
    assert "exceeds the compaction memory budget" in message, message
    assert straddler in message, message
    status = record_expiration(server, "GET", "/table-record-expiration-job-status", table_arn)
    assert status["status"] == "Failed", status
    assert server.running
    after = cat.load_table("ns.t")
    assert after.metadata.current_snapshot_id == before_snapshot
    assert list(live_files(after)) == [straddler]
    assert duckdb_rows_sql(server, arn, "SELECT count(*), sum(id) FROM st.ns.t") == [
        (rows, rows * (rows - 1) // 2)]


ID_SCHEMA = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
             "properties": {"id": {"type": "integer"}}, "required": ["id"]}


def test_late_records_go_to_the_dlq_as_record_expired(server, kafka, topic_name):
    # Partitioned on _kafka.timestamp: a record's ts is its Kafka timestamp.
    kafka.create_topic(topic_name, partitions=1)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=ID_SCHEMA,
                                  partition_source=None, freshness=1)
    channel.wait_status("ACTIVE")
    now_ms = int(time.time() * 1000)
    old_ms = now_ms - 3 * 86_400_000
    producer = kafka.producer()

    def produce(first: int, stamps: list) -> None:
        for i, ts in enumerate(stamps):
            producer.produce(topic_name, value=json.dumps({"id": first + i}).encode(),
                             timestamp=ts)
        assert producer.flush(30) == 0

    produce(0, [now_ms])  # Creates the table; expiration is not set yet.
    channel.wait_rows(1)
    table_arn = server.boto3_client("s3tables").get_table(
        tableBucketARN=channel.bucket_arn, namespace=channel.namespace,
        name=channel.table)["tableARN"]
    record_expiration(server, "PUT", "/table-record-expiration", table_arn,
                      {"value": {"status": "enabled", "settings": {"days": 1}}})

    # Read by the channel at its next commit cycle: odd ids are 3 days old.
    produce(1, [old_ms if i % 2 == 0 else now_ms for i in range(10)])
    data = channel.wait_rows(6)
    deadline = time.monotonic() + 30
    lines = channel.dlq_lines()
    while len(lines) < 5 and time.monotonic() < deadline:
        time.sleep(0.3)
        lines = channel.dlq_lines()

    rows = data.to_pylist()
    assert sorted(r["id"] for r in rows) == [0, 2, 4, 6, 8, 10]
    assert len(lines) == 5, lines
    assert sorted(json.loads(base64.b64decode(line["value"]))["id"]
                  for line in lines) == [1, 3, 5, 7, 9]
    for line in lines:
        assert line["errorCode"] == "RECORD_EXPIRED"
        assert "record expiration horizon" in line["errorMessage"], line
        assert line["channelArn"] == channel.channel_arn
    # Every offset exactly once: in the table or in the DLQ.
    delivered = [r["_kafka"]["offset"] for r in rows]
    failed = [line["offset"] for line in lines]
    assert sorted(delivered + failed) == list(range(11))
    assert kafka.end_offsets(topic_name) == {0: 11}
