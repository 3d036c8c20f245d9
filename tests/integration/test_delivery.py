"""The delivery runtime against a real Kafka broker: a channel records the
topic's end offsets when it becomes ACTIVE (no backfill), delivers later
records to its streaming table partitioned by hour, exactly once per
(partition, offset), sends poison records to the S3 dead-letter queue with
their reasons, fails with ACCESS_DENIED when its service role lacks a
permission, and exposes Prometheus metrics at /metrics.

Set-up goes through the public APIs only (harness/channels.py); rows are read
back with PyIceberg through the Iceberg REST catalog.
"""

import datetime as dt
import json
import re
import time
import uuid

import pytest

import harness.channels
from harness.channels import ChannelSetup

SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "ts": {"type": "string", "format": "date-time"},
        "name": {"type": "string"},
        "amount": {"type": "number"},
        "nested": {"type": "object", "properties": {"a": {"type": "string"},
                                                    "b": {"type": "array",
                                                          "items": {"type": "integer"}}}},
    },
    "required": ["id", "ts", "name"],
}

BASE = dt.datetime(2026, 11, 30, 6, 0, 0, tzinfo=dt.timezone.utc)


def _pascal(value):
    """boto3 takes the channel shapes with PascalCase member names (botocore
    serializes them to the camelCase wire keys)."""
    if isinstance(value, dict):
        return {k[:1].upper() + k[1:]: _pascal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_pascal(v) for v in value]
    return value


class _PascalKafka:
    def __init__(self, client):
        self._client = client

    def create_channel(self, **kwargs):
        return self._client.create_channel(**{k: _pascal(v) for k, v in kwargs.items()})

    def __getattr__(self, name):
        return getattr(self._client, name)


@pytest.fixture(autouse=True)
def pascal_case_channel_bodies(monkeypatch):
    original = harness.channels.kafka_client
    monkeypatch.setattr(harness.channels, "kafka_client",
                        lambda server, creds=None: _PascalKafka(original(server, creds)))


def record(i: int) -> dict:
    r = {"id": i, "ts": (BASE + dt.timedelta(minutes=13 * i)).isoformat().replace("+00:00", "Z"),
         "name": f"n{i}"}
    if i % 2:
        r["amount"] = i * 0.5
        r["nested"] = {"a": f"a{i}", "b": [i, i + 1]}
    return r


def as_row(r: dict) -> dict:
    nested = r.get("nested")
    return {"id": r["id"], "ts": dt.datetime.fromisoformat(r["ts"].replace("Z", "+00:00")),
            "name": r["name"], "amount": r.get("amount"),
            "nested": None if nested is None else {"a": nested["a"], "b": nested["b"]}}


def produce(kafka, topic, values):
    kafka.produce(topic, values, keys=[f"k{i}".encode() for i in range(len(values))])


def wait_dlq(channel, count, timeout_s=60.0):
    deadline = time.monotonic() + timeout_s
    lines = []
    while time.monotonic() < deadline:
        lines = channel.dlq_lines()
        if len(lines) >= count:
            return lines
        time.sleep(0.3)
    raise AssertionError(f"DLQ has {len(lines)} lines, expected {count}")


def test_no_backfill_rows_field_by_field_hourly_partitions_and_offsets(server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=2)
    before = [record(1000 + i) for i in range(7)]
    produce(kafka, topic_name, [json.dumps(r).encode() for r in before])
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1)
    channel.wait_status("ACTIVE")
    ends_at_create = kafka.end_offsets(topic_name)
    assert sum(ends_at_create.values()) == len(before)

    after = [record(i) for i in range(40)]
    produce(kafka, topic_name, [json.dumps(r).encode() for r in after])
    data = channel.wait_rows(len(after))
    time.sleep(2.5)  # A second commit would show up as duplicates.
    data = channel.read_arrow()
    assert data.num_rows == len(after)
    got = sorted(({k: row[k] for k in ("id", "ts", "name", "amount", "nested")}
                  for row in data.to_pylist()), key=lambda r: r["id"])
    for row in got:
        row["ts"] = row["ts"].astimezone(dt.timezone.utc)
    assert got == [as_row(r) for r in after]

    # Every (partition, offset) once, all after the offsets recorded at creation.
    meta = data.column("_kafka").to_pylist()
    pairs = [(m["partition"], m["offset"]) for m in meta]
    assert len(set(pairs)) == len(after)
    for partition, offset in pairs:
        assert offset >= ends_at_create.get(partition, 0)

    table = channel.load_table()
    assert [f.transform.__class__.__name__ for f in table.spec().fields] == ["HourTransform"]
    hours = {r["ts"].replace(minute=0, second=0, microsecond=0) for r in got}
    assert len(table.inspect.partitions()) == len(hours)
    summaries = [s.summary.additional_properties for s in table.snapshots()]
    assert all(s["streamtables.channel-arn"] == channel.channel_arn for s in summaries)
    delivered = {}
    for s in summaries:
        for part in s["streamtables.kafka-offsets"].split(","):
            p, rng = part.split(":")
            lo, hi = (int(x) for x in rng.split("-"))
            delivered.setdefault(int(p), []).append((lo, hi))
    end = kafka.end_offsets(topic_name)
    for p, ranges in delivered.items():
        ranges.sort()
        assert ranges[0][0] == ends_at_create.get(p, 0)
        for (_, hi), (lo, _) in zip(ranges, ranges[1:]):
            assert hi == lo, f"gap or overlap in partition {p}: {ranges}"
        assert ranges[-1][1] == end[p]

    metrics = channel.metrics_text()
    sample = re.search(r'streamtables_delivery_rows_successful_total\{[^}]*channel="'
                       + re.escape(channel.channel_name) + r'"[^}]*\} (\d+)', metrics)
    assert sample and int(sample.group(1)) == len(after), metrics


