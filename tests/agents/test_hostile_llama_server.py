"""The real-model tests name why a llama.cpp server is unusable (issue 11): a build for another
CPU serves ``/models`` and then dies with SIGILL on its first completion.  Here a stand-in process
does exactly that, and the checks of ``tests/real_model/conftest.py`` must say so — signal, port
and log — instead of leaving a later ``assert 0 > 0`` to explain it.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.openai_server import FakeOpenAIServer
from tests.real_model.conftest import LlamaServer, describe_exit

# An HTTP server that lists a model, then dies of an illegal instruction on the first completion.
DIES_ON_COMPLETION = textwrap.dedent(
    """
    import os, signal, sys
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class H(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            body = b'{"object": "list", "data": [{"id": "smollm2"}]}'
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            print("ggml_cpu: running the first completion", flush=True)
            os.kill(os.getpid(), signal.SIGILL)

    print("model loaded", flush=True)
    HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
    """
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    for _ in range(200):
        assert process.poll() is None, "the stand-in server exited at start"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the stand-in server never listened")


@pytest.fixture
def dying_server(tmp_path: Path) -> Iterator[LlamaServer]:
    port = _free_port()
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", DIES_ON_COMPLETION, str(port)],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_listening(port, process)
        yield LlamaServer(process, port, log_path)
    finally:
        process.kill()
        process.wait(timeout=10)


def test_exit_descriptions() -> None:
    assert describe_exit(0) == "exit code 0" and describe_exit(3) == "exit code 3"
    sigill = describe_exit(-int(signal.SIGILL))
    assert "SIGILL" in sigill and "install_llama.sh" in sigill and "another CPU" in sigill
    assert describe_exit(-int(signal.SIGKILL)) == "signal SIGKILL"


def test_probe_names_the_signal_port_and_log_of_a_server_that_died(
    dying_server: LlamaServer,
) -> None:
    assert dying_server.death() is None  # alive, and /models answered
    problem = dying_server.probe(timeout=20)
    assert problem is not None
    assert f"127.0.0.1:{dying_server.port}" in problem and "signal SIGILL" in problem
    assert "running the first completion" in problem  # the log tail
    assert problem == dying_server.death()  # the process is gone: its exit is the cause


def test_probe_passes_when_the_server_answers(tmp_path: Path) -> None:
    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with FakeOpenAIServer() as fake:
            server = LlamaServer(stand_in, fake.port, tmp_path / "none.log")
            assert server.probe(timeout=20) is None
            assert len(fake.script.model_requests) == 1
            assert fake.script.model_requests[0].body["max_tokens"] == 1
    finally:
        stand_in.kill()
        stand_in.wait(timeout=10)
    assert server.death() is not None and "signal SIGKILL" in (server.death() or "")


def test_probe_names_a_live_server_that_does_not_answer(tmp_path: Path) -> None:
    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with FakeOpenAIServer() as fake:
            fake.script.status(500, message="llama_decode failed")
            port = fake.port
            problem = LlamaServer(stand_in, port, tmp_path / "none.log").probe(timeout=20)
    finally:
        stand_in.kill()
        stand_in.wait(timeout=10)
    assert problem is not None and "is running but did not answer" in problem
    assert f"127.0.0.1:{port}" in problem and "500" in problem
