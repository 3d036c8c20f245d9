"""AVRO_GSR channels end to end (issue 14 items 2-4): Avro schema versions
registered through boto3's `glue` client against our server (DataFormat
AVRO), records framed the Glue way (0x03, compression 0x00, 16-byte schema
version UUID, Avro binary from fastavro.schemaless_writer) and produced raw
with confluent-kafka's Producer, rows read back field by field with PyIceberg
and DuckDB through the REST catalog, the table's schema evolved inside the
delivery commits, an incompatible version quarantined in the DLQ while every
other version keeps flowing.
"""

import datetime as dt
import io
import json
import time
import uuid
from urllib.parse import quote

import fastavro
import pytest
from botocore.exceptions import ClientError

from harness import duckdb_engine
from harness.channels import ChannelSetup, glue_client
from test_iceberg_rest_engines import duckdb_attach, spark_catalog

BASE = dt.datetime(2026, 11, 30, 8, 0, 0, tzinfo=dt.timezone.utc)
TS = {"type": "long", "logicalType": "timestamp-micros"}
OPT_STR = ["null", "string"]


def avro_record(fields):
    return {"type": "record", "name": "Order", "namespace": "shop", "fields": fields}


V1 = avro_record([{"name": "id", "type": "int"}, {"name": "ts", "type": TS},
                  {"name": "name", "type": "string"}, {"name": "qty", "type": "int"},
                  {"name": "price", "type": "float"}])
# v2: a new optional field.
V2 = avro_record(V1["fields"] + [{"name": "note", "type": OPT_STR, "default": None}])
# v3: int → long, float → double.
V3 = avro_record([{"name": "id", "type": "int"}, {"name": "ts", "type": TS},
                  {"name": "name", "type": "string"}, {"name": "qty", "type": "long"},
                  {"name": "price", "type": "double"},
                  {"name": "note", "type": OPT_STR, "default": None}])
# v4: string → int, which Iceberg cannot promote.
V4 = avro_record([{"name": "id", "type": "int"}, {"name": "ts", "type": TS},
                  {"name": "name", "type": "int"}, {"name": "qty", "type": "long"},
                  {"name": "price", "type": "double"}])
# v5: compatible again (v3 plus one more optional field).
V5 = avro_record(V3["fields"] + [{"name": "tag", "type": OPT_STR, "default": None}])


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def register(server, schema_name, definitions):
    """Creates an AVRO schema in the default registry with the first definition
    and registers the others as versions; returns the version UUIDs."""
    glue = glue_client(server)
    try:
        glue.create_registry(RegistryName="default-registry")
    except glue.exceptions.AlreadyExistsException:
        pass
    created = glue.create_schema(RegistryId={"RegistryName": "default-registry"},
                                 SchemaName=schema_name, DataFormat="AVRO",
                                 Compatibility="NONE",
                                 SchemaDefinition=json.dumps(definitions[0]))
    assert created["DataFormat"] == "AVRO"
    ids = [created["SchemaVersionId"]]
    for definition in definitions[1:]:
        ids.append(glue.register_schema_version(
            SchemaId={"RegistryName": "default-registry", "SchemaName": schema_name},
            SchemaDefinition=json.dumps(definition))["SchemaVersionId"])
    return ids


def gsr_frame(version_id, schema, record):
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(schema), record)
    return b"\x03\x00" + uuid.UUID(version_id).bytes + out.getvalue()


def produce(kafka, topic, values, keys=None):
    """confluent-kafka Producer, raw bytes; returns [(partition, offset)] per value.
    Keys: `keys[i]` (None: no key), or b"k<i>" when `keys` is not given."""
    producer = kafka.producer()
    delivered = [None] * len(values)
    errors = []

    def report(i):
        def on_delivery(err, msg):
            if err is not None:
                errors.append(err)
            else:
                delivered[i] = (msg.partition(), msg.offset())
        return on_delivery

    for i, value in enumerate(values):
        key = f"k{i}".encode() if keys is None else keys[i]
        producer.produce(topic, value=value, key=key, on_delivery=report(i))
        producer.poll(0)
    producer.flush(60)
    assert not errors, errors
    assert None not in delivered
    return delivered


