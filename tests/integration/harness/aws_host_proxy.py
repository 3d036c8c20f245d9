"""A forward proxy that sends AWS's S3 Tables host names to our server.

Some clients cannot be pointed at another endpoint: DuckDB's
`ATTACH '<bucket ARN>' (TYPE iceberg, ENDPOINT_TYPE s3_tables)` always calls
https://s3tables.<region>.amazonaws.com/iceberg (it overwrites any ENDPOINT
option) and reads the data files from https://<bucket>.s3.<region>.amazonaws.com.
Such a client can still be routed through an HTTP proxy (`SET http_proxy`),
which is what this does, as DNS would for AWS itself:

- `CONNECT s3tables.<region>.amazonaws.com:443` → our API port, whose Iceberg
  REST catalog sits at the same path (/iceberg) as AWS's;
- `CONNECT <bucket>.s3.<region>.amazonaws.com:443` → our S3 port, which serves
  a warehouse bucket (`…--table-s3`) virtual-hosted under any host suffix;
- TLS ends here with a throwaway self-signed certificate for those names
  (clients that verify are given `ca_cert_file`); the decrypted bytes go
  through unchanged, so SigV4 verifies as the client signed it;
- plain-HTTP requests (absolute-form, as clients send them to a proxy) to
  127.0.0.1 are relayed unchanged (our server accepts absolute-form);
- anything else gets 403, so nothing leaves the machine.

It records every CONNECT target and every plain-HTTP authority, so a test can
show which way each request went. Test tooling only: not part of the product.
"""

import pathlib
import socket
import ssl
import subprocess
import threading


def _self_signed_cert(directory: pathlib.Path, hosts: list[str]) -> tuple[pathlib.Path, pathlib.Path]:
    cert, key = directory / "proxy-cert.pem", directory / "proxy-key.pem"
    names = ",".join(f"DNS:{h}" for h in hosts)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", f"/CN={hosts[0]}", "-addext", f"subjectAltName={names}",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def _read_head(sock: socket.socket) -> bytes:
    """The request head (through the blank line) plus whatever followed it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
        if len(data) > 1 << 20:
            raise ValueError("request head over 1 MiB")
    return data


def _pipe(source, sink) -> None:
    try:
        while True:
            chunk = source.recv(1 << 20)
            if not chunk:
                break
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        for s in (sink, source):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _host_port(authority: str, default_port: int) -> tuple[str, int]:
    host, _, port = authority.rpartition(":")
    if not host or not port.isdigit():
        return authority, default_port
    return host, int(port)


class AcceptLoop:
    """A listener on 127.0.0.1 (a free port) that hands every connection to
    `serve` on a daemon thread of its own, until close()."""

    def __init__(self, serve):
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._serve = serve
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()


class AwsHostProxy:
    """Routes AWS's S3 Tables and S3 host names of `region` to `api_url` and
    `s3_url` (both http://host:port)."""

    def __init__(self, api_url: str, s3_url: str, region: str, work_dir: pathlib.Path):
        self.aws_host = f"s3tables.{region}.amazonaws.com"
        self.s3_suffix = f".s3.{region}.amazonaws.com"
        self.api = _host_port(api_url.removeprefix("http://"), 80)
        self.s3 = _host_port(s3_url.removeprefix("http://"), 80)
        cert, key = _self_signed_cert(
            work_dir, [self.aws_host, "*" + self.s3_suffix, self.s3_suffix[1:]])
        # Clients that verify certificates trust this one file (DuckDB: SET
        # ca_cert_file); it is valid for the one AWS host name only.
        self.ca_cert_file = str(cert)
        self._tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self._tls.load_cert_chain(cert, key)
        self.connect_targets: list[str] = []
        self.plain_authorities: list[str] = []
        self.refused: list[str] = []
        self._lock = threading.Lock()
        self._loop = AcceptLoop(self._serve)
        self.address = f"127.0.0.1:{self._loop.port}"

    def close(self) -> None:
        self._loop.close()

    def _serve(self, client: socket.socket) -> None:
        try:
            head = _read_head(client)
            request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
            method, _, rest = request_line.partition(" ")
            target = rest.rpartition(" ")[0]
            if method == "CONNECT":
                self._tunnel(client, target)
            elif target.startswith("http://"):
                self._relay_plain(client, target, head)
            else:
                client.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                client.close()
        except (OSError, ValueError, ssl.SSLError):
            client.close()

    def _tunnel(self, client: socket.socket, target: str) -> None:
        with self._lock:
            self.connect_targets.append(target)
        host, port = _host_port(target, 443)
        if port == 443 and host == self.aws_host:
            destination = self.api
        elif port == 443 and (host.endswith(self.s3_suffix) or host == self.s3_suffix[1:]):
            destination = self.s3
        else:
            with self._lock:
                self.refused.append(target)
            client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            client.close()
            return
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        tls = self._tls.wrap_socket(client, server_side=True)
        upstream = socket.create_connection(destination)
        threading.Thread(target=_pipe, args=(upstream, tls), daemon=True).start()
        _pipe(tls, upstream)

    def _relay_plain(self, client: socket.socket, target: str, head: bytes) -> None:
        authority = target.removeprefix("http://").split("/", 1)[0].split("?", 1)[0]
        host, port = _host_port(authority, 80)
        with self._lock:
            self.plain_authorities.append(authority)
        if host not in ("127.0.0.1", "localhost"):
            with self._lock:
                self.refused.append(authority)
            client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            client.close()
            return
        # Our server accepts absolute-form targets (RFC 9112 §3.2.2), so the
        # bytes go through unchanged, this request and any that follow.
        upstream = socket.create_connection((host, port))
        upstream.sendall(head)
        threading.Thread(target=_pipe, args=(upstream, client), daemon=True).start()
        _pipe(client, upstream)


def start(server, work_dir: pathlib.Path) -> AwsHostProxy:
    """A proxy for a harness StreamtablesServer's two endpoints."""
    return AwsHostProxy(server.api_url, server.s3_url, server.region, work_dir)