def test_poison_records_land_in_the_dlq_and_rows_plus_dlq_equal_produced(server, kafka,
                                                                           topic_name):
    kafka.create_topic(topic_name, partitions=1)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1)
    channel.wait_status("ACTIVE")
    good = [record(i) for i in range(12)]
    poison = {
        "MALFORMED_JSON": b"{not json",
        "MISSING_REQUIRED_FIELD": json.dumps({"id": 1, "ts": "2026-11-30T06:00:00Z"}).encode(),
        "TYPE_MISMATCH": json.dumps({"id": "one", "ts": "2026-11-30T06:00:00Z",
                                     "name": "x"}).encode(),
        "MISSING_PARTITION_VALUE": json.dumps({"id": 2, "name": "x"}).encode(),
    }
    values = [json.dumps(r).encode() for r in good[:6]] + list(poison.values()) + \
        [json.dumps(r).encode() for r in good[6:]]
    produce(kafka, topic_name, values)
    data = channel.wait_rows(len(good))
    lines = wait_dlq(channel, len(poison))
    assert data.num_rows == len(good)
    assert sorted(line["errorCode"] for line in lines) == sorted(poison)
    by_code = {line["errorCode"]: line for line in lines}
    import base64

    for code, value in poison.items():
        line = by_code[code]
        assert base64.b64decode(line["value"]) == value
        assert line["errorMessage"]
        assert line["topic"] == topic_name
        assert line["channelArn"] == channel.channel_arn
        assert line["partition"] == 0
        assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["timestamp"])
    assert by_code["MISSING_REQUIRED_FIELD"]["errorMessage"].find("name") >= 0

    delivered = {m["offset"] for m in data.column("_kafka").to_pylist()}
    failed = {line["offset"] for line in lines}
    assert not delivered & failed
    assert delivered | failed == set(range(len(values)))

    s3 = server.boto3_client("s3")
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=channel.dlq_bucket)["Contents"]]
    assert all(k.startswith(f"errors/{channel.channel_name}/") and k.endswith(".jsonl")
               for k in keys), keys


def test_service_role_without_create_table_fails_naming_the_action(server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=1)
    suffix = uuid.uuid4().hex[:6]
    dlq = "arn:aws:s3:::*"
    policy = {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:PutObject"], "Resource": [dlq]},
        {"Effect": "Allow", "Action": ["s3tables:GetTable"], "Resource": ["*"]}]}
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1,
                                  role_policy=policy, table=f"denied_{suffix}")
    described = channel.wait_status("FAILED", "ACTIVE")
    assert described["Status"] == "FAILED", described
    assert described["StateInfo"]["Code"] == "ACCESS_DENIED"
    assert "s3tables:CreateTable" in described["StateInfo"]["Message"]
    assert channel.bucket_arn in described["StateInfo"]["Message"]


def test_json_schema_gsr_records_framed_plain_and_zlib(server, kafka, topic_name):
    import zlib

    from harness.channels import glue_client, register_json_schema

    kafka.create_topic(topic_name, partitions=1)
    schema_arn = register_json_schema(server, f"gsr-{uuid.uuid4().hex[:6]}", SCHEMA)
    version_id = glue_client(server).get_schema_version(
        SchemaId={"SchemaArn": schema_arn},
        SchemaVersionNumber={"LatestVersion": True})["SchemaVersionId"]
    channel = ChannelSetup.create(server, kafka, topic_name, converter="JSON_SCHEMA_GSR",
                                  freshness=1)
    channel.wait_status("ACTIVE")

    def framed(r: dict, compress: bool = False, version: str = version_id) -> bytes:
        payload = json.dumps(r).encode()
        if compress:
            payload = zlib.compress(payload)
        return bytes([3, 5 if compress else 0]) + uuid.UUID(version).bytes + payload

    good = [record(i) for i in range(8)]
    values = [framed(r, compress=i % 2 == 1) for i, r in enumerate(good)]
    values += [json.dumps(record(100)).encode(),              # no GSR header
               framed(record(101), version=str(uuid.uuid4()))]  # unknown version
    produce(kafka, topic_name, values)
    data = channel.wait_rows(len(good))
    lines = wait_dlq(channel, 2)
    got = sorted((row["id"], row["name"]) for row in data.to_pylist())
    assert got == [(r["id"], r["name"]) for r in good]
    assert sorted(line["errorCode"] for line in lines) == ["MISSING_GSR_HEADER",
                                                           "SCHEMA_NOT_FOUND"]
    assert {line["offset"] for line in lines} == {8, 9}
