"""A round-robin HTTP load balancer in front of replicas (issue 13).

Each request, not each connection, goes to the next backend in turn. The
request is forwarded unchanged, Host header and body included, so SigV4
signatures made for the balancer's address verify on every replica. The
response is returned whole. It is a test tool and has no streaming and no
retries: a backend that is down fails the request with a 502.

    lb = RoundRobin([r0.api_url, r1.api_url]).start()
    ... clients use lb.url ...
    lb.counts  -> requests per backend
    lb.stop()
"""

import http.client
import http.server
import threading
import urllib.parse

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-authorization", "proxy-authenticate"}


class RoundRobin:
    def __init__(self, backends: list[str]):
        self.backends = [urllib.parse.urlsplit(b) for b in backends]
        self.counts = [0] * len(backends)
        self._next = 0
        self._lock = threading.Lock()
        self._server = None
        self._thread = None

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def _pick(self) -> int:
        with self._lock:
            i = self._next
            self._next = (self._next + 1) % len(self.backends)
            self.counts[i] += 1
            return i

    def start(self) -> "RoundRobin":
        balancer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                target = balancer.backends[balancer._pick()]
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                try:
                    conn = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
                    conn.request(self.command, self.path, body=body, headers=headers)
                    reply = conn.getresponse()
                    data = reply.read()
                    status, reply_headers = reply.status, reply.getheaders()
                    conn.close()
                except OSError as e:
                    status, reply_headers, data = 502, [], str(e).encode()
                self.send_response_only(status)
                for k, v in reply_headers:
                    if k.lower() not in HOP_BY_HOP and k.lower() != "content-length":
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = do_PATCH = _forward

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
