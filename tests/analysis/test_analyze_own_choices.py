"""Only a player's own choices are scored as its own (docs/statistics.md): ``bangarena analyze``
leaves fallback moves, autopilot moves and forced decisions out of the move table's loss,
blunders and accuracy and counts them apart; an interval of one deal reads "–" in every format."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

from harness.analysis.run_moves import (
    MOVES_DIR,
    MOVES_FILE,
    SCHEMA,
    read_moves,
    run_moves,
    settings_for,
    stored_moves,
)
from harness.cli.main import main
from harness.records import RunStore
from harness.runs import build_report, markdown, move_table, print_report, save_report
from tests.bot_league import play_league

# a Python agent that answers an option that does not exist at every other decision, two rule
# bots; 4 games at 4 seats, paired: the four seatings of one deal
LEAGUE = """\
name: {name}
players:
  - {{name: flaky, kind: agent, agent: "tests.analysis.flaky_agent:factory"}}
  - {{name: a, kind: bot}}
  - {{name: b, kind: bot}}
tables:
  - seats: [4]
games_per_table: 4
paired: true
fallback: {fallback}
max_fallback_rate: 1.0
"""


def _league(root: Path, fallback: str) -> Path:
    name = f"flaky_{fallback}"
    run = play_league(root, LEAGUE.format(name=name, fallback=fallback), name)
    assert main(["analyze", str(run), "--worlds", "1", "--workers", "1", "--no-progress"]) == 0
    return run


@pytest.fixture(scope="module")
def simplest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _league(tmp_path_factory.mktemp("simplest"), "simplest")


@pytest.fixture(scope="module")
def autopilot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _league(tmp_path_factory.mktemp("autopilot"), "autopilot")


def _flaky_decisions(run: Path) -> dict[str, list[tuple[int, int, str | None]]]:
    """Per game: (index, options, fallback) of every decision of the flaky agent's seats."""
    store = RunStore(run)
    out = {}
    for g in store.games():
        _start, decisions, _end = store.read_game(g.game_id)
        out[g.game_id] = [(d.index, len(d.options), d.fallback)
                          for d in decisions if d.player == "flaky"]  # fmt: skip
    return out


@pytest.mark.parametrize("policy", ["simplest", "autopilot"])
def test_fallbacks_and_forced_decisions_are_counted_apart_never_scored(
    policy: str, request: pytest.FixtureRequest
) -> None:
    run: Path = request.getfixturevalue(policy)
    recorded = _flaky_decisions(run)
    moves = stored_moves(run)
    assert set(moves) == set(recorded)
    fallen = forced = 0
    for gid, line in moves.items():
        own = [i for i, n, fb in recorded[gid] if n > 1 and fb is None]
        assert [m.index for m in line.decisions if m.player == "flaky"] == own
        fallen += sum(1 for _, n, fb in recorded[gid] if n > 1 and fb is not None)
        forced += sum(1 for _, n, _fb in recorded[gid] if n == 1)
    assert fallen > 0 and forced > 0
    left = [s for line in moves.values() for s in line.left_out if s.player == "flaky"]
    kind = "autopilot" if policy == "autopilot" else "fallback"
    other = "fallback" if policy == "autopilot" else "autopilot"
    assert sum(getattr(s, kind) for s in left) == fallen
    assert sum(getattr(s, other) for s in left) == 0
    assert sum(s.forced for s in left) == forced
    table = move_table(str(run))
    mine = table[table["player"] == "flaky"]
    assert int(mine["decisions"].sum()) == sum(
        len([m for m in line.decisions if m.player == "flaky"]) for line in moves.values()
    )
    column = "autopilot" if policy == "autopilot" else "fallbacks"
    assert int(mine[column].sum()) == fallen and int(mine["forced"].sum()) == forced
    # the scores are over the player's own decisions only
    own = pd.DataFrame(
        [{"role": m.role, "loss": m.loss, "accuracy": m.accuracy}
         for line in moves.values() for m in line.decisions if m.player == "flaky"]
    )  # fmt: skip
    for row in mine.to_dict("records"):
        part = own[own["role"] == row["role"]]
        if len(part):
            assert row["loss"] == pytest.approx(part["loss"].mean())
            assert row["accuracy"] == pytest.approx(part["accuracy"].mean())
        else:
            assert row["decisions"] == 0 and math.isnan(row["accuracy"])


