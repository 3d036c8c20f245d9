"""The MSK channel control plane through real clients: boto3 `kafka` (the exact
camelCase bytes of docs/msk-channel-api-notes.md §3.1), the aws CLI and `streamtables
cluster|channel`. The delivery runtime is not needed here: a new channel is
CREATING until a runtime moves it, so status checks accept the seven model
values and every echo is checked byte for byte."""

import json
import os
import subprocess
import sys
import time
import uuid

import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from harness.channels import register_cluster, topic_arn

STATUSES = {"CREATING", "ACTIVE", "UPDATING", "DELETING", "FAILED", "SUSPENDING", "SUSPENDED"}


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def env(server, kafka):
    """A registered cluster, a table bucket and a service role in the server's account."""
    cluster_arn = register_cluster(server, kafka, unique("api"))
    bucket = unique("chan")
    bucket_arn = server.boto3_client("s3tables").create_table_bucket(name=bucket)["arn"]
    role = unique("role")
    server.create_role_with_policy(role)
    role_arn = f"arn:aws:iam::{server.account_id}:role/{role}"
    return {"cluster": cluster_arn, "bucket": bucket_arn, "role": role_arn, "server": server,
            "kafka": kafka}


def kafka_client(server, validate=True):
    config = Config(retries={"max_attempts": 1}, parameter_validation=validate)
    return server.boto3_client("kafka", config=config)


def create_params(env, name, topic="orders"):
    """The §3.1 request in botocore member names, adapted to this server."""
    region, account = env["server"].region, env["server"].account_id
    return dict(
        ClusterArn=env["cluster"],
        ChannelName=name,
        TopicConfigurationList=[{
            "TopicArn": topic_arn(env["cluster"], topic),
            "RecordConverter": {"ValueConverter": "JSON"},
            "RecordSchema": {"GsrArn": f"arn:aws:glue:{region}:{account}:schema/reg/orders"}}],
        IcebergDestinationConfiguration={
            "AppendOnly": True,
            "ServiceExecutionRoleArn": env["role"],
            "DataFreshnessInSeconds": 300,
            "Catalog": {"WarehouseLocation": env["bucket"]},
            "DeadLetterQueueS3": {"BucketArn": "arn:aws:s3:::dlq", "ErrorOutputPrefix": "err/"},
            "DestinationTableList": [{
                "DestinationDatabaseName": "ns", "DestinationTableName": "orders",
                "PartitionSpec": {"PartitionStrategy": "TIME_HOUR",
                                  "SourceList": [{"SourceName": "event_time"}]}}],
            "SchemaEvolution": {"EnableSchemaEvolution": False},
            "TableCreation": {"EnableTableCreation": True},
            "CompressionType": "ZSTD"},
        EncryptionConfiguration={"KmsKeyArn": f"arn:aws:kms:{region}:{account}:key/k"},
        Tags={"a": "b"},
        LoggingInfo={"CloudWatchLogs": {"Enabled": True, "LogGroup": "lg"}},
    )


def expected_wire_body(env, name, topic="orders"):
    region, account = env["server"].region, env["server"].account_id
    return {
        "channelName": name,
        "topicConfigurationList": [{
            "topicArn": topic_arn(env["cluster"], topic),
            "recordConverter": {"valueConverter": "JSON"},
            "recordSchema": {"gsrArn": f"arn:aws:glue:{region}:{account}:schema/reg/orders"}}],
        "icebergDestinationConfiguration": {
            "appendOnly": True, "serviceExecutionRoleArn": env["role"],
            "dataFreshnessInSeconds": 300,
            "catalog": {"warehouseLocation": env["bucket"]},
            "deadLetterQueueS3": {"bucketArn": "arn:aws:s3:::dlq", "errorOutputPrefix": "err/"},
            "destinationTableList": [{
                "destinationDatabaseName": "ns", "destinationTableName": "orders",
                "partitionSpec": {"partitionStrategy": "TIME_HOUR",
                                  "sourceList": [{"sourceName": "event_time"}]}}],
            "schemaEvolution": {"enableSchemaEvolution": False},
            "tableCreation": {"enableTableCreation": True},
            "compressionType": "ZSTD"},
        "encryptionConfiguration": {"kmsKeyArn": f"arn:aws:kms:{region}:{account}:key/k"},
        "tags": {"a": "b"},
        "loggingInfo": {"cloudWatchLogs": {"enabled": True, "logGroup": "lg"}},
    }