def order(i, version):
    record = {"id": i, "ts": BASE + dt.timedelta(minutes=i), "name": f"n{i}-é",
              "qty": i * 3, "price": i + 0.25}
    if version >= 3:
        record["qty"] = (1 << 40) + i  # Needs the widened long.
        record["price"] = i + 0.1      # Needs the widened double.
    if version >= 2:
        record["note"] = None if i % 2 else f"note {i}"
    if version == 4:
        record["name"] = i
        record.pop("note")
    if version == 5:
        record["tag"] = f"t{i}"
    return record


def expected(i, version):
    record = order(i, version)
    return {"id": i, "ts": record["ts"], "name": record["name"], "qty": record["qty"],
            "price": record["price"], "note": record.get("note"), "tag": record.get("tag")}


def wait_for(predicate, timeout_s=90.0, what="condition"):
    deadline = time.monotonic() + timeout_s
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}; last: {last}")


def describe_raw(server, setup):
    r = server.signed_request(
        "GET", f"{server.api_url}/v1/clusters/{quote(setup.cluster_arn, safe='')}/channels/"
               f"{quote(setup.channel_arn, safe='')}", service="kafka")
    assert r.status_code == 200, r.text
    return r.json()


def rows_of(setup):
    data = setup.read_arrow()
    return [] if data is None else data.to_pylist()


def test_glue_registry_accepts_avro_and_refuses_an_invalid_definition(server):
    glue = glue_client(server)
    registry = unique("avroreg")
    glue.create_registry(RegistryName=registry)
    name = unique("s")
    created = glue.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                                 DataFormat="AVRO", Compatibility="BACKWARD",
                                 SchemaDefinition=json.dumps(V1))
    got = glue.get_schema_version(SchemaVersionId=created["SchemaVersionId"])
    assert got["DataFormat"] == "AVRO" and json.loads(got["SchemaDefinition"]) == V1
    for bad in ('{"type": "record", "name": "r"}',                     # no fields
                '{"type": "nosuchtype"}',
                json.dumps(avro_record([{"name": "a", "type": "int"},
                                        {"name": "a", "type": "long"}]))):
        for call in (
                lambda: glue.create_schema(RegistryId={"RegistryName": registry},
                                           SchemaName=unique("bad"), DataFormat="AVRO",
                                           Compatibility="NONE", SchemaDefinition=bad),
                lambda: glue.register_schema_version(
                    SchemaId={"RegistryName": registry, "SchemaName": name},
                    SchemaDefinition=bad)):
            with pytest.raises(ClientError) as info:
                call()
            response = info.value.response
            assert response["ResponseMetadata"]["HTTPStatusCode"] == 400
            assert response["Error"]["Code"] == "InvalidInputException"
            assert "AVRO data format is invalid" in response["Error"]["Message"]
    versions = glue.list_schema_versions(SchemaId={"RegistryName": registry, "SchemaName": name})
    assert len(versions["Schemas"]) == 1


