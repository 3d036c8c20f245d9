"""AWS's own Glue Schema Registry serializer (aws-glue-schema-registry 1.1.24,
`GlueSchemaRegistryKafkaSerializer`, PROTOBUF mode with DYNAMIC_MESSAGE,
unmodified) against our Glue registry and a real broker, into a PROTOBUF_GSR
channel (issue 14: Protobuf payloads behind the Glue framing).

The serializer runs in a small Java producer (tests/integration/java/
GsrProtobufProducer.java, run by Java's source launcher; jars from
tools/maven/glue-serde/pom.xml). The schema is a FileDescriptorProto built
here field by field (no protoc): the Java side builds its descriptor from it
and the serializer prints the .proto text it registers (DataFormat PROTOBUF,
auto-registration through the AWS SDK's Glue client at our endpoint) and
frames each record itself: 0x03, the compression byte, the 16-byte version
UUID, then (zlib-deflated with ZLIB) the message index as a varint and the
message. The record message `gsr.serde.Record` sorts after `gsr.serde.Aux`, so
its index is 1, not 0. v1 goes uncompressed, then v2 (one more field) and v1
again with ZLIB; the table evolves in the delivery commit. Rows are read back
field by field with PyIceberg, DuckDB and Spark; poison records go to the DLQ
with their codes, and table + DLQ = produced per (partition, offset).
"""

import base64
import datetime as dt
import math
import os
import subprocess
import uuid
import zlib

import pytest
from botocore.exceptions import ClientError

from harness import duckdb_engine, paths
from harness.channels import ChannelSetup, glue_client
from test_avro_channel import produce, rows_of, unique, wait_for
from test_glue_avro_serde import raw_values
from test_iceberg_rest_engines import duckdb_attach, spark_catalog

JAVA_SOURCE = paths.REPO_ROOT / "tests" / "integration" / "java" / "GsrProtobufProducer.java"
UTC = dt.timezone.utc
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)
BASE = dt.datetime(2026, 12, 1, 9, 0, 0, tzinfo=UTC)
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
RECORD_INDEX = 1  # gsr.serde.Aux, gsr.serde.Record, ...Record.CountsEntry, ...Record.Inner.


def file_descriptor(version):
    """The schema file, built as a FileDescriptorProto: every scalar kind the
    brief lists, an enum, a nested message, repeated, a map, a oneof and a
    Timestamp (a well-known import); v2 adds `note`."""
    from google.protobuf import descriptor_pb2 as d
    F = d.FieldDescriptorProto

    def field(msg, name, number, ftype, label=F.LABEL_OPTIONAL, type_name=None, oneof=None):
        f = msg.field.add(name=name, number=number, type=ftype, label=label)
        if type_name:
            f.type_name = type_name
        if oneof is not None:
            f.oneof_index = oneof

    fd = d.FileDescriptorProto(name="gsr_serde.proto", package="gsr.serde", syntax="proto3")
    fd.dependency.append("google/protobuf/timestamp.proto")
    color = fd.enum_type.add(name="Color")
    for number, name in enumerate(["RED", "GREEN", "BLUE"]):
        color.value.add(name=name, number=number)
    aux = fd.message_type.add(name="Aux")
    field(aux, "a", 1, F.TYPE_STRING)
    rec = fd.message_type.add(name="Record")
    inner = rec.nested_type.add(name="Inner")
    field(inner, "x", 1, F.TYPE_INT32)
    field(inner, "tags", 2, F.TYPE_STRING, F.LABEL_REPEATED)
    entry = rec.nested_type.add(name="CountsEntry")
    entry.options.map_entry = True
    field(entry, "key", 1, F.TYPE_STRING)
    field(entry, "value", 2, F.TYPE_INT32)
    rec.oneof_decl.add(name="choice")
    for spec in [("k", 1, F.TYPE_INT32), ("i64", 2, F.TYPE_INT64), ("u32", 3, F.TYPE_UINT32),
                 ("s64", 4, F.TYPE_SINT64), ("fx32", 5, F.TYPE_FIXED32),
                 ("fx64", 6, F.TYPE_FIXED64), ("sf32", 7, F.TYPE_SFIXED32),
                 ("db", 8, F.TYPE_DOUBLE), ("fl", 9, F.TYPE_FLOAT), ("flag", 10, F.TYPE_BOOL),
                 ("name", 11, F.TYPE_STRING), ("blob", 12, F.TYPE_BYTES)]:
        field(rec, *spec)
    field(rec, "color", 13, F.TYPE_ENUM, type_name=".gsr.serde.Color")
    field(rec, "inner", 14, F.TYPE_MESSAGE, type_name=".gsr.serde.Record.Inner")
    field(rec, "nums", 15, F.TYPE_INT64, F.LABEL_REPEATED)
    field(rec, "counts", 16, F.TYPE_MESSAGE, F.LABEL_REPEATED, ".gsr.serde.Record.CountsEntry")
    field(rec, "text", 17, F.TYPE_STRING, oneof=0)
    field(rec, "number", 18, F.TYPE_INT64, oneof=0)
    field(rec, "ts", 19, F.TYPE_MESSAGE, type_name=".google.protobuf.Timestamp")
    if version >= 2:
        field(rec, "note", 20, F.TYPE_STRING)
    return fd


