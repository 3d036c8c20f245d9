"""keyConverter AVRO_CONFLUENT, PROTOBUF_CONFLUENT and JSON_SCHEMA_CONFLUENT
(issue 14 item 3, typed keys). Avro: record keys that confluent-kafka's
AvroSerializer wrote (MessageField.KEY, subject
`<topic>-key` in our Confluent-compatible registry) are decoded by their
writer schema into a typed `_kafka.key`: a record key is a struct with its
fields, a primitive key is that primitive. The first keyed record adds
`_kafka.key` to the table (the table starts without it); a later key schema
version evolves it in the delivery commit like a value field; an incompatible
key version is quarantined (SCHEMA_INCOMPATIBLE) while every other record
keeps flowing; poison keys go to the DLQ with the value framing's codes.

Protobuf: keys confluent-kafka's ProtobufSerializer wrote (message indexes
and all) become a struct `_kafka.key` of the message's fields, evolved by the
same rules (a new field adds a member). JSON Schema: JSONSerializer's object
keys become a struct of the schema's properties, shredded like JSON values.

A real Kafka broker, the real serializers, rows read back with PyIceberg,
DuckDB and Spark; table + DLQ = produced per (partition, offset).
"""

import json

import pyarrow as pa

from harness import duckdb_engine
from harness.channels import ChannelSetup, encoded, topic_arn
from test_avro_channel import V1, describe_raw, order, produce, rows_of, wait_for
from test_iceberg_rest_engines import duckdb_attach, spark_catalog
from test_protobuf_channel import message_classes

KEY_V1 = {"type": "record", "name": "CustomerKey", "namespace": "shop",
          "fields": [{"name": "customer", "type": "long"},
                     {"name": "region", "type": "string"}]}
# A new optional member: `_kafka.key` gains `tier`.
KEY_V2 = {"type": "record", "name": "CustomerKey", "namespace": "shop",
          "fields": KEY_V1["fields"] + [{"name": "tier", "type": ["null", "string"],
                                         "default": None}]}
# customer long → string: Iceberg cannot promote it.
KEY_BAD = {"type": "record", "name": "CustomerKey", "namespace": "shop",
           "fields": [{"name": "customer", "type": "string"},
                      {"name": "region", "type": "string"}]}


def produce_keyed(kafka, topic, pairs):
    """(key bytes or None, value bytes) → [(partition, offset)]."""
    return produce(kafka, topic, [value for _, value in pairs], keys=[key for key, _ in pairs])


def registry_and_serializers(server, topic):
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    key_context = SerializationContext(topic, MessageField.KEY)
    value_context = SerializationContext(topic, MessageField.VALUE)

    def key_serializer(schema):
        serializer = AvroSerializer(sr, json.dumps(schema))
        return lambda record: serializer(record, key_context)

    value = AvroSerializer(sr, json.dumps(V1))
    return sr, key_serializer, lambda record: value(record, value_context)


