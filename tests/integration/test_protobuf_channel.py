"""PROTOBUF_CONFLUENT channels end to end (issue 14 items 3-4): confluent-kafka's
ProtobufSerializer (unmodified) registers .proto schemas — the main file and
its imported file as a schema reference; Google's well-known types are not
registered, the server knows them — in our Confluent-compatible registry and
frames the records (magic 0, schema id, message indexes). The message classes
come from protoc (Debian protobuf-compiler) descriptor sets loaded into a
Python descriptor pool. The channel decodes the wire format straight into
column buffers; rows are read back field by field with PyIceberg and DuckDB;
a second writer version evolves the table in the delivery commit; poison
records go to the DLQ and table + DLQ = produced per (partition, offset).
"""

import datetime as dt
import math
import subprocess

import pytest

from harness import duckdb_engine
from harness.channels import ChannelSetup
from test_avro_channel import produce, rows_of, wait_for
from test_iceberg_rest_engines import duckdb_attach, spark_catalog

COMMON = """
syntax = "proto3";
package shop;
enum Color { RED = 0; GREEN = 1; BLUE = 2; }
message Address { string street = 1; int32 zip = 2; }
"""

ORDER_V1 = """
syntax = "proto3";
package shop;
import "shop/common.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
message Order {
  int32 id = 1;
  sint32 s32 = 2;
  sfixed32 sf32 = 3;
  uint32 u32 = 4;
  int64 i64 = 5;
  sint64 s64 = 6;
  sfixed64 sf64 = 7;
  uint64 u64 = 8;
  fixed64 fx64 = 9;
  fixed32 fx32 = 10;
  float fl = 11;
  double db = 12;
  bool flag = 13;
  string name = 14;
  bytes blob = 15;
  Color color = 16;
  Address address = 17;
  repeated int64 nums = 18;
  repeated string tags = 19;
  repeated Address history = 20;
  map<string, int32> counts = 21;
  oneof choice { string text = 22; int64 number = 23; }
  google.protobuf.Timestamp ts = 24;
  google.protobuf.Int32Value maybe_int = 25;
  google.protobuf.StringValue maybe_str = 26;
  optional string note = 27;
  Inner inner = 28;
  int32 qty = 29;
  message Inner { double x = 1; repeated Color colors = 2; }
}
message Other { string ignored = 1; }
"""

# v2: qty int32 -> int64 (Iceberg int -> long) and a new field.
ORDER_V2 = ORDER_V1.replace("int32 qty = 29;", "int64 qty = 29;\n  string added = 30;")

# v3: name string -> int32, which Iceberg cannot promote (SCHEMA_INCOMPATIBLE).
ORDER_V3 = ORDER_V2.replace("string name = 14;", "int32 name = 14;")

# A second top-level message selected by the message index [1].
EVENTS = """
syntax = "proto3";
package ev;
import "google/protobuf/timestamp.proto";
message First { int32 a = 1; }
message Second { string label = 1; sint64 big = 2; google.protobuf.Timestamp ts = 3; }
"""

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
BASE = dt.datetime(2026, 11, 30, 8, 0, 0, tzinfo=dt.timezone.utc)
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


