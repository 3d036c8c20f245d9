"""The server binary on its own: startup line, health, error shapes, body
limit, keep-alive, graceful shutdown and the metrics listener. Nothing here
needs Kafka or engines.

The binary is $ST_BUILD_DIR/src/server/streamtables-server (ST_BUILD_DIR
defaults to <repo>/build).
"""

import os
import pathlib
import re
import signal
import socket
import subprocess
import threading
import time

import pytest
import requests

from harness import paths

LISTENING = re.compile(r"streamtables: listening api=(http://\S+) s3=(http://\S+) metrics=(\S+)")


def server_binary() -> pathlib.Path:
    path = paths.build_dir() / "src" / "server" / "streamtables-server"
    if not path.is_file():
        pytest.fail(f"{path} is missing; build it with "
                    f"`ninja -C {paths.build_dir()} streamtables-server` or set ST_BUILD_DIR")
    return path


class RunningServer:
    def __init__(self, data_dir: pathlib.Path, log_path: pathlib.Path, *extra: str,
                 default_metrics: bool = False):
        self.log_path = log_path
        self.stderr = open(log_path, "wb")
        # An ephemeral metrics port unless the test wants the default one.
        metrics = [] if default_metrics else ["--metrics-listen", "127.0.0.1:0"]
        self.proc = subprocess.Popen(
            [str(server_binary()), "--data-dir", str(data_dir), "--listen", "127.0.0.1:0",
             "--s3-listen", "127.0.0.1:0", *metrics, *extra],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        line = self._read_listening_line(timeout_s=30)
        match = LISTENING.search(line)
        assert match, f"unexpected startup line {line!r}; log: {self.log()}"
        self.api, self.s3, self.metrics = match.group(1), match.group(2), match.group(3)

    def _read_listening_line(self, timeout_s: float) -> str:
        result = []
        reader = threading.Thread(target=lambda: result.append(self.proc.stdout.readline()),
                                  daemon=True)
        reader.start()
        reader.join(timeout_s)
        if not result or not result[0]:
            self.proc.kill()
            pytest.fail(f"server printed no listening line within {timeout_s}s; log: {self.log()}")
        return result[0]

    def log(self) -> str:
        self.stderr.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def stop(self, sig=signal.SIGTERM, timeout_s: float = 30) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        code = self.proc.wait(timeout=timeout_s)
        self.stderr.close()
        return code


@pytest.fixture
def server(tmp_path):
    srv = RunningServer(tmp_path / "data", tmp_path / "server.log")
    yield srv
    if srv.proc.poll() is None:
        srv.proc.kill()
        srv.proc.wait()


def test_health_and_data_dir_layout(server, tmp_path):
    r = requests.get(server.api + "/health", timeout=10)
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}
    assert r.headers["x-amzn-RequestId"] == r.headers["x-amz-request-id"]
    data = tmp_path / "data"
    assert re.fullmatch(r"[0-9]{12}", (data / "account-id").read_text().strip())
    for sub in ("catalog", "objects", "keys"):
        assert (data / sub).is_dir()
    assert (data / "keys").stat().st_mode & 0o077 == 0


