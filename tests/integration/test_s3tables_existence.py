"""A caller without access learns nothing about which tables exist: GetTable
and GetTableMetadataLocation of a missing table are 403 AccessDenied for a
caller who may not read that bucket's tables, and 404 NotFound only for one
who may (the table is authorized as <bucket>/table/* when it does not exist).
"""

import uuid

import botocore.exceptions
import pytest


def code_of(call) -> tuple[int, str]:
    with pytest.raises(botocore.exceptions.ClientError) as excinfo:
        call()
    response = excinfo.value.response
    return response["ResponseMetadata"]["HTTPStatusCode"], response["Error"]["Code"]


def test_missing_table_is_403_without_access_and_404_with_it(server):
    admin = server.boto3_client("s3tables")
    name = f"exist-{uuid.uuid4().hex[:10]}"
    bucket = admin.create_table_bucket(name=name)["arn"]
    admin.create_namespace(tableBucketARN=bucket, namespace=["ns"])
    admin.create_table(tableBucketARN=bucket, namespace="ns", name="real", format="ICEBERG")
    real_arn = admin.get_table(tableBucketARN=bucket, namespace="ns", name="real")["tableARN"]

    # May read exactly one table, by its ARN.
    narrow = server.create_user_with_policy(f"narrow-{uuid.uuid4().hex[:6]}", {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["s3tables:GetTable",
                                                     "s3tables:GetTableMetadataLocation"],
                       "Resource": real_arn}]})
    # May read every table of the bucket.
    wide = server.create_user_with_policy(f"wide-{uuid.uuid4().hex[:6]}", {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["s3tables:GetTable",
                                                     "s3tables:GetTableMetadataLocation"],
                       "Resource": bucket + "/table/*"}]})
    as_narrow = server.boto3_client("s3tables", narrow)
    as_wide = server.boto3_client("s3tables", wide)

    assert as_narrow.get_table(tableBucketARN=bucket, namespace="ns", name="real")["name"] == "real"
    for ns, table in (("ns", "missing"), ("nope", "missing")):
        assert code_of(lambda: as_narrow.get_table(tableBucketARN=bucket, namespace=ns,
                                                   name=table)) == (403, "AccessDeniedException")
        assert code_of(lambda: as_narrow.get_table_metadata_location(
            tableBucketARN=bucket, namespace=ns, name=table)) == (403, "AccessDeniedException")
        assert code_of(lambda: as_wide.get_table(tableBucketARN=bucket, namespace=ns,
                                                 name=table)) == (404, "NotFoundException")
        assert code_of(lambda: as_wide.get_table_metadata_location(
            tableBucketARN=bucket, namespace=ns, name=table)) == (404, "NotFoundException")
    missing_arn = bucket + "/table/" + str(uuid.uuid4())
    assert code_of(lambda: as_narrow.get_table(tableArn=missing_arn)) == \
        (403, "AccessDeniedException")
    assert code_of(lambda: as_wide.get_table(tableArn=missing_arn)) == (404, "NotFoundException")
