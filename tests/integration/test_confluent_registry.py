"""The Confluent-compatible schema registry at <api>/schema-registry through the
real confluent-kafka 2.16.1 SchemaRegistryClient and its Avro serializer and
deserializer: registration, lookups, versions, soft and hard deletes,
compatibility levels enforced with Avro resolution rules and with the Protobuf
and JSON Schema rules, Confluent error codes,
HTTP Basic authentication over our access keys, schemaregistry:* policy actions
and per-account isolation.
"""

import json
import urllib.parse
import uuid

import pytest
import requests

from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.schema_registry.error import SchemaRegistryError
from confluent_kafka.serialization import MessageField, SerializationContext

V1 = {"type": "record", "name": "Order", "namespace": "shop",
      "fields": [{"name": "id", "type": "long"}, {"name": "item", "type": "string"}]}
# Adds an optional field with a default: BACKWARD compatible.
V2 = {**V1, "fields": V1["fields"] + [{"name": "note", "type": ["null", "string"],
                                        "default": None}]}
# Adds a required field without default: not BACKWARD compatible.
V3_BAD = {**V1, "fields": V1["fields"] + [{"name": "qty", "type": "int"}]}

EVERYTHING = {"Version": "2012-10-17",
              "Statement": [{"Effect": "Allow", "Action": "schemaregistry:*", "Resource": "*"}]}


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def registry_url(server):
    return server.api_url + "/schema-registry"


def client_for(server, creds=None):
    access, secret = (creds.access_key, creds.secret_key) if creds else (
        server.access_key, server.secret_key)
    return SchemaRegistryClient({"url": registry_url(server),
                                 "basic.auth.user.info": f"{access}:{secret}"})


def avro(doc):
    return Schema(json.dumps(doc), "AVRO")


def sr_error(call):
    with pytest.raises(SchemaRegistryError) as info:
        call()
    return info.value.http_status_code, info.value.error_code, info.value.error_message


def test_register_lookup_versions_and_ids(server):
    sr = client_for(server)
    subject = unique("orders-value")
    id1 = sr.register_schema(subject, avro(V1))
    assert id1 >= 1
    # The same schema again, even formatted differently, is the same id.
    assert sr.register_schema(subject, Schema(json.dumps(V1, indent=3), "AVRO")) == id1
    id2 = sr.register_schema(subject, avro(V2))
    assert id2 != id1
    # Another subject with the same schema shares the id.
    other = unique("copy")
    assert sr.register_schema(other, avro(V1)) == id1

    assert subject in sr.get_subjects() and other in sr.get_subjects()
    assert sr.get_versions(subject) == [1, 2]
    latest = sr.get_latest_version(subject)
    assert (latest.subject, latest.version, latest.schema_id) == (subject, 2, id2)
    assert json.loads(latest.schema.schema_str) == V2
    assert latest.schema.schema_type == "AVRO"
    first = sr.get_version(subject, 1)
    assert (first.version, first.schema_id) == (1, id1)
    assert json.loads(first.schema.schema_str) == V1

    found = sr.lookup_schema(subject, avro(V1))
    assert (found.subject, found.version, found.schema_id) == (subject, 1, id1)
    by_id = sr.get_schema(id2)
    assert json.loads(by_id.schema_str) == V2
    assert sorted(sr.get_subjects_by_schema_id(id1)) == sorted([subject, other])
    versions = sr.get_schema_versions(id1)
    assert sorted((v.subject, v.version) for v in versions) == sorted([(subject, 1), (other, 1)])
    assert set(sr.get_schema_types()) == {"AVRO", "JSON", "PROTOBUF"}
    assert sr.get_global_mode() == "READWRITE"

    # The raw wire: Confluent's media type and the bare schema endpoints.
    auth = (server.access_key, server.secret_key)
    raw = requests.get(f"{registry_url(server)}/schemas/ids/{id1}/schema", auth=auth, timeout=10)
    assert raw.status_code == 200 and json.loads(raw.text) == V1
    assert raw.headers["Content-Type"].startswith("application/vnd.schemaregistry.v1+json")
    raw = requests.get(f"{registry_url(server)}/subjects/{subject}/versions/latest/schema",
                       auth=auth, timeout=10)
    assert raw.status_code == 200 and json.loads(raw.text) == V2


