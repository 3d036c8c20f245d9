"""Data files written by the decoding module read back with pyarrow.

decoding_files_tool (tests/unit/decoding) feeds Kafka records (JSON lines on
stdin) through decoding::PartitionedFileWriter into a local object store and
prints each record's outcome and each data file. Here pyarrow reads every file
back: rows must equal the input JSON (values converted the way the table's
types say), every Parquet field must carry its Iceberg field id, and each
file's partition value must be the hour/day of every row in it.
"""

import base64
import datetime
import decimal
import json
import uuid

import pyarrow.parquet as pq
import pytest

UTC = datetime.timezone.utc
BASE_MS = 1740832496789  # 2025-03-01T12:34:56.789Z

VALUE_SCHEMA = {
    "type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "event_time", "required": False, "type": "timestamptz"},
        {"id": 2, "name": "user_id", "required": True, "type": "long"},
        {"id": 3, "name": "name", "required": False, "type": "string"},
        {"id": 4, "name": "n", "required": False, "type": "int"},
        {"id": 5, "name": "price", "required": False, "type": "decimal(38,3)"},
        {"id": 6, "name": "score", "required": False, "type": "double"},
        {"id": 7, "name": "ok", "required": False, "type": "boolean"},
        {"id": 8, "name": "day", "required": False, "type": "date"},
        {"id": 9, "name": "at", "required": False, "type": "time"},
        {"id": 10, "name": "id", "required": False, "type": "uuid"},
        {"id": 11, "name": "blob", "required": False, "type": "binary"},
        {"id": 12, "name": "device", "required": False, "type": {
            "type": "struct", "fields": [
                {"id": 13, "name": "os", "required": True, "type": "string"},
                {"id": 14, "name": "tags", "required": False, "type": {
                    "type": "list", "element-id": 15, "element": "string",
                    "element-required": False}}]}},
        {"id": 16, "name": "props", "required": False, "type": {
            "type": "map", "key-id": 17, "key": "string", "value-id": 18, "value": "int",
            "value-required": False}},
    ]}


def run_tool(st_bin, tmp_path, config, records):
    store = tmp_path / "store"
    config_path = tmp_path / "config.json"
    config_path.write_text(json.dumps(config))
    lines = []
    for r in records:
        value = r["value"]
        if isinstance(value, (dict, list)):
            value = json.dumps(value)
        if isinstance(value, str):
            value = value.encode()
        lines.append(json.dumps({
            "partition": r.get("partition", 0), "offset": r["offset"],
            "timestamp_ms": r.get("timestamp_ms", BASE_MS),
            "key_b64": base64.b64encode(r["key"]).decode() if r.get("key") is not None else None,
            "value_b64": base64.b64encode(value).decode() if value is not None else None,
            "headers": [[k, base64.b64encode(v).decode() if v is not None else None]
                        for k, v in r.get("headers", [])],
        }))
    out = st_bin.run("decoding_files_tool", store, config_path, input="\n".join(lines) + "\n")
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    header, outcomes, files = rows[0], [r for r in rows if "offset" in r], [r for r in rows if "file" in r]
    assert len(outcomes) == len(records)
    return header, {o["offset"]: o for o in outcomes}, files, store


def read_rows(store, files):
    """(file record, pyarrow table) per data file."""
    out = []
    for f in files:
        table = pq.ParquetFile(store / f["file"]).read()  # No hive partition discovery.
        assert table.num_rows == f["record_count"]
        out.append((f, table))
    return out


def field_ids(arrow_schema):
    """Dotted path → Parquet field id for every field, nested ones included."""
    ids = {}

    def walk(field, prefix):
        path = prefix + field.name
        meta = field.metadata or {}
        ids[path] = int(meta[b"PARQUET:field_id"]) if b"PARQUET:field_id" in meta else None
        t = field.type
        if hasattr(t, "num_fields") and t.num_fields and not hasattr(t, "value_field") and not hasattr(t, "key_field"):
            for i in range(t.num_fields):
                walk(t.field(i), path + ".")
        if hasattr(t, "key_field"):
            walk(t.key_field, path + ".")
            walk(t.item_field, path + ".")
        elif hasattr(t, "value_field"):
            walk(t.value_field, path + ".")

    for field in arrow_schema:
        walk(field, "")
    return ids


