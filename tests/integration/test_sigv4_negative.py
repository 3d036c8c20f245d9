"""SigV4 negatives against the real server: wrong secret, unknown key, a
header or the query changed after signing, skew over 15 minutes, expired
presigned URL. Each is a 403 in the surface's own error shape with the
precise code, and nothing changes on the server.

Control plane (JSON, x-amzn-ErrorType): UnrecognizedClientException for an
unknown key, InvalidSignatureException otherwise. S3 (XML <Error><Code>):
InvalidAccessKeyId, SignatureDoesNotMatch, RequestTimeTooSkewed,
AccessDenied "Request has expired".
"""

import datetime
import uuid
import xml.etree.ElementTree as ET

import botocore.auth
import pytest
import requests
from botocore.exceptions import ClientError

from harness.server import Credentials


def _state(server):
    """What a successful mutation would change: buckets and users."""
    s3t = server.boto3_client("s3tables")
    buckets = sorted(b["arn"] for b in s3t.list_table_buckets()["tableBuckets"])
    users = sorted(u["arn"] for u in server.admin("GET", "/users")["users"])
    return buckets, users


@pytest.fixture
def before(server):
    return _state(server)


def _json_error(response):
    assert response.status_code == 403, response.text
    error_type = response.headers["x-amzn-ErrorType"]
    assert response.json()["__type"] == error_type
    assert response.json()["message"]
    return error_type


def _client_error(call):
    with pytest.raises(ClientError) as info:
        call()
    error = info.value.response
    assert error["ResponseMetadata"]["HTTPStatusCode"] == 403, error
    return error["Error"]["Code"], error["Error"].get("Message", "")


def _xml_error(response, status=403):
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/xml"
    root = ET.fromstring(response.content)
    assert root.tag == "Error"
    assert root.findtext("RequestId") == response.headers["x-amz-request-id"]
    return root


# ------------------------------------------------------------ control plane
def test_wrong_secret_control_plane(server, before):
    bad = Credentials(server.access_key, "not-the-secret")
    s3t = server.boto3_client("s3tables", bad)
    code, message = _client_error(lambda: s3t.create_table_bucket(name=f"neg-{uuid.uuid4().hex[:8]}"))
    assert code == "InvalidSignatureException"
    code, _ = _client_error(lambda: s3t.list_table_buckets())
    assert code == "InvalidSignatureException"
    assert _state(server) == before


def test_unknown_key_control_plane(server, before):
    bad = Credentials("AKIA" + "Z" * 16, server.secret_key)
    s3t = server.boto3_client("s3tables", bad)
    code, message = _client_error(lambda: s3t.create_table_bucket(name=f"neg-{uuid.uuid4().hex[:8]}"))
    assert code == "UnrecognizedClientException"
    assert "AKIAZZZZ" in message
    with pytest.raises(Exception) as info:
        server.admin("POST", "/users", {"name": "neg-user"}, creds=bad)
    assert info.value.status == 403 and info.value.error_type == "UnrecognizedClientException"
    assert _state(server) == before


