"""The Inspect task through Inspect's own CLI against the real local server, as docs/models.md's
recipe gives it: ``--model openai-api/llama/smollm2`` with ``LLAMA_BASE_URL`` / ``LLAMA_API_KEY``
(Inspect's OpenAI-compatible provider: Chat Completions, the system prompt as role ``system``),
the task by its registry name ``bangarena/bangarena`` (the package's Inspect entry point), and the
price the config gives (``-T
price_input=0 -T price_output=0``).  Kept to one call: ``--max-tokens 4`` cuts the answer, which
must be recorded as ``truncated`` (finish reason ``length``, not an invalid answer), with the
server's prompt tokens, cached tokens "not reported" (``None``, llama-cpp-python does not say)
and a cost of $0; ``max_fallbacks=1`` then ends the game as void, so the run costs one cold read
of the English system prompt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.integrations.inspect_entry import entry_point_path, installed

pytestmark = pytest.mark.real_model

ROOT = Path(__file__).resolve().parents[2]
TASK = (
    "bangarena/bangarena"  # the entry point's name (pyproject's [project.entry-points.inspect_ai])
)


def test_inspect_eval_plays_against_the_local_server(
    llama_server: str, tmp_path: Path, record_property: Any
) -> None:
    pytest.importorskip("inspect_ai")
    inspect = Path(sys.executable).parent / "inspect"
    if not inspect.exists():
        pytest.skip("Inspect's CLI is not installed (pip install -e '.[inspect]')")
    run_dir = tmp_path / "run"
    command = [
        str(inspect), "eval", TASK, "--model", "openai-api/llama/smollm2",
        "-T", "games=1", "-T", "seats=4", "-T", "answer_mode=grammar", "-T", "max_corrections=0",
        "-T", "max_fallbacks=1", "-T", "context_tokens=16384", "-T", "decision_seconds=900",
        "-T", "price_input=0", "-T", "price_output=0", "-T", f"run_dir={run_dir}",
        "--max-tokens", "4", "--log-dir", str(tmp_path / "logs"), "--display", "plain",
    ]  # fmt: skip
    path = [str(ROOT)]
    if not installed():  # metadata of an install older than the entry point: declare it here
        path.append(str(entry_point_path(tmp_path / "entry")))
    env = {**os.environ, "LLAMA_BASE_URL": llama_server, "LLAMA_API_KEY": "local",
           "PYTHONPATH": os.pathsep.join(path)}  # fmt: skip
    t0 = time.monotonic()
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=1800)  # fmt: skip
    elapsed = time.monotonic() - t0
    record_property("seconds", round(elapsed, 1))
    print(f"inspect eval: {elapsed:.0f} s, exit {done.returncode}")
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    assert "/responses" not in done.stderr and "developer" not in done.stderr

    models = []
    for path in sorted((run_dir / "games").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if isinstance(row.get("model"), dict) and row["model"].get("attempts"):
                models.append(row["model"])
    assert models, "no model decision was recorded"
    first = models[0]
    attempt = first["attempts"][0]
    assert attempt["finish_reason"] == "length", attempt
    assert first["fallback"] == "truncated", first
    assert attempt["tokens"]["cached_input"] is None  # not reported, not 0
    assert attempt["tokens"]["input"] > 3000  # the English system prompt was read
    assert first.get("cost_usd") == 0
