"""The built-in KMS through its wire API (AWS JSON 1.1, TrentService, at
<api>/kms): boto3's `kms` client for every implemented operation, the AWS
error shapes, IAM + key policy decisions, per-account isolation, and the
`aws kms` CLI. One session server; a fresh one only for the master-key file
checks."""

import base64
import json
import os
import pathlib
import stat
import subprocess
import sys
import uuid

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError


def kms(server, creds=None):
    return server.boto3_client("kms", creds)


def error_of(call):
    with pytest.raises(ClientError) as info:
        call()
    response = info.value.response
    return (response["ResponseMetadata"]["HTTPStatusCode"], response["Error"]["Code"],
            response["Error"].get("Message", ""))


def raw(server, operation, body):
    """A signed TrentService call without botocore's client-side validation."""
    return server.signed_request(
        "POST", server.api_url + "/kms/", service="kms",
        body=body if isinstance(body, str) else json.dumps(body),
        headers={"Content-Type": "application/x-amz-json-1.1",
                 "X-Amz-Target": "TrentService." + operation})


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def client(server):
    return kms(server)


@pytest.fixture(scope="module")
def key(client):
    return client.create_key(Description="test key")["KeyMetadata"]


def test_create_describe_list(server, client):
    meta = client.create_key(Description="orders", Tags=[{"TagKey": "team", "TagValue": "a"}])[
        "KeyMetadata"]
    key_id = meta["KeyId"]
    assert meta["Arn"] == f"arn:aws:kms:{server.region}:{server.account_id}:key/{key_id}"
    assert (meta["KeyState"], meta["Enabled"], meta["KeyUsage"], meta["KeySpec"]) == (
        "Enabled", True, "ENCRYPT_DECRYPT", "SYMMETRIC_DEFAULT")
    assert meta["AWSAccountId"] == server.account_id and meta["Description"] == "orders"
    for ref in (key_id, meta["Arn"]):
        assert client.describe_key(KeyId=ref)["KeyMetadata"]["Arn"] == meta["Arn"]
    listed = client.list_keys()
    assert {"KeyId": key_id, "KeyArn": meta["Arn"]} in listed["Keys"]
    # Paging with Limit/Marker visits every key once.
    seen, marker = [], None
    while True:
        page = client.list_keys(Limit=1, **({"Marker": marker} if marker else {}))
        seen += [k["KeyId"] for k in page["Keys"]]
        if not page["Truncated"]:
            break
        marker = page["NextMarker"]
    assert sorted(seen) == sorted(k["KeyId"] for k in listed["Keys"])
    assert client.list_resource_tags(KeyId=key_id)["Tags"] == [{"TagKey": "team", "TagValue": "a"}]
    client.tag_resource(KeyId=key_id, Tags=[{"TagKey": "env", "TagValue": "prod"}])
    client.untag_resource(KeyId=key_id, TagKeys=["team"])
    assert client.list_resource_tags(KeyId=key_id)["Tags"] == [{"TagKey": "env", "TagValue": "prod"}]
    assert error_of(lambda: client.create_key(KeySpec="RSA_2048"))[:2] == (
        400, "UnsupportedOperationException")


def test_encrypt_decrypt_with_context(client, key):
    context = {"table": "orders", "bucket": "b1"}
    enc = client.encrypt(KeyId=key["KeyId"], Plaintext=b"secret bytes", EncryptionContext=context)
    assert enc["KeyId"] == key["Arn"] and enc["EncryptionAlgorithm"] == "SYMMETRIC_DEFAULT"
    blob = enc["CiphertextBlob"]
    assert b"secret bytes" not in blob
    dec = client.decrypt(CiphertextBlob=blob, EncryptionContext=context)
    assert dec["Plaintext"] == b"secret bytes" and dec["KeyId"] == key["Arn"]
    # The blob names its key: KeyId is optional, and must match when given.
    assert client.decrypt(CiphertextBlob=blob, EncryptionContext=context,
                          KeyId=key["Arn"])["Plaintext"] == b"secret bytes"
    other = client.create_key()["KeyMetadata"]
    assert error_of(lambda: client.decrypt(CiphertextBlob=blob, EncryptionContext=context,
                                           KeyId=other["KeyId"]))[:2] == (
        400, "IncorrectKeyException")
    for wrong in ({}, {"table": "orders"}, {"table": "orders", "bucket": "b2"},
                  {**context, "extra": "x"}):
        assert error_of(lambda: client.decrypt(CiphertextBlob=blob, EncryptionContext=wrong))[:2] == (
            400, "InvalidCiphertextException")
    tampered = bytearray(blob)
    tampered[-1] ^= 1
    assert error_of(lambda: client.decrypt(CiphertextBlob=bytes(tampered),
                                           EncryptionContext=context))[:2] == (
        400, "InvalidCiphertextException")
    assert error_of(lambda: client.decrypt(CiphertextBlob=b"not a blob at all"))[:2] == (
        400, "InvalidCiphertextException")
    # Bounds as AWS: plaintext at most 4096 bytes.
    assert client.encrypt(KeyId=key["KeyId"], Plaintext=b"x" * 4096)["CiphertextBlob"]
    assert error_of(lambda: client.encrypt(KeyId=key["KeyId"], Plaintext=b"x" * 4097))[:2] == (
        400, "ValidationException")


