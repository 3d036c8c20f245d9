"""Secrets on disk (issue 9, item 8), through the real server.

Secret access keys are sealed (AES-256-GCM) under the server master key
(<data-dir>/keys/master.key, or --master-key-file / STREAMTABLES_MASTER_KEY_FILE),
so no file under the data dir but keys/admin.json holds one; every file is
0600 and every directory 0700; a restarted server still authenticates every
key, one given another master key refuses to start, and a database written
with plaintext secrets (as before this change) is sealed in place on start.
"""

import os
import pathlib
import sqlite3
import stat
import subprocess

from harness import paths
from harness.server import Credentials, server_binary

LIST_BUCKETS = {"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Action": "s3tables:ListTableBuckets", "Resource": "*"}]}


def _files(root: pathlib.Path):
    """Every path under root (root included), links not followed."""
    yield root
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            yield pathlib.Path(dirpath) / name


def _assert_owner_only(root: pathlib.Path):
    bad = []
    for path in _files(root):
        st = os.lstat(path)
        mode = stat.S_IMODE(st.st_mode)
        if stat.S_ISDIR(st.st_mode) and mode != 0o700:
            bad.append(f"{path} dir {mode:04o}")
        elif stat.S_ISREG(st.st_mode) and mode != 0o600:
            bad.append(f"{path} file {mode:04o}")
    assert not bad, "not owner-only:\n" + "\n".join(bad)


def _assert_no_secret_on_disk(root: pathlib.Path, creds: list[Credentials], admin_secret: str):
    """No secret's bytes in any file but keys/admin.json (which holds the admin's)."""
    admin_json = root / "keys" / "admin.json"
    found = []
    scanned = set()
    for path in _files(root):
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        scanned.add(path.name)
        for c in creds:
            if c.secret_key.encode() in data:
                found.append(f"{c.access_key}'s secret in {path}")
        if path != admin_json and admin_secret.encode() in data:
            found.append(f"the admin secret in {path}")
    assert not found, "\n".join(found)
    assert "catalog.db" in scanned and "admin.json" in scanned, scanned
    assert admin_secret.encode() in admin_json.read_bytes()


def _make_identities(srv) -> list[Credentials]:
    creds = [srv.create_user_with_policy(f"user{i}", LIST_BUCKETS) for i in range(3)]
    creds.append(srv.create_role_with_policy("reader", LIST_BUCKETS))
    other = srv.create_account()
    creds.append(srv.create_user_with_policy("bob", LIST_BUCKETS, account_id=other))
    # A second key for user0, so users with several keys are covered.
    key = srv.admin("POST", "/users/user0/access-keys")
    creds.append(Credentials(key["accessKeyId"], key["secretAccessKey"]))
    return creds


def _assert_all_authenticate(srv, creds: list[Credentials]):
    for c in [*creds, srv.admin_credentials]:
        response = srv.boto3_client("s3tables", c).list_table_buckets()
        assert response["ResponseMetadata"]["HTTPStatusCode"] == 200, c.access_key


def _start_fails(srv, *extra: str, env=None) -> subprocess.CompletedProcess:
    argv = [*server_binary(paths.build_dir()), "--data-dir", str(srv.data_dir),
            "--listen", "127.0.0.1:0", "--s3-listen", "127.0.0.1:0", "--metrics-listen", "off",
            *extra]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                            env={**os.environ, **(env or {})})
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    return result


def test_secrets_are_sealed_files_owner_only_and_keys_survive_restart(fresh_server, tmp_path):
    srv = fresh_server()
    creds = _make_identities(srv)
    s3t = srv.boto3_client("s3tables")
    bucket = s3t.create_table_bucket(name="sealed-secrets")["arn"]
    s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
    s3t.create_table(tableBucketARN=bucket, namespace="ns", name="t", format="ICEBERG",
                     metadata={"iceberg": {"schema": {"fields": [
                         {"name": "id", "type": "long", "required": True}]}}})
    _assert_all_authenticate(srv, creds)

    data = srv.data_dir
    assert (data / "catalog" / "catalog.db-wal").exists()  # Checked while the WAL is live.
    assert any(p.is_file() for p in (data / "objects").rglob("*")), "no object written"
    master_key = data / "keys" / "master.key"
    assert len(master_key.read_bytes().strip()) == 64
    _assert_no_secret_on_disk(data, creds, srv.secret_key)
    _assert_owner_only(data)

    srv.restart()
    _assert_all_authenticate(srv, creds)
    srv.stop()
    _assert_no_secret_on_disk(data, creds, srv.secret_key)
    _assert_owner_only(data)

    # Another master key: a clear refusal, by flag or by environment.
    other_key = tmp_path / "other.key"
    other_key.write_text("ab" * 32 + "\n")
    other_key.chmod(0o600)
    for extra, env in ((["--master-key-file", str(other_key)], None),
                       ([], {"STREAMTABLES_MASTER_KEY_FILE": str(other_key)})):
        result = _start_fails(srv, *extra, env=env)
        assert "sealed under another master key" in result.stderr, result.stderr
        assert "streamtables: listening" not in result.stdout

    # The data dir's key file gone: refused too, and no new key left behind.
    saved = master_key.read_bytes()
    master_key.unlink()
    result = _start_fails(srv)
    assert "master.key was missing" in result.stderr, result.stderr
    assert not master_key.exists()

    # The operator's copy of the key, given by flag, opens the database.
    copy = tmp_path / "copy.key"
    copy.write_bytes(saved)
    copy.chmod(0o600)
    srv.extra_args = ["--master-key-file", str(copy)]
    srv.start()
    _assert_all_authenticate(srv, creds)


def test_plaintext_secrets_from_an_older_release_are_sealed_on_start(fresh_server):
    srv = fresh_server()
    creds = _make_identities(srv)
    srv.stop()
    # Turn the database into what an older release wrote: plaintext secrets,
    # no master key, files 0644 in 0755 folders.
    db_path = srv.data_dir / "catalog" / "catalog.db"
    db = sqlite3.connect(db_path)
    for c in [*creds, srv.admin_credentials]:
        db.execute("UPDATE access_keys SET secret = ? WHERE access_key_id = ?",
                   (c.secret_key, c.access_key))
    db.commit()
    assert db.execute("SELECT count(*) FROM access_keys WHERE typeof(secret) = 'blob'"
                      ).fetchone()[0] == 0
    db.close()
    (srv.data_dir / "keys" / "master.key").unlink()
    for path in _files(srv.data_dir):
        if path.is_dir():
            path.chmod(0o755)
        elif path.name != "admin.json":
            path.chmod(0o644)

    srv.start()
    _assert_all_authenticate(srv, creds)
    assert "data_dir_modes_tightened" in srv.log_path.read_text()
    db = sqlite3.connect(db_path)
    kinds = dict(db.execute("SELECT typeof(secret), count(*) FROM access_keys "
                            "GROUP BY typeof(secret)").fetchall())
    db.close()
    assert kinds == {"blob": len(creds) + 1}, kinds
    srv.stop()
    _assert_no_secret_on_disk(srv.data_dir, creds, srv.secret_key)
    _assert_owner_only(srv.data_dir)
