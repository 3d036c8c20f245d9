"""Issue 9, items 4, 5 and 7 against the real server.

4. No anonymous access: an unsigned request is refused on every surface of
   both ports (only /health answers; /metrics has its own listener), even when a `Principal: "*"`
   policy sits in the catalog; and the API refuses to store public policies
   (S3's Block Public Access rule), leaving the old policy in place.
5. On the API port the signature must cover the body: UNSIGNED-PAYLOAD and
   STREAMING-* are refused, a captured request replayed with another body is
   refused; the S3 port still takes UNSIGNED-PAYLOAD.
7. Ambiguous input is refused: duplicate Authorization parts and presigned
   X-Amz-* parameters, duplicate policy keys, over-deep policies, and tags
   outside AWS's character set, with nothing changed.
"""

import hashlib
import json
import sqlite3
import urllib.parse
import uuid
import xml.etree.ElementTree as ET

import boto3
import botocore.exceptions
import pytest
import requests
from botocore.auth import S3SigV4Auth, SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials as BotoCredentials

PUBLIC_EVERYTHING = json.dumps({"Version": "2012-10-17", "Statement": [
    {"Sid": "Everyone", "Effect": "Allow", "Principal": "*", "Action": "*", "Resource": "*"}]})


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def s3tables_error(response, status, error_type):
    assert response.status_code == status, response.text
    assert response.headers["x-amzn-ErrorType"] == error_type, response.text
    body = response.json()
    assert body["__type"] == error_type
    return body["message"]


def iceberg_error(response, status, error_type):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert (error["code"], error["type"]) == (status, error_type), response.text
    return error["message"]


def s3_error(response, status, code):
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/xml"
    root = ET.fromstring(response.content)
    assert root.findtext("Code") == code, response.text
    return root.findtext("Message")


def glue_error(response, status, error_type):
    assert response.status_code == status, response.text
    body = response.json()
    assert body["__type"] == error_type, response.text
    return body["Message"]


def kafka_error(response, status, error_type):
    assert response.status_code == status, response.text
    assert response.headers["x-amzn-ErrorType"] == error_type, response.text
    return response.json()["message"]


def client_error(call):
    with pytest.raises(botocore.exceptions.ClientError) as info:
        call()
    error = info.value.response
    return (error["ResponseMetadata"]["HTTPStatusCode"], error["Error"]["Code"],
            error["Error"].get("Message", ""))


def signed(server, method, url, body=b"", headers=None, service="s3tables", creds=None):
    """Signs with botocore's SigV4Auth; a caller-set x-amz-content-sha256 is signed as is.
    Returns (url, headers) to send (possibly with another body)."""
    c = creds or server.admin_credentials
    request = AWSRequest(method=method, url=url, data=body, headers=dict(headers or {}))
    # S3SigV4Auth always replaces x-amz-content-sha256 with its own; SigV4Auth signs a
    # caller-set one as is (and for these simple paths both canonicalize alike).
    declared = any(k.lower() == "x-amz-content-sha256" for k in (headers or {}))
    auth_class = S3SigV4Auth if service == "s3" and not declared else SigV4Auth
    auth_class(BotoCredentials(c.access_key, c.secret_key), service, server.region).add_auth(request)
    prepared = request.prepare()
    return prepared.url, dict(prepared.headers)


def send(method, url, headers, body=b""):
    return requests.request(method, url, headers=headers, data=body, timeout=30)


# ---------------------------------------------------------------- fixtures
def make_world(server):
    """A table bucket with namespace ns, table t (with metadata) and a general purpose
    bucket with one object, all in the server's account."""
    s3t = server.boto3_client("s3tables")
    bucket = unique("pub")
    arn = s3t.create_table_bucket(name=bucket)["arn"]
    s3t.create_namespace(tableBucketARN=arn, namespace=["ns"])
    s3t.create_table(tableBucketARN=arn, namespace="ns", name="t", format="ICEBERG",
                     metadata={"iceberg": {"schema": {"fields": [
                         {"name": "id", "type": "long", "required": True}]}}})
    table = s3t.get_table(tableBucketARN=arn, namespace="ns", name="t")
    location = urllib.parse.urlparse(table["metadataLocation"])
    gp = unique("gp")
    s3 = server.boto3_client("s3")
    s3.create_bucket(Bucket=gp)
    s3.put_object(Bucket=gp, Key="k", Body=b"secret bytes")
    return {"arn": arn, "table_arn": table["tableARN"], "warehouse": location.netloc,
            "metadata_key": location.path.lstrip("/"), "gp": gp}


