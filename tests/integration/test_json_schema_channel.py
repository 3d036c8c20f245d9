"""JSON_SCHEMA_CONFLUENT channels end to end (issue 14): confluent-kafka's
JSONSerializer (unmodified) registers a JSON Schema (schemaType JSON) in our
Confluent-compatible registry and frames each record (magic 0, 4-byte schema
id, the JSON text). The channel maps the schema of the first record's id onto
the table with the same JSON Schema mapping JSON_SCHEMA_GSR uses and shreds
the JSON payloads into column buffers; rows are read back field by field with
PyIceberg, DuckDB and Spark. Poison records of every kind go to the DLQ with
their codes, and table + DLQ = produced per (partition, offset). A later
version that only adds optional fields evolves the table in the delivery
commit; a version with any other change is quarantined (SCHEMA_INCOMPATIBLE,
listed in DescribeChannel and /metrics) while the other versions keep flowing.

JSON_SCHEMA_GSR channels (the same JSON Schema mapping behind the Glue Schema
Registry header, written by AWS's aws-glue-schema-registry serializer) evolve
and quarantine by the same rule.
"""

import datetime as dt
import json
import time
import uuid
from decimal import Decimal

import pytest

from harness import duckdb_engine
from harness.channels import ChannelSetup, glue_kafka_serializer
from harness.exactly_once import verify_exactly_once
from test_avro_channel import describe_raw, produce, rows_of, wait_for
from test_iceberg_rest_engines import duckdb_attach, spark_catalog

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
BASE = dt.datetime(2026, 11, 30, 8, 0, 0, tzinfo=dt.timezone.utc)
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)

SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Order",
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "i32": {"type": "integer", "minimum": INT32_MIN, "maximum": INT32_MAX},
        "name": {"type": "string"},
        "score": {"type": "number"},
        # multipleOf 0.25: decimal(38, 2); quarters are exact in binary, so
        # the serializer's own multipleOf check (float division) accepts them.
        "price": {"type": "number", "multipleOf": 0.25},
        "flag": {"type": "boolean"},
        "ts": {"type": "string", "format": "date-time"},
        "day": {"type": "string", "format": "date"},
        "uid": {"type": "string", "format": "uuid"},
        "address": {
            "type": "object",
            "properties": {"street": {"type": "string"},
                           "zip": {"type": "integer", "minimum": 0, "maximum": 99999}},
            "required": ["street"],
        },
        "tags": {"type": "array", "items": {"type": "string"}},
        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
        "note": {"type": ["string", "null"]},
        "maybe": {"oneOf": [{"type": "null"}, {"type": "integer"}]},
    },
    "required": ["id", "i32", "name", "score", "price", "flag", "ts", "day", "uid", "tags",
                 "counts", "note"],
}

# Adds optional fields, at the top level and inside `address`: evolves the table.
SCHEMA_V2 = json.loads(json.dumps(SCHEMA))
SCHEMA_V2["properties"]["added"] = {"type": "string"}
SCHEMA_V2["properties"]["address"]["properties"]["country"] = {"type": ["string", "null"]}

# name: string -> integer, which the table cannot take (SCHEMA_MISMATCH).
SCHEMA_BAD = json.loads(json.dumps(SCHEMA))
SCHEMA_BAD["properties"]["name"] = {"type": "integer"}

AVRO = {"type": "record", "name": "Order", "fields": [{"name": "id", "type": "long"}]}


def order(i):
    """The dict JSONSerializer encodes for order i, and the row the table must hold."""
    extreme = i % 4 == 0
    ts = BASE + dt.timedelta(seconds=i, microseconds=123456 + i)
    record = {
        "id": i,
        "i32": (INT32_MIN if i % 8 == 0 else INT32_MAX) if extreme else -i,
        "name": f"n{i}-é-日本-\U0001F389-\"quoted\"\\",
        "score": [1.7976931348623157e308, -5e-324, -0.0, 2.5e-10][i % 4] if extreme else i / 8,
        "price": 1234567890123.25 + i if extreme else i * 0.25,
        "flag": i % 2 == 0,
        "ts": ts.isoformat().replace("+00:00", "Z"),
        "day": (dt.date(1970, 1, 1) + dt.timedelta(days=20000 + i)).isoformat(),
        "uid": str(uuid.UUID(int=(0xABCDEF << 100) + i)),
        "tags": [f"t{i}", "ü"] if i % 2 else [],
        "counts": {"a": i, f"k{i}": INT64_MAX if extreme else -i},
        "note": None if i % 3 == 0 else f"note {i}",
    }
    if i % 5 != 1:
        record["address"] = {"street": f"street {i}"}
        if i % 2:
            record["address"]["zip"] = 10000 + i
    if i % 2 == 0:
        record["maybe"] = INT64_MIN + i
    elif i % 3 == 1:
        record["maybe"] = None
    row = dict(record)
    row["ts"] = ts
    row["day"] = dt.date.fromisoformat(record["day"])
    row["uid"] = uuid.UUID(record["uid"])
    row["price"] = Decimal(repr(record["price"])).quantize(Decimal("0.01"))
    row["address"] = None
    if "address" in record:
        row["address"] = {"street": f"street {i}", "zip": 10000 + i if i % 2 else None}
    row["maybe"] = record.get("maybe")
    return record, row


