"""``bangarena analyze RUN``: move analysis of a whole run, stored in RUN/analysis/moves.jsonl
(pydantic lines, one per game, resumable), the same whatever the worker count."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from harness.analysis.moves import classify
from harness.analysis.run_moves import (
    MOVES_DIR,
    MOVES_FILE,
    MovesLine,
    read_moves,
    run_moves,
    settings_for,
)
from harness.cli.main import main
from harness.records import RunStore
from tests.bot_league import play_league
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

BOTS = """\
name: bots
players:
  - {name: rulebot, kind: bot}
  - {name: random, kind: random}
tables:
  - seats: [4, 5]
games_per_table: 2
paired: true
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("moves")
    return play_league(root, BOTS, "bots")


def _copy(run: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "run"
    shutil.copytree(run, dest, ignore=shutil.ignore_patterns(MOVES_DIR))
    return dest


def _analyze(run: Path, *extra: str) -> int:
    return main(
        ["analyze", str(run), "--worlds", "2", "--max-worlds", "2", "--no-progress", *extra]
    )


def test_analyze_stores_every_random_decision_with_a_choice(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = _copy(run, tmp_path)
    assert _analyze(r) == 0
    assert "analyzed 4 games" in capsys.readouterr().out
    lines = (r / MOVES_DIR / MOVES_FILE).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    store = RunStore(r)
    for text in lines:
        rec = MovesLine.model_validate_json(text)
        _start, decisions, _end = store.read_game(rec.game_id)
        want = [d.index for d in decisions if d.player == "random" and len(d.options) > 1]
        assert [m.index for m in rec.decisions] == want
        for m in rec.decisions:
            assert m.player == "random" and len(m.values) == len(m.options) > 1
            assert m.loss == pytest.approx(max(m.values) - m.values[m.options.index(m.chosen)])
            assert m.best in m.options and 0 <= m.accuracy <= 100
            assert rec.schema_version == 3 and m.worlds == 2 and m.ses is not None
            assert len(m.ses) == len(m.options) and m.loss_se is not None and m.loss_se >= 0
            assert m.label == classify(m.loss, m.loss_se)  # labelled only above 2 SE


def test_rule_bots_are_analysed_when_asked(run: Path, tmp_path: Path) -> None:
    r = _copy(run, tmp_path)
    assert _analyze(r, "--seats", "bot") == 0
    players = {m.player for rec in read_moves(r).values() for m in rec.decisions}
    assert players == {"rulebot"}


def test_worker_count_and_executor_do_not_change_results(run: Path, tmp_path: Path) -> None:
    one, two = _copy(run, tmp_path / "a"), _copy(run, tmp_path / "b")
    assert _analyze(one, "--workers", "1") == 0
    assert _analyze(two, "--workers", "2") == 0
    assert read_moves(one) == read_moves(two)


def test_resume_skips_done_games_and_settings_mismatch_recomputes(
    run: Path, tmp_path: Path
) -> None:
    r = _copy(run, tmp_path)
    path = r / MOVES_DIR / MOVES_FILE
    settings = settings_for(worlds=2, max_worlds=2)
    first = run_moves(r, settings)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert run_moves(r, settings) == first
    assert path.read_text(encoding="utf-8").splitlines() == lines  # nothing recomputed
    # a stopped analysis: the last game's line torn, one game missing
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:30], encoding="utf-8")
    seen: list[str] = []
    again = run_moves(r, settings, on_game=lambda rec: seen.append(rec.game_id))
    assert again == first and len(seen) == 2
    # other settings: every game again
    other = run_moves(r, settings_for(worlds=3, max_worlds=3))
    assert set(other) == set(first) and all(rec.settings.worlds == 3 for rec in other.values())


