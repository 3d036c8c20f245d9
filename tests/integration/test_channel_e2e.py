"""Delivery channels end to end, as a user runs them: a real Kafka 4.1 broker,
boto3 `kafka` / `glue` / `s3tables` / `s3` clients against our server,
confluent-kafka producers, and the rows read back by PyIceberg, DuckDB and
Spark through the Iceberg REST catalog (issue 4 "Must show").
"""

import datetime as dt
import decimal
import json
import uuid

import pytest

from harness.channels import ChannelSetup, kafka_client
from test_iceberg_rest_engines import duckdb_attach, spark_catalog

CLICK_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "event_id": {"type": "string", "format": "uuid"},
        "ts": {"type": "string", "format": "date-time"},
        "user_id": {"type": "integer", "minimum": 0, "maximum": 1000000},
        "session": {"type": "integer"},
        "page": {"type": "string"},
        "price": {"type": "number", "multipleOf": 0.01},
        "score": {"type": "number"},
        "active": {"type": "boolean"},
        "day": {"type": "string", "format": "date"},
        "device": {"type": "object",
                   "properties": {"os": {"type": "string"}, "version": {"type": "integer"}},
                   "required": ["os"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "attrs": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["event_id", "ts", "page"],
}

BASE = dt.datetime(2026, 11, 30, 8, 0, 0, tzinfo=dt.timezone.utc)


def click(i: int) -> dict:
    """Record i: three hours of events, every optional field null or absent somewhere."""
    record = {
        "event_id": str(uuid.UUID(int=i + 1)),
        "ts": (BASE + dt.timedelta(minutes=7 * i)).isoformat().replace("+00:00", "Z"),
        "page": f"/p/{i % 5}",
        "extra_field_dropped": i,
    }
    if i % 3:
        record["user_id"] = i * 11
        record["session"] = 10_000_000_000 + i
        record["price"] = round(i * 1.25, 2)
        record["score"] = i / 4
        record["active"] = i % 2 == 0
        record["day"] = "2026-11-30"
        record["device"] = {"os": "linux" if i % 2 else "ios", "version": i}
        record["tags"] = [f"t{i}", "x"]
        record["attrs"] = {"k": str(i)}
    elif i % 2:
        record["device"] = None
        record["tags"] = []
    return record


def expected_row(record: dict) -> dict:
    device = record.get("device")
    return {
        "event_id": uuid.UUID(record["event_id"]),
        "ts": dt.datetime.fromisoformat(record["ts"].replace("Z", "+00:00")),
        "user_id": record.get("user_id"),
        "session": record.get("session"),
        "page": record["page"],
        "price": None if "price" not in record else decimal.Decimal(f"{record['price']:.2f}"),
        "score": record.get("score"),
        "active": record.get("active"),
        "day": None if "day" not in record else dt.date.fromisoformat(record["day"]),
        "device": None if device is None else {"os": device["os"],
                                               "version": device.get("version")},
        "tags": record.get("tags"),
        "attrs": record.get("attrs"),
    }


def normalize(row: dict) -> dict:
    out = {k: row.get(k) for k in ("event_id", "ts", "user_id", "session", "page", "price",
                                   "score", "active", "day", "device", "tags", "attrs")}
    if isinstance(out["event_id"], (bytes, bytearray)):
        out["event_id"] = uuid.UUID(bytes=bytes(out["event_id"]))
    elif isinstance(out["event_id"], str):
        out["event_id"] = uuid.UUID(out["event_id"])
    if isinstance(out["attrs"], list):  # pyarrow map → list of (key, value)
        out["attrs"] = dict(out["attrs"])
    if isinstance(out["ts"], dt.datetime):
        out["ts"] = out["ts"].astimezone(dt.timezone.utc)
    return out


@pytest.fixture
def channel(server, kafka, topic_name):
    # Room for the 5 MB poison record (the broker's default limit is 1 MB).
    kafka.create_topic(topic_name, partitions=3, config={"max.message.bytes": str(8 << 20)})
    return ChannelSetup.create(server, kafka, topic_name, schema=CLICK_SCHEMA, freshness=1)


def produce_json(kafka, topic, records, key_prefix="k"):
    kafka.produce(topic, [json.dumps(r).encode() for r in records],
                  keys=[f"{key_prefix}{i}".encode() for i in range(len(records))])


def test_json_records_reach_pyiceberg_duckdb_and_spark_field_by_field(kafka, server, topic_name,
                                                                       spark):
    # No backfill: these records precede CreateChannel, so its end-offset
    # snapshot (taken when it becomes ACTIVE) is past them. (Produced after
    # CreateChannel they would race the snapshot.)
    kafka.create_topic(topic_name, partitions=3)
    produce_json(kafka, topic_name, [click(1000 + i) for i in range(5)], "before")
    channel = ChannelSetup.create(server, kafka, topic_name, schema=CLICK_SCHEMA, freshness=1)
    described = channel.wait_status("ACTIVE")
    assert described["DestinationType"] == "ICEBERG"
    records = [click(i) for i in range(60)]
    produce_json(kafka, channel.topic, records)

    data = channel.wait_rows(len(records))
    assert data.num_rows == len(records), "records produced before CreateChannel were delivered"
    rows = sorted((normalize(r) for r in data.to_pylist()), key=lambda r: r["event_id"])
    want = sorted((expected_row(r) for r in records), key=lambda r: r["event_id"])
    assert rows == want
    assert "extra_field_dropped" not in data.column_names

    # Kafka metadata struct: partition/offset/key of every row, offsets unique per partition.
    meta = data.column("_kafka").to_pylist()
    assert {m["key"] for m in meta} == {f"k{i}".encode() for i in range(len(records))}
    assert len({(m["partition"], m["offset"]) for m in meta}) == len(records)

    # Partitioned by hour(ts); the snapshot summary names the channel and its offsets.
    table = channel.load_table()
    spec_fields = table.spec().fields
    assert [f.transform.__class__.__name__ for f in spec_fields] == ["HourTransform"]
    hours = {(r["ts"].replace(minute=0, second=0)) for r in want}
    assert len(table.inspect.partitions()) == len(hours)
    summary = table.current_snapshot().summary
    assert channel.channel_arn in json.dumps(summary.additional_properties)

    # DuckDB through the REST catalog with SigV4.
    from harness import duckdb_engine

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, channel.bucket_arn)
    got = duck.execute(
        f"SELECT CAST(event_id AS VARCHAR), epoch_us(ts), page, price, device.os, tags "
        f"FROM st.{channel.namespace}.{channel.table} ORDER BY 1").fetchall()
    assert [(str(r["event_id"]), int(r["ts"].timestamp() * 1_000_000), r["page"], r["price"],
             None if r["device"] is None else r["device"]["os"], r["tags"]) for r in want] == got

    # Spark SQL through the same catalog with S3FileIO on our S3 endpoint.
    cat = spark_catalog(spark, server, channel.bucket_arn)
    spark_rows = spark.sql(
        f"SELECT CAST(event_id AS STRING) AS id, page, price, device.os AS os, size(tags) AS n "
        f"FROM {cat}.{channel.namespace}.{channel.table} ORDER BY id").collect()
    assert [(str(r["event_id"]), r["page"], r["price"],
             None if r["device"] is None else r["device"]["os"],
             -1 if r["tags"] is None else len(r["tags"])) for r in want] == \
        [(r.id, r.page, r.price, r.os, r.n) for r in spark_rows]