def as_uuid(value):
    if isinstance(value, uuid.UUID):
        return value
    if isinstance(value, (bytes, bytearray)):
        return uuid.UUID(bytes=bytes(value))
    return uuid.UUID(str(value))


def same_float(a, b):
    return a == b and (a != 0 or str(a) == str(b))  # -0.0 keeps its sign.


def test_json_schema_confluent_channel(server, kafka, topic_name, spark):
    from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_CONFLUENT",
                                freshness=1)
    assert setup.describe()["TopicConfigurationList"][0]["RecordConverter"][
        "ValueConverter"] == "JSON_SCHEMA_CONFLUENT"
    setup.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    serializer = JSONSerializer(json.dumps(SCHEMA), sr)

    produced, want = {}, {}
    ids = range(0, 24)
    values = [serializer(order(i)[0], ctx) for i in ids]
    assert values[0][0] == 0 and values[0][5:6] == b"{"  # Magic, id, then the JSON text.
    for (p, o), i in zip(produce(kafka, topic_name, values), ids):
        produced[(p, o)] = "row"
        want[i] = order(i)[1]
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="rows")
    registered = sr.get_latest_version(f"{topic_name}-value")
    assert registered.schema.schema_type == "JSON"
    sid = values[0][1:5]
    assert int.from_bytes(sid, "big") == registered.schema_id

    # Ids of other schemas: an Avro one, a JSON Schema of other columns (no
    # `ts` to partition on), and SCHEMA with `name` an integer.
    avro_id = sr.register_schema(f"{topic_name}-avro", Schema(json.dumps(AVRO), "AVRO"))
    other_id = sr.register_schema(f"{topic_name}-other", Schema(json.dumps(
        {"type": "object", "properties": {"other": {"type": "string"}}}), "JSON"))
    bad_id = sr.register_schema(f"{topic_name}-bad", Schema(json.dumps(SCHEMA_BAD), "JSON"))
    assert len({avro_id, other_id, bad_id, registered.schema_id}) == 4

    good = serializer(order(900)[0], ctx)
    payload = good[5:]
    record = order(900)[0]
    poison = {
        b"\x01" + good[1:]: "WRONG_MAGIC_BYTE",
        payload: "WRONG_MAGIC_BYTE",  # Unframed JSON: starts with '{'.
        b"\x00" + sid[:3]: "TRUNCATED_PAYLOAD",
        b"": "TRUNCATED_PAYLOAD",
        b"\x00" + (7_654_321).to_bytes(4, "big") + payload: "SCHEMA_NOT_FOUND",
        b"\x00" + avro_id.to_bytes(4, "big") + payload: "SCHEMA_MISMATCH",
        b"\x00" + other_id.to_bytes(4, "big") + payload: "SCHEMA_MISMATCH",
        # A mapped version the table cannot take: quarantined.
        b"\x00" + bad_id.to_bytes(4, "big") + payload: "SCHEMA_INCOMPATIBLE",
        b"\x00" + sid + b'{"id": 1, "name": ': "MALFORMED_JSON",
        b"\x00" + sid + b"\xff\xfe not utf-8": "MALFORMED_JSON",
        b"\x00" + sid: "MALFORMED_JSON",  # The header and no JSON at all.
        b"\x00" + sid + json.dumps({k: v for k, v in record.items() if k != "name"}).encode():
            "MISSING_REQUIRED_FIELD",
        b"\x00" + sid + json.dumps({**record, "i32": "one"}).encode(): "TYPE_MISMATCH",
        b"\x00" + sid + json.dumps({**record, "i32": INT32_MAX + 1}).encode(): "TYPE_MISMATCH",
        b"\x00" + sid + json.dumps({**record, "price": 0.125}).encode(): "TYPE_MISMATCH",
        b"\x00" + sid + json.dumps({**record, "uid": "not-a-uuid"}).encode(): "TYPE_MISMATCH",
    }
    for (p, o), code in zip(produce(kafka, topic_name, list(poison)), poison.values()):
        produced[(p, o)] = code
    # A good record after the poison: the channel keeps flowing.
    (p, o), = produce(kafka, topic_name, [serializer(order(500)[0], ctx)])
    produced[(p, o)] = "row"
    want[500] = order(500)[1]
    wait_for(lambda: len(setup.dlq_lines()) >= len(poison), what="poison in the DLQ")
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="the row after the poison")
    time.sleep(2)  # A batch delivered twice would show up within the freshness.

    table = setup.load_table()
    got = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["id"] for r in got] == sorted(want)
    for row in got:
        w = want[row["id"]]
        for field, value in w.items():
            actual = row[field]
            if field == "counts":
                assert dict(actual) == value, (field, row)
            elif field == "uid":
                assert as_uuid(actual) == value, (field, row)
            elif field == "score":
                assert same_float(actual, value), (field, actual, value)
            else:
                assert actual == value, (field, actual, value)
    schema = table.schema()
    types = {f.name: str(f.field_type) for f in schema.fields}
    assert types["id"] == "long" and types["i32"] == "int" and types["score"] == "double"
    assert types["price"] == "decimal(38, 2)" and types["flag"] == "boolean"
    assert types["ts"] == "timestamptz" and types["day"] == "date" and types["uid"] == "uuid"
    assert types["tags"].startswith("list<string>") and types["counts"].startswith("map<string,")
    assert types["address"].startswith("struct<")
    assert schema.find_field("id").required and schema.find_field("address.street").required
    assert not schema.find_field("note").required and not schema.find_field("maybe").required
    assert not schema.find_field("address").required
    assert sorted(table.schemas()) == [0]  # No version here adds a field.

    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)  # No gap, no duplicate.
    assert len(set(in_table + in_dlq)) == len(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == line["errorCode"], line
    by_code = {}
    for line in lines:
        by_code.setdefault(line["errorCode"], []).append(line)
    assert {line["schemaVersionId"] for line in by_code["SCHEMA_NOT_FOUND"]} == {"7654321"}
    mismatch = {line["schemaVersionId"]: line["errorMessage"] for line in by_code["SCHEMA_MISMATCH"]}
    assert set(mismatch) == {str(avro_id), str(other_id)}
    assert "AVRO" in mismatch[str(avro_id)], mismatch
    incompatible, = by_code["SCHEMA_INCOMPATIBLE"]
    assert incompatible["schemaVersionId"] == str(bad_id), incompatible
    assert "field name is string in the table and long" in incompatible["errorMessage"]
    for line in by_code["MALFORMED_JSON"] + by_code["TYPE_MISMATCH"]:
        assert line["schemaVersionId"] == str(registered.schema_id), line

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, setup.bucket_arn)
    duck_rows = duck.execute(
        f"SELECT id, i32, name, score, price, flag, epoch_us(ts), day, uid, address.street, "
        f"address.zip, len(tags), cardinality(counts), note, maybe "
        f"FROM st.{setup.namespace}.{setup.table} ORDER BY id").fetchall()
    assert [tuple(r) for r in duck_rows] == [
        (w["id"], w["i32"], w["name"], w["score"], w["price"], w["flag"],
         (w["ts"] - EPOCH) // dt.timedelta(microseconds=1), w["day"], w["uid"],
         None if w["address"] is None else w["address"]["street"],
         None if w["address"] is None else w["address"]["zip"], len(w["tags"]), len(w["counts"]),
         w["note"], w["maybe"])
        for _, w in sorted(want.items())]

    cat = spark_catalog(spark, server, setup.bucket_arn)
    spark_rows = spark.sql(
        f"SELECT id, i32, name, price, flag, day, CAST(uid AS STRING) AS uid, tags, "
        f"counts['k' || CAST(id AS STRING)] AS k, address.zip AS zip, note, maybe "
        f"FROM {cat}.{setup.namespace}.{setup.table} ORDER BY id").collect()
    assert [tuple(r) for r in spark_rows] == [
        (w["id"], w["i32"], w["name"], w["price"], w["flag"], w["day"], str(w["uid"]), w["tags"],
         w["counts"][f"k{w['id']}"], None if w["address"] is None else w["address"]["zip"],
         w["note"], w["maybe"])
        for _, w in sorted(want.items())]


