"""Scan planning prunes our files: partition values (day(ts)) and column
bounds (id) in our manifests let PyIceberg and Spark skip files.

The clickstream table spreads `ts` over ten days, so day(ts) gives about ten
files per commit; ids grow with each commit, so `id` bounds separate commits.
"""

import datetime

import pytest
from pyiceberg.expressions import And, GreaterThanOrEqual, LessThan
from pyiceberg.table import StaticTable

import dev_tables as dt

DAY_MICROS = 86_400_000_000
CUTOFF = datetime.datetime(2025, 3, 8, tzinfo=datetime.timezone.utc)
CUTOFF_MICROS = int(CUTOFF.timestamp()) * 1_000_000
ROWS = 1500
COMMITS = 2


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    from harness.binaries import Binaries
    from harness.paths import build_dir

    bins = Binaries(build_dir(), log_dir=tmp_path_factory.mktemp("logs"))
    location, rows = dt.write_table(bins, tmp_path_factory.mktemp("wh"), "clickstream", rows=ROWS,
                                    seed=3, commits=COMMITS, partition_by="day(ts)")
    return location, rows


def test_pyiceberg_prunes_by_partition(table):
    location, rows = table
    t = StaticTable.from_metadata(location)
    all_files = list(t.scan().plan_files())
    assert len(all_files) >= 2 * COMMITS * 5
    row_filter = GreaterThanOrEqual("ts", CUTOFF.isoformat())
    kept = list(t.scan(row_filter=row_filter).plan_files())
    assert 0 < len(kept) < len(all_files)
    days = {f.file.partition[0] for f in kept}
    assert min(days) >= CUTOFF_MICROS // DAY_MICROS
    got = t.scan(row_filter=row_filter).to_arrow().num_rows
    assert got == sum(1 for r in rows if r["ts"] >= CUTOFF_MICROS)


def test_pyiceberg_prunes_by_column_bounds(table):
    location, rows = table
    t = StaticTable.from_metadata(location)
    all_files = list(t.scan().plan_files())
    second_commit = GreaterThanOrEqual("id", ROWS)
    kept = list(t.scan(row_filter=second_commit).plan_files())
    # Exactly the files whose id upper bound reaches ROWS: the second commit's.
    import struct
    expected = {f.file.file_path for f in all_files
                if struct.unpack("<q", f.file.upper_bounds[1])[0] >= ROWS}
    assert 0 < len(expected) < len(all_files)
    assert {f.file.file_path for f in kept} == expected
    both = And(second_commit, LessThan("ts", CUTOFF.isoformat()))
    assert len(list(t.scan(row_filter=both).plan_files())) < len(kept)
    assert t.scan(row_filter=second_commit).to_arrow().num_rows == ROWS * (COMMITS - 1)


def test_spark_reads_fewer_files_with_a_filter(table, spark):
    from pyspark.sql.functions import input_file_name

    location, rows = table
    df = spark.read.format("iceberg").load(location)
    every = df.select(input_file_name().alias("f")).distinct().count()
    filtered = df.filter(f"ts >= TIMESTAMP '{CUTOFF.strftime('%Y-%m-%d %H:%M:%S')}'")
    touched = filtered.select(input_file_name().alias("f")).distinct().count()
    assert 0 < touched < every
    assert filtered.count() == sum(1 for r in rows if r["ts"] >= CUTOFF_MICROS)
