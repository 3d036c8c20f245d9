"""The embedded Glue Schema Registry through its wire API: boto3's `glue`
client for every operation (docs/msk-channel-api-notes.md §14), IAM decisions on
glue:<Op> and per-account isolation, and the PyPI aws-glue-schema-registry
1.1.3 serializer/deserializer framing real records against our server (§13).
"""

import json
import uuid
import zlib

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from aws_schema_registry import DataAndSchema, KafkaDeserializer, KafkaSerializer, SchemaRegistryClient
from aws_schema_registry.codec import encode
from aws_schema_registry.jsonschema import JsonSchema

ORDER_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "item": {"type": "string"},
        "price": {"type": "number", "multipleOf": 0.5},
    },
    "required": ["id"],
}
DEFINITION = json.dumps(ORDER_SCHEMA)
# The same document, formatted differently with members in another order.
REFORMATTED = json.dumps(dict(reversed(list(ORDER_SCHEMA.items()))), indent=2)
SECOND = json.dumps({"type": "object", "properties": {"id": {"type": "integer"}}})


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def glue(server, creds=None):
    return server.boto3_client("glue", creds)


def error_of(call):
    with pytest.raises(ClientError) as info:
        call()
    response = info.value.response
    return (response["ResponseMetadata"]["HTTPStatusCode"], response["Error"]["Code"],
            response["Error"]["Message"])


def raw(server, target, body, path="/glue/"):
    headers = {"Content-Type": "application/x-amz-json-1.1"}
    if target is not None:
        headers["X-Amz-Target"] = target
    return server.signed_request("POST", server.api_url + path, service="glue",
                                 body=json.dumps(body), headers=headers)


def raw_tags(server, name, tags):
    """CreateRegistry with a Tags value botocore would refuse to send."""
    response = raw(server, "AWSGlue.CreateRegistry", {"RegistryName": name, "Tags": tags})
    assert response.status_code == 400, response.text
    assert response.json()["__type"].endswith("InvalidInputException"), response.text
    assert "map of string to string" in response.json()["Message"], response.text
    return response


def test_registries(server):
    client = glue(server)
    name = unique("reg")
    created = client.create_registry(RegistryName=name, Description="orders", Tags={"team": "a"})
    arn = f"arn:aws:glue:{server.region}:{server.account_id}:registry/{name}"
    assert created["RegistryArn"] == arn and created["RegistryName"] == name
    assert created["Description"] == "orders" and created["Tags"] == {"team": "a"}
    for registry_id in ({"RegistryName": name}, {"RegistryArn": arn}):
        got = client.get_registry(RegistryId=registry_id)
        assert (got["RegistryName"], got["RegistryArn"], got["Status"]) == (name, arn, "AVAILABLE")
        assert got["Description"] == "orders" and got["CreatedTime"].endswith("Z")
    assert error_of(lambda: client.create_registry(RegistryName=name))[:2] == (
        400, "AlreadyExistsException")
    status, code, message = error_of(lambda: client.get_registry(RegistryId={"RegistryName": "nope"}))
    assert (status, code) == (400, "EntityNotFoundException") and "nope" in message
    # Tags are checked before anything is created: a bad one changes nothing.
    bad_name = unique("badtags")
    for tags, part in (({"aws:owner": "x"}, "aws:"), ({"k": "\u0001"}, "value of tag"),
                       ({f"k{i}": "v" for i in range(51)}, "at most 50")):
        status, code, message = error_of(
            lambda: client.create_registry(RegistryName=bad_name, Tags=tags))
        assert (status, code) == (400, "InvalidInputException") and part in message, message
    status, code, _ = error_of(lambda: client.get_registry(RegistryId={"RegistryName": bad_name}))
    assert (status, code) == (400, "EntityNotFoundException")
    raw_tags(server, bad_name, ["not", "a", "map"])
    # default-registry exists on first use.
    assert client.get_registry(RegistryId={"RegistryName": "default-registry"})["Status"] == "AVAILABLE"
    names = [r["RegistryName"] for r in client.list_registries()["Registries"]]
    assert name in names and "default-registry" in names
    page = client.list_registries(MaxResults=1)
    assert len(page["Registries"]) == 1 and page["NextToken"]
    assert error_of(lambda: client.create_registry(RegistryName="bad/name"))[:2] == (
        400, "InvalidInputException")


