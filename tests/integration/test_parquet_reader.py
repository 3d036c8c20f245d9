"""Our Parquet reader (src/parquet/file_reader.h) reads what pyarrow and
PyIceberg write.

pyarrow writes one table of every Iceberg primitive (and the timestamp units
pyarrow may write), nested struct/list/map and null patterns, with field ids
in b'PARQUET:field_id', across data page v1/v2, dictionary on/off, every codec
(pyarrow's "lz4" is LZ4_RAW) and the DELTA_* / BYTE_STREAM_SPLIT encodings. `streamtables dev parquet-cat`
prints what our reader decoded as JSON lines; we bring pyarrow's values to the
same form and compare value for value, then the footer (field ids, logical
types, null counts). Corrupt files must fail with a clear error, not a crash.
"""

import base64
import datetime
import decimal
import json
import math
import subprocess
import uuid

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ROWS = 3000


def field(name, typ, fid, nullable=True):
    return pa.field(name, typ, nullable=nullable, metadata={b"PARQUET:field_id": str(fid).encode()})


def make_table():
    n = ROWS

    def maybe(i, k, v):
        return None if i % k == 0 else v

    cols = {
        "b": [maybe(i, 3, i % 2 == 0) for i in range(n)],
        "i32": [i * 7 - 10000 for i in range(n)],
        "i64": [maybe(i, 5, i * 1234567891011 - 99) for i in range(n)],
        "f32": [maybe(i, 7, (float("nan") if i % 101 == 1 else i / 8.0)) for i in range(n)],
        "f64": [maybe(i, 4, (float("inf") if i % 97 == 2 else i * -1.25e-3)) for i in range(n)],
        "dec9": [maybe(i, 6, decimal.Decimal(i * 13 - 9999).scaleb(-2)) for i in range(n)],
        "dec18": [maybe(i, 8, decimal.Decimal(i * 98765432101 - 7).scaleb(-4)) for i in range(n)],
        "dec38": [maybe(i, 9, decimal.Decimal((i - 1500) * 10**25 + i).scaleb(-10))
                  for i in range(n)],
        "date": [maybe(i, 10, datetime.date(1970, 1, 1) + datetime.timedelta(days=i * 3 - 400))
                 for i in range(n)],
        "time": [maybe(i, 11, (i * 28_800_001) % 86_400_000_000) for i in range(n)],
        "ts": [maybe(i, 12, 1_700_000_000_000_000 + i * 999_999) for i in range(n)],
        "tstz": [1_700_000_000_000_000 + i * 1_000_003 for i in range(n)],
        "tsms": [maybe(i, 13, 1_700_000_000_000 + i * 1001) for i in range(n)],
        "tsns": [maybe(i, 14, 1_700_000_000_000_000_123 + i * 1_000_000_007) for i in range(n)],
        "s": [maybe(i, 15, f"str-{i % 97}-é") for i in range(n)],
        "bin": [maybe(i, 16, bytes((i + k) % 256 for k in range(i % 7))) for i in range(n)],
        "u": [maybe(i, 17, uuid.UUID(int=i * 0x1234567890ABCDEF1234567).bytes) for i in range(n)],
        "fx": [maybe(i, 18, bytes([i % 256, 1, 2, 3, 4])) for i in range(n)],
        "st": [maybe(i, 19, {"a": i, "b": maybe(i, 4, f"b{i}")}) for i in range(n)],
        "tags": [maybe(i, 20, [maybe(k, 3, f"t{(i + k) % 11}") for k in range(i % 5)])
                 for i in range(n)],
        "attrs": [maybe(i, 21, [(f"k{k}", maybe(k + 1, 2, i * k)) for k in range(i % 4)])
                  for i in range(n)],
        "events": [[maybe(i + k, 5, {"x": i * 0.5 + k, "ids": [i + j for j in range(k)]})
                    for k in range(i % 3)] for i in range(n)],
    }
    ev_type = pa.struct([field("x", pa.float64(), 40), field("ids", pa.list_(field("element", pa.int64(), 42)), 41)])
    schema = pa.schema([
        field("b", pa.bool_(), 1),
        field("i32", pa.int32(), 2, nullable=False),
        field("i64", pa.int64(), 3),
        field("f32", pa.float32(), 4),
        field("f64", pa.float64(), 5),
        field("dec9", pa.decimal128(9, 2), 6),
        field("dec18", pa.decimal128(18, 4), 7),
        field("dec38", pa.decimal128(38, 10), 8),
        field("date", pa.date32(), 9),
        field("time", pa.time64("us"), 10),
        field("ts", pa.timestamp("us"), 11),
        field("tstz", pa.timestamp("us", tz="UTC"), 12, nullable=False),
        field("tsms", pa.timestamp("ms", tz="UTC"), 13),
        field("tsns", pa.timestamp("ns"), 14),
        field("s", pa.string(), 15),
        field("bin", pa.binary(), 16),
        field("u", pa.uuid(), 17),
        field("fx", pa.binary(5), 18),
        field("st", pa.struct([field("a", pa.int64(), 30, nullable=False),
                               field("b", pa.string(), 31)]), 19),
        field("tags", pa.list_(field("element", pa.string(), 32)), 20),
        field("attrs", pa.map_(field("key", pa.string(), 33, nullable=False),
                               field("value", pa.int32(), 34)), 21),
        field("events", pa.list_(field("element", ev_type, 35)), 22, nullable=False),
    ])
    arrays = []
    for f in schema:
        if f.name == "u":
            arrays.append(pa.array(cols["u"], pa.binary(16)).cast(pa.uuid()))
        elif pa.types.is_timestamp(f.type) or pa.types.is_time(f.type):
            arrays.append(pa.array(cols[f.name], pa.int64()).cast(f.type))
        else:
            arrays.append(pa.array(cols[f.name], f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def expected_json(v, t):
    """pyarrow's Python value of type t -> parquet-cat's JSON form."""
    if v is None:
        return None
    if isinstance(t, pa.BaseExtensionType):
        return str(v)
    if pa.types.is_list(t):
        return [expected_json(x, t.value_type) for x in v]
    if pa.types.is_map(t):
        return [[expected_json(k, t.key_type), expected_json(x, t.item_type)] for k, x in v]
    if pa.types.is_struct(t):
        return {t.field(i).name: expected_json(v[t.field(i).name], t.field(i).type)
                for i in range(t.num_fields)}
    if pa.types.is_decimal(t):
        return format(v, "f")
    if pa.types.is_floating(t):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t):
        return base64.b64encode(v).decode()
    return v


def expected_rows(table):
    """Temporal columns as integers in their own unit, the rest via expected_json."""
    columns = {}
    for f in table.schema:
        col = table.column(f.name)
        if pa.types.is_timestamp(f.type) or pa.types.is_time(f.type):
            columns[f.name] = col.cast(pa.int64()).to_pylist()
        elif pa.types.is_date(f.type):
            columns[f.name] = col.cast(pa.int32()).to_pylist()
        else:
            columns[f.name] = [expected_json(v, f.type) for v in col.to_pylist()]
    return [{name: columns[name][i] for name in table.column_names}
            for i in range(table.num_rows)]


def parquet_cat(build_dir, path, *args, check=True):
    proc = subprocess.run([str(build_dir / "src" / "cli" / "streamtables"), "dev", "parquet-cat",
                           str(path), *args], capture_output=True, text=True, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def read_rows(build_dir, path):
    out = parquet_cat(build_dir, path).stdout
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def table():
    return make_table()


def assert_same_rows(got, want):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"row {i}: ours {g} != pyarrow {w}"


def assert_footer(build_dir, path, table):
    meta = json.loads(parquet_cat(build_dir, path, "--metadata").stdout)
    pa_meta = pq.ParquetFile(path).metadata
    assert meta["num_rows"] == pa_meta.num_rows
    assert len(meta["row_groups"]) == pa_meta.num_row_groups
    pa_schema = pa_meta.schema
    assert [c["path"] for c in meta["columns"]] == [pa_schema.column(i).path
                                                    for i in range(len(pa_schema))]
    ids = {c["path"]: c["field_id"] for c in meta["columns"]}
    assert ids["i32"] == 2 and ids["st.a"] == 30 and ids["attrs.key_value.key"] == 33
    assert ids["events.list.element.ids.list.element"] == 42
    by_path = {c["path"]: c for c in meta["columns"]}
    assert by_path["tsns"]["logical_type"] == {"kind": "timestamp", "unit": "nanos",
                                               "adjusted_to_utc": False}
    assert by_path["tsms"]["logical_type"]["unit"] == "millis"
    assert by_path["tstz"]["logical_type"] == {"kind": "timestamp", "unit": "micros",
                                               "adjusted_to_utc": True}
    assert by_path["u"]["logical_type"]["kind"] == "uuid"
    assert by_path["dec38"]["logical_type"] == {"kind": "decimal", "precision": 38, "scale": 10}
    for g, rg in enumerate(meta["row_groups"]):
        for c, chunk in enumerate(rg["columns"]):
            pa_chunk = pa_meta.row_group(g).column(c)
            assert chunk["num_values"] == pa_chunk.num_values
            if pa_chunk.is_stats_set and pa_chunk.statistics.has_null_count:
                assert chunk["null_count"] == pa_chunk.statistics.null_count


CASES = [(v, d, c) for v in ("1.0", "2.0") for d in (True, False)
         for c in ("none", "snappy", "gzip", "zstd", "lz4")]


@pytest.mark.parametrize("version,dictionary,codec", CASES,
                         ids=[f"page-v{v[0]}-{'dict' if d else 'plain'}-{c}" for v, d, c in CASES])
def test_reads_pyarrow_files(build_dir, tmp_path, table, version, dictionary, codec):
    path = tmp_path / "t.parquet"
    pq.write_table(table, path, data_page_version=version, use_dictionary=dictionary,
                   compression=codec, row_group_size=1100, data_page_size=16 << 10,
                   store_schema=False)
    assert_same_rows(read_rows(build_dir, path), expected_rows(table))
    assert_footer(build_dir, path, table)


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_reads_delta_and_byte_stream_split_encodings(build_dir, tmp_path, table, version):
    path = tmp_path / "t.parquet"
    encodings = {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED",
                 "ts": "DELTA_BINARY_PACKED", "s": "DELTA_LENGTH_BYTE_ARRAY",
                 "bin": "DELTA_BYTE_ARRAY", "tags.list.element": "DELTA_BYTE_ARRAY",
                 "f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT",
                 "dec18": "BYTE_STREAM_SPLIT", "fx": "BYTE_STREAM_SPLIT"}
    pq.write_table(table, path, data_page_version=version, use_dictionary=False,
                   column_encoding=encodings, compression="zstd", row_group_size=1700,
                   data_page_size=8 << 10)
    used = set()
    meta = pq.ParquetFile(path).metadata
    for c in range(meta.num_columns):
        used.update(meta.row_group(0).column(c).encodings)
    assert {"DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
            "BYTE_STREAM_SPLIT"} <= used
    assert_same_rows(read_rows(build_dir, path), expected_rows(table))


def test_reads_a_pyiceberg_written_file(build_dir, tmp_path):
    # SqlCatalog needs SQLAlchemy: pyiceberg[sql-sqlite] in tools/requirements.txt.
    from pyiceberg.catalog.sql import SqlCatalog

    catalog = SqlCatalog("local", uri=f"sqlite:///{tmp_path}/catalog.db",
                         warehouse=f"file://{tmp_path}/warehouse")
    catalog.create_namespace("db")
    data = pa.table({
        "id": pa.array(range(500), pa.int64()),
        "name": pa.array([None if i % 7 == 0 else f"n{i % 13}" for i in range(500)]),
        "ts": pa.array([1_700_000_000_000_000 + i for i in range(500)],
                       pa.int64()).cast(pa.timestamp("us", tz="UTC")),
        "amount": pa.array([decimal.Decimal(i).scaleb(-2) for i in range(500)],
                           pa.decimal128(10, 2)),
        "tags": pa.array([[f"t{i % 3}"] * (i % 3) for i in range(500)], pa.list_(pa.string())),
    })
    tbl = catalog.create_table("db.t", schema=data.schema)
    tbl.append(data)
    files = [task.file.file_path for task in tbl.scan().plan_files()]
    assert files
    path = files[0].removeprefix("file://")
    want = expected_rows(pq.read_table(path))
    assert_same_rows(read_rows(build_dir, path), want)
    meta = json.loads(parquet_cat(build_dir, path, "--metadata").stdout)
    iceberg_ids = {f.name: f.field_id for f in tbl.schema().fields}
    ours = {c["path"]: c["field_id"] for c in meta["columns"]}
    for name in ("id", "name", "ts", "amount"):
        assert ours[name] == iceberg_ids[name]


def test_decode_only_mode(build_dir, tmp_path, table):
    path = tmp_path / "t.parquet"
    pq.write_table(table, path)
    lines = parquet_cat(build_dir, path, "--decode-only", "--repeat", "2",
                        "--threads", "2").stdout.splitlines()
    assert len(lines) == 2
    run = json.loads(lines[0])
    assert run["rows"] == ROWS and run["values"] > ROWS and run["seconds"] > 0


def test_corrupt_files_fail_with_an_error(build_dir, tmp_path, table):
    path = tmp_path / "t.parquet"
    pq.write_table(table.slice(0, 200), path, compression="snappy")
    data = path.read_bytes()
    footer_len = int.from_bytes(data[-8:-4], "little")
    bad = tmp_path / "bad.parquet"
    # Truncations inside the footer and the last data bytes, a wrong magic, an
    # absurd footer length, a garbled first page header.
    cases = [data[:len(data) - k] for k in (1, 4, 8, 9, footer_len // 2, footer_len + 8, 200)]
    cases.append(b"XXXX" + data[4:])
    cases.append(data[:-8] + (2**31 - 1).to_bytes(4, "little") + b"PAR1")
    cases.append(data[:4] + b"\xff" * 8 + data[12:])
    for case in cases:
        bad.write_bytes(case)
        proc = parquet_cat(build_dir, bad, check=False)
        assert proc.returncode == 1, (proc.returncode, proc.stderr)
        assert "streamtables dev parquet-cat: " in proc.stderr
        assert "corruption" in proc.stderr, proc.stderr
