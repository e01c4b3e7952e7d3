"""``league report --luck`` shows luck-adjusted scores next to the raw win rates (terminal,
CSV, Markdown) and stores them beside the run; the HTML report shows the stored ones."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from harness.analysis.run_luck import LUCK_DIR, LUCK_FILE, run_luck
from harness.cli.main import main
from harness.records import RunStore
from harness.report.figures import league_figures
from harness.runs import ROLE_ADJUSTED, build_report, markdown, save_report
from tests.bot_league import play_league

BOTS = """\
name: bots
players:
  - {name: rulebot, kind: bot}
  - {name: rulebot2, kind: bot}
  - {name: random, kind: random}
tables:
  - seats: [4]
games_per_table: 8
paired: true
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("luck")
    return play_league(root, BOTS, "bots")


def test_html_report_shows_only_stored_scores(run: Path) -> None:
    assert league_figures(run)["luck"] == []  # nothing stored yet: no section, no computing
    assert not (run / LUCK_DIR / LUCK_FILE).exists()


def test_report_has_a_luck_table_next_to_raw_rates(run: Path) -> None:
    plain = build_report(run)
    assert plain.luck.empty and "Luck-adjusted" not in markdown(plain)
    r = build_report(run, luck=True)
    t = r.luck
    players = set(t["player"])
    assert players == {"rulebot", "rulebot2", "random"}
    per_role = t[t["role"] != ROLE_ADJUSTED]
    merged = per_role.merge(r.win_rates, on=["player", "role"])
    assert len(merged) == len(per_role) == len(r.win_rates)
    assert (merged["win_rate_x"] == merged["win_rate_y"]).all()  # the raw rate is the league's
    assert (merged["seat_games"] == merged["games"]).all()
    assert ((t["adj_lo"] <= t["adjusted"]) & (t["adjusted"] <= t["adj_hi"])).all()
    assert "Luck-adjusted score by player × role" in markdown(r)
    out = save_report(r)
    rows = list(csv.DictReader((out / "luck.csv").open(encoding="utf-8")))
    assert {row["role"] for row in rows} >= {ROLE_ADJUSTED, "marshal"}


def test_scores_are_stored_and_reused(run: Path) -> None:
    path = run / LUCK_DIR / LUCK_FILE
    first = run_luck(run)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(RunStore(run).games()) == len(first)
    again = run_luck(run)
    assert path.read_text(encoding="utf-8").splitlines() == lines  # nothing recomputed
    assert again == first
    # every stored game: raw scores are the recorded results
    by_id = {g.game_id: g for g in RunStore(run).games()}
    for gid, rec in first.items():
        assert [i for i, v in enumerate(rec.raw) if v == 1.0] == by_id[gid].winners
    # a torn line is computed again, not fatal
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20], encoding="utf-8")
    assert run_luck(run) == first
    figures = league_figures(run)["luck"]
    assert figures and {f["player"] for f in figures} == {"rulebot", "rulebot2", "random"}
    assert all(json.dumps(f) for f in figures)


def test_cli_flag(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["league", "report", str(run), "--luck", "--no-save"]) == 0
    assert "luck-adjusted" in capsys.readouterr().out


def test_a_and_a_league_difference_is_zero_within_its_interval(run: Path) -> None:
    """Two identical rule-bot players: their luck-adjusted role-adjusted scores differ by 0
    within the 95 % interval of the difference (the two taken as independent)."""
    t = build_report(run, luck=True).luck
    rows = t[t["role"] == ROLE_ADJUSTED].set_index("player")
    a, b = rows.loc["rulebot"], rows.loc["rulebot2"]
    half = 1.959964 * (a["adj_se"] ** 2 + b["adj_se"] ** 2) ** 0.5
    assert half > 0
    assert abs(a["adjusted"] - b["adjusted"]) <= half


def test_html_report_has_the_luck_section(run: Path, tmp_path: Path) -> None:
    from harness.report import build_report as build_html

    run_luck(run)
    index = build_html(run, tmp_path / "html", workers=1).index.read_text(encoding="utf-8")
    table = index.split('id="luck-table"', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr>") == len(build_report(run, luck=True).luck) + 1  # + header
    assert "rulebot2" in table and "role-adjusted" in table