def test_schemas_and_versions(server):
    client = glue(server)
    registry = unique("reg")
    client.create_registry(RegistryName=registry)
    name = unique("orders")
    schema_arn = f"arn:aws:glue:{server.region}:{server.account_id}:schema/{registry}/{name}"

    created = client.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                                   DataFormat="JSON", Compatibility="BACKWARD",
                                   Description="d", SchemaDefinition=DEFINITION)
    assert created["SchemaArn"] == schema_arn and created["SchemaName"] == name
    assert created["RegistryName"] == registry and created["DataFormat"] == "JSON"
    assert created["Compatibility"] == "BACKWARD" and created["SchemaStatus"] == "AVAILABLE"
    assert created["LatestSchemaVersion"] == 1 and created["NextSchemaVersion"] == 2
    assert created["SchemaVersionStatus"] == "AVAILABLE"
    v1 = created["SchemaVersionId"]
    assert str(uuid.UUID(v1)) == v1  # lower-case canonical UUID
    assert error_of(lambda: client.create_schema(
        RegistryId={"RegistryName": registry}, SchemaName=name, DataFormat="JSON",
        SchemaDefinition=DEFINITION))[:2] == (400, "AlreadyExistsException")

    for schema_id in ({"SchemaArn": schema_arn}, {"SchemaName": name, "RegistryName": registry}):
        got = client.get_schema(SchemaId=schema_id)
        assert got["SchemaArn"] == schema_arn and got["LatestSchemaVersion"] == 1
        assert got["Compatibility"] == "BACKWARD" and got["Description"] == "d"
    listed = client.list_schemas(RegistryId={"RegistryName": registry})["Schemas"]
    assert [s["SchemaArn"] for s in listed] == [schema_arn]

    schema_id = {"SchemaName": name, "RegistryName": registry}
    v2 = client.register_schema_version(SchemaId=schema_id, SchemaDefinition=SECOND)
    assert v2["VersionNumber"] == 2 and v2["Status"] == "AVAILABLE" and v2["SchemaVersionId"] != v1
    # An equal document is the existing version, not a new one.
    again = client.register_schema_version(SchemaId=schema_id, SchemaDefinition=REFORMATTED)
    assert (again["SchemaVersionId"], again["VersionNumber"]) == (v1, 1)

    by_id = client.get_schema_version(SchemaVersionId=v1)
    assert by_id["SchemaDefinition"] == DEFINITION and by_id["SchemaArn"] == schema_arn
    assert (by_id["VersionNumber"], by_id["Status"], by_id["DataFormat"]) == (1, "AVAILABLE", "JSON")
    assert isinstance(by_id["CreatedTime"], str) and by_id["CreatedTime"].endswith("Z")
    latest = client.get_schema_version(SchemaId={"SchemaArn": schema_arn},
                                       SchemaVersionNumber={"LatestVersion": True})
    assert latest["SchemaVersionId"] == v2["SchemaVersionId"]
    numbered = client.get_schema_version(SchemaId=schema_id,
                                         SchemaVersionNumber={"VersionNumber": 1})
    assert numbered["SchemaVersionId"] == v1

    found = client.get_schema_by_definition(SchemaId=schema_id, SchemaDefinition=REFORMATTED)
    assert (found["SchemaVersionId"], found["SchemaArn"], found["Status"]) == (
        v1, schema_arn, "AVAILABLE")
    assert found["DataFormat"] == "JSON"

    versions = client.list_schema_versions(SchemaId=schema_id, MaxResults=1)
    assert [v["VersionNumber"] for v in versions["Schemas"]] == [1] and versions["NextToken"]
    rest = client.list_schema_versions(SchemaId=schema_id, MaxResults=1,
                                       NextToken=versions["NextToken"])
    assert [v["SchemaVersionId"] for v in rest["Schemas"]] == [v2["SchemaVersionId"]]
    assert "NextToken" not in rest
    paginated = [v["VersionNumber"]
                 for page in client.get_paginator("list_schema_versions").paginate(
                     SchemaId=schema_id, PaginationConfig={"PageSize": 1})
                 for v in page["Schemas"]]
    assert paginated == [1, 2]

    meta = client.put_schema_version_metadata(
        SchemaVersionId=v1, MetadataKeyValue={"MetadataKey": "k", "MetadataValue": "v"})
    assert meta["SchemaVersionId"] == v1 and meta["LatestVersion"] is False
    assert (meta["MetadataKey"], meta["MetadataValue"]) == ("k", "v")


