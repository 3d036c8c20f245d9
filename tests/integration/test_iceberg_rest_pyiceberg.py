"""The Iceberg REST catalog at /iceberg through PyIceberg's RestCatalog with
SigV4 (signing name s3tables), as S3 Tables users configure it, plus raw
signed requests for the config body, bad input and error shapes.

Contract: docs/api-contract-notes.md §2 (S3 Tables flavour), §3 (REST), §6 items 4–6.
"""

import json
import threading

import pyarrow as pa
import pytest
from pyiceberg.exceptions import (CommitFailedException, ForbiddenError, NamespaceNotEmptyError,
                                  NoSuchNamespaceError, NoSuchTableError, TableAlreadyExistsError)
from pyiceberg.types import LongType, StringType

from harness.backends import StoredObjects
from iceberg_rest_clients import (fixture_tool, iceberg_request, new_bucket, pyiceberg_catalog,
                                  s3_writes_available)

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


def objects_under(server, location: str) -> list:
    """Objects the server's store holds for a table (either backend)."""
    return StoredObjects(server).list(location)


def test_config_gives_encoded_prefix_endpoints_and_s3_defaults(server):
    arn = new_bucket(server)
    r = server.signed_request("GET", server.iceberg_url + "/v1/config", params={"warehouse": arn})
    assert r.status_code == 200, r.text
    config = r.json()
    assert config["overrides"]["prefix"] == arn.replace(":", "%3A").replace("/", "%2F")
    assert config["defaults"] == {"s3.endpoint": server.s3_url, "s3.path-style-access": "true",
                                  "client.region": server.region, "s3.region": server.region}
    assert "HEAD /v1/{prefix}/namespaces/{namespace}" in config["endpoints"]
    assert "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}" in config["endpoints"]
    assert "POST /v1/{prefix}/tables/rename" in config["endpoints"]

    missing = arn.rsplit("/", 1)[0] + "/no-such-bucket-here"
    r = server.signed_request("GET", server.iceberg_url + "/v1/config", params={"warehouse": missing})
    assert r.status_code == 404
    assert r.json() == {"error": {"message": r.json()["error"]["message"],
                                  "type": "NoSuchWarehouseException", "code": 404}}
    r = server.signed_request("GET", server.iceberg_url + "/v1/config")
    assert r.status_code == 400 and r.json()["error"]["type"] == "BadRequestException"
    # Unsigned: refused by SigV4 in the Iceberg shape.
    import requests
    r = requests.get(server.iceberg_url + "/v1/config", params={"warehouse": arn}, timeout=10)
    assert r.status_code in (401, 403)
    assert set(r.json()["error"]) == {"message", "type", "code"}


def test_pyiceberg_namespaces_and_tables_lifecycle(server):
    arn = new_bucket(server)
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("sales")
    cat.create_namespace("ops")
    assert sorted(cat.list_namespaces()) == [("ops",), ("sales",)]
    assert cat.namespace_exists("sales") and not cat.namespace_exists("nope")
    assert cat.load_namespace_properties("sales") == {}
    with pytest.raises(NoSuchNamespaceError):
        cat.load_namespace_properties("nope")

    table = cat.create_table("sales.orders", schema=SCHEMA, properties={"owner": "tests"})
    assert table.location().endswith("--table-s3")
    assert table.metadata_location.startswith(table.location() + "/metadata/00000-")
    with pytest.raises(TableAlreadyExistsError):
        cat.create_table("sales.orders", schema=SCHEMA)
    assert cat.list_tables("sales") == [("sales", "orders")]
    assert cat.table_exists("sales.orders") and not cat.table_exists("sales.nope")
    with pytest.raises(NoSuchTableError):
        cat.load_table("sales.nope")
    with pytest.raises(NoSuchNamespaceError):
        cat.list_tables("nope")

    # A schema change and a property change: commits with requirements.
    with table.update_schema() as update:
        update.add_column("note", StringType())
    with table.transaction() as tx:
        tx.set_properties(k="v")
    loaded = cat.load_table("sales.orders")
    assert [f.name for f in loaded.schema().fields] == ["id", "name", "note"]
    assert loaded.properties["k"] == "v" and loaded.properties["owner"] == "tests"
    assert loaded.metadata_location.split("/")[-1].startswith("00002-")
    assert len(loaded.metadata.metadata_log) == 2
    # LoadTableResult.config carries the S3 endpoint and the caller's keys.
    assert loaded.io.properties["s3.endpoint"] == server.s3_url
    assert loaded.io.properties["s3.access-key-id"] == server.access_key
    assert loaded.scan().to_arrow().num_rows == 0

    with pytest.raises(NamespaceNotEmptyError):
        cat.drop_namespace("sales")
    cat.rename_table("sales.orders", "ops.orders_v2")
    assert not cat.table_exists("sales.orders")
    renamed = cat.load_table("ops.orders_v2")
    assert renamed.metadata.table_uuid == loaded.metadata.table_uuid
    files = objects_under(server, renamed.location())
    assert files, "the table's metadata files should exist before the drop"
    cat.drop_table("ops.orders_v2")
    assert not cat.table_exists("ops.orders_v2")
    assert objects_under(server, renamed.location()) == []  # S3 Tables always purges
    cat.drop_namespace("sales")
    cat.drop_namespace("ops")
    assert cat.list_namespaces() == []


