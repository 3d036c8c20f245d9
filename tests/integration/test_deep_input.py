"""Deeply nested input on every surface that parses outside JSON (issue 9,
item 2): the review's 8,000-deep createTable schema killed the whole process.
Each case sends the deep body through the real server and checks the 400 in
that surface's own error shape, that nothing was created, and that the same
server then answers a normal request. The limits (README "Input limits"):
JSON documents nest at most 512 arrays/objects, Iceberg types at most 100
struct/list/map levels, Avro schemas 128 levels; a schema at the limit works.
"""

import json
import uuid

import pytest
from botocore.exceptions import ClientError

from harness.channels import glue_client, topic_arn
from iceberg_rest_clients import iceberg_request, new_bucket

MAX_JSON_NESTING = 512
MAX_TYPE_NESTING = 100


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def nested_struct_schema(levels: int) -> str:
    """An Iceberg schema (JSON text) whose one column nests `levels` structs."""
    head, tail = [], []
    for i in range(levels):
        head.append('{"id":%d,"name":"s","required":false,"type":{"type":"struct","fields":[' % (i + 1))
        tail.append("]}}")
    leaf = '{"id":%d,"name":"leaf","required":false,"type":"int"}' % (levels + 1)
    return ('{"type":"struct","schema-id":0,"fields":[' + "".join(head) + leaf + "".join(tail) +
            "]}")


def deep_arrays(depth: int) -> str:
    return "[" * depth + "]" * depth


def assert_still_serving(server):
    assert server.running, server.log_tail()
    r = server.signed_request("GET", server.api_url + "/buckets", params={"maxBuckets": "1"})
    assert r.status_code == 200, r.text


# ---------------------------------------------------------------- Iceberg REST
def test_iceberg_rest_8000_deep_create_table_is_400_and_the_server_keeps_serving(server):
    arn = new_bucket(server, "deep")
    r = iceberg_request(server, "POST", "namespaces", arn, body=json.dumps({"namespace": ["ns"]}))
    assert r.status_code == 200, r.text
    body = '{"name":"deep","schema":' + nested_struct_schema(8000) + "}"
    assert 600_000 < len(body) < 1024 * 1024  # The review's request: under the body limit.

    r = iceberg_request(server, "POST", "namespaces/ns/tables", arn, body=body)
    assert r.status_code == 400, r.text[:500]
    error = r.json()["error"]
    assert error["type"] == "BadRequestException" and error["code"] == 400, r.text[:500]
    assert "deeper than 512 levels" in error["message"], error["message"]

    # The process survived, serves a second request, and created nothing.
    assert_still_serving(server)
    listed = iceberg_request(server, "GET", "namespaces/ns/tables", arn)
    assert listed.status_code == 200 and listed.json()["identifiers"] == [], listed.text
    assert iceberg_request(server, "GET", "namespaces/ns/tables/deep", arn).status_code == 404


def test_iceberg_rest_type_nesting_limit_and_one_more(server):
    arn = new_bucket(server, "deeplimit")
    assert iceberg_request(server, "POST", "namespaces", arn,
                           body=json.dumps({"namespace": ["ns"]})).status_code == 200
    over = '{"name":"over","schema":' + nested_struct_schema(MAX_TYPE_NESTING + 1) + "}"
    r = iceberg_request(server, "POST", "namespaces/ns/tables", arn, body=over)
    assert r.status_code == 400, r.text[:500]
    error = r.json()["error"]
    assert error["type"] == "BadRequestException"
    assert "nested types go deeper than 100 levels" in error["message"], error["message"]
    assert iceberg_request(server, "GET", "namespaces/ns/tables/over", arn).status_code == 404

    # At the limit the table is created, loaded back (metadata file written and
    # parsed again) and its schema survives the round trip.
    at = '{"name":"at","schema":' + nested_struct_schema(MAX_TYPE_NESTING) + "}"
    r = iceberg_request(server, "POST", "namespaces/ns/tables", arn, body=at)
    assert r.status_code == 200, r.text[:500]
    loaded = iceberg_request(server, "GET", "namespaces/ns/tables/at", arn)
    assert loaded.status_code == 200, loaded.text[:500]
    schema = loaded.json()["metadata"]["schemas"][0]
    depth, node = 0, schema
    while isinstance(node, dict) and node.get("type") == "struct" and node["fields"][0]["name"] != "leaf":
        node = node["fields"][0]["type"]
        depth += 1
    assert depth == MAX_TYPE_NESTING


def test_iceberg_rest_deep_commit_body_is_400(server):
    arn = new_bucket(server, "deepcommit")
    assert iceberg_request(server, "POST", "namespaces", arn,
                           body=json.dumps({"namespace": ["ns"]})).status_code == 200
    created = iceberg_request(server, "POST", "namespaces/ns/tables", arn,
                              body='{"name":"t","schema":' + nested_struct_schema(1) + "}")
    assert created.status_code == 200, created.text
    before = created.json()["metadata-location"]
    update = {"action": "add-schema", "schema": "SCHEMA"}
    body = json.dumps({"requirements": [], "updates": [update]}).replace(
        '"SCHEMA"', nested_struct_schema(8000))
    r = iceberg_request(server, "POST", "namespaces/ns/tables/t", arn, body=body)
    assert r.status_code == 400, r.text[:500]
    assert r.json()["error"]["type"] == "BadRequestException"
    assert_still_serving(server)
    after = iceberg_request(server, "GET", "namespaces/ns/tables/t", arn)
    assert after.json()["metadata-location"] == before


