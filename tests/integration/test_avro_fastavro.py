"""Foreign-reader checks for src/avro: fastavro reads what we write, we read what fastavro writes.

Needs the test-only tool built in the C++ tree:
    ninja -C $ST_BUILD_DIR avro_golden_writer
ST_BUILD_DIR defaults to /work/main/build.
"""

import datetime
import decimal
import json
import math
import os
import subprocess
import uuid
from pathlib import Path

import fastavro
import pytest

BUILD_DIR = Path(os.environ.get("ST_BUILD_DIR", "/work/main/build"))
TOOL = BUILD_DIR / "tests" / "unit" / "avro" / "avro_golden_writer"

GOLDEN_FILES = ["everything_null", "everything_deflate", "empty_deflate", "manifest_list"]
ICEBERG_METADATA_KEYS = ["schema", "partition-spec", "partition-spec-id", "format-version",
                         "snapshot-id", "content"]

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
EPOCH_DATE = datetime.date(1970, 1, 1)


def canon(v):
    """fastavro/Python values -> the JSON shape avro_golden_writer prints (see golden_data.h)."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if isinstance(v, (bytes, bytearray)):
        return {"$bytes": bytes(v).hex()}
    if isinstance(v, uuid.UUID):
        return {"$bytes": v.bytes.hex()}
    if isinstance(v, decimal.Decimal):
        sign, digits, _exponent = v.as_tuple()
        unscaled = int("".join(map(str, digits)) or "0")
        return {"$decimal": str(-unscaled if sign else unscaled)}
    if isinstance(v, datetime.datetime):  # Before date: datetime is a date.
        epoch = EPOCH if v.tzinfo is not None else EPOCH.replace(tzinfo=None)
        return (v - epoch) // datetime.timedelta(microseconds=1)
    if isinstance(v, datetime.date):
        return (v - EPOCH_DATE).days
    if isinstance(v, datetime.time):
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1_000_000 + v.microsecond
    if isinstance(v, dict):
        return {k: canon(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [canon(x) for x in v]
    raise TypeError(f"no canonical form for {type(v)}: {v!r}")


@pytest.fixture(scope="module")
def golden_dir(tmp_path_factory):
    if not TOOL.exists():
        pytest.fail(f"{TOOL} not built; run: ninja -C {BUILD_DIR} avro_golden_writer")
    out = tmp_path_factory.mktemp("avro_golden")
    proc = subprocess.run([str(TOOL), str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return out


def read_with_fastavro(path):
    with open(path, "rb") as f:
        reader = fastavro.reader(f)
        records = list(reader)
        return reader, records


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_fastavro_reads_our_files_value_for_value(golden_dir, name):
    expected = json.loads((golden_dir / f"{name}.expected.json").read_text())
    reader, records = read_with_fastavro(golden_dir / f"{name}.avro")
    assert reader.codec == expected["codec"]
    assert len(records) == len(expected["records"])
    for i, (got, want) in enumerate(zip(records, expected["records"])):
        assert canon(got) == want, f"record {i}"
    for key, value in expected["metadata"].items():
        assert reader.metadata[key] == value
    for key in ICEBERG_METADATA_KEYS:
        assert key in reader.metadata


def test_spot_values_survive(golden_dir):
    _, records = read_with_fastavro(golden_dir / "everything_deflate.avro")
    first, extremes, second_extremes = records[0], records[1], records[2]
    assert first["string_field"] == "héllo wörld ✓ 𝄞 日本語"
    assert first["bytes_field"] == b"\x00\x01\xff\xfe"
    assert first["decimal_fixed"] == decimal.Decimal("123.45")
    assert first["string_map"] == {"one": 1, "none": None, "ключ": -5}
    assert first["int_map"] == [{"key": 1, "value": 100}, {"key": 2, "value": 200}]
    assert extremes["long_field"] == -(2**63)
    assert extremes["int_field"] == -(2**31)
    assert extremes["enum_field"] == "BLUE"
    assert extremes["union_multi"] == 2**63 - 1
    assert extremes["decimal_bytes"] == decimal.Decimal("9" * 35 + "." + "9" * 3)
    assert second_extremes["long_field"] == 2**63 - 1
    assert second_extremes["bytes_field"] == b""
    assert second_extremes["string_field"] == ""
    assert second_extremes["union_multi"] == {"a": "in a union", "b": [{"x": 5, "y": 1e300, "z": "z"}]}
    assert math.isnan(records[3]["union_multi"]["y"])


def schema_fields(schema):
    return {f["name"]: f for f in schema["fields"]}


@pytest.mark.parametrize("source", ["header", "fastavro"])
def test_iceberg_attributes_survive(golden_dir, source):
    reader, _ = read_with_fastavro(golden_dir / "everything_deflate.avro")
    schema = json.loads(reader.metadata["avro.schema"]) if source == "header" else reader.writer_schema
    fields = schema_fields(schema)
    if source == "header":
        assert schema["st-custom"] == {"nested": [1, 2, "three"]}
    assert fields["bool_field"]["field-id"] == 1
    assert fields["int_array"]["type"]["element-id"] == 17
    assert fields["string_map"]["type"]["key-id"] == 19
    assert fields["string_map"]["type"]["value-id"] == 20
    assert fields["ts_field"]["type"]["adjust-to-utc"] is False
    assert fields["tstz_field"]["type"]["adjust-to-utc"] is True
    assert fields["tstz_field"]["type"]["logicalType"] == "timestamp-micros"
    int_map = fields["int_map"]["type"][1]
    assert int_map["logicalType"] == "map"
    kv = schema_fields(int_map["items"])
    assert kv["key"]["field-id"] == 117 and kv["value"]["field-id"] == 118
    assert fields["int_map"]["default"] is None
    assert fields["decimal_fixed"]["type"]["precision"] == 9
    nested = schema_fields(fields["nested"]["type"])
    assert nested["b"]["type"]["element-id"] == 33

    reader, _ = read_with_fastavro(golden_dir / "manifest_list.avro")
    schema = json.loads(reader.metadata["avro.schema"]) if source == "header" else reader.writer_schema
    fields = schema_fields(schema)
    assert schema["name"] == "manifest_file"
    assert fields["manifest_path"]["field-id"] == 500
    assert fields["key_metadata"]["field-id"] == 519
    partitions = fields["partitions"]
    assert partitions["field-id"] == 507 and partitions["default"] is None
    assert partitions["type"][1]["element-id"] == 508
    summary = schema_fields(partitions["type"][1]["items"])
    assert summary["contains_nan"]["field-id"] == 518


FASTAVRO_SCHEMA = {
    "type": "record",
    "name": "manifest_entry",
    "namespace": "fa",
    "fields": [
        {"name": "status", "type": "int", "field-id": 0},
        {"name": "snapshot_id", "type": ["null", "long"], "default": None, "field-id": 1},
        {"name": "flag", "type": "boolean"},
        {"name": "f32", "type": "float"},
        {"name": "f64", "type": "double"},
        {"name": "text", "type": "string"},
        {"name": "raw", "type": "bytes"},
        {"name": "color", "type": {"type": "enum", "name": "color", "symbols": ["R", "G"]}},
        {"name": "id", "type": {"type": "fixed", "name": "id16", "size": 16}},
        {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 4}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros", "adjust-to-utc": True}},
        {"name": "tags", "type": {"type": "map", "values": "string", "key-id": 7, "value-id": 8}},
        {"name": "column_sizes", "type": ["null", {"type": "array", "logicalType": "map", "items": {
            "type": "record", "name": "k117_v118", "fields": [
                {"name": "key", "type": "int", "field-id": 117},
                {"name": "value", "type": "long", "field-id": 118}]}}], "default": None, "field-id": 108},
        {"name": "data_file", "type": {"type": "record", "name": "r2", "fields": [
            {"name": "file_path", "type": "string", "field-id": 100},
            {"name": "split_offsets", "type": ["null", {"type": "array", "items": "long", "element-id": 133}],
             "default": None, "field-id": 132}]}, "field-id": 2},
        {"name": "choice", "type": ["null", "string", "long", "r2"]},
    ],
}


def fastavro_records(n):
    out = []
    for i in range(n):
        out.append({
            "status": i % 3,
            "snapshot_id": None if i % 2 else 2**62 + i,
            "flag": bool(i % 2),
            "f32": 0.25 * i,
            "f64": -1.0 / (i + 1),
            "text": f"ü{i}✓" * (i % 4),
            "raw": bytes(range(i % 256))[: i % 50],
            "color": "G" if i % 2 else "R",
            "id": uuid.UUID(int=i * 7919).bytes,
            "amount": decimal.Decimal(i * 12345 - 10**10).scaleb(-4),
            "day": datetime.date(2024, 1, 1) + datetime.timedelta(days=i),
            "ts": EPOCH + datetime.timedelta(microseconds=1_700_000_000_000_000 + i),
            "tags": {f"k{j}": f"v{j}" for j in range(i % 3)},
            "column_sizes": None if i % 5 == 0 else [{"key": j, "value": j * 100} for j in range(i % 4)],
            "data_file": {"file_path": f"s3://b/t/data/{i}.parquet",
                          "split_offsets": None if i % 2 else [4, 4 + i]},
            "choice": [None, f"s{i}", -i, {"file_path": "x", "split_offsets": []}][i % 4],
        })
    out.append(dict(out[0], snapshot_id=-(2**63), status=2**31 - 1, text="", raw=b"",
                    f64=float("inf"), f32=float("-inf")))
    return out


def run_reader(path):
    proc = subprocess.run([str(TOOL), "--read", str(path)], capture_output=True, text=True, timeout=120)
    return proc


@pytest.mark.parametrize("codec", ["deflate", "null"])
def test_we_read_fastavro_files(tmp_path, codec):
    if not TOOL.exists():
        pytest.fail(f"{TOOL} not built; run: ninja -C {BUILD_DIR} avro_golden_writer")
    records = fastavro_records(500)
    path = tmp_path / f"fastavro_{codec}.avro"
    metadata = {"format-version": "2", "partition-spec": "[]", "content": "data"}
    with open(path, "wb") as f:
        # A small sync interval gives many blocks.
        fastavro.writer(f, fastavro.parse_schema(FASTAVRO_SCHEMA), records, codec=codec,
                        metadata=metadata, sync_interval=2000)
    proc = run_reader(path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["metadata"]["avro.codec"] == codec
    for key, value in metadata.items():
        assert out["metadata"][key] == value
    assert len(out["records"]) == len(records)
    for i, (got, want) in enumerate(zip(out["records"], records)):
        assert got == canon(want), f"record {i}"
    fields = schema_fields(out["schema"])
    assert fields["column_sizes"]["field-id"] == 108
    assert fields["tags"]["type"]["key-id"] == 7
    assert fields["ts"]["type"]["adjust-to-utc"] is True


def test_we_reject_a_damaged_fastavro_file(tmp_path):
    if not TOOL.exists():
        pytest.fail(f"{TOOL} not built; run: ninja -C {BUILD_DIR} avro_golden_writer")
    path = tmp_path / "good.avro"
    with open(path, "wb") as f:
        fastavro.writer(f, fastavro.parse_schema(FASTAVRO_SCHEMA), fastavro_records(50), codec="deflate")
    data = path.read_bytes()
    for cut in (3, len(data) // 2, len(data) - 1):
        damaged = tmp_path / f"cut{cut}.avro"
        damaged.write_bytes(data[:cut])
        proc = run_reader(damaged)
        assert proc.returncode == 1, proc.stdout[:200]
        assert "corruption" in proc.stderr, proc.stderr