def test_data_keys_and_reencrypt(client, key):
    context = {"purpose": "data"}
    made = client.generate_data_key(KeyId=key["KeyId"], KeySpec="AES_256",
                                    EncryptionContext=context)
    assert len(made["Plaintext"]) == 32 and made["KeyId"] == key["Arn"]
    assert client.decrypt(CiphertextBlob=made["CiphertextBlob"],
                          EncryptionContext=context)["Plaintext"] == made["Plaintext"]
    assert len(client.generate_data_key(KeyId=key["KeyId"], NumberOfBytes=16)["Plaintext"]) == 16
    assert error_of(lambda: client.generate_data_key(KeyId=key["KeyId"]))[:2] == (
        400, "ValidationException")
    blind = client.generate_data_key_without_plaintext(KeyId=key["KeyId"], KeySpec="AES_128",
                                                       EncryptionContext=context)
    assert "Plaintext" not in blind
    assert len(client.decrypt(CiphertextBlob=blind["CiphertextBlob"],
                              EncryptionContext=context)["Plaintext"]) == 16
    destination = client.create_key()["KeyMetadata"]
    re = client.re_encrypt(CiphertextBlob=made["CiphertextBlob"], SourceEncryptionContext=context,
                           DestinationKeyId=destination["Arn"],
                           DestinationEncryptionContext={"purpose": "moved"})
    assert re["SourceKeyId"] == key["Arn"] and re["KeyId"] == destination["Arn"]
    assert client.decrypt(CiphertextBlob=re["CiphertextBlob"],
                          EncryptionContext={"purpose": "moved"})["Plaintext"] == made["Plaintext"]
    assert error_of(lambda: client.re_encrypt(CiphertextBlob=made["CiphertextBlob"],
                                              DestinationKeyId=destination["Arn"]))[:2] == (
        400, "InvalidCiphertextException")


def test_enable_disable(client):
    key_id = client.create_key()["KeyMetadata"]["KeyId"]
    blob = client.encrypt(KeyId=key_id, Plaintext=b"p")["CiphertextBlob"]
    client.disable_key(KeyId=key_id)
    assert client.describe_key(KeyId=key_id)["KeyMetadata"]["KeyState"] == "Disabled"
    for call in (lambda: client.encrypt(KeyId=key_id, Plaintext=b"p"),
                 lambda: client.decrypt(CiphertextBlob=blob),
                 lambda: client.generate_data_key(KeyId=key_id, KeySpec="AES_256")):
        status, code, message = error_of(call)
        assert (status, code) == (400, "DisabledException") and key_id in message
    client.enable_key(KeyId=key_id)
    assert client.decrypt(CiphertextBlob=blob)["Plaintext"] == b"p"


