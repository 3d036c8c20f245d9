"""Encryption configurations are checked when they are set (issue 11,
"bad input"): PutTableBucketEncryption, CreateTableBucket and CreateTable
refuse an algorithm other than AES256 / aws:kms, an aws:kms configuration
whose kmsKeyArn is malformed, of another region or account, unknown,
disabled or pending deletion, and a key the caller may not use; each with
the S3 Tables error shape, and nothing changes."""

import json
import uuid

import pytest
from botocore.exceptions import ClientError

from iceberg_rest_clients import new_bucket


def failure(call, **kwargs):
    """(HTTP status, error code, message) of a call that must fail."""
    with pytest.raises(ClientError) as info:
        call(**kwargs)
    r = info.value.response
    return r["ResponseMetadata"]["HTTPStatusCode"], r["Error"]["Code"], r["Error"]["Message"]


def kms_config(arn):
    return {"sseAlgorithm": "aws:kms", "kmsKeyArn": arn}


@pytest.fixture(scope="module")
def s3t(server):
    return server.boto3_client("s3tables")


@pytest.fixture(scope="module")
def kms(server):
    return server.boto3_client("kms")


def bad_configs(server, kms):
    """(configuration, text the message must contain) for every refused case."""
    prefix = f"arn:aws:kms:{server.region}:{server.account_id}:key/"
    missing = prefix + str(uuid.uuid4())
    disabled = kms.create_key(Description="disabled")["KeyMetadata"]
    kms.disable_key(KeyId=disabled["KeyId"])
    doomed = kms.create_key(Description="doomed")["KeyMetadata"]
    kms.schedule_key_deletion(KeyId=doomed["KeyId"], PendingWindowInDays=7)
    good = kms.create_key(Description="good")["KeyMetadata"]["Arn"]
    other_region = good.replace(f":{server.region}:", ":eu-west-3:")
    other_account = good.replace(f":{server.account_id}:", ":999988887777:")
    return [
        ({"sseAlgorithm": "aws:kms:dsse", "kmsKeyArn": good}, "aws:kms:dsse"),
        ({"sseAlgorithm": "AES256", "kmsKeyArn": good}, "kmsKeyArn"),
        ({"sseAlgorithm": "aws:kms"}, "kmsKeyArn"),
        (kms_config("alias/not-an-arn"), "kmsKeyArn"),
        (kms_config(other_region), other_region),
        (kms_config(other_account), other_account),
        (kms_config(missing), missing),
        (kms_config(disabled["Arn"]), "disabled"),
        (kms_config(doomed["Arn"]), "pending deletion"),
    ]


def test_put_table_bucket_encryption_checks_the_key(server, s3t, kms):
    arn = new_bucket(server, "encconf")
    for config, text in bad_configs(server, kms):
        status, code, message = failure(s3t.put_table_bucket_encryption, tableBucketARN=arn,
                                        encryptionConfiguration=config)
        assert (status, code) == (400, "BadRequestException"), (config, message)
        assert text in message, (config, message)
        assert s3t.get_table_bucket_encryption(tableBucketARN=arn)[
            "encryptionConfiguration"] == {"sseAlgorithm": "AES256"}

    # The wire form: x-amzn-ErrorType plus a {"__type", "message"} body.
    missing = f"arn:aws:kms:{server.region}:{server.account_id}:key/{uuid.uuid4()}"
    from urllib.parse import quote
    raw = server.signed_request(
        "PUT", server.api_url + "/buckets/" + quote(arn, safe="") + "/encryption",
        body=json.dumps({"encryptionConfiguration": kms_config(missing)}),
        headers={"Content-Type": "application/json"})
    assert raw.status_code == 400
    assert raw.headers["x-amzn-ErrorType"] == "BadRequestException"
    assert raw.json()["__type"] == "BadRequestException"
    assert missing in raw.json()["message"]

    # A disabled key works again once enabled.
    key = kms.create_key()["KeyMetadata"]
    kms.disable_key(KeyId=key["KeyId"])
    assert failure(s3t.put_table_bucket_encryption, tableBucketARN=arn,
                   encryptionConfiguration=kms_config(key["Arn"]))[:2] == (
        400, "BadRequestException")
    kms.enable_key(KeyId=key["KeyId"])
    s3t.put_table_bucket_encryption(tableBucketARN=arn,
                                    encryptionConfiguration=kms_config(key["Arn"]))
    assert s3t.get_table_bucket_encryption(tableBucketARN=arn)[
        "encryptionConfiguration"] == kms_config(key["Arn"])


