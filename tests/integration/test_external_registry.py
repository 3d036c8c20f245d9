"""Channels that name an external Confluent-compatible schema registry
(issue 14 item 2): a second streamtables server's built-in registry plays the
external one. confluent-kafka's SchemaRegistryClient + AvroSerializer /
ProtobufSerializer register and frame against it (HTTP Basic with an access
key of that server); the channel server, started with
--external-registry-hosts naming it, resolves the ids there — never in its own
built-in registry, whose ids collide on purpose. Rows are read back field by
field with PyIceberg and DuckDB; an id the external registry does not know is
SCHEMA_NOT_FOUND in the DLQ; a host off the allow-list, a scheme other than
http(s) and a non-Confluent converter are refused at CreateChannel (https:
test_external_registry_tls.py); DescribeChannel never
shows the secret; wrong credentials (401) and missing permissions (403) stall
the channel with the reason in DescribeChannel and drop nothing, and once the
permission is granted the held records are delivered. The CLI creates and
updates such a channel (`--registry-url`, `--registry-key`, the secret from
ST_REGISTRY_SECRET)."""

import datetime as dt
import json
import urllib.parse
import uuid

import pytest

from harness import duckdb_engine
from harness.channels import (ChannelSetup, encoded, register_cluster, service_role_policy,
                              topic_arn)
from harness.server import StreamtablesServer
from test_avro_channel import produce, rows_of, wait_for
from test_iceberg_rest_engines import duckdb_attach
from test_protobuf_channel import message_classes

BASE = dt.datetime(2026, 12, 6, 9, 0, 0, tzinfo=dt.timezone.utc)
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)