def test_header_changed_after_signing(server, before):
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials as BotoCredentials

    body = b'{"name": "neg-header-bucket"}'
    request = AWSRequest(method="PUT", url=server.api_url + "/buckets", data=body,
                         headers={"Content-Type": "application/json"})
    SigV4Auth(BotoCredentials(server.access_key, server.secret_key), "s3tables",
              server.region).add_auth(request)
    headers = dict(request.prepare().headers)
    assert "content-type" in headers["Authorization"]  # the header we change is signed
    headers["Content-Type"] = "application/x-amz-json-1.1"
    response = requests.put(server.api_url + "/buckets", data=body, headers=headers, timeout=30)
    assert _json_error(response) == "InvalidSignatureException"
    # And a changed signed date.
    headers = dict(request.prepare().headers)
    stamp = datetime.datetime.strptime(headers["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
    headers["X-Amz-Date"] = (stamp + datetime.timedelta(seconds=1)).strftime("%Y%m%dT%H%M%SZ")
    response = requests.put(server.api_url + "/buckets", data=body, headers=headers, timeout=30)
    assert _json_error(response) == "InvalidSignatureException"
    # A body changed after signing.
    headers = dict(request.prepare().headers)
    response = requests.put(server.api_url + "/buckets", data=b'{"name": "neg-other-bucket"}',
                            headers=headers, timeout=30)
    assert _json_error(response) == "InvalidSignatureException"
    assert _state(server) == before


def test_query_changed_after_signing(server, before):
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials as BotoCredentials

    request = AWSRequest(method="GET", url=server.api_url + "/buckets?prefix=a")
    SigV4Auth(BotoCredentials(server.access_key, server.secret_key), "s3tables",
              server.region).add_auth(request)
    headers = dict(request.prepare().headers)
    ok = requests.get(server.api_url + "/buckets?prefix=a", headers=headers, timeout=30)
    assert ok.status_code == 200, ok.text
    response = requests.get(server.api_url + "/buckets?prefix=b", headers=headers, timeout=30)
    assert _json_error(response) == "InvalidSignatureException"
    response = requests.get(server.api_url + "/buckets?prefix=a&maxBuckets=1", headers=headers,
                            timeout=30)
    assert _json_error(response) == "InvalidSignatureException"
    assert _state(server) == before


@pytest.mark.parametrize("minutes", [-20, 16])
def test_clock_skew_over_15_minutes(server, before, monkeypatch, minutes):
    real = botocore.auth.get_current_datetime
    monkeypatch.setattr(botocore.auth, "get_current_datetime",
                        lambda *a, **k: real(*a, **k) + datetime.timedelta(minutes=minutes))
    s3t = server.boto3_client("s3tables")
    code, message = _client_error(lambda: s3t.create_table_bucket(name=f"neg-{uuid.uuid4().hex[:8]}"))
    assert code == "InvalidSignatureException"
    assert "expired" in message.lower() or "skew" in message.lower()
    monkeypatch.undo()
    assert _state(server) == before


def test_clock_skew_under_15_minutes_is_accepted(server, monkeypatch):
    real = botocore.auth.get_current_datetime
    monkeypatch.setattr(botocore.auth, "get_current_datetime",
                        lambda *a, **k: real(*a, **k) - datetime.timedelta(minutes=14))
    server.boto3_client("s3tables").list_table_buckets()


def test_iceberg_surface_shape(server):
    bad = Credentials(server.access_key, "not-the-secret")
    response = server.signed_request("GET", server.iceberg_url + "/v1/config", creds=bad,
                                     params={"warehouse": "x"})
    assert response.status_code == 403, response.text
    error = response.json()["error"]
    assert error["code"] == 403 and error["type"] == "InvalidSignatureException"


def test_anonymous_request_is_denied(server, before):
    # Refused by authentication itself (there is no anonymous principal).
    response = requests.put(server.api_url + "/buckets", json={"name": "anon-bucket"}, timeout=30)
    assert response.status_code == 403, response.text
    assert response.headers["x-amzn-ErrorType"] == "MissingAuthenticationTokenException"
    assert response.json()["message"].startswith("Missing Authentication Token: ")
    response = requests.get(server.api_url + "/admin/users", timeout=30)
    assert response.status_code == 403
    assert response.headers["x-amzn-ErrorType"] == "MissingAuthenticationTokenException"
    assert _state(server) == before


# ------------------------------------------------------------ S3 endpoint
@pytest.fixture
def s3_ready(server):
    """The S3 surface answers signed requests (404/200, not 'no API operation')."""
    response = server.signed_request("GET", server.s3_url + "/probe-bucket/probe-key", service="s3")
    assert not (response.status_code == 404 and "no API operation" in response.text), \
        "the S3 surface is not mounted"
    return server


def test_s3_wrong_secret_and_unknown_key(s3_ready, before):
    server = s3_ready
    bad = server.boto3_client("s3", Credentials(server.access_key, "not-the-secret"))
    with pytest.raises(ClientError) as info:
        bad.get_object(Bucket="some-bucket", Key="metadata/x.json")
    assert info.value.response["Error"]["Code"] == "SignatureDoesNotMatch"
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    with pytest.raises(ClientError) as info:
        bad.put_object(Bucket="some-bucket", Key="data/x.parquet", Body=b"x")
    assert info.value.response["Error"]["Code"] == "SignatureDoesNotMatch"
    unknown = server.boto3_client("s3", Credentials("AKIA" + "Q" * 16, server.secret_key))
    with pytest.raises(ClientError) as info:
        unknown.get_object(Bucket="some-bucket", Key="metadata/x.json")
    assert info.value.response["Error"]["Code"] == "InvalidAccessKeyId"
    assert _state(server) == before


def test_s3_query_and_header_changed_after_signing(s3_ready):
    server = s3_ready
    from botocore.auth import S3SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials as BotoCredentials

    url = server.s3_url + "/some-bucket?list-type=2&prefix=a"
    request = AWSRequest(method="GET", url=url, headers={"Range": "bytes=0-1"})
    S3SigV4Auth(BotoCredentials(server.access_key, server.secret_key), "s3",
                server.region).add_auth(request)
    headers = dict(request.prepare().headers)
    response = requests.get(server.s3_url + "/some-bucket?list-type=2&prefix=b", headers=headers,
                            timeout=30)
    assert _xml_error(response).findtext("Code") == "SignatureDoesNotMatch"
    root = _xml_error(response)
    assert root.findtext("StringToSign") and root.findtext("CanonicalRequest") is not None
    headers["Range"] = "bytes=0-2"
    response = requests.get(url, headers=headers, timeout=30)
    assert _xml_error(response).findtext("Code") == "SignatureDoesNotMatch"


def test_s3_expired_presigned_url(s3_ready, monkeypatch):
    server = s3_ready
    real = botocore.auth.get_current_datetime
    monkeypatch.setattr(botocore.auth, "get_current_datetime",
                        lambda *a, **k: real(*a, **k) - datetime.timedelta(minutes=10))
    url = server.boto3_client("s3").generate_presigned_url(
        "get_object", Params={"Bucket": "some-bucket", "Key": "metadata/x.json"}, ExpiresIn=60)
    monkeypatch.undo()
    assert "X-Amz-Signature=" in url
    response = requests.get(url, timeout=30)
    root = _xml_error(response)
    assert root.findtext("Code") == "AccessDenied"
    assert root.findtext("Message") == "Request has expired"


def test_s3_skew(s3_ready, monkeypatch):
    server = s3_ready
    real = botocore.auth.get_current_datetime
    monkeypatch.setattr(botocore.auth, "get_current_datetime",
                        lambda *a, **k: real(*a, **k) + datetime.timedelta(minutes=20))
    s3 = server.boto3_client("s3")
    with pytest.raises(ClientError) as info:
        s3.put_object(Bucket="some-bucket", Key="data/x.parquet", Body=b"x")
    assert info.value.response["Error"]["Code"] == "RequestTimeTooSkewed"
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
