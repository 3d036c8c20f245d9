"""TLS in front of a plain TCP service, for tests of our https clients.

Clients connect with TLS to `port` on 127.0.0.1 and are given the bytes of
the service behind it (`target`, "host:port") unchanged; the certificate is
a throwaway self-signed one for `hosts` (DNS names only, so a client that
connects to the address 127.0.0.1 sees a name mismatch). `ca_cert_file` is
what a client trusts to verify it. Handshakes the client refused are counted
(`refused_handshakes`), so a test can show that the refusal happened in TLS.
Test tooling only: not part of the product.
"""

import pathlib
import socket
import ssl
import threading

from harness.aws_host_proxy import AcceptLoop, _pipe, _self_signed_cert


class TlsTerminator:
    def __init__(self, target: str, work_dir: pathlib.Path, hosts=("localhost",)):
        host, _, port = target.rpartition(":")
        self.target = (host, int(port))
        cert, key = _self_signed_cert(work_dir, list(hosts))
        self.ca_cert_file = str(cert)
        self._tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self._tls.load_cert_chain(cert, key)
        self.refused_handshakes = 0
        self.served = 0
        self._lock = threading.Lock()
        self._loop = AcceptLoop(self._serve)
        self.port = self._loop.port

    def close(self) -> None:
        self._loop.close()

    def _serve(self, client: socket.socket) -> None:
        try:
            secure = self._tls.wrap_socket(client, server_side=True)
        except (ssl.SSLError, OSError):
            with self._lock:
                self.refused_handshakes += 1
            client.close()
            return
        try:
            upstream = socket.create_connection(self.target, timeout=10)
            upstream.settimeout(None)
        except OSError:
            secure.close()
            return
        with self._lock:
            self.served += 1
        threading.Thread(target=_pipe, args=(upstream, secure), daemon=True).start()
        _pipe(secure, upstream)