def as_bytes(v):
    if v is None:
        return None
    if isinstance(v, uuid.UUID):
        return v.bytes
    return bytes(v)


def test_json_rows_field_ids_and_hour_partitions(st_bin, tmp_path):
    good = []
    for i in range(6):
        ts = datetime.datetime(2025, 3, 1, 11 + i % 3, 5 * i, 7, 123456, tzinfo=UTC)
        good.append({
            "event_time": ts.isoformat().replace("+00:00", "Z") if i % 2 else ts.astimezone(
                datetime.timezone(datetime.timedelta(hours=2))).isoformat(),
            "user_id": 9007199254740993 + i, "name": f"user-{i}" if i != 3 else None,
            "n": -i, "price": f"12345678901234567890123456789012345.{i:03d}", "score": i / 4,
            "ok": i % 2 == 0, "day": f"2025-03-0{1 + i}", "at": f"12:34:5{i}.5",
            "id": str(uuid.UUID(int=i * 7919 + 1)), "blob": base64.b64encode(bytes([i, 255, 0])).decode(),
            "device": {"os": "iOS", "tags": ["a", None, f"t{i}"]} if i != 4 else None,
            "props": {"x": i, "y": None} if i != 5 else {},
            "dropped_extra": {"nested": [1, 2, {"deep": True}]},
        })
    records = []
    for i, row in enumerate(good):
        text = json.dumps(row).replace('"price": "', '"price": ').replace('", "score"', ', "score"')
        records.append({"offset": i, "value": text})
    bad = [
        ("not json", "MALFORMED_JSON"),
        (json.dumps({"user_id": 1}), "MISSING_PARTITION_VALUE"),
        (json.dumps({"event_time": "2025-03-01T12:00:00Z"}), "MISSING_REQUIRED_FIELD"),
        (json.dumps({"event_time": "2025-03-01T12:00:00Z", "user_id": "x"}), "TYPE_MISMATCH"),
        (None, "NULL_VALUE"),
    ]
    for j, (value, _) in enumerate(bad):
        records.append({"offset": 100 + j, "value": value})

    config = {"format": "JSON", "value_schema": VALUE_SCHEMA, "include_metadata": True,
              "partition_source": "event_time", "daily": False}
    header, outcomes, files, store = run_tool(st_bin, tmp_path, config, records)
    for i in range(len(good)):
        assert outcomes[i]["error"] is None, outcomes[i]
    for j, (_, code) in enumerate(bad):
        assert outcomes[100 + j]["error"] == code, outcomes[100 + j]

    assert header["spec"]["fields"][0]["name"] == "event_time_hour"
    by_user = {}
    for f, table in read_rows(store, files):
        ids = field_ids(table.schema)
        for path, expected in [("event_time", 1), ("user_id", 2), ("price", 5), ("id", 10),
                               ("device", 12), ("device.os", 13), ("device.tags", 14),
                               ("device.tags.element", 15), ("props", 16), ("props.key", 17),
                               ("props.value", 18), ("_kafka", 19), ("_kafka.partition", 20)]:
            assert ids.get(path) == expected, (path, ids)
        assert all(v is not None for v in ids.values()), ids
        hour = f["partition"][0]
        assert f"/event_time_hour={datetime.datetime.fromtimestamp(hour * 3600, UTC):%Y-%m-%d-%H}/" in "/" + f["file"]
        for row in table.to_pylist():
            assert int(row["event_time"].timestamp()) // 3600 == hour
            by_user[row["user_id"]] = row
    assert len(by_user) == len(good)

    for i, src in enumerate(good):
        row = by_user[9007199254740993 + i]
        assert row["event_time"] == datetime.datetime.fromisoformat(src["event_time"].replace("Z", "+00:00"))
        assert row["name"] == src["name"]
        assert row["n"] == src["n"]
        assert row["price"] == decimal.Decimal(src["price"])
        assert row["score"] == src["score"]
        assert row["ok"] == src["ok"]
        assert row["day"] == datetime.date.fromisoformat(src["day"])
        assert row["at"] == datetime.time.fromisoformat(src["at"])
        assert as_bytes(row["id"]) == uuid.UUID(src["id"]).bytes
        assert row["blob"] == base64.b64decode(src["blob"])
        assert row["device"] == src["device"]
        assert sorted(row["props"] or []) == sorted(src["props"].items())
        assert "dropped_extra" not in row
        assert row["_kafka"]["offset"] == i
        assert row["_kafka"]["timestamp"] == datetime.datetime.fromtimestamp(BASE_MS / 1000, UTC)


