"""CreateTable is one operation but several IAM actions, as S3 Tables
documents: initial metadata also needs s3tables:PutTableData, an encryption
configuration s3tables:PutTableEncryption and tags s3tables:TagResource; a
caller allowed only s3tables:CreateTable gets 403 for those and nothing is
created."""

import uuid

import botocore.exceptions
import pytest

METADATA = {"iceberg": {"schema": {"fields": [{"name": "id", "type": "long", "required": True}]}}}


def test_create_table_extras_need_their_own_actions(server):
    admin = server.boto3_client("s3tables")
    bucket = admin.create_table_bucket(name=f"acts-{uuid.uuid4().hex[:10]}")["arn"]
    admin.create_namespace(tableBucketARN=bucket, namespace=["ns"])

    def user(actions):
        creds = server.create_user_with_policy(f"u-{uuid.uuid4().hex[:8]}", {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": actions,
                           "Resource": [bucket, bucket + "/table/*"]}]})
        return server.boto3_client("s3tables", creds)

    only_create = user(["s3tables:CreateTable"])
    cases = [
        ("with_metadata", {"metadata": METADATA}, "s3tables:PutTableData"),
        ("with_encryption", {"encryptionConfiguration": {"sseAlgorithm": "AES256"}},
         "s3tables:PutTableEncryption"),
        ("with_tags", {"tags": {"team": "data"}}, "s3tables:TagResource"),
    ]
    for name, extra, action in cases:
        with pytest.raises(botocore.exceptions.ClientError) as excinfo:
            only_create.create_table(tableBucketARN=bucket, namespace="ns", name=name,
                                     format="ICEBERG", **extra)
        error = excinfo.value.response
        assert error["ResponseMetadata"]["HTTPStatusCode"] == 403, name
        assert error["Error"]["Code"] == "AccessDeniedException"
        assert action in error["Error"]["Message"], error["Error"]["Message"]
        with pytest.raises(botocore.exceptions.ClientError):
            admin.get_table(tableBucketARN=bucket, namespace="ns", name=name)
        # The same call with the extra action allowed succeeds.
        allowed = user(["s3tables:CreateTable", action])
        allowed.create_table(tableBucketARN=bucket, namespace="ns", name=name, format="ICEBERG",
                             **extra)
        assert admin.get_table(tableBucketARN=bucket, namespace="ns", name=name)["name"] == name
    only_create.create_table(tableBucketARN=bucket, namespace="ns", name="plain",
                             format="ICEBERG")
