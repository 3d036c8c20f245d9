"""Free loopback ports for the processes the tests start."""

import socket


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago.

    The kernel picks from the ephemeral range, so two calls in a row differ and
    a race with another process is unlikely, though not impossible.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def free_ports(count: int) -> list[int]:
    """`count` distinct free ports (held open together while choosing)."""
    socks = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind(("127.0.0.1", 0))
            socks.append(sock)
        return [s.getsockname()[1] for s in socks]
    finally:
        for sock in socks:
            sock.close()


def wait_port_closed(port: int, timeout_s: float = 10.0) -> bool:
    """True once nothing accepts on 127.0.0.1:port (used before a restart)."""
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.2)
            if sock.connect_ex(("127.0.0.1", port)) != 0:
                return True
        time.sleep(0.1)
    return False