def test_bad_arguments_are_one_line_errors(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as e:
        main(["analyze", str(run), "--seats", "bots"])
    assert e.value.code == 2
    with pytest.raises(SystemExit):
        main(["analyze", str(run), "--worlds", "0"])
    capsys.readouterr()
    assert main(["analyze", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no run folder" in err


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    pytest.importorskip("openai")
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        yield s


def test_analyze_a_model_league(tmp_path: Path, server: FakeOpenAIServer) -> None:
    data = {
        "name": "models",
        "players": [
            model_player("gpt-test", server.base_url, params={"max_tokens": 64}),
            {"name": "bot", "kind": "bot"},
        ],
        "tables": [{"seats": [4]}],
        "games_per_table": 2,
        "decision_seconds": 5,
        "providers": {"openai": {"concurrency": 4}},
    }
    cfg = tmp_path / "models.yaml"
    cfg.write_text(yaml.safe_dump(data))
    out = tmp_path / "out"
    assert main(["league", "run", str(cfg), "--output", str(out), "--no-progress",
                 "--no-preflight"]) == 0  # fmt: skip
    assert _analyze(out / "models") == 0
    moves = read_moves(out / "models")
    assert len(moves) == 2
    analysed = [m for rec in moves.values() for m in rec.decisions]
    assert analysed and {m.player for m in analysed} == {"gpt-test"}


def test_inspect_lists_blunders_and_mistakes_with_option_values(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = _copy(run, tmp_path)
    assert main(["inspect", str(r), "--blunders"]) == 2  # nothing analysed yet
    assert "run bangarena analyze" in capsys.readouterr().err
    assert _analyze(r, "--value", "fitted") == 0  # fast and less faithful: mistakes too
    capsys.readouterr()
    moves = [m for rec in read_moves(r).values() for m in rec.decisions]
    blunders = [m for m in moves if m.label == "blunder"]
    mistakes = [m for m in moves if m.label in ("blunder", "mistake")]
    assert blunders and len(mistakes) > len(blunders)
    assert main(["inspect", str(r), "--blunders", "--limit", "0", "--json"]) == 0
    out = capsys.readouterr()
    shown = [json.loads(line) for line in out.out.splitlines()]
    assert len(shown) == len(blunders) and f"{len(blunders)} matching" in out.err
    for d in shown:
        a = d["analysis"]
        assert (
            a["label"] == "blunder"
            and a["chosen"]
            == d["chosen"]
            == a["options"][[o["id"] for o in d["options"]].index(d["chosen"])]
        )
    assert main(["inspect", str(r), "--mistakes", "--limit", "0"]) == 0
    out = capsys.readouterr()
    assert f"{len(mistakes)} matching" in out.err
    m = mistakes[0]
    assert m.loss_se is not None  # schema 3: the loss with its standard error
    assert f"lost {m.loss:.3f} ± {m.loss_se:.3f} win probability" in out.out
    assert f"{m.values[m.options.index(m.chosen)]:.3f} `{m.chosen}`" in out.out


def test_report_shows_the_move_table_only_when_analysed(run: Path, tmp_path: Path) -> None:
    from harness.report.figures import league_figures
    from harness.runs import build_report, markdown, save_report

    r = _copy(run, tmp_path)
    plain = build_report(r)
    assert plain.moves.empty and "Move analysis" not in markdown(plain)
    assert league_figures(r)["moves"] == []
    assert _analyze(r) == 0
    report = build_report(r)
    t = report.moves
    moves = [m for rec in read_moves(r).values() for m in rec.decisions]
    assert set(t["player"]) == {"random"} and int(t["decisions"].sum()) == len(moves)
    for row in t.to_dict("records"):
        mine = [m for m in moves if m.role == row["role"]]
        assert row["loss"] == pytest.approx(sum(m.loss for m in mine) / len(mine))
        assert row["blunder_rate"] == pytest.approx(
            sum(m.label == "blunder" for m in mine) / len(mine)
        )
        if row["games"] >= 2:  # one game: no clustered interval (NaN)
            assert row["loss_lo"] <= row["loss"] <= row["loss_hi"]
            assert row["acc_lo"] <= row["accuracy"] <= row["acc_hi"]
    assert "Move analysis by player × role" in markdown(report)
    out = save_report(report)
    assert (out / "moves.csv").read_text(encoding="utf-8").startswith("player,role,games")
    rows = league_figures(r)["moves"]
    assert len(rows) == len(t) and {x["role"] for x in rows} == set(t["role"])


def test_bench_analysis_prints_figures_and_a_json_line(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bench", "analysis", "--run", str(run), "--worlds", "1", "--workers", "1",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    r = json.loads(lines[-1])
    assert r["benchmark"] == "analysis" and r["games"] == 4 and r["worlds"] == 1
    assert r["decisions"] > 0 and r["seconds_per_decision"] > 0
    assert r["pass"] == (r["seconds_per_decision"] <= r["goal_seconds_per_decision"])
    assert "per decision" in lines[2]
    assert not (run / MOVES_DIR).exists()  # the bench analyses a copy


def test_bench_analysis_compare_prints_agreement_and_a_json_line(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bench", "analysis", "--compare", "--run", str(run), "--worlds", "1",
            "--max-worlds", "2", "--reference-worlds", "2", "--workers", "1",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    r = json.loads(lines[-1])
    assert r["benchmark"] == "analysis-compare" and r["games"] == 4 and r["decisions"] > 0
    assert 0 <= r["best_agreement"] <= 1 and r["reference_worlds"] == 2
    assert r["loss_correlation"] is None or -1 <= r["loss_correlation"] <= 1
    assert 1 <= r["mean_worlds"] <= 2
    assert "best option agreed" in lines[1] and "loss correlation" in lines[2]
    # beside the strict measure: within the reference's noise, and where its best is clear
    assert r["best_agreement"] <= r["best_within_reference_noise"] <= 1
    assert 0 <= r["reference_clear_best"] <= r["decisions"]
    assert r["clear_best_agreement"] is None or 0 <= r["clear_best_agreement"] <= 1
    assert "best within noise" in lines[3] and "clear best agreed" in lines[4]
    assert not (run / MOVES_DIR).exists()  # the bench analyses a copy


def test_a_record_that_does_not_replay_is_a_one_line_error(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = _copy(run, tmp_path)
    path = sorted((r / "games").glob("*.jsonl"))[0]
    lines = path.read_text(encoding="utf-8").splitlines()
    for k, line in enumerate(lines):
        rec = json.loads(line)
        if rec["kind"] == "decision" and len(rec["options"]) > 1:
            rec["options"] = rec["options"] + ["play:nothing@9"]
            rec["chosen"] = "play:nothing@9"
            lines[k] = json.dumps(rec)
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _analyze(r) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not replay" in err