@pytest.fixture(scope="module")
def world(server):
    return make_world(server)


# ---------------------------------------------------------------- item 4
def _unsigned_requests_are_refused(server, world):
    """Every surface, GET and a write, unsigned: refused in its own shape."""
    api, arn = server.api_url, world["arn"]
    q = urllib.parse.quote
    # S3 Tables control plane.
    r = requests.get(f"{api}/get-table", params={"tableBucketARN": arn, "namespace": "ns",
                                                 "name": "t"}, timeout=30)
    message = s3tables_error(r, 403, "MissingAuthenticationTokenException")
    assert message.startswith("Missing Authentication Token: the request is not signed")
    s3tables_error(requests.get(f"{api}/buckets/{q(arn, safe='')}", timeout=30), 403,
                   "MissingAuthenticationTokenException")
    s3tables_error(requests.put(f"{api}/buckets", json={"name": unique("anon")}, timeout=30), 403,
                   "MissingAuthenticationTokenException")
    s3tables_error(requests.put(f"{api}/buckets/{q(arn, safe='')}/policy",
                                json={"resourcePolicy": PUBLIC_EVERYTHING}, timeout=30), 403,
                   "MissingAuthenticationTokenException")
    # Iceberg REST.
    prefix = q(arn, safe="")
    iceberg_error(requests.get(f"{api}/iceberg/v1/config", params={"warehouse": arn}, timeout=30),
                  403, "MissingAuthenticationTokenException")
    iceberg_error(requests.get(f"{api}/iceberg/v1/{prefix}/namespaces/ns/tables/t", timeout=30),
                  403, "MissingAuthenticationTokenException")
    iceberg_error(requests.post(f"{api}/iceberg/v1/{prefix}/namespaces",
                                json={"namespace": ["anon"]}, timeout=30),
                  403, "MissingAuthenticationTokenException")
    # S3 port: table metadata and a general purpose bucket's object.
    s3 = server.s3_url
    s3_error(requests.get(f"{s3}/{world['warehouse']}/{world['metadata_key']}", timeout=30),
             403, "AccessDenied")
    s3_error(requests.get(f"{s3}/{world['gp']}/k", timeout=30), 403, "AccessDenied")
    s3_error(requests.get(f"{s3}/{world['gp']}?list-type=2", timeout=30), 403, "AccessDenied")
    s3_error(requests.put(f"{s3}/{world['gp']}/anon", data=b"x", timeout=30), 403, "AccessDenied")
    # Admin API.
    s3tables_error(requests.get(f"{api}/admin/users", timeout=30), 403,
                   "MissingAuthenticationTokenException")
    s3tables_error(requests.post(f"{api}/admin/users", json={"name": "anon"}, timeout=30), 403,
                   "MissingAuthenticationTokenException")
    # MSK channel API (REST-JSON).
    cluster = f"arn:aws:kafka:{server.region}:{server.account_id}:cluster/c/{uuid.uuid4()}"
    kafka_error(requests.get(f"{api}/v1/clusters/{q(cluster, safe='')}/channels", timeout=30),
                403, "MissingAuthenticationTokenException")
    kafka_error(requests.post(f"{api}/v1/tags/{q(cluster, safe='')}", json={"tags": {"a": "b"}},
                              timeout=30), 403, "MissingAuthenticationTokenException")
    kafka_error(requests.get(f"{api}/api/v2/operations/{q(cluster, safe='')}", timeout=30),
                403, "MissingAuthenticationTokenException")
    # Glue schema registry (JSON 1.1).
    for target, body in [("AWSGlue.ListRegistries", {}),
                         ("AWSGlue.CreateRegistry", {"RegistryName": unique("anon")})]:
        r = requests.post(f"{api}/glue/", data=json.dumps(body), timeout=30,
                          headers={"X-Amz-Target": target,
                                   "Content-Type": "application/x-amz-json-1.1"})
        glue_error(r, 403, "MissingAuthenticationTokenException")
    # Only the health check is public; /metrics lives on its own (loopback) listener.
    assert requests.get(f"{api}/health", timeout=30).status_code == 200
    assert requests.get(f"{api}/metrics", timeout=30).status_code == 404
    assert requests.get(f"{server.metrics_url}/metrics", timeout=30).status_code == 200


