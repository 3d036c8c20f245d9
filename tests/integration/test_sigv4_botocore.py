"""SigV4 verification against a foreign signer: botocore.

Requests are produced by real boto3 clients (captured in a before-send hook,
so the wire path/query/headers are exactly what botocore would send) and by
botocore's signer classes directly, then verified by our C++ verifier through
the test-only tool `sigv4_verify_tool` ($ST_BUILD_DIR/tests/unit/auth/).
Tampered copies must fail with the right reason.
"""

import datetime
import io
import json
import subprocess
import urllib.parse

import boto3
import botocore.auth
import botocore.awsrequest
import botocore.credentials
import pytest
from botocore.config import Config

from harness import paths

AKID = "AKIDSTREAMTABLES01"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
BUCKET_ARN = "arn:aws:s3tables:us-east-1:111122223333:bucket/amzn-s3-demo-bucket"
TABLES_ENDPOINT = "http://127.0.0.1:8181"
S3_ENDPOINT = "http://127.0.0.1:9000"


def tool_path():
    path = paths.build_dir() / "tests" / "unit" / "auth" / "sigv4_verify_tool"
    # Fails rather than skips: CI builds every target, so a missing tool is a bug.
    assert path.exists(), f"{path} not built; build target sigv4_verify_tool"
    return path


class Captured(Exception):
    def __init__(self, request):
        super().__init__("captured")
        self.request = request


def _capture(request, **_):
    raise Captured(request)


def _now():
    return datetime.datetime.now(datetime.timezone.utc)


def amz(ts):
    return ts.strftime("%Y%m%dT%H%M%SZ")


def wire_request(method, url, headers, body):
    """The request as a server sees it: raw path and query, Host added as urllib3 would."""
    parts = urllib.parse.urlsplit(url)
    hdrs = []
    for name, value in headers.items():
        hdrs.append([name, value.decode() if isinstance(value, bytes) else str(value)])
    if not any(n.lower() == "host" for n, _ in hdrs):
        hdrs.append(["Host", parts.netloc])
    if isinstance(body, io.IOBase):
        body = body.read()
    if isinstance(body, str):
        body = body.encode()
    # A server always knows the body: no body on the wire is an empty one.
    return {"method": method, "path": parts.path, "query": parts.query, "headers": hdrs,
            "body_hex": (body or b"").hex()}


def verify(req, now=None, keys=None, **extra):
    payload = dict(req)
    payload["now"] = amz(now or _now())
    payload["keys"] = keys if keys is not None else {AKID: {"secret": SECRET}}
    payload.update(extra)
    out = subprocess.run([str(tool_path())], input=json.dumps(payload), capture_output=True,
                         text=True, timeout=30, check=True)
    return json.loads(out.stdout)


def assert_ok(result):
    assert result["ok"], f"{result.get('message')}\n--- canonical request:\n{result.get('canonical_request')}"


def assert_reason(result, reason):
    assert not result["ok"], "tampered request verified"
    assert result["reason"] == reason, result["message"]


def client(service, token=None, **kw):
    c = boto3.client(service, endpoint_url=TABLES_ENDPOINT if service == "s3tables" else S3_ENDPOINT,
                     region_name="us-east-1", aws_access_key_id=AKID, aws_secret_access_key=SECRET,
                     aws_session_token=token, **kw)
    c.meta.events.register("before-send.*", _capture)
    return c


def capture(call):
    with pytest.raises(Captured) as info:
        call()
    r = info.value.request
    return wire_request(r.method, r.url, r.headers, r.body)


def s3tables_calls(c):
    return {
        "get_namespace": lambda: c.get_namespace(tableBucketARN=BUCKET_ARN, namespace="ns1"),
        "create_namespace": lambda: c.create_namespace(tableBucketARN=BUCKET_ARN, namespace=["ns1"]),
        "list_buckets": lambda: c.list_table_buckets(prefix="am zn", maxBuckets=10),
        "get_table_query_arn": lambda: c.get_table(tableBucketARN=BUCKET_ARN, namespace="ns1", name="t1"),
        "untag_multi_value": lambda: c.untag_resource(resourceArn=BUCKET_ARN + "/table/abc-123",
                                                      tagKeys=["k", "j é"]),
        "update_metadata": lambda: c.update_table_metadata_location(
            tableBucketARN=BUCKET_ARN, namespace="ns1", name="t1", versionToken="v1",
            metadataLocation="s3://x--table-s3/metadata/00001-é.metadata.json"),
        "put_policy": lambda: c.put_table_bucket_policy(
            tableBucketARN=BUCKET_ARN, resourcePolicy='{"Version":"2012-10-17","Statement":[]}'),
    }


