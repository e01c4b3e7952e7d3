"""``quiz run`` checks a LiteLLM model string's key before anything is asked or written, with the
league preflight's own check (:func:`harness.play.model_checks.check_key`): one line naming the
variable to set, exit 2, no quiz folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli.main import main
from tests.quiz.fake_models import write_config

pytest.importorskip("litellm")


def test_a_litellm_model_without_its_key_stops_the_quiz_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    player = {"name": "haiku", "kind": "model",
              "model": {"provider": "litellm", "model": "anthropic/claude-3-haiku-20240307"}}  # fmt: skip
    cfg = write_config(tmp_path / "q.yaml", [player])
    assert main(["quiz", "run", str(cfg), "--no-progress", "--limit", "3"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "bangarena: error: preflight: player haiku (litellm model "
        "'anthropic/claude-3-haiku-20240307' at the provider's default URL): no API key: "
        "set the environment variable ANTHROPIC_API_KEY\n"
    )
    assert captured.out == ""
    assert not (tmp_path / "results").exists()
