"""Foreign readers (pyarrow, DuckDB) read back what our Parquet writer wrote.

parquet_golden_writer (tests/unit/parquet) writes each case's file and, in
manifest.json, the rows it meant to write in a canonical JSON form: integers
for int/date/time/timestamp (days, micros), strings for floats (shortest
round-trip) and decimals' unscaled values, hex for binary/fixed/uuid. Here we
bring pyarrow's values to the same form and compare value for value, then
check field ids, logical types, statistics and encodings.
"""

import datetime
import json
import math
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from harness import duckdb_engine

EPOCH_DATE = datetime.date(1970, 1, 1)
EPOCH = datetime.datetime(1970, 1, 1)
EPOCH_UTC = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


@pytest.fixture(scope="module")
def golden(build_dir, tmp_path_factory):
    tool = build_dir / "tests" / "unit" / "parquet" / "parquet_golden_writer"
    if not tool.exists():
        pytest.fail(f"{tool} is missing; build it with: ninja -C {build_dir} parquet_golden_writer")
    out = tmp_path_factory.mktemp("parquet-golden")
    subprocess.run([str(tool), str(out)], check=True)
    manifest = json.loads((out / "manifest.json").read_text())
    return out, manifest


def unscaled(d, scale):
    sign, digits, exponent = d.as_tuple()
    value = int("".join(map(str, digits)) or "0") * 10 ** (exponent + scale)
    return -value if sign else value


def canon_actual(v, t):
    """pyarrow's Python value of type t -> the manifest's canonical form."""
    if v is None:
        return None
    if isinstance(t, pa.BaseExtensionType):
        return v.bytes.hex() if hasattr(v, "bytes") else canon_actual(v, t.storage_type)
    if pa.types.is_list(t):
        return [canon_actual(x, t.value_type) for x in v]
    if pa.types.is_map(t):
        return [[canon_actual(k, t.key_type), canon_actual(x, t.item_type)] for k, x in v]
    if pa.types.is_struct(t):
        return [canon_actual(v[t.field(i).name], t.field(i).type) for i in range(t.num_fields)]
    if pa.types.is_decimal(t):
        return unscaled(v, t.scale)
    if pa.types.is_date(t):
        return (v - EPOCH_DATE).days
    if pa.types.is_time(t):
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1_000_000 + v.microsecond
    if pa.types.is_timestamp(t):
        base = EPOCH_UTC if t.tz else EPOCH
        return (v - base) // datetime.timedelta(microseconds=1)
    if pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t):
        return v.hex()
    return v


def canon_expected(v, t):
    """The manifest's JSON value for type t, with floats and decimals parsed."""
    if v is None:
        return None
    if isinstance(t, pa.BaseExtensionType):
        return v
    if pa.types.is_list(t):
        return [canon_expected(x, t.value_type) for x in v]
    if pa.types.is_map(t):
        return [[canon_expected(k, t.key_type), canon_expected(x, t.item_type)] for k, x in v]
    if pa.types.is_struct(t):
        return [canon_expected(v[i], t.field(i).type) for i in range(t.num_fields)]
    if pa.types.is_floating(t):
        return float(v)
    if pa.types.is_decimal(t):
        return int(v)
    return v