def test_records_that_cannot_define_the_table_go_to_the_dlq_first(server, kafka, topic_name):
    """Records ahead of the first decodable one (unframed, unknown id, an id
    of an Avro schema) cannot create the table: they reach the DLQ, and the
    first JSONSerializer record then creates it."""
    from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=1)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_CONFLUENT",
                                freshness=1)
    setup.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    serializer = JSONSerializer(json.dumps(SCHEMA), sr)
    avro_id = sr.register_schema(f"{topic_name}-avro", Schema(json.dumps(AVRO), "AVRO"))
    payload = json.dumps(order(0)[0]).encode()
    poison = [(payload, "WRONG_MAGIC_BYTE"), (b"\x00\x00", "TRUNCATED_PAYLOAD"),
              (b"\x00" + (9_000_001).to_bytes(4, "big") + payload, "SCHEMA_NOT_FOUND"),
              (b"\x00" + avro_id.to_bytes(4, "big") + payload, "SCHEMA_MISMATCH")]
    produced = {}
    for (p, o), (_, code) in zip(produce(kafka, topic_name, [v for v, _ in poison]), poison):
        produced[(p, o)] = code
    wait_for(lambda: len(setup.dlq_lines()) >= len(poison), timeout_s=60, what="poison in the DLQ")
    assert setup.read_arrow() is None  # No record could define the table yet.
    assert setup.describe()["Status"] == "ACTIVE"

    values = [serializer(order(i)[0], ctx) for i in range(3)]
    for (p, o) in produce(kafka, topic_name, values):
        produced[(p, o)] = "row"
    wait_for(lambda: len(rows_of(setup)) >= 3, what="rows after the poison")
    got = rows_of(setup)
    assert sorted(r["id"] for r in got) == [0, 1, 2]
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == line["errorCode"], line