def test_avro_record_keys_are_typed_evolve_and_an_incompatible_key_is_quarantined(
        server, kafka, topic_name, spark):
    kafka.create_topic(topic_name, partitions=2)
    sr, key_serializer, value_of = registry_and_serializers(server, topic_name)
    setup = ChannelSetup.create(server, kafka, topic_name, converter="AVRO_CONFLUENT",
                                freshness=1, key_converter="AVRO_CONFLUENT")
    setup.wait_status("ACTIVE")
    described = describe_raw(server, setup)
    assert described["topicConfigurationList"][0]["recordConverter"] == {
        "valueConverter": "AVRO_CONFLUENT", "keyConverter": "AVRO_CONFLUENT"}

    k1, k2 = key_serializer(KEY_V1), key_serializer(KEY_V2)
    produced = {}  # (partition, offset) → ("row", id, key) | ("dlq", code)

    def send(items):
        pairs = [(key, value) for key, value, _ in items]
        for (p, o), (_, _, outcome) in zip(produce_keyed(kafka, topic_name, pairs), items):
            produced[(p, o)] = outcome

    def row(i, key_bytes, key):
        return (key_bytes, value_of(order(i, 1)), ("row", i, key))

    # v1 keys (extremes, unicode) and a record without a key.
    v1_keys = [{"customer": -(1 << 63), "region": "eu-west-1"},
               {"customer": (1 << 63) - 1, "region": "r\u00e9gion-\u65e5\u672c-\U0001f600"},
               {"customer": 0, "region": ""},
               {"customer": 42, "region": "us"}]
    send([row(i, k1(k), k) for i, k in enumerate(v1_keys)] + [row(4, None, None)])
    wait_for(lambda: len(rows_of(setup)) >= 5, what="rows with v1 keys")

    # v2 adds `tier`: the table's `_kafka.key` evolves in the delivery commit.
    v2_keys = [{"customer": 7, "region": "ap", "tier": "gold"},
               {"customer": 8, "region": "ap", "tier": None}]
    send([row(10 + i, k2(k), k) for i, k in enumerate(v2_keys)])
    wait_for(lambda: len(rows_of(setup)) >= 7, what="rows with v2 keys")

    # An incompatible key version (registered under NONE, as a producer that
    # changed its key type would), poison keys, then v1 and v2 keys again.
    sr.set_compatibility(subject_name=f"{topic_name}-key", level="NONE")
    bad = key_serializer(KEY_BAD)
    v1_id = int.from_bytes(k1(v1_keys[3])[1:5], "big")
    v1_body = k1(v1_keys[3])[5:]
    poison = [
        (bad({"customer": "c-1", "region": "eu"}), "SCHEMA_INCOMPATIBLE"),
        (bad({"customer": "c-2", "region": "eu"}), "SCHEMA_INCOMPATIBLE"),
        (b"\x07\x00\x00\x00\x01" + v1_body, "WRONG_MAGIC_BYTE"),
        (b"\x00" + (8_765_432).to_bytes(4, "big") + v1_body, "SCHEMA_NOT_FOUND"),
        (b"\x00\x00", "TRUNCATED_PAYLOAD"),
        (b"\x00" + v1_id.to_bytes(4, "big") + v1_body + b"\x00\x00", "MALFORMED_AVRO"),
    ]
    send([(key, value_of(order(20 + i, 1)), ("dlq", code)) for i, (key, code) in
          enumerate(poison)] +
         [row(30, k1({"customer": 3, "region": "sa"}), {"customer": 3, "region": "sa"}),
          row(31, k2({"customer": 9, "region": "af", "tier": "x"}),
              {"customer": 9, "region": "af", "tier": "x"})])
    wait_for(lambda: len(setup.dlq_lines()) >= len(poison), what="poison keys in the DLQ")
    wait_for(lambda: len(rows_of(setup)) >= 9, what="rows after the poison")

    table = setup.load_table()
    data = table.scan().to_arrow()
    key_type = data.schema.field("_kafka").type.field("key").type
    assert pa.types.is_struct(key_type), key_type
    assert [key_type.field(i).name for i in range(key_type.num_fields)] == [
        "customer", "region", "tier"]
    assert key_type.field("customer").type == pa.int64()
    got = {r["id"]: r["_kafka"]["key"] for r in data.to_pylist()}
    want = {}
    for outcome in produced.values():
        if outcome[0] == "row":
            _, i, key = outcome
            want[i] = None if key is None else {"tier": None, **key}
    assert got == want
    # Table + DLQ = produced, each (partition, offset) once.
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in data.to_pylist()]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == ("dlq", line["errorCode"]), line
        assert "key" in line["errorMessage"], line
    incompatible = [line for line in lines if line["errorCode"] == "SCHEMA_INCOMPATIBLE"]
    assert "_kafka.key.customer" in incompatible[0]["errorMessage"]
    assert "long" in incompatible[0]["errorMessage"]
    assert "string" in incompatible[0]["errorMessage"]

    # Schema history: no key, then the v1 struct, then with `tier`.
    schemas = table.schemas()
    kafka_members = [
        [f.name for f in schemas[s].find_field("_kafka").field_type.fields] for s in sorted(schemas)]
    assert kafka_members[0] == ["partition", "offset", "timestamp", "headers"]
    assert kafka_members[-1] == ["partition", "offset", "timestamp", "key", "headers"]
    assert [f.name for f in schemas[max(schemas)].find_field("_kafka.key").field_type.fields] == [
        "customer", "region", "tier"]

    # The quarantined key version in DescribeChannel.
    quarantined = describe_raw(server, setup)["quarantinedSchemaVersions"]
    bad_id = str(int.from_bytes(poison[0][0][1:5], "big"))
    assert [q["schemaVersionId"] for q in quarantined] == [bad_id]
    assert quarantined[0]["records"] == 2

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    try:
        duckdb_attach(duck, server, setup.bucket_arn)
        got = duck.execute(
            f"SELECT id, _kafka.key.customer, _kafka.key.region, _kafka.key.tier FROM "
            f"st.{setup.namespace}.{setup.table} WHERE _kafka.key.region = 'ap' "
            f"ORDER BY id").fetchall()
    finally:
        duck.close()
    assert got == [(10, 7, "ap", "gold"), (11, 8, "ap", None)]

    # Spark: the key's members as columns; time travel to the first snapshot
    # (its commit added `_kafka.key` from the v1 key schema) shows v1's key.
    cat = spark_catalog(spark, server, setup.bucket_arn)
    name = f"{cat}.{setup.namespace}.{setup.table}"
    spark_rows = spark.sql(
        f"SELECT id, _kafka.key.customer AS c, _kafka.key.region AS r, _kafka.key.tier AS t "
        f"FROM {name} ORDER BY id").collect()
    assert {r["id"]: (None if r["c"] is None and r["r"] is None else
                      {"customer": r["c"], "region": r["r"], "tier": r["t"]})
            for r in spark_rows} == want
    def has_key(snap):
        kafka_type = schemas[snap.schema_id].find_field("_kafka").field_type
        return "key" in [f.name for f in kafka_type.fields]
    first = min((snap for snap in table.snapshots() if has_key(snap)),
                key=lambda snap: snap.sequence_number)
    early = spark.sql(f"SELECT _kafka FROM {name} VERSION AS OF {first.snapshot_id}")
    key_at_first = early.schema["_kafka"].dataType["key"].dataType
    assert key_at_first.fieldNames() == ["customer", "region"]
    early_customers = {r["_kafka"]["key"]["customer"] for r in early.collect()
                       if r["_kafka"]["key"] is not None}
    assert early_customers and early_customers <= {k["customer"] for k in v1_keys}


