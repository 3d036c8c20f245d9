"""Identity bootstrap and the /admin API through real SigV4 requests:
admin key file, users, roles, access keys, identity policies, accounts, and
who may call the admin API at all."""

import json
import re
import stat
import uuid

import pytest
from botocore.exceptions import ClientError

from harness.server import AdminError, Credentials

READ_BUCKETS = {"Version": "2012-10-17",
                "Statement": [{"Effect": "Allow", "Action": "s3tables:ListTableBuckets",
                               "Resource": "*"}]}

ISO8601 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def denied(call):
    with pytest.raises(ClientError) as info:
        call()
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    return info.value.response["Error"]


def test_admin_key_file(server):
    path = server.data_dir / "keys" / "admin.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    keys = json.loads(path.read_text())
    assert keys["access_key_id"].startswith("AKIA") and len(keys["access_key_id"]) == 20
    assert keys["secret_access_key"]
    assert keys["user_arn"] == f"arn:aws:iam::{server.account_id}:user/admin"
    assert keys["endpoints"] == {"api": server.api_url, "iceberg": server.iceberg_url,
                                 "s3": server.s3_url}
    assert f"admin credentials in {path}" in server.log_path.read_text()


def test_admin_key_survives_restart(fresh_server):
    srv = fresh_server()
    key, api = srv.access_key, srv.api_url
    srv.restart()
    assert srv.access_key == key
    assert srv.admin("GET", "/users")["users"][0]["name"] == "admin"
    keys = json.loads((srv.data_dir / "keys" / "admin.json").read_text())
    assert keys["endpoints"]["api"] == srv.api_url
    assert api  # the old endpoint was recorded too


def test_users_lifecycle(server):
    name = unique("u")
    created = server.admin("POST", "/users", {"name": name})
    assert created["arn"] == f"arn:aws:iam::{server.account_id}:user/{name}"
    assert created["type"] == "user" and created["accountId"] == server.account_id
    assert name in [u["name"] for u in server.admin("GET", "/users")["users"]]
    assert server.admin("GET", f"/users/{name}")["arn"] == created["arn"]
    with pytest.raises(AdminError) as info:
        server.admin("POST", "/users", {"name": name})
    assert info.value.status == 409 and info.value.error_type == "ConflictException"
    server.admin("DELETE", f"/users/{name}")
    with pytest.raises(AdminError) as info:
        server.admin("GET", f"/users/{name}")
    assert info.value.status == 404 and info.value.error_type == "NotFoundException"
    with pytest.raises(AdminError) as info:
        server.admin("POST", "/users", {"nom": "x"})
    assert info.value.status == 400