def test_aliases(server, client):
    key_id = client.create_key()["KeyMetadata"]["KeyId"]
    name = "alias/" + unique("orders")
    client.create_alias(AliasName=name, TargetKeyId=key_id)
    alias_arn = f"arn:aws:kms:{server.region}:{server.account_id}:{name}"
    for ref in (name, alias_arn):
        assert client.describe_key(KeyId=ref)["KeyMetadata"]["KeyId"] == key_id
        blob = client.encrypt(KeyId=ref, Plaintext=b"via alias")["CiphertextBlob"]
        assert client.decrypt(CiphertextBlob=blob)["Plaintext"] == b"via alias"
    listed = client.list_aliases(KeyId=key_id)["Aliases"]
    assert [(a["AliasName"], a["AliasArn"], a["TargetKeyId"]) for a in listed] == [
        (name, alias_arn, key_id)]
    assert any(a["AliasName"] == name for a in client.list_aliases()["Aliases"])
    assert error_of(lambda: client.create_alias(AliasName=name, TargetKeyId=key_id))[:2] == (
        400, "AlreadyExistsException")
    for bad in ("orders", "alias/aws/reserved", "alias/bad name"):
        assert error_of(lambda: client.create_alias(AliasName=bad, TargetKeyId=key_id))[:2] == (
            400, "InvalidAliasNameException")
    second = client.create_key()["KeyMetadata"]["KeyId"]
    client.update_alias(AliasName=name, TargetKeyId=second)
    assert client.describe_key(KeyId=name)["KeyMetadata"]["KeyId"] == second
    client.delete_alias(AliasName=name)
    assert error_of(lambda: client.describe_key(KeyId=name))[:2] == (400, "NotFoundException")
    assert error_of(lambda: client.delete_alias(AliasName=name))[:2] == (400, "NotFoundException")


def test_deletion_schedule(client):
    key_id = client.create_key()["KeyMetadata"]["KeyId"]
    scheduled = client.schedule_key_deletion(KeyId=key_id, PendingWindowInDays=7)
    assert scheduled["KeyState"] == "PendingDeletion" and scheduled["PendingWindowInDays"] == 7
    meta = client.describe_key(KeyId=key_id)["KeyMetadata"]
    assert meta["KeyState"] == "PendingDeletion" and "DeletionDate" in meta
    for call in (lambda: client.encrypt(KeyId=key_id, Plaintext=b"p"),
                 lambda: client.enable_key(KeyId=key_id),
                 lambda: client.schedule_key_deletion(KeyId=key_id)):
        assert error_of(call)[:2] == (400, "KMSInvalidStateException")
    assert error_of(lambda: client.schedule_key_deletion(KeyId=key_id, PendingWindowInDays=3)
                    )[:2] == (400, "ValidationException")
    assert client.cancel_key_deletion(KeyId=key_id)["KeyId"].endswith(key_id)
    assert client.describe_key(KeyId=key_id)["KeyMetadata"]["KeyState"] == "Disabled"
    assert error_of(lambda: client.cancel_key_deletion(KeyId=key_id))[:2] == (
        400, "KMSInvalidStateException")


def test_rotation_keeps_old_versions(server, client):
    key_id = client.create_key()["KeyMetadata"]["KeyId"]
    assert client.get_key_rotation_status(KeyId=key_id)["KeyRotationEnabled"] is False
    client.enable_key_rotation(KeyId=key_id, RotationPeriodInDays=90)
    status = client.get_key_rotation_status(KeyId=key_id)
    assert status["KeyRotationEnabled"] is True and status["RotationPeriodInDays"] == 90
    before = client.encrypt(KeyId=key_id, Plaintext=b"v1", EncryptionContext={"k": "v"})
    client.rotate_key_on_demand(KeyId=key_id)
    after = client.encrypt(KeyId=key_id, Plaintext=b"v2", EncryptionContext={"k": "v"})
    # The blob header names the version (bytes 40-43, big-endian).
    assert before["CiphertextBlob"][40:44] == b"\0\0\0\1"
    assert after["CiphertextBlob"][40:44] == b"\0\0\0\2"
    for blob, text in ((before, b"v1"), (after, b"v2")):
        assert client.decrypt(CiphertextBlob=blob["CiphertextBlob"],
                              EncryptionContext={"k": "v"})["Plaintext"] == text
    client.disable_key_rotation(KeyId=key_id)
    assert client.get_key_rotation_status(KeyId=key_id)["KeyRotationEnabled"] is False
    # botocore checks the range itself; the server does too.
    response = raw(server, "EnableKeyRotation", {"KeyId": key_id, "RotationPeriodInDays": 5})
    assert response.status_code == 400 and response.json()["__type"] == "ValidationException"


