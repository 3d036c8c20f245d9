"""Two replicas behind a round-robin balancer (issue 13): a client whose
requests alternate between replicas sees one catalog. A PyIceberg append
through the balancer is read back by a load that the other replica serves,
and boto3 s3tables calls alternate too. An access key deleted through one
replica stops working on both at once: every request reads its key from the
shared catalog, with no per-process cache (docs/replicas.md).

The replicas run on one PostgreSQL database and one s3proxy bucket
(harness/replicas.py). The balancer is harness/round_robin.py, which picks
a replica per request, not per connection.
"""

import uuid

import pyarrow as pa
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError
from pyiceberg.catalog import load_catalog

from harness.replicas import ReplicaSet
from harness.round_robin import RoundRobin
from harness.s3proxy import S3Proxy

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


@pytest.fixture
def pair(tmp_path, build_dir, postgres):
    proxy = S3Proxy(tmp_path / "s3proxy").start()
    replicas = ReplicaSet(tmp_path, build_dir, postgres.create_database(
        f"rr_{uuid.uuid4().hex[:8]}"), proxy, n=2, prefix="rr")
    replicas.start_all()
    lb = RoundRobin([r.api_url for r in replicas.replicas]).start()
    yield replicas, lb
    lb.stop()
    replicas.stop_all()
    proxy.stop()


def catalog_via(base_url, replica, warehouse, creds):
    """A PyIceberg REST catalog at base_url (the balancer's or a replica's API)."""
    return load_catalog(f"rr-{uuid.uuid4().hex[:6]}", **{
        "type": "rest", "uri": base_url + "/iceberg", "warehouse": warehouse,
        "rest.sigv4-enabled": "true", "rest.signing-name": "s3tables",
        "rest.signing-region": replica.region, "client.access-key-id": creds.access_key,
        "client.secret-access-key": creds.secret_key, "client.region": replica.region})


def s3tables_via(lb, replica, creds):
    import boto3
    return boto3.client("s3tables", endpoint_url=lb.url, region_name=replica.region,
                        aws_access_key_id=creds.access_key,
                        aws_secret_access_key=creds.secret_key,
                        config=Config(retries={"max_attempts": 1}))


def test_alternating_requests_see_one_catalog(pair):
    replicas, lb = pair
    r0 = replicas[0]
    admin = r0.admin_credentials
    s3tables = s3tables_via(lb, r0, admin)
    arn = s3tables.create_table_bucket(name="rr-bucket")["arn"]
    # Each call below goes to the other replica than the one before it.
    for _ in range(4):
        assert [b["arn"] for b in s3tables.list_table_buckets()["tableBuckets"]] == [arn]

    cat = catalog_via(lb.url, r0, arn, admin)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA)
    table.append(pa.table({"id": [1, 2], "name": ["a", "b"]}, schema=SCHEMA))
    for _ in range(3):
        loaded = cat.load_table("ns.t")
        got = sorted(loaded.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
        assert got == [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
    # A second append from a fresh load, then every replica directly agrees.
    cat.load_table("ns.t").append(pa.table({"id": [3], "name": ["c"]}, schema=SCHEMA))
    locations = {catalog_via(r.api_url, r, arn, admin).load_table("ns.t").metadata_location
                 for r in replicas.replicas}
    assert len(locations) == 1, locations
    assert cat.load_table("ns.t").scan().to_arrow().num_rows == 3
    assert min(lb.counts) >= 5, lb.counts  # both replicas served a real share


def test_a_deleted_access_key_stops_working_on_every_replica_at_once(pair):
    replicas, lb = pair
    r0, r1 = replicas[0], replicas[1]
    user = r0.create_user_with_policy("reader", {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "s3tables:ListTableBuckets",
                       "Resource": "*"}]})
    for replica in (r0, r1):
        replica.boto3_client("s3tables", creds=user).list_table_buckets()
    # Revoked through replica 1; replica 0 refuses the key on its very next request.
    r1.admin("DELETE", f"/users/reader/access-keys/{user.access_key}")
    for replica in (r0, r1, r0, r1):
        with pytest.raises(ClientError) as refused:
            replica.boto3_client("s3tables", creds=user).list_table_buckets()
        assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    # Through the balancer as well (both replicas in turn).
    for _ in range(2):
        with pytest.raises(ClientError):
            s3tables_via(lb, r0, user).list_table_buckets()