def error_of(error):
    """(HTTP status, error code, invalidParameter) of a ClientError or pytest.raises info."""
    r = getattr(error, "value", error).response
    return (r["ResponseMetadata"]["HTTPStatusCode"], r["Error"]["Code"],
            r.get("InvalidParameter") or r["Error"].get("InvalidParameter"))


def test_create_describe_list_tag_delete(env):
    server = env["server"]
    client = kafka_client(server)
    sent = []
    client.meta.events.register("before-send.kafka.CreateChannel",
                                lambda request, **_: sent.append(request))
    name = unique("orders")
    created = client.create_channel(**create_params(env, name))
    # The request on the wire is the contract's camelCase body.
    assert json.loads(sent[0].body) == expected_wire_body(env, name)
    assert "%3A" in sent[0].url and "/v1/clusters/" in sent[0].url
    arn = created["ChannelArn"]
    prefix, _, rest = env["cluster"].partition(":cluster/")
    assert arn.startswith(f"{prefix}:channel/{rest}/{name}/")
    assert ":cluster-operation/" + rest + "/" in created["ClusterOperationArn"]

    got = client.describe_channel(ClusterArn=env["cluster"], ChannelArn=arn)
    assert got["Status"] in STATUSES
    assert got["ChannelArn"] == arn and got["ChannelName"] == name
    assert got["DestinationType"] == "ICEBERG"
    assert got["CreationTime"].year >= 2024
    assert got["Tags"] == {"a": "b"}
    sent_params = create_params(env, name)
    assert got["TopicConfigurationList"] == sent_params["TopicConfigurationList"]
    iceberg = got["IcebergDestinationConfiguration"]
    for key, value in sent_params["IcebergDestinationConfiguration"].items():
        assert iceberg[key] == value, key
    assert got["EncryptionConfiguration"] == sent_params["EncryptionConfiguration"]
    assert got["LoggingInfo"] == sent_params["LoggingInfo"]
    if got["Status"] in {"CREATING", "UPDATING", "DELETING"}:
        assert got["ClusterOperationArn"] == created["ClusterOperationArn"]
        op = client.describe_cluster_operation_v2(ClusterOperationArn=got["ClusterOperationArn"])
        assert op["ClusterOperationInfo"]["ClusterArn"] == env["cluster"]
        assert op["ClusterOperationInfo"]["OperationType"] == "CREATE_CHANNEL"
    # The operation stays describable after it ends, with how it ended, as
    # MSK's docs tell callers to poll it.
    deadline = time.monotonic() + 30
    while True:
        op = client.describe_cluster_operation_v2(
            ClusterOperationArn=created["ClusterOperationArn"])["ClusterOperationInfo"]
        if op["OperationState"] != "PENDING" or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert op["OperationType"] == "CREATE_CHANNEL"
    assert op["OperationArn"] == created["ClusterOperationArn"]
    assert op["OperationState"] in {"COMPLETED", "FAILED"}, op
    assert op["EndTime"] >= op["StartTime"]
    channel_now = client.describe_channel(ClusterArn=env["cluster"], ChannelArn=arn)
    assert channel_now["Status"] not in {"CREATING", "UPDATING", "DELETING"}
    assert (op["OperationState"] == "FAILED") == (channel_now["Status"] == "FAILED")
    if op["OperationState"] == "FAILED":
        assert op["ErrorInfo"]["ErrorCode"] == channel_now["StateInfo"]["Code"]

    # Tags on the channel ARN.
    client.tag_resource(ResourceArn=arn, Tags={"team": "data", "env": "dev"})
    assert client.list_tags_for_resource(ResourceArn=arn)["Tags"] == {
        "a": "b", "team": "data", "env": "dev"}
    client.untag_resource(ResourceArn=arn, TagKeys=["a", "env"])
    assert client.list_tags_for_resource(ResourceArn=arn)["Tags"] == {"team": "data"}

    # A duplicate name is 409.
    with pytest.raises(ClientError) as dup:
        client.create_channel(**create_params(env, name))
    assert error_of(dup)[:2] == (409, "ConflictException")

    deleted = client.delete_channel(ClusterArn=env["cluster"], ChannelArn=arn)
    assert deleted["ChannelArn"] == arn and deleted["ClusterOperationArn"]
    try:
        after = client.describe_channel(ClusterArn=env["cluster"], ChannelArn=arn)
        assert after["Status"] == "DELETING"
    except ClientError as e:  # A delivery runtime may already have removed it.
        assert e.response["Error"]["Code"] == "NotFoundException"