def test_new_versions_meet_the_compatibility_mode(server):
    """RegisterSchemaVersion refuses a version that does not meet the schema's
    compatibility mode (400 InvalidInputException naming the version, the mode
    and why; nothing stored) for AVRO and PROTOBUF; BACKWARD_ALL compares with
    every version; DISABLED takes none; NONE takes anything. JSON versions are
    not compared (test_gsr_python_serializer_and_deserializer: the GSR
    serializer adds an optional property under BACKWARD)."""
    client = glue(server)
    registry = unique("compat")
    client.create_registry(RegistryName=registry)

    def avro(*fields):
        return json.dumps({"type": "record", "name": "R", "fields": list(fields)})

    a_int = {"name": "a", "type": "int"}
    b_int = {"name": "b", "type": "int"}
    b_string = {"name": "b", "type": "string"}
    b_default = {"name": "b", "type": "string", "default": "x"}
    cases = [
        # (data format, mode, v1, refused, accepted)
        ("AVRO", "BACKWARD", avro(a_int), avro(a_int, b_string), avro(a_int, b_default)),
        ("AVRO", "FORWARD", avro(a_int, b_int), avro(a_int),
         avro(a_int, b_int, b_default | {"name": "c"})),
        ("AVRO", "FULL", avro(a_int), avro(a_int, b_string), avro(a_int, b_default)),
        ("PROTOBUF", "BACKWARD",
         'syntax = "proto3"; message M { int32 a = 1; }',
         'syntax = "proto3"; message M { string a = 1; }',
         'syntax = "proto3"; message M { int32 a = 1; string b = 2; }'),
    ]
    for data_format, mode, v1, refused, accepted in cases:
        name = unique(f"{data_format.lower()}-{mode.lower()}")
        schema_id = {"RegistryName": registry, "SchemaName": name}
        client.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                             DataFormat=data_format, Compatibility=mode, SchemaDefinition=v1)
        status, code, message = error_of(lambda: client.register_schema_version(
            SchemaId=schema_id, SchemaDefinition=refused))
        assert (status, code) == (400, "InvalidInputException"), (data_format, mode, message)
        assert (f"not compatible with version 1 of schema '{name}' under compatibility {mode}: "
                in message), message
        added = client.register_schema_version(SchemaId=schema_id, SchemaDefinition=accepted)
        assert (added["VersionNumber"], added["Status"]) == (2, "AVAILABLE"), (data_format, mode)
        versions = client.list_schema_versions(SchemaId=schema_id)["Schemas"]
        assert [v["VersionNumber"] for v in versions] == [1, 2]

    # BACKWARD compares with the latest version only, BACKWARD_ALL with every
    # one: v3 reads v2's data (no b: its default) but not v1's (b an int).
    for mode in ("BACKWARD", "BACKWARD_ALL"):
        name = unique(f"transitive-{mode.lower()}")
        schema_id = {"RegistryName": registry, "SchemaName": name}
        client.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                             DataFormat="AVRO", Compatibility=mode,
                             SchemaDefinition=avro(a_int, b_int))
        client.register_schema_version(SchemaId=schema_id, SchemaDefinition=avro(a_int))
        v3 = avro(a_int, b_default)
        if mode == "BACKWARD":
            assert client.register_schema_version(SchemaId=schema_id,
                                                  SchemaDefinition=v3)["VersionNumber"] == 3
        else:
            status, code, message = error_of(lambda: client.register_schema_version(
                SchemaId=schema_id, SchemaDefinition=v3))
            assert (status, code) == (400, "InvalidInputException")
            assert "not compatible with version 1 of schema" in message, message

    # DISABLED: no new version, but the registered definition still finds its own.
    name = unique("disabled")
    schema_id = {"RegistryName": registry, "SchemaName": name}
    v1 = client.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                              DataFormat="AVRO", Compatibility="DISABLED",
                              SchemaDefinition=avro(a_int))["SchemaVersionId"]
    status, code, message = error_of(lambda: client.register_schema_version(
        SchemaId=schema_id, SchemaDefinition=avro(a_int, b_default)))
    assert (status, code) == (400, "InvalidInputException")
    assert "has compatibility DISABLED" in message, message
    assert client.register_schema_version(SchemaId=schema_id,
                                          SchemaDefinition=avro(a_int))["SchemaVersionId"] == v1

    # NONE: anything.
    name = unique("none")
    client.create_schema(RegistryId={"RegistryName": registry}, SchemaName=name,
                         DataFormat="AVRO", Compatibility="NONE", SchemaDefinition=avro(a_int))
    assert client.register_schema_version(
        SchemaId={"RegistryName": registry, "SchemaName": name},
        SchemaDefinition=avro(b_string))["VersionNumber"] == 2