ORDER = {"type": "record", "name": "Order", "namespace": "shop", "fields": [
    {"name": "id", "type": "long"},
    {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    {"name": "name", "type": "string"},
    {"name": "price", "type": "double"}]}

# Registered first in the channel server's own registry, so that its ids
# 1.. name this schema there while the external registry's 1.. name ORDER.
DECOY = {"type": "record", "name": "Decoy", "fields": [{"name": "decoy", "type": "string"},
                                                        {"name": "ts", "type": "long"}]}

COMMON = """
syntax = "proto3";
package shop;
message Address { string street = 1; int32 zip = 2; }
"""

SHIPMENT = """
syntax = "proto3";
package shop;
import "shop/common.proto";
message Shipment { int64 id = 1; string carrier = 2; shop.Address to = 3; repeated string tags = 4; }
"""

ALL_SCHEMAS = {"Version": "2012-10-17",
               "Statement": [{"Effect": "Allow", "Action": "schemaregistry:*", "Resource": "*"}]}


@pytest.fixture(scope="module")
def registry_server(tmp_path_factory, build_dir):
    """The external registry: a streamtables server of its own."""
    srv = StreamtablesServer(tmp_path_factory.mktemp("ext-registry"), build_dir,
                             name="external-registry").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def channel_server(tmp_path_factory, build_dir, registry_server):
    """The server whose channels name the external registry; only its host is allowed."""
    host = urllib.parse.urlsplit(registry_server.api_url).netloc
    srv = StreamtablesServer(tmp_path_factory.mktemp("ext-channels"), build_dir,
                             name="channel-server",
                             extra_args=["--external-registry-hosts", host]).start()
    yield srv
    srv.stop()


def registry_url(registry_server):
    return registry_server.api_url + "/schema-registry"


def external(registry_server, key, secret):
    return {"externalSchemaRegistry": {"url": registry_url(registry_server),
                                       "basicAuth": {"key": key, "secret": secret}}}


def sr_client(server, creds=None):
    from confluent_kafka.schema_registry import SchemaRegistryClient
    key, secret = (creds.access_key, creds.secret_key) if creds else (server.access_key,
                                                                       server.secret_key)
    return SchemaRegistryClient({"url": registry_url(server),
                                 "basic.auth.user.info": f"{key}:{secret}"})


def describe_raw(server, setup):
    r = server.signed_request(
        "GET", f"{server.api_url}/v1/clusters/{encoded(setup.cluster_arn)}/channels/"
               f"{encoded(setup.channel_arn)}", service="kafka")
    assert r.status_code == 200, r.text
    return r


def order(i):
    return {"id": i, "ts": BASE + dt.timedelta(minutes=i), "name": f"n{i}-é", "price": i + 0.5}


def test_create_channel_refuses_what_it_must(channel_server, registry_server, kafka, topic_name):
    """A host off the allow-list, another scheme, and a converter that has no Confluent
    ids: 400 naming the member and the fix, before anything is stored."""
    cluster = register_cluster(channel_server, kafka)
    allowed = urllib.parse.urlsplit(registry_server.api_url).netloc

    def create(converter, record_schema):
        body = {"channelName": f"ch-{abs(hash(json.dumps(record_schema))) % 10**8}",
                "topicConfigurationList": [{"topicArn": topic_arn(cluster, topic_name),
                                            "recordConverter": {"valueConverter": converter},
                                            "recordSchema": record_schema}],
                "icebergDestinationConfiguration": {
                    "appendOnly": True,
                    "serviceExecutionRoleArn":
                        f"arn:aws:iam::{channel_server.account_id}:role/r",
                    "catalog": {"warehouseLocation": channel_server.bucket_arn("nothere")},
                    "deadLetterQueueS3": {"bucketArn": "arn:aws:s3:::dlq"},
                    "destinationTableList": [{"destinationDatabaseName": "ns",
                                              "destinationTableName": "t"}],
                    "schemaEvolution": {"enableSchemaEvolution": False},
                    "tableCreation": {"enableTableCreation": True}}}
        r = channel_server.signed_request(
            "POST", f"{channel_server.api_url}/v1/clusters/{encoded(cluster)}/channels",
            service="kafka", body=json.dumps(body), headers={"Content-Type": "application/json"})
        return r.status_code, r.json().get("message", "")

    host, port = allowed.rsplit(":", 1)
    other = f"http://{host}:{int(port) + 1 if int(port) < 65535 else 1}/schema-registry"
    status, message = create("AVRO_CONFLUENT", {"externalSchemaRegistry": {"url": other}})
    assert status == 400 and "--external-registry-hosts" in message, message
    assert f"{host}:{int(port) + 1 if int(port) < 65535 else 1}" in message
    # The metadata address of a cloud host is not reachable either.
    status, message = create("JSON_SCHEMA_CONFLUENT",
                             {"externalSchemaRegistry": {"url": "http://169.254.169.254/"}})
    assert status == 400 and "--external-registry-hosts" in message, message
    status, message = create("PROTOBUF_CONFLUENT",
                             {"externalSchemaRegistry": {"url": f"ftp://{allowed}/sr"}})
    assert status == 400 and "must start with http:// or https://" in message, message
    status, message = create("STRING", {"externalSchemaRegistry": {"url": f"http://{allowed}"}})
    assert status == 400 and "only for the AVRO_CONFLUENT" in message, message


def test_avro_and_protobuf_through_the_external_registry(channel_server, registry_server, kafka,
                                                         topic_name, tmp_path):
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    # Ids collide across the two registries: the channel server's own
    # registry gets DECOY (and a Protobuf decoy) first.
    local = sr_client(channel_server)
    decoy_ids = [local.register_schema(f"decoy-{i}", _avro(DECOY, i)) for i in range(3)]
    assert decoy_ids == [1, 2, 3], decoy_ids

    sr = sr_client(registry_server)
    avro_topic, proto_topic = topic_name, topic_name + "-pb"
    kafka.create_topic(avro_topic, partitions=2)
    kafka.create_topic(proto_topic, partitions=2)
    key, secret = registry_server.access_key, registry_server.secret_key
    avro = ChannelSetup.create(channel_server, kafka, avro_topic, converter="AVRO_CONFLUENT",
                               record_schema=external(registry_server, key, secret))
    proto = ChannelSetup.create(channel_server, kafka, proto_topic,
                                converter="PROTOBUF_CONFLUENT", partition_source=None,
                                record_schema=external(registry_server, key, secret))
    avro.wait_status("ACTIVE")
    proto.wait_status("ACTIVE")

    # DescribeChannel shows the URL and the key, never the secret (nor its sealed form).
    for setup in (avro, proto):
        raw = describe_raw(channel_server, setup)
        assert secret not in raw.text and "sealedSecret" not in raw.text
        shown = raw.json()["topicConfigurationList"][0]["recordSchema"]
        assert shown == {"externalSchemaRegistry": {"url": registry_url(registry_server),
                                                    "basicAuth": {"key": key}}}
    assert secret not in channel_server.log_path.read_text()

    # ---- Avro: the external registry's id 1 is ORDER; the local one's is DECOY.
    avro_ctx = SerializationContext(avro_topic, MessageField.VALUE)
    serializer = AvroSerializer(sr, json.dumps(ORDER))
    values = [serializer(order(i), avro_ctx) for i in range(10)]
    assert int.from_bytes(values[0][1:5], "big") in decoy_ids  # Names DECOY locally.
    produced = {po: ("row", i) for po, i in zip(produce(kafka, avro_topic, values), range(10))}
    unknown = b"\x00" + (4242).to_bytes(4, "big") + values[0][5:]
    for po in produce(kafka, avro_topic, [unknown]):
        produced[po] = ("dlq", "SCHEMA_NOT_FOUND")
    later = [serializer(order(i), avro_ctx) for i in range(10, 15)]
    for po, i in zip(produce(kafka, avro_topic, later), range(10, 15)):
        produced[po] = ("row", i)
    wait_for(lambda: len(rows_of(avro)) >= 15 and avro.dlq_lines(), what="avro rows and DLQ")

    got = sorted(rows_of(avro), key=lambda r: r["id"])
    assert [r["id"] for r in got] == list(range(15))
    for row in got:
        want = order(row["id"])
        assert (row["ts"], row["name"], row["price"]) == (want["ts"], want["name"], want["price"])
        assert "decoy" not in row
    lines = avro.dlq_lines()
    assert [line["errorCode"] for line in lines] == ["SCHEMA_NOT_FOUND"]
    in_table = [(r["_kafka"]["partition"], r["_kafka"]["offset"]) for r in got]
    in_dlq = [(line["partition"], line["offset"]) for line in lines]
    assert sorted(in_table + in_dlq) == sorted(produced)

    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    duckdb_attach(duck, channel_server, avro.bucket_arn)
    duck_rows = duck.execute(f"SELECT id, epoch_us(ts), name, price "
                             f"FROM st.{avro.namespace}.{avro.table} ORDER BY id").fetchall()
    micros = [int((order(i)["ts"] - EPOCH).total_seconds()) * 1_000_000 for i in range(15)]
    assert duck_rows == [(i, micros[i], order(i)["name"], order(i)["price"]) for i in range(15)]

    # ---- Protobuf: the import is a schema reference, resolved through
    # /subjects/{s}/versions/{v} of the external registry.
    (shipment,) = message_classes(tmp_path, {"shop/common.proto": COMMON,
                                             "shop/shipment.proto": SHIPMENT}, ["shop.Shipment"])
    pser = ProtobufSerializer(shipment, sr, {"use.deprecated.format": False})
    proto_ctx = SerializationContext(proto_topic, MessageField.VALUE)

    def ship(i):
        m = shipment(id=i, carrier=f"c{i}", tags=[f"t{i}", "x"])
        m.to.street = f"street {i}"
        m.to.zip = 1000 + i
        return m
    framed = [pser(ship(i), proto_ctx) for i in range(6)]
    produce(kafka, proto_topic, framed)
    proto_id = int.from_bytes(framed[0][1:5], "big")
    assert proto_id in decoy_ids  # An Avro DECOY in the channel server's own registry.
    assert [r.name for r in sr.get_schema(proto_id).references] == ["shop/common.proto"]
    wait_for(lambda: len(rows_of(proto)) >= 6, what="protobuf rows")
    prow = sorted(rows_of(proto), key=lambda r: r["id"])
    assert [(r["id"], r["carrier"], r["to"], r["tags"]) for r in prow] == [
        (i, f"c{i}", {"street": f"street {i}", "zip": 1000 + i}, [f"t{i}", "x"]) for i in range(6)]
    duckdb_attach(duck, channel_server, proto.bucket_arn, alias="pb")
    assert duck.execute(f"SELECT id, carrier, \"to\".zip FROM pb.{proto.namespace}.{proto.table} "
                        f"ORDER BY id").fetchall() == [(i, f"c{i}", 1000 + i) for i in range(6)]
    assert proto.dlq_lines() == []


def test_bad_credentials_stall_the_channel_and_drop_nothing(channel_server, registry_server,
                                                            kafka, topic_name):
    """401 (a wrong secret) and 403 (a key without schemaregistry permissions)
    are transient: no rows, nothing in the DLQ, the reason in DescribeChannel.
    Granting the permission lets the held records through."""
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=1)
    user = f"reader-{uuid.uuid4().hex[:8]}"
    no_rights = registry_server.create_user_with_policy(user)
    wrong = ChannelSetup.create(channel_server, kafka, topic_name, converter="AVRO_CONFLUENT",
                                record_schema=external(registry_server,
                                                       registry_server.access_key, "wrong"))
    denied = ChannelSetup.create(channel_server, kafka, topic_name, converter="AVRO_CONFLUENT",
                                 record_schema=external(registry_server, no_rights.access_key,
                                                        no_rights.secret_key))
    wrong.wait_status("ACTIVE")
    denied.wait_status("ACTIVE")
    ctx = SerializationContext(topic_name, MessageField.VALUE)
    serializer = AvroSerializer(sr_client(registry_server), json.dumps(ORDER))
    produce(kafka, topic_name, [serializer(order(i), ctx) for i in range(5)])

    def reason(setup, needle):
        info = describe_raw(channel_server, setup).json().get("stateInfo", {})
        return needle in info.get("message", "") and info
    info = wait_for(lambda: reason(wrong, "401 Unauthorized"), timeout_s=60, what="401 reason")
    assert info["code"] == "DELIVERY_STALLED"
    assert f"external schema registry {registry_url(registry_server)}" in info["message"]
    info = wait_for(lambda: reason(denied, "403 Forbidden"), timeout_s=60, what="403 reason")
    assert "wrong" not in info["message"] and no_rights.secret_key not in info["message"]
    for setup in (wrong, denied):
        assert rows_of(setup) == [] and setup.dlq_lines() == []
    assert "401 Unauthorized" in channel_server.log_path.read_text()

    # The registry's owner grants the key read access: the held records arrive.
    registry_server.admin("PUT", f"/users/{user}/policies/inline",
                          {"policyDocument": json.dumps(ALL_SCHEMAS)})
    wait_for(lambda: len(rows_of(denied)) >= 5, what="rows after the grant")
    assert sorted(r["id"] for r in rows_of(denied)) == list(range(5))
    assert denied.dlq_lines() == []
    assert rows_of(wrong) == [] and wrong.dlq_lines() == []

    # The wrong secret fixed on the channel itself (UpdateChannel's
    # externalSchemaRegistryUpdate): sealed again, never echoed; the held
    # records arrive, each once.
    def update(body):
        return channel_server.signed_request(
            "PUT", f"{channel_server.api_url}/v1/clusters/{encoded(wrong.cluster_arn)}/channels/"
                   f"{encoded(wrong.channel_arn)}", service="kafka", body=json.dumps(body),
            headers={"Content-Type": "application/json"})
    r = update({"externalSchemaRegistryUpdate": {"url": "ftp://nowhere"}})
    assert r.status_code == 400 and r.json()["invalidParameter"] == "url", r.text
    fixed = external(registry_server, registry_server.access_key, registry_server.secret_key)
    r = update({"externalSchemaRegistryUpdate": fixed["externalSchemaRegistry"]})
    assert r.status_code == 200, r.text
    wait_for(lambda: len(rows_of(wrong)) >= 5, what="rows after the credentials update")
    assert sorted(r["id"] for r in rows_of(wrong)) == list(range(5))
    assert wrong.dlq_lines() == []
    shown = describe_raw(channel_server, wrong).text
    assert registry_server.secret_key not in shown and "sealedSecret" not in shown
    assert "wrong" not in shown