def test_a_single_deal_shows_no_interval_in_any_format(simplest: Path, tmp_path: Path) -> None:
    """Four games, one deal: no interval anywhere — never "(0.0 … 100.0)"."""
    report = build_report(simplest, bootstrap=20)
    assert report.moves[["loss_lo", "loss_hi", "acc_lo", "acc_hi"]].isna().all().all()
    assert report.win_rates[["ci_lo", "ci_hi"]].isna().all().all()
    assert report.role_adjusted[["ci_lo", "ci_hi"]].isna().all().all()
    assert report.ratings[["mu_lo", "mu_hi"]].isna().all().all()
    console = Console(width=250, record=True)
    print_report(report, console)
    terminal = console.export_text()
    md = markdown(report)
    out = save_report(report)
    moves_csv = pd.read_csv(out / "moves.csv")
    assert moves_csv[["loss_lo", "acc_lo", "acc_hi", "blunder_hi"]].isna().all().all()
    assert main(["report", str(simplest), "--out", str(tmp_path / "html")]) == 0
    html = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    moves_html = html[html.index('id="moves-table"') :]
    moves_html = moves_html[: moves_html.index("</table>")]
    for text in (terminal, md, moves_html):
        assert "(–)" in text and "100.0)" not in text and "… 100" not in text
    players_html = html[html.index('id="player-table"') :]
    players_html = players_html[: players_html.index("</table>")]
    assert players_html.count("(–)") == 3  # each player's win rate: no interval
    row = next(line for line in md.splitlines() if line.startswith("| flaky |") and "(–)" in line)
    assert "(0.0" not in row


def test_analyses_of_an_earlier_schema_are_computed_again_and_never_reported(
    simplest: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    import shutil

    shutil.copytree(simplest, run)
    path = run / MOVES_DIR / MOVES_FILE
    lines = path.read_text(encoding="utf-8").splitlines()
    old = [json.loads(x) for x in lines]
    for rec in old:  # as the earlier schema stored it: fallbacks analysed, no counts
        rec["schema_version"] = 1
        rec.pop("left_out")
    path.write_text("".join(json.dumps(r) + "\n" for r in old), encoding="utf-8")
    assert stored_moves(run) == {} and move_table(str(run)).empty
    again = run_moves(run, settings_for(worlds=1))
    assert set(again) == {r["game_id"] for r in old}
    assert all(line.schema_version == SCHEMA for line in read_moves(run).values())


def test_analyses_of_schema_2_are_still_read_and_reported(simplest: Path, tmp_path: Path) -> None:
    # schema 2 (before standard errors): no ses, loss_se or worlds per decision, no max_worlds
    # or stream in the settings — read and reported as they are, computed again on a rerun
    run = tmp_path / "run"
    import shutil

    shutil.copytree(simplest, run)
    path = run / MOVES_DIR / MOVES_FILE
    old = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    for rec in old:
        rec["schema_version"] = 2
        rec["settings"].pop("max_worlds")
        rec["settings"].pop("stream")
        for m in rec["decisions"]:
            for key in ("ses", "loss_se", "worlds"):
                m.pop(key)
    path.write_text("".join(json.dumps(r) + "\n" for r in old), encoding="utf-8")
    moves = stored_moves(run)
    assert set(moves) == {r["game_id"] for r in old}
    assert all(m.loss_se is None for line in moves.values() for m in line.decisions)
    assert not move_table(str(run)).empty
    again = run_moves(run, settings_for(worlds=1, max_worlds=1))
    assert all(line.schema_version == SCHEMA == 3 for line in again.values())
    assert all(m.loss_se is not None and m.worlds == 1 for x in again.values() for m in x.decisions)