def test_avro_gsr_channel_evolution_sequence_and_poison(server, kafka, topic_name, spark):
    kafka.create_topic(topic_name, partitions=2)
    ids = register(server, unique("orders"), [V1, V2, V3, V4, V5])
    schemas = [V1, V2, V3, V4, V5]
    setup = ChannelSetup.create(server, kafka, topic_name, converter="AVRO_GSR", freshness=1)
    assert setup.describe()["TopicConfigurationList"][0]["RecordConverter"][
        "ValueConverter"] == "AVRO_GSR"
    setup.wait_status("ACTIVE")

    produced = {}   # (partition, offset) -> ("row", expected) | ("dlq", code)
    want_rows = []
    per_version = 6
    snapshots = {}
    for version in (1, 2, 3, 4, 5):
        values = [gsr_frame(ids[version - 1], schemas[version - 1], order(i, version))
                  for i in range(version * 100, version * 100 + per_version)]
        for (p, o), i in zip(produce(kafka, topic_name, values),
                             range(version * 100, version * 100 + per_version)):
            if version == 4:
                produced[(p, o)] = ("dlq", "SCHEMA_INCOMPATIBLE")
            else:
                produced[(p, o)] = ("row", expected(i, version))
                want_rows.append(expected(i, version))
        if version != 4:
            wait_for(lambda: len(rows_of(setup)) >= len(want_rows), what=f"rows of v{version}")
            snapshots[version] = setup.load_table().current_snapshot()
        else:
            wait_for(lambda: len([line for line in setup.dlq_lines()
                                  if line["errorCode"] == "SCHEMA_INCOMPATIBLE"]) >= per_version,
                     what="v4 in the DLQ")

    # Poison: wrong magic, unknown version id, truncated payload, a payload
    # that does not match its schema (a v1 record announced as v3).
    v1_bytes = gsr_frame(ids[0], V1, order(900, 1))
    poison = {
        b"\x00\x00\x00\x00\x01" + v1_bytes[18:]: "MISSING_GSR_HEADER",
        b"\x03\x00" + uuid.uuid4().bytes + v1_bytes[18:]: "SCHEMA_NOT_FOUND",
        v1_bytes[:24]: "TRUNCATED_PAYLOAD",
        b"\x03\x00" + uuid.UUID(ids[2]).bytes + b"\x02\x02\xff": "TRUNCATED_PAYLOAD",
        b"\x03\x00" + uuid.UUID(ids[0]).bytes + v1_bytes[18:] + b"\x00\x00": "MALFORMED_AVRO",
    }
    for (p, o), code in zip(produce(kafka, topic_name, list(poison)), poison.values()):
        produced[(p, o)] = ("dlq", code)
    wait_for(lambda: len(setup.dlq_lines()) >= per_version + len(poison), what="poison in DLQ")

    # Every row, field by field, in PyIceberg.
    table = setup.load_table()
    got = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["id"] for r in got] == sorted(r["id"] for r in want_rows)
    for row, want in zip(got, sorted(want_rows, key=lambda r: r["id"])):
        for field in ("id", "ts", "name", "qty", "price", "note", "tag"):
            value = row[field]
            if field == "price" and want["id"] < 300:
                # v1/v2 wrote float32 values (exact in binary here).
                assert value == pytest.approx(want[field], rel=1e-7), (field, row)
            else:
                assert value == want[field], (field, row, want)
    # Per-(partition, offset): table + DLQ = produced, each exactly once.
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    lines = setup.dlq_lines()
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    assert len(set(in_table + in_dlq)) == len(produced)
    for line in lines:
        kind, code = produced[(line["partition"], line["offset"])]
        assert kind == "dlq" and line["errorCode"] == code, line
    incompatible = [line for line in lines if line["errorCode"] == "SCHEMA_INCOMPATIBLE"]
    assert {line["schemaVersionId"] for line in incompatible} == {ids[3]}
    message = incompatible[0]["errorMessage"]
    assert "name" in message and "string" in message and "int" in message, message

    # Schema history: v1 → 0, v2 → 1, v3 → 2, v5 → 3; the v4 never made it.
    schemas_by_id = table.schemas()
    assert sorted(schemas_by_id) == [0, 1, 2, 3]
    assert table.schema().schema_id == 3
    names = {sid: [f.name for f in s.fields] for sid, s in schemas_by_id.items()}
    assert "note" not in names[0] and "note" in names[1] and "tag" in names[3]
    assert str(schemas_by_id[1].find_field("qty").field_type) == "int"
    assert str(schemas_by_id[2].find_field("qty").field_type) == "long"
    assert str(schemas_by_id[2].find_field("price").field_type) == "double"
    # Field ids are kept across versions (added fields get fresh ones).
    assert schemas_by_id[3].find_field("qty").field_id == schemas_by_id[0].find_field("qty").field_id
    assert snapshots[1].schema_id == 0 and snapshots[2].schema_id == 1
    assert snapshots[3].schema_id == 2 and snapshots[5].schema_id == 3

    # Time travel to the v1-era snapshot: the v1 schema and only v1's rows.
    old = table.scan(snapshot_id=snapshots[1].snapshot_id).to_arrow()
    assert "note" not in old.column_names and "tag" not in old.column_names
    assert old.schema.field("qty").type == "int32"
    assert sorted(r["id"] for r in old.to_pylist()) == list(range(100, 100 + per_version))

    # DuckDB reads the same rows through the REST catalog.
    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, setup.bucket_arn)
    duck_rows = duck.execute(
        f"SELECT id, name, qty, note, tag FROM st.{setup.namespace}.{setup.table} "
        f"ORDER BY id").fetchall()
    assert duck_rows == [(r["id"], r["name"], r["qty"], r["note"], r["tag"])
                         for r in sorted(want_rows, key=lambda r: r["id"])]

    # Spark reads the same rows field by field, and time travel to the
    # v1-era snapshot gives v1's schema and rows.
    cat = spark_catalog(spark, server, setup.bucket_arn)
    name = f"{cat}.{setup.namespace}.{setup.table}"
    spark_rows = [r.asDict() for r in spark.sql(
        f"SELECT id, ts, name, qty, price, note, tag FROM {name} ORDER BY id").collect()]
    assert len(spark_rows) == len(want_rows)
    for row, want in zip(spark_rows, sorted(want_rows, key=lambda r: r["id"])):
        assert row["ts"].replace(tzinfo=dt.timezone.utc) == want["ts"], (row, want)
        for field in ("id", "name", "qty", "note", "tag"):
            assert row[field] == want[field], (field, row, want)
        assert row["price"] == pytest.approx(want["price"], rel=1e-7), (row, want)
    v1_era = spark.sql(f"SELECT * FROM {name} VERSION AS OF {snapshots[1].snapshot_id}")
    assert "note" not in v1_era.columns and "tag" not in v1_era.columns
    assert dict(v1_era.dtypes)["qty"] == "int"
    assert sorted(r["id"] for r in v1_era.collect()) == list(range(100, 100 + per_version))

    # The quarantined version in DescribeChannel (extension) and /metrics.
    described = describe_raw(server, setup)
    assert described["status"] == "ACTIVE" and "stateInfo" not in described
    quarantined = described["quarantinedSchemaVersions"]
    assert [q["schemaVersionId"] for q in quarantined] == [ids[3]]
    assert quarantined[0]["records"] == per_version and "name" in quarantined[0]["message"]
    metrics = setup.metrics_text()
    sample = [line for line in metrics.splitlines()
              if line.startswith("st_channel_schema_incompatible_records_total{")
              and setup.channel_name in line]
    assert len(sample) == 1 and f'version="{ids[3]}"' in sample[0], sample
    assert sample[0].endswith(f" {per_version}")