def test_unsigned_requests_are_refused_on_every_surface(server, world):
    _unsigned_requests_are_refused(server, world)
    # Nothing was created or changed by them.
    s3t = server.boto3_client("s3tables")
    names = [b["name"] for b in s3t.list_table_buckets()["tableBuckets"]]
    assert not [n for n in names if n.startswith("anon")]
    assert "anon" not in [u["name"] for u in server.admin("GET", "/users")["users"]]
    assert [n["namespace"] for n in
            s3t.list_namespaces(tableBucketARN=world["arn"])["namespaces"]] == [["ns"]]
    status, code, _ = client_error(lambda: s3t.get_table_bucket_policy(tableBucketARN=world["arn"]))
    assert (status, code) == (404, "NotFoundException")


@pytest.mark.local_store  # plants the policy straight into the SQLite catalog file
def test_unsigned_refused_even_with_a_principal_star_policy_in_the_catalog(fresh_server):
    """A public policy stored before this fix (written into the catalog directly, since
    the API now refuses it) still admits no unsigned caller."""
    srv = fresh_server()
    world_here = make_world(srv)
    s3t = srv.boto3_client("s3tables")
    srv.stop()
    db = sqlite3.connect(str(next(srv.data_dir.glob("**/catalog/catalog.db"))))
    with db:
        assert db.execute("UPDATE table_buckets SET policy = ? WHERE arn = ?",
                          (PUBLIC_EVERYTHING, world_here["arn"])).rowcount == 1
        assert db.execute("UPDATE tables SET policy = ?", (PUBLIC_EVERYTHING,)).rowcount == 1
    db.close()
    srv.restart()
    s3t = srv.boto3_client("s3tables")
    assert s3t.get_table_bucket_policy(tableBucketARN=world_here["arn"])["resourcePolicy"] == \
        PUBLIC_EVERYTHING
    # The policy is live: a user of another account with an identity allow gets in.
    other = srv.create_account()
    outsider = srv.create_user_with_policy(unique("outsider"), {
        "Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": "s3tables:*", "Resource": "*"}]}, account_id=other)
    got = srv.boto3_client("s3tables", outsider).get_table(
        tableBucketARN=world_here["arn"], namespace="ns", name="t")
    assert got["tableARN"] == world_here["table_arn"]
    # Unsigned callers are still refused everywhere.
    _unsigned_requests_are_refused(srv, world_here)