def test_json_schema_confluent_evolution(server, kafka, topic_name, spark):
    """JSONSerializer registers SCHEMA_V2 (new optional fields at the top level
    and in `address`) as the subject's second version: its first rows commit
    with the evolved schema (fresh ids, schema 1); v1 records keep decoding
    after it (the new columns null); a version retyping `name` is quarantined
    (SCHEMA_INCOMPATIBLE, in DescribeChannel) while the others flow."""
    from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_CONFLUENT",
                                freshness=1)
    setup.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    ser1 = JSONSerializer(json.dumps(SCHEMA), sr)
    ser2 = JSONSerializer(json.dumps(SCHEMA_V2), sr)
    # SCHEMA's objects are open (no additionalProperties), so under the
    # default BACKWARD level the registry refuses SCHEMA_V2 as Confluent's
    # does (PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL: a v1 writer may have written
    # `added` with any type). The channel's own evolution rule is what this
    # test is about, so the subject is set to NONE first, as a user would.
    assert sr.set_compatibility(f"{topic_name}-value", "NONE") == {"compatibility": "NONE"}

    def v2_order(i):
        record, row = order(i)
        record = {**record, "added": f"added {i}"}
        record["address"] = {"street": f"street {i}", "country": "ÖS" if i % 2 else None}
        row = {**row, "added": f"added {i}",
               "address": {"street": f"street {i}", "zip": None,
                           "country": "ÖS" if i % 2 else None}}
        return record, row

    produced, want = {}, {}
    for ids, make, ser in ((range(0, 6), order, ser1), (range(100, 106), v2_order, ser2),
                           (range(200, 203), order, ser1)):
        values = [ser(make(i)[0], ctx) for i in ids]
        for (p, o), i in zip(produce(kafka, topic_name, values), ids):
            produced[(p, o)] = "row"
            want[i] = make(i)[1]
        wait_for(lambda: len(rows_of(setup)) >= len(want), what=f"rows up to {ids[-1]}")
        if ids[0] == 0:
            v1_snapshot = setup.load_table().current_snapshot()
    versions = sr.get_versions(f"{topic_name}-value")
    assert len(versions) == 2, versions

    bad_id = sr.register_schema(f"{topic_name}-bad", Schema(json.dumps(SCHEMA_BAD), "JSON"))
    bad = [b"\x00" + bad_id.to_bytes(4, "big") + json.dumps({**order(i)[0], "name": i}).encode()
           for i in range(300, 303)]
    for (p, o) in produce(kafka, topic_name, bad):
        produced[(p, o)] = "SCHEMA_INCOMPATIBLE"
    (p, o), = produce(kafka, topic_name, [ser2(v2_order(400)[0], ctx)])
    produced[(p, o)] = "row"
    want[400] = v2_order(400)[1]
    wait_for(lambda: len(setup.dlq_lines()) >= len(bad), what="the mismatching version in the DLQ")
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="the row after it")

    table = setup.load_table()
    assert sorted(table.schemas()) == [0, 1]
    old, new = table.schemas()[0], table.schemas()[1]
    assert "added" not in old.column_names and "address.country" not in old.column_names
    assert not new.find_field("added").required
    assert not new.find_field("address.country").required
    assert new.find_field("added").field_id > old.highest_field_id
    assert new.find_field("id").field_id == old.find_field("id").field_id
    assert v1_snapshot.schema_id == 0 and table.current_snapshot().schema_id == 1

    got = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["id"] for r in got] == sorted(want)
    for row in got:
        w = want[row["id"]]
        assert row["added"] == w.get("added"), row
        want_address = w["address"]
        if want_address is not None and "country" not in want_address:
            want_address = {**want_address, "country": None}
        assert row["address"] == want_address, row
        assert row["name"] == w["name"] and row["ts"] == w["ts"], row
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    assert len(set(in_table + in_dlq)) == len(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == line["errorCode"], line
        assert line["schemaVersionId"] == str(bad_id), line
        assert "field name is string in the table and long" in line["errorMessage"], line

    expected = [(i, want[i].get("added"),
                 None if want[i]["address"] is None else want[i]["address"].get("country"))
                for i in sorted(want)]
    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, setup.bucket_arn)
    assert duck.execute(
        f"SELECT id, added, address.country FROM st.{setup.namespace}.{setup.table} "
        f"ORDER BY id").fetchall() == expected
    cat = spark_catalog(spark, server, setup.bucket_arn)
    assert [tuple(r) for r in spark.sql(
        f"SELECT id, added, address.country FROM {cat}.{setup.namespace}.{setup.table} "
        f"ORDER BY id").collect()] == expected


