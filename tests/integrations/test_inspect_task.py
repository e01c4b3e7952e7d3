"""The Inspect AI task end to end with Inspect's ``mockllm`` model (no network): samples are
games, scores hold win/role/fallbacks, metrics give win rates by role and the rates of
``league report`` over the same decisions (flagged past ``max_fallback_rate``), every answer mode
reaches the model, the log reads back."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from harness.engine import Game  # noqa: E402
from harness.integrations.inspect_task import bangarena  # noqa: E402
from harness.league.model_calls import count_model_calls  # noqa: E402
from harness.runs.flags import check_run  # noqa: E402
from harness.runs.stats import load_run, rates  # noqa: E402

_LISTED = re.compile(r"^\d+\. `([^`]+)`", re.MULTILINE)
_USAGE = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)


def _reply(text: str) -> ModelOutput:
    out = ModelOutput.from_content("mockllm/model", text)
    out.usage = _USAGE  # set, so mockllm does not count tokens with a downloaded tokenizer
    return out


def _listed(messages: list[Any]) -> list[str]:
    """The option ids of the latest message that lists them (a correction does not)."""
    return next(found for m in reversed(messages) if (found := _LISTED.findall(m.text)))


def _first_listed_option(messages: list[Any], *_: Any) -> ModelOutput:
    """A player that always answers the first listed option id, in the asked JSON format."""
    return _reply(json.dumps({"choice": _listed(messages)[0], "reason": "first listed"}))


def _nonsense(*_: Any) -> ModelOutput:
    return _reply("I would rather not say.")


def _run(tmp_path: Path, outputs: Any, **task_args: Any) -> Any:
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = inspect_eval(bangarena(**task_args), model=model, log_dir=str(tmp_path), display="none")
    return log


class SomeDecisionsInvalid:
    """Answers prose (also to the correction) at the decisions whose prompt hashes to 0 mod 3,
    else the first listed option: some decisions fall back, whatever order the games' calls
    come in."""

    def __call__(self, messages: list[Any], *_: Any) -> ModelOutput:
        prompt = next(m.text for m in reversed(messages) if _LISTED.search(m.text))
        if zlib.crc32(prompt.encode()) % 3 == 0:
            return _nonsense()
        return _first_listed_option(messages)


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


def _metrics(log: Any) -> dict[str, float]:
    return {k: m.value for k, m in log.results.scores[0].metrics.items()}


def test_rates_are_league_reports_over_the_same_games(tmp_path: Path) -> None:
    """The task's rates are ``league report``'s, per model decision (single options left out),
    read from the league run folder the task writes of the same games."""
    run = tmp_path / "run"
    log = _run(tmp_path, SomeDecisionsInvalid(), seats=4, games=3, seed=3, run_dir=str(run))
    metrics = _metrics(log)
    games = load_run(run)
    counts = count_model_calls(run, games.records)
    [row] = rates(games.all_seats, counts).query("kind == 'model'").to_dict("records")
    assert row["player"] == "mockllm/model" and row["model_decisions"] > 0
    assert 0 < row["fallback_rate"] < 1 and row["single_option"] > 0
    assert metrics["fallback_rate"] == pytest.approx(row["fallback_rate"])
    assert metrics["invalid_rate"] == pytest.approx(row["invalid_rate"])
    assert metrics["timeout_rate"] == pytest.approx(row["timeout_rate"])
    # not the share of all the seat's decisions (single options never reach the model)
    assert metrics["fallback_rate"] > row["fallbacks"] / row["decisions"]
    samples = read_eval_log(log.location).samples
    assert (
        sum(s.scores["game_result"].value["decisions"] for s in samples) == (row["model_decisions"])
    )
    # the run is flagged exactly when league report flags it, with the same words
    flags = check_run(run)
    assert metrics["flagged"] == (1.0 if flags.flagged_players else 0.0) == 1.0
    [flag] = flags.flags
    messages = {s.scores["game_result"].metadata["flag"] for s in samples} - {None}
    assert flag.message.startswith("mockllm/model (mockllm/model): ")
    assert all(m.split(": ")[0] == flag.message.split(": ")[0] for m in messages)


def test_a_run_whose_every_model_decision_falls_back_is_flagged(tmp_path: Path) -> None:
    log = _run(tmp_path, _nonsense, seats=4, games=1, seed=2, max_fallbacks=1000)
    metrics = _metrics(log)
    assert metrics["fallback_rate"] == 1.0 and metrics["flagged"] == 1.0
    [sample] = read_eval_log(log.location).samples
    score = sample.scores["game_result"]
    assert score.value["flagged"] == 1 and score.value["fallback_rate"] == 1.0
    n = score.value["decisions"]
    assert f"100.0 % of {n} model decisions fell back (limit 5.0 %)" in score.metadata["flag"]
    assert "FLAG: " in score.explanation


def test_a_clean_run_is_not_flagged_and_the_limit_is_a_task_parameter(tmp_path: Path) -> None:
    log = _run(tmp_path, SomeDecisionsInvalid(), seats=4, games=1, seed=3, max_fallback_rate=1.0)
    assert _metrics(log)["flagged"] == 0.0 and 0 < _metrics(log)["fallback_rate"] < 1
    [sample] = read_eval_log(log.location).samples
    assert sample.scores["game_result"].metadata["flag"] is None


class Seen:
    """Answers in the asked mode and keeps what each call asked for."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, Any, Any]] = []

    def __call__(self, messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> Any:
        self.calls.append((tools, tool_choice, config))
        options = _listed(messages)
        if tools:
            out = ModelOutput.for_tool_call("mockllm/model", "choose", {"choice": options[0]})
            out.usage = _USAGE
            return out
        return _reply(json.dumps({"choice": options[0]}))


@pytest.mark.parametrize("mode", ["text", "json_schema", "tool", "json_object", "grammar"])
def test_every_answer_mode_of_a_league_player_reaches_the_model(tmp_path: Path, mode: str) -> None:
    seen = Seen()
    log = _run(tmp_path, seen, seats=4, games=1, seed=5, answer_mode=mode)
    assert _metrics(log)["fallback_rate"] == 0.0 and seen.calls
    tools, tool_choice, config = seen.calls[0]
    extra = config.extra_body or {}
    assert bool(tools) == (mode == "tool")
    assert (config.response_schema is not None) == (mode == "json_schema")
    assert ("grammar" in extra) == (mode == "grammar")
    assert ("response_format" in extra) == (mode == "json_object")
    if mode == "tool":
        assert tools[0].name == "choose" and tool_choice.name == "choose"
        assert "enum" in json.dumps(tools[0].parameters.model_dump())
    if mode == "json_schema":
        assert config.response_schema.json_schema.properties["choice"].enum


def test_an_unknown_answer_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="answer_mode must be one of"):
        bangarena(answer_mode="tools")


def test_a_run_folder_that_holds_games_is_refused(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _run(tmp_path, _first_listed_option, seats=4, games=1, seed=5, run_dir=str(run))
    assert len(load_run(run).records) == 1
    with pytest.raises(ValueError, match="already holds games"):
        bangarena(seats=4, games=1, run_dir=str(run))
