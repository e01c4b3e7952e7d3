"""A model league against the fake OpenAI server with belief probes (docs/probes.md): probe
records, the report's scores and baselines, probes never changing a game, scripted probers
answering the truth (Brier 0) and the counting observer (exactly its figures)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

from harness.play.ledger import SPEND_FILE, read_spend
from harness.records import RunStore
from harness.records.probes import PROBES_FILE, read_probes
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer
from tests.league_run.model_league import game_files, run_dir, run_league, write_league

from .answers import Beliefs, scripted, uniform

pytest.importorskip("openai")

PROBES = {"every": 3, "at": ["elimination", "round_start"]}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as s:
        yield s


def league(
    tmp_path: Path, server: FakeOpenAIServer, out: str, probes: dict[str, Any] | None = PROBES
) -> Path:
    """Two model players and two rule bots at 4-seat tables, 2 deals × 4 rotations... kept short:
    ``games_per_table: 2`` (paired: each deal with the players rotated)."""
    folder = tmp_path / out
    folder.mkdir()
    cfg = write_league(folder / "league.yaml", server, name="probes", games_per_table=2)
    data = yaml.safe_load(cfg.read_text())
    for p in data["players"]:
        if p["kind"] == "model" and probes is not None:
            p["probes"] = probes
    cfg.write_text(yaml.safe_dump(data))
    assert run_league(cfg) == 0
    return run_dir(cfg)


def report(run: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    from harness.cli.main import main

    assert main(["league", "report", str(run)]) == 0
    folder = run / "report"
    return pd.read_csv(folder / "probe_summary.csv"), pd.read_csv(folder / "probes.csv")


def test_probes_are_recorded_charged_and_reported_with_both_baselines(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.script.default = scripted(uniform)
    run = league(tmp_path, server, "a")
    probes = read_probes(run)
    assert probes and all(p.valid for p in probes)
    games = {g.game_id: g for g in RunStore(run).games()}
    for p in probes:
        assert p.player.startswith("model-") and p.game_id in games
        assert p.roles == ["raider", "loner"]  # RULES.md §1, 4 seats, less the Marshal
        assert (
            set(p.counting) == set(p.rulebot) == set(p.beliefs or {}) == {str(t) for t in p.targets}
        )
        assert p.seat not in p.targets and len(p.attempts) == 1
    assert {t for p in probes for t in p.triggers} == {"every", "elimination", "round_start"}
    # every probe call is in the spend ledger, marked, in its game
    lines = [x for x in read_spend(run / SPEND_FILE) if x.purpose == "probe"]
    assert len(lines) == sum(len(p.attempts) for p in probes)
    assert {x.game_id for x in lines} == {p.game_id for p in probes}
    assert all(x.cost_usd and x.cost_usd > 0 for x in lines)  # priced, so caps count them
    summary, table = report(run)
    assert list(summary["player"]) == ["model-0", "model-1"]
    # uniform over 2 roles: Brier (1/2)^2 * 2 = 0.5, log loss ln 2, whatever the truth
    assert summary["brier"].tolist() == pytest.approx([0.5, 0.5])
    assert summary["log_loss"].tolist() == pytest.approx([0.6931471805599453] * 2)
    for column in ("brier_counting", "brier_rulebot", "log_loss_counting", "log_loss_rulebot"):
        assert summary[column].between(0, 10).all()
    # the two games are the rotations of one deal: one cluster, so no interval (docs/statistics.md)
    assert summary["beats_lo"].isna().all() and summary["beats_hi"].isna().all()
    assert {"player", "role", "round", "brier", "brier_counting", "brier_rulebot", "log_loss",
            "log_loss_counting", "log_loss_rulebot"} <= set(table.columns)  # fmt: skip
    everything = table[table["role"] == "all"]
    assert everything["probes"].sum() == len(probes)
    md = (run / "report" / "report.md").read_text()
    assert "Belief probes" in md and "beats counting by" in md
    for _, r in summary.iterrows():
        assert f"| {r['beats_counting']:.3f} (–) |" in md
    from harness.cli.main import main

    assert main(["report", str(run)]) == 0  # the HTML report: table, figure, calibration plot
    html = (run / "report" / "index.html").read_text(encoding="utf-8")
    table = html[html.index('id="probe-table"') : html.index('id="probe-calibration"')]
    assert "Beats the counting observer by (95 % CI)" in table
    for _, r in summary.iterrows():
        assert f"{r['beats_counting']:.3f} (–)" in table
    figure = html[html.index('id="probe-calibration"') :]
    assert figure.index("<svg") < figure.index("</figure>") and "predicted P(role)" in figure


def test_probes_never_change_a_game(tmp_path: Path, server: FakeOpenAIServer) -> None:
    """The same seeds with and without probes give identical games — probes answered validly,
    invalidly (with corrections), or not at all (server errors)."""
    calls = {"n": 0}

    def awkward(names: list[str], roles: list[str], sha: str) -> Beliefs | str:
        calls["n"] += 1
        if calls["n"] % 3 == 0:
            return "I would rather not say."
        if calls["n"] % 3 == 1:
            return {n: {r: 0.7 for r in roles} for n in names}  # sums to 1.4: invalid
        return uniform(names, roles, sha)

    server.script.default = scripted(awkward)
    with_probes = league(tmp_path, server, "with")
    probes = read_probes(with_probes)
    assert any(not p.valid for p in probes) and any(p.valid for p in probes)
    assert all(p.invalid_reason for p in probes if not p.valid)
    assert any(len(p.attempts) == 2 for p in probes)  # one corrective re-prompt
    server.script.default = None
    without = league(tmp_path, server, "without", probes=None)
    assert not (without / PROBES_FILE).exists()
    assert game_files(with_probes) == game_files(without)


def test_scripted_probers_score_the_truth_at_zero_and_the_counting_observer_at_its_figure(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    """The probes of a first run tell each later probe's question (probes do not change the
    games): a prober answering the truth scores Brier 0 and log loss 0, one answering the
    counting observer's probabilities scores exactly the counting observer's figures."""
    server.script.default = scripted(uniform)
    first = league(tmp_path, server, "first")
    roles = {g.game_id: {o.seat: o.role for o in g.seat_outcomes} for g in RunStore(first).games()}
    truth: dict[str, Beliefs] = {}
    counting: dict[str, Beliefs] = {}
    for p in read_probes(first):
        names = dict(zip(p.targets, p.names, strict=True))
        truth[p.prompt_sha256] = {
            names[t]: {r: float(r == roles[p.game_id][t]) for r in p.roles} for t in p.targets
        }
        counting[p.prompt_sha256] = {names[t]: p.counting[str(t)] for t in p.targets}

    server.script.default = scripted(lambda names, roles, sha: truth[sha])
    summary, table = report(league(tmp_path, server, "truth"))
    assert summary["brier"].tolist() == [0.0, 0.0]
    assert summary["log_loss"].tolist() == [0.0, 0.0]
    assert (table["brier"] == 0.0).all()

    server.script.default = scripted(
        lambda names, roles, sha: json.dumps({"beliefs": counting[sha]})
    )
    summary, table = report(league(tmp_path, server, "counting"))
    assert summary["invalid"].tolist() == [0, 0]
    for frame in (summary, table):
        assert frame["brier"].tolist() == pytest.approx(frame["brier_counting"].tolist(), abs=1e-12)
        assert frame["log_loss"].tolist() == pytest.approx(
            frame["log_loss_counting"].tolist(), abs=1e-12
        )
    assert summary["beats_counting"].tolist() == pytest.approx([0.0, 0.0], abs=1e-12)


def test_a_run_stopped_by_a_cap_and_resumed_asks_the_probes_of_an_uninterrupted_run(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    """Probe calls count toward the caps; the resumed games replay their decisions through the
    seats, so the probes after the stop are those an uninterrupted run asks."""
    server.script.default = scripted(uniform)
    whole = {(p.game_id, p.seat, p.decision_index, p.prompt_sha256, tuple(p.triggers))
             for p in read_probes(league(tmp_path, server, "whole"))}  # fmt: skip
    server.script.usage_tokens = 1_000_000
    folder = tmp_path / "stopped"
    folder.mkdir()
    cfg = write_league(folder / "league.yaml", server, name="probes", games_per_table=2,
                       spending={"max_tokens": 12_500_000})  # fmt: skip
    data = yaml.safe_load(cfg.read_text())
    for p in data["players"]:
        if p["kind"] == "model":
            p["probes"] = PROBES
    cfg.write_text(yaml.safe_dump(data))
    assert run_league(cfg) == 2  # the cap stopped the run
    run = run_dir(cfg)
    before = read_probes(run)
    assert before and len(RunStore(run).games()) < 2
    lines = read_spend(run / SPEND_FILE)
    assert any(x.purpose == "probe" for x in lines[:13])  # probe calls counted toward the cap
    data["spending"] = {}
    cfg.write_text(yaml.safe_dump(data))
    assert run_league(cfg, "--resume") == 0
    resumed = {(p.game_id, p.seat, p.decision_index, p.prompt_sha256, tuple(p.triggers))
               for p in read_probes(run)}  # fmt: skip
    assert resumed == whole