def test_access_keys_and_policies(server):
    name = unique("reader")
    creds = server.create_user_with_policy(name, None)
    s3t = server.boto3_client("s3tables", creds)
    error = denied(lambda: s3t.list_table_buckets())
    assert error["Code"] == "AccessDeniedException"
    assert f"user/{name}" in error["Message"] and "s3tables:ListTableBuckets" in error["Message"]

    with pytest.raises(AdminError) as info:
        server.admin("PUT", f"/users/{name}/policies/bad", {"policyDocument": '{"Statement": 5}'})
    assert info.value.status == 400 and info.value.error_type == "MalformedPolicyDocument"
    with pytest.raises(AdminError) as info:
        server.admin("PUT", f"/users/{name}/policies/bad", {"policyDocument": json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*",
                                                     "Resource": "*", "Principal": "*"}]})})
    assert info.value.error_type == "MalformedPolicyDocument"

    server.admin("PUT", f"/users/{name}/policies/read", {"policyDocument": READ_BUCKETS})
    assert server.admin("GET", f"/users/{name}/policies")["policyNames"] == ["read"]
    got = server.admin("GET", f"/users/{name}/policies/read")
    assert json.loads(got["policyDocument"]) == READ_BUCKETS
    s3t.list_table_buckets()
    # Writes stay denied.
    assert denied(lambda: s3t.create_table_bucket(name=unique("b")))["Code"] == \
        "AccessDeniedException"

    # Keys: list shows no secret; a deleted key stops authenticating.
    keys = server.admin("GET", f"/users/{name}/access-keys")["accessKeys"]
    assert [k["accessKeyId"] for k in keys] == [creds.access_key]
    assert "secretAccessKey" not in keys[0] and keys[0]["status"] == "Active"
    second = server.admin("POST", f"/users/{name}/access-keys")
    server.boto3_client("s3tables", Credentials(second["accessKeyId"],
                                                second["secretAccessKey"])).list_table_buckets()
    server.admin("DELETE", f"/users/{name}/access-keys/{creds.access_key}")
    assert denied(lambda: s3t.list_table_buckets())["Code"] == "UnrecognizedClientException"
    # A key id under another user's path is not found there.
    with pytest.raises(AdminError) as info:
        server.admin("DELETE", f"/users/admin/access-keys/{second['accessKeyId']}")
    assert info.value.status == 404

    server.admin("DELETE", f"/users/{name}/policies/read")
    s3t2 = server.boto3_client("s3tables", Credentials(second["accessKeyId"],
                                                       second["secretAccessKey"]))
    assert denied(lambda: s3t2.list_table_buckets())["Code"] == "AccessDeniedException"
    server.admin("DELETE", f"/users/{name}")
    assert denied(lambda: s3t2.list_table_buckets())["Code"] == "UnrecognizedClientException"


def test_role_keys_act_as_role_sessions(server):
    name = unique("svc")
    creds = server.create_role_with_policy(name, READ_BUCKETS)
    assert creds.arn == f"arn:aws:iam::{server.account_id}:role/{name}"
    assert name in [r["name"] for r in server.admin("GET", "/roles")["roles"]]
    s3t = server.boto3_client("s3tables", creds)
    s3t.list_table_buckets()
    error = denied(lambda: s3t.create_table_bucket(name=unique("b")))
    assert f"assumed-role/{name}/" in error["Message"]
    server.admin("DELETE", f"/roles/{name}")


def test_only_granted_principals_use_the_admin_api(server):
    plain = server.create_user_with_policy(unique("plain"), READ_BUCKETS)
    with pytest.raises(AdminError) as info:
        server.admin("POST", "/users", {"name": "mallory"}, creds=plain)
    assert info.value.status == 403 and info.value.error_type == "AccessDeniedException"
    assert "iam:CreateUser" in info.value.body
    iam_admin = server.create_user_with_policy(unique("iamadmin"), {
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "iam:*", "Resource": "*"}]})
    created = server.admin("POST", "/users", {"name": unique("made")}, creds=iam_admin)
    server.admin("DELETE", f"/users/{created['name']}", creds=iam_admin)


def test_accounts_and_cross_account_identities(server):
    other = server.create_account()
    with pytest.raises(AdminError) as info:
        server.admin("POST", "/accounts", {"accountId": other})
    assert info.value.status == 409
    with pytest.raises(AdminError) as info:
        server.admin("POST", "/accounts", {"accountId": "12ab"})
    assert info.value.status == 400
    got = server.admin("GET", f"/accounts/{other}")
    assert got["accountId"] == other and ISO8601.fullmatch(got["createdAt"])
    assert (got["userCount"], got["roleCount"], got["tableBucketCount"]) == (0, 0, 0)
    with pytest.raises(AdminError) as info:
        server.admin("GET", "/accounts/999999999999")
    assert info.value.status == 404

    # An identity administrator of another account cannot administer identities:
    # the admin API belongs to the operator account.
    boss = server.create_user_with_policy("boss", {
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]},
        account_id=other)
    assert boss.account_id == other and boss.arn == f"arn:aws:iam::{other}:user/boss"
    with pytest.raises(AdminError) as info:
        server.admin("POST", "/users", {"name": "x"}, params={"accountId": other}, creds=boss)
    assert info.value.status == 403
    # Its own data plane works within its account.
    s3t = server.boto3_client("s3tables", boss)
    arn = s3t.create_table_bucket(name=unique("other"))["arn"]
    assert f":{other}:bucket/" in arn
    assert arn not in [b["arn"] for b in server.boto3_client("s3tables").list_table_buckets()["tableBuckets"]]
    s3t.delete_table_bucket(tableBucketARN=arn)


