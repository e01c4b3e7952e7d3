"""Any Inspect solver plays the task's seat through the ``choose`` tool, with Inspect's
``mockllm`` model making the tool calls (no network): ``react()`` with a tool of its own plays
whole games recorded like an external seat's (view, options, choice, reasoning, latency, usage
from Inspect's model usage) that ``replay`` verifies and ``league report`` reports; an unknown id
is a tool error and the solver chooses again; three refused choices are an invalid fallback; a
solver that never calls ``choose`` leaves every decision to recorded fallbacks and the game ends;
``inspect eval --solver`` (Inspect's own override) plays through the command line."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402

from harness.cli.main import main  # noqa: E402
from harness.integrations.inspect_seat import STOPPED  # noqa: E402
from harness.integrations.inspect_task import bangarena  # noqa: E402
from harness.records import RunStore  # noqa: E402

from .inspect_solvers import BAD_ID, Chooser, idle, react_player  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PLAYER = "mockllm/model"


def _run(tmp_path: Path, solver: Any, **task_args: Any) -> Any:
    task = bangarena(run_dir=str(tmp_path / "run"), **task_args)
    [log] = inspect_eval(
        task, solver=solver, model=PLAYER, log_dir=str(tmp_path / "logs"), display="none"
    )
    assert log.status == "success", log.error
    return read_eval_log(log.location)


def _seat_decisions(run: Path) -> list[Any]:
    store = RunStore(run)
    out = []
    for g in store.games():
        _, decisions, _ = store.read_game(g.game_id)
        out += [d for d in decisions if d.player == PLAYER and len(d.options) > 1]
    return out


def test_react_with_its_own_tools_plays_whole_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chooser = Chooser(note_every=4)
    log = _run(tmp_path, react_player(chooser), seats=4, games=2, seed=5, decision_seconds=20)
    assert len(log.samples) == 2
    for sample in log.samples:
        score = sample.scores["game_result"]
        assert score.value["fallbacks"] == 0 and score.value["decisions"] > 3
        assert score.value["void"] == 0 and score.answer == score.metadata["role"]
        tools = [m.function for m in sample.messages if m.role == "tool"]
        assert "note" in tools and tools.count("choose") == score.value["decisions"]
        first = next(m for m in sample.messages if m.role == "user")
        assert "Answer with the `choose` tool" in first.text and "# Your game" in first.text
        assert "The game is over" in [m for m in sample.messages if m.role == "tool"][-1].text
    run = tmp_path / "run"
    decisions = _seat_decisions(run)
    assert len(decisions) == sum(s.scores["game_result"].value["decisions"] for s in log.samples)
    for d in decisions:
        m = d.model
        assert d.fallback is None and m["provider"] == "inspect" and m["chosen"] == d.chosen
        assert m["options"] == d.options and m["view"]["decision"]["kind"] == d.decision_kind
        assert m["reason"] == "the first listed" and m["latency_s"] >= 0
        assert m["input_tokens"] % 100 == 0 and m["input_tokens"] >= 100
    # every model call's usage is in exactly one decision (the note calls' with the next one)
    assert sum(d.model["input_tokens"] for d in decisions) == 100 * chooser.calls - 100 * 2
    kinds = {s.kind for g in RunStore(run).games() for s in g.seat_outcomes}
    assert kinds == {"inspect", "bot"}
    capsys.readouterr()
    assert main(["replay", str(run), "--no-progress"]) == 0
    assert "verified: 2 games" in capsys.readouterr().out
    main(["league", "report", str(run), "--bootstrap", "0"])
    rates = {r["player"]: r for r in csv.DictReader((run / "report" / "rates.csv").open())}
    assert rates[PLAYER]["kind"] == "inspect" and float(rates[PLAYER]["model_decisions"]) > 0


def test_an_unknown_id_is_a_tool_error_and_the_solver_chooses_again(tmp_path: Path) -> None:
    log = _run(tmp_path, react_player(Chooser(bad_first=True)), seats=4, games=1, seed=6)
    errors = [m for m in log.samples[0].messages if m.role == "tool" and m.error is not None]
    assert len(errors) == 1 and "not one of the options" in errors[0].error.message
    first = _seat_decisions(tmp_path / "run")[0]
    kinds = [a["error_kind"] for a in first.model["attempts"]]
    assert kinds == ["illegal_option", None] and first.fallback is None
    assert BAD_ID in first.model["attempts"][0]["raw_text"]
    assert log.samples[0].scores["game_result"].value["invalid_rate"] > 0


def test_three_refused_choices_are_an_invalid_fallback(tmp_path: Path) -> None:
    log = _run(tmp_path, react_player(Chooser(always_bad=True)), seats=4, games=1, seed=6,
               max_fallbacks=3)  # fmt: skip
    decisions = _seat_decisions(tmp_path / "run")
    assert decisions and all(d.fallback == "invalid_answer" for d in decisions)
    kinds = [a["error_kind"] for a in decisions[0].model["attempts"]]
    assert kinds == ["illegal_option"] * 3
    refused = [m for m in log.samples[0].messages if m.role == "tool" and "Refused" in m.text]
    assert refused and "falls back" in refused[0].text


def test_a_decision_not_chosen_in_time_falls_back_and_the_solver_plays_on(tmp_path: Path) -> None:
    log = _run(tmp_path, react_player(Chooser(nap_first=4.0)), seats=4, games=1, seed=8,
               decision_seconds=2.5)  # fmt: skip
    first, *rest = _seat_decisions(tmp_path / "run")
    assert first.fallback == "timeout" and first.model["attempts"][-1]["error_kind"] == "timeout"
    results = [m.text for m in log.samples[0].messages if m.role == "tool"]
    after = next(t for t in results if "fell back at its deadline" in t)
    assert "nothing was chosen" in after and "Decision 2 (" in after
    assert any(d.fallback is None for d in rest)  # it chose again once shown a decision


def test_a_plain_generate_loop_plays_with_the_samples_choose_tool(tmp_path: Path) -> None:
    chooser = Chooser()
    model = get_model(PLAYER, custom_outputs=chooser)
    task = bangarena(seats=4, games=1, seed=9, run_dir=str(tmp_path / "run"))
    [log] = inspect_eval(task, solver=generate(), model=model, log_dir=str(tmp_path / "logs"),
                         display="none")  # fmt: skip
    assert log.status == "success", log.error
    decisions = _seat_decisions(tmp_path / "run")
    assert decisions and all(d.fallback is None for d in decisions)
    assert log.samples[0].messages[-1].text == "good game"


def test_a_solver_that_never_chooses_gets_fallbacks_and_the_game_ends(tmp_path: Path) -> None:
    log = _run(tmp_path, idle(), seats=4, games=1, seed=7, max_fallbacks=1000)
    score = log.samples[0].scores["game_result"]
    decisions = _seat_decisions(tmp_path / "run")
    assert decisions and score.value["fallbacks"] == len(decisions) > 0
    for d in decisions:
        assert d.fallback == "error" and d.model["attempts"][-1]["error_kind"] == "agent_error"
        assert STOPPED in d.model["attempts"][-1]["error_message"]
    assert score.value["void"] == 0 and RunStore(tmp_path / "run").games()[0].winning_side


def test_inspects_own_solver_override_on_the_command_line(tmp_path: Path) -> None:
    cmd = [
        sys.executable, "-m", "inspect_ai", "eval", "harness/integrations/inspect_task.py",
        "--solver", "tests/integrations/inspect_solvers.py@mock_react", "--model", PLAYER,
        "-T", "seats=4", "-T", "games=1", "-T", f"run_dir={tmp_path / 'run'}",
        "--log-dir", str(tmp_path / "logs"), "--display", "none",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    decisions = _seat_decisions(tmp_path / "run")
    assert decisions and all(d.fallback is None for d in decisions)
    assert {d.model["provider"] for d in decisions} == {"inspect"}


@pytest.mark.parametrize(
    "args, message",
    [
        ({}, "config needs player=NAME"),
        ({"player": "nobody"}, "has no player 'nobody'"),
        ({"player": "bot1"}, "player insp is an Inspect solver's seat"),
        ({"player": "insp"}, "player m is an MCP client's seat: give -T mcp_port=PORT"),
    ],
)
def test_bad_league_arguments_are_one_line_errors(
    args: dict[str, Any], message: str, tmp_path: Path
) -> None:
    players = [{"name": "insp", "kind": "inspect"}, {"name": "m", "kind": "mcp"},
               {"name": "bot1", "kind": "bot"}, {"name": "bot2", "kind": "bot"}]  # fmt: skip
    cfg = tmp_path / "l.json"
    cfg.write_text(json.dumps({"name": "l", "players": players, "tables": [{"seats": [4]}],
                               "games_per_table": 1}), encoding="utf-8")  # fmt: skip
    with pytest.raises(ValueError) as e:
        bangarena(config=str(cfg), **args)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_league_run_refuses_an_inspect_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    players = [{"name": "insp", "kind": "inspect"}, {"name": "bot1", "kind": "bot"}]
    cfg = tmp_path / "l.json"
    cfg.write_text(json.dumps({"name": "l", "players": players, "tables": [{"seats": [4]}],
                               "games_per_table": 1}), encoding="utf-8")  # fmt: skip
    capsys.readouterr()
    assert main(["league", "run", str(cfg), "--output", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "-T config=CONFIG -T player=insp" in err and err.count("\n") == 1, err
    with pytest.raises(ValueError, match="player and mcp_port are for a league"):
        bangarena(player="insp")