def test_poison_records_go_to_the_dlq_with_reasons_and_nothing_is_lost(channel, kafka):
    channel.wait_status("ACTIVE")
    good = [click(i) for i in range(10)]
    deep: dict = {}
    node = deep
    for _ in range(20):
        node["device"] = {}
        node = node["device"]
    poison = [
        (b"not json {", "MALFORMED_JSON"),
        (json.dumps({"event_id": str(uuid.uuid4()), "page": "/x"}).encode(),
         "MISSING_PARTITION_VALUE"),
        (json.dumps({"event_id": str(uuid.uuid4()), "ts": None, "page": "/x"}).encode(),
         "MISSING_PARTITION_VALUE"),
        (json.dumps({"event_id": str(uuid.uuid4()), "ts": "2026-11-30T08:00:00Z"}).encode(),
         "MISSING_REQUIRED_FIELD"),
        (json.dumps({"event_id": str(uuid.uuid4()), "ts": "2026-11-30T08:00:00Z",
                     "page": "/x", "user_id": "eleven"}).encode(), "TYPE_MISMATCH"),
        (json.dumps({"event_id": str(uuid.uuid4()), "ts": "2026-11-30T08:00:00Z",
                     "page": "/x", **deep}).encode(), None),
        (b"{" + b'"page":"' + b"x" * (5 * 1024 * 1024) + b'"}', "RECORD_TOO_LARGE"),
    ]
    values = []
    for i, record in enumerate(good):
        values.append(json.dumps(record).encode())
        if i < len(poison):
            values.append(poison[i][0])
    kafka.produce(channel.topic, values, message_max_bytes=8 << 20)
    data = channel.wait_rows(len(good))
    lines = []
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        lines = channel.dlq_lines()
        if len(lines) >= len(poison):
            break
        time.sleep(0.5)
    assert data.num_rows == len(good)
    assert len(lines) == len(poison)
    codes = sorted(line["errorCode"] for line in lines)
    for _, code in poison:
        if code:
            assert code in codes
    for line in lines:
        assert line["errorMessage"]
        assert line["channelArn"] == channel.channel_arn
        assert line["topic"] == channel.topic
    # Table rows + DLQ records = records produced, offset by offset.
    delivered = {(m["partition"], m["offset"]) for m in data.column("_kafka").to_pylist()}
    failed = {(line["partition"], line["offset"]) for line in lines}
    assert not delivered & failed
    end = kafka.end_offsets(channel.topic)
    produced = sum(end.values())
    assert len(delivered) + len(failed) == produced


