"""The CLI's service commands against a real server: default credentials and
endpoint from <data-dir>/keys/admin.json, env credentials, human and --json
output, and errors as exit code 1 with the server's message."""

import json
import pathlib
import uuid

import pytest

from harness import paths

READ_ONLY = {"Version": "2012-10-17",
             "Statement": [{"Effect": "Allow", "Action": ["s3tables:Get*", "s3tables:List*"],
                            "Resource": "*"}]}


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_bucket_namespace_table_policy_commands(server, tmp_path):
    name = unique("cli")
    arn = server.cli("bucket", "create", name).stdout.strip()
    assert arn == server.bucket_arn(name)
    listing = server.cli("bucket", "list", "--prefix", name).stdout
    assert name in listing and arn in listing
    doc = json.loads(server.cli("bucket", "get", name, "--json").stdout)
    assert doc["arn"] == arn and doc["name"] == name

    server.cli("namespace", "create", "--bucket", name, "sales")
    assert "sales" in server.cli("namespace", "list", "--bucket", arn).stdout
    server.boto3_client("s3tables").create_table(tableBucketARN=arn, namespace="sales",
                                                 name="orders", format="ICEBERG")
    tables = json.loads(server.cli("table", "list", "--bucket", name, "--json").stdout)["tables"]
    assert [t["name"] for t in tables] == ["orders"]
    shown = server.cli("table", "get", "--bucket", name, "--namespace", "sales", "orders").stdout
    assert "versionToken: " in shown and "warehouseLocation: s3://" in shown
    location = json.loads(server.cli("table", "metadata-location", "--bucket", name,
                                     "--namespace", "sales", "orders", "--json").stdout)
    assert location["versionToken"]

    policy = tmp_path / "policy.json"
    document = {"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": server.account_id},
        "Action": "s3tables:GetTable", "Resource": arn + "/table/*"}]}
    policy.write_text(json.dumps(document))
    server.cli("policy", "put", "--bucket", name, "--file", str(policy))
    assert json.loads(server.cli("policy", "get", "--bucket", name).stdout) == document
    server.cli("policy", "put", "--bucket", name, "--namespace", "sales", "--table", "orders",
               "--file", str(policy))
    table_policy = server.cli("policy", "get", "--bucket", name, "--namespace", "sales",
                              "--table", "orders", "--json").stdout
    assert json.loads(json.loads(table_policy)["resourcePolicy"]) == document
    server.cli("policy", "delete", "--bucket", name)
    missing = server.cli("policy", "get", "--bucket", name, check=False)
    assert missing.returncode == 1 and "NotFoundException" in missing.stderr

    busy = server.cli("bucket", "delete", name, check=False)
    assert busy.returncode == 1 and "ConflictException" in busy.stderr
    server.cli("table", "delete", "--bucket", name, "--namespace", "sales", "orders")
    server.cli("namespace", "delete", "--bucket", name, "sales")
    assert "deleted " + arn in server.cli("bucket", "delete", name).stdout


def test_user_role_key_commands_and_env_credentials(server, tmp_path):
    user = unique("cliuser")
    assert server.cli("user", "create", user).stdout.strip().endswith(f":user/{user}")
    assert user in server.cli("user", "list").stdout
    policy = tmp_path / "read.json"
    policy.write_text(json.dumps(READ_ONLY))
    server.cli("user", "attach-policy", user, "--policy-name", "read", "--file", str(policy))
    key = json.loads(server.cli("key", "create", "--user", user, "--json").stdout)
    assert key["accessKeyId"].startswith("AKIA") and key["secretAccessKey"]
    assert key["accessKeyId"] in server.cli("key", "list", "--user", user).stdout

    from harness.server import Credentials
    creds = Credentials(key["accessKeyId"], key["secretAccessKey"])
    server.cli("bucket", "list", creds=creds)
    refused = server.cli("bucket", "create", unique("nope"), creds=creds, check=False)
    assert refused.returncode == 1
    assert "AccessDeniedException" in refused.stderr and "s3tables:CreateTableBucket" in refused.stderr

    bad = tmp_path / "bad.json"
    bad.write_text('{"Version": "2012-10-17", "Statement": {"Effect": "Maybe"}}')
    malformed = server.cli("user", "attach-policy", user, "--policy-name", "bad", "--file",
                           str(bad), check=False)
    assert malformed.returncode == 1 and "MalformedPolicyDocument" in malformed.stderr

    role = unique("clirole")
    assert server.cli("role", "create", role).stdout.strip().endswith(f":role/{role}")
    role_key = server.cli("key", "create", "--role", role).stdout
    assert "access_key_id: AKIA" in role_key and "secret_access_key: " in role_key
    server.cli("role", "delete", role)
    server.cli("key", "delete", "--user", user, key["accessKeyId"])
    gone = server.cli("bucket", "list", creds=creds, check=False)
    assert gone.returncode == 1 and "UnrecognizedClientException" in gone.stderr
    server.cli("user", "delete", user)


def test_account_commands(server):
    created = []
    for _ in range(3):
        account = "9" + str(uuid.uuid4().int)[1:12]
        assert server.cli("account", "create", account).stdout.strip() == account
        created.append(account)
    server.cli("user", "create", "someone", "--account-id", created[0])

    listed = json.loads(server.cli("account", "list", "--page-size", "2", "--json").stdout)
    ids = [a["accountId"] for a in listed["accounts"]]
    for account in created + [server.account_id]:
        assert ids.count(account) == 1, account
    assert ids == sorted(ids)
    human = server.cli("account", "list").stdout.splitlines()
    assert sorted(line.split("\t")[0] for line in human) == ids
    row = next(line for line in human if line.startswith(created[0] + "\t")).split("\t")
    assert row[2:] == ["1", "0", "0"]  # users, roles, table buckets

    shown = json.loads(server.cli("account", "get", created[0], "--json").stdout)
    assert shown["accountId"] == created[0] and shown["userCount"] == 1
    assert "userCount: 1" in server.cli("account", "get", created[0]).stdout
    missing = server.cli("account", "get", "999999999998", check=False)
    assert missing.returncode == 1 and "NotFoundException" in missing.stderr
    bad = server.cli("account", "list", "--page-size", "0", check=False)
    assert bad.returncode == 1 and "BadRequestException" in bad.stderr

    plain = server.create_user_with_policy(f"plain-{uuid.uuid4().hex[:8]}", READ_ONLY)
    refused = server.cli("account", "list", creds=plain, check=False)
    assert refused.returncode == 1 and "AccessDeniedException" in refused.stderr


def test_cli_usage_errors(server, tmp_path):
    empty = tmp_path / "nowhere"
    result = server.cli("bucket", "list", check=False)
    assert result.returncode == 0
    import subprocess
    binary = pathlib.Path(server.build_dir or paths.build_dir()) / "src" / "cli" / "streamtables"
    out = subprocess.run([str(binary), "bucket", "list", "--data-dir", str(empty)],
                         capture_output=True, text=True, timeout=30,
                         env={"PATH": "/usr/bin:/bin"})
    assert out.returncode == 1 and "no credentials" in out.stderr
    out = subprocess.run([str(binary), "bucket", "frobnicate"], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode != 0
