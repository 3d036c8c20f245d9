"""Avro records written by fastavro decoded into Parquet, read back by pyarrow.

fastavro's schemaless_writer encodes records of a schema covering every Avro
type the decoder maps (nested records, arrays, maps, enums, fixed, decimal on
bytes and fixed, uuid, date, time-millis/micros, timestamp-millis/micros,
local-timestamp, unions with null, a union of several types), framed the
Confluent way (magic 0, 4-byte schema id). decoding_files_tool decodes them
through PartitionedFileWriter (table schema from AvroToIcebergSchema) and
pyarrow must read back equal values field by field. Poison records get their
DLQ codes.
"""

import datetime
import decimal
import io
import json
import math
import struct
import uuid

import fastavro
import pyarrow.parquet as pq

from test_decoding_files import run_tool

UTC = datetime.timezone.utc

SCHEMA = {
    "type": "record", "name": "Everything", "namespace": "t", "fields": [
        {"name": "b", "type": "boolean"},
        {"name": "i", "type": "int"},
        {"name": "l", "type": "long"},
        {"name": "f", "type": "float"},
        {"name": "d", "type": "double"},
        {"name": "s", "type": ["null", "string"]},
        {"name": "raw", "type": "bytes"},
        {"name": "fx", "type": {"type": "fixed", "name": "F4", "size": 4}},
        {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}},
        {"name": "dec_b", "type": {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 3}},
        {"name": "dec_f", "type": {"type": "fixed", "name": "D8", "size": 8, "logicalType": "decimal",
                                    "precision": 18, "scale": 2}},
        {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "tm", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "tu", "type": {"type": "long", "logicalType": "time-micros"}},
        {"name": "ts_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "ts_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "lts", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
        {"name": "nested", "type": ["null", {"type": "record", "name": "Inner", "fields": [
            {"name": "x", "type": "int"},
            {"name": "tags", "type": {"type": "array", "items": ["null", "string"]}}]}]},
        {"name": "arr", "type": {"type": "array", "items": "long"}},
        {"name": "m", "type": {"type": "map", "values": ["null", "double"]}},
        {"name": "choice", "type": ["null", "int", "string"]},
    ]}


def record(k):
    extreme = k % 2 == 0
    return {
        "b": extreme, "i": -2**31 if extreme else 2**31 - 1,
        "l": -2**63 if extreme else 2**63 - 1,
        "f": float("inf") if extreme else -1.5, "d": [float("nan"), float("-inf"), 0.0, 1e308][k % 4],
        "s": None if k == 1 else ("" if extreme else "héllo ✓ 😀"),
        "raw": b"" if extreme else bytes(range(256)), "fx": bytes([k, 0, 255, 1]),
        "color": "GREEN" if extreme else "RED",
        "dec_b": decimal.Decimal("-99999999999999999.999") if extreme else decimal.Decimal("1.500"),
        "dec_f": decimal.Decimal("9999999999999999.99") if extreme else decimal.Decimal("-0.01"),
        "id": uuid.UUID(int=k * 7919 + 1),
        "day": datetime.date(1970, 1, 1) + datetime.timedelta(days=k * 1000 - 3000),
        "tm": datetime.time(23, 59, 59, 999000), "tu": datetime.time(0, 0, 0, k),
        "ts_ms": datetime.datetime(2025, 3, 1, 12, 34, 56, 789000, tzinfo=UTC),
        "ts_us": datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        "lts": datetime.datetime(2025, 3, 1, 1, 2, 3, 4),
        "nested": None if k == 3 else {"x": k, "tags": [] if extreme else ["a", None, "ü"]},
        "arr": [] if extreme else [-2**63, 0, 2**63 - 1],
        "m": {} if extreme else {"k": 1.25, "n": None},
        "choice": [None, 42, "text"][k % 3],
    }


def framed(schema_id, rec):
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(SCHEMA), rec)
    return b"\0" + struct.pack(">I", schema_id) + out.getvalue()


def test_fastavro_records_read_back_in_pyarrow(st_bin, tmp_path):
    text = json.dumps(SCHEMA)
    records = [{"offset": k, "value": framed(7, record(k))} for k in range(6)]
    good = framed(7, record(0))
    poison = [(b"\x01" + good[1:], "WRONG_MAGIC_BYTE"), (b"\0\0", "TRUNCATED_PAYLOAD"),
              (b"\0" + struct.pack(">I", 99) + good[5:], "SCHEMA_NOT_FOUND"),
              (good + b"\0", "MALFORMED_AVRO"), (good[:-3], "TRUNCATED_PAYLOAD")]
    for j, (value, _) in enumerate(poison):
        records.append({"offset": 100 + j, "value": value})
    config = {"format": "AVRO_CONFLUENT", "avro_table_schema": text, "writer_schemas": {"7": text},
              "include_metadata": True, "partition_source": None, "daily": False}
    _, outcomes, files, store = run_tool(st_bin, tmp_path, config, records)
    for k in range(6):
        assert outcomes[k]["error"] is None, outcomes[k]
    for j, (_, code) in enumerate(poison):
        assert outcomes[100 + j]["error"] == code, outcomes[100 + j]

    rows = {}
    for f in files:
        for row in pq.ParquetFile(store / f["file"]).read().to_pylist():
            rows[row["_kafka"]["offset"]] = row
    assert sorted(rows) == list(range(6))
    for k in range(6):
        src, row = record(k), rows[k]
        for name in ["b", "i", "l", "s", "raw", "fx", "color", "dec_b", "dec_f", "day", "tm", "tu",
                     "ts_ms", "ts_us", "lts", "arr"]:
            got = row[name]
            if name == "tm":
                assert got == src[name]
            else:
                assert got == src[name], (k, name, got, src[name])
        assert row["f"] == src["f"]
        if math.isnan(src["d"]):
            assert math.isnan(row["d"])
        else:
            assert row["d"] == src["d"]
        got_id = row["id"]
        assert (got_id if isinstance(got_id, uuid.UUID) else uuid.UUID(bytes=bytes(got_id))) == src["id"]
        assert row["nested"] == src["nested"]
        assert dict(row["m"] or []) == src["m"]
        want = {"int": None, "string": None}
        if isinstance(src["choice"], int):
            want["int"] = src["choice"]
        elif isinstance(src["choice"], str):
            want["string"] = src["choice"]
        assert row["choice"] == (None if src["choice"] is None else want)