def test_lifecycle_delete_table_suspends_and_a_new_channel_recreates_it(server, kafka,
                                                                        topic_name):
    kafka.create_topic(topic_name, partitions=1)
    first = ChannelSetup.create(server, kafka, topic_name, schema=CLICK_SCHEMA, freshness=1)
    first.wait_status("ACTIVE")
    produce_json(kafka, topic_name, [click(i) for i in range(5)])
    first.wait_rows(5)

    client = kafka_client(server)
    # Pause / resume (extension routes).
    pause = server.signed_request(
        "POST", f"{server.api_url}/v1/clusters/{_q(first.cluster_arn)}/channels/"
                f"{_q(first.channel_arn)}/pause", service="kafka")
    assert pause.status_code == 200, pause.text
    paused = first.wait_status("SUSPENDED")
    assert paused["StateInfo"]["Code"] == "PAUSED"
    produce_json(kafka, topic_name, [click(i) for i in range(5, 8)])
    resume = server.signed_request(
        "POST", f"{server.api_url}/v1/clusters/{_q(first.cluster_arn)}/channels/"
                f"{_q(first.channel_arn)}/resume", service="kafka")
    assert resume.status_code == 200, resume.text
    first.wait_status("ACTIVE")
    first.wait_rows(8)

    # Freshness update.
    client.update_channel(ClusterArn=first.cluster_arn, ChannelArn=first.channel_arn,
                          IcebergDestinationUpdate={"DataFreshnessInSeconds": 2})
    updated = first.wait_status("ACTIVE")
    assert updated["IcebergDestinationConfiguration"]["DataFreshnessInSeconds"] == 2

    # DeleteTable → SUSPENDED naming the table.
    s3t = server.boto3_client("s3tables")
    s3t.delete_table(tableBucketARN=first.bucket_arn, namespace=first.namespace, name=first.table)
    suspended = first.wait_status("SUSPENDED", timeout_s=30)
    assert suspended["StateInfo"]["Code"] == "TABLE_DELETED"
    assert first.table in suspended["StateInfo"]["Message"]

    # A new channel with the same destination makes a new table on first delivery.
    client.delete_channel(ClusterArn=first.cluster_arn, ChannelArn=first.channel_arn)
    import botocore.exceptions
    import time

    deadline = time.monotonic() + 30
    while True:
        try:
            first.describe()
        except botocore.exceptions.ClientError as e:
            assert e.response["Error"]["Code"] == "NotFoundException"
            break
        assert time.monotonic() < deadline, "DeleteChannel never completed"
        time.sleep(0.2)
    second = ChannelSetup.create(server, kafka, topic_name, schema=CLICK_SCHEMA, freshness=1,
                                 cluster_arn=first.cluster_arn, create_bucket=False,
                                 bucket_name=first.bucket_name, table=first.table)
    second.wait_status("ACTIVE")
    produce_json(kafka, topic_name, [click(i) for i in range(100, 103)])
    data = second.wait_rows(3)
    assert data.num_rows == 3