def test_list_pages_and_topic_filter(env):
    client = kafka_client(env["server"])
    cluster = register_cluster(env["server"], env["kafka"], unique("list"))
    local = dict(env, cluster=cluster)
    names = sorted(unique(f"c{i}") for i in range(3))
    for n in names:
        client.create_channel(**create_params(local, n))
    other = unique("pay")
    client.create_channel(**create_params(local, other, topic="payments"))

    seen, token, pages = [], None, 0
    while True:
        kwargs = {"ClusterArn": cluster, "MaxResults": 2}
        if token:
            kwargs["NextToken"] = token
        page = client.list_channels(**kwargs)
        pages += 1
        for info in page["Channels"]:
            assert info["Status"] in STATUSES and info["DestinationType"] == "ICEBERG"
            assert info["ChannelArn"].split("/")[-2] == info["ChannelName"]
            seen.append(info["ChannelName"])
        token = page.get("NextToken")
        if not token:
            break
    assert pages == 2
    assert seen == sorted(names + [other])
    filtered = client.list_channels(ClusterArn=cluster, TopicNameFilter="payments")["Channels"]
    assert [c["ChannelName"] for c in filtered] == [other]
    assert client.list_channels(ClusterArn=cluster, TopicNameFilter="nope")["Channels"] == []

    raw = kafka_client(env["server"], validate=False)
    for bad in (0, 101):
        with pytest.raises(ClientError) as e:
            raw.list_channels(ClusterArn=cluster, MaxResults=bad)
        assert error_of(e) == (400, "BadRequestException", "maxResults")


def test_update_freshness(env):
    client = kafka_client(env["server"], validate=False)
    name = unique("upd")
    arn = client.create_channel(**create_params(env, name))["ChannelArn"]
    with pytest.raises(ClientError) as bad:
        client.update_channel(ClusterArn=env["cluster"], ChannelArn=arn,
                              IcebergDestinationUpdate={"DataFreshnessInSeconds": 0})
    assert error_of(bad) == (400, "BadRequestException", "dataFreshnessInSeconds")
    status = client.describe_channel(ClusterArn=env["cluster"], ChannelArn=arn)["Status"]
    try:
        reply = client.update_channel(ClusterArn=env["cluster"], ChannelArn=arn,
                                      IcebergDestinationUpdate={"DataFreshnessInSeconds": 120})
    except ClientError as e:
        # Only an ACTIVE channel can be updated; without a runtime it is still CREATING.
        assert status != "ACTIVE"
        assert error_of(e) == (400, "BadRequestException", "channelArn")
        assert status in e.response["Error"]["Message"]
    else:
        assert status == "ACTIVE" and reply["ChannelArn"] == arn
        got = client.describe_channel(ClusterArn=env["cluster"], ChannelArn=arn)
        assert got["IcebergDestinationConfiguration"]["DataFreshnessInSeconds"] == 120


@pytest.mark.parametrize("case", [
    "missing_append_only", "freshness_zero", "two_topics", "unknown_converter",
    "unknown_cluster", "missing_warehouse", "bad_role", "schema_evolution",
])
def test_create_errors(env, case):
    client = kafka_client(env["server"], validate=False)
    params = create_params(env, unique("bad"))
    iceberg = params["IcebergDestinationConfiguration"]
    expected = (400, "BadRequestException")
    if case == "missing_append_only":
        del iceberg["AppendOnly"]
        parameter = "appendOnly"
    elif case == "freshness_zero":
        iceberg["DataFreshnessInSeconds"] = 0
        parameter = "dataFreshnessInSeconds"
    elif case == "two_topics":
        params["TopicConfigurationList"] *= 2
        parameter = "topicConfigurationList"
    elif case == "unknown_converter":
        params["TopicConfigurationList"][0]["RecordConverter"]["ValueConverter"] = "AVRO"
        parameter = "valueConverter"
    elif case == "unknown_cluster":
        params["ClusterArn"] = env["cluster"].rsplit("/", 1)[0] + "/" + str(uuid.uuid4())
        expected, parameter = (404, "NotFoundException"), "clusterArn"
    elif case == "missing_warehouse":
        iceberg["Catalog"]["WarehouseLocation"] = env["bucket"] + "-missing"
        parameter = "warehouseLocation"
    elif case == "bad_role":
        iceberg["ServiceExecutionRoleArn"] = "not-a-role"
        parameter = "serviceExecutionRoleArn"
    else:
        iceberg["SchemaEvolution"]["EnableSchemaEvolution"] = True
        parameter = "enableSchemaEvolution"
    with pytest.raises(ClientError) as e:
        client.create_channel(**params)
    assert error_of(e) == expected + (parameter,)
    assert e.value.response["Error"]["Message"]
    assert e.value.response["ResponseMetadata"]["RequestId"]


