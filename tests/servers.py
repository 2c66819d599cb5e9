"""Starting the advisor's servers for tests: free loopback ports, processes that are always
stopped, and waiting until a server answers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(url: str, timeout: float = 120.0, proc: subprocess.Popen[str] | None = None) -> None:
    """Until `url` answers at all (any HTTP status), or fail with what the process printed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(
                f"server exited {proc.returncode}: {proc.communicate()[0][-3000:]}"
            )
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer in {timeout:.0f} s")


@contextmanager
def gpu_advisor(*args: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[str]]:
    """`gpu-advisor <args>` as a child process, stopped (and reaped) on the way out."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor.cli", *args],
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
