"""A throwaway PostgreSQL server for the catalog-on-PostgreSQL tests.

Started by tools/postgres_test_cluster.sh (initdb into a temp dir, a free
loopback port, trust auth; run as the 'postgres' user when we are root, since
PostgreSQL refuses root). `database(name)` makes a fresh database on it and
returns its URL, so each server under test gets an empty catalog.
"""

import pathlib
import subprocess
import uuid
from typing import Optional

from harness import paths

SCRIPT = paths.REPO_ROOT / "tools" / "postgres_test_cluster.sh"


class PostgresServer:
    def __init__(self, work_dir: pathlib.Path):
        self.work_dir = pathlib.Path(work_dir)
        self.url: Optional[str] = None  # postgresql://postgres@127.0.0.1:PORT/postgres

    def start(self) -> "PostgresServer":
        out = subprocess.run([str(SCRIPT), "start", str(self.work_dir)], capture_output=True,
                             text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not start: {out.stderr.strip()}")
        self.url = out.stdout.strip().splitlines()[-1]
        return self

    def stop(self) -> None:
        subprocess.run([str(SCRIPT), "stop", str(self.work_dir)], capture_output=True,
                       timeout=120)

    def psql(self, sql: str, database: str = "postgres") -> str:
        url = self.url.rsplit("/", 1)[0] + "/" + database
        out = subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-Atc", sql],
                             capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise RuntimeError(f"psql failed: {out.stderr.strip()}")
        return out.stdout

    def database(self, prefix: str = "st") -> str:
        """A fresh, empty database; its URL."""
        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url.rsplit("/", 1)[0] + "/" + name