def test_schema_in_default_registry(server):
    client = glue(server)
    name = unique("plain")
    created = client.create_schema(SchemaName=name, DataFormat="JSON",
                                   SchemaDefinition=DEFINITION)
    assert created["RegistryName"] == "default-registry"
    assert created["SchemaArn"].endswith(f":schema/default-registry/{name}")
    got = client.get_schema_version(SchemaId={"SchemaName": name, "RegistryName": "default-registry"},
                                    SchemaVersionNumber={"LatestVersion": True})
    assert got["SchemaVersionId"] == created["SchemaVersionId"]
    assert created["SchemaArn"] in [s["SchemaArn"] for s in client.list_schemas()["Schemas"]]


def test_not_found_messages_gsr_clients_match(server):
    client = glue(server)
    name = unique("s")
    client.create_schema(SchemaName=name, DataFormat="JSON", SchemaDefinition=DEFINITION)
    schema_id = {"SchemaName": name, "RegistryName": "default-registry"}
    assert error_of(lambda: client.get_schema_by_definition(
        SchemaId=schema_id, SchemaDefinition=SECOND)) == (
        400, "EntityNotFoundException", "Schema version is not found.")
    assert error_of(lambda: client.get_schema_by_definition(
        SchemaId={"SchemaName": "absent", "RegistryName": "default-registry"},
        SchemaDefinition=SECOND)) == (400, "EntityNotFoundException", "Schema is not found.")
    assert error_of(lambda: client.get_schema_version(
        SchemaVersionId=str(uuid.uuid4()))) == (
        400, "EntityNotFoundException", "Schema version is not found.")
    assert error_of(lambda: client.get_schema(SchemaId={"SchemaName": "absent"})) == (
        400, "EntityNotFoundException", "Schema is not found.")
    assert error_of(lambda: client.register_schema_version(
        SchemaId={"SchemaName": "absent"}, SchemaDefinition=SECOND))[1] == "EntityNotFoundException"