def test_key_policy(server, client):
    key_id = client.create_key()["KeyMetadata"]["KeyId"]
    got = client.get_key_policy(KeyId=key_id, PolicyName="default")
    policy = json.loads(got["Policy"])
    assert policy["Statement"][0]["Principal"] == {"AWS": f"arn:aws:iam::{server.account_id}:root"}
    assert client.list_key_policies(KeyId=key_id)["PolicyNames"] == ["default"]
    for bad in ("{not json", json.dumps({"Statement": [{"Effect": "Allow", "Action": "kms:*"}]}),
                json.dumps({"Version": "2012-10-17", "Statement": [
                    {"Effect": "Maybe", "Principal": "*", "Action": "kms:*", "Resource": "*"}]})):
        status, code, _ = error_of(lambda: client.put_key_policy(KeyId=key_id, PolicyName="default",
                                                                 Policy=bad))
        assert (status, code) == (400, "MalformedPolicyDocumentException")
        assert error_of(lambda: client.create_key(Policy=bad))[1] == "MalformedPolicyDocumentException"
    # Unchanged by the refused puts.
    assert json.loads(client.get_key_policy(KeyId=key_id, PolicyName="default")["Policy"]) == policy


def test_unknown_keys_and_bad_input(server, client):
    missing = str(uuid.uuid4())
    for ref in (missing, f"arn:aws:kms:{server.region}:{server.account_id}:key/{missing}",
                "alias/does-not-exist", "not-a-key"):
        status, code, _ = error_of(lambda: client.describe_key(KeyId=ref))
        assert (status, code) == (400, "NotFoundException"), ref
    response = raw(server, "DescribeKey", {"KeyId": missing})
    body = response.json()
    assert response.status_code == 400 and body["__type"] == "NotFoundException"
    assert missing in body["message"]
    response = raw(server, "NoSuchOperation", {})
    assert response.status_code == 400
    assert response.json()["__type"] == "UnsupportedOperationException"
    response = raw(server, "ListKeys", "[1,2")
    assert response.status_code == 400 and response.json()["__type"] == "ValidationException"
    # Oversized blobs are refused before any decoding (AWS: at most 6144 bytes).
    big = base64.b64encode(b"x" * 7000).decode()
    response = raw(server, "Decrypt", {"CiphertextBlob": big})
    assert response.status_code == 400 and response.json()["__type"] == "ValidationException"
    response = raw(server, "Encrypt", {"KeyId": missing, "Plaintext": "!!!"})
    assert response.status_code == 400


def user_policy(actions, resource="*", effect="Allow"):
    return {"Version": "2012-10-17",
            "Statement": [{"Effect": effect, "Action": actions, "Resource": resource}]}


def test_iam_and_key_policy_combination(server, client):
    key = client.create_key()["KeyMetadata"]
    blob = client.encrypt(KeyId=key["KeyId"], Plaintext=b"p",
                          EncryptionContext={"tenant": "t1"})["CiphertextBlob"]
    # IAM allows: the default key policy delegates to the account.
    reader = server.create_user_with_policy(unique("kms-reader"),
                                            user_policy(["kms:Decrypt", "kms:DescribeKey"],
                                                        key["Arn"]))
    as_reader = kms(server, reader)
    assert as_reader.decrypt(CiphertextBlob=blob,
                             EncryptionContext={"tenant": "t1"})["Plaintext"] == b"p"
    status, code, message = error_of(lambda: as_reader.encrypt(KeyId=key["KeyId"], Plaintext=b"p"))
    assert (status, code) == (400, "AccessDeniedException") and "kms:Encrypt" in message
    # No IAM permission at all.
    nobody = kms(server, server.create_user_with_policy(unique("kms-nobody")))
    assert error_of(lambda: nobody.decrypt(CiphertextBlob=blob,
                                           EncryptionContext={"tenant": "t1"}))[1] == (
        "AccessDeniedException")
    # A key policy that does not delegate to the account: IAM alone is not enough,
    # but a direct grant to the user is.
    direct_user = server.create_user_with_policy(unique("kms-direct"))
    own = client.create_key()["KeyMetadata"]
    own_blob = client.encrypt(KeyId=own["KeyId"], Plaintext=b"q")["CiphertextBlob"]
    admin_arn = server.admin_credentials.arn
    client.put_key_policy(KeyId=own["KeyId"], PolicyName="default", Policy=json.dumps({
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"AWS": admin_arn}, "Action": "kms:*", "Resource": "*"},
            {"Effect": "Allow", "Principal": {"AWS": direct_user.arn}, "Action": "kms:Decrypt",
             "Resource": "*"}]}))
    assert error_of(lambda: as_reader.describe_key(KeyId=own["KeyId"]))[1] == "AccessDeniedException"
    assert kms(server, direct_user).decrypt(CiphertextBlob=own_blob)["Plaintext"] == b"q"
    # Explicit deny in the key policy wins over the admin's IAM allow.
    client.put_key_policy(KeyId=own["KeyId"], PolicyName="default", Policy=json.dumps({
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{server.account_id}:root"},
             "Action": "kms:*", "Resource": "*"},
            {"Effect": "Deny", "Principal": "*", "Action": "kms:Decrypt", "Resource": "*"}]}))
    assert error_of(lambda: client.decrypt(CiphertextBlob=own_blob))[1] == "AccessDeniedException"
    # Encryption context condition keys.
    ctx_user = server.create_user_with_policy(unique("kms-ctx"), {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "kms:Decrypt", "Resource": key["Arn"],
                       "Condition": {"StringEquals": {"kms:EncryptionContext:tenant": "t1",
                                                      "kms:CallerAccount": server.account_id}}}]})
    as_ctx = kms(server, ctx_user)
    assert as_ctx.decrypt(CiphertextBlob=blob, EncryptionContext={"tenant": "t1"})["Plaintext"] == b"p"
    blob2 = client.encrypt(KeyId=key["KeyId"], Plaintext=b"p",
                           EncryptionContext={"tenant": "t2"})["CiphertextBlob"]
    assert error_of(lambda: as_ctx.decrypt(CiphertextBlob=blob2,
                                           EncryptionContext={"tenant": "t2"}))[1] == (
        "AccessDeniedException")


