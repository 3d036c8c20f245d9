"""Record expiration run by the server's maintenance service on a table
partitioned by hour(ts) (timestamptz), written by PyIceberg and read back by
PyIceberg and DuckDB: rows older than now − days are gone, newer rows intact,
and GetTableRecordExpirationJobStatus reports the counts.
"""

import datetime
import json

import pyarrow as pa
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import HourTransform
from pyiceberg.types import LongType, NestedField, TimestamptzType

from iceberg_rest_clients import new_bucket, pyiceberg_catalog, s3_writes_available
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
