"""A child process whose output goes to a log file that outlives it.

Every ManagedProcess registers itself in REGISTRY, so the pytest hook in
conftest.py can attach the log tail of each process that was alive during a
failed test, and the session summary can list where the logs are.
"""

import os
import pathlib
import signal
import subprocess
import time
from typing import Callable, Optional, Sequence

REGISTRY: list["ManagedProcess"] = []


class ProcessError(RuntimeError):
    """A managed process failed to start, exited early, or missed its deadline."""


class ManagedProcess:
    """One external process (Kafka broker, our server, ...).

    Not thread-safe; the tests drive it from one thread. stop() is idempotent.
    """

    def __init__(self, name: str, argv: Sequence[str], log_path: pathlib.Path,
                 cwd: Optional[pathlib.Path] = None, env: Optional[dict] = None):
        self.name = name
        self.argv = list(argv)
        self.log_path = pathlib.Path(log_path)
        self.cwd = cwd
        self.env = env
        self.proc: Optional[subprocess.Popen] = None
        self.started_at: Optional[float] = None
        self.stopped_at: Optional[float] = None
        REGISTRY.append(self)

    def start(self) -> "ManagedProcess":
        if self.running:
            raise ProcessError(f"{self.name} is already running (pid {self.proc.pid})")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        log.write(f"==== start {time.strftime('%H:%M:%S')}: {' '.join(self.argv)}\n".encode())
        log.flush()
        try:
            # Own process group, so stop() reaches any children and Ctrl-C on
            # pytest does not kill it before the fixture can collect its log.
            self.proc = subprocess.Popen(self.argv, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, cwd=self.cwd, env=self.env,
                                         start_new_session=True)
        finally:
            log.close()
        self.started_at = time.time()
        self.stopped_at = None
        return self

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> Optional[int]:
        return self.proc.pid if self.proc else None

    @property
    def returncode(self) -> Optional[int]:
        return self.proc.poll() if self.proc else None

    def wait_until(self, ready: Callable[[], bool], timeout_s: float, what: str,
                   poll_s: float = 0.2) -> None:
        """Polls `ready` until it returns True.

        Raises ProcessError with the log tail if the process exits first or the
        deadline passes. Exceptions from `ready` count as "not yet".
        """
        deadline = time.monotonic() + timeout_s
        last_error = None
        while time.monotonic() < deadline:
            if not self.running:
                raise ProcessError(
                    f"{self.name} exited with code {self.returncode} before {what}; "
                    f"log {self.log_path}:\n{self.tail()}")
            try:
                if ready():
                    return
            except Exception as e:  # noqa: BLE001 - any failure means "not ready yet"
                last_error = e
            time.sleep(poll_s)
        raise ProcessError(
            f"{self.name} not {what} after {timeout_s:.0f}s (last error: {last_error}); "
            f"log {self.log_path}:\n{self.tail()}")

    def stop(self, timeout_s: float = 15.0) -> Optional[int]:
        """SIGTERM, then SIGKILL after timeout_s. Returns the exit code."""
        return self._signal(signal.SIGTERM, timeout_s)

    def kill(self) -> Optional[int]:
        """SIGKILL at once: a crash, for recovery tests."""
        return self._signal(signal.SIGKILL, 10.0)

    def pause(self) -> None:
        """SIGSTOP to the process group: frozen, sockets open, no timers run."""
        os.killpg(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after pause()."""
        os.killpg(self.proc.pid, signal.SIGCONT)

    def _signal(self, sig: int, timeout_s: float) -> Optional[int]:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait(timeout=10)
        if self.stopped_at is None:
            self.stopped_at = time.time()
        return self.proc.returncode

    def alive_between(self, start: float, end: float) -> bool:
        """Whether the process ran at some point in [start, end] (wall clock)."""
        if self.started_at is None or self.started_at > end:
            return False
        return self.stopped_at is None or self.stopped_at >= start

    def tail(self, lines: int = 60) -> str:
        """The last `lines` lines of the log, or a note if there is none."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - 256 * 1024))
                text = f.read().decode(errors="replace")
        except OSError as e:
            return f"(no log: {e})"
        return "\n".join(text.splitlines()[-lines:])