S3TABLES_OPS = [
    "get_namespace", "create_namespace", "list_buckets", "get_table_query_arn",
    "untag_multi_value", "update_metadata", "put_policy"]


@pytest.mark.parametrize("op", S3TABLES_OPS)
def test_s3tables_client_requests_verify(op):
    req = capture(s3tables_calls(client("s3tables"))[op])
    result = verify(req)
    assert_ok(result)
    assert result["service"] == "s3tables"
    assert result["access_key_id"] == AKID


def test_s3tables_arn_path_is_double_encoded_and_tamper_fails():
    req = capture(s3tables_calls(client("s3tables"))["get_namespace"])
    assert "%3A" in req["path"] and "%2F" in req["path"]
    bad = dict(req, path=req["path"].replace("amzn-s3-demo-bucket", "amzn-s3-demo-bucket2"))
    result = verify(bad)
    assert_reason(result, "SignatureDoesNotMatch")
    assert "%253Aaws%253As3tables" in result["canonical_request"]
    # Decoding the ARN on the wire is a different request.
    decoded = dict(req, path=urllib.parse.unquote(req["path"]))
    assert_reason(verify(decoded), "SignatureDoesNotMatch")
    # DuckDB's wire form (':' literal) of the same path is a distinct canonical URI for botocore.
    duck = dict(req, path=req["path"].replace("%3A", ":"))
    assert_reason(verify(duck), "SignatureDoesNotMatch")


def test_s3tables_body_and_query_tamper_fail():
    req = capture(s3tables_calls(client("s3tables"))["create_namespace"])
    body = bytes.fromhex(req["body_hex"]).replace(b"ns1", b"ns2")
    assert_reason(verify(dict(req, body_hex=body.hex())), "SignatureDoesNotMatch")
    req = capture(s3tables_calls(client("s3tables"))["list_buckets"])
    assert_reason(verify(dict(req, query=req["query"].replace("maxBuckets=10", "maxBuckets=11"))),
                  "SignatureDoesNotMatch")


def test_unknown_key_wrong_secret_and_skew():
    req = capture(s3tables_calls(client("s3tables"))["get_namespace"])
    assert_reason(verify(req, keys={"OTHERKEY": {"secret": SECRET}}), "InvalidAccessKeyId")
    assert_reason(verify(req, keys={AKID: {"secret": SECRET + "x"}}), "SignatureDoesNotMatch")
    assert_reason(verify(req, now=_now() + datetime.timedelta(minutes=16)), "RequestTimeTooSkewed")
    assert_reason(verify(req, now=_now() - datetime.timedelta(minutes=16)), "RequestTimeTooSkewed")
    assert_ok(verify(req, now=_now() + datetime.timedelta(minutes=14)))
    assert_reason(verify(req, services=["s3"]), "CredentialScopeMismatch")


def test_session_token_passthrough():
    req = capture(s3tables_calls(client("s3tables", token="FQoGZXIvYXdzEJr//token+/="))["get_namespace"])
    assert any(n.lower() == "x-amz-security-token" for n, _ in req["headers"])
    assert_ok(verify(req, keys={AKID: {"secret": SECRET, "token": "FQoGZXIvYXdzEJr//token+/="}}))
    assert_reason(verify(req, keys={AKID: {"secret": SECRET, "token": "other"}}), "InvalidToken")


def test_pyiceberg_style_sigv4auth_with_empty_body_hash_header():
    """pyiceberg signs Iceberg REST calls with botocore SigV4Auth (not the S3 signer)."""
    creds = botocore.credentials.Credentials(AKID, SECRET)
    prefix = urllib.parse.quote(BUCKET_ARN, safe="")
    url = f"{TABLES_ENDPOINT}/iceberg/v1/{prefix}/namespaces/ns1/tables?pageToken=&pageSize=100"
    headers = {"Content-Type": "application/json",
               "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
               "X-Iceberg-Access-Delegation": "vended-credentials", "Accept": "*/*"}
    request = botocore.awsrequest.AWSRequest(method="GET", url=url, headers=headers)
    botocore.auth.SigV4Auth(creds, "s3tables", "us-east-1").add_auth(request)
    req = wire_request("GET", request.url, request.headers, None)
    assert_ok(verify(req))
    bad = dict(req, headers=[[n, "none" if n == "X-Iceberg-Access-Delegation" else v]
                             for n, v in req["headers"]])
    assert_reason(verify(bad), "SignatureDoesNotMatch")


