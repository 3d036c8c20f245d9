"""AWS's own Glue Schema Registry serializer (aws-glue-schema-registry 1.1.24,
`GlueSchemaRegistryKafkaSerializer`, AVRO mode, unmodified) against our Glue
registry and a real broker, into an AVRO_GSR channel (issue 14, "the same for
the aws-glue-schema-registry serializer in AVRO mode").

The serializer runs in a small Java producer (tests/integration/java/
GsrAvroProducer.java, run by Java's source launcher; jars from
tools/maven/glue-serde/pom.xml). It auto-registers v1 of a schema covering
every Avro type the channel maps, then v2 (one more optional field) under
BACKWARD compatibility, through the AWS SDK's Glue client at our endpoint,
and frames the records itself (0x03, compression byte, 16-byte version
UUID), once uncompressed and once with ZLIB. The rows are read back field by
field in PyIceberg, DuckDB and Spark; table + DLQ = produced per
(partition, offset).
"""

import base64
import datetime
import decimal
import io
import json
import math
import os
import subprocess
import time
import uuid

import fastavro

from harness import duckdb_engine, paths
from harness.channels import ChannelSetup, glue_client
from test_avro_channel import rows_of, unique, wait_for
from test_iceberg_rest_engines import duckdb_attach, spark_catalog

UTC = datetime.timezone.utc
JAVA_SOURCE = paths.REPO_ROOT / "tests" / "integration" / "java" / "GsrAvroProducer.java"

# Every type the Avro decoder maps except the time types (Spark 3.5 cannot
# read an Iceberg `time` column; their decoding is covered by
# test_avro_decoding_files.py).
V1 = {
    "type": "record", "name": "Everything", "namespace": "gsr.serde", "fields": [
        {"name": "k", "type": "int"},
        {"name": "b", "type": "boolean"},
        {"name": "i", "type": "int"},
        {"name": "l", "type": "long"},
        {"name": "f", "type": "float"},
        {"name": "d", "type": "double"},
        {"name": "s", "type": ["null", "string"]},
        {"name": "raw", "type": "bytes"},
        {"name": "fx", "type": {"type": "fixed", "name": "F4", "size": 4}},
        {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}},
        {"name": "dec_b", "type": {"type": "bytes", "logicalType": "decimal", "precision": 20,
                                   "scale": 3}},
        {"name": "dec_f", "type": {"type": "fixed", "name": "D8", "size": 8,
                                   "logicalType": "decimal", "precision": 18, "scale": 2}},
        {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "ts_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "nested", "type": ["null", {"type": "record", "name": "Inner", "fields": [
            {"name": "x", "type": "int"},
            {"name": "tags", "type": {"type": "array", "items": ["null", "string"]}}]}]},
        {"name": "arr", "type": {"type": "array", "items": "long"}},
        {"name": "m", "type": {"type": "map", "values": ["null", "double"]}},
    ]}
# v2: one more optional field (BACKWARD-compatible; the table evolves).
V2 = dict(V1, fields=V1["fields"] + [{"name": "note", "type": ["null", "string"],
                                       "default": None}])


def record(k, version):
    extreme = k % 2 == 0
    rec = {
        "k": k, "b": extreme, "i": -2**31 if extreme else 2**31 - 1,
        "l": -2**63 if extreme else 2**63 - 1,
        "f": float("inf") if extreme else -1.5,
        "d": [float("nan"), float("-inf"), 0.0, 1e308][k % 4],
        "s": None if k % 5 == 1 else ("" if extreme else f"héllo ✓ 😀 {k}"),
        "raw": b"" if extreme else bytes(range(256)), "fx": bytes([k % 256, 0, 255, 1]),
        "color": "GREEN" if extreme else "RED",
        "dec_b": decimal.Decimal("-99999999999999999.999") if extreme else decimal.Decimal("1.500"),
        "dec_f": decimal.Decimal("9999999999999999.99") if extreme else decimal.Decimal("-0.01"),
        "id": uuid.UUID(int=k * 7919 + 1),
        "day": datetime.date(1970, 1, 1) + datetime.timedelta(days=k * 100 - 3000),
        "ts_ms": datetime.datetime(2025, 3, 1, 12, 34, 56, 789000, tzinfo=UTC),
        "ts": datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
        + datetime.timedelta(seconds=k),
        "nested": None if k % 7 == 3 else {"x": k, "tags": [] if extreme else ["a", None, "ü"]},
        "arr": [] if extreme else [-2**63, k, 2**63 - 1],
        "m": {} if extreme else {"k": 1.25, "n": None},
    }
    if version == 2:
        rec["note"] = None if k % 3 == 0 else f"note {k} ✓"
    return rec