PUBLIC_POLICIES = {
    "Principal star": {"Effect": "Allow", "Principal": "*", "Action": "s3tables:GetTable"},
    "AWS star": {"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "s3tables:*"},
    "NotPrincipal": {"Effect": "Allow", "NotPrincipal": {"AWS": "111122223333"},
                     "Action": "s3tables:GetTable"},
    "broad SourceIp": {"Effect": "Allow", "Principal": "*", "Action": "s3tables:GetTable",
                       "Condition": {"IpAddress": {"aws:SourceIp": "0.0.0.0/1"}}},
    "wildcard PrincipalArn": {"Effect": "Allow", "Principal": "*", "Action": "s3tables:GetTable",
                              "Condition": {"ArnLike": {"aws:PrincipalArn": "arn:aws:iam::*:*"}}},
    "IfExists": {"Effect": "Allow", "Principal": "*", "Action": "s3tables:GetTable",
                 "Condition": {"StringEqualsIfExists": {"aws:SourceAccount": "111122223333"}}},
}


@pytest.mark.parametrize("name", sorted(PUBLIC_POLICIES))
def test_public_policies_are_refused(server, world, name):
    s3t = server.boto3_client("s3tables")
    arn = world["arn"]
    resource = arn + "/*"
    private = json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{server.account_id}:root"},
         "Action": "s3tables:GetTable", "Resource": resource}]})
    s3t.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=private)
    s3t.put_table_policy(tableBucketARN=arn, namespace="ns", name="t", resourcePolicy=private)
    statement = dict(PUBLIC_POLICIES[name], Sid="Pub", Resource=resource)
    public = json.dumps({"Version": "2012-10-17", "Statement": [statement]})
    status, code, message = client_error(
        lambda: s3t.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=public))
    assert (status, code) == (403, "AccessDeniedException")
    assert message.startswith("The table bucket policy was not stored because public policies "
                              "are blocked (S3 Tables blocks public access): Statement[0] "
                              "(Sid \"Pub\") allows "), message
    status, code, message = client_error(lambda: s3t.put_table_policy(
        tableBucketARN=arn, namespace="ns", name="t", resourcePolicy=public))
    assert (status, code) == (403, "AccessDeniedException")
    assert message.startswith("The table policy was not stored because public policies are "
                              "blocked"), message
    # Nothing changed.
    assert s3t.get_table_bucket_policy(tableBucketARN=arn)["resourcePolicy"] == private
    assert s3t.get_table_policy(tableBucketARN=arn, namespace="ns",
                                name="t")["resourcePolicy"] == private
    s3t.delete_table_bucket_policy(tableBucketARN=arn)
    s3t.delete_table_policy(tableBucketARN=arn, namespace="ns", name="t")


def test_restricted_star_policies_are_not_public(server, world):
    s3t = server.boto3_client("s3tables")
    arn = world["arn"]
    for condition in [{"StringEquals": {"aws:PrincipalAccount": server.account_id}},
                      {"StringEquals": {"aws:SourceAccount": server.account_id}},
                      {"IpAddress": {"aws:SourceIp": "127.0.0.0/8"}}]:
        policy = json.dumps({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Principal": "*", "Action": "s3tables:GetTable",
             "Resource": arn + "/*", "Condition": condition}]})
        s3t.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=policy)
        assert s3t.get_table_bucket_policy(tableBucketARN=arn)["resourcePolicy"] == policy
    # Deny statements for everyone are never public.
    deny = json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Deny", "Principal": "*", "Action": "s3tables:DeleteTable", "Resource": "*"}]})
    s3t.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=deny)
    s3t.delete_table_bucket_policy(tableBucketARN=arn)


# ---------------------------------------------------------------- item 5
UNSIGNED_MODES = ["UNSIGNED-PAYLOAD", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
                  "STREAMING-UNSIGNED-PAYLOAD-TRAILER"]


@pytest.mark.parametrize("mode", UNSIGNED_MODES)
def test_unsigned_payload_is_refused_on_the_api_port(server, world, mode):
    api = server.api_url
    name = unique("unsigned")
    body = json.dumps({"name": name}).encode()
    h = {"x-amz-content-sha256": mode, "Content-Type": "application/json"}
    url, headers = signed(server, "PUT", f"{api}/buckets", body, h)
    message = s3tables_error(send("PUT", url, headers, body), 400, "XAmzContentSHA256Mismatch")
    assert f"x-amz-content-sha256 '{mode}' is not accepted on this endpoint" in message
    # Iceberg REST (signed as s3tables, and as s3 which the catalog also accepts).
    prefix = urllib.parse.quote(world["arn"], safe="")
    ns_body = json.dumps({"namespace": [name.replace("-", "_")]}).encode()
    for service in ("s3tables", "s3"):
        url, headers = signed(server, "POST", f"{api}/iceberg/v1/{prefix}/namespaces", ns_body,
                              h, service=service)
        message = iceberg_error(send("POST", url, headers, ns_body), 400,
                                "XAmzContentSHA256Mismatch")
        assert "x-amz-content-sha256" in message
    # Admin.
    user_body = json.dumps({"name": name}).encode()
    url, headers = signed(server, "POST", f"{api}/admin/users", user_body, h)
    s3tables_error(send("POST", url, headers, user_body), 400, "XAmzContentSHA256Mismatch")
    # Glue.
    glue_body = json.dumps({"RegistryName": name}).encode()
    url, headers = signed(server, "POST", f"{api}/glue/", glue_body,
                          dict(h, **{"X-Amz-Target": "AWSGlue.CreateRegistry",
                                     "Content-Type": "application/x-amz-json-1.1"}),
                          service="glue")
    glue_error(send("POST", url, headers, glue_body), 400, "XAmzContentSHA256Mismatch")
    # MSK channel API.
    cluster = f"arn:aws:kafka:{server.region}:{server.account_id}:cluster/c/{uuid.uuid4()}"
    tag_body = json.dumps({"tags": {"a": "b"}}).encode()
    url, headers = signed(server, "POST",
                          f"{api}/v1/tags/{urllib.parse.quote(cluster, safe='')}", tag_body, h,
                          service="kafka")
    kafka_error(send("POST", url, headers, tag_body), 400, "XAmzContentSHA256Mismatch")
    # Nothing was created.
    s3t = server.boto3_client("s3tables")
    assert name not in [b["name"] for b in s3t.list_table_buckets()["tableBuckets"]]
    assert name not in [u["name"] for u in server.admin("GET", "/users")["users"]]
    assert [n["namespace"] for n in
            s3t.list_namespaces(tableBucketARN=world["arn"])["namespaces"]] == [["ns"]]
    c = server.admin_credentials
    glue = boto3.client("glue", endpoint_url=server.api_url + "/glue", region_name=server.region,
                        aws_access_key_id=c.access_key, aws_secret_access_key=c.secret_key)
    registries = glue.list_registries()["Registries"]
    assert name not in [r["RegistryName"] for r in registries]