def test_caller_without_permission_is_forbidden(env):
    server = env["server"]
    # May create channels but not pass the role.
    creds = server.create_user_with_policy(unique("nopass"), {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "kafka:*", "Resource": "*"}]})
    client = server.boto3_client("kafka", creds)
    with pytest.raises(ClientError) as e:
        client.create_channel(**create_params(env, unique("denied")))
    assert error_of(e)[:2] == (403, "ForbiddenException")
    assert "iam:PassRole" in e.value.response["Error"]["Message"]
    names = [c["ChannelName"] for c in
             kafka_client(server).list_channels(ClusterArn=env["cluster"])["Channels"]]
    assert not any(n.startswith("denied") for n in names)


def test_aws_cli_create_and_describe(env):
    server = env["server"]
    aws = os.path.join(os.path.dirname(sys.executable), "aws")
    params = create_params(env, unique("cli"))
    client = kafka_client(server)
    shape = client.meta.service_model.operation_model("CreateChannel").input_shape
    assert "IcebergDestinationConfiguration" in shape.members
    cred_env = dict(os.environ, AWS_ACCESS_KEY_ID=server.access_key,
                    AWS_SECRET_ACCESS_KEY=server.secret_key, AWS_DEFAULT_REGION=server.region)
    common = ["--endpoint-url", server.api_url, "--output", "json"]
    result = subprocess.run(
        [aws, "kafka", "create-channel", *common,
         "--cluster-arn", params["ClusterArn"], "--channel-name", params["ChannelName"],
         "--topic-configuration-list", json.dumps(params["TopicConfigurationList"]),
         "--iceberg-destination-configuration",
         json.dumps(params["IcebergDestinationConfiguration"])],
        capture_output=True, text=True, env=cred_env, timeout=60)
    assert result.returncode == 0, result.stderr
    arn = json.loads(result.stdout)["ChannelArn"]
    shown = subprocess.run(
        [aws, "kafka", "describe-channel", *common, "--cluster-arn", params["ClusterArn"],
         "--channel-arn", arn], capture_output=True, text=True, env=cred_env, timeout=60)
    assert shown.returncode == 0, shown.stderr
    doc = json.loads(shown.stdout)
    assert doc["ChannelName"] == params["ChannelName"] and doc["Status"] in STATUSES
    assert doc["IcebergDestinationConfiguration"]["CompressionType"] == "ZSTD"


