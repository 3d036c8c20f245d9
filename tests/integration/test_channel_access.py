"""Who may write a streaming table (issue 4 "Must show"):

- cross-account delivery: a channel whose table bucket belongs to another
  account FAILS with ACCESS_DENIED naming the action until that bucket's
  policy grants the service role the write actions; with the grant it
  delivers;
- read-only: on a channel-created table, Spark SQL INSERT, a PyIceberg
  append and UpdateTableMetadataLocation are refused (the table is unchanged);
  DeleteTable is allowed.
"""

import json
import uuid

import botocore.exceptions
import pyarrow as pa
import pytest

from harness.channels import ChannelSetup, register_cluster
from harness.channels import bucket_writer_role_policy as role_policy
from test_iceberg_rest_engines import spark_catalog

SCHEMA = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"},
                   "name": {"type": "string"}},
    "required": ["id", "ts"],
}


def rows(n, start=0):
    return [json.dumps({"id": i, "ts": f"2026-11-30T10:{i % 60:02d}:00Z", "name": f"n{i}"})
            .encode() for i in range(start, start + n)]


def test_cross_account_delivery_needs_the_bucket_policy(fresh_server, kafka, topic_name):
    server = fresh_server()
    kafka.create_topic(topic_name, partitions=1)
    other = server.create_account()
    owner = server.create_user_with_policy(
        "bucket-owner", {"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": "s3tables:*", "Resource": "*"}]}, account_id=other)
    owner_s3t = server.boto3_client("s3tables", owner)
    bucket_arn = owner_s3t.create_table_bucket(name="shared-analytics")["arn"]
    assert f":{other}:" in bucket_arn

    suffix = uuid.uuid4().hex[:6]
    dlq = f"dlq-{suffix}"
    role = server.create_role_with_policy(
        f"writer-{suffix}", role_policy(server.region, bucket_arn, dlq, server.account_id))
    cluster = register_cluster(server, kafka)

    def channel(table):
        return ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1,
                                   cluster_arn=cluster, create_bucket=False,
                                   bucket_name="shared-analytics", role_arn=role.arn,
                                   table=table, bucket_arn=bucket_arn, dlq_bucket=dlq)

    denied = channel("denied")
    failed = denied.wait_status("FAILED", "ACTIVE", timeout_s=60)
    if failed["Status"] == "ACTIVE":  # Permission is checked again at first delivery.
        kafka.produce(topic_name, rows(3))
        failed = denied.wait_status("FAILED", timeout_s=60)
    assert failed["StateInfo"]["Code"] == "ACCESS_DENIED"
    assert "s3tables:" in failed["StateInfo"]["Message"]
    assert "shared-analytics" in failed["StateInfo"]["Message"]

    owner_s3t.put_table_bucket_policy(tableBucketARN=bucket_arn, resourcePolicy=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Principal": {"AWS": role.arn},
                       "Action": "s3tables:*",
                       "Resource": [bucket_arn, bucket_arn + "/table/*"]}]}))
    allowed = channel("allowed")
    allowed.reader = owner
    allowed.wait_status("ACTIVE")
    kafka.produce(topic_name, rows(7, start=100))
    data = allowed.wait_rows(7)
    assert sorted(data.column("id").to_pylist()) == list(range(100, 107))


def test_channel_table_is_read_only_to_everyone_else(server, kafka, topic_name, spark):
    kafka.create_topic(topic_name, partitions=1)
    setup = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1)
    setup.wait_status("ACTIVE")
    kafka.produce(topic_name, rows(5))
    before = setup.wait_rows(5)
    table = setup.load_table()
    snapshot = table.current_snapshot().snapshot_id

    # PyIceberg append through the REST catalog.
    one = before.slice(0, 1).to_pylist()
    one[0]["_kafka"] = None
    with pytest.raises(Exception) as excinfo:
        table.append(pa.Table.from_pylist(one, schema=table.schema().as_arrow()))
    assert setup.channel_arn in str(excinfo.value) or "channel" in str(excinfo.value).lower()

    # Spark SQL INSERT through the same catalog.
    cat = spark_catalog(spark, server, setup.bucket_arn)
    with pytest.raises(Exception) as excinfo:
        spark.sql(f"INSERT INTO {cat}.{setup.namespace}.{setup.table} (id, ts, name, _kafka) "
                  f"VALUES (999, TIMESTAMP '2026-11-30 10:00:00', 'spark', NULL)").collect()
    assert "channel" in str(excinfo.value).lower() or "403" in str(excinfo.value)

    # UpdateTableMetadataLocation through the control plane.
    s3t = server.boto3_client("s3tables")
    current = s3t.get_table_metadata_location(tableBucketARN=setup.bucket_arn,
                                              namespace=setup.namespace, name=setup.table)
    with pytest.raises(botocore.exceptions.ClientError) as excinfo:
        s3t.update_table_metadata_location(
            tableBucketARN=setup.bucket_arn, namespace=setup.namespace, name=setup.table,
            versionToken=current["versionToken"],
            metadataLocation=current["metadataLocation"])
    assert excinfo.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    assert setup.channel_arn in excinfo.value.response["Error"]["Message"]

    # Nothing changed.
    assert setup.load_table().current_snapshot().snapshot_id == snapshot
    assert setup.read_arrow().num_rows == 5

    # DeleteTable is allowed.
    s3t.delete_table(tableBucketARN=setup.bucket_arn, namespace=setup.namespace, name=setup.table)
    with pytest.raises(botocore.exceptions.ClientError) as excinfo:
        s3t.get_table(tableBucketARN=setup.bucket_arn, namespace=setup.namespace, name=setup.table)
    assert excinfo.value.response["Error"]["Code"] == "NotFoundException"