def record_class(fd):
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, timestamp_pb2
    pool = descriptor_pool.DescriptorPool()
    ts = descriptor_pb2.FileDescriptorProto()
    timestamp_pb2.DESCRIPTOR.CopyToProto(ts)
    pool.Add(ts)
    pool.Add(fd)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("gsr.serde.Record"))


def values(k, version):
    """Field values of record k and the row the table must hold for it."""
    extreme = k % 2 == 0
    row = {
        "k": k, "i64": INT64_MIN if extreme else k * 1000,
        "u32": (1 << 32) - 1 if extreme else k, "s64": INT64_MAX if extreme else -k,
        "fx32": (1 << 32) - 1 if extreme else k * 13, "fx64": (1 << 64) - 1 if extreme else k * 11,
        "sf32": -(1 << 31) if extreme else k * 7,
        "db": [math.nan, -math.inf, 0.0, 1e308][k % 4], "fl": -1.5 if extreme else 0.25,
        "flag": extreme, "name": "" if extreme else f"héllo ✓ 😀 {k}",
        "blob": b"" if extreme else bytes(range(256)),
    }
    msg = {**row, "color": k % 3, "nums": [] if extreme else [INT64_MIN, k, INT64_MAX],
           "counts": {} if extreme else {"a": k, f"k{k}": -k}}
    want = dict(row)
    want["fx64"] = -1 if extreme else k * 11  # fixed64 ≥ 2^63 wraps (README).
    want["color"] = ["RED", "GREEN", "BLUE"][k % 3]
    want["nums"] = msg["nums"]
    want["counts"] = msg["counts"]
    want["inner"] = None if k % 5 == 1 else {"x": k, "tags": [] if extreme else ["a", "ü"]}
    want["text"] = f"text {k}" if k % 3 == 0 else None
    want["number"] = k * 100 if k % 3 == 1 else None
    want["ts"] = BASE + dt.timedelta(seconds=k, microseconds=123456)
    want["note"] = f"note {k} ✓" if version >= 2 else None
    return msg, want


def encode(cls, k, version):
    msg, want = values(k, version)
    m = cls()
    for name in ("k", "i64", "u32", "s64", "fx32", "fx64", "sf32", "db", "fl", "flag", "name",
                 "blob", "color"):
        setattr(m, name, msg[name])
    m.nums.extend(msg["nums"])
    for key, v in msg["counts"].items():
        m.counts[key] = v
    if want["inner"] is not None:
        m.inner.x = k
        m.inner.tags.extend(want["inner"]["tags"])
    if k % 3 == 0:
        m.text = f"text {k}"
    elif k % 3 == 1:
        m.number = k * 100
    m.ts.seconds = int(BASE.timestamp()) + k
    m.ts.nanos = 123456789  # Truncated to microseconds in the table.
    if version >= 2:
        m.note = want["note"]
    return m.SerializeToString(), want


