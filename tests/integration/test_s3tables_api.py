"""S3 Tables control plane through boto3's `s3tables` client against the real
server binary (docs/api-contract-notes.md §1): every operation, pagination, conflicts,
not-found shapes and bad input, with the error codes botocore parses.

The server runs on port 0 in a temp data dir; credentials are the admin keys
the server writes into its data dir on first start.
"""

import json
import os
import pathlib
import re
import signal
import subprocess
import threading
import uuid

import boto3
import botocore.exceptions
import pytest
from botocore.config import Config

from harness import paths

LISTENING = re.compile(r"streamtables: listening api=(http://\S+) s3=(http://\S+)")
ACCOUNT = "111122223333"
REGION = "us-east-1"


# ------------------------------------------------------------------ server
def server_binary() -> pathlib.Path:
    path = paths.build_dir() / "src" / "server" / "streamtables-server"
    assert path.is_file(), f"{path} is missing; build streamtables-server or set ST_BUILD_DIR"
    return path


def read_admin_keys(data_dir: pathlib.Path) -> tuple[str, str]:
    """The admin access key the server wrote on first start (a 0600 file under
    the data dir whose name mentions admin); JSON or credentials-file form."""
    candidates = sorted(p for p in data_dir.rglob("*") if p.is_file() and "admin" in p.name)
    for path in candidates:
        text = path.read_text(errors="replace")
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
        if isinstance(doc, dict):
            flat = {k.lower().replace("-", "_"): v for k, v in doc.items()}
            for nested in ("credentials", "accesskey", "access_key"):
                if isinstance(flat.get(nested), dict):
                    flat.update({k.lower().replace("-", "_"): v
                                 for k, v in flat[nested].items()})
            akid = (flat.get("access_key_id") or flat.get("aws_access_key_id")
                    or flat.get("accesskeyid"))
            secret = (flat.get("secret_access_key") or flat.get("aws_secret_access_key")
                      or flat.get("secretaccesskey"))
            if akid and secret:
                return akid, secret
        pairs = dict(re.findall(r"(?im)^\s*([a-z_]+)\s*[=:]\s*(\S+)\s*$", text))
        pairs = {k.lower(): v for k, v in pairs.items()}
        akid = pairs.get("aws_access_key_id") or pairs.get("access_key_id")
        secret = pairs.get("aws_secret_access_key") or pairs.get("secret_access_key")
        if akid and secret:
            return akid, secret
    raise AssertionError(f"no admin key file found under {data_dir}: {candidates}")


