"""Broken measurements are flagged, not reported as results: a model player over the config's
``max_fallback_rate``, void games over ``max_void_share`` and paired deals with only some
rotations finished are flagged in the terminal, Markdown, CSV and HTML reports, and ``league run``
and ``league report`` exit with code 3."""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.cli.main import main
from harness.records import RunStore
from harness.runs import build_report, markdown, save_report
from harness.runs.flags import EXIT_FLAGGED, _messages, check_run
from tests.bot_league import play_league
from tests.fakes import Answer, FakeOpenAIServer, Malformed
from tests.fakes.backends import KEY_ENV, SECRET_KEY

BOTS = """\
name: bots
players:
  - {name: rulebot, kind: bot}
  - {name: random, kind: random}
tables:
  - seats: [4]
games_per_table: 8
paired: true
"""


@pytest.fixture(scope="module")
def bot_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four paired deals of two seatings each (the rotations by two and three repeat them),
    all finished."""
    root = tmp_path_factory.mktemp("bots")
    return play_league(root, BOTS, "bots")


def copy_run(src: Path, dst: Path, keep: Any = None, void: Mapping[str, str] = {}) -> Path:
    """A copy of the run folder ``src`` keeping the games ``keep(record)`` accepts, with the
    games named in ``void`` made void with that reason."""
    import shutil

    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("report"))
    lines = []
    for g in RunStore(src).games():
        if keep is not None and not keep(g):
            continue
        if g.game_id in void:
            g = g.model_copy(update={"void": void[g.game_id], "winning_side": "void",
                                     "winners": []})  # fmt: skip
            g.seat_outcomes = [o.model_copy(update={"won": False}) for o in g.seat_outcomes]
        lines.append(g.model_dump_json())
    (dst / "games.jsonl").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return dst


def test_complete_bot_run_is_not_flagged(bot_run: Path) -> None:
    flags = check_run(bot_run)
    assert not flags and flags.exit_code == 0 and flags.notes == []


def test_unfinished_rotations_are_flagged(
    bot_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deal 0 with 1 of its 2 seatings: the role balance the paired schedule promises is
    broken, in every format."""
    run = copy_run(bot_run, tmp_path / "run", keep=lambda g: g.deal != 0 or g.rotation == 0)
    capsys.readouterr()
    assert main(["league", "report", str(run), "--bootstrap", "0"]) == EXIT_FLAGGED
    out = capsys.readouterr().out
    expected = (
        "1 paired deal with only some rotations finished (4p classic deal 0: 1 of 2 rotations)"
    )
    assert f"FLAG: {expected}" in " ".join(out.split())
    assert expected in (run / "report" / "report.md").read_text(encoding="utf-8")
    rows = list(csv.DictReader((run / "report" / "flags.csv").open(encoding="utf-8")))
    assert [r["kind"] for r in rows] == ["unfinished_blocks"]


def test_void_games_are_excluded_from_win_rates_and_flagged(bot_run: Path, tmp_path: Path) -> None:
    games = RunStore(bot_run).games()
    void = {g.game_id: "20 consecutive fallbacks" for g in games[:1]}
    run = copy_run(bot_run, tmp_path / "run", void=void)
    report = build_report(run, bootstrap=0)
    assert report.games == 8 and report.void_games == 1
    assert report.seat_games == 7 * 4  # the void game's seats are in no win rate
    assert int(report.win_rates["games"].sum()) == 7 * 4
    assert int(report.rates["seat_games"].sum()) == 8 * 4  # but counted in the rates
    kinds = [f.kind for f in report.flags.flags]
    assert "void_games" in kinds and report.exit_code == EXIT_FLAGGED  # 1/8 > 5 %
    msg = next(f.message for f in report.flags.flags if f.kind == "void_games")
    assert msg.startswith("1 of 8 games is void (12.5 %, limit 5.0 %): 20 consecutive fallbacks")
    # the whole deal 0 is no longer balanced either
    assert "unfinished_blocks" in kinds
    # a threshold from the run's config: a note, not a flag
    cfg = json.loads((run / "config.json").read_text(encoding="utf-8"))
    cfg["max_void_share"] = 0.2
    (run / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    flags = check_run(run)
    assert "void_games" not in [f.kind for f in flags.flags]
    assert flags.notes == ["1 of 8 games is void and excluded from win rates"]
    # counted in every format: headline, Markdown, CSV
    report = build_report(run, bootstrap=0)
    assert "8 games, 1 void," in markdown(report).splitlines()[0]
    assert int(report.rates["void_games"].sum()) == 4
    out = save_report(report)
    notes = [r for r in csv.DictReader((out / "flags.csv").open()) if r["kind"] == "note"]
    assert [r["message"] for r in notes] == flags.notes


# ------------------------------------------------------------------ a model that keeps failing


def every_third_decision_fails() -> Any:
    """Requests 0 and 1 of every 6 are malformed (an answer and its corrective re-prompt: the
    decision falls back), the next four answer validly."""
    counter = itertools.count()

    def behaviour(body: Mapping[str, Any]) -> Malformed | Answer:
        return Malformed() if next(counter) % 6 < 2 else Answer()

    return behaviour


@pytest.fixture(scope="module")
def failing_model_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int, str]]:
    """A league whose model seat falls back on one model decision in five: (run folder, exit
    code of ``league run``, its stderr)."""
    tmp_path = tmp_path_factory.mktemp("flaky")
    with pytest.MonkeyPatch.context() as mp, FakeOpenAIServer() as server:
        mp.setenv(KEY_ENV, SECRET_KEY)
        server.script.default = every_third_decision_fails()
        model = {"provider": "openai", "model": "flaky", "base_url": server.base_url,
                 "api_key_env": KEY_ENV, "answer_mode": "json_object",
                 "price": {"input": 1.0, "output": 2.0}}  # fmt: skip
        data = {
            "name": "flaky",
            "players": [
                {"name": "flaky", "kind": "model", "model": model},
                {"name": "rulebot", "kind": "bot"},
            ],  # fmt: skip
            "tables": [{"seats": [4]}],
            "games_per_table": 4,
            "decision_seconds": 10,
            "max_concurrent_games": 1,
        }
        cfg = tmp_path / "flaky.yaml"
        cfg.write_text(yaml.safe_dump(data), encoding="utf-8")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["league", "run", str(cfg), "--output", str(tmp_path / "out"),
                         "--no-progress", "--no-preflight"])  # fmt: skip
        yield tmp_path / "out" / "flaky", code, err.getvalue()