def test_json_and_protobuf_types_and_references(server):
    sr = client_for(server)
    json_subject = unique("json")
    doc = {"type": "object", "properties": {"a": {"type": "integer"}}}
    jid = sr.register_schema(json_subject, Schema(json.dumps(doc), "JSON"))
    got = sr.get_schema(jid)
    assert got.schema_type == "JSON" and json.loads(got.schema_str) == doc
    proto_subject = unique("proto")
    proto = 'syntax = "proto3";\nmessage M { int64 id = 1; }\n'
    pid = sr.register_schema(proto_subject, Schema(proto, "PROTOBUF"))
    got = sr.get_latest_version(proto_subject)
    assert (got.schema_id, got.schema.schema_type, got.schema.schema_str) == (pid, "PROTOBUF",
                                                                             proto)
    # References are stored and returned.
    from confluent_kafka.schema_registry import SchemaReference
    with_ref = Schema('syntax = "proto3";\nimport "m.proto";\nmessage N { M m = 1; }\n',
                      "PROTOBUF", [SchemaReference("m.proto", proto_subject, 1)])
    nid = sr.register_schema(unique("proto-ref"), with_ref)
    refs = sr.get_schema(nid).references
    assert [(r.name, r.subject, r.version) for r in refs] == [("m.proto", proto_subject, 1)]
    # A second JSON version is compared (test_protobuf_and_json_compatibility):
    # `a` integer -> string is refused, and so is a schema of another type.
    other_doc = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert sr_error(lambda: sr.register_schema(json_subject, Schema(json.dumps(other_doc),
                                                                    "JSON")))[:2] == (409, 409)
    assert sr_error(lambda: sr.register_schema(json_subject, avro(V1)))[:2] == (409, 409)
    # JSON that does not parse is an invalid schema.
    assert sr_error(lambda: sr.register_schema(json_subject, Schema("{nope", "JSON")))[:2] == (
        422, 42201)


def test_compatibility_config_and_checks(server):
    sr = client_for(server)
    subject = unique("compat")
    sr.register_schema(subject, avro(V1))
    # BACKWARD is the default; a new required field without default is refused.
    assert sr.get_compatibility() == "BACKWARD"
    status, code, message = sr_error(lambda: sr.register_schema(subject, avro(V3_BAD)))
    assert (status, code) == (409, 409)
    assert "incompatible" in message and "qty" in message
    assert sr.test_compatibility(subject, avro(V3_BAD)) is False
    assert sr.test_compatibility(subject, avro(V2)) is True
    assert sr.test_compatibility(subject, avro(V2), version=1) is True
    # Verbose messages name the field.
    auth = (server.access_key, server.secret_key)
    verbose = requests.post(
        f"{registry_url(server)}/compatibility/subjects/{subject}/versions/latest?verbose=true",
        auth=auth, json={"schema": json.dumps(V3_BAD)}, timeout=10).json()
    assert verbose["is_compatible"] is False and any("qty" in m for m in verbose["messages"])

    # Subject-level config: NONE lets it through.
    assert sr_error(lambda: sr.get_compatibility(subject))[:2] == (404, 40408)
    assert sr.set_compatibility(subject, "NONE") == {"compatibility": "NONE"}
    assert sr.get_compatibility(subject) == "NONE"
    assert sr.register_schema(subject, avro(V3_BAD)) >= 1
    assert sr.get_versions(subject) == [1, 2]
    # FORWARD: the old schema must read data of the new one; removing a field
    # without default from the reader's view is fine, changing a type is not.
    sr.set_compatibility(subject, "FORWARD")
    changed = {**V1, "fields": [{"name": "id", "type": "string"},
                                {"name": "item", "type": "string"}]}
    assert sr_error(lambda: sr.register_schema(subject, avro(changed)))[:2] == (409, 409)
    assert sr_error(lambda: sr.set_compatibility(subject, "SIDEWAYS"))[:2] == (422, 42203)
    # Global config.
    assert sr.get_config().compatibility_level is not None