class S3TablesServer:
    """streamtables-server on ephemeral ports; stop() sends SIGTERM."""

    def __init__(self, data_dir: pathlib.Path, log_path: pathlib.Path, *extra: str):
        self.data_dir = data_dir
        self.log_path = log_path
        self.stderr = open(log_path, "ab")
        self.proc = subprocess.Popen(
            [str(server_binary()), "--data-dir", str(data_dir), "--listen", "127.0.0.1:0",
             "--s3-listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--region", REGION,
             *extra],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        got = []

        def read_until_listening():
            # Other lines (where the admin key file is) may come first.
            for line in self.proc.stdout:
                got.append(line)
                if LISTENING.search(line):
                    return

        reader = threading.Thread(target=read_until_listening, daemon=True)
        reader.start()
        reader.join(30)
        match = LISTENING.search(got[-1]) if got else None
        if not match:
            self.proc.kill()
            raise AssertionError(f"server did not start: {got!r}; log: {self.log()}")
        self.api, self.s3 = match.group(1), match.group(2)
        self.access_key, self.secret_key = read_admin_keys(data_dir)

    def log(self) -> str:
        self.stderr.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def client(self, **config):
        return boto3.client(
            "s3tables", endpoint_url=self.api, region_name=REGION,
            aws_access_key_id=self.access_key, aws_secret_access_key=self.secret_key,
            config=Config(retries={"max_attempts": 1}, **config))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()


@pytest.fixture
def server(tmp_path):
    srv = S3TablesServer(tmp_path / "data", tmp_path / "server.log", "--account-id", ACCOUNT)
    yield srv
    srv.stop()


@pytest.fixture
def s3t(server):
    return server.client()


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def error_of(excinfo) -> tuple[int, str, str]:
    err = excinfo.value.response
    return (err["ResponseMetadata"]["HTTPStatusCode"], err["Error"]["Code"],
            err["Error"].get("Message", ""))


def make_table(s3t, bucket_arn, ns, name, with_metadata=True):
    kwargs = {"tableBucketARN": bucket_arn, "namespace": ns, "name": name, "format": "ICEBERG"}
    if with_metadata:
        kwargs["metadata"] = {"iceberg": {"schema": {"fields": [
            {"name": "id", "type": "long", "required": True},
            {"name": "ts", "type": "timestamptz"},
            {"name": "note", "type": "string"}]}}}
    return s3t.create_table(**kwargs)


# ------------------------------------------------------------------ buckets
def test_table_bucket_lifecycle(s3t):
    arn = s3t.create_table_bucket(name="analytics")["arn"]
    assert arn == f"arn:aws:s3tables:{REGION}:{ACCOUNT}:bucket/analytics"

    got = s3t.get_table_bucket(tableBucketARN=arn)
    assert got["name"] == "analytics" and got["arn"] == arn
    assert got["ownerAccountId"] == ACCOUNT
    assert got["createdAt"].tzinfo is not None  # ISO-8601 parsed by botocore
    assert got["ResponseMetadata"]["RequestId"]
    assert got["ResponseMetadata"]["HTTPHeaders"]["x-amzn-requestid"]

    with pytest.raises(botocore.exceptions.ClientError) as dup:
        s3t.create_table_bucket(name="analytics")
    assert error_of(dup)[:2] == (409, "ConflictException")

    listed = s3t.list_table_buckets(prefix="ana")["tableBuckets"]
    assert [b["name"] for b in listed] == ["analytics"]
    assert s3t.list_table_buckets(prefix="zzz")["tableBuckets"] == []

    s3t.delete_table_bucket(tableBucketARN=arn)
    with pytest.raises(botocore.exceptions.ClientError) as gone:
        s3t.get_table_bucket(tableBucketARN=arn)
    status, code, message = error_of(gone)
    assert (status, code) == (404, "NotFoundException") and message


def test_pagination_across_pages(s3t):
    names = sorted(f"page-{i:02d}" for i in range(7))
    for name in names:
        s3t.create_table_bucket(name=name)
    seen, token, pages = [], None, 0
    while True:
        kwargs = {"maxBuckets": 3, "prefix": "page-"}
        if token:
            kwargs["continuationToken"] = token
        page = s3t.list_table_buckets(**kwargs)
        pages += 1
        seen += [b["name"] for b in page["tableBuckets"]]
        token = page.get("continuationToken")
        if not token:
            break
    assert (seen, pages) == (names, 3)

    # The botocore paginators (paginators-1.json) drive the same tokens.
    paged = s3t.get_paginator("list_table_buckets").paginate(
        prefix="page-", PaginationConfig={"PageSize": 2})
    assert [b["name"] for p in paged for b in p["tableBuckets"]] == names

    bucket = s3t.create_table_bucket(name="paged")["arn"]
    namespaces = [f"ns_{i}" for i in range(5)]
    for ns in namespaces:
        s3t.create_namespace(tableBucketARN=bucket, namespace=[ns])
    paged = s3t.get_paginator("list_namespaces").paginate(
        tableBucketARN=bucket, PaginationConfig={"PageSize": 2})
    pages = list(paged)
    assert len(pages) == 3
    assert [n["namespace"][0] for p in pages for n in p["namespaces"]] == namespaces

    for i in range(5):
        make_table(s3t, bucket, "ns_0", f"t_{i}", with_metadata=False)
    make_table(s3t, bucket, "ns_1", "t_other", with_metadata=False)
    pages = list(s3t.get_paginator("list_tables").paginate(
        tableBucketARN=bucket, namespace="ns_0", PaginationConfig={"PageSize": 2}))
    assert len(pages) == 3
    assert [t["name"] for p in pages for t in p["tables"]] == [f"t_{i}" for i in range(5)]
    everything = s3t.list_tables(tableBucketARN=bucket, prefix="t_")["tables"]
    assert len(everything) == 6

    # A token is bound to its listing.
    first = s3t.list_table_buckets(maxBuckets=1)
    with pytest.raises(botocore.exceptions.ClientError) as bad:
        s3t.list_namespaces(tableBucketARN=bucket, continuationToken=first["continuationToken"])
    assert error_of(bad)[:2] == (400, "BadRequestException")


# ------------------------------------------------------------------ namespaces and tables
def test_namespaces_and_tables(s3t):
    bucket = s3t.create_table_bucket(name="warehouse")["arn"]
    created = s3t.create_namespace(tableBucketARN=bucket, namespace=["sales"])
    assert created["namespace"] == ["sales"] and created["tableBucketARN"] == bucket
    with pytest.raises(botocore.exceptions.ClientError) as dup:
        s3t.create_namespace(tableBucketARN=bucket, namespace=["sales"])
    assert error_of(dup)[:2] == (409, "ConflictException")
    ns = s3t.get_namespace(tableBucketARN=bucket, namespace="sales")
    assert ns["namespace"] == ["sales"] and ns["ownerAccountId"] == ACCOUNT
    assert ns["createdBy"] == ACCOUNT and ns["namespaceId"]

    table = make_table(s3t, bucket, "sales", "orders")
    arn, token = table["tableARN"], table["versionToken"]
    assert arn.startswith(bucket + "/table/")

    by_name = s3t.get_table(tableBucketARN=bucket, namespace="sales", name="orders")
    by_arn = s3t.get_table(tableArn=arn)
    for got in (by_name, by_arn):
        assert got["name"] == "orders" and got["namespace"] == ["sales"]
        assert got["tableARN"] == arn and got["format"] == "ICEBERG" and got["type"] == "customer"
        assert got["versionToken"] == token
        assert got["warehouseLocation"].startswith("s3://")
        assert got["warehouseLocation"].endswith("--table-s3")
        assert got["metadataLocation"].startswith(got["warehouseLocation"] + "/metadata/")
        assert got["metadataLocation"].endswith(".metadata.json")
        assert got["createdBy"] == ACCOUNT and got["modifiedBy"] == ACCOUNT

    listed = s3t.list_tables(tableBucketARN=bucket)["tables"]
    assert [(t["name"], t["namespace"], t["tableARN"]) for t in listed] == [
        ("orders", ["sales"], arn)]

    # The compare-and-swap of the metadata pointer.
    location = s3t.get_table_metadata_location(tableBucketARN=bucket, namespace="sales",
                                               name="orders")
    assert location["versionToken"] == token
    new_location = location["warehouseLocation"] + "/metadata/00001-client.metadata.json"
    updated = s3t.update_table_metadata_location(
        tableBucketARN=bucket, namespace="sales", name="orders", versionToken=token,
        metadataLocation=new_location)
    assert updated["metadataLocation"] == new_location and updated["versionToken"] != token
    assert updated["name"] == "orders" and updated["namespace"] == ["sales"]
    with pytest.raises(botocore.exceptions.ClientError) as stale:
        s3t.update_table_metadata_location(
            tableBucketARN=bucket, namespace="sales", name="orders", versionToken=token,
            metadataLocation=location["warehouseLocation"] + "/metadata/00002-x.metadata.json")
    assert error_of(stale)[:2] == (409, "ConflictException")
    with pytest.raises(botocore.exceptions.ClientError) as outside:
        s3t.update_table_metadata_location(
            tableBucketARN=bucket, namespace="sales", name="orders",
            versionToken=updated["versionToken"], metadataLocation="s3://elsewhere/x.metadata.json")
    assert error_of(outside)[:2] == (400, "BadRequestException")
    after = s3t.get_table_metadata_location(tableBucketARN=bucket, namespace="sales", name="orders")
    assert after["metadataLocation"] == new_location

    # A table created without metadata has no metadata location yet.
    bare = make_table(s3t, bucket, "sales", "bare", with_metadata=False)
    bare_loc = s3t.get_table_metadata_location(tableBucketARN=bucket, namespace="sales",
                                               name="bare")
    assert "metadataLocation" not in bare_loc and bare_loc["versionToken"] == bare["versionToken"]
    with pytest.raises(botocore.exceptions.ClientError) as taken:
        make_table(s3t, bucket, "sales", "bare")
    assert error_of(taken)[:2] == (409, "ConflictException")

    # Rename within and across namespaces.
    s3t.create_namespace(tableBucketARN=bucket, namespace=["archive"])
    s3t.rename_table(tableBucketARN=bucket, namespace="sales", name="bare", newName="bare2")
    s3t.rename_table(tableBucketARN=bucket, namespace="sales", name="bare2",
                     newNamespaceName="archive")
    moved = s3t.get_table(tableBucketARN=bucket, namespace="archive", name="bare2")
    assert moved["tableARN"] == bare["tableARN"]
    with pytest.raises(botocore.exceptions.ClientError) as nothing:
        s3t.rename_table(tableBucketARN=bucket, namespace="archive", name="bare2")
    assert error_of(nothing)[:2] == (400, "BadRequestException")
    with pytest.raises(botocore.exceptions.ClientError) as clash:
        s3t.rename_table(tableBucketARN=bucket, namespace="archive", name="bare2",
                         newNamespaceName="sales", newName="orders")
    assert error_of(clash)[:2] == (409, "ConflictException")

    # Non-empty containers refuse deletion; a stale conditional delete is refused.
    with pytest.raises(botocore.exceptions.ClientError) as nonempty_ns:
        s3t.delete_namespace(tableBucketARN=bucket, namespace="sales")
    assert error_of(nonempty_ns)[:2] == (409, "ConflictException")
    with pytest.raises(botocore.exceptions.ClientError) as nonempty_bucket:
        s3t.delete_table_bucket(tableBucketARN=bucket)
    assert error_of(nonempty_bucket)[:2] == (409, "ConflictException")
    with pytest.raises(botocore.exceptions.ClientError) as stale_delete:
        s3t.delete_table(tableBucketARN=bucket, namespace="sales", name="orders",
                         versionToken=token)
    assert error_of(stale_delete)[:2] == (409, "ConflictException")

    s3t.delete_table(tableBucketARN=bucket, namespace="sales", name="orders",
                     versionToken=updated["versionToken"])
    s3t.delete_table(tableBucketARN=bucket, namespace="archive", name="bare2")
    s3t.delete_namespace(tableBucketARN=bucket, namespace="sales")
    s3t.delete_namespace(tableBucketARN=bucket, namespace="archive")
    s3t.delete_table_bucket(tableBucketARN=bucket)
    assert s3t.list_table_buckets()["tableBuckets"] == []


def test_create_table_with_schema_v2_partition_and_order(s3t, server):
    bucket = s3t.create_table_bucket(name="full")["arn"]
    s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
    s3t.create_table(
        tableBucketARN=bucket, namespace="ns", name="events", format="ICEBERG",
        metadata={"iceberg": {
            "schemaV2": {"type": "struct", "fields": [
                {"id": 1, "name": "id", "type": "long", "required": True},
                {"id": 2, "name": "ts", "type": "timestamp", "required": False},
                {"id": 3, "name": "tags", "required": False,
                 "type": {"type": "list", "element-id": 4, "element": "string",
                          "element-required": False}}]},
            # boto3 parameter names; the wire carries the hyphenated Iceberg names.
            "partitionSpec": {"fields": [{"sourceId": 2, "transform": "day", "name": "ts_day"}]},
            "writeOrder": {"orderId": 1, "fields": [
                {"sourceId": 1, "transform": "identity", "direction": "asc",
                 "nullOrder": "nulls-first"}]},
            "properties": {"owner": "tests"}}})
    table = s3t.get_table(tableBucketARN=bucket, namespace="ns", name="events")
    key = table["metadataLocation"][len("s3://"):]
    # Encrypted on disk: read it as a client does, through the S3 endpoint.
    metadata_bucket, _, metadata_key = key.partition("/")
    s3 = boto3.client("s3", endpoint_url=server.s3, region_name=REGION,
                      aws_access_key_id=server.access_key, aws_secret_access_key=server.secret_key,
                      config=Config(s3={"addressing_style": "path"}))
    metadata = json.loads(s3.get_object(Bucket=metadata_bucket, Key=metadata_key)["Body"].read())
    assert metadata["format-version"] == 2
    assert metadata["location"] == table["warehouseLocation"]
    assert [f["name"] for f in metadata["schemas"][0]["fields"]] == ["id", "ts", "tags"]
    assert metadata["partition-specs"][0]["fields"][0]["transform"] == "day"
    assert metadata["sort-orders"][-1]["fields"][0]["source-id"] == 1
    assert metadata["properties"]["owner"] == "tests"

    with pytest.raises(botocore.exceptions.ClientError) as bad:
        s3t.create_table(tableBucketARN=bucket, namespace="ns", name="bad", format="ICEBERG",
                         metadata={"iceberg": {"schema": {"fields": [
                             {"name": "id", "type": "no-such-type"}]}}})
    assert error_of(bad)[:2] == (400, "BadRequestException")
    with pytest.raises(botocore.exceptions.ClientError) as bad_spec:
        s3t.create_table(tableBucketARN=bucket, namespace="ns", name="bad", format="ICEBERG",
                         metadata={"iceberg": {
                             "schema": {"fields": [{"name": "id", "type": "long"}]},
                             "partitionSpec": {"fields": [
                                 {"sourceId": 9, "transform": "identity", "name": "x"}]}}})
    assert error_of(bad_spec)[:2] == (400, "BadRequestException")
    names = [t["name"] for t in s3t.list_tables(tableBucketARN=bucket)["tables"]]
    assert names == ["events"]  # failed creates leave nothing behind


def test_not_found_shapes(s3t):
    bucket = s3t.create_table_bucket(name="present")["arn"]
    missing_bucket = f"arn:aws:s3tables:{REGION}:{ACCOUNT}:bucket/absent"
    calls = [
        lambda: s3t.get_table_bucket(tableBucketARN=missing_bucket),
        lambda: s3t.get_namespace(tableBucketARN=bucket, namespace="nope"),
        lambda: s3t.list_namespaces(tableBucketARN=missing_bucket),
        lambda: s3t.get_table(tableBucketARN=bucket, namespace="nope", name="t"),
        lambda: s3t.get_table(tableArn=bucket + "/table/00000000-0000-0000-0000-000000000000"),
        lambda: s3t.get_table_metadata_location(tableBucketARN=bucket, namespace="x", name="y"),
        lambda: s3t.delete_table(tableBucketARN=bucket, namespace="x", name="y"),
        lambda: s3t.get_table_bucket_policy(tableBucketARN=bucket),
        lambda: s3t.list_tags_for_resource(resourceArn=missing_bucket),
    ]
    for call in calls:
        with pytest.raises(botocore.exceptions.ClientError) as err:
            call()
        status, code, message = error_of(err)
        assert (status, code) == (404, "NotFoundException"), message
        assert message
        assert err.value.response["ResponseMetadata"]["RequestId"]

    # Another account's ARN: cross-account access needs that account's
    # resource policy, so the admin of ours is denied before any lookup.
    with pytest.raises(botocore.exceptions.ClientError) as other:
        s3t.get_table_bucket(tableBucketARN=f"arn:aws:s3tables:{REGION}:999988887777:bucket/present")
    status, code, message = error_of(other)
    assert (status, code) == (403, "AccessDeniedException") and "999988887777" in message


# ------------------------------------------------------------------ policies
def test_bucket_and_table_policies(s3t):
    bucket = s3t.create_table_bucket(name="secured")["arn"]
    s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
    make_table(s3t, bucket, "ns", "t")
    policy = json.dumps({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT}:root"},
        "Action": ["s3tables:GetTable", "s3tables:GetTableMetadataLocation"],
        "Resource": [bucket, bucket + "/table/*"],
        "Condition": {"StringEquals": {"s3tables:namespace": "ns"}}}]})
    s3t.put_table_bucket_policy(tableBucketARN=bucket, resourcePolicy=policy)
    assert s3t.get_table_bucket_policy(tableBucketARN=bucket)["resourcePolicy"] == policy
    s3t.put_table_policy(tableBucketARN=bucket, namespace="ns", name="t", resourcePolicy=policy)
    assert s3t.get_table_policy(tableBucketARN=bucket, namespace="ns",
                                name="t")["resourcePolicy"] == policy

    for bad in ["{not json", json.dumps({"Statement": [{"Effect": "Maybe", "Action": "*",
                                                         "Resource": "*", "Principal": "*"}]}),
                json.dumps({"Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]})]:
        with pytest.raises(botocore.exceptions.ClientError) as err:
            s3t.put_table_bucket_policy(tableBucketARN=bucket, resourcePolicy=bad)
        status, code, message = error_of(err)
        assert (status, code) == (400, "BadRequestException")
        assert "MalformedPolicyDocument" in message
    # The stored policy is untouched by the refused ones.
    assert s3t.get_table_bucket_policy(tableBucketARN=bucket)["resourcePolicy"] == policy

    s3t.delete_table_policy(tableBucketARN=bucket, namespace="ns", name="t")
    s3t.delete_table_bucket_policy(tableBucketARN=bucket)
    for call in (lambda: s3t.get_table_bucket_policy(tableBucketARN=bucket),
                 lambda: s3t.get_table_policy(tableBucketARN=bucket, namespace="ns", name="t")):
        with pytest.raises(botocore.exceptions.ClientError) as err:
            call()
        assert error_of(err)[:2] == (404, "NotFoundException")


# ------------------------------------------------------------------ configuration
def test_maintenance_configuration_and_job_status(s3t, server):
    loose = server.client(parameter_validation=False)  # botocore would refuse some of these
    bucket = s3t.create_table_bucket(name="maintained")["arn"]
    s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
    make_table(s3t, bucket, "ns", "t")
    table = {"tableBucketARN": bucket, "namespace": "ns", "name": "t"}

    got = s3t.get_table_bucket_maintenance_configuration(tableBucketARN=bucket)
    assert got["tableBucketARN"] == bucket
    assert got["configuration"] == {"icebergUnreferencedFileRemoval": {
        "status": "enabled",
        "settings": {"icebergUnreferencedFileRemoval": {"unreferencedDays": 3,
                                                        "nonCurrentDays": 10}}}}
    s3t.put_table_bucket_maintenance_configuration(
        tableBucketARN=bucket, type="icebergUnreferencedFileRemoval",
        value={"status": "enabled", "settings": {"icebergUnreferencedFileRemoval": {
            "unreferencedDays": 5, "nonCurrentDays": 20}}})
    got = s3t.get_table_bucket_maintenance_configuration(tableBucketARN=bucket)
    assert got["configuration"]["icebergUnreferencedFileRemoval"]["settings"][
        "icebergUnreferencedFileRemoval"] == {"unreferencedDays": 5, "nonCurrentDays": 20}

    got = s3t.get_table_maintenance_configuration(**table)
    assert got["tableARN"].startswith(bucket + "/table/")
    assert got["configuration"] == {
        "icebergCompaction": {"status": "enabled", "settings": {"icebergCompaction": {
            "targetFileSizeMB": 512, "strategy": "auto"}}},
        "icebergSnapshotManagement": {"status": "enabled", "settings": {
            "icebergSnapshotManagement": {"minSnapshotsToKeep": 1, "maxSnapshotAgeHours": 120}}}}
    s3t.put_table_maintenance_configuration(
        **table, type="icebergCompaction",
        value={"status": "enabled", "settings": {"icebergCompaction": {
            "targetFileSizeMB": 128, "strategy": "binpack"}}})
    s3t.put_table_maintenance_configuration(
        **table, type="icebergSnapshotManagement", value={"status": "disabled"})
    got = s3t.get_table_maintenance_configuration(**table)["configuration"]
    assert got["icebergCompaction"]["settings"]["icebergCompaction"] == {
        "targetFileSizeMB": 128, "strategy": "binpack"}
    assert got["icebergSnapshotManagement"]["status"] == "disabled"

    status = s3t.get_table_maintenance_job_status(**table)["status"]
    assert status["icebergCompaction"]["status"] == "Not_Yet_Run"
    assert status["icebergUnreferencedFileRemoval"]["status"] == "Not_Yet_Run"
    assert status["icebergSnapshotManagement"]["status"] == "Disabled"

    for bad in [
        {"type": "icebergCompaction", "value": {"settings": {"icebergCompaction": {
            "targetFileSizeMB": 1}}}},
        {"type": "icebergCompaction", "value": {"settings": {"icebergCompaction": {
            "strategy": "shuffle"}}}},
        {"type": "icebergCompaction", "value": {"settings": {"icebergSnapshotManagement": {
            "minSnapshotsToKeep": 1}}}},
        {"type": "icebergSnapshotManagement", "value": {"settings": {
            "icebergSnapshotManagement": {"minSnapshotsToKeep": 0}}}},
        {"type": "icebergSnapshotManagement", "value": {"status": "sometimes"}},
    ]:
        with pytest.raises(botocore.exceptions.ClientError) as err:
            loose.put_table_maintenance_configuration(**table, **bad)
        assert error_of(err)[:2] == (400, "BadRequestException"), bad


def test_record_expiration(s3t, server):
    bucket = s3t.create_table_bucket(name="expiring")["arn"]
    s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
    arn = make_table(s3t, bucket, "ns", "t")["tableARN"]
    got = s3t.get_table_record_expiration_configuration(tableArn=arn)
    assert got["configuration"]["status"] == "disabled"
    assert s3t.get_table_record_expiration_job_status(tableArn=arn)["status"] == "Disabled"
    s3t.put_table_record_expiration_configuration(
        tableArn=arn, value={"status": "enabled", "settings": {"days": 30}})
    got = s3t.get_table_record_expiration_configuration(tableArn=arn)
    assert got["configuration"] == {"status": "enabled", "settings": {"days": 30}}
    assert s3t.get_table_record_expiration_job_status(tableArn=arn)["status"] == "NotYetRun"
    with pytest.raises(botocore.exceptions.ClientError) as err:
        server.client(parameter_validation=False).put_table_record_expiration_configuration(
            tableArn=arn, value={"status": "enabled", "settings": {"days": 0}})
    assert error_of(err)[:2] == (400, "BadRequestException")
    with pytest.raises(botocore.exceptions.ClientError) as err:
        s3t.get_table_record_expiration_configuration(tableArn=bucket + "/table/missing-id")
    assert error_of(err)[:2] == (404, "NotFoundException")


def test_encryption(server, s3t):
    bucket = s3t.create_table_bucket(name="encrypted")["arn"]
    assert s3t.get_table_bucket_encryption(tableBucketARN=bucket)["encryptionConfiguration"] == {
        "sseAlgorithm": "AES256"}
    # A key of the built-in KMS: the table's files are encrypted with it.
    kms = boto3.client("kms", endpoint_url=server.api + "/kms", region_name=REGION,
                       aws_access_key_id=server.access_key, aws_secret_access_key=server.secret_key)
    key = kms.create_key()["KeyMetadata"]["Arn"]
    s3t.put_table_bucket_encryption(
        tableBucketARN=bucket,
        encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": key})
    assert s3t.get_table_bucket_encryption(tableBucketARN=bucket)["encryptionConfiguration"] == {
        "sseAlgorithm": "aws:kms", "kmsKeyArn": key}
    s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
    make_table(s3t, bucket, "ns", "inherits")
    assert s3t.get_table_encryption(tableBucketARN=bucket, namespace="ns", name="inherits")[
        "encryptionConfiguration"] == {"sseAlgorithm": "aws:kms", "kmsKeyArn": key}
    s3t.create_table(tableBucketARN=bucket, namespace="ns", name="own", format="ICEBERG",
                     encryptionConfiguration={"sseAlgorithm": "AES256"})
    assert s3t.get_table_encryption(tableBucketARN=bucket, namespace="ns", name="own")[
        "encryptionConfiguration"] == {"sseAlgorithm": "AES256"}
    with pytest.raises(botocore.exceptions.ClientError) as err:
        s3t.put_table_bucket_encryption(tableBucketARN=bucket,
                                        encryptionConfiguration={"sseAlgorithm": "aws:kms"})
    assert error_of(err)[:2] == (400, "BadRequestException")
    s3t.delete_table_bucket_encryption(tableBucketARN=bucket)
    assert s3t.get_table_bucket_encryption(tableBucketARN=bucket)["encryptionConfiguration"] == {
        "sseAlgorithm": "AES256"}


def test_tags(s3t):
    bucket = s3t.create_table_bucket(name="tagged", tags={"team": "data"})["arn"]
    s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
    table = s3t.create_table(tableBucketARN=bucket, namespace="ns", name="t", format="ICEBERG",
                             tags={"tier": "gold"})["tableARN"]
    assert s3t.list_tags_for_resource(resourceArn=bucket)["tags"] == {"team": "data"}
    s3t.tag_resource(resourceArn=bucket, tags={"env": "test", "team": "platform"})
    assert s3t.list_tags_for_resource(resourceArn=bucket)["tags"] == {
        "team": "platform", "env": "test"}
    s3t.untag_resource(resourceArn=bucket, tagKeys=["team", "absent"])
    assert s3t.list_tags_for_resource(resourceArn=bucket)["tags"] == {"env": "test"}
    assert s3t.list_tags_for_resource(resourceArn=table)["tags"] == {"tier": "gold"}
    s3t.tag_resource(resourceArn=table, tags={"pii": "no"})
    assert s3t.list_tags_for_resource(resourceArn=table)["tags"] == {"tier": "gold", "pii": "no"}
    with pytest.raises(botocore.exceptions.ClientError) as err:
        s3t.tag_resource(resourceArn=bucket, tags={"aws:reserved": "x"})
    assert error_of(err)[:2] == (400, "BadRequestException")
    with pytest.raises(botocore.exceptions.ClientError) as err:
        s3t.tag_resource(resourceArn=bucket, tags={f"k{i}": "v" for i in range(51)})
    assert error_of(err)[:2] == (400, "BadRequestException")


# ------------------------------------------------------------------ bad input
def replace_body(client, operation: str, body: bytes):
    """Makes botocore send `body` (before signing, so the signature holds)."""
    def hook(request, **_):
        request.data = body
        request.headers["Content-Length"] = str(len(body))
    client.meta.events.register(f"before-sign.s3tables.{operation}", hook)


def test_bad_input_is_400_and_server_keeps_serving(server, s3t):
    bucket = s3t.create_table_bucket(name="valid-bucket")["arn"]
    s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])

    def expect_400(call, fragment=""):
        with pytest.raises(botocore.exceptions.ClientError) as err:
            call()
        status, code, message = error_of(err)
        assert (status, code) == (400, "BadRequestException"), message
        assert err.value.response["ResponseMetadata"]["HTTPHeaders"][
            "x-amzn-errortype"] == "BadRequestException"
        assert fragment in message, message

    # Invalid names per §1.2 (botocore checks only lengths, so these reach us).
    for name in ["Upper-Case", "under_score", "-leading", "aws-reserved", "x--table-s3"]:
        expect_400(lambda: s3t.create_table_bucket(name=name), "")
    expect_400(lambda: s3t.create_namespace(tableBucketARN=bucket, namespace=["Bad-NS"]))
    expect_400(lambda: s3t.create_namespace(tableBucketARN=bucket, namespace=["a", "b"]))
    expect_400(lambda: make_table(s3t, bucket, "ns", "Bad-Table"))
    expect_400(lambda: s3t.create_table(tableBucketARN=bucket, namespace="ns", name="t",
                                        format="PARQUET"))
    # Malformed ARNs.
    expect_400(lambda: s3t.get_table_bucket(tableBucketARN="arn:aws:s3:::not-a-table-bucket"))
    expect_400(lambda: s3t.get_table(tableArn=bucket + "/table/bad id!"))
    expect_400(lambda: s3t.list_tags_for_resource(resourceArn="arn:aws:iam::1:user/x"))

    # Wrong JSON types, as a client without parameter validation would send them.
    loose = server.client(parameter_validation=False)
    expect_400(lambda: loose.create_table_bucket(name=123), "'name' must be a string")
    expect_400(lambda: loose.create_namespace(tableBucketARN=bucket, namespace="ns2"))
    expect_400(lambda: loose.create_table_bucket(name="tagged-x", tags={"k": 1}))
    expect_400(lambda: loose.put_table_bucket_policy(tableBucketARN=bucket, resourcePolicy={}))
    expect_400(lambda: loose.list_table_buckets(maxBuckets=0))
    expect_400(lambda: loose.list_table_buckets(maxBuckets=5000))
    expect_400(lambda: loose.create_table_bucket(name="ab"))
    expect_400(lambda: loose.create_table_bucket(name="x" * 64))

    # Malformed JSON, a non-object, an oversized body.
    for body, fragment in [(b"{not json", "not valid JSON"), (b"[1, 2]", "JSON object"),
                           (b"{\"name\": " + b" " * (300 * 1024) + b"\"big\"}", "limit")]:
        client = server.client()
        replace_body(client, "CreateTableBucket", body)
        expect_400(lambda: client.create_table_bucket(name="ignored-name"), fragment)

    # Beyond the API endpoint's body limit (1 MiB) the HTTP layer answers
    # before routing, in the same error shape.
    client = server.client()
    replace_body(client, "CreateTableBucket", b'{"name":"' + b"x" * (2 * 1024 * 1024) + b'"}')
    with pytest.raises(botocore.exceptions.ClientError) as err:
        client.create_table_bucket(name="ignored-name")
    assert error_of(err)[:2] == (413, "RequestEntityTooLargeException")

    # Nothing was created by any of the above, and the server still serves.
    assert server.alive()
    assert [b["name"] for b in s3t.list_table_buckets()["tableBuckets"]] == ["valid-bucket"]
    assert s3t.list_namespaces(tableBucketARN=bucket)["namespaces"][0]["namespace"] == ["ns"]