def test_a_failing_model_is_flagged_in_every_format(
    failing_model_run: tuple[Path, int, str], capsys: pytest.CaptureFixture[str]
) -> None:
    run, code, err = failing_model_run
    assert code == EXIT_FLAGGED, err
    flagged = [line for line in err.splitlines() if line.startswith("flagged: ")]
    assert len(flagged) == 1 and flagged[0].startswith("flagged: flaky (openai/flaky): ")
    assert "model decisions fell back (limit 5.0 %): invalid_answer" in flagged[0]
    assert flagged[0].endswith("— its win rates are not valid")
    # terminal
    assert main(["league", "report", str(run), "--bootstrap", "0"]) == EXIT_FLAGGED
    out = " ".join(capsys.readouterr().out.split())
    assert "FLAG: flaky (openai/flaky)" in out and "not valid: " in out
    # CSV: the player's rows say so, with the reason
    report_dir = run / "report"
    summary = {r["player"]: r for r in csv.DictReader((report_dir / "summary.csv").open())}
    assert summary["flaky"]["valid"] == "False" and summary["rulebot"]["valid"] == "True"
    assert "fell back" in summary["flaky"]["flag"] and summary["rulebot"]["flag"] == ""
    win_rates = list(csv.DictReader((report_dir / "win_rates.csv").open()))
    assert {r["valid"] for r in win_rates if r["player"] == "flaky"} == {"False"}
    flags = list(csv.DictReader((report_dir / "flags.csv").open()))
    assert [(f["kind"], f["player"]) for f in flags] == [("fallbacks", "flaky")]
    rates = {r["player"]: r for r in csv.DictReader((report_dir / "rates.csv").open())}
    assert "invalid_answer" in rates["flaky"]["fallback_reasons"]
    # Markdown
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    assert "## Run checks" in md and "**FLAG: flaky (openai/flaky)" in md
    assert "| flaky |" in md and "not valid: " in md
    # HTML
    from harness.report.html import build_report as build_html

    html = build_html(run, run / "html", workers=1).index.read_text(encoding="utf-8")
    flag = check_run(run).player_flag("flaky")
    assert flag is not None and 'id="run-flags"' in html and flag.message in html
    assert '<strong class="not-valid"' in html


def test_a_higher_threshold_clears_the_flag(
    failing_model_run: tuple[Path, int, str], tmp_path: Path
) -> None:
    run = copy_run(failing_model_run[0], tmp_path / "run")
    cfg = json.loads((run / "config.json").read_text(encoding="utf-8"))
    cfg["max_fallback_rate"] = 0.9
    (run / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    assert main(["league", "report", str(run), "--no-save", "--bootstrap", "0"]) == 0


def test_flag_reasons_come_from_the_records(failing_model_run: tuple[Path, int, str]) -> None:
    """The rate in the flag is the share of model decisions that fell back, as recorded."""
    run, _, _ = failing_model_run
    store = RunStore(run)
    fell = total = 0
    for g in store.games():
        _, decisions, _ = store.read_game(g.game_id)
        for d in decisions:
            if d.player == "flaky" and len(d.options) > 1:
                total += 1
                fell += d.fallback is not None
    assert total > 0 and fell / total > 0.05
    flag = check_run(run).player_flag("flaky")
    assert (
        flag is not None
        and f"{100 * fell / total:.1f} % of {total} model decisions" in flag.message
    )


def test_flag_lines_count_in_english() -> None:
    m = _messages()
    assert "of 1 model decision fell back" in m.fallbacks("p", "", 1.0, 1, 0.05, "")
    assert "of 2 model decisions fell back" in m.fallbacks("p", "", 1.0, 2, 0.05, "")
    assert m.void_note(1, 1) == "1 of 1 game is void and excluded from win rates"
    assert m.void_note(2, 8) == "2 of 8 games are void and excluded from win rates"
    assert m.void_games(0, 2, 0.0, 0.05, "").startswith("0 of 2 games are void (0.0 %")
