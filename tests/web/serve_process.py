"""``bangarena serve`` in a process of its own, watched from outside (its memory, CPU time, open
files and log through ``/proc`` and its stderr), and raw sockets and WebSocket frames to attack
it with — every address on 127.0.0.0/8 is this machine, so a test can be several clients."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import resource
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from .server import free_port

CLK_TCK = os.sysconf("SC_CLK_TCK")


class ServerProcess:
    """``with ServerProcess(tmp_path, limits={...}) as srv:`` — ``srv.port``, ``srv.pid``."""

    def __init__(
        self,
        out: Path,
        *,
        limits: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
        args: tuple[str, ...] = (),
        open_files: int | None = None,
    ) -> None:
        self.out = out
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        config = {"name": "web", "output": str(out), "limits": limits or {}, **(settings or {})}
        self.config_path = out / "serve.yaml"
        self.config_path.write_text(json.dumps(config))  # JSON is YAML
        self.log_path = out / "serve.err"
        self.args = args
        self.open_files = open_files
        self.proc: subprocess.Popen[bytes] | None = None

    def _limit_files(self) -> None:  # in the child, before exec
        if self.open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def __enter__(self) -> ServerProcess:
        cmd = [sys.executable, "-m", "harness.cli.main", "serve", "--port", str(self.port),
               "--config", str(self.config_path), *self.args]  # fmt: skip
        with self.log_path.open("wb") as err:
            self.proc = subprocess.Popen(
                cmd, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=self._limit_files
            )
        deadline = time.monotonic() + 60  # generous: a loaded machine imports slowly
        while True:
            try:
                urllib.request.urlopen(self.url + "/api/meta", timeout=2).read()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("the server stopped: " + self.log()) from None
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start: " + self.log()) from None
                time.sleep(0.2)

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def _status(self, field: str) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise KeyError(field)

    def peak_mib(self) -> float:
        """The process's peak resident memory so far (VmHWM)."""
        return self._status("VmHWM") / 1024

    def cpu_s(self) -> float:
        """CPU time the process has used (user + system)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def open_files_now(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def get(self, path: str = "/", timeout: float = 10.0) -> int:
        """The status of a GET from 127.0.0.1."""
        with urllib.request.urlopen(self.url + path, timeout=timeout) as r:
            r.read()
            return int(r.status)


def raw_socket(port: int, source: str = "127.0.0.1", timeout: float = 10.0) -> socket.socket:
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def upgrade_request(port: int, *, extra: str = "") -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://127.0.0.1:{port}\r\n{extra}\r\n"
    ).encode()


def raw_websocket(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A WebSocket opened by hand (no compression, nothing answered for us)."""
    s = raw_socket(port, source)
    s.sendall(upgrade_request(port))
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, f"closed during the handshake: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def frame(opcode: int, payload: bytes = b"", *, fin: bool = True) -> bytes:
    """One client frame (masked with a zero key: the payload goes as it is)."""
    first = (0x80 if fin else 0) | opcode
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", first, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", first, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", first, 0x80 | 127, n)
    return head + b"\0\0\0\0" + payload


def close_code(s: socket.socket, timeout: float = 30.0) -> int | None:
    """Read server frames until its close frame: its code; ``None`` when the socket ended (or was
    reset) without one.  A socket the server keeps open fails the test (timeout)."""
    s.settimeout(timeout)
    buf = b""
    try:
        while True:
            while len(buf) >= 2:
                op, n = buf[0] & 0x0F, buf[1] & 0x7F
                at = 2
                if n == 126:
                    if len(buf) < 4:
                        break
                    n, at = struct.unpack("!H", buf[2:4])[0], 4
                elif n == 127:
                    if len(buf) < 10:
                        break
                    n, at = struct.unpack("!Q", buf[2:10])[0], 10
                if len(buf) < at + n:
                    break
                if op == 0x8:
                    payload = buf[at : at + n]
                    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                buf = buf[at + n :]
            chunk = s.recv(65536)
            if not chunk:
                return None
            buf += chunk
    except ConnectionResetError:
        return None


def ended(s: socket.socket, timeout: float) -> bool:
    """Whether the server closes ``s`` within ``timeout`` (what it sends before is read and
    dropped)."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                if not s.recv(65536):
                    return True
            except TimeoutError:
                return False
    except (ConnectionResetError, BrokenPipeError):
        return True
    return False


def send_all_until_closed(s: socket.socket, data: bytes, chunk: int = 1 << 16) -> int:
    """Send ``data`` until the server stops reading (closes or resets); returns the bytes sent."""
    sent = 0
    s.settimeout(10)
    with contextlib.suppress(BrokenPipeError, ConnectionResetError, TimeoutError):
        while sent < len(data):
            sent += s.send(data[sent : sent + chunk])
    return sent