def confluent_avro_channel(server, kafka, topic_name):
    """An ACTIVE AVRO_CONFLUENT channel on a new 2-partition topic, and a
    function giving, for an Avro schema, confluent-kafka's AvroSerializer
    (through our registry) as a one-argument callable."""
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=2)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    setup = ChannelSetup.create(server, kafka, topic_name, converter="AVRO_CONFLUENT", freshness=1)
    setup.wait_status("ACTIVE")
    context = SerializationContext(topic_name, MessageField.VALUE)

    def serializer_for(schema):
        serializer = AvroSerializer(sr, json.dumps(schema))
        return lambda record: serializer(record, context)
    return setup, serializer_for


def test_avro_confluent_channel_through_the_built_in_registry(server, kafka, topic_name):
    """confluent-kafka's AvroSerializer registers V1 then V2 in our
    Confluent-compatible registry (auto.register.schemas) and frames the
    records (magic 0 + schema id); an AVRO_CONFLUENT channel decodes them with
    the writer schemas of those ids, evolves the table from V1 to V2 in the
    commit that carries V2's first rows, and sends a wrong magic byte and an
    unknown id to the DLQ."""
    setup, serializer_for = confluent_avro_channel(server, kafka, topic_name)
    serializers = {1: serializer_for(V1), 2: serializer_for(V2)}

    produced, want_rows = {}, []
    for version, ids in ((1, range(0, 8)), (2, range(8, 16))):
        values = [serializers[version](order(i, version)) for i in ids]
        for (p, o), i in zip(produce(kafka, topic_name, values), ids):
            produced[(p, o)] = ("row", expected(i, version))
            want_rows.append(expected(i, version))
        wait_for(lambda: len(rows_of(setup)) >= len(want_rows), what=f"rows of v{version}")
    v1_payload = serializers[1](order(99, 1))[5:]
    poison = {b"\x01\x00\x00\x00\x01" + v1_payload: "WRONG_MAGIC_BYTE",
              b"\x00" + (7_654_321).to_bytes(4, "big") + v1_payload: "SCHEMA_NOT_FOUND"}
    for (p, o), code in zip(produce(kafka, topic_name, list(poison)), poison.values()):
        produced[(p, o)] = ("dlq", code)
    wait_for(lambda: len(setup.dlq_lines()) >= len(poison), what="poison in the DLQ")

    table = setup.load_table()
    got = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["id"] for r in got] == list(range(16))
    for row, want in zip(got, want_rows):
        for field in ("id", "ts", "name", "qty", "note"):
            assert row[field] == want[field], (field, row, want)
        assert row["price"] == pytest.approx(want["price"], rel=1e-7)
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == ("dlq", line["errorCode"]), line
    # V1's schema, then V2's (the optional `note`) added by the delivery commit.
    schemas = table.schemas()
    assert sorted(schemas) == [0, 1]
    assert "note" not in [f.name for f in schemas[0].fields]
    assert "note" in [f.name for f in schemas[1].fields]


