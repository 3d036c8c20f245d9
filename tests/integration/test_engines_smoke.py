"""The foreign readers work: a table written by PyIceberg itself reads back the
same through PyIceberg, pyarrow (the Parquet files), DuckDB and Spark.

This proves the reader stack independently of our own writer.
"""

import datetime
import decimal

import pyarrow as pa
import pytest
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import (BinaryType, BooleanType, DateType, DecimalType, DoubleType, IntegerType,
                             ListType, LongType, MapType, NestedField, StringType, StructType, TimestampType,
                             TimestamptzType)

from harness.readers import sorted_rows

SCHEMA = Schema(
    NestedField(1, "id", LongType(), required=True),
    NestedField(2, "name", StringType()),
    NestedField(3, "score", DoubleType()),
    NestedField(4, "active", BooleanType()),
    NestedField(5, "day", DateType()),
    NestedField(6, "event_ts", TimestamptzType()),
    NestedField(7, "local_ts", TimestampType()),
    NestedField(8, "amount", DecimalType(10, 2)),
    NestedField(9, "raw", BinaryType()),
    NestedField(10, "tags", ListType(11, IntegerType(), element_required=False)),
    NestedField(12, "point", StructType(NestedField(13, "x", IntegerType()),
                                        NestedField(14, "y", IntegerType()))),
    NestedField(15, "region", StringType()),
    NestedField(16, "attrs", MapType(17, StringType(), 18, StringType(), value_required=False)),
)

UTC = datetime.timezone.utc


def make_rows(start, count):
    rows = []
    for i in range(start, start + count):
        rows.append({
            "id": i,
            "name": None if i % 7 == 0 else f"name-{i}",
            "score": i * 1.5,
            "active": i % 2 == 0,
            "day": datetime.date(2024, 1, 1) + datetime.timedelta(days=i),
            "event_ts": datetime.datetime(2024, 5, 1, 12, 0, tzinfo=UTC) + datetime.timedelta(seconds=i),
            "local_ts": datetime.datetime(2024, 5, 1, 8, 30) + datetime.timedelta(microseconds=i),
            "amount": decimal.Decimal(i * 100 + 25).scaleb(-2),
            "raw": bytes([i % 256, 0, 255]),
            "tags": [i, None, -i] if i % 3 else [],
            "point": {"x": i, "y": -i},
            "region": ["eu", "us", "ap"][i % 3],
            "attrs": {"k": f"v{i}", "n": None} if i % 4 else {},
        })
    return rows


def expected(rows):
    """What every engine should return: naive UTC for timestamptz."""
    out = []
    for row in rows:
        row = dict(row)
        row["event_ts"] = row["event_ts"].astimezone(UTC).replace(tzinfo=None)
        out.append(row)
    return out


@pytest.fixture(scope="module")
def pyiceberg_table(tmp_path_factory):
    """A partitioned table with two snapshots, written by PyIceberg; yields (table, rows)."""
    root = tmp_path_factory.mktemp("pyiceberg")
    catalog = SqlCatalog("smoke", uri=f"sqlite:///{root}/catalog.db", warehouse=f"file://{root}/warehouse")
    catalog.create_namespace("smoke")
    spec = PartitionSpec(PartitionField(source_id=15, field_id=1000, transform=IdentityTransform(),
                                        name="region"))
    table = catalog.create_table("smoke.events", schema=SCHEMA, partition_spec=spec)
    arrow_schema = table.schema().as_arrow()
    first, second = make_rows(0, 40), make_rows(40, 25)
    table.append(pa.Table.from_pylist(first, schema=arrow_schema))
    table.append(pa.Table.from_pylist(second, schema=arrow_schema))
    table = catalog.load_table("smoke.events")
    assert len(table.snapshots()) == 2
    return table, first + second


def test_every_engine_reads_the_same_rows(pyiceberg_table, iceberg_reader):
    table, rows = pyiceberg_table
    got = iceberg_reader(table.metadata_location)
    want = expected(rows)
    assert len(got) == len(want)
    by_id = lambda r: r["id"]  # noqa: E731
    for got_row, want_row in zip(sorted_rows(got, by_id), sorted_rows(want, by_id)):
        assert got_row == want_row, f"{iceberg_reader.engine} differs on id {want_row['id']}"


def test_spark_sql_sees_snapshots_and_partitions(pyiceberg_table, spark):
    table, rows = pyiceberg_table
    df = spark.read.format("iceberg").load(table.metadata_location)
    df.createOrReplaceTempView("smoke_events")
    counts = {r["region"]: r["n"] for r in
              spark.sql("SELECT region, count(*) AS n FROM smoke_events GROUP BY region").collect()}
    assert counts == {region: sum(1 for r in rows if r["region"] == region) for region in ("eu", "us", "ap")}
    snapshots = spark.read.format("iceberg").load(table.metadata_location + "#snapshots").count()
    assert snapshots == 2


def test_duckdb_sees_the_snapshot_history(pyiceberg_table, duckdb_conn):
    table, rows = pyiceberg_table
    location = table.metadata_location.removeprefix("file://")
    snapshots = duckdb_conn.execute(f"SELECT count(*) FROM iceberg_snapshots('{location}')").fetchone()[0]
    assert snapshots == 2
    first = table.snapshots()[0].snapshot_id
    n = duckdb_conn.execute(
        f"SELECT count(*) FROM iceberg_scan('{location}', snapshot_from_id = {first})").fetchone()[0]
    assert n == 40
