"""N `streamtables server` replicas on one PostgreSQL catalog and one
S3-compatible object store (issue 13).

What replicas must share besides `--catalog` and `--object-store`: the account
id (`--account-id`, the admin identity's account) and the key files under
<data-dir>/keys/ (master.key seals the catalog's secrets, so the admin access
key the first replica bootstrapped is readable by the others; kms-master.key
wraps KMS key material; sse-s3.key encrypts every object). The first replica
makes them; ReplicaSet copies them into the others' data dirs before they
start. Each replica keeps its own data dir (replica-id, logs) and gets
`--replica-id <name>`.

Typical use (see test_replica_spread.py):
  replicas = ReplicaSet(tmp_path, build_dir, postgres.create_database("c"), s3proxy, n=3)
  replicas.start_all()
  replicas[2].proc.kill(); replicas[2].start()
  replicas.stop_all()
"""

import pathlib
import shutil
from typing import Optional, Sequence

from .server import StreamtablesServer

SHARED_KEY_FILES = ("master.key", "kms-master.key", "sse-s3.key")
ACCOUNT_ID = "424242424242"


class ReplicaSet:
    """Replicas r0..r{n-1} sharing one catalog, one object store, one account."""

    def __init__(self, work_dir: pathlib.Path, build_dir: Optional[pathlib.Path], catalog_url: str,
                 s3proxy, n: int = 3, prefix: str = "tables", extra_args: Sequence[str] = ()):
        self.work_dir = pathlib.Path(work_dir)
        self.replicas = []
        for i in range(n):
            args = ["--catalog", catalog_url, "--object-store", s3proxy.object_store_url(prefix),
                    "--replica-id", f"r{i}", *extra_args]
            self.replicas.append(StreamtablesServer(
                self.work_dir / f"r{i}", build_dir, name=f"replica-r{i}", extra_args=args,
                account_id=ACCOUNT_ID, env=s3proxy.credentials_env()))

    def __getitem__(self, i: int) -> StreamtablesServer:
        return self.replicas[i]

    def __len__(self) -> int:
        return len(self.replicas)

    def start_all(self) -> "ReplicaSet":
        first = self.replicas[0].start()
        keys = first.data_dir / "keys"
        for replica in self.replicas[1:]:
            (replica.data_dir / "keys").mkdir(parents=True, exist_ok=True, mode=0o700)
            for name in SHARED_KEY_FILES:
                target = replica.data_dir / "keys" / name
                shutil.copyfile(keys / name, target)
                target.chmod(0o600)
            replica.start()
        assert len({r.access_key for r in self.replicas}) == 1, "replicas disagree on the admin"
        return self

    def stop_all(self) -> None:
        for replica in self.replicas:
            replica.stop()

    def log_lines(self, i: int, event: str) -> int:
        """How many log lines of replica i (over all its runs) carry `"event":"<event>"`."""
        path = self.replicas[i].log_path
        if not path.exists():
            return 0
        needle = f'"event":"{event}"'
        return sum(1 for line in path.read_text(errors="replace").splitlines() if needle in line)