# JSON_SCHEMA_GSR: v1; v2 adds optional `note`; v3 makes `name` an object
# (incompatible); v4 is v2 plus optional `tag` (compatible with the table v2
# made).
GSR_V1 = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"},
                   "name": {"type": "string"}},
    "required": ["id", "ts"],
}
GSR_V2 = json.loads(json.dumps(GSR_V1))
GSR_V2["properties"]["note"] = {"type": "string"}
GSR_V3 = json.loads(json.dumps(GSR_V2))
GSR_V3["properties"]["name"] = {"type": "object", "properties": {"first": {"type": "string"}}}
GSR_V4 = json.loads(json.dumps(GSR_V2))
GSR_V4["properties"]["tag"] = {"type": "string"}


def gsr_order(i, version):
    """The record of version `version` for id i."""
    record = {"id": i, "ts": (BASE + dt.timedelta(minutes=i)).isoformat().replace("+00:00", "Z"),
              "name": f"n{i}-é"}
    if version in (2, 4) and i % 2 == 0:
        record["note"] = f"note {i}"
    if version == 3:
        record["name"] = {"first": f"f{i}"}
    if version == 4:
        record["tag"] = f"t{i}"
    return record


def test_json_schema_gsr_evolution(server, kafka, topic_name):
    """aws-glue-schema-registry's KafkaSerializer registers GSR_V1..V4 as
    versions of the topic's schema and frames each record. v2's first rows
    commit with schema 1 (a fresh id for `note`), v4's with schema 2 (`tag`);
    v1 records keep decoding after both (new columns null); v3's records go to
    the DLQ as SCHEMA_INCOMPATIBLE naming the field and both types, before and
    after v4, and the version is listed in DescribeChannel and /metrics.
    PyIceberg and DuckDB read every row; table + DLQ = produced per offset."""
    from aws_schema_registry import DataAndSchema
    from aws_schema_registry.jsonschema import JsonSchema

    kafka.create_topic(topic_name, partitions=2)
    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_GSR",
                                freshness=1)
    setup.wait_status("ACTIVE")
    # NONE: Glue would refuse v3 under the serializer's default BACKWARD; the
    # channel's own rule is what this test is about.
    serializer = glue_kafka_serializer(server, compatibility_mode="NONE")
    schemas = {v: JsonSchema(s) for v, s in ((1, GSR_V1), (2, GSR_V2), (3, GSR_V3),
                                             (4, GSR_V4))}
    version_ids = {}
    produced = {}   # (partition, offset) -> "row" | DLQ code
    want = {}       # id -> row
    snapshots = {}
    per_version = 6
    incompatible = 0

    def send(version, ids):
        nonlocal incompatible
        values = [serializer.serialize(topic_name, DataAndSchema(gsr_order(i, version),
                                                                  schemas[version]))
                  for i in ids]
        version_ids[version] = str(uuid.UUID(bytes=bytes(values[0][2:18])))
        assert all(v[:2] == b"\x03\x00" for v in values)
        for (p, o), i in zip(produce(kafka, topic_name, values), ids):
            if version == 3:
                produced[(p, o)] = "SCHEMA_INCOMPATIBLE"
                incompatible += 1
            else:
                produced[(p, o)] = "row"
                record = gsr_order(i, version)
                want[i] = {"id": i, "name": record["name"], "note": record.get("note"),
                           "tag": record.get("tag")}
        if version == 3:
            wait_for(lambda: len(setup.dlq_lines()) >= incompatible, what=f"v3 ids {ids}")
        else:
            wait_for(lambda: len(rows_of(setup)) >= len(want), what=f"v{version} ids {ids}")
            snapshots[ids[0]] = setup.load_table().current_snapshot()

    send(1, range(100, 100 + per_version))
    send(2, range(200, 200 + per_version))
    send(3, range(300, 300 + per_version))
    send(4, range(400, 400 + per_version))
    send(3, range(500, 503))  # Still quarantined after v4.
    send(1, range(600, 603))  # v1 keeps flowing under schema 2.
    assert len(set(version_ids.values())) == 4, version_ids

    table = setup.load_table()
    # Schema history: v1 → 0, v2 → 1, v4 → 2; v3 never made one.
    schemas_by_id = table.schemas()
    assert sorted(schemas_by_id) == [0, 1, 2]
    assert table.schema().schema_id == 2
    s0, s1, s2 = schemas_by_id[0], schemas_by_id[1], schemas_by_id[2]
    assert "note" not in s0.column_names and "tag" not in s1.column_names
    assert not s1.find_field("note").required and not s2.find_field("tag").required
    assert s1.find_field("note").field_id > s0.highest_field_id
    assert s2.find_field("tag").field_id > s1.highest_field_id
    for name in ("id", "ts", "name", "_kafka"):
        assert s2.find_field(name).field_id == s0.find_field(name).field_id
    assert s2.find_field("note").field_id == s1.find_field("note").field_id
    assert str(s2.find_field("name").field_type) == "string"
    assert [snapshots[k].schema_id for k in (100, 200, 400, 600)] == [0, 1, 2, 2]

    # Every row, field by field, with nulls where a version lacks a column.
    data = table.scan().to_arrow()
    got = sorted(data.to_pylist(), key=lambda r: r["id"])
    assert [r["id"] for r in got] == sorted(want)
    for row in got:
        w = want[row["id"]]
        assert (row["name"], row["note"], row["tag"]) == (w["name"], w["note"], w["tag"]), row
        assert row["ts"] == BASE + dt.timedelta(minutes=row["id"]), row
    assert any(w["note"] for w in want.values()) and any(w["tag"] for w in want.values())

    # Time travel to the v1-era snapshot: schema 0, v1's rows only.
    old = table.scan(snapshot_id=snapshots[100].snapshot_id).to_arrow()
    assert "note" not in old.column_names and "tag" not in old.column_names
    assert sorted(r["id"] for r in old.to_pylist()) == list(range(100, 100 + per_version))

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, setup.bucket_arn)
    assert duck.execute(
        f"SELECT id, name, note, tag FROM st.{setup.namespace}.{setup.table} "
        f"ORDER BY id").fetchall() == [(i, want[i]["name"], want[i]["note"], want[i]["tag"])
                                       for i in sorted(want)]

    # The DLQ holds v3's records, and table + DLQ = produced, once each.
    lines = setup.dlq_lines()
    print(verify_exactly_once(data, kafka.end_offsets(topic_name),
                              [(line["partition"], line["offset"]) for line in lines]))
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == line["errorCode"], line
        assert line["schemaVersionId"] == version_ids[3], line
        assert "field name is string in the table and struct" in line["errorMessage"], line

    # The quarantined version in DescribeChannel (extension) and /metrics.
    described = describe_raw(server, setup)
    assert described["status"] == "ACTIVE" and "stateInfo" not in described
    quarantined = described["quarantinedSchemaVersions"]
    assert [q["schemaVersionId"] for q in quarantined] == [version_ids[3]]
    assert quarantined[0]["records"] == incompatible
    assert "field name is string in the table and struct" in quarantined[0]["message"]
    sample = [line for line in setup.metrics_text().splitlines()
              if line.startswith("st_channel_schema_incompatible_records_total{")
              and setup.channel_name in line]
    assert len(sample) == 1 and f'version="{version_ids[3]}"' in sample[0], sample
    assert sample[0].endswith(f" {incompatible}")