def test_a_primitive_avro_key(
        server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=1)
    _, key_serializer, value_of = registry_and_serializers(server, topic_name)
    setup = ChannelSetup.create(server, kafka, topic_name, converter="AVRO_CONFLUENT",
                                freshness=1, key_converter="AVRO_CONFLUENT")
    setup.wait_status("ACTIVE")
    as_long = key_serializer({"type": "long"})
    keys = [1 << 40, -5, None]
    produce_keyed(kafka, topic_name,
                  [(None if k is None else as_long(k), value_of(order(i, 1)))
                   for i, k in enumerate(keys)])
    data = setup.wait_rows(len(keys))
    assert data.schema.field("_kafka").type.field("key").type == pa.int64()
    assert {r["id"]: r["_kafka"]["key"] for r in data.to_pylist()} == dict(enumerate(keys))
    assert setup.dlq_lines() == []



def test_typed_keys_on_json_and_byte_array_channels(server, kafka, topic_name):
    """Typed keys need no Confluent value converter: a JSON channel (values
    by a Glue JSON schema) decodes AVRO_CONFLUENT record keys, and a
    BYTE_ARRAY channel JSON_SCHEMA_CONFLUENT string keys, both resolved in the
    account's built-in registry; the first keyed commit adds `_kafka.key`.
    The CLI creates such a channel too (test_channel_api.py)."""
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    raw_topic = topic_name + "-raw"
    kafka.create_topic(topic_name, partitions=2)
    kafka.create_topic(raw_topic, partitions=1)
    sr, key_serializer, _ = registry_and_serializers(server, topic_name)
    value_schema = {"type": "object", "required": ["id", "ts"], "properties": {
        "id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"}}}
    json_setup = ChannelSetup.create(server, kafka, topic_name, schema=value_schema,
                                     freshness=1, key_converter="AVRO_CONFLUENT")
    raw_setup = ChannelSetup.create(server, kafka, raw_topic, converter="BYTE_ARRAY",
                                    partition_source=None, freshness=1,
                                    key_converter="JSON_SCHEMA_CONFLUENT")
    json_setup.wait_status("ACTIVE")
    raw_setup.wait_status("ACTIVE")

    as_key = key_serializer(KEY_V1)
    keys = [{"customer": 7, "region": "eu"}, None, {"customer": -1, "region": "r\u00e9gion"}]
    pairs = [(None if k is None else as_key(k),
              json.dumps({"id": i, "ts": "2026-11-30T08:00:00Z"}).encode())
             for i, k in enumerate(keys)]
    produce_keyed(kafka, topic_name, pairs)
    data = json_setup.wait_rows(len(keys))
    got = {r["id"]: r["_kafka"]["key"] for r in data.to_pylist()}
    assert got == dict(enumerate(keys))
    assert json_setup.dlq_lines() == []

    text_key = JSONSerializer(json.dumps({"type": "string"}), sr)
    context = SerializationContext(raw_topic, MessageField.KEY)
    raw_keys = ["a-\u00e9", None, "z"]
    produce_keyed(kafka, raw_topic, [(None if k is None else text_key(k, context), b"\x00\x01v%d" % i)
                                     for i, k in enumerate(raw_keys)])
    raw = raw_setup.wait_rows(len(raw_keys))
    assert raw.schema.field("_kafka").type.field("key").type == pa.string()
    assert sorted((r["value"], r["_kafka"]["key"]) for r in raw.to_pylist()) == sorted(
        (b"\x00\x01v%d" % i, k) for i, k in enumerate(raw_keys))
    assert raw_setup.dlq_lines() == []


