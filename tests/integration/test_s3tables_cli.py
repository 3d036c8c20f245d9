"""`aws s3tables` (awscli from PyPI, run as a subprocess from the venv)
against the real server: create-table-bucket, list-table-buckets, get-table.
Credentials are the admin keys from the server's data dir."""

import json
import os
import pathlib
import subprocess
import sys

from test_s3tables_api import ACCOUNT, REGION, make_table, server, s3t  # noqa: F401 (fixtures)


def aws(server, *args):
    aws_bin = pathlib.Path(sys.executable).parent / "aws"
    assert aws_bin.exists(), f"{aws_bin} missing; install awscli into the venv"
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"AWS_ACCESS_KEY_ID": server.access_key,
                "AWS_SECRET_ACCESS_KEY": server.secret_key,
                "AWS_CONFIG_FILE": os.devnull, "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
                "AWS_PAGER": ""})
    done = subprocess.run(
        [str(aws_bin), "s3tables", *args, "--endpoint-url", server.api, "--region", REGION,
         "--output", "json"],
        capture_output=True, text=True, env=env, timeout=120)
    return done


def test_aws_cli_create_list_get(server, s3t):  # noqa: F811 (fixtures)
    created = aws(server, "create-table-bucket", "--name", "cli-bucket")
    assert created.returncode == 0, created.stderr
    arn = json.loads(created.stdout)["arn"]
    assert arn == f"arn:aws:s3tables:{REGION}:{ACCOUNT}:bucket/cli-bucket"

    listed = aws(server, "list-table-buckets")
    assert listed.returncode == 0, listed.stderr
    assert [b["name"] for b in json.loads(listed.stdout)["tableBuckets"]] == ["cli-bucket"]

    s3t.create_namespace(tableBucketARN=arn, namespace=["ns"])
    table_arn = make_table(s3t, arn, "ns", "events")["tableARN"]
    got = aws(server, "get-table", "--table-bucket-arn", arn, "--namespace", "ns",
              "--name", "events")
    assert got.returncode == 0, got.stderr
    table = json.loads(got.stdout)
    assert table["tableARN"] == table_arn and table["name"] == "events"
    assert table["metadataLocation"].endswith(".metadata.json")

    by_arn = aws(server, "get-table", "--table-arn", table_arn)
    assert by_arn.returncode == 0, by_arn.stderr
    assert json.loads(by_arn.stdout)["name"] == "events"

    dup = aws(server, "create-table-bucket", "--name", "cli-bucket")
    assert dup.returncode != 0
    assert "ConflictException" in dup.stderr
    missing = aws(server, "get-table", "--table-bucket-arn", arn, "--namespace", "ns",
                  "--name", "absent")
    assert missing.returncode != 0 and "NotFoundException" in missing.stderr