# Widening and relaxing (issue 14 item 4, the Avro rules for JSON Schema): v2
# lifts `n`'s int32 bounds (int → long) and stops requiring `label`
# (required → optional); v1 records keep flowing after it.
WIDEN_V1 = {
    "type": "object",
    "properties": {"id": {"type": "integer"},
                   "ts": {"type": "string", "format": "date-time"},
                   "n": {"type": "integer", "minimum": INT32_MIN, "maximum": INT32_MAX},
                   "label": {"type": "string"}},
    "required": ["id", "ts", "n", "label"],
}
WIDEN_V2 = json.loads(json.dumps(WIDEN_V1))
WIDEN_V2["properties"]["n"] = {"type": "integer"}
WIDEN_V2["required"] = ["id", "ts", "n"]


def test_json_schema_confluent_widens_int_to_long_and_relaxes_required(server, kafka, topic_name):
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    sr.set_compatibility(f"{topic_name}-value", "NONE")
    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_CONFLUENT",
                                freshness=1)
    setup.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    serializers = {1: JSONSerializer(json.dumps(WIDEN_V1), sr),
                   2: JSONSerializer(json.dumps(WIDEN_V2), sr)}

    def record(i, version):
        ts = (BASE + dt.timedelta(seconds=i)).isoformat().replace("+00:00", "Z")
        out = {"id": i, "ts": ts, "n": INT32_MAX - i, "label": f"l{i}-é"}
        if version == 2:
            out["n"] = (1 << 40) + i if i % 2 else INT64_MIN + i
            if i % 2:
                del out["label"]
        return out

    produced, want = {}, {}
    for version, ids in ((1, range(0, 6)), (2, range(100, 106)), (1, range(200, 204))):
        values = [serializers[version](record(i, version), ctx) for i in ids]
        for (p, o), i in zip(produce(kafka, topic_name, values), ids):
            produced[(p, o)] = i
            want[i] = (record(i, version)["n"], record(i, version).get("label"))
        wait_for(lambda: len(rows_of(setup)) >= len(want), what=f"rows up to {ids[-1]}")

    table = setup.load_table()
    schemas = table.schemas()
    assert sorted(schemas) == [0, 1]
    assert str(schemas[0].find_field("n").field_type) == "int"
    assert schemas[0].find_field("n").required and schemas[0].find_field("label").required
    assert str(schemas[1].find_field("n").field_type) == "long"
    assert not schemas[1].find_field("label").required
    assert schemas[1].find_field("n").field_id == schemas[0].find_field("n").field_id
    got = table.scan().to_arrow().to_pylist()
    assert {r["id"]: (r["n"], r["label"]) for r in got} == want
    in_table = sorted((r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got)
    assert in_table == sorted(produced) and setup.dlq_lines() == []

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    try:
        duckdb_attach(duck, server, setup.bucket_arn)
        rows = duck.execute(f"SELECT id, n, label FROM st.{setup.namespace}.{setup.table} "
                            f"ORDER BY id").fetchall()
    finally:
        duck.close()
    assert rows == [(i, *want[i]) for i in sorted(want)]


# JSON Schema references (issue 14 item 1 "references"): the value schema
# $refs two other registered schemas, one whole and one by a definition inside
# it; the referenced schema has a local $ref of its own.
REF_ADDRESS_V1 = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "zip": {"$ref": "#/$defs/zip"}},
    "required": ["city"],
    "$defs": {"zip": {"type": "integer", "minimum": 0, "maximum": 99999}},
}
REF_ADDRESS_V2 = json.loads(json.dumps(REF_ADDRESS_V1))
REF_ADDRESS_V2["properties"]["country"] = {"type": ["string", "null"]}
REF_MONEY = {"definitions": {"amount": {"type": "number", "multipleOf": 0.01}}}
REF_ORDER = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "ts": {"type": "string", "format": "date-time"},
        "ship_to": {"$ref": "address.json"},
        "total": {"$ref": "money.json#/definitions/amount"},
    },
    "required": ["id", "ts", "total"],
}
# v2 names its references the way confluent-kafka resolves them when the
# schema has an "$id": the relative $ref resolved against it.
REF_ID = "https://schemas.example.com/orders/order.json"
REF_ORDER_V2 = {"$id": REF_ID, **REF_ORDER}
STAMP = "2026-11-30T08:00:00Z"