KEY_PROTO_V1 = """syntax = "proto3";
package keys;
message CustomerKey { int64 customer = 1; string region = 2; }
"""
# A new field: `_kafka.key` gains `tier`.
KEY_PROTO_V2 = """syntax = "proto3";
package keys;
message CustomerKey { int64 customer = 1; string region = 2; optional string tier = 3; }
"""


def test_protobuf_keys_are_typed_and_evolve(server, kafka, topic_name, tmp_path):
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr, _, value_of = registry_and_serializers(server, topic_name)
    setup = ChannelSetup.create(server, kafka, topic_name, converter="AVRO_CONFLUENT",
                                freshness=1, key_converter="PROTOBUF_CONFLUENT")
    setup.wait_status("ACTIVE")
    assert describe_raw(server, setup)["topicConfigurationList"][0]["recordConverter"][
        "keyConverter"] == "PROTOBUF_CONFLUENT"
    (k1_cls,) = message_classes(tmp_path, {"keys/key.proto": KEY_PROTO_V1},
                                ["keys.CustomerKey"])
    (k2_cls,) = message_classes(tmp_path, {"keys/key.proto": KEY_PROTO_V2},
                                ["keys.CustomerKey"])
    context = SerializationContext(topic_name, MessageField.KEY)
    ser1 = ProtobufSerializer(k1_cls, sr, {"use.deprecated.format": False})
    ser2 = ProtobufSerializer(k2_cls, sr, {"use.deprecated.format": False})

    def key1(customer, region):
        return ser1(k1_cls(customer=customer, region=region), context)

    def key2(customer, region, tier=None):
        message = k2_cls(customer=customer, region=region)
        if tier is not None:
            message.tier = tier
        return ser2(message, context)

    produced = {}

    def send(items):
        pairs = [(key, value_of(order(i, 1))) for i, key, _ in items]
        for (p, o), (i, _, outcome) in zip(produce_keyed(kafka, topic_name, pairs), items):
            produced[(p, o)] = (i, outcome)

    send([(0, key1(-(1 << 63), "eu"), {"customer": -(1 << 63), "region": "eu"}),
          (1, key1(5, "r\u00e9gion"), {"customer": 5, "region": "r\u00e9gion"}),
          (2, key1(0, ""), {"customer": 0, "region": ""}),  # proto3 defaults: not on the wire.
          (3, None, None)])
    wait_for(lambda: len(rows_of(setup)) >= 4, what="rows with v1 keys")
    send([(10, key2(7, "ap", "gold"), {"customer": 7, "region": "ap", "tier": "gold"}),
          (11, key2(8, "ap"), {"customer": 8, "region": "ap", "tier": None}),
          (12, key1(9, "af"), {"customer": 9, "region": "af"}),
          # The v1 key schema's id, message index [0], then a bad tag varint.
          (13, b"\x00" + key1(1, "x")[1:5] + b"\x00\xff", "MALFORMED_PROTOBUF"),
          (14, b"\x00" + (8_765_432).to_bytes(4, "big") + b"\x00", "SCHEMA_NOT_FOUND")])
    wait_for(lambda: len(setup.dlq_lines()) >= 2, what="poison keys in the DLQ")
    wait_for(lambda: len(rows_of(setup)) >= 7, what="rows with v2 keys")

    table = setup.load_table()
    data = table.scan().to_arrow()
    key_type = data.schema.field("_kafka").type.field("key").type
    assert [key_type.field(i).name for i in range(key_type.num_fields)] == [
        "customer", "region", "tier"]
    got = {r["id"]: r["_kafka"]["key"] for r in data.to_pylist()}
    want = {i: None if key is None else {"tier": None, **key}
            for i, key in produced.values() if not isinstance(key, str)}
    assert got == want
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in data.to_pylist()]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])][1] == line["errorCode"], line
        assert "record key" in line["errorMessage"], line
    assert str(table.schemas()[max(table.schemas())].find_field("_kafka.key.customer")
               .field_type) == "long"


