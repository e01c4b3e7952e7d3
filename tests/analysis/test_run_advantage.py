"""Advantage-adjusted scores of a run (harness.analysis.run_advantage) and their columns in
``league report --luck``: stored per game with the departures, resumed, the same on several
processes, and refused when a seat recorded as the rule bot did not play as the play-outs' bot."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from harness.analysis.advantage import PlayoutRule
from harness.analysis.run_advantage import (
    ADVANTAGE_DIR,
    ADVANTAGE_FILE,
    RULE_ENV,
    AdvantageLine,
    default_rule,
    run_advantage,
)
from harness.cli.main import main
from harness.records import RunStore
from harness.records.store import RecordError
from harness.runs import ROLE_ADJUSTED, build_report
from tests.bot_league import play_league

LEAGUE = """\
name: adv
players:
  - {name: a, kind: bot}
  - {name: b, kind: bot}
  - {name: r, kind: random}
tables:
  - seats: [4]
games_per_table: 4
paired: true
"""

RULE = PlayoutRule(start=2, bound=0.0, cap=2)


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_league(tmp_path_factory.mktemp("adv"), LEAGUE, "adv")


@pytest.fixture
def run(league: Path, tmp_path: Path) -> Path:
    out = tmp_path / "adv"
    shutil.copytree(league, out)
    shutil.rmtree(out / ADVANTAGE_DIR, ignore_errors=True)
    return out


def _kinds(run: Path, gid: str) -> list[str]:
    start = RunStore(run).read_game(gid)[0]
    return [p.kind for p in sorted(start.seating, key=lambda p: p.seat)]


def test_lines_hold_the_departures_of_the_random_seat_only(run: Path) -> None:
    lines = run_advantage(run, RULE)
    assert len(lines) == 4
    departed = 0
    for gid, line in lines.items():
        kinds = _kinds(run, gid)
        assert line.policies == ["rulebot" if k == "bot" else "unknown" for k in kinds]
        for d in line.departures:
            assert kinds[d.seat] == "random" and d.chosen not in d.reference
            assert d.playouts == 2
        departed += len(line.departures)
        total = np.array(line.deal_value) + sum(
            (np.array(d.advantage) for d in line.departures), np.zeros(len(kinds))
        )
        np.testing.assert_allclose(line.adjusted, total, atol=1e-5)
        assert line.raw == [float(x) for x in line.raw] and set(line.raw) <= {0.0, 1.0}
    assert departed > 0  # a random seat leaves the rule bot's choice


def test_stored_lines_resume(run: Path) -> None:
    first = run_advantage(run, RULE)
    path = run / ADVANTAGE_DIR / ADVANTAGE_FILE
    told: list[tuple[int, int]] = []
    assert run_advantage(run, RULE, progress=lambda d, t: told.append((d, t))) == first
    assert told == [(0, 0)]
    text = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(text[:-1]) + "\n" + text[-1][:20], encoding="utf-8")  # torn
    told.clear()
    assert run_advantage(run, RULE, progress=lambda d, t: told.append((d, t))) == first
    assert told == [(0, 1), (1, 1)]
    other = PlayoutRule(start=3, bound=0.0, cap=3)  # another rule: computed again
    assert {line.rule for line in run_advantage(run, other).values()} == {other.key()}
    assert run_advantage(run, compute=False).keys() == first.keys()


def test_two_processes_give_the_same_lines(run: Path, tmp_path: Path) -> None:
    one = run_advantage(run, RULE)
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    shutil.rmtree(copy / ADVANTAGE_DIR)
    assert run_advantage(copy, RULE, workers=2) == one


def test_a_seat_that_is_not_the_rule_bot_recorded_as_one_is_refused(run: Path) -> None:
    # the random player's seats recorded as rule bots: the play-outs would assume a policy the
    # table did not play, so the game is refused with its id and decision
    for path in (run / "games").glob("*.jsonl"):
        lines = path.read_text(encoding="utf-8").splitlines()
        start = json.loads(lines[0])
        for p in start["seating"]:
            if p["kind"] == "random":
                p["kind"] = "bot"
        lines[0] = json.dumps(start)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"game .* decision \d+: .*not the table's bots"):
        run_advantage(run, RULE)


def test_bad_rule_in_the_environment_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RULE_ENV, "8:x")
    with pytest.raises(RecordError, match="start:bound:cap"):
        default_rule()
    monkeypatch.setenv(RULE_ENV, "3:0.1:6")
    assert default_rule() == PlayoutRule(3, 0.1, 6)


def test_report_shows_advantage_adjusted_scores(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = build_report(run, luck=True).luck  # --luck alone computes no play-outs
    assert t["advantage"].isna().all() and not (run / "analysis" / "advantage.jsonl").exists()
    t = build_report(run, luck=True, advantage=True).luck
    assert {"advantage", "adv_lo", "adv_hi"} <= set(t.columns)
    assert t["advantage"].notna().all()
    stored = {
        gid: AdvantageLine.model_validate(line)
        for gid, line in run_advantage(run, compute=False).items()
    }
    assert len(stored) == 4
    rows = t[t["role"] != ROLE_ADJUSTED]
    assert (rows["seat_games"] > 0).all()
    capsys.readouterr()
    assert main(["league", "report", str(run), "--luck", "--no-save", "--no-progress"]) == 0
    assert "advantage-adjusted" in capsys.readouterr().out


def test_league_report_computes_advantages_only_when_asked(run: Path) -> None:
    """``--luck`` reads the stored advantage-adjusted scores and plays no play-outs (they take
    minutes per game); ``--advantage`` computes and stores the missing ones."""
    stored = run / "analysis" / "advantage.jsonl"
    assert main(["league", "report", str(run), "--luck", "--no-save", "--no-progress"]) == 0
    assert not stored.exists()
    argv = ["league", "report", str(run), "--advantage", "--no-save", "--no-progress"]
    assert main(argv) == 0
    assert len(run_advantage(run, compute=False)) == 4


def test_html_report_has_the_advantage_column_once_stored(run: Path, tmp_path: Path) -> None:
    from harness.analysis.run_luck import run_luck
    from harness.report import build_report as build_html

    run_luck(run)  # the report's default samples: the HTML report reads those

    def table(out: str) -> str:
        index = build_html(run, tmp_path / out, workers=1).index.read_text(encoding="utf-8")
        return index.split('id="luck-table"', 1)[1].split("</table>", 1)[0]

    assert "Advantage-adjusted" not in table("before")  # not computed: no column
    run_advantage(run, RULE)
    after = table("after")
    assert "Advantage-adjusted" in after
    assert after.count("<td") == 6 * (after.count("<tr>") - 1)  # six cells a row below the header