def test_replayed_request_with_another_body_is_refused(server):
    api = server.api_url
    name, other = unique("replay"), unique("replay")
    body = json.dumps({"name": name}).encode()
    forged = json.dumps({"name": other}).encode()
    # botocore's way: no x-amz-content-sha256, the body hash is in the signature.
    url, headers = signed(server, "PUT", f"{api}/buckets", body,
                          {"Content-Type": "application/json"})
    s3tables_error(send("PUT", url, headers, forged), 403, "InvalidSignatureException")
    # Java/PyIceberg's way: the hex hash declared and signed.
    url, headers = signed(server, "PUT", f"{api}/buckets", body,
                          {"Content-Type": "application/json",
                           "x-amz-content-sha256": hashlib.sha256(body).hexdigest()})
    message = s3tables_error(send("PUT", url, headers, forged), 400, "XAmzContentSHA256Mismatch")
    assert "x-amz-content-sha256" in message
    names = [b["name"] for b in
             server.boto3_client("s3tables").list_table_buckets()["tableBuckets"]]
    assert name not in names and other not in names
    # The captured request itself still works once.
    assert send("PUT", url, headers, body).status_code == 200


def test_unsigned_payload_still_works_on_the_s3_port(server, world):
    url = f"{server.s3_url}/{world['gp']}/unsigned-object"
    url, headers = signed(server, "PUT", url, b"unsigned body",
                          {"x-amz-content-sha256": "UNSIGNED-PAYLOAD"}, service="s3")
    r = send("PUT", url, headers, b"unsigned body")
    assert r.status_code == 200, r.text
    got = server.boto3_client("s3").get_object(Bucket=world["gp"], Key="unsigned-object")
    assert got["Body"].read() == b"unsigned body"


# ---------------------------------------------------------------- item 7
def _with_authorization(headers, transform):
    out = dict(headers)
    out["Authorization"] = transform(out["Authorization"])
    return out