def test_create_table_bucket_and_table_check_the_key(server, s3t, kms):
    arn = new_bucket(server, "encconf")
    s3t.create_namespace(tableBucketARN=arn, namespace=["ns"])
    for i, (config, text) in enumerate(bad_configs(server, kms)):
        name = f"encconf-{uuid.uuid4().hex[:10]}"
        status, code, message = failure(s3t.create_table_bucket, name=name,
                                        encryptionConfiguration=config)
        assert (status, code) == (400, "BadRequestException"), (config, message)
        assert text in message, (config, message)
        assert name not in [b["name"] for b in s3t.list_table_buckets()["tableBuckets"]]

        status, code, message = failure(s3t.create_table, tableBucketARN=arn, namespace="ns",
                                        name=f"t{i}", format="ICEBERG",
                                        encryptionConfiguration=config)
        assert (status, code) == (400, "BadRequestException"), (config, message)
        assert text in message, (config, message)
    assert s3t.list_tables(tableBucketARN=arn)["tables"] == []

    good = kms.create_key()["KeyMetadata"]["Arn"]
    bucket = s3t.create_table_bucket(name=f"encconf-{uuid.uuid4().hex[:10]}",
                                     encryptionConfiguration=kms_config(good))["arn"]
    assert s3t.get_table_bucket_encryption(tableBucketARN=bucket)[
        "encryptionConfiguration"] == kms_config(good)
    s3t.create_table(tableBucketARN=arn, namespace="ns", name="good", format="ICEBERG",
                     encryptionConfiguration=kms_config(good))
    assert s3t.get_table_encryption(tableBucketARN=arn, namespace="ns", name="good")[
        "encryptionConfiguration"] == kms_config(good)


def test_a_key_the_caller_may_not_use_is_access_denied(server, kms):
    arn = new_bucket(server, "encconf")
    key = kms.create_key()["KeyMetadata"]["Arn"]
    tag = uuid.uuid4().hex[:8]
    tables_only = server.create_user_with_policy(f"encconf-s3t-{tag}", {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "s3tables:*", "Resource": "*"}]})
    with_key = server.create_user_with_policy(f"encconf-key-{tag}", {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "s3tables:*", "Resource": "*"},
                      {"Effect": "Allow", "Action": ["kms:GenerateDataKey", "kms:Decrypt"],
                       "Resource": key}]})
    user = server.boto3_client("s3tables", tables_only)
    status, code, message = failure(user.put_table_bucket_encryption, tableBucketARN=arn,
                                    encryptionConfiguration=kms_config(key))
    assert (status, code) == (403, "AccessDeniedException")
    assert "kms:GenerateDataKey" in message and key in message
    user.create_namespace(tableBucketARN=arn, namespace=["ns"])
    assert failure(user.create_table, tableBucketARN=arn, namespace="ns", name="t",
                   format="ICEBERG", encryptionConfiguration=kms_config(key))[:2] == (
        403, "AccessDeniedException")
    assert user.list_tables(tableBucketARN=arn)["tables"] == []
    assert user.get_table_bucket_encryption(tableBucketARN=arn)[
        "encryptionConfiguration"] == {"sseAlgorithm": "AES256"}

    allowed = server.boto3_client("s3tables", with_key)
    allowed.put_table_bucket_encryption(tableBucketARN=arn,
                                        encryptionConfiguration=kms_config(key))
    allowed.create_table(tableBucketARN=arn, namespace="ns", name="t", format="ICEBERG",
                         encryptionConfiguration=kms_config(key))
    assert allowed.get_table_encryption(tableBucketARN=arn, namespace="ns", name="t")[
        "encryptionConfiguration"] == kms_config(key)