def test_streamtables_cluster_and_channel_commands(env, kafka):
    server = env["server"]
    cluster = unique("clicl")
    cluster_arn = server.cli("cluster", "register", cluster, "--bootstrap-servers",
                             kafka.bootstrap, "--property", "client.id=st").stdout.strip()
    assert f":cluster/{cluster}/" in cluster_arn
    assert cluster_arn in server.cli("cluster", "list").stdout
    bad = server.cli("cluster", "register", unique("bad"), "--bootstrap-servers", "h:1",
                     "--property", "group.id=x", check=False)
    assert bad.returncode == 1 and "group.id" in bad.stderr

    bucket = env["bucket"].rsplit("/", 1)[1]
    arn = server.cli("channel", "create", "--cluster", cluster, "--name", "clicks",
                     "--topic", "clicks", "--bucket", bucket, "--namespace", "web",
                     "--table", "clicks", "--format", "string", "--key-format", "string",
                     "--partition-by", "day",
                     "--freshness", "5", "--dlq-bucket", "dlq", "--dlq-prefix", "errors/",
                     "--dlq-topic", "clicks-dlq", "--role-arn", env["role"]).stdout.strip()
    assert "/clicks/" in arn
    doc = json.loads(server.cli("channel", "describe", "--cluster", cluster, "clicks",
                                "--json").stdout)
    iceberg = doc["icebergDestinationConfiguration"]
    assert doc["status"] in STATUSES and doc["channelArn"] == arn
    assert doc["topicConfigurationList"][0]["recordConverter"] == {
        "valueConverter": "STRING", "keyConverter": "STRING"}
    assert iceberg["dataFreshnessInSeconds"] == 5
    assert iceberg["destinationTableList"][0]["partitionSpec"] == {
        "partitionStrategy": "TIME_DAY", "sourceList": []}
    assert iceberg["deadLetterTopic"] == {"topicName": "clicks-dlq"}
    assert iceberg["includeKafkaMetadata"] is True
    listed = json.loads(server.cli("channel", "list", "--cluster-arn", cluster_arn,
                                   "--json").stdout)["channels"]
    assert [c["channelName"] for c in listed] == ["clicks"]

    server.cli("channel", "pause", "--cluster", cluster, "clicks")
    assert json.loads(server.cli("channel", "describe", "--cluster", cluster, "clicks",
                                 "--json").stdout)["paused"] is True
    server.cli("channel", "resume", "--cluster", cluster, "clicks")
    assert json.loads(server.cli("channel", "describe", "--cluster", cluster, "clicks",
                                 "--json").stdout)["paused"] is False

    # Every --format names its valueConverter; an unknown one lists them all.
    formats = {"json-gsr": "JSON_SCHEMA_GSR", "json-schema-confluent": "JSON_SCHEMA_CONFLUENT",
               "avro-gsr": "AVRO_GSR", "avro-confluent": "AVRO_CONFLUENT",
               "protobuf-confluent": "PROTOBUF_CONFLUENT", "protobuf-gsr": "PROTOBUF_GSR",
               "bytes": "BYTE_ARRAY"}
    for fmt, converter in formats.items():
        name = "f-" + fmt
        server.cli("channel", "create", "--cluster", cluster, "--name", name, "--topic", name,
                   "--bucket", bucket, "--namespace", "web", "--table", name.replace("-", "_"),
                   "--format", fmt, "--dlq-bucket", "dlq", "--role-arn", env["role"])
        shown = json.loads(server.cli("channel", "describe", "--cluster", cluster, name,
                                      "--json").stdout)
        assert shown["topicConfigurationList"][0]["recordConverter"] == {
            "valueConverter": converter}
        server.cli("channel", "delete", "--cluster", cluster, name)
    unknown = server.cli("channel", "create", "--cluster", cluster, "--name", "u", "--topic", "u",
                         "--bucket", bucket, "--namespace", "web", "--table", "u", "--format",
                         "avro", "--dlq-bucket", "dlq", "--role-arn", env["role"], check=False)
    assert unknown.returncode == 1
    assert "--format must be one of json, json-gsr" in unknown.stderr
    assert "avro-confluent, protobuf-confluent, protobuf-gsr, bytes, string" in unknown.stderr
    bad_key = server.cli("channel", "create", "--cluster", cluster, "--name", "u", "--topic", "u",
                         "--bucket", bucket, "--namespace", "web", "--table", "u", "--key-format",
                         "avro", "--dlq-bucket", "dlq", "--role-arn", env["role"], check=False)
    assert bad_key.returncode == 1
    assert ("--key-format must be bytes, string, avro-confluent, protobuf-confluent or "
            "json-schema-confluent") in bad_key.stderr
    # Typed keys: the CLI sends the keyConverter; the server refuses one a
    # non-Confluent value converter cannot resolve.
    server.cli("channel", "create", "--cluster", cluster, "--name", "typed", "--topic", "typed",
               "--bucket", bucket, "--namespace", "web", "--table", "typed", "--format",
               "avro-confluent", "--key-format", "protobuf-confluent", "--dlq-bucket", "dlq",
               "--role-arn", env["role"])
    shown = json.loads(server.cli("channel", "describe", "--cluster", cluster, "typed",
                                  "--json").stdout)
    assert shown["topicConfigurationList"][0]["recordConverter"] == {
        "valueConverter": "AVRO_CONFLUENT", "keyConverter": "PROTOBUF_CONFLUENT"}
    server.cli("channel", "delete", "--cluster", cluster, "typed")
    # Typed keys with BYTE_ARRAY values (ids in the built-in registry).
    server.cli("channel", "create", "--cluster", cluster, "--name", "u", "--topic", "u",
               "--bucket", bucket, "--namespace", "web", "--table", "u", "--format",
               "bytes", "--key-format", "avro-confluent", "--dlq-bucket", "dlq",
               "--role-arn", env["role"])
    shown = json.loads(server.cli("channel", "describe", "--cluster", cluster, "u",
                                  "--json").stdout)
    assert shown["topicConfigurationList"][0]["recordConverter"] == {
        "valueConverter": "BYTE_ARRAY", "keyConverter": "AVRO_CONFLUENT"}
    server.cli("channel", "delete", "--cluster", cluster, "u")

    busy = server.cli("cluster", "delete", cluster, check=False)
    assert busy.returncode == 1 and "ConflictException" in busy.stderr
    assert "deleting" in server.cli("channel", "delete", "--cluster", cluster, "clicks").stdout
    missing = server.cli("channel", "describe", "--cluster", cluster, "nope", check=False)
    assert missing.returncode == 1 and "nope" in missing.stderr