def list_all_accounts(srv, max_results, creds=None):
    """GET /admin/accounts page after page; returns (accounts, page sizes)."""
    accounts, sizes, token = [], [], None
    while True:
        params = {"maxResults": str(max_results)}
        if token:
            params["continuationToken"] = token
        page = srv.admin("GET", "/accounts", params=params, creds=creds)
        accounts += page["accounts"]
        sizes.append(len(page["accounts"]))
        token = page.get("continuationToken")
        if not token:
            return accounts, sizes
        assert len(sizes) < 20, "the account listing does not end"


def test_list_accounts_pages_through_every_account(fresh_server):
    srv = fresh_server()
    created = [srv.create_account() for _ in range(3)]
    srv.create_user_with_policy("lister", None, account_id=created[0])
    srv.create_role_with_policy("writer", None, account_id=created[0])
    bucket = srv.boto3_client("s3tables").create_table_bucket(name=unique("acct"))["arn"]

    accounts, sizes = list_all_accounts(srv, 2)
    ids = [a["accountId"] for a in accounts]
    # Every account once (the default one too), in id order, two per page.
    assert sorted(ids) == sorted(created + [srv.account_id]) and len(set(ids)) == 4
    assert ids == sorted(ids)
    assert sizes == [2, 2]
    by_id = {a["accountId"]: a for a in accounts}
    assert all(ISO8601.fullmatch(a["createdAt"]) for a in accounts)
    assert (by_id[created[0]]["userCount"], by_id[created[0]]["roleCount"]) == (1, 1)
    assert by_id[created[1]]["userCount"] == 0 and by_id[created[1]]["tableBucketCount"] == 0
    default = by_id[srv.account_id]
    assert default["userCount"] >= 1 and default["tableBucketCount"] == 1  # admin; `bucket`
    assert srv.admin("GET", f"/accounts/{srv.account_id}") == default
    assert bucket

    single = srv.admin("GET", "/accounts")
    assert [a["accountId"] for a in single["accounts"]] == ids
    assert "continuationToken" not in single
    one, sizes = list_all_accounts(srv, 1)
    assert [a["accountId"] for a in one] == ids and sizes == [1, 1, 1, 1]


def test_list_accounts_bad_requests_are_400(server):
    for bad in ["0", "1001", "abc", "", "-1", "2x"]:
        with pytest.raises(AdminError) as info:
            server.admin("GET", "/accounts", params={"maxResults": bad})
        assert info.value.status == 400, bad
        assert info.value.error_type == "BadRequestException"
        body = json.loads(info.value.body)
        assert body["__type"] == "BadRequestException" and "maxResults" in body["message"]
    with pytest.raises(AdminError) as info:
        server.admin("GET", "/accounts", params={"continuationToken": "not-a-token"})
    assert info.value.status == 400 and info.value.error_type == "BadRequestException"
    assert server.admin("GET", "/accounts", params={"maxResults": "1000"})["accounts"]


def test_list_accounts_is_admin_only(server):
    plain = server.create_user_with_policy(unique("plain"), READ_BUCKETS)
    other = server.create_account()
    boss = server.create_user_with_policy(unique("boss"), {
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]},
        account_id=other)
    for creds in (plain, boss):
        with pytest.raises(AdminError) as info:
            server.admin("GET", "/accounts", creds=creds)
        assert info.value.status == 403 and info.value.error_type == "AccessDeniedException"
        body = json.loads(info.value.body)
        assert body["__type"] == "AccessDeniedException" and "iam:ListAccounts" in body["message"]
        assert "accounts" not in body
    ids = [a["accountId"] for a in list_all_accounts(server, 1000)[0]]
    assert server.account_id in ids and other in ids
