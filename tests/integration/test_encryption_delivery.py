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
from botocore.config import Config

from harness.channels import ChannelSetup, register_cluster, service_role_policy

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
    for needle in (marker.encode(), base64.b64encode(dead)):
        on_disk = [p for p in server.data_dir.rglob("*")
                   if p.is_file() and needle in p.read_bytes()]
        assert on_disk == [], needle

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