def _q(arn: str) -> str:
    from urllib.parse import quote

    return quote(arn, safe="")


GSR_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "order_id": {"type": "integer"},
        "ts": {"type": "string", "format": "date-time"},
        "item": {"type": "string"},
        "price": {"type": "number", "multipleOf": 0.01},
        "shipping": {"type": "object", "properties": {"city": {"type": "string"},
                                                      "express": {"type": "boolean"}}},
    },
    "required": ["order_id", "ts"],
}


def test_glue_schema_registry_framed_records_via_the_python_serializer(server, kafka, topic_name,
                                                                       spark):
    from aws_schema_registry import DataAndSchema
    from aws_schema_registry.codec import encode
    from aws_schema_registry.jsonschema import JsonSchema

    from harness.channels import glue_kafka_serializer

    kafka.create_topic(topic_name, partitions=2)
    setup = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_GSR",
                                freshness=1)
    setup.wait_status("ACTIVE")
    serializer = glue_kafka_serializer(server)
    schema = JsonSchema(GSR_SCHEMA)
    records = []
    for i in range(40):
        record = {"order_id": i, "ts": f"2026-11-30T{9 + i % 3:02d}:{i:02d}:00Z",
                  "item": f"item-{i}"}
        if i % 4:
            record["price"] = round(i * 0.75, 2)
            record["shipping"] = {"city": "Lyon" if i % 2 else "Oslo", "express": i % 3 == 0}
        records.append(record)
    framed = [serializer.serialize(topic_name, DataAndSchema(r, schema)) for r in records]
    version_id = uuid.UUID(bytes=bytes(framed[0][2:18]))
    # Every other record zlib-compressed (compression byte 0x05), as producers may send.
    values = [encode(schema.write(r), version_id, compression=True) if i % 2 else framed[i]
              for i, r in enumerate(records)]
    assert {v[1] for v in values} == {0x00, 0x05}
    poison = [
        b"\x00\x00\x00\x00\x01" + b'{"order_id": 1}',  # Confluent framing, not GSR.
        encode(schema.write(records[0]), uuid.uuid4()),  # Unknown schema version.
    ]
    kafka.produce(topic_name, values + poison)

    data = setup.wait_rows(len(records))
    assert data.num_rows == len(records)
    got = sorted(data.select(["order_id", "ts", "item", "price", "shipping"]).to_pylist(),
                 key=lambda r: r["order_id"])
    for row, record in zip(got, records):
        assert row["order_id"] == record["order_id"] and row["item"] == record["item"]
        assert row["ts"] == dt.datetime.fromisoformat(record["ts"].replace("Z", "+00:00"))
        assert row["price"] == (None if "price" not in record
                                else decimal.Decimal(f"{record['price']:.2f}"))
        assert row["shipping"] == record.get("shipping")

    # DuckDB and Spark read the same rows through the REST catalog.
    from harness import duckdb_engine

    want = [(r["order_id"], r["item"], None if "price" not in r else
             decimal.Decimal(f"{r['price']:.2f}"),
             None if "shipping" not in r else r["shipping"]["city"]) for r in records]
    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, server, setup.bucket_arn)
    assert duck.execute(
        f"SELECT order_id, item, price, shipping.city FROM "
        f"st.{setup.namespace}.{setup.table} ORDER BY order_id").fetchall() == want
    cat = spark_catalog(spark, server, setup.bucket_arn)
    assert [tuple(r) for r in spark.sql(
        f"SELECT order_id, item, price, shipping.city FROM "
        f"{cat}.{setup.namespace}.{setup.table} ORDER BY order_id").collect()] == want

    import time

    deadline = time.monotonic() + 60
    lines = []
    while time.monotonic() < deadline and len(lines) < len(poison):
        lines = setup.dlq_lines()
        time.sleep(0.5)
    assert sorted(line["errorCode"] for line in lines) == ["MISSING_GSR_HEADER",
                                                          "SCHEMA_NOT_FOUND"]
