"""Delivery-channel set-up as a user does it, over the public APIs only:
register the Kafka cluster (admin API), create a table bucket (boto3
s3tables), a DLQ bucket (boto3 s3), a service role with the permission policy
of docs/msk-channel-api-notes.md §7, a JSON schema in the built-in Glue registry (boto3
glue), and the channel itself (boto3 kafka, the exact camelCase body botocore
sends). Then wait for the status and for rows to be visible through the
Iceberg REST catalog with PyIceberg.

Typical use (see test_channel_e2e.py):
  setup = ChannelSetup.create(server, kafka, topic, schema=CLICK_SCHEMA, freshness=1)
  setup.wait_status("ACTIVE")
  kafka.produce(topic, [json.dumps(r).encode() for r in rows])
  table = setup.wait_rows(len(rows))
"""

import dataclasses
import json
import time
import uuid
from typing import Any, Optional
from urllib.parse import quote


def register_cluster(server, kafka, name: Optional[str] = None) -> str:
    """Registers the broker with the server; returns the cluster ARN."""
    name = name or f"local-{uuid.uuid4().hex[:8]}"
    body = server.admin("POST", "/kafka-clusters",
                        {"name": name, "bootstrapServers": kafka.bootstrap})
    return body["clusterArn"]


def topic_arn(cluster_arn: str, topic: str) -> str:
    # cluster ARN ...:cluster/<name>/<uuid> -> ...:topic/<name>/<uuid>/<topic>
    prefix, _, rest = cluster_arn.partition(":cluster/")
    return f"{prefix}:topic/{rest}/{topic}"


def service_role_policy(region: str, account_id: str, bucket_name: str, dlq_bucket: str) -> dict:
    """The documented permission policy of a channel's service execution role."""
    bucket_arn = f"arn:aws:s3tables:{region}:{account_id}:bucket/{bucket_name}"
    return {
        "Version": "2012-10-17",
        "Statement": [
            {"Sid": "AllowS3TablesActions", "Effect": "Allow",
             "Action": ["s3tables:GetTable", "s3tables:GetTableMetadataLocation",
                        "s3tables:UpdateTableMetadataLocation", "s3tables:CreateTable",
                        "s3tables:PutTableData", "s3tables:CreateNamespace",
                        "s3tables:GetTableData", "s3tables:GetTableBucket",
                        "s3tables:TagResource", "s3tables:PutTableRecordExpirationConfiguration"],
             "Resource": [bucket_arn, bucket_arn + "/table/*"]},
            {"Sid": "DLQBucketAccess", "Effect": "Allow",
             "Action": ["s3:GetBucketLocation", "s3:PutObject", "s3:ListBucket"],
             "Resource": [f"arn:aws:s3:::{dlq_bucket}", f"arn:aws:s3:::{dlq_bucket}/*"]},
            {"Sid": "GlueSchemaRegistryAccess", "Effect": "Allow",
             "Action": ["glue:GetSchemaVersion"],
             "Resource": [f"arn:aws:glue:{region}:{account_id}:schema/*",
                          f"arn:aws:glue:{region}:{account_id}:registry/*"]},
        ],
    }


def bucket_writer_role_policy(region: str, bucket_arn: str, dlq_bucket: str, account_id: str) -> dict:
    """A service role policy naming a table bucket by ARN (which may be another
    account's): s3tables:* on it, the DLQ bucket and the role account's schemas."""
    return {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": "s3tables:*",
         "Resource": [bucket_arn, bucket_arn + "/table/*"]},
        {"Effect": "Allow", "Action": "s3:PutObject",
         "Resource": f"arn:aws:s3:::{dlq_bucket}/*"},
        {"Effect": "Allow", "Action": "glue:GetSchemaVersion",
         "Resource": f"arn:aws:glue:{region}:{account_id}:schema/*"}]}


def glue_client(server, creds=None):
    return server.boto3_client("glue", creds)


def glue_kafka_serializer(server, compatibility_mode: str = "BACKWARD"):
    """AWS's aws-glue-schema-registry KafkaSerializer (unmodified) against the
    server's Glue API: it registers each schema as a version of the schema
    named after the topic in default-registry and frames the record."""
    from aws_schema_registry import KafkaSerializer, SchemaRegistryClient

    gsr = SchemaRegistryClient(glue_client(server), registry_name="default-registry",
                               wait_interval_seconds=0)
    return KafkaSerializer(gsr, compatibility_mode=compatibility_mode)