def glue_produce(server, kafka, topic, tmp_path, schema_name, serializers, lines):
    """Runs the Java producer: serializers is [(version, "NONE"|"ZLIB")], lines
    [(serializer index, message bytes)]; returns [(partition, offset)] per line."""
    args = []
    for n, (version, compression) in enumerate(serializers):
        desc = tmp_path / f"schema-{n}.desc"
        desc.write_bytes(file_descriptor(version).SerializeToString())
        args.append(f"{desc}:Record:{compression}")
    stdin = "".join(f"{which}\t{base64.b64encode(wire).decode()}\n" for which, wire in lines)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_ACCESS_KEY_ID=server.access_key, AWS_SECRET_ACCESS_KEY=server.secret_key)
    proc = subprocess.run(
        [paths.java_bin(), "-Xmx512m", "-cp", f"{paths.jar_dir('glue-serde')}/*", str(JAVA_SOURCE),
         kafka.bootstrap, topic, server.api_url + "/glue", server.region, "default-registry",
         schema_name, *args],
        input=stdin, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, f"GsrProtobufProducer exited {proc.returncode}:\n{proc.stderr[-4000:]}"
    out = [tuple(int(x) for x in line.split()) for line in proc.stdout.splitlines() if line]
    assert len(out) == len(lines), proc.stdout
    return out


def same(a, b):
    if isinstance(b, float) and math.isnan(b):
        return isinstance(a, float) and math.isnan(a)
    return a == b


def check_row(row, want):
    for name, value in want.items():
        got = row[name]
        if name == "counts":
            got = dict(got or [])
        assert same(got, value), (want["k"], name, got, value)


def test_glue_serializer_protobuf_mode_into_a_protobuf_gsr_channel(server, kafka, topic_name,
                                                                   spark, tmp_path):
    kafka.create_topic(topic_name, partitions=2)
    glue = glue_client(server)
    try:
        glue.create_registry(RegistryName="default-registry")
    except glue.exceptions.AlreadyExistsException:
        pass
    setup = ChannelSetup.create(server, kafka, topic_name, converter="PROTOBUF_GSR", freshness=1)
    assert setup.describe()["TopicConfigurationList"][0]["RecordConverter"][
        "ValueConverter"] == "PROTOBUF_GSR"
    setup.wait_status("ACTIVE")
    schema_name = unique("gsr-proto")
    v1, v2 = record_class(file_descriptor(1)), record_class(file_descriptor(2))

    # v1 through the serializer, uncompressed: it registers the schema.
    produced, want = {}, {}
    v1_keys = list(range(0, 10))
    encoded = [encode(v1, k, 1) for k in v1_keys]
    out = glue_produce(server, kafka, topic_name, tmp_path, schema_name, [(1, "NONE")],
                       [(0, wire) for wire, _ in encoded])
    for (p, o), k, (_, w) in zip(out, v1_keys, encoded):
        produced[(p, o)] = k
        want[k] = w
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="v1 rows")
    v1_snapshot = setup.load_table().current_snapshot()

    # v2 (one more field) uncompressed and with ZLIB, and v1 again with ZLIB
    # (the serializer finds v1 by its definition).
    lines, keys, compressed = [], [], set()
    for k in range(10, 40):
        which = k % 3
        wire, w = encode(v1 if which == 2 else v2, k, 1 if which == 2 else 2)
        lines.append((which, wire))
        keys.append(k)
        want[k] = w
    out = glue_produce(server, kafka, topic_name, tmp_path, schema_name,
                       [(2, "NONE"), (2, "ZLIB"), (1, "ZLIB")], lines)
    for (p, o), k, (which, _) in zip(out, keys, lines):
        produced[(p, o)] = k
        if which != 0:
            compressed.add((p, o))
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="v2 rows")

    # The serializer framed every record itself: 0x03, 0x05 (ZLIB) or 0x00,
    # a version UUID of this schema, then the message index 1 (Record sorts
    # after Aux), deflated with the message under ZLIB.
    versions = glue.list_schema_versions(
        SchemaId={"RegistryName": "default-registry", "SchemaName": schema_name})["Schemas"]
    assert sorted(v["VersionNumber"] for v in versions) == [1, 2]
    glue_ids = {v["SchemaVersionId"] for v in versions}
    raw = raw_values(kafka, topic_name, len(produced))
    assert sorted(raw) == sorted(produced)
    for where, value in raw.items():
        assert value[0] == 3 and value[1] == (5 if where in compressed else 0), (where, value[:2])
        assert str(uuid.UUID(bytes=value[2:18])) in glue_ids
        payload = zlib.decompress(value[18:]) if where in compressed else value[18:]
        assert payload[0] == RECORD_INDEX, (where, payload[:4])
    described = glue.get_schema(
        SchemaId={"RegistryName": "default-registry", "SchemaName": schema_name})
    assert described["DataFormat"] == "PROTOBUF"
    definition = glue.get_schema_version(
        SchemaId={"RegistryName": "default-registry", "SchemaName": schema_name},
        SchemaVersionNumber={"VersionNumber": 1})["SchemaDefinition"]
    assert "message Record" in definition and "google/protobuf/timestamp.proto" in definition

    # Poison after the good records, against a version the serializer made.
    good = raw[next(where for where in raw if where not in compressed)]
    json_version = glue.create_schema(
        RegistryId={"RegistryName": "default-registry"}, SchemaName=unique("json"),
        DataFormat="JSON", Compatibility="NONE",
        SchemaDefinition='{"type":"object"}')["SchemaVersionId"]
    poison = {
        b"\x02" + good[1:]: "MISSING_GSR_HEADER",
        good[:2] + uuid.uuid4().bytes + good[18:]: "SCHEMA_NOT_FOUND",
        good[:2] + uuid.UUID(json_version).bytes + good[18:]: "SCHEMA_MISMATCH",
        good[:18] + b"\x09" + good[19:]: "MALFORMED_PROTOBUF",  # Index 9: 4 message types.
        good[:-3]: "MALFORMED_PROTOBUF",  # Cut inside the Timestamp.
        good[:18]: "TRUNCATED_PAYLOAD",  # No message index.
        good[:1] + b"\x05" + good[2:18] + b"not zlib": "MALFORMED_PROTOBUF",
    }
    for (p, o), code in zip(produce(kafka, topic_name, list(poison)), poison.values()):
        produced[(p, o)] = code
    wait_for(lambda: len(setup.dlq_lines()) >= len(poison), what="poison in the DLQ")

    # Table + DLQ = produced, exactly once per (partition, offset).
    table = setup.load_table()
    got = table.scan().to_arrow().to_pylist()
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    assert len(set(in_table + in_dlq)) == len(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == line["errorCode"], line
    messages = {line["errorCode"]: line["errorMessage"] for line in lines}
    assert "JSON" in messages["SCHEMA_MISMATCH"], messages
    assert any("message index 9" in line["errorMessage"] for line in lines), messages

    # Field by field in PyIceberg.
    for row in got:
        k = produced[(row["_kafka"]["partition"], row["_kafka"]["offset"])]
        assert row["k"] == k
        check_row(row, want[k])
    types = {f.name: str(f.field_type) for f in table.schema().fields}
    assert types["u32"] == "long" and types["fx32"] == "long" and types["sf32"] == "int"
    assert types["ts"] == "timestamptz" and types["blob"] == "binary" and types["color"] == "string"
    assert types["counts"].startswith("map<string, int>")

    # The table evolved in the delivery commit: v1's schema, then v2's.
    assert sorted(table.schemas()) == [0, 1] and table.schema().schema_id == 1
    assert "note" not in [f.name for f in table.schemas()[0].fields]
    assert v1_snapshot.schema_id == 0
    old = table.scan(snapshot_id=v1_snapshot.snapshot_id).to_arrow()
    assert "note" not in old.column_names
    assert sorted(r["k"] for r in old.to_pylist()) == v1_keys

    ordered = [want[k] for k in sorted(want)]
    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, setup.bucket_arn)
    duck_rows = duck.execute(
        f"SELECT k, i64, u32, s64, fx64, sf32, flag, name, color, \"inner\".x, nums, text, number, "
        f"epoch_us(ts), note FROM st.{setup.namespace}.{setup.table} ORDER BY k").fetchall()
    assert duck_rows == [
        (w["k"], w["i64"], w["u32"], w["s64"], w["fx64"], w["sf32"], w["flag"], w["name"],
         w["color"], None if w["inner"] is None else w["inner"]["x"], w["nums"], w["text"],
         w["number"], (w["ts"] - EPOCH) // dt.timedelta(microseconds=1), w["note"])
        for w in ordered]

    cat = spark_catalog(spark, server, setup.bucket_arn)
    spark_rows = [r.asDict(recursive=True) for r in spark.sql(
        f"SELECT k, fx32, fl, db, blob, `inner`, counts, ts, note "
        f"FROM {cat}.{setup.namespace}.{setup.table} ORDER BY k").collect()]
    assert [r["k"] for r in spark_rows] == sorted(want)
    for row, w in zip(spark_rows, ordered):
        assert row["fx32"] == w["fx32"] and row["fl"] == w["fl"] and same(row["db"], w["db"])
        assert bytes(row["blob"]) == w["blob"] and row["note"] == w["note"]
        assert row["inner"] == w["inner"] and dict(row["counts"] or {}) == w["counts"]
        assert row["ts"].replace(tzinfo=UTC) == w["ts"], (row["ts"], w["ts"])


def test_glue_registry_validates_protobuf_definitions(server):
    """A PROTOBUF version must be a .proto the channel can parse (well-known
    imports allowed; GSR has no references): anything else is refused with
    InvalidInputException at CreateSchema and RegisterSchemaVersion."""
    glue = glue_client(server)
    registry = unique("protoreg")
    glue.create_registry(RegistryName=registry)
    name = unique("s")
    good = ('syntax = "proto3";\npackage p;\nimport "google/protobuf/timestamp.proto";\n'
            'message M { int32 a = 1; google.protobuf.Timestamp t = 2; }\n')
    created = glue.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                                 DataFormat="PROTOBUF", Compatibility="BACKWARD",
                                 SchemaDefinition=good)
    got = glue.get_schema_version(SchemaVersionId=created["SchemaVersionId"])
    assert got["DataFormat"] == "PROTOBUF" and got["SchemaDefinition"] == good
    for bad in ('syntax = "proto3"; message {',
                'syntax = "proto3"; message M { Missing m = 1; }',
                'syntax = "proto3"; import "other/file.proto"; message M { int32 a = 1; }'):
        for call in (
                lambda: glue.create_schema(RegistryId={"RegistryName": registry},
                                           SchemaName=unique("bad"), DataFormat="PROTOBUF",
                                           Compatibility="NONE", SchemaDefinition=bad),
                lambda: glue.register_schema_version(
                    SchemaId={"RegistryName": registry, "SchemaName": name},
                    SchemaDefinition=bad)):
            with pytest.raises(ClientError) as info:
                call()
            response = info.value.response
            assert response["ResponseMetadata"]["HTTPStatusCode"] == 400
            assert response["Error"]["Code"] == "InvalidInputException"
            assert "PROTOBUF data format is invalid" in response["Error"]["Message"]
    versions = glue.list_schema_versions(SchemaId={"RegistryName": registry, "SchemaName": name})
    assert len(versions["Schemas"]) == 1
