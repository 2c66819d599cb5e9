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
from typing import Any


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


def _postgres_bin(name: str) -> str:
    """initdb / pg_ctl: on PATH, else Debian's /usr/lib/postgresql/<version>/bin."""
    import glob
    import shutil

    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    assert found, f"No {name}: apt-get install postgresql (make test does)."
    return found


@contextmanager
def postgres_server(password: str = "s3cret-pw") -> Iterator[str]:
    """A PostgreSQL cluster of its own (initdb in a temp dir, pg_ctl on a free loopback port, no
    Unix socket), run as the `postgres` user when the tests run as root (PostgreSQL refuses
    root); yields its URL (user advisor, that password, database postgres) and stops it."""
    import pwd
    import shutil
    import tempfile

    user = None
    if os.geteuid() == 0:
        user = "postgres" if "postgres" in {p.pw_name for p in pwd.getpwall()} else "nobody"
    root = Path(tempfile.mkdtemp(prefix="advisor-pg-"))
    (root / "pw").write_text(password)
    if user:
        entry = pwd.getpwnam(user)
        for path in (root, root / "pw"):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    port = free_port()
    data, log = root / "data", root / "server.log"

    def run(*args: str) -> None:
        subprocess.run(args, check=True, user=user, cwd=root, capture_output=True, timeout=120)

    try:
        run(_postgres_bin("initdb"), "-D", str(data), "-U", "advisor", "--auth=scram-sha-256",
            f"--pwfile={root / 'pw'}", "-E", "UTF8", "--no-sync")  # fmt: skip
        run(_postgres_bin("pg_ctl"), "start", "-w", "-t", "60", "-D", str(data), "-l", str(log),
            "-o", f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories='' "
            "-c fsync=off")  # fmt: skip
        yield f"postgresql://advisor:{password}@127.0.0.1:{port}/postgres"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([_postgres_bin("pg_ctl"), "stop", "-D", str(data), "-m", "fast", "-w"],
                           user=user, cwd=root, capture_output=True, timeout=60)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def stalling_llm_server() -> Iterator[tuple[str, Any]]:
    """An OpenAI-compatible endpoint that never answers in time: every chat completion request
    sets `arrived` and then waits (at most 60 s) for `release`. For killing a worker mid-answer.
    Yields (base URL, a namespace with the two threading.Events)."""
    import threading
    import types
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    events = types.SimpleNamespace(arrived=threading.Event(), release=threading.Event())

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            events.arrived.set()
            events.release.wait(60)
            self.send_error(503)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", events
    finally:
        events.release.set()
        server.shutdown()
        server.server_close()