def test_invalid_input(server):
    client = glue(server)
    status, code, message = error_of(lambda: client.get_schema(
        SchemaId={"SchemaArn": "arn:aws:glue:us-east-1:1:table/x"}))
    assert (status, code) == (400, "InvalidInputException") and "schema ARN" in message
    name = unique("s")
    status, code, message = error_of(lambda: client.create_schema(
        SchemaName=name, DataFormat="JSON", SchemaDefinition="{not json"))
    assert (status, code) == (400, "InvalidInputException") and "JSON" in message
    assert error_of(lambda: client.get_schema_version(SchemaVersionId="zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz"))[:2] == (
        400, "InvalidInputException")
    assert error_of(lambda: client.get_schema_version(
        SchemaId={"SchemaName": name}))[:2] == (400, "InvalidInputException")


def test_wire_protocol(server):
    name = unique("s")
    # "/glue" without the trailing slash routes too.
    response = raw(server, "AWSGlue.CreateSchema",
                   {"SchemaName": name, "DataFormat": "JSON", "SchemaDefinition": DEFINITION},
                   path="/glue")
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"] == "application/x-amz-json-1.1"
    assert response.json()["SchemaName"] == name
    response = raw(server, "AWSGlue.DeleteEverything", {})
    assert response.status_code == 400
    assert response.headers["Content-Type"] == "application/x-amz-json-1.1"
    assert response.json()["__type"] == "UnknownOperationException"
    assert "DeleteEverything" in response.json()["Message"]
    response = raw(server, None, {})
    assert (response.status_code, response.json()["__type"]) == (400, "UnknownOperationException")
    response = raw(server, "AWSGlue.GetSchemaVersion", {"SchemaVersionId": str(uuid.uuid4())})
    assert response.json() == {"__type": "EntityNotFoundException",
                               "Message": "Schema version is not found."}
    # Unsigned: refused before any operation.
    import requests
    response = requests.post(server.api_url + "/glue/", data="{}",
                             headers={"X-Amz-Target": "AWSGlue.ListRegistries"}, timeout=10)
    assert response.status_code == 403
    assert response.json()["__type"] == "MissingAuthenticationTokenException"


def test_iam_actions_and_accounts(server):
    admin = glue(server)
    name = unique("s")
    v1 = admin.create_schema(SchemaName=name, DataFormat="JSON",
                             SchemaDefinition=DEFINITION)["SchemaVersionId"]
    schema_arn = f"arn:aws:glue:{server.region}:{server.account_id}:schema/default-registry/{name}"

    nobody = glue(server, server.create_user_with_policy(unique("nobody")))
    status, code, message = error_of(lambda: nobody.get_schema_version(SchemaVersionId=v1))
    assert (status, code) == (403, "AccessDeniedException")
    assert "glue:GetSchemaVersion" in message and schema_arn in message

    reader = glue(server, server.create_user_with_policy(unique("reader"), {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "glue:GetSchemaVersion",
                       "Resource": f"arn:aws:glue:{server.region}:{server.account_id}:schema/*"}]}))
    assert reader.get_schema_version(SchemaVersionId=v1)["SchemaArn"] == schema_arn
    status, code, message = error_of(lambda: reader.create_schema(
        SchemaName=unique("x"), DataFormat="JSON", SchemaDefinition=DEFINITION))
    assert (status, code) == (403, "AccessDeniedException") and "glue:CreateSchema" in message
    assert error_of(lambda: reader.get_schema(SchemaId={"SchemaArn": schema_arn}))[1] == (
        "AccessDeniedException")

    # Another account's admin-like user sees only its own schemas.
    other_account = server.create_account()
    everything = {"Version": "2012-10-17",
                  "Statement": [{"Effect": "Allow", "Action": "glue:*", "Resource": "*"}]}
    other = glue(server, server.create_user_with_policy(unique("other"), everything,
                                                        account_id=other_account))
    assert error_of(lambda: other.get_schema(SchemaId={"SchemaName": name})) == (
        400, "EntityNotFoundException", "Schema is not found.")
    mine = other.create_schema(SchemaName=name, DataFormat="JSON", SchemaDefinition=SECOND)
    assert mine["SchemaArn"] == (
        f"arn:aws:glue:{server.region}:{other_account}:schema/default-registry/{name}")
    assert admin.get_schema_version(SchemaVersionId=v1)["SchemaDefinition"] == DEFINITION
    # Naming the first account's schema by ARN is a cross-account request.
    assert error_of(lambda: other.get_schema(SchemaId={"SchemaArn": schema_arn}))[1] == (
        "AccessDeniedException")
    assert error_of(lambda: other.get_schema_version(SchemaVersionId=v1))[1] == (
        "AccessDeniedException")