def same(a, b):
    """Equality where NaN equals NaN and -0.0 differs from +0.0."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b)


CASES = [
    "all_types_uncompressed_dict", "all_types_uncompressed_plain",
    "all_types_snappy_dict", "all_types_snappy_plain",
    "all_types_gzip_dict", "all_types_gzip_plain",
    "all_types_zstd_dict", "all_types_zstd_plain",
    "all_types_small_pages", "nested", "nested_small_pages", "dict_fallback", "empty",
    # The same rows written through the columnar batch API.
    "all_types_zstd_dict_batches", "all_types_snappy_plain_batches",
    "all_types_small_pages_batches", "nested_batches", "nested_small_pages_batches",
    "dict_fallback_batches",
]


@pytest.mark.parametrize("case", CASES)
def test_values_round_trip(golden, case):
    out, manifest = golden
    expected = manifest[case]
    pf = pq.ParquetFile(out / f"{case}.parquet")
    table = pf.read()
    assert table.num_rows == len(expected["rows"]) == expected["row_count"]
    assert pf.metadata.num_rows == expected["row_count"]
    assert (out / f"{case}.parquet").stat().st_size == expected["file_size_bytes"]
    schema = table.schema
    actual_rows = table.to_pylist()
    for i, (got, want) in enumerate(zip(actual_rows, expected["rows"])):
        for j, field in enumerate(schema):
            a = canon_actual(got[field.name], field.type)
            e = canon_expected(want[j], field.type)
            assert same(a, e), f"{case} row {i} column {field.name}: got {a!r}, want {e!r}"


def walk_fields(field, prefix=""):
    path = f"{prefix}.{field.name}" if prefix else field.name
    yield path, field
    t = field.type
    if pa.types.is_map(t):
        yield from walk_fields(t.key_field.with_name("key"), path)
        yield from walk_fields(t.item_field.with_name("value"), path)
    elif pa.types.is_list(t):
        yield from walk_fields(t.value_field.with_name("element"), path)
    elif pa.types.is_struct(t):
        for i in range(t.num_fields):
            yield from walk_fields(t.field(i), path)


@pytest.mark.parametrize("case", ["all_types_zstd_dict", "nested"])
def test_field_ids_on_every_field(golden, case):
    out, manifest = golden
    schema = pq.read_schema(out / f"{case}.parquet")
    seen = {}
    for field in schema:
        for path, f in walk_fields(field):
            assert f.metadata and b"PARQUET:field_id" in f.metadata, f"{path} has no field id"
            seen[path] = int(f.metadata[b"PARQUET:field_id"])
    assert seen == manifest[case]["field_ids"]


def test_logical_types(golden):
    out, _ = golden
    schema = pq.read_schema(out / "all_types_zstd_dict.parquet")
    assert schema.field("ts").type == pa.timestamp("us")
    assert schema.field("tstz").type == pa.timestamp("us", tz="UTC")
    assert schema.field("date_opt").type == pa.date32()
    assert schema.field("time_opt").type == pa.time64("us")
    assert schema.field("dec9").type == pa.decimal128(9, 2)
    assert schema.field("dec18").type == pa.decimal128(18, 4)
    assert schema.field("dec38").type == pa.decimal128(38, 10)
    assert schema.field("str_opt").type == pa.string()
    assert schema.field("fixed7").type == pa.binary(7)
    assert schema.field("int_req").nullable is False
    parquet_schema = pq.ParquetFile(out / "all_types_zstd_dict.parquet").schema
    by_name = {parquet_schema.column(i).name: parquet_schema.column(i)
               for i in range(len(parquet_schema))}
    assert by_name["uuid_opt"].logical_type.type == "UUID"
    assert by_name["uuid_opt"].physical_type == "FIXED_LEN_BYTE_ARRAY"
    assert by_name["dec9"].physical_type == "INT32"
    assert by_name["dec18"].physical_type == "INT64"
    assert by_name["dec38"].physical_type == "FIXED_LEN_BYTE_ARRAY"
    assert by_name["dec38"].length == 16
    assert by_name["ts"].logical_type.to_json() == (
        '{"Type": "Timestamp", "isAdjustedToUTC": false, "timeUnit": "microseconds", '
        '"is_from_converted_type": false, "force_set_converted_type": false}')
    meta = pq.ParquetFile(out / "all_types_zstd_dict.parquet").metadata
    assert meta.created_by.startswith("streamtables version 0.1.0")
    assert meta.metadata[b"writer.case"] == b"all_types_zstd_dict"


def expected_bounds(values, t):
    """min/max in the Parquet order for canonical expected values (None, None if none)."""
    present = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    if not present:
        return None, None
    if pa.types.is_string(t):
        key = lambda v: v.encode()  # noqa: E731  (UTF-8 byte order)
    elif pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t) or isinstance(t, pa.BaseExtensionType):
        key = bytes.fromhex
    else:
        key = lambda v: v  # noqa: E731
    lo, hi = min(present, key=key), max(present, key=key)
    if isinstance(lo, float) and lo == 0:
        lo = -0.0
    if isinstance(hi, float) and hi == 0:
        hi = 0.0
    return lo, hi


@pytest.mark.parametrize("case", ["all_types_zstd_dict", "all_types_snappy_plain",
                                  "all_types_small_pages"])
def test_statistics_per_row_group(golden, case):
    out, manifest = golden
    pf = pq.ParquetFile(out / f"{case}.parquet")
    schema = pf.schema_arrow
    rows = manifest[case]["rows"]
    start = 0
    for g in range(pf.metadata.num_row_groups):
        rg = pf.metadata.row_group(g)
        group_rows = rows[start:start + rg.num_rows]
        start += rg.num_rows
        for j, field in enumerate(schema):
            values = [canon_expected(r[j], field.type) for r in group_rows]
            stats = rg.column(j).statistics
            assert stats is not None, f"{case} rg {g} {field.name}: no statistics"
            assert stats.null_count == sum(v is None for v in values), field.name
            lo, hi = expected_bounds(values, field.type)
            if lo is None:
                assert not stats.has_min_max, f"{field.name}: all null/NaN must have no bounds"
                continue
            assert stats.has_min_max, field.name
            if isinstance(field.type, pa.BaseExtensionType):  # uuid: pyarrow has no converter
                got_lo, got_hi = stats.min_raw.hex(), stats.max_raw.hex()
            elif pa.types.is_decimal(field.type) and stats.physical_type in ("INT32", "INT64"):
                got_lo, got_hi = stats.min_raw, stats.max_raw  # pyarrow has no converter
            else:
                got_lo = canon_actual(stats.min, field.type)
                got_hi = canon_actual(stats.max, field.type)
            if pa.types.is_string(field.type):
                got_lo, got_hi = stats.min, stats.max
            assert same(got_lo, lo), f"{case} rg {g} {field.name}: min {got_lo!r} != {lo!r}"
            assert same(got_hi, hi), f"{case} rg {g} {field.name}: max {got_hi!r} != {hi!r}"
    assert start == len(rows)


def test_signed_zero_bounds(golden):
    out, _ = golden
    rg = pq.ParquetFile(out / "all_types_zstd_dict.parquet").metadata.row_group(0)
    names = [rg.column(j).path_in_schema for j in range(rg.num_columns)]
    fz = rg.column(names.index("float_zero")).statistics
    dz = rg.column(names.index("double_zero")).statistics
    assert math.copysign(1, fz.min) == -1 and fz.min == 0  # {+0, 1.5, 2.5, NaN}: min is -0.0
    assert fz.max == 2.5
    assert math.copysign(1, dz.max) == 1 and dz.max == 0  # {-0, -1.5, NaN}: max is +0.0
    assert dz.min == -1.5


def test_many_row_groups_and_pages(golden):
    out, manifest = golden
    for case in ["all_types_small_pages", "nested_small_pages"]:
        meta = pq.ParquetFile(out / f"{case}.parquet").metadata
        assert meta.num_row_groups > 5, case
        offsets = [meta.row_group(g).column(0).dictionary_page_offset
                   or meta.row_group(g).column(0).data_page_offset
                   for g in range(meta.num_row_groups)]
        assert offsets == manifest[case]["row_group_offsets"]
        assert sum(meta.row_group(g).num_rows for g in range(meta.num_row_groups)) == meta.num_rows


def test_dictionary_fallback_encodings(golden):
    out, _ = golden
    meta = pq.ParquetFile(out / "dict_fallback.parquet").metadata
    high = meta.row_group(0).column(0)
    low = meta.row_group(0).column(1)
    assert "RLE_DICTIONARY" in high.encodings and "PLAIN" in high.encodings
    assert high.has_dictionary_page
    assert low.encodings == ("PLAIN", "RLE_DICTIONARY") or set(low.encodings) == {
        "PLAIN", "RLE_DICTIONARY"}
    plain = pq.ParquetFile(out / "all_types_zstd_plain.parquet").metadata.row_group(0)
    assert all(not plain.column(j).has_dictionary_page for j in range(plain.num_columns))


@pytest.mark.parametrize("case", ["all_types_zstd_dict", "all_types_gzip_plain"])
def test_codec_recorded(golden, case):
    out, _ = golden
    meta = pq.ParquetFile(out / f"{case}.parquet").metadata
    codec = case.split("_")[2].upper()
    assert {meta.row_group(0).column(j).compression for j in range(meta.num_columns)} == {codec}


def test_summary_matches_footer(golden):
    out, manifest = golden
    case = "all_types_small_pages"
    meta = pq.ParquetFile(out / f"{case}.parquet").metadata
    for j, col in enumerate(manifest[case]["columns"]):
        chunks = [meta.row_group(g).column(j) for g in range(meta.num_row_groups)]
        assert col["path"] == chunks[0].path_in_schema
        assert col["value_count"] == sum(c.num_values for c in chunks)
        assert col["null_count"] == sum(c.statistics.null_count for c in chunks)
        assert col["compressed_size_bytes"] == sum(c.total_compressed_size for c in chunks)


def test_duckdb_reads_all_types(golden):
    out, manifest = golden
    case = "all_types_zstd_dict"
    conn = duckdb_engine.connect(extensions=("parquet",))
    try:
        path = str(out / f"{case}.parquet")
        rows = conn.execute(
            f"SELECT int_req, long_opt, dec38, str_opt, date_opt, epoch_us(tstz), uuid_opt "
            f"FROM read_parquet('{path}')").fetchall()
        count = conn.execute(f"SELECT count(*) FROM read_parquet('{path}')").fetchone()[0]
        nested = conn.execute(
            f"SELECT id, tags, attrs FROM read_parquet('{out / 'nested.parquet'}') ORDER BY id LIMIT 4"
        ).fetchall()
    finally:
        conn.close()
    want = manifest[case]["rows"]
    assert count == len(want)
    names = [f.name for f in pq.read_schema(path)]
    idx = {n: names.index(n) for n in ["int_req", "long_opt", "dec38", "str_opt", "date_opt",
                                       "tstz", "uuid_opt"]}
    for got, w in zip(rows, want):
        assert got[0] == w[idx["int_req"]]
        assert got[1] == w[idx["long_opt"]]
        assert (None if got[2] is None else unscaled(got[2], 10)) == (
            None if w[idx["dec38"]] is None else int(w[idx["dec38"]]))
        assert got[3] == w[idx["str_opt"]]
        assert (None if got[4] is None else (got[4] - EPOCH_DATE).days) == w[idx["date_opt"]]
        assert got[5] == w[idx["tstz"]]
        assert (None if got[6] is None else got[6].bytes.hex()) == w[idx["uuid_opt"]]
    assert nested[0] == (0, None, None)
    assert nested[1][1] == [] and nested[2][1] == [None] and nested[3][1] == ["a", None, ""]
