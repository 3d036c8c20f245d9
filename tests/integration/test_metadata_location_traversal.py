"""A client-named location must stay inside the table (issue 9, item 6).

UpdateTableMetadataLocation used to check the location with a string prefix,
so `s3://<own>/../<other>/metadata/x.metadata.json` passed and GetTable then
handed that path to every reader. Through boto3 s3tables: each traversal or
encoded form is refused with 400 BadRequestException and both GetTable and
GetTableMetadataLocation still return the old location and version token.
Location table properties (write.data.path, write.metadata.path) get the same
check on S3 Tables CreateTable and on an Iceberg REST commit.
"""

import json
import uuid
from urllib.parse import quote

import botocore.exceptions
import pytest

from iceberg_rest_clients import iceberg_request


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


SCHEMA = {"iceberg": {"schema": {"fields": [{"name": "id", "type": "long", "required": True}]}}}


@pytest.fixture(scope="module")
def tables(server):
    s3t = server.boto3_client("s3tables")
    own = s3t.create_table_bucket(name=unique("own"))["arn"]
    other = s3t.create_table_bucket(name=unique("victim"))["arn"]
    for bucket in (own, other):
        s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
        s3t.create_table(tableBucketARN=bucket, namespace="ns", name="t", format="ICEBERG",
                         metadata=SCHEMA)
    return s3t, own, other


def traversals(own_wh: str, other_wh: str):
    other_bucket = other_wh.removeprefix("s3://")
    return [
        f"{own_wh}/../{other_bucket}/metadata/00001-x.metadata.json",
        f"{own_wh}/metadata/../../{other_bucket}/metadata/00001-x.metadata.json",
        f"{own_wh}/%2e%2e/{other_bucket}/metadata/00001-x.metadata.json",
        f"{own_wh}/%2E%2E/{other_bucket}/metadata/00001-x.metadata.json",
        f"{own_wh}/..%2F{other_bucket}/metadata/00001-x.metadata.json",
        f"{own_wh}/%252e%252e/{other_bucket}/metadata/00001-x.metadata.json",
        f"{own_wh}/..\\{other_bucket}\\metadata\\00001-x.metadata.json",
        f"{own_wh}//{other_bucket}/metadata/00001-x.metadata.json",
        f"{own_wh}/./metadata/00001-x.metadata.json",
        f"{own_wh}-x/metadata/00001-x.metadata.json",
    ]


def test_traversal_metadata_locations_are_400_and_nothing_changes(tables):
    s3t, own, other = tables
    before = s3t.get_table(tableBucketARN=own, namespace="ns", name="t")
    before_loc = s3t.get_table_metadata_location(tableBucketARN=own, namespace="ns", name="t")
    other_wh = s3t.get_table(tableBucketARN=other, namespace="ns", name="t")["warehouseLocation"]
    for location in traversals(before["warehouseLocation"], other_wh):
        with pytest.raises(botocore.exceptions.ClientError) as info:
            s3t.update_table_metadata_location(
                tableBucketARN=own, namespace="ns", name="t",
                versionToken=before["versionToken"], metadataLocation=location)
        response = info.value.response
        assert response["ResponseMetadata"]["HTTPStatusCode"] == 400, location
        assert response["Error"]["Code"] == "BadRequestException", location
        assert "is not valid" in response["Error"]["Message"], response["Error"]["Message"]

    after = s3t.get_table(tableBucketARN=own, namespace="ns", name="t")
    after_loc = s3t.get_table_metadata_location(tableBucketARN=own, namespace="ns", name="t")
    assert after["metadataLocation"] == before["metadataLocation"]
    assert after["versionToken"] == before["versionToken"]
    assert after_loc["metadataLocation"] == before_loc["metadataLocation"]
    assert after_loc["versionToken"] == before_loc["versionToken"]

    # A plain location under the table still swaps (on a table of its own:
    # the file is not written, so the shared table must keep its real one).
    swap = s3t.create_table(tableBucketARN=own, namespace="ns", name=f"swap_{uuid.uuid4().hex[:8]}",
                            format="ICEBERG", metadata=SCHEMA)
    got = s3t.get_table(tableArn=swap["tableARN"])
    plain = got["warehouseLocation"] + "/metadata/00001-client.metadata.json"
    updated = s3t.update_table_metadata_location(
        tableBucketARN=own, namespace="ns", name=got["name"], versionToken=got["versionToken"],
        metadataLocation=plain)
    assert updated["metadataLocation"] == plain


def test_create_table_with_a_location_property_outside_the_table_is_400(server, tables):
    s3t, own, other = tables
    other_wh = s3t.get_table(tableBucketARN=other, namespace="ns", name="t")["warehouseLocation"]
    for name, value in [("write.data.path", f"s3://x/../{other_wh.removeprefix('s3://')}/data"),
                        ("write.metadata.path", other_wh + "/metadata")]:
        metadata = json.loads(json.dumps(SCHEMA))
        metadata["iceberg"]["properties"] = {name: value}
        table = f"prop_{uuid.uuid4().hex[:8]}"
        r = server.signed_request(
            "PUT", f"{server.api_url}/tables/{quote(own, safe='')}/ns",
            body=json.dumps({"name": table, "format": "ICEBERG", "metadata": metadata}),
            headers={"Content-Type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json()["__type"] == "BadRequestException"
        assert f"table property {name}" in r.json()["message"], r.text
        names = [t["name"] for t in s3t.list_tables(tableBucketARN=own)["tables"]]
        assert table not in names


def test_iceberg_rest_commit_setting_a_location_property_outside_the_table_is_400(server, tables):
    s3t, own, other = tables
    own_table = s3t.get_table(tableBucketARN=own, namespace="ns", name="t")
    other_wh = s3t.get_table(tableBucketARN=other, namespace="ns", name="t")["warehouseLocation"]
    before = iceberg_request(server, "GET", "namespaces/ns/tables/t", own).json()
    escape = own_table["warehouseLocation"] + "/../" + other_wh.removeprefix("s3://") + "/data"
    body = {"requirements": [], "updates": [
        {"action": "set-properties", "updates": {"write.data.path": escape}}]}
    r = iceberg_request(server, "POST", "namespaces/ns/tables/t", own, body=json.dumps(body))
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["type"] == "BadRequestException"
    assert "table property write.data.path" in error["message"], error["message"]
    after = iceberg_request(server, "GET", "namespaces/ns/tables/t", own).json()
    assert after["metadata-location"] == before["metadata-location"]
    assert "write.data.path" not in after["metadata"].get("properties", {})
