"""A delivery channel into an SSE-KMS table bucket (issue 11 item 3): the
service role needs kms:GenerateDataKey and kms:Decrypt on the key; nothing
the channel writes (data, manifests, metadata, dead letters) is plaintext on
disk; DisableKey suspends the channel with a reason naming the key, and
EnableKey resumes it with no gap and no duplicate."""

import base64
import json
import time
import uuid

import boto3
import pytest
from botocore.config import Config

from harness import duckdb_engine
from harness.backends import StoredObjects
from harness.channels import ChannelSetup, register_cluster, service_role_policy
from iceberg_rest_clients import pyiceberg_catalog
from test_encryption_at_rest import example_policy_users
from test_iceberg_rest_engines import duckdb_attach, spark_catalog

SCHEMA = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"},
                   "name": {"type": "string"}},
    "required": ["id", "ts"],
}


def rows(marker, start, n):
    return [json.dumps({"id": i, "ts": f"2026-11-30T10:{i % 60:02d}:00Z",
                        "name": f"{marker}-{i}"}).encode() for i in range(start, start + n)]


def kms(server):
    return server.boto3_client("kms", None)


def kms_channel(server, kafka, topic, key_arn, grant_kms, cluster):
    suffix = uuid.uuid4().hex[:8]
    bucket_name, dlq = f"kms-{suffix}", f"dlq-{suffix}"
    bucket_arn = server.boto3_client("s3tables").create_table_bucket(name=bucket_name)["arn"]
    server.boto3_client("s3tables").put_table_bucket_encryption(
        tableBucketARN=bucket_arn,
        encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": key_arn})
    policy = service_role_policy(server.region, server.account_id, bucket_name, dlq)
    if grant_kms:
        policy["Statement"].append({"Sid": "TableKey", "Effect": "Allow",
                                    "Action": ["kms:GenerateDataKey", "kms:Decrypt"],
                                    "Resource": [key_arn]})
    return ChannelSetup.create(server, kafka, topic, schema=SCHEMA, freshness=1,
                               cluster_arn=cluster, create_bucket=False,
                               bucket_name=bucket_name, bucket_arn=bucket_arn, dlq_bucket=dlq,
                               role_policy=policy)


def test_kms_channel_encrypts_suspends_on_disabled_key_and_resumes(server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=2)
    client = kms(server)
    key = client.create_key(Description="stream key")["KeyMetadata"]
    cluster = register_cluster(server, kafka)
    setup = kms_channel(server, kafka, topic_name, key["Arn"], True, cluster)
    setup.wait_status("ACTIVE")
    marker = "MARKER-DELIVERY-" + uuid.uuid4().hex
    kafka.produce(topic_name, rows(marker, 0, 30))
    # Not JSON: a dead letter (SSE-S3 in its general-purpose bucket), whose
    # line carries the value in base64.
    dead = b"not json " + marker.encode()
    kafka.produce(topic_name, [dead])
    setup.wait_rows(30)
    deadline = time.monotonic() + 60
    while not [line for line in setup.dlq_lines() if line["value"] == base64.b64encode(dead).decode()]:
        assert time.monotonic() < deadline, "the dead letter never arrived"
        time.sleep(0.5)
    stored = list(StoredObjects(server).every_object())  # s3proxy's objects on postgres+s3
    assert any(uri.endswith(".parquet") for uri, _ in stored)
    for needle in (marker.encode(), base64.b64encode(dead)):
        on_disk = [p for p in server.data_dir.rglob("*")
                   if p.is_file() and needle in p.read_bytes()]
        assert on_disk == [], needle
        assert [uri for uri, data in stored if needle in data] == [], needle

    client.disable_key(KeyId=key["KeyId"])
    kafka.produce(topic_name, rows(marker, 30, 30))
    suspended = setup.wait_status("SUSPENDED", timeout_s=60)
    assert suspended["StateInfo"]["Code"] == "ACCESS_DENIED"
    assert key["Arn"] in suspended["StateInfo"]["Message"]
    assert "KMS.DisabledException" in suspended["StateInfo"]["Message"]

    client.enable_key(KeyId=key["KeyId"])
    setup.wait_status("ACTIVE", timeout_s=60)
    data = setup.wait_rows(60, timeout_s=120)
    ids = sorted(data.column("id").to_pylist())
    assert ids == list(range(60)), "a gap or a duplicate across the suspension"


def test_role_without_kms_permission_suspends_naming_key_and_action(server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=1)
    key = kms(server).create_key(Description="no grant")["KeyMetadata"]
    setup = kms_channel(server, kafka, topic_name, key["Arn"], False,
                        register_cluster(server, kafka))
    # ACTIVE first: a channel delivers what is produced after it starts.
    setup.wait_status("ACTIVE", "SUSPENDED")
    kafka.produce(topic_name, rows("x", 0, 5))
    suspended = setup.wait_status("SUSPENDED", timeout_s=60)
    message = suspended["StateInfo"]["Message"]
    assert suspended["StateInfo"]["Code"] == "ACCESS_DENIED"
    assert "kms:GenerateDataKey" in message and key["Arn"] in message


def test_channel_table_reads_with_exactly_the_example_policy_and_kms_decrypt(
        server, kafka, topic_name, spark):
    """The product definition's query policy (both statements, our ARNs) reads
    a channel's SSE-KMS table in PyIceberg, Spark and DuckDB; without its kms
    statement the data files are 403, without its s3tables statement the
    table cannot even be loaded; a disabled key fails the readers until it is
    enabled again."""
    kafka.create_topic(topic_name, partitions=2)
    key = kms(server).create_key(Description="query key")["KeyMetadata"]
    setup = kms_channel(server, kafka, topic_name, key["Arn"], True,
                        register_cluster(server, kafka))
    setup.wait_status("ACTIVE")
    kafka.produce(topic_name, rows("q", 0, 40))
    setup.wait_rows(40)
    full, no_kms, only_kms = example_policy_users(server, setup.bucket_arn, key["Arn"])
    name = f"{setup.namespace}.{setup.table}"
    expected = list(range(40))

    def pyiceberg_ids(creds, tag):
        table = pyiceberg_catalog(server, setup.bucket_arn, creds=creds, name=tag).load_table(name)
        return sorted(table.scan().to_arrow().column("id").to_pylist())

    assert pyiceberg_ids(full, "full") == expected
    with pytest.raises(OSError):
        pyiceberg_ids(no_kms, "nokms")
    with pytest.raises(Exception) as info:
        pyiceberg_ids(only_kms, "onlykms")
    assert "403" in str(info.value) or "not authorized" in str(info.value).lower()

    cat = spark_catalog(spark, server, setup.bucket_arn, creds=full)
    assert sorted(r["id"] for r in spark.table(f"{cat}.{name}").collect()) == expected
    cat = spark_catalog(spark, server, setup.bucket_arn, creds=no_kms)
    with pytest.raises(Exception) as info:
        spark.table(f"{cat}.{name}").collect()
    assert "403" in str(info.value) or "Access Denied" in str(info.value)

    for creds, allowed in ((full, True), (no_kms, False)):
        conn = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
        try:
            duckdb_attach(conn, server, setup.bucket_arn, alias="st", creds=creds)
            query = f"SELECT id FROM st.{name} ORDER BY id"
            if allowed:
                assert [r[0] for r in conn.execute(query).fetchall()] == expected
            else:
                with pytest.raises(Exception) as info:
                    conn.execute(query).fetchall()
                assert "403" in str(info.value) or "AccessDenied" in str(info.value)
        finally:
            conn.close()

    # DisableKey: the same reader fails at once; EnableKey: it reads again.
    kms(server).disable_key(KeyId=key["KeyId"])
    try:
        # The metadata is sealed under the key too: loading the table fails,
        # naming the key.
        with pytest.raises(Exception) as info:
            pyiceberg_ids(full, "disabled")
        assert key["Arn"] in str(info.value) and "Disabled" in str(info.value)
    finally:
        kms(server).enable_key(KeyId=key["KeyId"])
    assert pyiceberg_ids(full, "enabled") == expected