KEY_JSON_V1 = {"type": "object",
               "properties": {"customer": {"type": "integer"}, "region": {"type": "string"}},
               "required": ["customer"]}
KEY_JSON_V2 = {"type": "object",
               "properties": {**KEY_JSON_V1["properties"], "tier": {"type": "string"}},
               "required": ["customer"]}


def test_json_schema_keys_are_typed_and_evolve(server, kafka, topic_name):
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr, _, value_of = registry_and_serializers(server, topic_name)
    # KEY_JSON_V1's object is open: under BACKWARD the registry refuses V2's
    # new property (as Confluent's does); the key subject is set to NONE.
    sr.set_compatibility(f"{topic_name}-key", "NONE")
    setup = ChannelSetup.create(server, kafka, topic_name, converter="AVRO_CONFLUENT",
                                freshness=1, key_converter="JSON_SCHEMA_CONFLUENT")
    setup.wait_status("ACTIVE")
    context = SerializationContext(topic_name, MessageField.KEY)
    ser1 = JSONSerializer(json.dumps(KEY_JSON_V1), sr)
    ser2 = JSONSerializer(json.dumps(KEY_JSON_V2), sr)

    produced = {}

    def send(items):
        pairs = [(key, value_of(order(i, 1))) for i, key, _ in items]
        for (p, o), (i, _, outcome) in zip(produce_keyed(kafka, topic_name, pairs), items):
            produced[(p, o)] = (i, outcome)

    k = [{"customer": (1 << 63) - 1, "region": "r\u00e9gion-\U0001f600"}, {"customer": -3}]
    send([(0, ser1(k[0], context), k[0]), (1, ser1(k[1], context), k[1]), (2, None, None)])
    wait_for(lambda: len(rows_of(setup)) >= 3, what="rows with v1 keys")
    k2 = {"customer": 4, "region": "ap", "tier": "gold"}
    send([(10, ser2(k2, context), k2),
          (11, b"\x02" + ser1(k[1], context)[1:], "WRONG_MAGIC_BYTE"),
          (12, ser1(k[1], context)[:5] + b'{"customer": "x"}', "TYPE_MISMATCH")])
    wait_for(lambda: len(setup.dlq_lines()) >= 2, what="poison keys in the DLQ")
    wait_for(lambda: len(rows_of(setup)) >= 4, what="rows with v2 keys")

    table = setup.load_table()
    data = table.scan().to_arrow()
    key_type = data.schema.field("_kafka").type.field("key").type
    assert [key_type.field(i).name for i in range(key_type.num_fields)] == [
        "customer", "region", "tier"]
    got = {r["id"]: r["_kafka"]["key"] for r in data.to_pylist()}
    want = {i: None if key is None else {"region": None, "tier": None, **key}
            for i, key in produced.values() if not isinstance(key, str)}
    assert got == want
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in data.to_pylist()]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])][1] == line["errorCode"], line
        assert "record key" in line["errorMessage"], line