def test_other_accounts(server, client):
    key = client.create_key()["KeyMetadata"]
    name = "alias/" + unique("mine")
    client.create_alias(AliasName=name, TargetKeyId=key["KeyId"])
    blob = client.encrypt(KeyId=key["KeyId"], Plaintext=b"p")["CiphertextBlob"]
    other_account = server.create_account()
    stranger = kms(server, server.create_user_with_policy(
        unique("stranger"), user_policy("kms:*"), account_id=other_account))
    alias_arn = f"arn:aws:kms:{server.region}:{server.account_id}:{name}"
    for ref in (key["KeyId"], key["Arn"], name, alias_arn):
        assert error_of(lambda: stranger.describe_key(KeyId=ref))[:2] == (400, "NotFoundException")
    assert error_of(lambda: stranger.decrypt(CiphertextBlob=blob))[:2] == (
        400, "InvalidCiphertextException")
    assert key["KeyId"] not in [k["KeyId"] for k in stranger.list_keys()["Keys"]]
    # The owner grants the other account in the key policy: the stranger's
    # kms:* IAM policy now applies to the key by ARN.
    client.put_key_policy(KeyId=key["KeyId"], PolicyName="default", Policy=json.dumps({
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{server.account_id}:root"},
             "Action": "kms:*", "Resource": "*"},
            {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{other_account}:root"},
             "Action": ["kms:Decrypt", "kms:DescribeKey"], "Resource": "*"}]}))
    assert stranger.describe_key(KeyId=key["Arn"])["KeyMetadata"]["Arn"] == key["Arn"]
    assert stranger.decrypt(CiphertextBlob=blob)["Plaintext"] == b"p"
    assert error_of(lambda: stranger.encrypt(KeyId=key["Arn"], Plaintext=b"p"))[1] == (
        "AccessDeniedException")
    # Management stays with the owner whatever the key policy grants.
    client.put_key_policy(KeyId=key["KeyId"], PolicyName="default", Policy=json.dumps({
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{server.account_id}:root"},
             "Action": "kms:*", "Resource": "*"},
            {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{other_account}:root"},
             "Action": "kms:*", "Resource": "*"}]}))
    for call in (lambda: stranger.disable_key(KeyId=key["Arn"]),
                 lambda: stranger.schedule_key_deletion(KeyId=key["Arn"]),
                 lambda: stranger.put_key_policy(KeyId=key["Arn"], PolicyName="default",
                                                 Policy=json.dumps(user_policy("kms:*")))):
        assert error_of(call)[:2] == (400, "NotFoundException")
    assert client.describe_key(KeyId=key["KeyId"])["KeyMetadata"]["KeyState"] == "Enabled"
    assert stranger.encrypt(KeyId=key["Arn"], Plaintext=b"p")["KeyId"] == key["Arn"]
    # Aliases stay private to their account even then.
    assert error_of(lambda: stranger.describe_key(KeyId=alias_arn))[:2] == (400, "NotFoundException")