# ---------------------------------------------------------------- S3 Tables
def s3tables_create_table(server, bucket_arn, namespace, name, metadata_json: str):
    from urllib.parse import quote

    body = ('{"name":"%s","format":"ICEBERG","metadata":' % name) + metadata_json + "}"
    return server.signed_request(
        "PUT", f"{server.api_url}/tables/{quote(bucket_arn, safe='')}/{namespace}",
        body=body, headers={"Content-Type": "application/json"})


def test_s3tables_create_table_with_deep_initial_metadata_is_400(server):
    client = server.boto3_client("s3tables")
    bucket_arn = client.create_table_bucket(name=unique("deep3t"))["arn"]
    client.create_namespace(tableBucketARN=bucket_arn, namespace=["ns"])

    # As deep as the 256 KiB S3 Tables body allows: this used to overflow the stack.
    deep = '{"iceberg":{"schemaV2":{"type":"struct","fields":[' + deep_arrays(120_000) + "]}}}"
    r = s3tables_create_table(server, bucket_arn, "ns", "deep", deep)
    assert r.status_code == 400, r.text[:500]
    error = r.json()
    assert error["__type"] == "BadRequestException", error
    assert "deeper than 512 levels" in error["message"], error["message"]

    # A schema one type level too deep is refused naming the type limit ...
    over = '{"iceberg":{"schemaV2":' + nested_struct_schema(MAX_TYPE_NESTING + 1) + "}}"
    r = s3tables_create_table(server, bucket_arn, "ns", "over", over)
    assert r.status_code == 400 and r.json()["__type"] == "BadRequestException", r.text[:500]
    assert "deeper than 100 levels" in r.json()["message"]
    assert_still_serving(server)
    assert client.list_tables(tableBucketARN=bucket_arn)["tables"] == []

    # ... and one at the limit is created with its metadata.
    at = '{"iceberg":{"schemaV2":' + nested_struct_schema(MAX_TYPE_NESTING) + "}}"
    r = s3tables_create_table(server, bucket_arn, "ns", "at", at)
    assert r.status_code == 200, r.text[:500]
    got = client.get_table(tableBucketARN=bucket_arn, namespace="ns", name="at")
    assert got["metadataLocation"].endswith(".metadata.json")


# ---------------------------------------------------------------- Glue schema registry
@pytest.mark.parametrize("data_format", ["JSON", "AVRO"])
def test_glue_create_schema_with_deep_definition_is_400(server, data_format):
    glue = glue_client(server)
    registry = unique("deepreg")
    glue.create_registry(RegistryName=registry)
    # As deep as the 170,000-byte definition limit allows.
    definition = deep_arrays(84_000)
    name = unique("deep")
    with pytest.raises(ClientError) as info:
        glue.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                           DataFormat=data_format, Compatibility="NONE",
                           SchemaDefinition=definition)
    response = info.value.response
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert response["Error"]["Code"] == "InvalidInputException"
    assert "deeper than 512 levels" in response["Error"]["Message"]
    assert_still_serving(server)
    listed = glue.list_schemas(RegistryId={"RegistryName": registry})["Schemas"]
    assert listed == []


def test_glue_deep_request_body_is_400(server):
    r = server.signed_request(
        "POST", server.api_url + "/glue/", service="glue",
        body='{"RegistryName":"x","Tags":{"a":' + deep_arrays(400_000) + "}}",
        headers={"Content-Type": "application/x-amz-json-1.1",
                 "X-Amz-Target": "AWSGlue.CreateRegistry"})
    assert r.status_code == 400, r.text[:500]
    assert r.json()["__type"].endswith("InvalidInputException"), r.text[:500]
    assert "deeper than 512 levels" in r.json()["Message"]
    assert_still_serving(server)


# ---------------------------------------------------------------- channels and admin
def test_channel_create_with_deep_body_is_400_and_nothing_is_created(server):
    cluster_arn = server.admin("POST", "/kafka-clusters", {
        "name": unique("deep"), "bootstrapServers": "127.0.0.1:9"})["clusterArn"]
    bucket_arn = server.boto3_client("s3tables").create_table_bucket(name=unique("deepch"))["arn"]
    role = unique("role")
    server.create_role_with_policy(role)
    region, account = server.region, server.account_id
    body = {
        "channelName": "deep",
        "topicConfigurationList": [{
            "topicArn": topic_arn(cluster_arn, "orders"),
            "recordConverter": {"valueConverter": "JSON"},
            "recordSchema": {"gsrArn": f"arn:aws:glue:{region}:{account}:schema/reg/orders"}}],
        "icebergDestinationConfiguration": {
            "appendOnly": True, "serviceExecutionRoleArn": f"arn:aws:iam::{account}:role/{role}",
            "dataFreshnessInSeconds": 300, "catalog": {"warehouseLocation": bucket_arn},
            "destinationTableList": [{"destinationDatabaseName": "ns",
                                      "destinationTableName": "orders"}]},
        "loggingInfo": "DEEP",
    }
    # loggingInfo is kept verbatim: copying and serializing it recursed per level.
    text = json.dumps(body).replace('"DEEP"', '{"x":' + deep_arrays(400_000) + "}")
    from urllib.parse import quote

    url = f"{server.api_url}/v1/clusters/{quote(cluster_arn, safe='')}/channels"
    r = server.signed_request("POST", url, service="kafka", body=text,
                              headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text[:500]
    assert "deeper than 512 levels" in r.text, r.text[:500]
    assert_still_serving(server)
    assert server.boto3_client("kafka").list_channels(ClusterArn=cluster_arn)["Channels"] == []


def test_admin_deep_body_is_400(server):
    r = server.signed_request(
        "POST", server.api_url + "/admin/kafka-clusters",
        body='{"name":"deep","bootstrapServers":"h:1","properties":' + deep_arrays(400_000) + "}",
        headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text[:500]
    assert "deeper than 512 levels" in r.text
    assert_still_serving(server)