def test_duplicate_authorization_parts_are_refused(server, world):
    api = server.api_url
    name = unique("dup")
    body = json.dumps({"name": name}).encode()
    url, headers = signed(server, "PUT", f"{api}/buckets", body,
                          {"Content-Type": "application/json"})
    other_key = server.create_user_with_policy(unique("other"), None)
    cases = {
        "Signature": lambda a: a + ", Signature=" + "0" * 64,
        "Credential": lambda a: a.replace(
            "Credential=", f"Credential={other_key.access_key}/x/us-east-1/s3tables/aws4_request, "
            "Credential=", 1),
        "SignedHeaders": lambda a: a + ", SignedHeaders=host",
    }
    for part, transform in cases.items():
        r = send("PUT", url, _with_authorization(headers, transform), body)
        message = s3tables_error(r, 400, "IncompleteSignatureException")
        assert f"more than one {part}= component" in message, message
    # The S3 port, header form.
    s3_url, s3_headers = signed(server, "GET", f"{server.s3_url}/{world['gp']}/k", service="s3")
    r = send("GET", s3_url, _with_authorization(s3_headers, cases["Signature"]))
    assert "more than one Signature= component" in s3_error(r, 400,
                                                           "AuthorizationHeaderMalformed")
    # Presigned URLs: a repeated X-Amz-* parameter, first or last.
    s3 = server.boto3_client("s3")
    presigned = s3.generate_presigned_url("get_object", Params={"Bucket": world["gp"], "Key": "k"},
                                          ExpiresIn=300)
    assert requests.get(presigned, timeout=30).content == b"secret bytes"
    for extra in ["X-Amz-Signature=" + "0" * 64,
                  "X-Amz-Credential=" + urllib.parse.quote(
                      f"{other_key.access_key}/20260101/us-east-1/s3/aws4_request", safe=""),
                  "X-Amz-Expires=604800", "x-amz-date=20260101T000000Z"]:
        base, _, query = presigned.partition("?")
        for url_variant in (f"{presigned}&{extra}", f"{base}?{extra}&{query}"):
            r = requests.get(url_variant, timeout=30)
            message = s3_error(r, 400, "AuthorizationHeaderMalformed")
            assert "the presigned query has more than one " in message, message
    assert name not in [b["name"] for b in
                        server.boto3_client("s3tables").list_table_buckets()["tableBuckets"]]


DUPLICATE_KEY_POLICIES = {
    "Effect": ('{"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Effect": "Allow", '
               '"Principal": {"AWS": "ACCOUNT"}, "Action": "s3tables:*", "Resource": "*"}]}',
               'duplicate key "Effect" in Statement[0]'),
    "Statement": ('{"Version": "2012-10-17", "Statement": [], "Statement": [{"Effect": "Allow", '
                  '"Principal": {"AWS": "ACCOUNT"}, "Action": "s3tables:*", "Resource": "*"}]}',
                  'duplicate key "Statement" at the top level'),
    "Condition key": ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": '
                      '{"AWS": "ACCOUNT"}, "Action": "s3tables:*", "Resource": "*", "Condition": '
                      '{"StringEquals": {"s3tables:namespace": "a", "s3tables:namespace": "b"}}}]}',
                      'duplicate key "s3tables:namespace" in Statement[0].Condition.StringEquals'),
    "Principal type": ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": '
                       '{"AWS": "ACCOUNT", "AWS": "*"}, "Action": "s3tables:*", "Resource": "*"}]}',
                       'duplicate key "AWS" in Statement[0].Principal'),
    "too deep": ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": '
                 '{"AWS": "ACCOUNT"}, "Action": "s3tables:*", "Resource": "*", "Condition": '
                 '{"StringEquals": {"s3tables:namespace": [[[[["a"]]]]]}}}]}',
                 "nests deeper than 8 levels"),
    "very deep": ("[" * 5000 + "]" * 5000, "nests deeper than 8 levels"),
}


@pytest.mark.parametrize("case", sorted(DUPLICATE_KEY_POLICIES))
def test_ambiguous_policies_are_refused(server, world, case):
    s3t = server.boto3_client("s3tables")
    arn = world["arn"]
    text, expected = DUPLICATE_KEY_POLICIES[case]
    text = text.replace("ACCOUNT", server.account_id)
    private = json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Deny", "Principal": {"AWS": server.account_id}, "Action": "s3tables:DeleteTable",
         "Resource": "*"}]})
    s3t.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=private)
    status, code, message = client_error(
        lambda: s3t.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=text))
    assert (status, code) == (400, "BadRequestException")
    assert message.startswith("MalformedPolicyDocument: ") and expected in message, message
    status, code, message = client_error(lambda: s3t.put_table_policy(
        tableBucketARN=arn, namespace="ns", name="t", resourcePolicy=text))
    assert (status, code) == (400, "BadRequestException") and expected in message
    assert s3t.get_table_bucket_policy(tableBucketARN=arn)["resourcePolicy"] == private
    assert client_error(lambda: s3t.get_table_policy(
        tableBucketARN=arn, namespace="ns", name="t"))[:2] == (404, "NotFoundException")
    s3t.delete_table_bucket_policy(tableBucketARN=arn)


