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

from harness.channels import topic_arn


def role_policy(region, bucket_arn, dlq_bucket, account_id):
    return {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": "s3tables:*",
         "Resource": [bucket_arn, bucket_arn + "/table/*"]},
        {"Effect": "Allow", "Action": "s3:PutObject",
         "Resource": f"arn:aws:s3:::{dlq_bucket}/*"},
        {"Effect": "Allow", "Action": "glue:GetSchemaVersion",
         "Resource": f"arn:aws:glue:{region}:{account_id}:schema/*"}]}


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

    # Account B, the caller: allowed everything in its own account.
    attacker = server.create_account()
    mallory = server.create_user_with_policy(f"mallory-{suffix}", ALLOW_ALL, account_id=attacker)
    cluster_arn = server.admin("POST", "/kafka-clusters",
                               {"name": f"b-{suffix}", "bootstrapServers": kafka.bootstrap},
                               params={"accountId": attacker})["clusterArn"]
    mallory_s3t = server.boto3_client("s3tables", mallory)
    own_bucket = mallory_s3t.create_table_bucket(name=f"own-{suffix}")["arn"]
    own_dlq = f"own-dlq-{suffix}"
    server.boto3_client("s3", mallory).create_bucket(Bucket=own_dlq)
    client = server.boto3_client("kafka", mallory)

    for name, bucket, dlq in (("into-victim", victim_bucket, victim_dlq),
                              ("into-own", own_bucket, own_dlq)):
        with pytest.raises(botocore.exceptions.ClientError) as info:
            create_channel(client, cluster_arn, topic_name, name, victim_role.arn, bucket, dlq)
        response = info.value.response
        assert response["ResponseMetadata"]["HTTPStatusCode"] == 403, response
        assert response["Error"]["Code"] == "ForbiddenException"
        assert response["InvalidParameter"] == "serviceExecutionRoleArn"
        message = response["Error"]["Message"]
        assert "iam:PassRole" in message and victim_role.arn in message and attacker in message

    # The operator's admin (another account again) cannot pass A's role either.
    admin_cluster = server.admin("POST", "/kafka-clusters", {
        "name": f"op-{suffix}", "bootstrapServers": kafka.bootstrap})["clusterArn"]
    with pytest.raises(botocore.exceptions.ClientError) as info:
        create_channel(server.boto3_client("kafka"), admin_cluster, topic_name, "op",
                       victim_role.arn, victim_bucket, victim_dlq)
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403

    # Records arrive; still nothing anywhere.
    kafka.produce(topic_name, [b"r1", b"r2", b"r3"])
    time.sleep(3.0)
    assert client.list_channels(ClusterArn=cluster_arn)["Channels"] == []
    assert server.boto3_client("kafka").list_channels(ClusterArn=admin_cluster)["Channels"] == []
    assert owner_s3t.list_tables(tableBucketARN=victim_bucket)["tables"] == []
    assert owner_s3t.list_namespaces(tableBucketARN=victim_bucket)["namespaces"] == []
    assert mallory_s3t.list_tables(tableBucketARN=own_bucket)["tables"] == []

    # The caller's own role is accepted (the check is on the account, nothing else).
    own_role = server.create_role_with_policy(
        f"own-writer-{suffix}", role_policy(server.region, own_bucket, own_dlq, attacker),
        account_id=attacker)
    created = create_channel(client, cluster_arn, topic_name, "own-role", own_role.arn,
                             own_bucket, own_dlq)
    assert created["ChannelArn"]
    client.delete_channel(ClusterArn=cluster_arn, ChannelArn=created["ChannelArn"])
