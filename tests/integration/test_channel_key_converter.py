"""recordConverter.keyConverter (extension, issue 14 item 3, first step):
STRING puts each record's key into `_kafka.key` as UTF-8 text (an Iceberg
string), so readers filter and join on it as text; a key that is not UTF-8
goes to the dead-letter queue with TYPE_MISMATCH while every other record is
delivered. The default, BYTE_ARRAY, keeps the key's bytes (binary).

A real Kafka broker and confluent-kafka's producer; rows read back with
PyIceberg and DuckDB through the Iceberg REST catalog.
"""

import json
import time

import pyarrow as pa

from harness import duckdb_engine
from harness.channels import ChannelSetup, encoded, topic_arn
from test_iceberg_rest_engines import duckdb_attach

SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"}},
    "required": ["id", "ts"],
}


def value(i: int) -> bytes:
    return json.dumps({"id": i, "ts": f"2026-12-06T10:{i % 60:02d}:00Z"}).encode()


def described_converter(channel) -> dict:
    """DescribeChannel's recordConverter on the wire (botocore's model drops
    the keyConverter extension)."""
    r = channel.server.signed_request(
        "GET", f"{channel.server.api_url}/v1/clusters/{encoded(channel.cluster_arn)}/channels/"
               f"{encoded(channel.channel_arn)}", service="kafka")
    assert r.status_code == 200, r.text
    return r.json()["topicConfigurationList"][0]["recordConverter"]


def test_string_keys_are_text_in_every_reader_and_a_non_utf8_key_is_dead_lettered(
        server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=1)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1,
                                  key_converter="STRING")
    channel.wait_status("ACTIVE")
    assert described_converter(channel) == {"valueConverter": "JSON", "keyConverter": "STRING"}

    keys = ["user-1", "caf\u00e9-\u65e5\u672c-\U0001f600", "", None, b"\xff\xfe\x00bad", "user-1"]
    wire_keys = [k.encode() if isinstance(k, str) else k for k in keys]
    kafka.produce(topic_name, [value(i) for i in range(len(keys))], keys=wire_keys)

    good = {i: k for i, k in enumerate(keys) if not isinstance(k, bytes)}
    data = channel.wait_rows(len(good))
    time.sleep(1.5)  # A second commit would show up as duplicates.
    data = channel.read_arrow()
    assert data.num_rows == len(good)
    key_type = data.schema.field("_kafka").type.field("key").type
    assert key_type in (pa.string(), pa.large_string()), key_type
    rows = {r["id"]: r["_kafka"]["key"] for r in data.to_pylist()}
    assert rows == good

    # The bad key's record, and only it, is in the DLQ with its reason.
    deadline = time.monotonic() + 30
    lines = []
    while time.monotonic() < deadline and not lines:
        lines = channel.dlq_lines()
        time.sleep(0.3)
    assert len(lines) == 1, lines
    assert lines[0]["errorCode"] == "TYPE_MISMATCH"
    assert "record key is not valid UTF-8" in lines[0]["errorMessage"]
    assert lines[0]["offset"] == 4
    # Table + DLQ = produced, per offset.
    offsets = sorted([m["offset"] for m in data.column("_kafka").to_pylist()] +
                     [lines[0]["offset"]])
    assert offsets == list(range(len(keys)))

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    try:
        duckdb_attach(duck, server, channel.bucket_arn)
        got = duck.execute(
            f"SELECT id, _kafka.key, typeof(_kafka.key) FROM "
            f"st.{channel.namespace}.{channel.table} WHERE _kafka.key LIKE 'user-%' "
            f"ORDER BY id").fetchall()
    finally:
        duck.close()
    assert got == [(0, "user-1", "VARCHAR"), (5, "user-1", "VARCHAR")]


def test_the_default_keeps_key_bytes_and_a_bad_key_converter_is_refused(
        server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=1)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1)
    channel.wait_status("ACTIVE")
    assert described_converter(channel) == {"valueConverter": "JSON"}
    kafka.produce(topic_name, [value(1), value(2)], keys=[b"\xff\xfe", b"k2"])
    data = channel.wait_rows(2)
    assert data.schema.field("_kafka").type.field("key").type in (pa.binary(),
                                                                   pa.large_binary())
    assert sorted(r["_kafka"]["key"] for r in data.to_pylist()) == [b"k2", b"\xff\xfe"]
    assert channel.dlq_lines() == []

    for key_converter, needle in (("AVRO", "use BYTE_ARRAY, STRING, AVRO_CONFLUENT, PROTOBUF_CONFLUENT or JSON_SCHEMA_CONFLUENT"),
                                  (7, "keyConverter")):
        body = {
            "channelName": "bad-key",
            "topicConfigurationList": [{
                "topicArn": topic_arn(channel.cluster_arn, channel.topic),
                "recordConverter": {"valueConverter": "BYTE_ARRAY",
                                    "keyConverter": key_converter}}],
            "icebergDestinationConfiguration": {
                "appendOnly": True, "serviceExecutionRoleArn": channel.role_arn,
                "dataFreshnessInSeconds": 1,
                "catalog": {"warehouseLocation": channel.bucket_arn},
                "deadLetterQueueS3": {"bucketArn": f"arn:aws:s3:::{channel.dlq_bucket}"},
                "destinationTableList": [{"destinationDatabaseName": "events",
                                          "destinationTableName": "bad_key",
                                          "partitionSpec": {"partitionStrategy": "TIME_HOUR"}}],
            },
        }
        r = server.signed_request(
            "POST", f"{server.api_url}/v1/clusters/{encoded(channel.cluster_arn)}/channels",
            service="kafka", body=json.dumps(body), headers={"Content-Type": "application/json"})
        assert r.status_code == 400, r.text
        assert needle in r.text, r.text