def test_stale_requirement_is_409_and_nothing_changes(server):
    arn = new_bucket(server)
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    cat.create_table("ns.t", schema=SCHEMA)
    first = cat.load_table("ns.t")
    second = cat.load_table("ns.t")
    with first.update_schema() as update:
        update.add_column("a", LongType())
    # `second` still believes schema 0 is current: assert-current-schema-id fails.
    with pytest.raises(CommitFailedException):
        with second.update_schema() as update:
            update.add_column("b", LongType())
    after = cat.load_table("ns.t")
    assert [f.name for f in after.schema().fields] == ["id", "name", "a"]
    assert after.metadata_location == first.metadata_location


def test_bad_input_is_400_in_iceberg_shape_and_server_keeps_serving(server):
    arn = new_bucket(server)
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA)
    before = table.metadata_location

    cases = [
        ("POST", "namespaces", "{not json"),
        ("POST", "namespaces", json.dumps({"namespace": "ns2"})),
        ("POST", "namespaces", json.dumps({"namespace": ["a", "b"]})),
        ("POST", "namespaces/ns/tables", json.dumps({"name": 5, "schema": {}})),
        ("POST", "namespaces/ns/tables", json.dumps({"name": "x", "schema": {"type": "struct",
                                                                             "fields": "no"}})),
        ("POST", "namespaces/ns/tables/t", "[1,2"),
        ("POST", "namespaces/ns/tables/t",
         json.dumps({"requirements": [], "updates": [{"action": "explode-table"}]})),
        ("POST", "namespaces/ns/tables/t",
         json.dumps({"requirements": [{"type": "assert-nothing"}], "updates": []})),
        ("POST", "namespaces/ns/tables/t", json.dumps({"requirements": {}, "updates": []})),
        ("POST", "namespaces/ns/tables/t",
         json.dumps({"requirements": [], "updates": [{"action": "set-properties",
                                                      "updates": {"k": 1}}]})),
        ("POST", "namespaces/ns/tables/t",
         json.dumps({"requirements": [{"type": "assert-current-schema-id",
                                       "current-schema-id": "zero"}], "updates": []})),
        ("POST", "tables/rename", json.dumps({"source": {"namespace": ["ns"], "name": "t"}})),
        ("DELETE", "namespaces/ns/tables/t?purgeRequested=perhaps", None),
    ]
    for method, path, body in cases:
        params = None
        if "?" in path:
            path, query = path.split("?")
            params = dict([query.split("=")])
        r = iceberg_request(server, method, path, arn, body=body, params=params)
        assert r.status_code == 400, (path, body, r.status_code, r.text)
        error = r.json()["error"]
        assert error["type"] == "BadRequestException" and error["code"] == 400, r.text
        assert error["message"]

    r = iceberg_request(server, "GET", "namespaces", "arn:aws:s3tables:us-east-1:1:bucket/x")
    assert r.status_code == 400 and "table bucket ARN" in r.json()["error"]["message"]
    # Nothing changed and the server still serves.
    assert cat.load_table("ns.t").metadata_location == before
    assert cat.list_tables("ns") == [("ns", "t")]


# The fixture tool seeds the SQLite catalog and the local store directly; on
# PostgreSQL + s3proxy the same rule is shown with a real channel's table by
# test_channel_access.py::test_channel_table_is_read_only_to_everyone_else.
@pytest.mark.local_store
def test_streaming_table_refuses_every_commit_with_403_naming_the_channel(server):
    arn = new_bucket(server)
    channel = f"arn:aws:kafka:{server.region}:{server.account_id}:channel/orders-feed"
    location = fixture_tool(str(server.data_dir), "streaming-table", arn, "live", "orders", channel)
    cat = pyiceberg_catalog(server, arn)
    table = cat.load_table("live.orders")
    assert table.metadata_location == location
    assert table.scan().to_arrow().num_rows == 0

    attempts = [
        lambda: table.transaction().set_properties(k="v").commit_transaction(),
        lambda: table.update_schema().add_column("x", LongType()).commit(),
        lambda: table.update_spec().add_identity("id").commit(),
    ]
    for attempt in attempts:
        with pytest.raises(ForbiddenError, match="orders-feed"):
            attempt()
    r = iceberg_request(server, "POST", "namespaces/live/tables/orders", arn,
                        body=json.dumps({"requirements": [], "updates": []}))
    assert r.status_code == 403 and r.json()["error"]["type"] == "ForbiddenException"
    assert channel in r.json()["error"]["message"]
    with pytest.raises(ForbiddenError, match="orders-feed"):
        cat.create_table("live.orders", schema=SCHEMA)
    with pytest.raises(ForbiddenError, match="orders-feed"):
        cat.rename_table("live.orders", "live.orders2")
    assert cat.load_table("live.orders").metadata_location == location
    cat.drop_table("live.orders")  # DeleteTable stays allowed
    assert not cat.table_exists("live.orders")