def avro_binary(schema, rec):
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(schema), rec)
    return out.getvalue()


def glue_produce(server, kafka, topic, tmp_path, schema_name, serializers, lines):
    """Runs the Java producer: serializers is [(schema, "NONE"|"ZLIB")], lines
    [(serializer index, record)]; returns [(partition, offset)] per line."""
    args = []
    for n, (schema, compression) in enumerate(serializers):
        avsc = tmp_path / f"schema-{n}.avsc"
        avsc.write_text(json.dumps(schema))
        args.append(f"{avsc}:{compression}")
    stdin = "".join(
        f"{which}\t{base64.b64encode(avro_binary(serializers[which][0], rec)).decode()}\n"
        for which, rec in lines)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_ACCESS_KEY_ID=server.access_key, AWS_SECRET_ACCESS_KEY=server.secret_key)
    proc = subprocess.run(
        [paths.java_bin(), "-Xmx512m", "-cp", f"{paths.jar_dir('glue-serde')}/*", str(JAVA_SOURCE),
         kafka.bootstrap, topic, server.api_url + "/glue", server.region, "default-registry",
         schema_name, *args],
        input=stdin, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, f"GsrAvroProducer exited {proc.returncode}:\n{proc.stderr[-4000:]}"
    out = [tuple(int(x) for x in line.split()) for line in proc.stdout.splitlines() if line]
    assert len(out) == len(lines), proc.stdout
    return out


def raw_values(kafka, topic, count):
    """The topic's values as produced, by (partition, offset)."""
    consumer = kafka.consumer(unique("raw"))
    consumer.subscribe([topic])
    out = {}
    try:
        deadline = time.monotonic() + 60
        while len(out) < count and time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is not None and msg.error() is None:
                out[(msg.partition(), msg.offset())] = msg.value()
    finally:
        consumer.close()
    return out


def micros(ts):
    """A timestamptz as epoch microseconds (DuckDB hands timestamptz to Python
    only through pytz, which the tests do not install: epoch_us() instead)."""
    return (ts - datetime.datetime(1970, 1, 1, tzinfo=UTC)) // datetime.timedelta(microseconds=1)


def expected_row(k, version):
    rec = record(k, version)
    rec.setdefault("note", None)
    return rec


def check_pyiceberg_row(row, want):
    for name in ("k", "b", "i", "l", "s", "raw", "fx", "color", "dec_b", "dec_f", "day", "ts_ms",
                 "ts", "arr", "nested", "note"):
        assert row[name] == want[name], (want["k"], name, row[name], want[name])
    assert row["f"] == want["f"]
    if math.isnan(want["d"]):
        assert math.isnan(row["d"])
    else:
        assert row["d"] == want["d"]
    got_id = row["id"]
    assert (got_id if isinstance(got_id, uuid.UUID) else uuid.UUID(bytes=bytes(got_id))) == want["id"]
    assert dict(row["m"] or []) == want["m"]


def test_glue_serializer_avro_mode_into_an_avro_gsr_channel(server, kafka, topic_name, spark,
                                                           tmp_path):
    kafka.create_topic(topic_name, partitions=2)
    glue = glue_client(server)
    try:
        glue.create_registry(RegistryName="default-registry")
    except glue.exceptions.AlreadyExistsException:
        pass
    setup = ChannelSetup.create(server, kafka, topic_name, converter="AVRO_GSR", freshness=1)
    setup.wait_status("ACTIVE")
    schema_name = unique("gsr-serde")

    # v1 through the serializer, uncompressed: it registers the schema (the
    # schema does not exist yet: CreateSchema with BACKWARD).
    produced, want = {}, {}
    v1_keys = list(range(0, 10))
    for (p, o), k in zip(glue_produce(server, kafka, topic_name, tmp_path, schema_name,
                                      [(V1, "NONE")], [(0, record(k, 1)) for k in v1_keys]),
                         v1_keys):
        produced[(p, o)] = k
        want[k] = expected_row(k, 1)
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="v1 rows")
    v1_snapshot = setup.load_table().current_snapshot()

    # v2 (a new optional field) through two serializers, one with ZLIB, and
    # v1 again from a third: the serializer registers v2 as a new version and
    # finds v1 by its definition.
    lines, keys = [], []
    for k in range(10, 40):
        which = k % 3
        lines.append((which, record(k, 1 if which == 2 else 2)))
        keys.append(k)
    out = glue_produce(server, kafka, topic_name, tmp_path, schema_name,
                       [(V2, "NONE"), (V2, "ZLIB"), (V1, "ZLIB")], lines)
    compressed = set()
    for (p, o), k, (which, _) in zip(out, keys, lines):
        produced[(p, o)] = k
        want[k] = expected_row(k, 1 if which == 2 else 2)
        if which != 0:
            compressed.add((p, o))
    wait_for(lambda: len(rows_of(setup)) >= len(want), what="v2 rows")

    # The serializer framed every record itself: 0x03, then 0x05 (ZLIB) or
    # 0x00 (none), then a version UUID of this schema.
    glue_ids = {v["SchemaVersionId"] for v in glue.list_schema_versions(
        SchemaId={"RegistryName": "default-registry", "SchemaName": schema_name})["Schemas"]}
    raw = raw_values(kafka, topic_name, len(produced))
    assert sorted(raw) == sorted(produced)
    for where, value in raw.items():
        assert value[0] == 3 and value[1] == (5 if where in compressed else 0), (where, value[:2])
        assert str(uuid.UUID(bytes=value[2:18])) in glue_ids

    # The registry holds exactly the two versions the serializer registered.
    versions = glue.list_schema_versions(
        SchemaId={"RegistryName": "default-registry", "SchemaName": schema_name})["Schemas"]
    assert sorted(v["VersionNumber"] for v in versions) == [1, 2]
    described = glue.get_schema(
        SchemaId={"RegistryName": "default-registry", "SchemaName": schema_name})
    assert described["DataFormat"] == "AVRO" and described["Compatibility"] == "BACKWARD"

    # Nothing went to the DLQ; every record is in the table exactly once.
    assert setup.dlq_lines() == []
    table = setup.load_table()
    got = table.scan().to_arrow().to_pylist()
    in_table = sorted((r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got)
    assert in_table == sorted(produced)
    for row in got:
        k = produced[(row["_kafka"]["partition"], row["_kafka"]["offset"])]
        assert row["k"] == k
        check_pyiceberg_row(row, want[k])

    # The table evolved in the delivery commit: v1's schema, then v2's.
    schemas = table.schemas()
    assert sorted(schemas) == [0, 1] and table.schema().schema_id == 1
    assert "note" not in [f.name for f in schemas[0].fields]
    assert v1_snapshot.schema_id == 0
    old = table.scan(snapshot_id=v1_snapshot.snapshot_id).to_arrow()
    assert "note" not in old.column_names
    assert sorted(r["k"] for r in old.to_pylist()) == v1_keys

    ordered = [want[k] for k in sorted(want)]
    # DuckDB through the REST catalog (timestamps as epoch microseconds).
    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, setup.bucket_arn)
    duck_rows = duck.execute(
        f"SELECT k, b, i, l, s, color, dec_b, day, epoch_us(ts), arr, nested.x, note "
        f"FROM st.{setup.namespace}.{setup.table} ORDER BY k").fetchall()
    assert duck_rows == [
        (w["k"], w["b"], w["i"], w["l"], w["s"], w["color"], w["dec_b"], w["day"], micros(w["ts"]),
         w["arr"], None if w["nested"] is None else w["nested"]["x"], w["note"])
        for w in ordered]

    # Spark field by field, and time travel to the v1 era.
    cat = spark_catalog(spark, server, setup.bucket_arn)
    name = f"{cat}.{setup.namespace}.{setup.table}"
    spark_rows = [r.asDict(recursive=True) for r in spark.sql(
        f"SELECT k, b, i, l, f, s, raw, fx, color, dec_b, dec_f, id, day, ts, nested, arr, m, "
        f"note FROM {name} ORDER BY k").collect()]
    assert [r["k"] for r in spark_rows] == sorted(want)
    for row, w in zip(spark_rows, ordered):
        for field in ("b", "i", "l", "f", "s", "color", "dec_b", "dec_f", "day", "arr", "note"):
            assert row[field] == w[field], (w["k"], field, row[field], w[field])
        assert bytes(row["raw"]) == w["raw"] and bytes(row["fx"]) == w["fx"]
        assert uuid.UUID(row["id"]) == w["id"]
        assert row["ts"].replace(tzinfo=UTC) == w["ts"], (row["ts"], w["ts"])
        assert row["nested"] == w["nested"], (row["nested"], w["nested"])
        assert dict(row["m"] or {}) == w["m"]
    v1_era = spark.sql(f"SELECT * FROM {name} VERSION AS OF {v1_snapshot.snapshot_id}")
    assert "note" not in v1_era.columns
    assert sorted(r["k"] for r in v1_era.collect()) == v1_keys
