"""The policy matrix (policy_matrix.json) as real requests: every case marked
live runs through boto3's s3tables client against a server whose identities
were created through the admin API, with the case's identity policies
attached, and its bucket/table policies put through the control plane.

All cases (live or not) also run as unit tests of the authorizer + evaluator:
tests/unit/server/policy_matrix_test.cc.
"""

import json
import pathlib

import pytest
from botocore.exceptions import ClientError

MATRIX = json.loads((pathlib.Path(__file__).parent / "policy_matrix.json").read_text())
SUBST = MATRIX["bucket_name_substitution"]
LIVE = [c for c in MATRIX["cases"] if c["live"]]


def substitute(text: str) -> str:
    for old, new in SUBST.items():
        text = text.replace(old, new)
    return text


def policy_text(name: str) -> str:
    return substitute(json.dumps(MATRIX["policies"][name]))


class World:
    """The matrix's accounts, identities, buckets, namespaces and tables on one server."""

    def __init__(self, server):
        self.server = server
        self.admin = server.boto3_client("s3tables")
        owner = MATRIX["accounts"]["owner"]
        assert server.account_id == owner
        for account in MATRIX["accounts"].values():
            if account != owner:
                server.create_account(account)
        self.bucket_arns = {}
        for key, name in MATRIX["buckets"].items():
            self.bucket_arns[key] = self.admin.create_table_bucket(name=substitute(name))["arn"]
        self.tables = {}
        for key, spec in MATRIX["tables"].items():
            arn = self.bucket_arns[spec["bucket"]]
            try:
                self.admin.create_namespace(tableBucketARN=arn, namespace=[spec["namespace"]])
            except ClientError as e:
                assert e.response["Error"]["Code"] == "ConflictException"
            self.admin.create_table(tableBucketARN=arn, namespace=spec["namespace"],
                                    name=spec["name"], format="ICEBERG")
            self.tables[key] = {"tableBucketARN": arn, "namespace": spec["namespace"],
                                "name": spec["name"]}
        self.creds = {}
        self.identities = {}
        for key, spec in MATRIX["principals"].items():
            if spec["type"] == "anonymous":
                continue
            kind = "roles" if spec["type"] == "role" else "users"
            name = spec.get("name", key)
            account = spec["account"]
            self.creds[key] = server.create_identity_with_policy(
                kind, name, None, account_id=None if account == owner else account)
            self.identities[key] = (kind, name, None if account == owner else account)

    def apply(self, case):
        srv = self.server
        for kind, name, account in self.identities.values():
            params = {"accountId": account} if account else None
            for policy in srv.admin("GET", f"/{kind}/{name}/policies", params=params)["policyNames"]:
                srv.admin("DELETE", f"/{kind}/{name}/policies/{policy}", params=params)
        for arn in self.bucket_arns.values():
            self.admin.delete_table_bucket_policy(tableBucketARN=arn)
        for table in self.tables.values():
            try:
                self.admin.delete_table_policy(**table)
            except ClientError as e:
                assert e.response["Error"]["Code"] == "NotFoundException", e
        kind, name, account = self.identities[case["principal"]]
        params = {"accountId": account} if account else None
        for i, policy in enumerate(case["identity"]):
            srv.admin("PUT", f"/{kind}/{name}/policies/p{i}",
                      {"policyDocument": policy_text(policy)}, params=params)
        resource = case["resource"]
        if case["bucket_policy"]:
            bucket = (MATRIX["tables"][resource]["bucket"] if resource in MATRIX["tables"]
                      else resource if resource in self.bucket_arns else "bucket")
            self.admin.put_table_bucket_policy(tableBucketARN=self.bucket_arns[bucket],
                                               resourcePolicy=policy_text(case["bucket_policy"]))
        if case["table_policy"]:
            table = self.tables[case.get("table_policy_table", resource)]
            self.admin.put_table_policy(**table, resourcePolicy=policy_text(case["table_policy"]))

    def call(self, case):
        client = self.server.boto3_client("s3tables", self.creds[case["principal"]])
        action = case["action"].split(":", 1)[1]
        resource = case["resource"]
        table = self.tables.get(resource)
        bucket = self.bucket_arns.get(resource)
        calls = {
            "GetTable": lambda: client.get_table(**table),
            "GetTableMetadataLocation": lambda: client.get_table_metadata_location(**table),
            "GetTablePolicy": lambda: client.get_table_policy(**table),
            "GetTableBucket": lambda: client.get_table_bucket(tableBucketARN=bucket),
            "GetTableBucketPolicy": lambda: client.get_table_bucket_policy(tableBucketARN=bucket),
            "ListNamespaces": lambda: client.list_namespaces(tableBucketARN=bucket),
            "ListTables": lambda: client.list_tables(tableBucketARN=bucket),
            "ListTableBuckets": lambda: client.list_table_buckets(),
        }
        return calls[action]()


@pytest.fixture(scope="module")
def world(tmp_path_factory, build_dir):
    from harness.server import StreamtablesServer

    server = StreamtablesServer(tmp_path_factory.mktemp("policy-matrix"), build_dir,
                                name="server-policy-matrix",
                                account_id=MATRIX["accounts"]["owner"])
    server.start()
    yield World(server)
    server.stop()


def test_matrix_shape():
    assert len(MATRIX["cases"]) >= 40
    assert len(LIVE) * 3 >= len(MATRIX["cases"])
    names = [c["name"] for c in MATRIX["cases"]]
    assert len(names) == len(set(names))
    sample = MATRIX["policies"]["product_sample"]["Statement"][0]
    assert sample["Action"] == ["s3tables:GetTable", "s3tables:GetTableData",
                                "s3tables:GetTableMetadataLocation"]


@pytest.mark.parametrize("case", LIVE, ids=[c["name"] for c in LIVE])
def test_live_case(world, case):
    world.apply(case)
    try:
        world.call(case)
        outcome = "Allow"
    except ClientError as e:
        error = e.response["Error"]
        status = e.response["ResponseMetadata"]["HTTPStatusCode"]
        if status == 403:
            assert error["Code"] == "AccessDeniedException", e.response
            assert case["action"] in error["Message"]
            outcome = "Deny"
        else:
            # Authorized, then refused for another reason (e.g. no policy to get).
            outcome = "Allow"
    assert outcome == case["expected"], case
