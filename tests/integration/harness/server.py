"""Our `streamtables server`, started for real on ephemeral ports.

StreamtablesServer starts `$ST_BUILD_DIR/src/cli/streamtables server` (or the
standalone src/server/streamtables-server) with a data dir of its own, parses
the `streamtables: listening api=... s3=... metrics=...` line (metrics on a
loopback port of its own), and reads the admin key
file the server writes (<data-dir>/keys/admin.json). Its log (stdout+stderr,
JSON lines) is kept in the test's tmp dir, and conftest attaches its tail to
any test that fails while it runs (it is a ManagedProcess in REGISTRY).

Fixtures (tests/integration/conftest.py):
  server (session)          one shared server; tests must not assume they are alone.
  fresh_server (function)   start(**kwargs) -> a server of its own, stopped after the test.

Typical use:
  s3t = server.boto3_client("s3tables")                 # admin credentials
  alice = server.create_user_with_policy("alice", {...})  # -> Credentials
  s3t_alice = server.boto3_client("s3tables", alice)
  s3 = server.boto3_client("s3", alice)                 # path-style, SigV4
"""

import dataclasses
import json
import os
import pathlib
import re
import uuid
from typing import Any, Optional, Sequence, Union

import requests

from . import backends, paths
from .process import ManagedProcess

LISTENING = re.compile(r"streamtables: listening api=(http://\S+) s3=(http://\S+) metrics=(\S+)")


@dataclasses.dataclass(frozen=True)
class Credentials:
    access_key: str
    secret_key: str
    arn: str = ""
    account_id: str = ""


class AdminError(RuntimeError):
    """The admin API refused a request; .status and .body say why."""

    def __init__(self, response: requests.Response):
        self.status = response.status_code
        self.body = response.text
        self.error_type = response.headers.get("x-amzn-ErrorType", "")
        super().__init__(f"{response.request.method} {response.url} -> {self.status} "
                         f"{self.error_type}: {self.body}")


def server_binary(build_dir: Optional[pathlib.Path] = None) -> list[str]:
    """argv prefix that runs the server: the CLI's `streamtables server` or the
    standalone binary, whichever was built last (both run the same code; taking
    the CLI whenever it existed ran stale code after `ninja streamtables-server`,
    which cost session 33 a wrong benchmark table). Raises FileNotFoundError
    naming the build command."""
    build = pathlib.Path(build_dir or paths.build_dir())
    cli = build / "src" / "cli" / "streamtables"
    standalone = build / "src" / "server" / "streamtables-server"
    built = [(path.stat().st_mtime, argv) for path, argv in
             ((cli, [str(cli), "server"]), (standalone, [str(standalone)])) if path.is_file()]
    if built:
        return max(built)[1]
    raise FileNotFoundError(f"neither {cli} nor {standalone} exists; build with "
                            f"`ninja -C {build} streamtables` or set ST_BUILD_DIR")


