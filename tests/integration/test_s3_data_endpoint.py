"""The S3 data endpoint (docs/api-contract-notes.md §4) through boto3's `s3` client and raw
SigV4-signed HTTP, against the real server binary.

Tables are created in the server's catalog by the st_s3_table_fixture program
(built next to the unit tests), which can also make streaming tables: only a
delivery channel creates those, and that arrives in a later issue.
"""

import hashlib
import http.client
import json
import os
import pathlib
import re
import signal
import subprocess
import threading
import urllib.parse

import boto3
import pytest
import requests
from boto3.s3.transfer import TransferConfig
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

from harness import paths

LISTENING = re.compile(r"streamtables: listening api=(http://\S+) s3=(http://\S+)")
CHANNEL = "arn:aws:kafka:us-east-1:111122223333:channel/orders-channel"
MIB = 1024 * 1024


def _binary(*parts: str) -> pathlib.Path:
    path = paths.build_dir().joinpath(*parts)
    if not path.is_file():
        pytest.fail(f"{path} is missing; build it in {paths.build_dir()} or set ST_BUILD_DIR")
    return path


class Server:
    """streamtables-server on ephemeral ports in its own data dir."""

    def __init__(self, data_dir: pathlib.Path):
        self.data_dir = data_dir
        self.log_path = data_dir.parent / "server.log"
        self.stderr = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [str(_binary("src", "server", "streamtables-server")), "--data-dir", str(data_dir),
             "--listen", "127.0.0.1:0", "--s3-listen", "127.0.0.1:0",
             "--metrics-listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        lines = []

        def read():
            for line in self.proc.stdout:
                lines.append(line)
                if LISTENING.search(line):
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(60)
        match = LISTENING.search("".join(lines))
        if not match:
            self.proc.kill()
            pytest.fail(f"no listening line; stdout {lines!r}; log: {self.log()}")
        self.api, self.s3 = match.group(1), match.group(2)
        keys = json.loads((data_dir / "keys" / "admin.json").read_text())
        self.access_key, self.secret_key = keys["access_key_id"], keys["secret_access_key"]
        self.account_id = (data_dir / "account-id").read_text().strip()

    def log(self) -> str:
        self.stderr.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.stderr.close()

    def create_table(self, bucket: str, namespace: str, name: str, channel: str = None) -> dict:
        args = [str(_binary("tests", "unit", "api", "s3", "st_s3_table_fixture")),
                str(self.data_dir / "catalog" / "catalog.db"), self.account_id, bucket,
                namespace, name] + ([channel] if channel else [])
        out = subprocess.run(args, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        table = json.loads(out.stdout)
        table["bucket"] = urllib.parse.urlparse(table["warehouse_location"]).netloc
        return table

    def s3_client(self, **config):
        return boto3.client(
            "s3", endpoint_url=self.s3, region_name="us-east-1",
            aws_access_key_id=self.access_key, aws_secret_access_key=self.secret_key,
            config=Config(signature_version="s3v4", s3={"addressing_style": "path"},
                          retries={"max_attempts": 1}, **config))

    def raw(self, method: str, path: str, body: bytes = b"", host: str = None,
            headers: dict = None):
        """A SigV4-signed request whose path goes out exactly as given."""
        netloc = urllib.parse.urlparse(self.s3).netloc
        request = AWSRequest(method=method, url=f"http://{host or netloc}{path}", data=body,
                             headers=dict(headers or {}))
        request.headers["x-amz-content-sha256"] = hashlib.sha256(body).hexdigest()
        S3SigV4Auth(Credentials(self.access_key, self.secret_key), "s3",
                    "us-east-1").add_auth(request)
        conn = http.client.HTTPConnection(netloc, timeout=30)
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host or netloc)  # Signed by botocore, but not added by it.
        for name, value in request.headers.items():
            conn.putheader(name, value)
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, dict(response.getheaders()), data


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data")
    yield running
    running.stop()


@pytest.fixture
def regular(server):
    return server.create_table("analytics", "sales", "orders")


def _code(error: ClientError) -> str:
    return error.response["Error"]["Code"]


def test_get_ranges_head_and_errors(server, regular):
    s3 = server.s3_client()
    bucket = regular["bucket"]
    payload = bytes(range(256)) * 40  # 10240 bytes
    put = s3.put_object(Bucket=bucket, Key="data/part-0.parquet", Body=payload)
    assert put["ETag"] == f'"{hashlib.md5(payload).hexdigest()}"'

    got = s3.get_object(Bucket=bucket, Key="data/part-0.parquet")
    assert got["Body"].read() == payload
    assert got["ContentLength"] == len(payload)
    assert got["ETag"] == put["ETag"]
    assert got["LastModified"].tzinfo is not None
    for header, expected, content_range in [
            ("bytes=100-199", payload[100:200], "bytes 100-199/10240"),
            ("bytes=10000-", payload[10000:], "bytes 10000-10239/10240"),
            ("bytes=-40", payload[-40:], "bytes 10200-10239/10240"),
            ("bytes=10200-99999", payload[10200:], "bytes 10200-10239/10240")]:
        ranged = s3.get_object(Bucket=bucket, Key="data/part-0.parquet", Range=header)
        assert ranged["ResponseMetadata"]["HTTPStatusCode"] == 206, header
        assert ranged["ContentRange"] == content_range
        assert ranged["Body"].read() == expected, header

    head = s3.head_object(Bucket=bucket, Key="data/part-0.parquet")
    assert head["ContentLength"] == len(payload)
    assert head["ETag"] == put["ETag"]
    assert head["AcceptRanges"] == "bytes"

    with pytest.raises(ClientError) as bad_range:
        s3.get_object(Bucket=bucket, Key="data/part-0.parquet", Range="bytes=20000-")
    assert bad_range.value.response["ResponseMetadata"]["HTTPStatusCode"] == 416
    assert _code(bad_range.value) == "InvalidRange"
    with pytest.raises(ClientError) as missing:
        s3.get_object(Bucket=bucket, Key="data/none.parquet")
    assert _code(missing.value) == "NoSuchKey"
    with pytest.raises(ClientError) as missing_head:
        s3.head_object(Bucket=bucket, Key="data/none.parquet")
    assert missing_head.value.response["ResponseMetadata"]["HTTPStatusCode"] == 404
    with pytest.raises(ClientError) as no_bucket:
        s3.get_object(Bucket="x" * 20 + "--table-s3", Key="k")
    assert _code(no_bucket.value) == "NoSuchBucket"
    assert s3.head_bucket(Bucket=bucket)["ResponseMetadata"]["HTTPStatusCode"] == 200

    # Presigned GET (query-string SigV4).
    url = s3.generate_presigned_url("get_object", ExpiresIn=300,
                                    Params={"Bucket": bucket, "Key": "data/part-0.parquet"})
    assert requests.get(url, timeout=30).content == payload


def test_list_objects_v2_pages_and_delimiter(server, regular):
    s3 = server.s3_client()
    bucket = regular["bucket"]
    keys = ["data/a=1/f1.parquet", "data/a=2/f2.parquet", "data/plain file+x.parquet",
            "metadata/00000-a.metadata.json", "metadata/snap-1.avro", "version-hint.text",
            "zz/last"]
    for key in keys:
        s3.put_object(Bucket=bucket, Key=key, Body=key.encode())

    pages = list(s3.get_paginator("list_objects_v2").paginate(
        Bucket=bucket, PaginationConfig={"PageSize": 2}))
    assert len(pages) == 4
    assert [o["Key"] for p in pages for o in p.get("Contents", [])] == sorted(keys)
    assert [p["KeyCount"] for p in pages] == [2, 2, 2, 1]
    assert all(p["IsTruncated"] for p in pages[:-1]) and not pages[-1]["IsTruncated"]
    first = pages[0]["Contents"][0]
    assert first["Size"] == len(keys[0]) and first["StorageClass"] == "STANDARD"
    assert first["ETag"] == f'"{hashlib.md5(keys[0].encode()).hexdigest()}"'

    top = s3.list_objects_v2(Bucket=bucket, Delimiter="/")
    assert [p["Prefix"] for p in top["CommonPrefixes"]] == ["data/", "metadata/", "zz/"]
    assert [o["Key"] for o in top["Contents"]] == ["version-hint.text"]
    assert top["KeyCount"] == 4

    data = s3.list_objects_v2(Bucket=bucket, Prefix="data/", Delimiter="/")
    assert [p["Prefix"] for p in data["CommonPrefixes"]] == ["data/a=1/", "data/a=2/"]
    assert [o["Key"] for o in data["Contents"]] == ["data/plain file+x.parquet"]

    grouped_pages = list(s3.get_paginator("list_objects_v2").paginate(
        Bucket=bucket, Delimiter="/", PaginationConfig={"PageSize": 1}))
    assert [p.get("CommonPrefixes", [{}])[0].get("Prefix") or p["Contents"][0]["Key"]
            for p in grouped_pages] == ["data/", "metadata/", "version-hint.text", "zz/"]

    after = s3.list_objects_v2(Bucket=bucket, StartAfter="metadata/snap-1.avro")
    assert [o["Key"] for o in after["Contents"]] == ["version-hint.text", "zz/last"]


def test_multipart_upload_and_delete(server, regular, tmp_path):
    s3 = server.s3_client()
    bucket = regular["bucket"]
    source = tmp_path / "big.bin"
    blob = os.urandom(15 * MIB)
    source.write_bytes(blob)
    s3.upload_file(str(source), bucket, "data/big.parquet",
                   Config=TransferConfig(multipart_threshold=5 * MIB, multipart_chunksize=5 * MIB,
                                         max_concurrency=2))
    head = s3.head_object(Bucket=bucket, Key="data/big.parquet")
    digests = b"".join(hashlib.md5(blob[i:i + 5 * MIB]).digest() for i in range(0, len(blob),
                                                                                  5 * MIB))
    assert head["ETag"] == f'"{hashlib.md5(digests).hexdigest()}-3"'
    assert head["ContentLength"] == len(blob)
    target = tmp_path / "back.bin"
    s3.download_file(bucket, "data/big.parquet", str(target),
                     Config=TransferConfig(multipart_threshold=4 * MIB, multipart_chunksize=4 * MIB))
    assert target.read_bytes() == blob

    # Explicit API: ListParts, Abort.
    upload = s3.create_multipart_upload(Bucket=bucket, Key="data/aborted.parquet")
    s3.upload_part(Bucket=bucket, Key="data/aborted.parquet", UploadId=upload["UploadId"],
                   PartNumber=1, Body=b"abc")
    parts = s3.list_parts(Bucket=bucket, Key="data/aborted.parquet", UploadId=upload["UploadId"])
    assert [(p["PartNumber"], p["Size"]) for p in parts["Parts"]] == [(1, 3)]
    s3.abort_multipart_upload(Bucket=bucket, Key="data/aborted.parquet",
                              UploadId=upload["UploadId"])
    with pytest.raises(ClientError) as gone:
        s3.list_parts(Bucket=bucket, Key="data/aborted.parquet", UploadId=upload["UploadId"])
    assert _code(gone.value) == "NoSuchUpload"

    s3.delete_object(Bucket=bucket, Key="data/big.parquet")
    with pytest.raises(ClientError) as deleted:
        s3.head_object(Bucket=bucket, Key="data/big.parquet")
    assert deleted.value.response["ResponseMetadata"]["HTTPStatusCode"] == 404
    assert s3.list_objects_v2(Bucket=bucket)["KeyCount"] == 0


def _snapshot(s3, bucket: str) -> list:
    listing = s3.list_objects_v2(Bucket=bucket)
    return [(o["Key"], o["Size"], o["ETag"], o["LastModified"],
             s3.get_object(Bucket=bucket, Key=o["Key"])["Body"].read())
            for o in listing.get("Contents", [])]


def test_streaming_table_is_read_only(server, tmp_path):
    table = server.create_table("analytics", "events", "clicks", channel=CHANNEL)
    bucket = table["bucket"]
    # The channel writes through the object store, not through S3.
    data_file = server.data_dir / "objects" / bucket / "data" / "00000-0.parquet"
    data_file.parent.mkdir(parents=True)
    data_file.write_bytes(b"PAR1 rows PAR1")
    s3 = server.s3_client()
    before = _snapshot(s3, bucket)
    status, _, raw_before = server.raw("GET", f"/{bucket}?list-type=2")
    assert status == 200 and b"<Key>data/00000-0.parquet</Key>" in raw_before, raw_before

    source = tmp_path / "f.bin"
    source.write_bytes(os.urandom(6 * MIB))
    attempts = [
        lambda: s3.put_object(Bucket=bucket, Key="data/00000-0.parquet", Body=b"overwrite"),
        lambda: s3.put_object(Bucket=bucket, Key="data/new.parquet", Body=b"new"),
        lambda: s3.delete_object(Bucket=bucket, Key="data/00000-0.parquet"),
        lambda: s3.create_multipart_upload(Bucket=bucket, Key="data/mp.parquet"),
        lambda: s3.upload_file(str(source), bucket, "data/mp.parquet",
                               Config=TransferConfig(multipart_threshold=5 * MIB)),
    ]
    for attempt in attempts:
        with pytest.raises(Exception) as refused:
            attempt()
        error = refused.value
        if not isinstance(error, ClientError):  # s3transfer wraps the ClientError.
            error = error.__cause__ or error.__context__
        assert isinstance(error, ClientError), repr(refused.value)
        assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 403
        assert _code(error) == "AccessDenied"
        assert CHANNEL in error.response["Error"]["Message"]
    for path in [f"/{bucket}/data/x?partNumber=1&uploadId={'0' * 32}",
                 f"/{bucket}/data/x?uploadId={'0' * 32}"]:
        status, _, body = server.raw("PUT" if "partNumber" in path else "DELETE", path, b"x")
        assert status == 403 and CHANNEL.encode() in body, body

    assert _snapshot(s3, bucket) == before
    assert server.raw("GET", f"/{bucket}?list-type=2")[2] == raw_before
    assert data_file.read_bytes() == b"PAR1 rows PAR1"
    # Reads keep working.
    assert s3.get_object(Bucket=bucket, Key="data/00000-0.parquet",
                         Range="bytes=0-3")["Body"].read() == b"PAR1"


def test_traversal_and_bad_input_are_400(server, regular):
    bucket = regular["bucket"]
    other = server.create_table("analytics", "sales", "other")
    s3 = server.s3_client()
    s3.put_object(Bucket=other["bucket"], Key="secret", Body=b"other table")
    for path in [f"/{bucket}/../{other['bucket']}/secret",
                 f"/{bucket}/%2e%2e/{other['bucket']}/secret",
                 f"/{bucket}/%2E%2E%2F{other['bucket']}%2Fsecret",
                 f"/{bucket}/data/..%2F..%2Fsecret",
                 f"/{bucket}/a%2Fb",
                 f"/{bucket}//etc/passwd",
                 f"/{bucket}/./x"]:
        for method in ("GET", "PUT", "DELETE", "HEAD"):
            status, headers, body = server.raw(method, path, b"" if method != "PUT" else b"x")
            assert status == 400, (method, path, status, body)
            if method != "HEAD":
                assert b"<Code>InvalidArgument</Code>" in body, body
                assert headers.get("Content-Type") == "application/xml"
    status, _, body = server.raw("GET", f"/{bucket}/data/x", headers={"Range": "bytes=5-"})
    assert status == 404 and b"NoSuchKey" in body
    # Nothing escaped, and the server keeps serving.
    assert s3.get_object(Bucket=other["bucket"], Key="secret")["Body"].read() == b"other table"
    assert s3.list_objects_v2(Bucket=bucket)["KeyCount"] == 0
    assert server.proc.poll() is None


def test_virtual_hosted_addressing(server, regular):
    bucket = regular["bucket"]
    port = urllib.parse.urlparse(server.s3).port
    host = f"{bucket}.localhost:{port}"
    status, headers, _ = server.raw("PUT", "/data/v.bin", b"virtual", host=host)
    assert status == 200, headers
    status, _, body = server.raw("GET", "/data/v.bin", host=host)
    assert (status, body) == (200, b"virtual")
    status, _, body = server.raw("GET", "/?list-type=2&prefix=data%2F", host=host)
    assert status == 200 and b"<Key>data/v.bin</Key>" in body
    # Path style sees the same object.
    s3 = server.s3_client()
    assert s3.get_object(Bucket=bucket, Key="data/v.bin")["Body"].read() == b"virtual"


def test_unauthenticated_and_wrong_secret_are_refused(server, regular):
    bucket = regular["bucket"]
    anonymous = requests.get(f"{server.s3}/{bucket}/data/x", timeout=30)
    assert anonymous.status_code == 403
    assert b"<Error>" in anonymous.content
    wrong = boto3.client("s3", endpoint_url=server.s3, region_name="us-east-1",
                         aws_access_key_id=server.access_key, aws_secret_access_key="x" * 40,
                         config=Config(signature_version="s3v4",
                                       s3={"addressing_style": "path"}))
    with pytest.raises(ClientError) as refused:
        wrong.put_object(Bucket=bucket, Key="data/x", Body=b"x")
    assert _code(refused.value) == "SignatureDoesNotMatch"
    assert server.s3_client().list_objects_v2(Bucket=bucket)["KeyCount"] == 0
