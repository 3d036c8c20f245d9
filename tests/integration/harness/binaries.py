"""Finding and running the binaries of our own build tree."""

import os
import pathlib
import subprocess
from typing import Optional, Sequence

from . import paths
from .process import ManagedProcess


class Binaries:
    """The executables under one build directory (ST_BUILD_DIR, default <repo>/build).

    path() finds a target by file name anywhere in the tree, so tests need not
    know which src/<module> declares it.
    """

    def __init__(self, build_dir: Optional[pathlib.Path] = None, log_dir: Optional[pathlib.Path] = None):
        self.build_dir = pathlib.Path(build_dir or paths.build_dir())
        self.log_dir = pathlib.Path(log_dir) if log_dir else self.build_dir / "test-logs"
        self.started: list[ManagedProcess] = []

    def path(self, name: str) -> pathlib.Path:
        """The executable `name`; raises FileNotFoundError naming the build command."""
        direct = self.build_dir / name
        if direct.is_file() and os.access(direct, os.X_OK):
            return direct
        for candidate in sorted(self.build_dir.rglob(name)):
            if candidate.is_file() and os.access(candidate, os.X_OK) and "CMakeFiles" not in candidate.parts:
                return candidate
        raise FileNotFoundError(
            f"no executable '{name}' under {self.build_dir}; build it with "
            f"`cmake -S {paths.REPO_ROOT} -B {self.build_dir} -G Ninja && ninja -C {self.build_dir} {name}` "
            f"or point ST_BUILD_DIR at a build that has it")

    def run(self, name: str, *args: str, timeout_s: float = 120.0, check: bool = True,
            env: Optional[dict] = None, cwd: Optional[pathlib.Path] = None,
            input: Optional[str] = None) -> subprocess.CompletedProcess:
        """Runs to completion and captures stdout/stderr as text.

        With check=True a non-zero exit raises AssertionError carrying both
        streams, so the failure explains itself in the pytest report.
        """
        argv = [str(self.path(name)), *map(str, args)]
        full_env = dict(os.environ, **(env or {}))
        result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s,
                                env=full_env, cwd=cwd, input=input)
        if check and result.returncode != 0:
            raise AssertionError(
                f"{' '.join(argv)} exited with {result.returncode}\n"
                f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}")
        return result

    def start(self, name: str, *args: str, log_name: Optional[str] = None,
              env: Optional[dict] = None, cwd: Optional[pathlib.Path] = None) -> ManagedProcess:
        """Starts a long-running binary (e.g. the server); stop_all() (run by the
        st_bin fixture's teardown) stops it if the test did not.

        Its output goes to <log_dir>/<log_name or name>.log, attached to the
        report of any test that fails while it runs.
        """
        argv: Sequence[str] = [str(self.path(name)), *map(str, args)]
        log_path = self.log_dir / f"{log_name or name}.log"
        full_env = dict(os.environ, **(env or {}))
        proc = ManagedProcess(log_name or name, argv, log_path, cwd=cwd, env=full_env).start()
        self.started.append(proc)
        return proc

    def stop_all(self) -> None:
        """Stops (SIGTERM, then SIGKILL) every process start() launched."""
        for proc in self.started:
            proc.stop()