class StreamtablesServer:
    """One server process with its own data dir. Not thread-safe."""

    def __init__(self, work_dir: pathlib.Path, build_dir: Optional[pathlib.Path] = None,
                 name: str = "streamtables", extra_args: Sequence[str] = (),
                 account_id: Optional[str] = None, region: str = "us-east-1",
                 env: Optional[dict] = None):
        self.work_dir = pathlib.Path(work_dir)
        self.data_dir = self.work_dir / "data"
        self.build_dir = build_dir
        self.name = name
        self.extra_args = list(extra_args)
        # ST_IT_BACKEND=postgres+s3: a database and an object-store prefix of
        # this server's own (harness/backends.py), kept across restarts even
        # when a test replaces extra_args.
        self.backend_args, env = backends.server_stores(self.extra_args, env)
        self.requested_account_id = account_id
        self.region = region
        # Added to the inherited environment (e.g. the object store's AWS keys).
        self.env = {**os.environ, **env} if env else None
        self.proc: Optional[ManagedProcess] = None
        self.api_url = self.s3_url = self.metrics_url = ""
        self.account_id = self.access_key = self.secret_key = self.admin_arn = ""

    # ------------------------------------------------------------ lifecycle
    def start(self, timeout_s: float = 60.0) -> "StreamtablesServer":
        argv = [*server_binary(self.build_dir), "--data-dir", str(self.data_dir),
                "--listen", "127.0.0.1:0", "--s3-listen", "127.0.0.1:0",
                "--metrics-listen", "127.0.0.1:0", "--region", self.region,
                # The hot compaction pass would rewrite other tests' small files
                # under them; a test that wants it passes the flag (last wins).
                "--hot-compaction-interval-seconds", "0", *self.extra_args, *self.backend_args]
        if self.requested_account_id:
            argv += ["--account-id", self.requested_account_id]
        log_path = self.work_dir / f"{self.name}.log"
        start_offset = log_path.stat().st_size if log_path.exists() else 0
        self.proc = ManagedProcess(self.name, argv, log_path, env=self.env).start()
        match = []

        def listening() -> bool:
            with open(log_path, "rb") as f:
                f.seek(start_offset)
                found = LISTENING.search(f.read().decode(errors="replace"))
            if found:
                match.append(found)
            return bool(found)

        self.proc.wait_until(listening, timeout_s, "listening")
        self.api_url, self.s3_url = match[0].group(1), match[0].group(2)
        self.metrics_url = match[0].group(3)  # "off" with --metrics-listen off
        keys = json.loads((self.data_dir / "keys" / "admin.json").read_text())
        self.account_id = keys["account_id"]
        self.access_key = keys["access_key_id"]
        self.secret_key = keys["secret_access_key"]
        self.admin_arn = keys["user_arn"]
        self.region = keys["region"]
        return self

    def stop(self, timeout_s: float = 30.0) -> Optional[int]:
        """SIGTERM (graceful drain), SIGKILL after timeout_s. Returns the exit code."""
        return self.proc.stop(timeout_s) if self.proc else None

    def restart(self) -> "StreamtablesServer":
        self.stop()
        return self.start()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.running

    @property
    def log_path(self) -> pathlib.Path:
        return self.work_dir / f"{self.name}.log"

    def log_tail(self, lines: int = 80) -> str:
        return self.proc.tail(lines) if self.proc else ""

    # ------------------------------------------------------------ endpoints
    def metrics_text(self) -> str:
        """GET <metrics listener>/metrics (unsigned, as Prometheus scrapes it)."""
        assert self.metrics_url.startswith("http://"), f"metrics listener is {self.metrics_url}"
        response = requests.get(self.metrics_url + "/metrics", timeout=10)
        response.raise_for_status()
        return response.text

    @property
    def iceberg_url(self) -> str:
        return self.api_url + "/iceberg"

    @property
    def admin_credentials(self) -> Credentials:
        return Credentials(self.access_key, self.secret_key, self.admin_arn, self.account_id)

    def bucket_arn(self, name: str, account_id: Optional[str] = None) -> str:
        return f"arn:aws:s3tables:{self.region}:{account_id or self.account_id}:bucket/{name}"

    # ------------------------------------------------------------ clients
    def boto3_client(self, service: str, creds: Union[Credentials, tuple, None] = None, **kwargs):
        """A boto3 client: s3 at s3_url (path-style, s3v4), kms and glue at their
        api_url paths (/kms, /glue), every other service at api_url."""
        import boto3
        from botocore.config import Config

        c = _creds(creds) or self.admin_credentials
        if service == "s3":
            endpoint = self.s3_url
            config = Config(signature_version="s3v4", s3={"addressing_style": "path"},
                            retries={"max_attempts": 1})
        else:
            endpoint = self.api_url + {"kms": "/kms", "glue": "/glue"}.get(service, "")
            config = Config(retries={"max_attempts": 1})
        return boto3.client(service, endpoint_url=endpoint, region_name=self.region,
                            aws_access_key_id=c.access_key, aws_secret_access_key=c.secret_key,
                            config=kwargs.pop("config", config), **kwargs)

    def signed_request(self, method: str, url: str, creds: Union[Credentials, tuple, None] = None,
                       service: str = "s3tables", body: Union[bytes, str, None] = None,
                       headers: Optional[dict] = None, params: Optional[dict] = None
                       ) -> requests.Response:
        """Signs with botocore's SigV4Auth (as boto3 would) and sends with requests."""
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials as BotoCredentials

        c = _creds(creds) or self.admin_credentials
        if isinstance(body, str):
            body = body.encode()
        if params:
            url = requests.Request("GET", url, params=params).prepare().url
        request = AWSRequest(method=method, url=url, data=body or b"", headers=dict(headers or {}))
        SigV4Auth(BotoCredentials(c.access_key, c.secret_key), service, self.region).add_auth(request)
        prepared = request.prepare()
        return requests.request(method, prepared.url, headers=dict(prepared.headers),
                                data=body or None, timeout=30)

    # ------------------------------------------------------------ admin API
    def admin(self, method: str, path: str, body: Any = None,
              params: Optional[dict] = None, creds: Union[Credentials, tuple, None] = None) -> Any:
        """Calls /admin<path>; returns the parsed JSON (None when empty). Raises AdminError."""
        data = json.dumps(body) if body is not None else None
        headers = {"Content-Type": "application/json"} if data is not None else {}
        response = self.signed_request(method, self.api_url + "/admin" + path, creds=creds,
                                       body=data, headers=headers, params=params)
        if response.status_code >= 300:
            raise AdminError(response)
        return response.json() if response.content else None

    def create_account(self, account_id: Optional[str] = None) -> str:
        """Creates an account (a random 12-digit id by default); returns its id."""
        account_id = account_id or str(uuid.uuid4().int)[:12].rjust(12, "1")
        if account_id[0] == "0":
            account_id = "9" + account_id[1:]
        self.admin("POST", "/accounts", {"accountId": account_id})
        return account_id

    def create_identity_with_policy(self, kind: str, name: str, policy: Any = None,
                                    account_id: Optional[str] = None,
                                    policy_name: str = "inline") -> Credentials:
        """kind "users" or "roles": creates it, attaches `policy` (dict, JSON text or
        None for none) and returns a fresh access key."""
        params = {"accountId": account_id} if account_id else None
        identity = self.admin("POST", f"/{kind}", {"name": name}, params=params)
        if policy is not None:
            document = policy if isinstance(policy, str) else json.dumps(policy)
            self.admin("PUT", f"/{kind}/{name}/policies/{policy_name}",
                       {"policyDocument": document}, params=params)
        key = self.admin("POST", f"/{kind}/{name}/access-keys", params=params)
        return Credentials(key["accessKeyId"], key["secretAccessKey"], identity["arn"],
                           identity["accountId"])

    def create_user_with_policy(self, name: str, policy: Any = None,
                                account_id: Optional[str] = None, **kwargs) -> Credentials:
        return self.create_identity_with_policy("users", name, policy, account_id, **kwargs)

    def create_role_with_policy(self, name: str, policy: Any = None,
                                account_id: Optional[str] = None, **kwargs) -> Credentials:
        return self.create_identity_with_policy("roles", name, policy, account_id, **kwargs)

    def cli(self, *args: str, creds: Optional[Credentials] = None, check: bool = True):
        """Runs `streamtables <args> --data-dir <data>` (admin.json credentials unless
        `creds`); returns the CompletedProcess."""
        import os
        import subprocess

        binary = pathlib.Path(self.build_dir or paths.build_dir()) / "src" / "cli" / "streamtables"
        env = {k: v for k, v in os.environ.items()
               if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")}
        if creds:
            env["AWS_ACCESS_KEY_ID"], env["AWS_SECRET_ACCESS_KEY"] = creds.access_key, creds.secret_key
        result = subprocess.run([str(binary), *args, "--data-dir", str(self.data_dir)],
                                capture_output=True, text=True, timeout=60, env=env)
        if check and result.returncode != 0:
            raise AssertionError(f"streamtables {' '.join(args)} exited {result.returncode}\n"
                                 f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}")
        return result


def _creds(creds) -> Optional[Credentials]:
    if creds is None or isinstance(creds, Credentials):
        return creds
    if isinstance(creds, dict):
        return Credentials(creds["access_key"], creds["secret_key"])
    return Credentials(*creds)