def header_of(record):
    return record[0], record[1], uuid.UUID(bytes=bytes(record[2:18])), record[18:]


def test_gsr_python_serializer_and_deserializer(server):
    client = glue(server)
    registry = unique("gsr")
    client.create_registry(RegistryName=registry)
    gsr = SchemaRegistryClient(client, registry_name=registry, wait_interval_seconds=0)
    topic = unique("orders")
    schema = JsonSchema(ORDER_SCHEMA)
    record = {"id": 7, "item": "book", "price": 12.5}

    # The first serialize creates the schema (GetSchemaByDefinition → "Schema is not found.").
    serializer = KafkaSerializer(gsr)
    framed = serializer.serialize(topic, DataAndSchema(record, schema))
    magic, compression, version_id, payload = header_of(framed)
    assert (magic, compression) == (0x03, 0x00)
    schema_name = f"{topic}-value"
    ours = client.get_schema_version(
        SchemaId={"SchemaName": schema_name, "RegistryName": registry},
        SchemaVersionNumber={"LatestVersion": True})
    assert str(version_id) == ours["SchemaVersionId"] and ours["VersionNumber"] == 1
    assert json.loads(payload) == record

    # Compression on: the same header with 0x05 and a zlib payload.
    compressed = encode(schema.write(record), version_id, compression=True)
    magic, compression, compressed_id, body = header_of(compressed)
    assert (magic, compression, compressed_id) == (0x03, 0x05, version_id)
    assert json.loads(zlib.decompress(body)) == record

    # A changed schema registers version 2 (GetSchemaByDefinition → "Schema version is not found.").
    evolved = dict(ORDER_SCHEMA, properties=dict(ORDER_SCHEMA["properties"],
                                                 note={"type": "string"}))
    framed2 = KafkaSerializer(gsr).serialize(topic, DataAndSchema(record, JsonSchema(evolved)))
    _, _, version2_id, _ = header_of(framed2)
    v2 = client.get_schema_version(SchemaVersionId=str(version2_id))
    assert v2["VersionNumber"] == 2 and version2_id != version_id

    # A fresh client finds the existing version by definition.
    framed_again = KafkaSerializer(SchemaRegistryClient(client, registry_name=registry)).serialize(
        topic, DataAndSchema(record, schema))
    assert header_of(framed_again)[2] == version_id

    deserializer = KafkaDeserializer(SchemaRegistryClient(client, registry_name=registry))
    for data in (framed, compressed, framed2):
        decoded = deserializer.deserialize(topic, data)
        assert decoded.data == record
    assert deserializer.deserialize(topic, framed).schema == schema


def test_registry_survives_restart(fresh_server):
    srv = fresh_server()
    client = glue(srv)
    created = client.create_schema(SchemaName="kept", DataFormat="JSON", SchemaDefinition=DEFINITION)
    srv.restart()
    client = glue(srv)
    got = client.get_schema_version(SchemaVersionId=created["SchemaVersionId"])
    assert got["SchemaDefinition"] == DEFINITION and got["VersionNumber"] == 1
    # The registry's tables live in the catalog database file.
    import sqlite3
    db = sqlite3.connect(srv.data_dir / "catalog" / "catalog.db")
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        db.close()
    assert {"registry_registries", "registry_schemas", "registry_schema_versions"} <= tables