def aws_cli(server, *args):
    aws_bin = pathlib.Path(sys.executable).parent / "aws"
    assert aws_bin.exists(), f"{aws_bin} missing; awscli is in tools/requirements.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_ACCESS_KEY_ID": server.access_key,
                "AWS_SECRET_ACCESS_KEY": server.secret_key,
                "AWS_CONFIG_FILE": os.devnull, "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
                "AWS_PAGER": ""})
    return subprocess.run([str(aws_bin), "kms", *args, "--endpoint-url", server.api_url + "/kms",
                           "--region", server.region, "--output", "json"],
                          capture_output=True, text=True, env=env, timeout=60)


def test_aws_cli(server, tmp_path):
    created = aws_cli(server, "create-key", "--description", "cli key")
    assert created.returncode == 0, created.stderr
    key_id = json.loads(created.stdout)["KeyMetadata"]["KeyId"]
    plaintext = tmp_path / "plain.bin"
    plaintext.write_bytes(b"cli secret")
    enc = aws_cli(server, "encrypt", "--key-id", key_id, "--plaintext", f"fileb://{plaintext}",
                  "--encryption-context", "purpose=cli")
    assert enc.returncode == 0, enc.stderr
    blob = tmp_path / "blob.bin"
    blob.write_bytes(base64.b64decode(json.loads(enc.stdout)["CiphertextBlob"]))
    dec = aws_cli(server, "decrypt", "--ciphertext-blob", f"fileb://{blob}",
                  "--encryption-context", "purpose=cli")
    assert dec.returncode == 0, dec.stderr
    assert base64.b64decode(json.loads(dec.stdout)["Plaintext"]) == b"cli secret"
    wrong = aws_cli(server, "decrypt", "--ciphertext-blob", f"fileb://{blob}")
    assert wrong.returncode != 0 and "InvalidCiphertextException" in wrong.stderr
    listed = aws_cli(server, "list-keys")
    assert key_id in [k["KeyId"] for k in json.loads(listed.stdout)["Keys"]]
    assert aws_cli(server, "disable-key", "--key-id", key_id).returncode == 0
    disabled = aws_cli(server, "describe-key", "--key-id", key_id)
    assert json.loads(disabled.stdout)["KeyMetadata"]["KeyState"] == "Disabled"
    missing = aws_cli(server, "describe-key", "--key-id", str(uuid.uuid4()))
    assert missing.returncode != 0 and "NotFoundException" in missing.stderr


