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
from pathlib import Path


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


@contextmanager
def llama_server(model: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """llama.cpp's OpenAI-compatible server on loopback serving `model`: (base URL, process)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1",
         "--port", str(port), "--chat_format", "chatml-function-calling", "--n_ctx", "8192"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{url}/models", timeout=1).read()
                break
            except OSError:
                assert proc.poll() is None, "llama.cpp server exited"
                assert time.monotonic() < deadline, "llama.cpp server did not start"
                time.sleep(0.5)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)


@contextmanager
def chroma_server(data: str) -> Iterator[tuple[str, int]]:
    """`chroma run` from the installed chromadb on 127.0.0.1, keeping its data in `data`."""
    import shutil

    chroma = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")
    port = free_port()
    proc = subprocess.Popen(
        [chroma, "run", "--path", data, "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert proc.poll() is None, "chroma run exited"
                assert time.monotonic() < deadline, "chroma run did not start within 60 s"
                time.sleep(0.2)
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def listening(port: int) -> set[str]:
    """Local addresses (hex, as the kernel writes them: 0100007F is 127.0.0.1) with a listening
    TCP socket on `port`, from /proc/net/tcp and tcp6."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, port_hex = fields[1].rsplit(":", 1)
            if fields[3] == "0A" and int(port_hex, 16) == port:
                found.add(address)
    return found
