"""Helpers shared by the test_iceberg_rest_*.py files: table buckets, the
PyIceberg RestCatalog with SigV4 as S3 Tables users configure it
(docs/api-contract-notes.md §2.2), and the seeding tool for streaming tables.
"""

import pathlib
import subprocess
import uuid

import requests

from harness import paths

FIXTURE_TOOL = pathlib.Path("tests/unit/api/iceberg_rest/st_iceberg_rest_fixture")


def fixture_tool(*args: str) -> str:
    """Runs st_iceberg_rest_fixture (catalog library, same SQLite file); returns stdout."""
    tool = paths.build_dir() / FIXTURE_TOOL
    result = subprocess.run([str(tool), *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"{tool} {args}: {result.stderr}"
    return result.stdout.strip()


def new_bucket(server, prefix: str = "icerest") -> str:
    """A fresh table bucket; returns its ARN. Uses the control plane (boto3
    s3tables) when it is mounted, else seeds the catalog directly."""
    name = f"{prefix}-{uuid.uuid4().hex[:12]}"
    probe = server.signed_request("GET", server.api_url + "/buckets", params={"maxBuckets": "1"})
    if probe.status_code == 200:
        return server.boto3_client("s3tables").create_table_bucket(name=name)["arn"]
    return fixture_tool(str(server.data_dir), "bucket", server.account_id, server.region, name)


def s3_writes_available(server) -> bool:
    """Whether the S3 data endpoint accepts PutObject yet (another surface)."""
    r = server.signed_request("PUT", server.s3_url + "/probe-bucket--table-s3/probe", service="s3",
                              body=b"x", headers={"x-amz-content-sha256": "UNSIGNED-PAYLOAD"})
    # An empty S3 route table answers every request with 404 NoSuchKey.
    return not (r.status_code == 404 and b"NoSuchKey" in r.content)


def catalog_properties(server, warehouse: str, creds=None) -> dict:
    creds = creds or server.admin_credentials
    return {
        "type": "rest",
        "uri": server.iceberg_url,
        "warehouse": warehouse,
        "rest.sigv4-enabled": "true",
        "rest.signing-name": "s3tables",
        "rest.signing-region": server.region,
        "client.access-key-id": creds.access_key,
        "client.secret-access-key": creds.secret_key,
        "client.region": server.region,
    }


def pyiceberg_catalog(server, warehouse: str, creds=None, name: str = "st"):
    from pyiceberg.catalog import load_catalog

    return load_catalog(name, **catalog_properties(server, warehouse, creds))


def iceberg_request(server, method: str, path: str, warehouse: str, body=None, creds=None,
                    params=None) -> requests.Response:
    """A SigV4-signed request to /iceberg/v1/<prefix>/<path> (prefix = encoded ARN)."""
    from urllib.parse import quote

    url = f"{server.iceberg_url}/v1/{quote(warehouse, safe='')}/{path}"
    headers = {"Content-Type": "application/json"} if body is not None else {}
    return server.signed_request(method, url, creds=creds, body=body, headers=headers,
                                 params=params)