@pytest.mark.parametrize("fmt", ["BYTE_ARRAY", "STRING"])
def test_raw_values_kafka_metadata_and_day_partitions(st_bin, tmp_path, fmt):
    day_ms = 86400000
    records = []
    for i in range(5):
        value = f"payload-{i}-é" if fmt == "STRING" else bytes([0, 255, i])
        records.append({
            "offset": 1000 + i, "partition": 7, "timestamp_ms": BASE_MS + (i % 2) * day_ms,
            "key": f"k{i}".encode() if i != 2 else None, "value": value,
            "headers": [("trace", f"t{i}".encode()), ("empty", None)] if i != 3 else [],
        })
    config = {"format": fmt, "value_schema": None, "include_metadata": True,
              "partition_source": None, "daily": True}
    header, outcomes, files, store = run_tool(st_bin, tmp_path, config, records)
    assert all(o["error"] is None for o in outcomes.values()), outcomes
    assert header["spec"]["fields"][0]["name"] == "_kafka_timestamp_day"
    assert len(files) == 2
    seen = {}
    for f, table in read_rows(store, files):
        day = f["partition"][0]
        assert f"_kafka_timestamp_day={datetime.date(1970, 1, 1) + datetime.timedelta(days=day)}/" in f["file"]
        ids = field_ids(table.schema)
        assert ids["value"] == 1 and ids["_kafka"] == 2 and ids["_kafka.headers"] == 7, ids
        for row in table.to_pylist():
            assert int(row["_kafka"]["timestamp"].timestamp()) // 86400 == day
            seen[row["_kafka"]["offset"]] = row
    assert sorted(seen) == [1000 + i for i in range(5)]
    for r in records:
        row = seen[r["offset"]]
        assert row["value"] == r["value"]
        k = row["_kafka"]
        assert k["partition"] == 7
        assert k["key"] == r["key"]
        assert k["timestamp"] == datetime.datetime.fromtimestamp(r["timestamp_ms"] / 1000, UTC)
        assert (k["headers"] or []) == list(r["headers"])


def test_rolling_keeps_every_row(st_bin, tmp_path):
    records = [{"offset": i, "value": {"event_time": "2025-03-01T12:00:00Z", "user_id": i,
                                       "name": f"{i}-" + "x" * 300}} for i in range(3000)]
    config = {"format": "JSON", "value_schema": VALUE_SCHEMA, "include_metadata": False,
              "partition_source": "event_time", "target_file_bytes": 100000}
    _, outcomes, files, store = run_tool(st_bin, tmp_path, config, records)
    assert all(o["error"] is None for o in outcomes.values())
    assert len(files) >= 2
    ids = []
    for _, table in read_rows(store, files):
        assert "_kafka" not in table.schema.names
        ids += table.column("user_id").to_pylist()
    assert sorted(ids) == list(range(3000))