def test_account_id_persists_across_restarts(tmp_path):
    first = RunningServer(tmp_path / "data", tmp_path / "a.log")
    assert first.stop() == 0
    stored = (tmp_path / "data" / "account-id").read_text().strip()
    second = RunningServer(tmp_path / "data", tmp_path / "b.log", "--account-id", stored)
    assert second.stop() == 0
    other = "1" + "0" * 11 if stored != "1" + "0" * 11 else "2" + "0" * 11
    bad = subprocess.run([str(server_binary()), "--data-dir", str(tmp_path / "data"),
                          "--listen", "127.0.0.1:0", "--s3-listen", "127.0.0.1:0",
                          "--metrics-listen", "off", "--account-id", other], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1
    assert "belongs to account " + stored in bad.stderr


def test_unknown_routes_use_each_surface_error_shape(server):
    r = requests.get(server.api + "/no-such-operation/x", timeout=10)
    assert r.status_code == 404
    assert r.headers["x-amzn-ErrorType"] == "NotFoundException"
    assert r.json()["__type"] == "NotFoundException"
    assert "/no-such-operation/x" in r.json()["message"]

    r = requests.get(server.api + "/iceberg/v2/config", timeout=10)
    assert r.status_code == 404
    error = r.json()["error"]
    assert error["code"] == 404 and error["type"] and error["message"]

    r = requests.post(server.api + "/health", timeout=10)
    assert r.status_code == 405
    assert r.headers["Allow"] == "GET"

    # Unsigned S3 request: refused (or not found) in the S3 XML shape.
    r = requests.get(server.s3 + "/bucket/some/key.parquet", timeout=10)
    assert r.status_code in (403, 404)
    assert r.headers["Content-Type"] == "application/xml"
    assert "<Error><Code>" in r.text
    assert f"<RequestId>{r.headers['x-amz-request-id']}</RequestId>" in r.text
    r = requests.head(server.s3 + "/bucket/some/key.parquet", timeout=10)
    assert r.status_code in (403, 404) and r.content == b""


def test_iceberg_config_needs_a_signature(server, tmp_path):
    account = (tmp_path / "data" / "account-id").read_text().strip()
    warehouse = f"arn:aws:s3tables:us-east-1:{account}:bucket/bucket1"
    r = requests.get(server.api + "/iceberg/v1/config", params={"warehouse": warehouse},
                     timeout=10)
    assert r.status_code == 403
    assert r.json()["error"]["code"] == 403


def test_body_over_limit_is_413_in_surface_shape(server):
    body = b"x" * (2 * 1024 * 1024)
    r = requests.put(server.api + "/buckets", data=body,
                     headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 413
    assert r.headers["x-amzn-ErrorType"] == "RequestEntityTooLargeException"
    r = requests.post(server.api + "/iceberg/v1/namespaces", data=body, timeout=30)
    assert r.status_code == 413
    assert r.json()["error"]["code"] == 413
    # The server is still healthy afterwards.
    assert requests.get(server.api + "/health", timeout=10).status_code == 200


def test_keep_alive_reuses_one_connection(server):
    with requests.Session() as session:
        ports = set()
        for _ in range(20):
            r = session.get(server.api + "/health", timeout=10, stream=True)
            ports.add(r.raw._connection.sock.getsockname()[1])
            r.content  # noqa: B018 (read the body so the connection returns to the pool)
            assert r.status_code == 200
        assert len(ports) == 1


def test_sigterm_drains_in_flight_request(tmp_path):
    # A slow client: the server is mid-request (reading the body) when SIGTERM
    # arrives, and must still answer it before exiting 0.
    srv = RunningServer(tmp_path / "data", tmp_path / "server.log")
    import socket
    host, port = srv.api.removeprefix("http://").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
    time.sleep(0.3)
    srv.proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    assert srv.proc.poll() is None, "server exited with a request in flight"
    sock.sendall(b"cd")
    response = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        response += chunk
    assert response.startswith(b"HTTP/1.1 200"), response
    assert b"Connection: close" in response
    assert srv.stop() == 0
    # After shutdown nothing listens any more.
    with pytest.raises(requests.ConnectionError):
        requests.get(srv.api + "/health", timeout=5)


def _raw_request(api: str, target: str) -> tuple[int, bytes]:
    """Sends `GET <target>` as raw bytes (no client rewrites the target);
    returns the status and body."""
    import socket
    host, port = api.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Connection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


def test_absolute_form_targets_are_served_and_other_forms_refused(server):
    # What a client behind a forward proxy sends (RFC 9112 §3.2.2).
    status, body = _raw_request(server.api, f"{server.api}/health")
    assert status == 200, body
    for bad in ("ftp://127.0.0.1/health", "*", "127.0.0.1:443", "http://user@h/health"):
        status, body = _raw_request(server.api, bad)
        assert status == 400, (bad, body)
        assert b"send a path starting with '/'" in body, (bad, body)
    # The server is still healthy afterwards.
    assert requests.get(server.api + "/health", timeout=10).status_code == 200


# ---------------------------------------------------------------- /metrics
# It names accounts and channel ARNs: served on a listener of its own
# (loopback by default), no longer on the API port.

def test_metrics_are_served_only_on_their_own_listener(server, tmp_path):
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", server.metrics), server.metrics
    assert server.metrics not in (server.api, server.s3)
    r = requests.get(server.metrics + "/metrics", timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    assert "# TYPE streamtables_delivery_rows_total counter" in r.text
    assert "# TYPE streamtables_delivery_data_freshness_seconds gauge" in r.text
    # Nothing else lives on the metrics listener.
    r = requests.get(server.metrics + "/health", timeout=10)
    assert r.status_code == 404

    # Unsigned GET /metrics on the API port: refused in the S3 Tables shape
    # (404: the route is gone; 403 where unsigned requests are refused first).
    r = requests.get(server.api + "/metrics", timeout=10)
    assert r.status_code in (403, 404), r.text
    assert r.json()["__type"] in ("NotFoundException", "ForbiddenException",
                                  "AccessDeniedException"), r.text
    assert "streamtables_delivery" not in r.text
    # Signed by the admin it is not there either.
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    import json
    keys = json.loads((tmp_path / "data" / "keys" / "admin.json").read_text())
    request = AWSRequest(method="GET", url=server.api + "/metrics", data=b"")
    SigV4Auth(Credentials(keys["access_key_id"], keys["secret_access_key"]), "s3tables",
              keys["region"]).add_auth(request)
    prepared = request.prepare()
    r = requests.get(prepared.url, headers=dict(prepared.headers), timeout=10)
    assert r.status_code == 404, r.text
    assert r.json()["__type"] == "NotFoundException"


def test_metrics_listener_binds_loopback_by_default(tmp_path):
    probe = socket.socket()
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # As the server binds.
    try:
        probe.bind(("127.0.0.1", 9464))
    except OSError as e:
        pytest.fail(f"127.0.0.1:9464 is taken on this machine ({e}); the default port "
                    "cannot be tested here: free it")
    finally:
        probe.close()
    srv = RunningServer(tmp_path / "data", tmp_path / "server.log", default_metrics=True)
    try:
        assert srv.metrics == "http://127.0.0.1:9464", srv.metrics
        r = requests.get(srv.metrics + "/metrics", timeout=10)
        assert r.status_code == 200
        # Bound to 127.0.0.1 alone, not to every interface: /proc/net/tcp lists
        # the listening socket (state 0A) with local address 0100007F:24F8.
        listening = [line.split()[1] for line in
                     pathlib.Path("/proc/net/tcp").read_text().splitlines()[1:]
                     if line.split()[3] == "0A" and line.split()[1].endswith(":24F8")]
        assert listening == ["0100007F:24F8"], listening
    finally:
        assert srv.stop() == 0


def test_metrics_listener_can_be_turned_off(tmp_path):
    srv = RunningServer(tmp_path / "data", tmp_path / "server.log", "--metrics-listen", "off",
                        default_metrics=True)
    try:
        assert srv.metrics == "off"
        assert requests.get(srv.api + "/health", timeout=10).status_code == 200
    finally:
        assert srv.stop() == 0