def message_classes(tmp_path, files, names):
    """protoc → FileDescriptorSet → a fresh pool → message classes."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    root = tmp_path / f"protos{len(list(tmp_path.iterdir()))}"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    out = root / "set.pb"
    subprocess.run(["protoc", f"-I{root}", "-I/usr/include", "--include_imports",
                    f"--descriptor_set_out={out}", *files], check=True, cwd=root)
    fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    return [message_factory.GetMessageClass(pool.FindMessageTypeByName(n)) for n in names]


def order_values(i, qty):
    """The Python-side field values of order i, and what the table must hold."""
    extreme = i % 3 == 0
    d = {
        "id": i, "s32": -i if not extreme else -(1 << 31), "sf32": i * 7 if not extreme else (1 << 31) - 1,
        "u32": (1 << 32) - 1 if extreme else i, "i64": INT64_MIN if extreme else i * 1000,
        "s64": INT64_MAX if extreme else -i, "sf64": INT64_MIN if extreme else i,
        "u64": (1 << 64) - 1 if extreme else i, "fx64": (1 << 63) + i if extreme else i * 11, "fx32": i * 13, "fl": float(i) + 0.5,
        "db": [math.inf, -math.inf, math.nan][i % 3] if extreme else i / 4,
        "flag": i % 2 == 0, "name": f"n{i}-é-日本", "blob": bytes([i % 256, 0, 255]),
        "qty": qty,
    }
    return d


def build_order(cls, i, qty, version):
    d = order_values(i, qty)
    m = cls()
    for k, v in d.items():
        setattr(m, k, v)
    m.color = i % 3
    if i % 4 != 1:
        m.address.street = f"street {i}"
        m.address.zip = 10000 + i
    m.nums.extend([i, -i, INT64_MAX])
    m.tags.extend([f"t{i}", "ü"] if i % 2 else [])
    for j in range(i % 3):
        h = m.history.add()
        h.street = f"h{j}"
        h.zip = j
    m.counts["a"] = i
    m.counts[f"k{i}"] = -i
    if i % 3 == 0:
        m.text = f"text {i}"
    elif i % 3 == 1:
        m.number = i * 100
    m.ts.seconds = int(BASE.timestamp()) + i
    m.ts.nanos = 123456000
    if i % 2 == 0:
        m.maybe_int.value = i if i else 0
        m.maybe_str.value = f"s{i}"
        m.note = f"note {i}"
    m.inner.x = i * 1.5
    m.inner.colors.extend([1, 2])
    if version >= 2:
        m.added = f"added {i}"
    return m


def expected_row(i, qty, version):
    d = order_values(i, qty)
    row = dict(d)
    # uint64 / fixed64 values >= 2^63 wrap to negative longs (README), not DLQ.
    row["u64"] = d["u64"] - (1 << 64) if d["u64"] >= 1 << 63 else d["u64"]
    row["fx64"] = d["fx64"] - (1 << 64) if d["fx64"] >= 1 << 63 else d["fx64"]
    row["color"] = ["RED", "GREEN", "BLUE"][i % 3]
    row["address"] = None if i % 4 == 1 else {"street": f"street {i}", "zip": 10000 + i}
    row["nums"] = [i, -i, INT64_MAX]
    row["tags"] = [f"t{i}", "ü"] if i % 2 else []
    row["history"] = [{"street": f"h{j}", "zip": j} for j in range(i % 3)]
    row["counts"] = {"a": i, f"k{i}": -i} if i else {"a": 0, "k0": 0}
    row["text"] = f"text {i}" if i % 3 == 0 else None
    row["number"] = i * 100 if i % 3 == 1 else None
    row["ts"] = BASE + dt.timedelta(seconds=i, microseconds=123456)
    row["maybe_int"] = i if i % 2 == 0 else None
    row["maybe_str"] = f"s{i}" if i % 2 == 0 else None
    row["note"] = f"note {i}" if i % 2 == 0 else None
    row["inner"] = {"x": i * 1.5, "colors": ["GREEN", "BLUE"]}
    row["added"] = f"added {i}" if version >= 2 else None
    return row


def same(a, b):
    if isinstance(b, float) and math.isnan(b):
        return isinstance(a, float) and math.isnan(a)
    return a == b


def test_protobuf_confluent_channel(server, kafka, topic_name, tmp_path, spark):
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    setup = ChannelSetup.create(server, kafka, topic_name, converter="PROTOBUF_CONFLUENT",
                                freshness=1)
    assert setup.describe()["TopicConfigurationList"][0]["RecordConverter"][
        "ValueConverter"] == "PROTOBUF_CONFLUENT"
    setup.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    (v1,) = message_classes(tmp_path, {"shop/common.proto": COMMON, "shop/order.proto": ORDER_V1},
                            ["shop.Order"])
    (v2,) = message_classes(tmp_path, {"shop/common.proto": COMMON, "shop/order.proto": ORDER_V2},
                            ["shop.Order"])
    (v3,) = message_classes(tmp_path, {"shop/common.proto": COMMON, "shop/order.proto": ORDER_V3},
                            ["shop.Order"])
    ser1 = ProtobufSerializer(v1, sr, {"use.deprecated.format": False})
    ser2 = ProtobufSerializer(v2, sr, {"use.deprecated.format": False})
    ser3 = ProtobufSerializer(v3, sr, {"use.deprecated.format": False})

    produced, want = {}, {}
    v1_ids = range(0, 12)
    values = [ser1(build_order(v1, i, i * 2, 1), ctx) for i in v1_ids]
    for (p, o), i in zip(produce(kafka, topic_name, values), v1_ids):
        produced[(p, o)] = "row"
        want[i] = expected_row(i, i * 2, 1)
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="v1 rows")
    v1_snapshot = setup.load_table().current_snapshot()
    # The reference was registered by the serializer under its file name.
    assert sr.get_latest_version("shop/common.proto").schema.schema_type == "PROTOBUF"

    v2_ids = range(100, 106)
    values = [ser2(build_order(v2, i, (1 << 40) + i, 2), ctx) for i in v2_ids]
    for (p, o), i in zip(produce(kafka, topic_name, values), v2_ids):
        produced[(p, o)] = "row"
        want[i] = expected_row(i, (1 << 40) + i, 2)
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="v2 rows")

    # v3 is quarantined while v1 keeps flowing (the row of 500 below). The
    # registry refuses v3 under the subject's default BACKWARD level (name:
    # string -> int32 is FIELD_SCALAR_KIND_CHANGED), so the subject is set to
    # NONE first, as a producer forcing an incompatible version would.
    assert sr.set_compatibility(f"{topic_name}-value", "NONE") == {"compatibility": "NONE"}
    v3_values = [ser3(v3(id=i, name=i), ctx) for i in range(200, 204)]
    for (p, o) in produce(kafka, topic_name, v3_values):
        produced[(p, o)] = "SCHEMA_INCOMPATIBLE"
    v3_id = int.from_bytes(v3_values[0][1:5], "big")
    (p, o), = produce(kafka, topic_name, [ser1(build_order(v1, 500, 1000, 1), ctx)])
    produced[(p, o)] = "row"
    want[500] = expected_row(500, 1000, 1)

    good = ser1(build_order(v1, 900, 1, 1), ctx)
    sid = good[1:5]
    payload = good[6:]  # Header: magic, id, the single index byte 0.
    assert good[5] == 0
    poison = {
        b"\x01" + good[1:]: "WRONG_MAGIC_BYTE",
        b"\x00" + (7_654_321).to_bytes(4, "big") + good[5:]: "SCHEMA_NOT_FOUND",
        b"\x00" + sid: "TRUNCATED_PAYLOAD",
        # Cut inside the last field's two-byte tag (qty = 29).
        b"\x00" + sid + b"\x00" + payload[:-2]: "MALFORMED_PROTOBUF",
        # Field 1 (id, a varint) sent with wire type 2.
        b"\x00" + sid + b"\x00" + b"\x0a\x01\x41": "MALFORMED_PROTOBUF",
        # Message index [7]: no such message in the file.
        b"\x00" + sid + b"\x02\x0e" + payload: "MALFORMED_PROTOBUF",
    }
    for (p, o), code in zip(produce(kafka, topic_name, list(poison)), poison.values()):
        produced[(p, o)] = code
    wait_for(lambda: len(setup.dlq_lines()) >= len(poison) + len(v3_values),
             what="poison and v3 in the DLQ")
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="the v1 row after v3")

    table = setup.load_table()
    got = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["id"] for r in got] == sorted(want)
    for row in got:
        w = want[row["id"]]
        for field, value in w.items():
            actual = row[field]
            if field == "fl":
                assert actual == pytest.approx(value), (field, row)
            elif field == "counts":
                assert dict(actual) == value, (field, row)
            elif field == "inner":
                assert actual["x"] == value["x"] and actual["colors"] == value["colors"], row
            else:
                assert same(actual, value), (field, actual, value)
    schema = table.schema()
    types = {f.name: str(f.field_type) for f in schema.fields}
    assert types["u32"] == "long" and types["u64"] == "long" and types["s32"] == "int"
    assert types["ts"] == "timestamptz" and types["blob"] == "binary"
    assert types["color"] == "string" and types["qty"] == "long"
    assert types["counts"].startswith("map<string, int>")
    assert schema.find_field("id").required and not schema.find_field("note").required
    # Evolution: v1 created schema 0, v2 (qty int -> long, `added`) made schema 1.
    assert sorted(table.schemas()) == [0, 1]
    assert str(table.schemas()[0].find_field("qty").field_type) == "int"
    assert "added" not in [f.name for f in table.schemas()[0].fields]
    assert v1_snapshot.schema_id == 0 and table.current_snapshot().schema_id == 1

    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    assert len(set(in_table + in_dlq)) == len(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == line["errorCode"], line
    messages = [line["errorMessage"] for line in lines if line["errorCode"] == "MALFORMED_PROTOBUF"]
    assert any("field 1" in m and "wire type" in m for m in messages), messages
    assert any("offset" in m for m in messages), messages
    assert any("message index" in m for m in messages), messages
    incompatible = [line for line in lines if line["errorCode"] == "SCHEMA_INCOMPATIBLE"]
    assert {line["schemaVersionId"] for line in incompatible} == {str(v3_id)}
    message = incompatible[0]["errorMessage"]
    assert "name" in message and "string" in message and "int" in message, message

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, setup.bucket_arn)
    duck_rows = duck.execute(
        f"SELECT id, u32, i64, name, color, address.street, len(nums), text, number, epoch_us(ts), "
        f"maybe_int, note, qty, added FROM st.{setup.namespace}.{setup.table} ORDER BY id"
    ).fetchall()
    assert duck_rows == [
        (w["id"], w["u32"], w["i64"], w["name"], w["color"],
         None if w["address"] is None else w["address"]["street"], 3, w["text"], w["number"],
         (w["ts"] - EPOCH) // dt.timedelta(microseconds=1), w["maybe_int"], w["note"], w["qty"], w["added"])
        for _, w in sorted(want.items())]

    cat = spark_catalog(spark, server, setup.bucket_arn)
    spark_rows = spark.sql(
        f"SELECT id, s64, u64, name, color, counts['a'] AS a, maybe_str, inner.x AS x, qty, added "
        f"FROM {cat}.{setup.namespace}.{setup.table} ORDER BY id").collect()
    assert [tuple(r) for r in spark_rows] == [
        (w["id"], w["s64"], w["u64"], w["name"], w["color"], w["counts"]["a"], w["maybe_str"],
         w["inner"]["x"], w["qty"], w["added"]) for _, w in sorted(want.items())]


def test_protobuf_second_message_by_index(server, kafka, topic_name, tmp_path):
    """The message indexes [1] select the file's second top-level message."""
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=1)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    setup = ChannelSetup.create(server, kafka, topic_name, converter="PROTOBUF_CONFLUENT",
                                freshness=1)
    setup.wait_status("ACTIVE")
    (second,) = message_classes(tmp_path, {"ev/events.proto": EVENTS}, ["ev.Second"])
    ser = ProtobufSerializer(second, sr, {"use.deprecated.format": False})
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    values = []
    for i in range(5):
        m = second(label=f"l{i}", big=INT64_MIN + i)
        m.ts.seconds = int(BASE.timestamp()) + i
        values.append(ser(m, ctx))
    assert values[0][5:7] == b"\x02\x02"  # One index (zigzag 1), the index 1 (zigzag 2).
    produce(kafka, topic_name, values)
    wait_for(lambda: len(rows_of(setup)) >= 5, what="rows")
    rows = sorted(rows_of(setup), key=lambda r: r["label"])
    assert [(r["label"], r["big"]) for r in rows] == [(f"l{i}", INT64_MIN + i) for i in range(5)]
    assert "a" not in setup.load_table().schema().column_names
