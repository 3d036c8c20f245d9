"""CreateChannel passes only a role of the caller's own account (issue 9,
item 3), as IAM PassRole does: account B's user, allowed every action in B,
names account A's role (which may write A's bucket) and is refused with 403
ForbiddenException, invalidParameter serviceExecutionRoleArn; no channel is
listed and no table appears in A's bucket or in B's, even after records
arrive. Writing into another account's bucket through that bucket's policy
granting the caller's own role is covered by test_channel_access.py.
"""

import time
import uuid

import botocore.exceptions
import pytest

from harness.channels import bucket_writer_role_policy as role_policy, topic_arn


ALLOW_ALL = {"Version": "2012-10-17",
             "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}


def create_channel(client, cluster_arn, topic, name, role_arn, bucket_arn, dlq_bucket):
    return client.create_channel(
        ClusterArn=cluster_arn, ChannelName=name,
        TopicConfigurationList=[{"TopicArn": topic_arn(cluster_arn, topic),
                                 "RecordConverter": {"ValueConverter": "BYTE_ARRAY"}}],
        IcebergDestinationConfiguration={
            "AppendOnly": True, "ServiceExecutionRoleArn": role_arn,
            "DataFreshnessInSeconds": 1, "Catalog": {"WarehouseLocation": bucket_arn},
            "DeadLetterQueueS3": {"BucketArn": f"arn:aws:s3:::{dlq_bucket}",
                                  "ErrorOutputPrefix": "errors/"},
            "DestinationTableList": [{"DestinationDatabaseName": "events",
                                      "DestinationTableName": name.replace("-", "_"),
                                      "PartitionSpec": {"PartitionStrategy": "TIME_HOUR"}}],
            "SchemaEvolution": {"EnableSchemaEvolution": False},
            "TableCreation": {"EnableTableCreation": True}})


def expect_pass_role_refused(call, role_arn, caller_account):
    with pytest.raises(botocore.exceptions.ClientError) as info:
        call()
    response = info.value.response
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 403, response["Error"]
    assert response["Error"]["Code"] == "ForbiddenException"
    assert response.get("InvalidParameter") == "serviceExecutionRoleArn", response["Error"]
    message = response["Error"]["Message"]
    assert "iam:PassRole" in message and role_arn in message and caller_account in message


def test_role_of_another_account_is_refused_and_nothing_is_created(server, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=1)
    suffix = uuid.uuid4().hex[:6]

    # Account A, the victim: a table bucket and a role that may write it.
    victim = server.create_account()
    owner = server.create_user_with_policy(f"owner-{suffix}", ALLOW_ALL, account_id=victim)
    owner_s3t = server.boto3_client("s3tables", owner)
    victim_bucket = owner_s3t.create_table_bucket(name=f"victim-{suffix}")["arn"]
    victim_dlq = f"victim-dlq-{suffix}"
    server.boto3_client("s3", owner).create_bucket(Bucket=victim_dlq)
    victim_role = server.create_role_with_policy(
        f"writer-{suffix}", role_policy(server.region, victim_bucket, victim_dlq, victim),
        account_id=victim)
    assert f"::{victim}:role/" in victim_role.arn

    # Caller 1: a user of the server's own (operator) account, allowed everything.
    op_user = server.create_user_with_policy(f"op-{suffix}", ALLOW_ALL)
    op_cluster = server.admin("POST", "/kafka-clusters", {
        "name": f"op-{suffix}", "bootstrapServers": kafka.bootstrap})["clusterArn"]
    op_bucket = server.boto3_client("s3tables").create_table_bucket(name=f"op-{suffix}")["arn"]
    op_dlq = f"op-dlq-{suffix}"
    server.boto3_client("s3").create_bucket(Bucket=op_dlq)
    op_client = server.boto3_client("kafka", op_user)

    # Caller 2: a user of another tenant account B, allowed everything in B.
    attacker = server.create_account()
    mallory = server.create_user_with_policy(f"mallory-{suffix}", ALLOW_ALL, account_id=attacker)
    b_cluster = server.admin("POST", "/kafka-clusters",
                             {"name": f"b-{suffix}", "bootstrapServers": kafka.bootstrap},
                             params={"accountId": attacker}, creds=mallory)["clusterArn"]
    mallory_s3t = server.boto3_client("s3tables", mallory)
    b_bucket = mallory_s3t.create_table_bucket(name=f"own-{suffix}")["arn"]
    b_dlq = f"b-dlq-{suffix}"
    server.boto3_client("s3", mallory).create_bucket(Bucket=b_dlq)
    b_client = server.boto3_client("kafka", mallory)

    for client, cluster, account, own_bucket, own_dlq in (
            (op_client, op_cluster, server.account_id, op_bucket, op_dlq),
            (b_client, b_cluster, attacker, b_bucket, b_dlq)):
        for name, bucket, dlq in (("into-victim", victim_bucket, victim_dlq),
                                  ("into-own", own_bucket, own_dlq)):
            expect_pass_role_refused(
                lambda: create_channel(client, cluster, topic_name, name, victim_role.arn, bucket,
                                       dlq), victim_role.arn, account)

    # Records arrive; still nothing anywhere.
    kafka.produce(topic_name, [b"r1", b"r2", b"r3"])
    time.sleep(3.0)
    assert op_client.list_channels(ClusterArn=op_cluster)["Channels"] == []
    assert b_client.list_channels(ClusterArn=b_cluster)["Channels"] == []
    assert owner_s3t.list_tables(tableBucketARN=victim_bucket)["tables"] == []
    assert owner_s3t.list_namespaces(tableBucketARN=victim_bucket)["namespaces"] == []
    assert server.boto3_client("s3tables").list_tables(tableBucketARN=op_bucket)["tables"] == []
    assert mallory_s3t.list_tables(tableBucketARN=b_bucket)["tables"] == []

    # Each caller's own role is accepted: the check is on the role's account.
    for client, cluster, account, bucket, dlq, creds in (
            (op_client, op_cluster, server.account_id, op_bucket, op_dlq, None),
            (b_client, b_cluster, attacker, b_bucket, b_dlq, attacker)):
        role = server.create_role_with_policy(
            f"own-writer-{account}-{suffix}", role_policy(server.region, bucket, dlq, account),
            account_id=creds)
        created = create_channel(client, cluster, topic_name, "own-role", role.arn, bucket, dlq)
        assert created["ChannelArn"]
        client.delete_channel(ClusterArn=cluster, ChannelArn=created["ChannelArn"])