PROTO_V1 = 'syntax = "proto3";\npackage shop;\nmessage Order {\n  int64 id = 1;\n  string item = 2;\n}\n'
# Adds an optional field: BACKWARD compatible.
PROTO_V2 = PROTO_V1.replace("string item = 2;", "string item = 2;\n  optional string note = 3;")
# item: string -> int32 on the same field number: not wire compatible.
PROTO_BAD = PROTO_V1.replace("string item = 2;", "int32 item = 2;")
JSON_V1 = {"type": "object", "additionalProperties": False, "required": ["id"],
           "properties": {"id": {"type": "integer"}, "item": {"type": "string"}}}
# Adds an optional property to the closed content model: BACKWARD compatible.
JSON_V2 = {**JSON_V1, "properties": {**JSON_V1["properties"], "note": {"type": "string"}}}
# item: string -> integer.
JSON_BAD = {**JSON_V1, "properties": {**JSON_V1["properties"], "item": {"type": "integer"}}}


@pytest.mark.parametrize("schema_type, v1, v2, bad, rule", [
    ("PROTOBUF", PROTO_V1, PROTO_V2, PROTO_BAD,
     "FIELD_SCALAR_KIND_CHANGED at Order.item (2)"),
    ("JSON", json.dumps(JSON_V1), json.dumps(JSON_V2), json.dumps(JSON_BAD),
     "at #/properties/item: TYPE_CHANGED"),
], ids=["PROTOBUF", "JSON"])
def test_protobuf_and_json_compatibility(server, schema_type, v1, v2, bad, rule):
    sr = client_for(server)
    subject = unique(f"compat-{schema_type.lower()}")
    id1 = sr.register_schema(subject, Schema(v1, schema_type))
    # BACKWARD (the default): the new schema must read the old one's data.
    status, code, message = sr_error(lambda: sr.register_schema(subject, Schema(bad, schema_type)))
    assert (status, code) == (409, 409)
    assert "is incompatible with an earlier schema" in message and rule in message, message
    assert sr.test_compatibility(subject, Schema(bad, schema_type)) is False
    assert sr.test_compatibility(subject, Schema(v2, schema_type)) is True
    auth = (server.access_key, server.secret_key)
    verbose = requests.post(
        f"{registry_url(server)}/compatibility/subjects/{subject}/versions/latest?verbose=true",
        auth=auth, json={"schema": bad, "schemaType": schema_type}, timeout=10).json()
    assert verbose["is_compatible"] is False
    assert any(rule in m for m in verbose["messages"]), verbose
    id2 = sr.register_schema(subject, Schema(v2, schema_type))
    assert id2 != id1 and sr.get_versions(subject) == [1, 2]
    # FORWARD: the old schema must read the new one's data; v1 reads v2's
    # (Protobuf skips the unknown field) except where v1's model is closed.
    sr.set_compatibility(subject, "FORWARD")
    assert sr.test_compatibility(subject, Schema(v2, schema_type), version=1) is (
        schema_type == "PROTOBUF")
    # NONE accepts anything.
    sr.set_compatibility(subject, "NONE")
    assert sr.test_compatibility(subject, Schema(bad, schema_type)) is True
    assert sr.register_schema(subject, Schema(bad, schema_type)) not in (id1, id2)
    assert sr.get_versions(subject) == [1, 2, 3]


def test_transitive_levels(server):
    sr = client_for(server)
    subject = unique("transitive")
    sr.set_compatibility(subject, "NONE")
    a = {"type": "record", "name": "T", "fields": [{"name": "x", "type": "int"}]}
    b = {"type": "record", "name": "T", "fields": [{"name": "x", "type": "long"}]}
    sr.register_schema(subject, avro(a))
    sr.register_schema(subject, avro(b))
    # Reading int data needs long or wider; a float reader reads v2 (long)
    # and v1 (int) both, but BACKWARD_TRANSITIVE against an int reader...
    c_int = {"type": "record", "name": "T", "fields": [{"name": "x", "type": "int"}]}
    sr.set_compatibility(subject, "FORWARD")
    # FORWARD (latest only): v2 (long) must read int data: yes.
    assert sr.test_compatibility(subject, avro(c_int)) is True
    sr.set_compatibility(subject, "BACKWARD")
    # BACKWARD against latest (long): an int reader cannot read long data.
    assert sr.test_compatibility(subject, avro(c_int)) is False
    d_double = {"type": "record", "name": "T", "fields": [{"name": "x", "type": "double"}]}
    sr.set_compatibility(subject, "BACKWARD_TRANSITIVE")
    assert sr.test_compatibility_all_versions(subject, avro(d_double)) is True
    sr.set_compatibility(subject, "FULL_TRANSITIVE")
    assert sr.test_compatibility_all_versions(subject, avro(d_double)) is False