def test_aws_cli_drives_every_other_operation(server, tmp_path):
    def ok(*args):
        result = aws_cli(server, *args)
        assert result.returncode == 0, (args, result.stderr)
        return json.loads(result.stdout) if result.stdout.strip() else {}

    key_id = ok("create-key", "--description", "cli ops")["KeyMetadata"]["KeyId"]
    other = ok("create-key", "--description", "cli target")["KeyMetadata"]["KeyId"]
    alias = f"alias/cli-{uuid.uuid4().hex[:8]}"
    ok("create-alias", "--alias-name", alias, "--target-key-id", key_id)
    assert alias in [a["AliasName"] for a in ok("list-aliases", "--key-id", key_id)["Aliases"]]
    assert ok("describe-key", "--key-id", alias)["KeyMetadata"]["KeyId"] == key_id

    made = ok("generate-data-key", "--key-id", alias, "--key-spec", "AES_256",
              "--encryption-context", "purpose=cli")
    assert len(base64.b64decode(made["Plaintext"])) == 32
    blob = tmp_path / "dk.bin"
    blob.write_bytes(base64.b64decode(made["CiphertextBlob"]))
    back = ok("decrypt", "--ciphertext-blob", f"fileb://{blob}", "--encryption-context",
              "purpose=cli")
    assert back["Plaintext"] == made["Plaintext"]
    bare = ok("generate-data-key-without-plaintext", "--key-id", key_id, "--number-of-bytes", "16")
    assert "Plaintext" not in bare and bare["CiphertextBlob"]
    moved = ok("re-encrypt", "--ciphertext-blob", f"fileb://{blob}", "--source-encryption-context",
               "purpose=cli", "--destination-key-id", other)
    assert moved["KeyId"].endswith(other)
    moved_blob = tmp_path / "moved.bin"
    moved_blob.write_bytes(base64.b64decode(moved["CiphertextBlob"]))
    assert ok("decrypt", "--ciphertext-blob", f"fileb://{moved_blob}")["Plaintext"] == \
        made["Plaintext"]

    ok("enable-key-rotation", "--key-id", key_id)
    assert ok("get-key-rotation-status", "--key-id", key_id)["KeyRotationEnabled"] is True
    policy = json.loads(ok("get-key-policy", "--key-id", key_id, "--policy-name",
                           "default")["Policy"])
    assert policy["Statement"]
    ok("put-key-policy", "--key-id", key_id, "--policy-name", "default", "--policy",
       json.dumps(policy))
    bad = aws_cli(server, "put-key-policy", "--key-id", key_id, "--policy-name", "default",
                  "--policy", "{not json")
    assert bad.returncode != 0 and "MalformedPolicyDocumentException" in bad.stderr
    ok("tag-resource", "--key-id", key_id, "--tags", "TagKey=team,TagValue=data")
    ok("disable-key", "--key-id", key_id)
    ok("enable-key", "--key-id", key_id)
    assert ok("describe-key", "--key-id", key_id)["KeyMetadata"]["KeyState"] == "Enabled"
    scheduled = ok("schedule-key-deletion", "--key-id", other, "--pending-window-in-days", "7")
    assert scheduled["KeyState"] == "PendingDeletion"
    ok("cancel-key-deletion", "--key-id", other)
    ok("delete-alias", "--alias-name", alias)
    assert alias not in [a["AliasName"] for a in ok("list-aliases")["Aliases"]]


def test_master_key_file(fresh_server, tmp_path):
    srv = fresh_server()
    key_file = srv.data_dir / "keys" / "kms-master.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    client = kms(srv)
    key_id = client.create_key()["KeyMetadata"]["KeyId"]
    blob = client.encrypt(KeyId=key_id, Plaintext=b"survives restart")["CiphertextBlob"]
    # No key material in the catalog database in the clear; the master key is not in it.
    catalog = b"".join(p.read_bytes() for p in (srv.data_dir / "catalog").iterdir())
    assert key_file.read_bytes() not in catalog
    srv.stop()
    srv.start()
    assert kms(srv).decrypt(CiphertextBlob=blob)["Plaintext"] == b"survives restart"
    srv.stop()
    # An operator's key file by flag; one readable by group or others is refused.
    own_key = tmp_path / "operator-kms.key"
    own_key.write_text(os.urandom(32).hex() + "\n")
    os.chmod(own_key, 0o644)
    with pytest.raises(Exception):
        fresh_server(extra_args=["--kms-master-key-file", str(own_key)])
    os.chmod(own_key, 0o600)
    other = fresh_server(extra_args=["--kms-master-key-file", str(own_key)])
    other_client = kms(other)
    other_id = other_client.create_key()["KeyMetadata"]["KeyId"]
    assert other_client.decrypt(CiphertextBlob=other_client.encrypt(
        KeyId=other_id, Plaintext=b"x")["CiphertextBlob"])["Plaintext"] == b"x"
    assert not (other.data_dir / "keys" / "kms-master.key").exists()


def test_streamtables_kms_cli(server):
    arn = server.cli("kms", "create-key", "--description", "from cli").stdout.strip()
    assert arn.startswith(f"arn:aws:kms:{server.region}:{server.account_id}:key/")
    key_id = arn.rsplit("/", 1)[1]
    assert key_id in server.cli("kms", "list-keys").stdout
    described = json.loads(server.cli("kms", "describe-key", key_id, "--json").stdout)
    assert described["KeyMetadata"]["Description"] == "from cli"
    assert server.cli("kms", "disable-key", arn).stdout.strip() == f"disabled {arn}"
    assert "KeyState: Disabled" in server.cli("kms", "describe-key", key_id).stdout
    server.cli("kms", "enable-key", key_id)
    assert json.loads(server.cli("kms", "describe-key", key_id, "--json").stdout)[
        "KeyMetadata"]["Enabled"] is True
    missing = server.cli("kms", "describe-key", str(uuid.uuid4()), check=False)
    assert missing.returncode != 0 and "NotFoundException" in missing.stderr
