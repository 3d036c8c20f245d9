"""Tables written by `streamtables dev write-table` read back value for value
through PyIceberg, DuckDB, Spark and pyarrow (every data file), with Parquet
field ids on every field and manifest metrics equal to what Python computes
from the generated rows (--dump-rows).

Matrix: each built-in schema × each codec, several commits, and small
row-group and page sizes so files have many row groups and pages. Spark reads
a few of the tables in one session (it is slow on 2 cores); it cannot read
all-types at all, because Spark has no type for Iceberg's `time`.
"""

import pathlib

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyiceberg.table import StaticTable
from pyiceberg.types import DateType, ListType, MapType, StructType, TimestampType, TimestamptzType

import dev_tables as dt
from harness.duckdb_engine import iceberg_scan_sql
from harness.readers import local_path

SCHEMAS = ("all-types", "nested", "clickstream")
CODECS = ("zstd", "snappy", "gzip", "uncompressed")
ROWS = {"all-types": 300, "nested": 300, "clickstream": 400}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Writes every schema × codec table once: {(schema, codec): (location, rows)}."""
    from harness.binaries import Binaries
    from harness.paths import build_dir

    bins = Binaries(build_dir(), log_dir=tmp_path_factory.mktemp("logs"))
    out = {}
    for schema in SCHEMAS:
        for codec in CODECS:
            wh = tmp_path_factory.mktemp(f"{schema}-{codec}")
            # Small row groups and pages: many of each per file.
            out[(schema, codec)] = dt.write_table(
                bins, wh, schema, rows=ROWS[schema], seed=7, commits=3, codec=codec,
                row_group_bytes=8192, page_bytes=1024,
                partition_by="day(ts)" if schema != "nested" else None)
    return out


def _check(schema, expected_rows, actual_rows, engine, adjust=None):
    expected = dt.canon_rows(schema, expected_rows, "dump", adjust)
    actual = dt.canon_rows(schema, actual_rows, "engine")
    problems = dt.diff_rows(expected, actual)
    assert not problems, f"{engine}: " + "\n".join(problems)


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("schema_name", SCHEMAS)
def test_pyiceberg_and_pyarrow_read_every_value(tables, schema_name, codec):
    location, rows = tables[(schema_name, codec)]
    table = StaticTable.from_metadata(location)
    assert len(table.metadata.snapshots) == 3
    schema = table.schema()
    _check(schema, rows, table.scan().to_arrow().to_pylist(), "pyiceberg",
           adjust=dt.null_struct_lists_as_empty)

    files = [task.file for task in table.scan().plan_files()]
    parts = []
    for f in files:
        pf = pq.ParquetFile(local_path(f.file_path))
        assert pf.metadata.num_row_groups == len(f.split_offsets or []), f.file_path
        parts.append(pf.read())
    _check(schema, rows, pa.concat_tables(parts).to_pylist(), "pyarrow")


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("schema_name", SCHEMAS)
def test_duckdb_reads_every_value(tables, duckdb_conn, schema_name, codec):
    location, rows = tables[(schema_name, codec)]
    schema = StaticTable.from_metadata(location).schema()
    result = duckdb_conn.execute(iceberg_scan_sql(location)).to_arrow_table()
    _check(schema, rows, result.to_pylist(), "duckdb")


@pytest.mark.parametrize("schema_name,codec", [("nested", "zstd"), ("clickstream", "snappy"),
                                               ("clickstream", "gzip")])
def test_spark_reads_every_value(tables, spark, schema_name, codec):
    location, rows = tables[(schema_name, codec)]
    schema = StaticTable.from_metadata(location).schema()
    # Dates and timestamps as numbers, so Python's datetime range and Spark's
    # calendar handling stay out of the comparison.
    columns = []
    for f in schema.fields:
        if isinstance(f.field_type, TimestamptzType):
            columns.append(f"unix_micros(`{f.name}`) AS `{f.name}`")
        elif isinstance(f.field_type, TimestampType):
            columns.append(f"unix_micros(CAST(`{f.name}` AS TIMESTAMP)) AS `{f.name}`")
        elif isinstance(f.field_type, DateType):
            columns.append(f"unix_date(`{f.name}`) AS `{f.name}`")
        else:
            columns.append(f"`{f.name}`")
    df = spark.read.format("iceberg").load(location).selectExpr(*columns)
    _check(schema, rows, df.collect(), "spark")


def _arrow_field_ids(field: pa.Field, path: str, out: dict):
    meta = field.metadata or {}
    out[path] = int(meta[b"PARQUET:field_id"]) if b"PARQUET:field_id" in meta else None
    t = field.type
    if pa.types.is_struct(t):
        for i in range(t.num_fields):
            _arrow_field_ids(t.field(i), f"{path}.{t.field(i).name}", out)
    elif pa.types.is_map(t):
        _arrow_field_ids(t.key_field, f"{path}.key", out)
        _arrow_field_ids(t.item_field, f"{path}.value", out)
    elif pa.types.is_list(t) or pa.types.is_large_list(t):
        _arrow_field_ids(t.value_field, f"{path}.element", out)


def _iceberg_field_ids(t, path: str, out: dict):
    for f in t.fields:
        p = f"{path}{f.name}"
        out[p] = f.field_id
        _iceberg_nested_ids(f.field_type, p, out)


def _iceberg_nested_ids(t, p, out):
    if isinstance(t, StructType):
        _iceberg_field_ids(t, p + ".", out)
    elif isinstance(t, ListType):
        out[p + ".element"] = t.element_id
        _iceberg_nested_ids(t.element_type, p + ".element", out)
    elif isinstance(t, MapType):
        out[p + ".key"] = t.key_id
        out[p + ".value"] = t.value_id
        _iceberg_nested_ids(t.key_type, p + ".key", out)
        _iceberg_nested_ids(t.value_type, p + ".value", out)


@pytest.mark.parametrize("schema_name", SCHEMAS)
def test_field_ids_and_manifest_metrics(tables, schema_name):
    location, rows = tables[(schema_name, "zstd")]
    table = StaticTable.from_metadata(location)
    schema = table.schema()
    expected_ids = {}
    _iceberg_field_ids(schema.as_struct(), "", expected_ids)
    typed_by_id = {}
    for row in rows:
        typed = {f.name: dt.from_dump(f.field_type, row.get(f.name)) for f in schema.fields}
        typed_by_id[typed["id"]] = typed

    # The manifests' data_file records. Not inspect.files(): PyIceberg 0.12
    # cannot build its readable_metrics for uuid columns (ArrowNotImplementedError).
    files = []
    for manifest in table.current_snapshot().manifests(table.io):
        for entry in manifest.fetch_manifest_entry(table.io, discard_deleted=True):
            d = entry.data_file
            files.append({k: getattr(d, k) for k in (
                "file_path", "record_count", "file_size_in_bytes", "split_offsets", "column_sizes",
                "value_counts", "null_value_counts", "nan_value_counts", "lower_bounds",
                "upper_bounds")})
    assert sum(f["record_count"] for f in files) == len(rows)
    for f in files:
        path = local_path(f["file_path"])
        pf = pq.ParquetFile(path)
        # Field ids on every field, nested ones included.
        ids = {}
        for field in pf.schema_arrow:
            _arrow_field_ids(field, field.name, ids)
        assert ids == expected_ids, path
        assert f["file_size_in_bytes"] == pathlib.Path(path).stat().st_size
        assert f["split_offsets"] == [pf.metadata.row_group(i).column(0).file_offset
                                      if pf.metadata.row_group(i).column(0).dictionary_page_offset is None
                                      else pf.metadata.row_group(i).column(0).dictionary_page_offset
                                      for i in range(pf.metadata.num_row_groups)]
        # Metrics from the rows actually in this file.
        file_ids = pf.read(columns=["id"]).column("id").to_pylist()
        want = dt.expected_metrics(schema, [typed_by_id[i] for i in file_ids])
        for key in ("value_counts", "null_value_counts", "nan_value_counts", "lower_bounds",
                    "upper_bounds"):
            got = dt.arrow_map(f[key])
            assert got == want[key], f"{path} {key}: got {got}, want {want[key]}"
        # Column sizes: the compressed sizes of each leaf's chunks.
        sizes = {}
        md = pf.metadata
        for rg in range(md.num_row_groups):
            for c in range(md.num_columns):
                col = md.row_group(rg).column(c)
                fid = pf.schema_arrow  # noqa: F841 (ids checked above)
                sizes[c] = sizes.get(c, 0) + col.total_compressed_size
        assert sorted(dt.arrow_map(f["column_sizes"]).values()) == sorted(sizes.values()), path