REF_COUNTRY = {"type": "enum", "name": "Country", "namespace": "com.example",
               "symbols": ["CH", "FR", "JP"]}
REF_ADDRESS = {"type": "record", "name": "Address", "namespace": "com.example",
               "fields": [{"name": "city", "type": "string"},
                          {"name": "country", "type": "Country"}]}
REF_ORDER = {"type": "record", "name": "Order", "namespace": "com.example",
             "fields": [{"name": "id", "type": "long"},
                        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
                        {"name": "ship_to", "type": "com.example.Address"},
                        {"name": "bill_to", "type": ["null", "Address"], "default": None},
                        {"name": "origin", "type": "Country"}]}


def test_avro_confluent_schema_references(server, kafka, topic_name):
    """confluent-kafka's AvroSerializer with a Schema whose named types come
    from other subjects (Order → Address → Country, as references): the
    registry parses it with those types (an unknown one is 42201, and BACKWARD
    compares versions with references: a new required field is 409), and the
    AVRO_CONFLUENT channel decodes the records with them; PyIceberg reads the
    nested record and the enum back."""
    from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.schema_registry.error import SchemaRegistryError
    from confluent_kafka.serialization import MessageField, SerializationContext

    setup, _ = confluent_avro_channel(server, kafka, topic_name)
    sr = SchemaRegistryClient({"url": server.api_url + "/schema-registry",
                               "basic.auth.user.info": f"{server.access_key}:{server.secret_key}"})
    country_subject, address_subject = f"{topic_name}-country", f"{topic_name}-address"
    sr.register_schema(country_subject, Schema(json.dumps(REF_COUNTRY), "AVRO"))
    sr.register_schema(address_subject, Schema(json.dumps(REF_ADDRESS), "AVRO", references=[
        SchemaReference("com.example.Country", country_subject, 1)]))
    refs = [SchemaReference("com.example.Address", address_subject, 1)]
    serializer = AvroSerializer(sr, Schema(json.dumps(REF_ORDER), "AVRO", references=refs))
    context = SerializationContext(topic_name, MessageField.VALUE)

    def record(i):
        return {"id": i, "ts": BASE + dt.timedelta(seconds=i),
                "ship_to": {"city": f"Gen\u00e8ve {i}", "country": ["CH", "FR", "JP"][i % 3]},
                "bill_to": None if i % 2 else {"city": "Paris", "country": "FR"},
                "origin": "JP"}

    ids = list(range(6))
    produced = produce(kafka, topic_name, [serializer(record(i), context) for i in ids])
    wait_for(lambda: len(rows_of(setup)) >= len(ids), what="rows with referenced types")
    rows = sorted(rows_of(setup), key=lambda r: r["id"])
    for row, i in zip(rows, ids):
        want = record(i)
        assert row["ship_to"] == want["ship_to"], row
        assert row["bill_to"] == want["bill_to"], row
        assert row["origin"] == "JP"
    assert sorted((r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in rows) == sorted(
        produced)
    assert setup.dlq_lines() == []

    # The registry compares versions with references (BACKWARD: the new
    # schema must read the old data; a required field without a default
    # cannot) and refuses a type neither the schema nor its references define.
    subject = f"{topic_name}-value"
    sr.set_compatibility(subject, "BACKWARD")
    v2 = json.loads(json.dumps(REF_ORDER))
    v2["fields"].append({"name": "qty", "type": "long"})
    with pytest.raises(SchemaRegistryError) as refused:
        sr.register_schema(subject, Schema(json.dumps(v2), "AVRO", references=refs))
    assert refused.value.http_status_code == 409, refused.value
    v2["fields"][-1]["default"] = 0
    assert sr.register_schema(subject, Schema(json.dumps(v2), "AVRO", references=refs)) > 0
    unknown = json.loads(json.dumps(REF_ORDER))
    unknown["fields"][2]["type"] = "com.example.Nowhere"
    with pytest.raises(SchemaRegistryError) as invalid:
        sr.register_schema(f"{topic_name}-other",
                           Schema(json.dumps(unknown), "AVRO", references=refs))
    assert invalid.value.http_status_code == 422 and invalid.value.error_code == 42201
    assert "com.example.Nowhere" in invalid.value.error_message


def test_records_that_cannot_define_the_table_go_to_the_dlq_and_the_channel_moves_on(
        server, kafka, topic_name):
    """An AVRO_CONFLUENT channel whose first records all fail before any schema
    is known (wrong magic byte, unknown schema id) has no table to commit them
    with: they still reach the DLQ within the freshness, their offsets are
    committed (no table yet), and the first decodable record later creates the
    table; table + DLQ = produced, each offset once."""
    setup, serializer_for = confluent_avro_channel(server, kafka, topic_name)
    serializer = serializer_for(V1)
    payload = serializer(order(0, 1))[5:]

    produced = {}
    poison = []
    for i in range(60):
        if i % 2:
            poison.append((b"\x02\x00\x00\x00\x01" + payload, "WRONG_MAGIC_BYTE"))
        else:
            poison.append((b"\x00" + (9_000_000 + i).to_bytes(4, "big") + payload,
                           "SCHEMA_NOT_FOUND"))
    for (p, o), (_, code) in zip(produce(kafka, topic_name, [v for v, _ in poison]), poison):
        produced[(p, o)] = ("dlq", code)
    wait_for(lambda: len(setup.dlq_lines()) >= len(poison), timeout_s=60, what="poison in the DLQ")
    assert setup.read_arrow() is None  # No record could define the table yet.
    assert setup.describe()["Status"] == "ACTIVE"

    ids = range(100, 110)
    values = [serializer(order(i, 1)) for i in ids]
    for (p, o), i in zip(produce(kafka, topic_name, values), ids):
        produced[(p, o)] = ("row", expected(i, 1))
    wait_for(lambda: len(rows_of(setup)) >= len(ids), what="rows after the poison")
    time.sleep(2)  # A batch delivered twice would show up within the freshness.

    got = rows_of(setup)
    lines = setup.dlq_lines()
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)  # No gap, no duplicate.
    for line in lines:
        assert produced[(line["partition"], line["offset"])] == ("dlq", line["errorCode"]), line
    assert sorted(r["id"] for r in got) == list(ids)