def test_json_schema_keys_that_are_not_objects(server, kafka, topic_name):
    """JSONSerializer keys whose schema is an integer (not an object): the
    first keyed record's commit adds `_kafka.key` as an int (the bounds fit 32
    bits), a version without bounds widens it to long in its own commit, a
    string version is quarantined (SCHEMA_INCOMPATIBLE naming `_kafka.key`),
    and a payload that is not one JSON value is MALFORMED_JSON. PyIceberg and
    DuckDB read the keys; table + DLQ = produced."""
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr, _, value_of = registry_and_serializers(server, topic_name)
    sr.set_compatibility(f"{topic_name}-key", "NONE")
    setup = ChannelSetup.create(server, kafka, topic_name, converter="AVRO_CONFLUENT",
                                freshness=1, key_converter="JSON_SCHEMA_CONFLUENT")
    setup.wait_status("ACTIVE")
    context = SerializationContext(topic_name, MessageField.KEY)
    small = JSONSerializer(json.dumps({"type": "integer", "minimum": 0, "maximum": 1000}), sr)
    wide = JSONSerializer(json.dumps({"type": "integer"}), sr)
    text = JSONSerializer(json.dumps({"type": "string"}), sr)

    produced = {}

    def send(items):
        pairs = [(key, value_of(order(i, 1))) for i, key, _ in items]
        for (p, o), (i, _, outcome) in zip(produce_keyed(kafka, topic_name, pairs), items):
            produced[(p, o)] = (i, outcome)

    send([(0, small(7, context), 7), (1, small(1000, context), 1000), (2, None, None)])
    wait_for(lambda: len(rows_of(setup)) >= 3, what="rows with int keys")
    framed = small(5, context)
    send([(10, wide(1 << 40, context), 1 << 40), (11, wide(-(1 << 62), context), -(1 << 62)),
          (12, text("abc", context), "SCHEMA_INCOMPATIBLE"),
          (13, framed[:5] + b'5, "other": 6', "MALFORMED_JSON"),
          (14, framed[:5] + b'"five"', "TYPE_MISMATCH")])
    wait_for(lambda: len(setup.dlq_lines()) >= 3, what="poison keys in the DLQ")
    wait_for(lambda: len(rows_of(setup)) >= 5, what="rows with long keys")

    table = setup.load_table()
    schemas = table.schemas()
    key_types = [str(schemas[s].find_field("_kafka.key").field_type)
                 for s in sorted(schemas) if "key" in
                 [f.name for f in schemas[s].find_field("_kafka").field_type.fields]]
    assert key_types == ["int", "long"]
    data = table.scan().to_arrow()
    got = {r["id"]: r["_kafka"]["key"] for r in data.to_pylist()}
    want = {i: key for i, key in produced.values() if not isinstance(key, str)}
    assert got == want
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in data.to_pylist()]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])][1] == line["errorCode"], line
    incompatible = [line for line in lines if line["errorCode"] == "SCHEMA_INCOMPATIBLE"]
    # int or long: the string version may be decided before or after the
    # widening one (they can be on different partitions).
    message = incompatible[0]["errorMessage"]
    assert "field _kafka.key is " in message and "in the table and string" in message, message

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    try:
        duckdb_attach(duck, server, setup.bucket_arn)
        rows = duck.execute(f"SELECT id, _kafka.key FROM st.{setup.namespace}.{setup.table} "
                            f"ORDER BY id").fetchall()
    finally:
        duck.close()
    assert rows == sorted(want.items())