def test_delete_soft_and_permanent(server):
    sr = client_for(server)
    subject = unique("del")
    sr.set_compatibility(subject, "NONE")
    id1 = sr.register_schema(subject, avro(V1))
    sr.register_schema(subject, avro(V2))
    # Permanent delete needs a soft delete first.
    assert sr_error(lambda: sr.delete_version(subject, 1, permanent=True))[:2] == (404, 40407)
    assert sr.delete_version(subject, 1) == 1
    assert sr_error(lambda: sr.delete_version(subject, 1))[:2] == (404, 40406)
    assert sr.get_versions(subject) == [2]
    assert sr.delete_version(subject, 1, permanent=True) == 1
    assert sr_error(lambda: sr.delete_subject(subject, permanent=True))[:2] == (404, 40405)
    assert sr.delete_subject(subject) == [2]
    assert subject not in sr.get_subjects()
    assert sr_error(lambda: sr.get_versions(subject))[:2] == (404, 40401)
    assert sr_error(lambda: sr.delete_subject(subject))[:2] == (404, 40404)
    assert sr.delete_subject(subject, permanent=True) == [2]
    assert sr_error(lambda: sr.delete_subject(subject))[:2] == (404, 40401)
    # The id stays resolvable: records already written still decode.
    assert json.loads(sr.get_schema(id1).schema_str) == V1
    # Registering again continues as a new subject.
    assert sr.register_schema(subject, avro(V1)) == id1
    assert sr.get_versions(subject) == [1]


def test_error_codes(server):
    sr = client_for(server)
    missing = unique("missing")
    assert sr_error(lambda: sr.get_latest_version(missing)) == (
        404, 40401, f"Subject '{missing}' not found.")
    assert sr_error(lambda: sr.get_schema(987654321))[:2] == (404, 40403)
    subject = unique("errs")
    sr.register_schema(subject, avro(V1))
    assert sr_error(lambda: sr.get_version(subject, 7))[:2] == (404, 40402)
    assert sr_error(lambda: sr.lookup_schema(subject, avro(V3_BAD)))[:2] == (404, 40403)
    status, code, _ = sr_error(lambda: sr.register_schema(subject, Schema('{"type":"nope"}',
                                                                          "AVRO")))
    assert (status, code) == (422, 42201)
    auth = (server.access_key, server.secret_key)
    bad_version = requests.get(f"{registry_url(server)}/subjects/{subject}/versions/zero",
                               auth=auth, timeout=10)
    assert bad_version.status_code == 422 and bad_version.json()["error_code"] == 42202
    # Hostile input: a huge, deeply nested body gets an error, not a crash.
    deep = "[" * 100000 + "]" * 100000
    response = requests.post(f"{registry_url(server)}/subjects/{subject}/versions", auth=auth,
                             data=json.dumps({"schema": deep}),
                             headers={"Content-Type": "application/octet-stream"}, timeout=30)
    assert response.status_code == 422 and response.json()["error_code"] == 42201
    response = requests.post(f"{registry_url(server)}/subjects/{subject}/versions", auth=auth,
                             data="not json", headers={"Content-Type": "application/json"},
                             timeout=10)
    assert response.status_code == 422 and response.json()["error_code"] == 42201


