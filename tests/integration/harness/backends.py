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
