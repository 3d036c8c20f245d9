"""Bad maintenance input gets the AWS error shape (boto3 sees
BadRequestException / NotFoundException with HTTP 400 / 404), and nothing is
stored; the run-now admin route refuses unknown jobs and tables the same way."""

import json
from urllib.parse import quote

import botocore.exceptions
import pytest

from iceberg_rest_clients import new_bucket, pyiceberg_catalog
from test_maintenance_snapshots import SCHEMA


@pytest.fixture(scope="module")
def table(server):
    arn = new_bucket(server, prefix="maintbad")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    cat.create_table("ns.t", schema=SCHEMA)
    s3t = server.boto3_client("s3tables")
    table_arn = s3t.get_table(tableBucketARN=arn, namespace="ns", name="t")["tableARN"]
    return arn, table_arn


def bad_request(call, **kwargs):
    with pytest.raises(botocore.exceptions.ClientError) as raised:
        call(**kwargs)
    error = raised.value.response
    assert error["ResponseMetadata"]["HTTPStatusCode"] == 400, error
    assert error["Error"]["Code"] == "BadRequestException", error
    return error["Error"]["Message"]


def raw_put(server, path: str, value: dict):
    """A signed PUT of {"value": value}: boto3 checks minimums itself, the server must too."""
    r = server.signed_request("PUT", server.api_url + path, body=json.dumps({"value": value}),
                              headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.headers["x-amzn-ErrorType"].startswith("BadRequestException"), r.headers
    return r.json()["message"]


@pytest.mark.parametrize("type_, settings, member", [
    ("icebergCompaction", {"targetFileSizeMB": 1024}, "targetFileSizeMB"),
    ("icebergCompaction", {"targetFileSizeMB": 63}, "targetFileSizeMB"),
    ("icebergCompaction", {"strategy": "zorder-ish"}, "strategy"),
])
def test_table_maintenance_out_of_range_is_400(server, table, type_, settings, member):
    arn, _ = table
    s3t = server.boto3_client("s3tables")
    message = bad_request(s3t.put_table_maintenance_configuration, tableBucketARN=arn,
                          namespace="ns", name="t", type=type_,
                          value={"status": "enabled", "settings": {type_: settings}})
    assert member in message
    stored = s3t.get_table_maintenance_configuration(tableBucketARN=arn, namespace="ns", name="t")
    assert stored["configuration"][type_]["settings"][type_] != settings


@pytest.mark.parametrize("settings", [{"minSnapshotsToKeep": 0}, {"maxSnapshotAgeHours": 0}])
def test_snapshot_management_zero_is_400(server, table, settings):
    arn, _ = table
    type_ = "icebergSnapshotManagement"
    message = raw_put(server, f"/tables/{quote(arn, safe='')}/ns/t/maintenance/{type_}",
                      {"status": "enabled", "settings": {type_: settings}})
    assert next(iter(settings)) in message


@pytest.mark.parametrize("settings", [{"unreferencedDays": 0}, {"nonCurrentDays": 0}])
def test_bucket_maintenance_days_zero_is_400(server, table, settings):
    arn, _ = table
    type_ = "icebergUnreferencedFileRemoval"
    message = raw_put(server, f"/buckets/{quote(arn, safe='')}/maintenance/{type_}",
                      {"status": "enabled", "settings": {type_: settings}})
    assert next(iter(settings)) in message


def test_record_expiration_days_zero_is_400(server, table):
    _, table_arn = table
    r = server.signed_request("PUT", server.api_url + "/table-record-expiration",
                              params={"tableArn": table_arn},
                              body='{"value":{"status":"enabled","settings":{"days":0}}}',
                              headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.headers["x-amzn-ErrorType"].startswith("BadRequestException"), r.headers


def test_run_now_refuses_unknown_jobs_and_tables(server, table):
    _, table_arn = table
    r = server.signed_request("POST", server.api_url + "/admin/maintenance/run",
                              params={"tableArn": table_arn, "job": "vacuum"})
    assert r.status_code == 400 and "vacuum" in r.text, r.text
    missing = table_arn.rsplit("/", 1)[0] + "/00000000-0000-0000-0000-000000000000"
    r = server.signed_request("POST", server.api_url + "/admin/maintenance/run",
                              params={"tableArn": missing, "job": "icebergSnapshotManagement"})
    assert r.status_code == 404, r.text
    r = server.signed_request("POST", server.api_url + "/admin/maintenance/run",
                              params={"tableArn": table_arn, "job": "icebergCompaction"})
    # Compaction runs (an empty table has nothing to rewrite).
    assert r.status_code == 200 and "Successful" in r.text, r.text