def test_cli_creates_and_updates_a_channel_on_an_external_registry(
        channel_server, registry_server, kafka, topic_name, monkeypatch):
    """`streamtables channel create --registry-url --registry-key` (the secret
    from ST_REGISTRY_SECRET, never the command line) makes an AVRO_CONFLUENT
    channel on the external registry; with a wrong secret it stalls on 401,
    and `channel update --registry-url --registry-key` with the right one
    lets the held records through, each once. The secret is never shown."""
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    kafka.create_topic(topic_name, partitions=1)
    suffix = uuid.uuid4().hex[:8]
    cluster = f"cli-{suffix}"
    cluster_arn = channel_server.cli("cluster", "register", cluster, "--bootstrap-servers",
                                     kafka.bootstrap).stdout.strip()
    bucket, dlq, name, table = f"stream-{suffix}", f"dlq-{suffix}", f"ch-{suffix}", f"t_{suffix}"
    channel_server.boto3_client("s3tables").create_table_bucket(name=bucket)
    channel_server.boto3_client("s3").create_bucket(Bucket=dlq)
    role = channel_server.create_role_with_policy(
        f"cli-role-{suffix}",
        service_role_policy(channel_server.region, channel_server.account_id, bucket, dlq))
    url = registry_url(registry_server)
    key = registry_server.access_key

    def create(*extra, check=True):
        return channel_server.cli(
            "channel", "create", "--cluster", cluster, "--name", name, "--topic", topic_name,
            "--bucket", bucket, "--namespace", "shop", "--table", table,
            "--format", "avro-confluent", "--partition-source", "ts", "--freshness", "1",
            "--dlq-bucket", dlq, "--dlq-prefix", "errors/", "--role-arn", role.arn, *extra,
            check=check)

    monkeypatch.delenv("ST_REGISTRY_SECRET", raising=False)
    no_secret = create("--registry-url", url, "--registry-key", key, check=False)
    assert no_secret.returncode != 0 and "ST_REGISTRY_SECRET" in no_secret.stderr, no_secret
    monkeypatch.setenv("ST_REGISTRY_SECRET", "wrong-secret")
    arn = create("--registry-url", url, "--registry-key", key).stdout.strip()
    setup = ChannelSetup(channel_server, kafka, topic_name, cluster_arn, arn, name,
                         channel_server.bucket_arn(bucket), bucket, "shop", table, dlq,
                         "errors/", role.arn)
    setup.wait_status("ACTIVE")
    shown = channel_server.cli("channel", "describe", "--cluster", cluster, name,
                               "--json").stdout
    registry = json.loads(shown)["topicConfigurationList"][0]["recordSchema"][
        "externalSchemaRegistry"]
    assert registry == {"url": url, "basicAuth": {"key": key}}, shown
    assert "wrong-secret" not in shown

    ctx = SerializationContext(topic_name, MessageField.VALUE)
    serializer = AvroSerializer(sr_client(registry_server), json.dumps(ORDER))
    produce(kafka, topic_name, [serializer(order(i), ctx) for i in range(3)])
    wait_for(lambda: "401 Unauthorized" in describe_raw(channel_server, setup).json().get(
        "stateInfo", {}).get("message", ""), timeout_s=60, what="the 401 stall")
    assert rows_of(setup) == [] and setup.dlq_lines() == []

    neither = channel_server.cli("channel", "update", "--cluster", cluster, name, check=False)
    assert neither.returncode != 0 and "--registry-url" in neither.stderr, neither
    monkeypatch.setenv("ST_REGISTRY_SECRET", registry_server.secret_key)
    updated = channel_server.cli("channel", "update", "--cluster", cluster, name,
                                 "--registry-url", url, "--registry-key", key)
    assert "updating" in updated.stdout
    wait_for(lambda: len(rows_of(setup)) >= 3, what="rows after the CLI update")
    assert sorted(r["id"] for r in rows_of(setup)) == [0, 1, 2]
    assert setup.dlq_lines() == []
    shown = channel_server.cli("channel", "describe", "--cluster", cluster, name,
                               "--json").stdout
    assert registry_server.secret_key not in shown and "sealedSecret" not in shown


def _avro(schema, i):
    from confluent_kafka.schema_registry import Schema
    doc = dict(schema)
    doc["name"] = f"{schema['name']}{i}"
    return Schema(json.dumps(doc), "AVRO")
