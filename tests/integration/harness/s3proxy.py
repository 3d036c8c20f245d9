"""s3proxy: a real S3-compatible server (filesystem-nio2 backend) for the
object store tests.

Runs `java -jar s3proxy-4.1.0-jar-with-dependencies.jar --properties ...` from
the jar tools/install.sh put in .cache/jars/s3proxy/, on a free 127.0.0.1
port, with its buckets in a temp directory, and SigV4 (or V2) auth under one
fixed identity.
"""

import pathlib
from typing import Optional

import boto3
import botocore.config

from . import paths
from .ports import free_port, wait_port_closed
from .process import ManagedProcess

ACCESS_KEY = "s3proxy-test-access"
SECRET_KEY = "s3proxy-test-secret-0123456789abcdef"
REGION = "us-east-1"


class S3Proxy:
    """One s3proxy process, its data directory and a bucket created at start."""

    def __init__(self, work_dir: pathlib.Path, bucket: str = "st-data", heap: str = "256m"):
        self.work_dir = pathlib.Path(work_dir)
        self.data_dir = self.work_dir / "data"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.bucket = bucket
        self.port = free_port()
        props = {
            "s3proxy.endpoint": f"http://127.0.0.1:{self.port}",
            "s3proxy.authorization": "aws-v2-or-v4",
            "s3proxy.identity": ACCESS_KEY,
            "s3proxy.credential": SECRET_KEY,
            "jclouds.provider": "filesystem-nio2",
            "jclouds.filesystem.basedir": str(self.data_dir),
        }
        self.config_path = self.work_dir / "s3proxy.properties"
        self.config_path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
        jars = sorted(paths.jar_dir("s3proxy").glob("s3proxy-*.jar"))
        self.process = ManagedProcess(
            "s3proxy",
            [paths.java_bin(), f"-Xmx{heap}", "-Djava.awt.headless=true", "-jar", str(jars[-1]),
             "--properties", str(self.config_path)],
            self.work_dir / "s3proxy.log", cwd=self.work_dir)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self):
        """A boto3 S3 client talking to s3proxy directly (not through our server)."""
        return boto3.client(
            "s3", endpoint_url=self.endpoint, region_name=REGION,
            aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
            config=botocore.config.Config(s3={"addressing_style": "path"},
                                          retries={"max_attempts": 2}))

    def object_store_url(self, prefix: str = "tables") -> str:
        """The value of `streamtables server --object-store` for this bucket."""
        return f"s3://{self.bucket}/{prefix}?endpoint={self.endpoint}&region={REGION}"

    def credentials_env(self) -> dict:
        return {"AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}

    def _ready(self) -> bool:
        try:
            self.client().list_buckets()
            return True
        except Exception:  # noqa: BLE001 - not listening yet
            return False

    def start(self, timeout_s: float = 60.0) -> "S3Proxy":
        self.process.start()
        self.process.wait_until(self._ready, timeout_s, "answering ListBuckets")
        existing = [b["Name"] for b in self.client().list_buckets().get("Buckets", [])]
        if self.bucket not in existing:
            self.client().create_bucket(Bucket=self.bucket)
        return self

    def stop(self) -> Optional[int]:
        code = self.process.stop()
        wait_port_closed(self.port)
        return code

    def keys(self, prefix: str = "") -> list[str]:
        """Every key in the bucket under `prefix`, listed from s3proxy itself."""
        out = []
        for page in self.client().get_paginator("list_objects_v2").paginate(
                Bucket=self.bucket, Prefix=prefix):
            out.extend(obj["Key"] for obj in page.get("Contents", []))
        return out
