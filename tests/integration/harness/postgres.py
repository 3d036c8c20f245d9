"""A throwaway PostgreSQL 15 cluster (tools/pg_cluster.sh: initdb into a temp
dir, a free loopback port, trust auth, run as the `postgres` OS user when we
are root) for the PostgreSQL catalog backend.

    cluster = PostgresCluster().start()
    url = cluster.create_database("t1")   # postgresql://postgres@127.0.0.1:PORT/t1
    cluster.stop()

No PostgreSQL installed is an error, never a skip (tools/install.sh installs it).
"""

import shutil
import subprocess
import tempfile

from harness import paths

SCRIPT = paths.REPO_ROOT / "tools" / "pg_cluster.sh"
PSQL = "/usr/lib/postgresql/15/bin/psql"


class PostgresCluster:
    def __init__(self):
        # Directly under /tmp: the `postgres` user must reach it, and pytest's
        # tmp dirs sit below root-only parents.
        self.work_dir = tempfile.mkdtemp(prefix="st-pg-", dir="/tmp")
        self.url = None

    def start(self) -> "PostgresCluster":
        result = subprocess.run([str(SCRIPT), "start", str(self.work_dir)], capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, f"PostgreSQL did not start:\n{result.stderr}"
        self.url = result.stdout.strip()
        return self

    def psql(self, sql: str, url: str = None) -> str:
        """Runs `sql` on the database at `url` (default: the cluster's own)."""
        result = subprocess.run([PSQL, url or self.url, "-v", "ON_ERROR_STOP=1", "-Atc", sql],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"psql {sql!r} failed:\n{result.stderr}"
        return result.stdout

    def create_database(self, name: str) -> str:
        """A new, empty database; returns its URL."""
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def stop_server(self):
        """Stops the server, keeping its data (resume_server starts it again)."""
        result = subprocess.run([str(SCRIPT), "stop", str(self.work_dir)], capture_output=True,
                                text=True, timeout=60)
        assert result.returncode == 0, f"PostgreSQL did not stop:\n{result.stderr}"

    def resume_server(self):
        """Starts the stopped server again, on the same port and data."""
        result = subprocess.run([str(SCRIPT), "resume", str(self.work_dir)],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"PostgreSQL did not start again:\n{result.stderr}"

    def stop(self):
        if self.url is not None:
            subprocess.run([str(SCRIPT), "stop", str(self.work_dir)], capture_output=True,
                           timeout=60)
            self.url = None
        shutil.rmtree(self.work_dir, ignore_errors=True)
