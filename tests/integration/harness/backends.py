"""Which stores a test server runs on (ST_IT_BACKEND).

- "local" (the default): the embedded defaults, a SQLite catalog file and
  table data in the server's data dir.
- "postgres+s3": the scale-out configuration (issue 13). Each
  StreamtablesServer gets a database of its own on one PostgreSQL cluster and
  a prefix of its own in one s3proxy bucket. Both are shared by the whole
  pytest session, started on first use, and stopped by stop_shared() at the
  session's end. A server that passes its own --catalog or --object-store
  keeps it.

test.sh runs the integration stage once per backend. The second pass runs
the tests that concern tables and channels (TESTS_ON_POSTGRES_S3 in test.sh).
A test that looks at the local data dir's files cannot run on s3proxy; it
carries @pytest.mark.local_store and the pass leaves it out.
"""

import os
import shutil
import tempfile
import uuid
from typing import Optional

BACKEND = os.environ.get("ST_IT_BACKEND", "local")
BACKENDS = ("local", "postgres+s3")

_cluster = None
_proxy = None


def _shared():
    global _cluster, _proxy
    if _cluster is None:
        from .postgres import PostgresCluster
        _cluster = PostgresCluster().start()
    if _proxy is None:
        import pathlib
        from .s3proxy import S3Proxy
        _proxy = S3Proxy(pathlib.Path(tempfile.mkdtemp(prefix="st-it-s3proxy-")),
                         heap="512m").start()
    return _cluster, _proxy


def server_stores(extra_args, env: Optional[dict]):
    """(arguments to add, env) of a new server on this session's backend."""
    if BACKEND not in BACKENDS:
        raise ValueError(f"ST_IT_BACKEND={BACKEND!r}: expected one of {BACKENDS}")
    if BACKEND == "local":
        return [], env
    cluster, proxy = _shared()
    name = uuid.uuid4().hex[:10]
    args = []
    if "--catalog" not in extra_args:
        args += ["--catalog", cluster.create_database(f"it_{name}")]
    if "--object-store" not in extra_args:
        args += ["--object-store", proxy.object_store_url(f"it-{name}")]
        env = {**(env or {}), **proxy.credentials_env()}
    return args, env


def shared_postgres():
    """The session's cluster on postgres+s3 (so a test's `postgres` fixture
    does not start a second one); None on local."""
    return _shared()[0] if BACKEND == "postgres+s3" else None


def stop_shared():
    global _cluster, _proxy
    if _proxy is not None:
        _proxy.stop()
        shutil.rmtree(_proxy.work_dir, ignore_errors=True)
        _proxy = None
    if _cluster is not None:
        _cluster.stop()
        _cluster = None


class StoredObjects:
    """The objects a server's object store holds, as stored (encrypted
    envelopes, not what a client GETs through our S3 endpoint), named by the
    s3:// URIs in table metadata: the local data dir's files on "local", the
    objects under the server's prefix in s3proxy on "postgres+s3". Lets a test
    corrupt, plant or look for objects on either backend."""

    def __init__(self, server):
        args = [*server.extra_args, *server.backend_args]
        url = args[args.index("--object-store") + 1] if "--object-store" in args else None
        self._root = None
        self._client = None
        if url is None:
            self._root = server.data_dir / "objects"
            return
        import urllib.parse
        import boto3
        import botocore.config
        parsed = urllib.parse.urlparse(url)
        query = urllib.parse.parse_qs(parsed.query)
        self._bucket = parsed.netloc
        self._prefix = parsed.path.strip("/")
        env = server.env or os.environ
        self._client = boto3.client(
            "s3", endpoint_url=query["endpoint"][0],
            region_name=query.get("region", ["us-east-1"])[0],
            aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
            config=botocore.config.Config(s3={"addressing_style": "path"}))

    def _key(self, uri: str) -> str:
        key = uri.removeprefix("s3://").strip("/")
        return f"{self._prefix}/{key}" if self._prefix else key

    def _path(self, uri: str):
        return self._root / uri.removeprefix("s3://")

    def exists(self, uri: str) -> bool:
        if self._root is not None:
            return self._path(uri).is_file()
        try:
            self._client.head_object(Bucket=self._bucket, Key=self._key(uri))
            return True
        except self._client.exceptions.ClientError as e:
            if e.response["Error"]["Code"] in ("404", "NoSuchKey", "NotFound"):
                return False
            raise

    def read(self, uri: str) -> bytes:
        if self._root is not None:
            return self._path(uri).read_bytes()
        return self._client.get_object(Bucket=self._bucket, Key=self._key(uri))["Body"].read()

    def write(self, uri: str, data: bytes) -> None:
        """Creates or replaces the stored object (bytes as given: no envelope)."""
        if self._root is not None:
            path = self._path(uri)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            return
        self._client.put_object(Bucket=self._bucket, Key=self._key(uri), Body=data)

    def every_object(self):
        """(s3:// URI, stored bytes) of every object the server's store holds."""
        if self._root is not None:
            for path in sorted(self._root.rglob("*")):
                if path.is_file():
                    yield "s3://" + str(path.relative_to(self._root)), path.read_bytes()
            return
        for uri in self.list(""):
            yield uri, self.read(uri)

    def list(self, location: str) -> list:
        """Sorted s3:// URIs of every object under a table location."""
        base = location.rstrip("/")
        if self._root is not None:
            root = self._path(base)
            if not root.exists():
                return []
            scheme_root = self._root
            return sorted("s3://" + str(p.relative_to(scheme_root)) for p in root.rglob("*")
                          if p.is_file())
        prefix = self._key(base) + "/" if base else (self._prefix + "/" if self._prefix else "")
        strip = len(self._prefix) + 1 if self._prefix else 0
        found = []
        for page in self._client.get_paginator("list_objects_v2").paginate(
                Bucket=self._bucket, Prefix=prefix):
            found += ["s3://" + item["Key"][strip:] for item in page.get("Contents", [])]
        return sorted(found)
