"""Streaming tables are read-only on the S3 Tables control plane (issue 3
item 8): a table the catalog marks managed_by_channel refuses
UpdateTableMetadataLocation, RenameTable and CreateTable over its name with
403 naming the channel, keeps its metadata location byte-for-byte, and can
still be deleted.

The streaming table is made by the test-only program
st_streaming_table_fixture (tests/unit/api/s3tables/) through the catalog
library on the data dir before the server starts.
"""

import json
import subprocess

import botocore.exceptions
import pytest

from harness import paths
from test_s3tables_api import ACCOUNT, REGION, S3TablesServer, error_of

CHANNEL = f"arn:aws:kafka:{REGION}:{ACCOUNT}:channel/clicks-to-iceberg"


def fixture_binary():
    path = paths.build_dir() / "tests" / "unit" / "api" / "s3tables" / "st_streaming_table_fixture"
    assert path.is_file(), f"{path} not built; build target st_streaming_table_fixture"
    return path


@pytest.fixture
def streaming(tmp_path):
    data_dir = tmp_path / "data"
    made = subprocess.run(
        [str(fixture_binary()), "--data-dir", str(data_dir), "--account-id", ACCOUNT,
         "--region", REGION, "--bucket", "streams", "--namespace", "kafka",
         "--table", "clicks", "--channel", CHANNEL],
        capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    created = json.loads(made.stdout)
    server = S3TablesServer(data_dir, tmp_path / "server.log", "--account-id", ACCOUNT)
    yield server, created
    server.stop()


def test_streaming_table_is_read_only(streaming):
    server, created = streaming
    s3t = server.client()
    bucket = created["bucketArn"]
    ids = {"tableBucketARN": bucket, "namespace": "kafka", "name": "clicks"}

    table = s3t.get_table(**ids)
    assert table["tableARN"] == created["tableArn"]
    assert table["managedByService"] == CHANNEL
    listed = s3t.list_tables(tableBucketARN=bucket)["tables"]
    assert listed[0]["managedByService"] == CHANNEL

    def raw_location():
        # The raw response bytes of GetTableMetadataLocation.
        captured = {}

        def keep(http_response, **_):
            captured["body"] = http_response.content
        s3t.meta.events.register("after-call.s3tables.GetTableMetadataLocation", keep)
        parsed = s3t.get_table_metadata_location(**ids)
        s3t.meta.events.unregister("after-call.s3tables.GetTableMetadataLocation", keep)
        return parsed, captured["body"]

    before, before_bytes = raw_location()
    assert before["metadataLocation"] == created["metadataLocation"]
    metadata_file = server.data_dir / "objects" / before["metadataLocation"][len("s3://"):]
    metadata_bytes = metadata_file.read_bytes()
    objects_before = sorted(p.relative_to(server.data_dir) for p in
                            (server.data_dir / "objects").rglob("*"))

    refused = [
        lambda: s3t.update_table_metadata_location(
            **ids, versionToken=before["versionToken"],
            metadataLocation=before["warehouseLocation"] + "/metadata/00001-x.metadata.json"),
        lambda: s3t.rename_table(**ids, newName="renamed"),
        lambda: s3t.rename_table(**ids, newNamespaceName="kafka", newName="clicks2",
                                 versionToken=before["versionToken"]),
        lambda: s3t.create_table(**ids, format="ICEBERG"),
        lambda: s3t.create_table(**ids, format="ICEBERG", metadata={"iceberg": {"schema": {
            "fields": [{"name": "x", "type": "int"}]}}}),
    ]
    for call in refused:
        with pytest.raises(botocore.exceptions.ClientError) as err:
            call()
        status, code, message = error_of(err)
        assert status == 403 and code in ("AccessDeniedException", "ForbiddenException"), message
        assert CHANNEL in message

    after, after_bytes = raw_location()
    assert after_bytes == before_bytes
    assert metadata_file.read_bytes() == metadata_bytes
    assert sorted(p.relative_to(server.data_dir) for p in
                  (server.data_dir / "objects").rglob("*")) == objects_before
    assert [t["name"] for t in s3t.list_tables(tableBucketARN=bucket)["tables"]] == ["clicks"]

    # Reads and non-pointer settings still work; DeleteTable is allowed.
    s3t.get_table_maintenance_configuration(**ids)
    s3t.delete_table(**ids)
    with pytest.raises(botocore.exceptions.ClientError) as gone:
        s3t.get_table(**ids)
    assert error_of(gone)[:2] == (404, "NotFoundException")
    assert not metadata_file.exists()