def test_identity_policy_with_duplicate_keys_is_refused(server):
    name = unique("dupuser")
    server.admin("POST", "/users", {"name": name})
    text = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Effect": "Allow", '
            '"Action": "*", "Resource": "*"}]}')
    r = server.signed_request("PUT", f"{server.api_url}/admin/users/{name}/policies/p",
                              body=json.dumps({"policyDocument": text}),
                              headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["__type"] == "MalformedPolicyDocument"
    assert 'duplicate key "Effect" in Statement[0]' in r.json()["message"]
    assert server.admin("GET", f"/users/{name}/policies")["policyNames"] == []


BAD_TAGS = {
    "NUL in key": ({"te\u0000am": "a"}, "contains U+0000"),
    "NUL in value": ({"team": "a\u0000b"}, "contains U+0000"),
    "newline": ({"team\n": "a"}, "contains U+000A"),
    "semicolon": ({"team": "a;b"}, "contains U+003B"),
    "zero width space": ({"te\u200bam": "a"}, "contains U+200B"),
    "bidi override": ({"team": "\u202eevil"}, "contains U+202E"),
    "emoji": ({"team": "\U0001F600"}, "contains U+1F600"),
    "aws prefix": ({"aws:team": "a"}, "prefix 'aws:' is reserved"),
    "key too long": ({"k" * 129: "a"}, "1 to 128 characters"),
    "value too long": ({"team": "\u00e9" * 257}, "at most 256 characters"),
}


@pytest.mark.parametrize("case", sorted(BAD_TAGS))
def test_bad_tags_are_refused_on_every_tagging_path(server, world, case):
    tags, expected = BAD_TAGS[case]
    s3t = server.boto3_client("s3tables")
    arn = world["arn"]
    s3t.tag_resource(resourceArn=arn, tags={"keep": "me"})
    # S3 Tables TagResource, CreateTableBucket and CreateTable.
    status, code, message = client_error(lambda: s3t.tag_resource(resourceArn=arn, tags=tags))
    assert (status, code) == (400, "BadRequestException") and expected in message, message
    assert "\u0000" not in message
    assert s3t.list_tags_for_resource(resourceArn=arn)["tags"] == {"keep": "me"}
    name = unique("tagged")
    status, code, message = client_error(lambda: s3t.create_table_bucket(name=name, tags=tags))
    assert (status, code) == (400, "BadRequestException") and expected in message, message
    assert name not in [b["name"] for b in s3t.list_table_buckets()["tableBuckets"]]
    status, code, message = client_error(lambda: s3t.create_table(
        tableBucketARN=arn, namespace="ns", name="tagged", format="ICEBERG", tags=tags))
    assert (status, code) == (400, "BadRequestException") and expected in message, message
    assert [t["name"] for t in s3t.list_tables(tableBucketARN=arn)["tables"]] == ["t"]
    # MSK TagResource on a registered cluster.
    cluster = server.admin("POST", "/kafka-clusters",
                           {"name": unique("tagc"), "bootstrapServers": "127.0.0.1:9"})["clusterArn"]
    kafka = server.boto3_client("kafka")
    kafka.tag_resource(ResourceArn=cluster, Tags={"keep": "me"})
    status, code, message = client_error(lambda: kafka.tag_resource(ResourceArn=cluster, Tags=tags))
    assert (status, code) == (400, "BadRequestException") and expected in message, message
    assert kafka.list_tags_for_resource(ResourceArn=cluster)["Tags"] == {"keep": "me"}


def test_good_tags_in_other_scripts_are_kept(server, world):
    s3t = server.boto3_client("s3tables")
    tags = {"équipe": "données 日本 ٣", "a_b.c:d/e=f+g-h@i": "x y", "k" * 128: "v" * 256}
    s3t.tag_resource(resourceArn=world["table_arn"], tags=tags)
    assert s3t.list_tags_for_resource(resourceArn=world["table_arn"])["tags"] == tags