def test_json_schema_confluent_references(server, kafka, topic_name):
    """JSONSerializer (unmodified) with a Schema whose `references` name two
    other subjects: the channel maps the $refs through them (a whole schema →
    a struct, a definition inside one → a decimal), and a later version that
    references address v2 (a new optional member) and names its references by
    $id-resolved URLs evolves `ship_to` in the delivery commit. PyIceberg and
    DuckDB read every row; nothing is in the DLQ."""
    from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    address_subject, money_subject = f"{topic_name}-address", f"{topic_name}-money"
    sr.set_compatibility(address_subject, "NONE")
    sr.set_compatibility(f"{topic_name}-value", "NONE")
    sr.register_schema(address_subject, Schema(json.dumps(REF_ADDRESS_V1), "JSON"))
    sr.register_schema(address_subject, Schema(json.dumps(REF_ADDRESS_V2), "JSON"))
    sr.register_schema(money_subject, Schema(json.dumps(REF_MONEY), "JSON"))
    v1 = Schema(json.dumps(REF_ORDER), "JSON", references=[
        SchemaReference("address.json", address_subject, 1),
        SchemaReference("money.json", money_subject, 1)])
    v2 = Schema(json.dumps(REF_ORDER_V2), "JSON", references=[
        SchemaReference("https://schemas.example.com/orders/address.json", address_subject, 2),
        SchemaReference("https://schemas.example.com/orders/money.json", money_subject, 1)])

    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_CONFLUENT",
                                freshness=1)
    setup.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    serializers = {1: JSONSerializer(v1, sr), 2: JSONSerializer(v2, sr)}

    def record(i, version):
        ts = (BASE + dt.timedelta(seconds=i)).isoformat().replace("+00:00", "Z")
        out = {"id": i, "ts": ts, "total": round(i + 0.25, 2),
               "ship_to": {"city": f"Zürich {i}", "zip": 8000 + i}}
        if i % 3 == 0:
            del out["ship_to"]["zip"]
        if version == 2:
            out["ship_to"]["country"] = None if i % 2 else "CH"
        return out

    produced, want = {}, {}
    for version, ids in ((1, range(0, 6)), (2, range(100, 106)), (1, range(200, 203))):
        values = [serializers[version](record(i, version), ctx) for i in ids]
        for (p, o), i in zip(produce(kafka, topic_name, values), ids):
            produced[(p, o)] = i
            r = record(i, version)
            want[i] = (r["ship_to"]["city"], r["ship_to"].get("zip"),
                       r["ship_to"].get("country"), Decimal(str(r["total"])))
        wait_for(lambda: len(rows_of(setup)) >= len(want), what=f"rows up to {ids[-1]}")

    table = setup.load_table()
    schemas = table.schemas()
    assert sorted(schemas) == [0, 1]
    assert str(schemas[0].find_field("total").field_type) == "decimal(38, 2)"
    assert str(schemas[0].find_field("ship_to.zip").field_type) == "int"
    assert schemas[0].find_field("ship_to.city").required
    assert "country" not in [f.name for f in schemas[0].find_field("ship_to").field_type.fields]
    assert str(schemas[1].find_field("ship_to.country").field_type) == "string"
    got = table.scan().to_arrow().to_pylist()
    assert {r["id"]: (r["ship_to"]["city"], r["ship_to"]["zip"], r["ship_to"].get("country"),
                      r["total"]) for r in got} == want
    in_table = sorted((r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got)
    assert in_table == sorted(produced) and setup.dlq_lines() == []

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    try:
        duckdb_attach(duck, server, setup.bucket_arn)
        rows = duck.execute(f"SELECT id, ship_to.city, ship_to.zip, ship_to.country, total "
                            f"FROM st.{setup.namespace}.{setup.table} ORDER BY id").fetchall()
    finally:
        duck.close()
    assert rows == [(i, *want[i]) for i in sorted(want)]


def test_json_schema_confluent_reference_that_does_not_map(server, kafka, topic_name):
    """A registered schema whose $ref names no reference (the producer forgot
    to list it) cannot be mapped: its records go to the DLQ as SCHEMA_MISMATCH
    with the $ref and the name to register; records of a good schema on the
    same topic still land."""
    from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=1)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    sr.set_compatibility(f"{topic_name}-value", "NONE")
    money_subject = f"{topic_name}-money"
    sr.register_schema(money_subject, Schema(json.dumps(REF_MONEY), "JSON"))
    ts = {"type": "string", "format": "date-time"}
    good = Schema(json.dumps({"type": "object", "properties": {
        "id": {"type": "integer"}, "ts": ts,
        "total": {"$ref": "money.json#/definitions/amount"}}}),
        "JSON", references=[SchemaReference("money.json", money_subject, 1)])
    # Registered with a reference under another name than its $ref uses.
    bad = Schema(json.dumps({"type": "object", "properties": {
        "id": {"type": "integer"}, "ts": ts,
        "total": {"$ref": "amounts.json#/definitions/amount"}}}),
        "JSON", references=[SchemaReference("money.json", money_subject, 1)])
    bad_id = sr.register_schema(f"{topic_name}-value", bad)

    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_CONFLUENT",
                                freshness=1)
    setup.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    # The client cannot serialize with `bad` (it validates through the
    # references), so frame its records by hand: magic 0, the id, the JSON.
    bad_values = [b"\x00" + bad_id.to_bytes(4, "big") + json.dumps({"id": i, "ts": STAMP, "total": 1.5}).encode()
                  for i in range(3)]
    good_values = [JSONSerializer(good, sr)({"id": i, "ts": STAMP, "total": i + 0.5}, ctx)
                   for i in range(10, 13)]
    bad_at = produce(kafka, topic_name, bad_values)
    good_at = produce(kafka, topic_name, good_values)
    wait_for(lambda: len(rows_of(setup)) >= 3 and len(setup.dlq_lines()) >= 3,
             what="3 rows and 3 DLQ records")
    rows = rows_of(setup)
    assert sorted(r["id"] for r in rows) == [10, 11, 12]
    assert sorted((r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in rows) == sorted(good_at)
    dlq = setup.dlq_lines()
    assert sorted((d["partition"], d["offset"]) for d in dlq) == sorted(bad_at)
    for d in dlq:
        assert d["errorCode"] == "SCHEMA_MISMATCH", d
        assert "$ref 'amounts.json#/definitions/amount' names neither" in d["errorMessage"], d
        assert "'amounts.json'" in d["errorMessage"], d


def test_a_first_schema_without_the_partition_source_goes_to_the_dlq(server, kafka, topic_name):
    """The channel partitions by `ts`; the first records' schema has no `ts`,
    so it cannot make the table: those records go to the DLQ as
    SCHEMA_MISMATCH naming the column (before: the channel stalled on them for
    good), and the first record whose schema has it defines the table."""
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=1)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    sr.set_compatibility(f"{topic_name}-value", "NONE")
    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_CONFLUENT",
                                freshness=1)
    setup.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    no_ts = JSONSerializer(json.dumps({"type": "object", "properties": {
        "id": {"type": "integer"}}}), sr)
    with_ts = JSONSerializer(json.dumps({"type": "object", "required": ["id", "ts"],
                                         "properties": {"id": {"type": "integer"},
                                                        "ts": {"type": "string",
                                                               "format": "date-time"}}}), sr)
    bad_at = produce(kafka, topic_name, [no_ts({"id": i}, ctx) for i in range(2)])
    good_at = produce(kafka, topic_name, [with_ts({"id": i, "ts": STAMP}, ctx)
                                          for i in range(10, 13)])
    wait_for(lambda: len(rows_of(setup)) >= 3 and len(setup.dlq_lines()) >= 2,
             what="3 rows and 2 DLQ records")
    rows = rows_of(setup)
    assert sorted(r["id"] for r in rows) == [10, 11, 12]
    assert sorted((r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in rows) == good_at
    dlq = setup.dlq_lines()
    assert sorted((d["partition"], d["offset"]) for d in dlq) == bad_at
    for d in dlq:
        assert d["errorCode"] == "SCHEMA_MISMATCH", d
        assert "cannot define the table" in d["errorMessage"] and "'ts'" in d["errorMessage"], d
        assert d["schemaVersionId"] == str(int.from_bytes(no_ts({"id": 0}, ctx)[1:5], "big")), d