def kafka_client(server, creds=None):
    return server.boto3_client("kafka", creds)


def register_json_schema(server, name: str, schema: dict, registry: str = "default-registry") -> str:
    """Creates (or reuses) the registry and a JSON schema; returns the schema ARN."""
    glue = glue_client(server)
    try:
        glue.create_registry(RegistryName=registry)
    except glue.exceptions.AlreadyExistsException:
        pass
    created = glue.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                                 DataFormat="JSON", Compatibility="NONE",
                                 SchemaDefinition=json.dumps(schema))
    return created["SchemaArn"]


_BOTOCORE_ICEBERG_FIELDS = {
    "appendOnly", "serviceExecutionRoleArn", "dataFreshnessInSeconds", "catalog",
    "deadLetterQueueS3", "destinationTableList", "schemaEvolution", "tableCreation",
    "compressionType"}


def _pascal(value):
    """botocore member names are the wire names with a capital first letter."""
    if isinstance(value, dict):
        return {k[:1].upper() + k[1:]: _pascal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_pascal(v) for v in value]
    return value


@dataclasses.dataclass
class ChannelSetup:
    server: Any
    kafka: Any
    topic: str
    cluster_arn: str
    channel_arn: str
    channel_name: str
    bucket_arn: str
    bucket_name: str
    namespace: str
    table: str
    dlq_bucket: str
    dlq_prefix: str
    role_arn: str
    # Credentials the readers use (default: the server's admin).
    reader: Any = None

    @classmethod
    def create(cls, server, kafka, topic: str, schema: Optional[dict] = None,
               converter: str = "JSON", partition_source: Optional[str] = "ts",
               strategy: str = "TIME_HOUR", freshness: int = 1,
               cluster_arn: Optional[str] = None, role_policy: Optional[dict] = None,
               extra_iceberg: Optional[dict] = None, create_bucket: bool = True,
               bucket_name: Optional[str] = None, role_account: Optional[str] = None,
               role_arn: Optional[str] = None, namespace: str = "events",
               table: Optional[str] = None, bucket_arn: Optional[str] = None,
               dlq_bucket: Optional[str] = None,
               record_schema: Optional[dict] = None,
               key_converter: Optional[str] = None) -> "ChannelSetup":
        suffix = uuid.uuid4().hex[:8]
        bucket_name = bucket_name or f"stream-{suffix}"
        dlq_bucket = dlq_bucket or f"dlq-{suffix}"
        table = table or f"t_{suffix}"
        cluster_arn = cluster_arn or register_cluster(server, kafka)
        if create_bucket:
            server.boto3_client("s3tables").create_table_bucket(name=bucket_name)
        bucket_arn = bucket_arn or server.bucket_arn(bucket_name)
        s3 = server.boto3_client("s3")
        try:
            s3.create_bucket(Bucket=dlq_bucket)
        except s3.exceptions.BucketAlreadyOwnedByYou:
            pass
        if role_arn is None:
            policy = role_policy if role_policy is not None else service_role_policy(
                server.region, server.account_id, bucket_name, dlq_bucket)
            role = server.create_role_with_policy(f"channel-role-{suffix}", policy,
                                                  account_id=role_account)
            role_arn = role.arn
        topic_config = {"topicArn": topic_arn(cluster_arn, topic),
                        "recordConverter": {"valueConverter": converter}}
        if key_converter is not None:
            topic_config["recordConverter"]["keyConverter"] = key_converter
        if converter == "JSON":
            schema_arn = register_json_schema(server, f"schema-{suffix}", schema)
            topic_config["recordSchema"] = {"gsrArn": schema_arn}
        if record_schema is not None:
            topic_config["recordSchema"] = record_schema
        partition_spec: dict = {"partitionStrategy": strategy}
        if partition_source:
            partition_spec["sourceList"] = [{"sourceName": partition_source}]
        iceberg = {
            "appendOnly": True,
            "serviceExecutionRoleArn": role_arn,
            "dataFreshnessInSeconds": freshness,
            "catalog": {"warehouseLocation": bucket_arn},
            "deadLetterQueueS3": {"bucketArn": f"arn:aws:s3:::{dlq_bucket}",
                                  "errorOutputPrefix": "errors/"},
            "destinationTableList": [{"destinationDatabaseName": namespace,
                                      "destinationTableName": table,
                                      "partitionSpec": partition_spec}],
            "schemaEvolution": {"enableSchemaEvolution": False},
            "tableCreation": {"enableTableCreation": True},
            "compressionType": "ZSTD",
        }
        iceberg.update(extra_iceberg or {})
        name = f"ch-{suffix}"
        if (extra_iceberg and set(extra_iceberg) - _BOTOCORE_ICEBERG_FIELDS) or (
                record_schema and "externalSchemaRegistry" in record_schema) or key_converter:
            # Our extensions are not in botocore's model: send the wire JSON.
            body = json.dumps({"channelName": name, "topicConfigurationList": [topic_config],
                               "icebergDestinationConfiguration": iceberg})
            r = server.signed_request(
                "POST", f"{server.api_url}/v1/clusters/{encoded(cluster_arn)}/channels",
                service="kafka", body=body, headers={"Content-Type": "application/json"})
            assert r.status_code == 200, r.text
            channel_arn = r.json()["channelArn"]
        else:
            created = kafka_client(server).create_channel(
                ClusterArn=cluster_arn, ChannelName=name,
                TopicConfigurationList=[_pascal(topic_config)],
                IcebergDestinationConfiguration=_pascal(iceberg))
            channel_arn = created["ChannelArn"]
        return cls(server, kafka, topic, cluster_arn, channel_arn, name, bucket_arn,
                   bucket_name, namespace, table, dlq_bucket, "errors/", role_arn)

    # ------------------------------------------------------------ status
    def describe(self) -> dict:
        return kafka_client(self.server).describe_channel(ClusterArn=self.cluster_arn,
                                                          ChannelArn=self.channel_arn)

    def wait_status(self, *statuses: str, timeout_s: float = 60.0) -> dict:
        deadline = time.monotonic() + timeout_s
        last = None
        while time.monotonic() < deadline:
            last = self.describe()
            if last["Status"] in statuses:
                return last
            time.sleep(0.2)
        raise AssertionError(f"channel {self.channel_name} never reached {statuses}; last: {last}")

    # ------------------------------------------------------------ reading
    def catalog(self):
        from pyiceberg.catalog import load_catalog

        creds = self.reader or self.server.admin_credentials
        return load_catalog(f"st-{uuid.uuid4().hex[:6]}", **{
            "type": "rest", "uri": self.server.iceberg_url, "warehouse": self.bucket_arn,
            "rest.sigv4-enabled": "true", "rest.signing-name": "s3tables",
            "rest.signing-region": self.server.region,
            "client.access-key-id": creds.access_key,
            "client.secret-access-key": creds.secret_key, "client.region": self.server.region})

    def load_table(self):
        return self.catalog().load_table(f"{self.namespace}.{self.table}")

    def read_arrow(self):
        """The whole table as a pyarrow Table, or None while it does not exist yet."""
        from pyiceberg.exceptions import NoSuchTableError

        try:
            table = self.load_table()
        except NoSuchTableError:
            return None
        if table.current_snapshot() is None:
            return None
        return table.scan().to_arrow()

    def wait_rows(self, count: int, timeout_s: float = 90.0):
        """Polls until the table holds at least `count` rows; returns the arrow table."""
        deadline = time.monotonic() + timeout_s
        seen = 0
        while time.monotonic() < deadline:
            data = self.read_arrow()
            seen = 0 if data is None else data.num_rows
            if seen >= count:
                return data
            time.sleep(0.3)
        raise AssertionError(f"table {self.namespace}.{self.table} has {seen} rows, "
                             f"expected {count} within {timeout_s}s\n{self.server.log_tail(40)}")

    def dlq_lines(self) -> list[dict]:
        """Every JSON line of every DLQ object under the error prefix."""
        s3 = self.server.boto3_client("s3")
        lines = []
        listed = s3.list_objects_v2(Bucket=self.dlq_bucket, Prefix=self.dlq_prefix)
        for obj in listed.get("Contents", []):
            body = s3.get_object(Bucket=self.dlq_bucket, Key=obj["Key"])["Body"].read()
            lines += [json.loads(line) for line in body.decode().splitlines() if line.strip()]
        return lines

    def metrics_text(self) -> str:
        return self.server.metrics_text()


def encoded(arn: str) -> str:
    return quote(arn, safe="")
