"""The Inspect AI task end to end with Inspect's ``mockllm`` model (no network): samples are
games, scores hold win/role/fallbacks, metrics give win rates by role, the log reads back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from harness.engine import Game  # noqa: E402
from harness.integrations.inspect_task import bangarena  # noqa: E402

_LISTED = re.compile(r"^\d+\. `([^`]+)`", re.MULTILINE)
_USAGE = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)


def _reply(text: str) -> ModelOutput:
    out = ModelOutput.from_content("mockllm/model", text)
    out.usage = _USAGE  # set, so mockllm does not count tokens with a downloaded tokenizer
    return out


def _first_listed_option(messages: list[Any], *_: Any) -> ModelOutput:
    """A player that always answers the first listed option id, in the asked JSON format."""
    options = _LISTED.findall(messages[-1].text)
    return _reply(json.dumps({"choice": options[0], "reason": "first listed"}))


def _nonsense(*_: Any) -> ModelOutput:
    return _reply("I would rather not say.")


def _run(tmp_path: Path, outputs: Any, **task_args: Any) -> Any:
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = inspect_eval(bangarena(**task_args), model=model, log_dir=str(tmp_path), display="none")
    return log


def test_games_are_samples_scored_with_win_role_and_fallbacks(tmp_path: Path) -> None:
    log = _run(tmp_path, _first_listed_option, seats=4, games=2, seed=5)
    assert log.status == "success"
    on_disk = read_eval_log(log.location)  # the file `inspect view` opens
    assert on_disk.status == "success" and len(on_disk.samples) == 2
    for i, sample in enumerate(on_disk.samples):
        score = sample.scores["game_result"]
        seat = i % 4
        role = Game.new(4, "classic", 5 + i).seats[seat].role
        assert score.answer == role and score.metadata["seat"] == seat
        assert score.value["win"] in (0, 1) and score.value["void"] == 0
        assert score.value["fallbacks"] == 0 and score.value["decisions"] > 0
        assert score.metadata["model_calls"] > 0
        assert sample.messages[0].role == "system"  # the model seat's conversation
        assert sample.messages[-1].role == "assistant" and '"choice"' in sample.messages[-1].text
    metrics = on_disk.results.scores[0].metrics
    assert "all" in metrics and metrics["fallback_rate"].value == 0.0
    wins = [s.scores["game_result"].value["win"] for s in on_disk.samples]
    assert metrics["all"].value == pytest.approx(sum(wins) / 2)


def test_invalid_answers_are_corrected_once_then_fall_back(tmp_path: Path) -> None:
    """Strict parsing: prose is never read as a choice; after one corrective re-prompt the seat
    makes Ruling R-5's move (reason ``invalid_answer``)."""
    log = _run(tmp_path, _nonsense, seats=4, games=1, seed=2, max_fallbacks=1000)
    [sample] = read_eval_log(log.location).samples
    meta = sample.scores["game_result"].metadata
    assert meta["fallbacks"] > 0
    assert set(meta["fallback_reasons"]) == {"invalid_answer"}
    assert meta["model_calls"] == 2 * meta["fallbacks"]  # one answer + one correction each
    assert log.results.scores[0].metrics["fallback_rate"].value > 0.9


def test_a_model_that_never_answers_validly_voids_the_game(tmp_path: Path) -> None:
    log = _run(tmp_path, _nonsense, seats=4, games=1, seed=2, max_fallbacks=3)
    [sample] = read_eval_log(log.location).samples
    score = sample.scores["game_result"]
    assert score.value["void"] == 1 and score.metadata["void"]
    assert log.results.scores[0].metrics["void_games"].value == 1.0