def test_kms_cli_aliases_policies_deletion_rotation(server, kms):
    """`streamtables kms` drives aliases, key policies, deletion and rotation;
    boto3's kms client sees the result."""
    arn = server.cli("kms", "create-key", "--description", "cli").stdout.strip()
    key_id = arn.rsplit("/", 1)[1]
    alias = f"alias/cli-{uuid.uuid4().hex[:8]}"
    assert server.cli("kms", "create-alias", alias, key_id).stdout.strip() == f"{alias} -> {key_id}"
    aliases = {a["AliasName"]: a for a in kms.list_aliases()["Aliases"]}
    assert aliases[alias]["TargetKeyId"] == key_id
    listed = json.loads(server.cli("kms", "list-aliases", "--key", key_id, "--json").stdout)
    assert [a["AliasName"] for a in listed["Aliases"]] == [alias]
    assert alias in server.cli("kms", "list-aliases").stdout
    # The alias names the key in every by-key command.
    assert "KeyState: Enabled" in server.cli("kms", "describe-key", alias).stdout
    server.cli("kms", "delete-alias", alias)
    assert alias not in [a["AliasName"] for a in kms.list_aliases()["Aliases"]]

    policy = json.loads(server.cli("kms", "get-key-policy", key_id).stdout)
    assert policy == json.loads(kms.get_key_policy(KeyId=key_id, PolicyName="default")["Policy"])
    policy["Statement"].append({
        "Sid": "AllowS3TablesMaintenance", "Effect": "Allow",
        "Principal": {"Service": "maintenance.s3tables.amazonaws.com"},
        "Action": ["kms:GenerateDataKey", "kms:Decrypt"], "Resource": "*"})
    server.cli("kms", "put-key-policy", key_id, "--policy", json.dumps(policy))
    assert json.loads(kms.get_key_policy(KeyId=key_id, PolicyName="default")["Policy"]) == policy
    path = server.data_dir / f"policy-{key_id}.json"
    policy["Statement"].pop()
    path.write_text(json.dumps(policy))
    assert server.cli("kms", "put-key-policy", arn, "--policy", str(path)).stdout.strip() == (
        "policy set")
    assert json.loads(kms.get_key_policy(KeyId=key_id, PolicyName="default")["Policy"]) == policy
    bad = server.cli("kms", "put-key-policy", key_id, "--policy", '{"Statement": 3}', check=False)
    assert bad.returncode != 0 and "MalformedPolicyDocumentException" in bad.stderr
    assert json.loads(kms.get_key_policy(KeyId=key_id, PolicyName="default")["Policy"]) == policy

    rotation = server.cli("kms", "enable-key-rotation", key_id, "--rotation-period-days", "180")
    assert "KeyRotationEnabled: true" in rotation.stdout
    status = kms.get_key_rotation_status(KeyId=key_id)
    assert (status["KeyRotationEnabled"], status["RotationPeriodInDays"]) == (True, 180)

    scheduled = json.loads(server.cli("kms", "schedule-key-deletion", key_id,
                                      "--pending-window-days", "7", "--json").stdout)
    assert scheduled["KeyState"] == "PendingDeletion"
    assert kms.describe_key(KeyId=key_id)["KeyMetadata"]["KeyState"] == "PendingDeletion"
    server.cli("kms", "cancel-key-deletion", key_id)
    assert kms.describe_key(KeyId=key_id)["KeyMetadata"]["KeyState"] == "Disabled"
    too_soon = server.cli("kms", "schedule-key-deletion", key_id, "--pending-window-days", "3",
                          check=False)
    assert too_soon.returncode != 0


def test_bucket_and_table_encryption_cli(server, s3t, kms):
    """--sse-algorithm / --kms-key-arn on `bucket create`, `table create` and
    `bucket put-encryption`; boto3 reads back what is in force, and a bad key
    is refused with the server's error."""
    key = kms.create_key()["KeyMetadata"]["Arn"]
    name = f"enccli-{uuid.uuid4().hex[:10]}"
    arn = server.cli("bucket", "create", name, "--sse-algorithm", "aws:kms",
                     "--kms-key-arn", key).stdout.strip()
    assert s3t.get_table_bucket_encryption(tableBucketARN=arn)[
        "encryptionConfiguration"] == kms_config(key)
    assert f"kmsKeyArn: {key}" in server.cli("bucket", "get-encryption", name).stdout
    server.cli("namespace", "create", "--bucket", name, "ns")
    table_arn = server.cli("table", "create", "--bucket", name, "--namespace", "ns", "own",
                           "--sse-algorithm", "AES256").stdout.strip()
    assert s3t.get_table(tableArn=table_arn)["name"] == "own"
    assert s3t.get_table_encryption(tableBucketARN=arn, namespace="ns", name="own")[
        "encryptionConfiguration"] == {"sseAlgorithm": "AES256"}
    server.cli("table", "create", "--bucket", name, "--namespace", "ns", "inherits")
    shown = json.loads(server.cli("table", "get-encryption", "--bucket", name, "--namespace", "ns",
                                  "inherits", "--json").stdout)
    assert shown["encryptionConfiguration"] == kms_config(key)

    server.cli("bucket", "put-encryption", name, "--sse-algorithm", "AES256")
    assert s3t.get_table_bucket_encryption(tableBucketARN=arn)[
        "encryptionConfiguration"] == {"sseAlgorithm": "AES256"}
    server.cli("bucket", "put-encryption", arn, "--kms-key-arn", key)
    assert s3t.get_table_bucket_encryption(tableBucketARN=arn)[
        "encryptionConfiguration"] == kms_config(key)
    server.cli("bucket", "delete-encryption", name)
    assert s3t.get_table_bucket_encryption(tableBucketARN=arn)[
        "encryptionConfiguration"] == {"sseAlgorithm": "AES256"}

    missing = f"arn:aws:kms:{server.region}:{server.account_id}:key/{uuid.uuid4()}"
    refused = server.cli("bucket", "put-encryption", name, "--kms-key-arn", missing, check=False)
    assert refused.returncode != 0
    assert "BadRequestException" in refused.stderr and missing in refused.stderr
    refused = server.cli("table", "create", "--bucket", name, "--namespace", "ns", "bad",
                         "--kms-key-arn", missing, check=False)
    assert refused.returncode != 0 and "BadRequestException" in refused.stderr
    assert sorted(t["name"] for t in s3t.list_tables(tableBucketARN=arn)["tables"]) == [
        "inherits", "own"]