S3_KEYS = ["data/plain.parquet", "données/ü é+x.parquet", "metadata/snap-1%2F2 ~!$&'()*,;=:@.avro",
           "日本語/キー.parquet"]


@pytest.mark.parametrize("key", S3_KEYS)
def test_s3_client_requests_verify(key):
    c = client("s3", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
    for call in (lambda: c.put_object(Bucket="warehouse", Key=key, Body=b"hello parquet"),
                 lambda: c.get_object(Bucket="warehouse", Key=key, Range="bytes=0-9"),
                 lambda: c.head_object(Bucket="warehouse", Key=key),
                 lambda: c.list_objects_v2(Bucket="warehouse", Prefix=key[:5], MaxKeys=10)):
        req = capture(call)
        result = verify(req)
        assert_ok(result)
        assert result["service"] == "s3"


def test_s3_put_body_tamper_is_content_mismatch():
    c = client("s3", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
    req = capture(lambda: c.put_object(Bucket="warehouse", Key="données/x.parquet", Body=b"hello"))
    assert_reason(verify(dict(req, body_hex=b"hellO".hex())), "ContentSha256Mismatch")
    single_decoded = dict(req, path=urllib.parse.unquote(req["path"]))
    assert_reason(verify(single_decoded), "SignatureDoesNotMatch")


@pytest.mark.parametrize("key", S3_KEYS)
def test_s3_presigned_urls_verify(key):
    c = boto3.client("s3", endpoint_url=S3_ENDPOINT, region_name="us-east-1",
                     aws_access_key_id=AKID, aws_secret_access_key=SECRET,
                     config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
    url = c.generate_presigned_url("get_object", Params={"Bucket": "warehouse", "Key": key,
                                                         "ResponseContentType": "a/b c"},
                                   ExpiresIn=3600)
    req = wire_request("GET", url, {}, None)
    result = verify(req)
    assert_ok(result)
    assert result["presigned"]
    assert_reason(verify(req, now=_now() + datetime.timedelta(seconds=3700)), "RequestExpired")
    tampered = dict(req, query=req["query"].replace("a%2Fb", "a%2Fc"))
    assert tampered["query"] != req["query"]
    assert_reason(verify(tampered), "SignatureDoesNotMatch")


def test_s3_query_auth_signer_directly_with_token():
    creds = botocore.credentials.Credentials(AKID, SECRET, "sess+token/=")
    url = f"{S3_ENDPOINT}/warehouse/{urllib.parse.quote('a b/é.parquet', safe='/~')}?versionId=7"
    request = botocore.awsrequest.AWSRequest(method="GET", url=url, headers={})
    botocore.auth.S3SigV4QueryAuth(creds, "s3", "us-east-1", expires=600).add_auth(request)
    req = wire_request("GET", request.url, {}, None)
    assert "X-Amz-Security-Token" in req["query"]
    assert_ok(verify(req, keys={AKID: {"secret": SECRET, "token": "sess+token/="}}))
    assert_reason(verify(req, now=_now() + datetime.timedelta(seconds=700),
                         keys={AKID: {"secret": SECRET, "token": "sess+token/="}}), "RequestExpired")


def test_s3_header_signer_directly():
    creds = botocore.credentials.Credentials(AKID, SECRET)
    path = "/warehouse/" + urllib.parse.quote("x/ü+ .parquet", safe="/~")
    request = botocore.awsrequest.AWSRequest(
        method="GET", url=f"{S3_ENDPOINT}{path}?list-type=2&prefix=x%2F&encoding-type=url",
        headers={"Range": "bytes=0-99", "X-Amz-Meta-Note": "  two   spaces  "})
    botocore.auth.S3SigV4Auth(creds, "s3", "us-east-1").add_auth(request)
    req = wire_request("GET", request.url, request.headers, None)
    assert_ok(verify(req))
    bad = dict(req, headers=[[n, "bytes=0-100" if n == "Range" else v] for n, v in req["headers"]])
    assert_reason(verify(bad), "SignatureDoesNotMatch")