def test_policy_limits_what_pyiceberg_may_do(server):
    arn = new_bucket(server)
    admin = pyiceberg_catalog(server, arn)
    admin.create_namespace("ns")
    admin.create_table("ns.t", schema=SCHEMA)
    reader = server.create_user_with_policy(f"reader-{arn[-12:]}", {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow",
                       "Action": ["s3tables:GetTableBucket", "s3tables:ListNamespaces",
                                  "s3tables:ListTables", "s3tables:GetTable",
                                  "s3tables:GetTableMetadataLocation", "s3tables:GetTableData"],
                       "Resource": [arn, arn + "/table/*"]}]})
    cat = pyiceberg_catalog(server, arn, creds=reader, name="reader")
    assert cat.list_tables("ns") == [("ns", "t")]
    table = cat.load_table("ns.t")
    assert table.io.properties["s3.access-key-id"] == reader.access_key
    with pytest.raises(ForbiddenError):
        cat.create_namespace("other")
    with pytest.raises(ForbiddenError):
        table.transaction().set_properties(k="v").commit_transaction()
    with pytest.raises(ForbiddenError):
        cat.drop_table("ns.t")
    assert admin.table_exists("ns.t")


# ---------------------------------------------------------------- appends (S3 data endpoint)
def rows(first: int, count: int, tag: str) -> pa.Table:
    return pa.Table.from_pylist([{"id": i, "name": f"{tag}-{i}"}
                                 for i in range(first, first + count)], schema=SCHEMA)


@pytest.fixture
def writable(server):
    # A failure, not a skip: PutObject on table buckets is part of the product.
    assert s3_writes_available(server), "the S3 endpoint refuses PutObject on a table bucket"
    return server


def test_pyiceberg_append_then_load_and_scan(writable):
    server = writable
    arn = new_bucket(server)
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.events", schema=SCHEMA)
    table.append(rows(0, 3, "a"))
    table.append(rows(3, 2, "b"))
    loaded = cat.load_table("ns.events")
    assert len(loaded.metadata.snapshots) == 2
    got = sorted(loaded.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert got == rows(0, 3, "a").to_pylist() + rows(3, 2, "b").to_pylist()
    assert loaded.scan(row_filter="id >= 3").to_arrow().num_rows == 2


def test_concurrent_pyiceberg_appends_lose_no_update(writable):
    server = writable
    arn = new_bucket(server)
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    cat.create_table("ns.t", schema=SCHEMA)
    conflicts = []
    errors = []
    start = threading.Barrier(2)

    def writer(tag: str, first: int):
        own = pyiceberg_catalog(server, arn, name=f"writer-{tag}")
        try:
            start.wait()
            for batch in range(4):
                while True:
                    table = own.load_table("ns.t")
                    try:
                        table.append(rows(first + batch * 10, 10, tag))
                        break
                    except CommitFailedException:
                        conflicts.append(tag)  # the loser refreshes and retries
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(t, f)) for t, f in (("x", 0), ("y", 1000))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    table = cat.load_table("ns.t")
    got = table.scan().to_arrow().to_pylist()
    assert len(got) == 80
    assert sorted(r["id"] for r in got) == sorted(
        [i for i in range(0, 40)] + [i for i in range(1000, 1040)])
    assert len(table.metadata.snapshots) == 8


def test_pyiceberg_staged_create_transaction(server):
    arn = new_bucket(server)
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    tx = cat.create_table_transaction("ns.staged", schema=SCHEMA, properties={"p": "1"})
    assert not cat.table_exists("ns.staged")  # staged: nothing an engine can load yet
    tx.set_properties(q="2")
    table = tx.commit_transaction()
    assert cat.table_exists("ns.staged")
    loaded = cat.load_table("ns.staged")
    assert loaded.metadata.table_uuid == table.metadata.table_uuid
    assert loaded.properties["p"] == "1" and loaded.properties["q"] == "2"
    assert loaded.metadata_location.split("/")[-1].startswith("00000-")
