"""Read one Iceberg table back through each foreign engine, as comparable rows.

Every reader takes a metadata location (a metadata.json path or file:// URI)
and returns a list of plain dicts, normalized so that rows from different
engines compare equal (see normalize()). Order is the engine's; sort with
sorted_rows() before comparing.
"""

import datetime
import decimal
import pathlib
from typing import Any, Callable, Optional
from urllib.parse import urlparse

ENGINES = ("pyiceberg", "duckdb", "spark", "pyarrow")


def local_path(location: str) -> str:
    """'file:///a/b' or '/a/b' -> '/a/b'. Other schemes are returned unchanged."""
    location = str(location)
    if location.startswith("file:"):
        return urlparse(location).path
    return location


def normalize(value: Any) -> Any:
    """Maps engine-specific Python values onto one form, recursively.

    Timestamps with a zone become naive UTC (Spark hands back naive values in
    the Python process's zone, which conftest.py sets to UTC); bytearray and
    memoryview become bytes; Spark Rows become dicts (maps already are, see
    _arrow_rows); floats stay floats (compare with tolerance if needed).
    """
    if value is None or isinstance(value, (bool, int, float, str, bytes, decimal.Decimal)):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return value
    if isinstance(value, (datetime.date, datetime.time)):
        return value
    if hasattr(value, "asDict"):  # pyspark Row
        return {k: normalize(v) for k, v in value.asDict(recursive=False).items()}
    if isinstance(value, dict):
        return {normalize(k): normalize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    return value


def sorted_rows(rows: list[dict], key: Optional[Callable[[dict], Any]] = None) -> list[dict]:
    """Rows in a stable order: by `key`, or by their repr."""
    return sorted(rows, key=key or (lambda r: repr(sorted(r.items()))))


def _arrow_rows(table) -> list[dict]:
    # Maps become dicts, as Spark returns them.
    rows = table.to_pylist(maps_as_pydicts="strict")
    return [{k: normalize(v) for k, v in row.items()} for row in rows]


def read_pyiceberg(metadata_location: str, row_filter: Optional[str] = None) -> list[dict]:
    """PyIceberg StaticTable scan (applies deletes)."""
    from pyiceberg.table import StaticTable

    table = StaticTable.from_metadata(str(metadata_location))
    scan = table.scan(row_filter=row_filter) if row_filter else table.scan()
    return _arrow_rows(scan.to_arrow())


def read_pyarrow(metadata_location: str) -> list[dict]:
    """The current snapshot's data files read directly with pyarrow.parquet.

    PyIceberg only plans the files; pyarrow decodes them, so this checks the
    Parquet files themselves. Delete files are not applied.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyiceberg.table import StaticTable

    table = StaticTable.from_metadata(str(metadata_location))
    parts = [pq.ParquetFile(local_path(task.file.file_path)).read() for task in table.scan().plan_files()]
    if not parts:
        return []
    return _arrow_rows(pa.concat_tables(parts, promote_options="permissive"))


def read_duckdb(conn, metadata_location: str) -> list[dict]:
    """DuckDB iceberg_scan() over `conn` (see duckdb_engine.connect())."""
    from .duckdb_engine import iceberg_scan_sql

    return _arrow_rows(conn.execute(iceberg_scan_sql(local_path(metadata_location))).to_arrow_table())


def read_spark(spark, metadata_location: str) -> list[dict]:
    """Spark's Iceberg source loading the metadata file."""
    from .spark_engine import read_iceberg

    return [normalize(row) for row in read_iceberg(spark, metadata_location).collect()]


def metadata_dir_latest(table_dir: pathlib.Path) -> pathlib.Path:
    """The newest *.metadata.json under <table_dir>/metadata (by version prefix)."""
    def version(path: pathlib.Path) -> int:
        # 'v12.metadata.json' (Hadoop tables) or '00012-<uuid>.metadata.json'.
        digits = "".join(ch for ch in path.name.split("-")[0].split(".")[0] if ch.isdigit())
        return int(digits or -1)

    files = sorted(pathlib.Path(table_dir, "metadata").glob("*.metadata.json"), key=version)
    if not files:
        raise FileNotFoundError(f"no metadata.json under {table_dir}/metadata")
    return files[-1]