def test_authentication_and_authorization(server):
    subject = unique("auth")
    client_for(server).register_schema(subject, avro(V1))
    url = registry_url(server)
    # No credentials, wrong password, unknown key: 401 in Confluent's shape.
    for auth in (None, (server.access_key, "wrong"), ("AKIANOSUCHKEY", "x")):
        response = requests.get(f"{url}/subjects", auth=auth, timeout=10)
        assert response.status_code == 401, response.text
        assert response.json() == {"error_code": 401, "message": "Unauthorized"}
    wrong = SchemaRegistryClient({"url": url,
                                  "basic.auth.user.info": f"{server.access_key}:nope"})
    assert sr_error(lambda: wrong.get_subjects())[:2] == (401, 401)
    # Credentials as URL userinfo work too.
    parsed = urllib.parse.urlparse(url)
    with_userinfo = (f"{parsed.scheme}://{urllib.parse.quote(server.access_key, safe='')}:"
                     f"{urllib.parse.quote(server.secret_key, safe='')}@{parsed.netloc}"
                     f"{parsed.path}")
    assert subject in SchemaRegistryClient({"url": with_userinfo}).get_subjects()

    # A user without any policy: 403 40301.
    nobody = client_for(server, server.create_user_with_policy(unique("nobody")))
    status, code, message = sr_error(lambda: nobody.get_subjects())
    assert (status, code) == (403, 40301) and "schemaregistry:ReadSubject" in message
    # A reader may read one subject but not write it or change config.
    arn = f"arn:aws:schemaregistry:{server.region}:{server.account_id}:subject/{subject}"
    reader = client_for(server, server.create_user_with_policy(unique("reader"), {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "schemaregistry:ReadSubject",
                       "Resource": arn}]}))
    assert reader.get_latest_version(subject).version == 1
    assert sr_error(lambda: reader.register_schema(subject, avro(V2)))[:2] == (403, 40301)
    assert sr_error(lambda: reader.delete_subject(subject))[:2] == (403, 40301)
    assert sr_error(lambda: reader.set_compatibility(subject, "NONE"))[:2] == (403, 40301)
    assert sr_error(lambda: reader.get_latest_version(unique("other")))[:2] == (403, 40301)


def test_accounts_are_isolated(server):
    mine = client_for(server)
    subject = unique("tenant")
    my_id = mine.register_schema(subject, avro(V1))
    other_account = server.create_account()
    theirs = client_for(server, server.create_user_with_policy(unique("other"), EVERYTHING,
                                                              account_id=other_account))
    assert subject not in theirs.get_subjects()
    assert sr_error(lambda: theirs.get_latest_version(subject))[:2] == (404, 40401)
    # Ids are per account: theirs start over and never resolve mine.
    their_id = theirs.register_schema(subject, avro(V2))
    assert json.loads(theirs.get_schema(their_id).schema_str) == V2
    if their_id != my_id:
        assert sr_error(lambda: theirs.get_schema(my_id))[:2] == (404, 40403)
    assert json.loads(mine.get_schema(my_id).schema_str) == V1
    assert mine.get_versions(subject) == [1]
    assert theirs.get_versions(subject) == [1]


def test_avro_serializer_and_deserializer(server):
    sr = client_for(server)
    topic = unique("orders")
    serializer = AvroSerializer(sr, json.dumps(V2), conf={"auto.register.schemas": True})
    deserializer = AvroDeserializer(sr)
    context = SerializationContext(topic, MessageField.VALUE)
    record = {"id": 2 ** 62, "item": "caf\u00e9 \u2615", "note": None}
    payload = serializer(record, context)
    assert payload[0] == 0
    schema_id = int.from_bytes(payload[1:5], "big")
    assert sr.get_latest_version(f"{topic}-value").schema_id == schema_id
    # A fresh client (no cache) reads it back through the registry.
    assert AvroDeserializer(client_for(server))(payload, context) == record
    assert deserializer(payload, context) == record


def _round_trip_survives_restart(server):
    sr = client_for(server)
    subject = unique("durable")
    schema_id = sr.register_schema(subject, avro(V1))
    assert sr_error(lambda: sr.register_schema(subject, avro(V3_BAD)))[:2] == (409, 409)
    server.restart()
    sr = client_for(server)
    assert json.loads(sr.get_schema(schema_id).schema_str) == V1
    assert sr.get_latest_version(subject).schema_id == schema_id
    assert sr.register_schema(subject, avro(V2)) == schema_id + 1
    return schema_id


def test_stored_in_the_sqlite_catalog(fresh_server):
    _round_trip_survives_restart(fresh_server())


def test_stored_in_the_postgresql_catalog(postgres, fresh_server):
    url = postgres.create_database(f"catalog_{uuid.uuid4().hex[:8]}")
    server = fresh_server(extra_args=["--catalog", url])
    schema_id = _round_trip_survives_restart(server)
    rows = postgres.psql(f"SELECT schema_type FROM registry_confluent_schemas "
                         f"WHERE schema_id = {schema_id}", url)
    assert "AVRO" in str(rows)
