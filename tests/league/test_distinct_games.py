"""Every game a distinct game: a paired schedule never plays one deal with one seating twice, its
game ids are those games had before rotations were skipped, and a run that holds copies (played
under the schedule that replayed them) is read with each copy counted once, says so in every
report, and resumes under the new schedule to exactly the games of a fresh run."""

from __future__ import annotations

import csv
import itertools
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from harness.cli.main import main
from harness.league import runner as runner_module
from harness.league.league_config import LeagueConfig, load_config, parse_config
from harness.league.schedule import (
    NAME_POOL,
    build_schedule,
    deal_seed,
    deals_and_seatings,
    distinct_rotations,
)
from harness.play.game_spec import GameSpec
from harness.records import GameRecord, RunStore
from harness.records.copies import distinct_games
from harness.runs import build_report, load_run

ROOT = Path(__file__).resolve().parents[2]
PAIR = """\
name: pair
players:
  - {name: rulebot, kind: bot}
  - {name: random, kind: random}
tables:
  - seats: [4]
games_per_table: 8
paired: true
shuffle_names: true
"""


def every_rotation(config: LeagueConfig) -> list[GameSpec]:
    """The schedule as it was before repeated seatings were skipped: game ``g`` of a table is
    rotation ``g % seats`` of deal ``g // seats`` (the reference the ids must keep)."""
    players = [p.name for p in config.players]
    out = []
    cells = list(dict.fromkeys((n, m) for t in config.tables for n in t.seats for m in t.modes))
    for seats, mode in cells:
        for g in range(config.games_per_table):
            deal, rotation = divmod(g, seats if config.paired else 1)
            if not config.paired:
                rotation = deal % seats
            seed = deal_seed(config.base_seed, seats, mode, deal)
            base = [players[(deal * seats + i) % len(players)] for i in range(seats)]
            lineup = tuple(base[(i - rotation) % seats] for i in range(seats))
            if config.shuffle_names:
                names = tuple(random.Random(f"{seed}:{rotation}:names").sample(NAME_POOL, seats))
            else:
                names = (lineup if len(set(lineup)) == seats
                         else tuple(f"{p} {i}" for i, p in enumerate(lineup)))  # fmt: skip
            out.append(GameSpec(f"{seats}p-{mode}-{g:04d}", seats, mode, seed, deal, rotation,
                                lineup, names))  # fmt: skip
    return out


def _config(players: int, seats: list[int], games: int, paired: bool = True) -> LeagueConfig:
    return parse_config(
        {
            "name": "x",
            "players": [{"name": f"p{i}", "kind": "bot"} for i in range(players)],
            "tables": [{"seats": seats, "modes": ["classic"]}],
            "games_per_table": games,
            "paired": paired,
        }
    )


@pytest.mark.parametrize(
    ("players", "paired"), list(itertools.product([1, 2, 3, 4, 5, 6], [True, False]))
)
def test_a_schedule_never_plays_a_deal_with_a_seating_twice(players: int, paired: bool) -> None:
    config = _config(players, [4, 5, 6, 7, 8], 41, paired)
    specs = build_schedule(config)
    assert Counter((s.seats, s.mode) for s in specs) == {
        (n, "classic"): 41 for n in (4, 5, 6, 7, 8)
    }
    seatings = [(s.seats, s.mode, s.seed, s.lineup) for s in specs]
    assert len(set(seatings)) == len(seatings)  # no copy
    assert len({s.game_id for s in specs}) == len(specs)
    assert build_schedule(config) == specs  # deterministic
    # a game keeps the id, seed, lineup and names it had when every rotation was played
    reference = {
        s.game_id: s for s in every_rotation(config.model_copy(update={"games_per_table": 8 * 41}))
    }
    for s in specs:
        assert reference[s.game_id] == s
    if not paired:
        assert specs == every_rotation(config)  # unpaired schedules are unchanged
        return
    for (seats, _mode), table in itertools.groupby(specs, key=lambda s: (s.seats, s.mode)):
        deals = [list(g) for _d, g in itertools.groupby(table, key=lambda s: s.deal)]
        assert [d[0].deal for d in deals] == list(range(len(deals)))  # more deals, none skipped
        for i, games in enumerate(deals):
            period = distinct_rotations(games[0].lineup)
            assert period == (len(set(games[0].lineup)) if seats % players == 0 else seats)
            assert [g.rotation for g in games] == list(range(len(games)))
            if i < len(deals) - 1:  # only the table's last deal may be cut short
                assert len(games) == period
            if len(games) == period:  # a whole deal: every seat sees the players alike
                sitting = [Counter(g.lineup[seat] for g in games) for seat in range(seats)]
                assert all(c == sitting[0] for c in sitting)
                assert set(sitting[0]) == set(games[0].lineup)


def test_distinct_rotations_by_hand() -> None:
    assert distinct_rotations(("A", "B", "A", "B")) == 2
    assert distinct_rotations(("A", "B", "A", "B", "A")) == 5
    assert distinct_rotations(("A", "B", "C", "A", "B", "C")) == 3
    assert distinct_rotations(("A", "B", "C", "D", "A", "B")) == 6
    assert distinct_rotations(("A",) * 4) == 1


def test_the_quickstart_plays_350_distinct_games() -> None:
    config = load_config(ROOT / "configs" / "quickstart.yaml")
    specs = build_schedule(config)
    assert len(specs) == 350
    assert len({(s.seats, s.mode, s.seed, s.lineup) for s in specs}) == 350
    # the same games would look distinct by their seat names: names play no part in a seating
    assert len({(s.seats, s.mode, s.seed, s.lineup) for s in every_rotation(config)}) == 270
    assert deals_and_seatings(specs) == (
        "4p classic 35 deals × 2 seatings · 5p classic 14 deals × 5 seatings · "
        "6p classic 35 deals × 2 seatings · 7p classic 10 deals × 7 seatings · "
        "5p double_agent 14 deals × 5 seatings"
    )


def test_a_deal_cut_short_is_said() -> None:
    specs = build_schedule(_config(3, [4], 10))
    assert deals_and_seatings(specs) == "4p classic 2 deals × 4 seatings + 1 deal × 2 seatings"


# ------------------------------------------------------------------ a run that holds copies


def _play(tmp_path: Path, name: str, schedule: Any, monkeypatch: pytest.MonkeyPatch,
          *extra: str) -> tuple[int, str]:  # fmt: skip
    """Run ``PAIR`` (named ``name``) into ``tmp_path/out`` with ``schedule`` as the league's
    schedule; returns the exit code and stdout."""
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(PAIR.replace("name: pair", f"name: {name}"), encoding="utf-8")
    monkeypatch.setattr(runner_module, "build_schedule", schedule)
    argv = ["league", "run", str(cfg), "--output", str(tmp_path / "out"), "--workers", "1",
            "--no-progress", *extra]  # fmt: skip
    return main(argv), str(cfg)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``old``: PAIR played under the schedule that replayed every rotation (8 games: 2 deals ×
    4 rotations, half of them copies); ``fresh``: PAIR played now (4 deals × 2 seatings)."""
    root = tmp_path_factory.mktemp("copies")
    mp = pytest.MonkeyPatch()
    try:
        assert _play(root, "old", every_rotation, mp)[0] == 0
        assert _play(root, "fresh", build_schedule, mp)[0] == 0
    finally:
        mp.undo()
    return {"old": root / "out" / "old", "fresh": root / "out" / "fresh", "root": root}


def _seats(g: GameRecord) -> list[tuple[Any, ...]]:
    return [(o.seat, o.player, o.role, o.won, o.decisions) for o in g.seat_outcomes]


def _outcomes(run: Path) -> dict[str, Any]:
    return {g.game_id: _seats(g) for g in RunStore(run).games()}


def test_copies_are_the_repeated_rotations_and_play_the_same(runs: dict[str, Path]) -> None:
    store = RunStore(runs["old"])
    every = store.all_games()
    assert len(every) == 8
    read = distinct_games(every)
    assert [(c.game_id, c.of) for c in read.copies] == [
        ("4p-classic-0002", "4p-classic-0000"), ("4p-classic-0003", "4p-classic-0001"),
        ("4p-classic-0006", "4p-classic-0004"), ("4p-classic-0007", "4p-classic-0005"),
    ]  # fmt: skip
    by_id = {g.game_id: g for g in every}
    for c in read.copies:  # the same game: same events, different seat names
        copy, kept = store.read_game(c.game_id), store.read_game(c.of)
        assert copy[2].events == kept[2].events
        assert [s.name for s in copy[0].seating] != [s.name for s in kept[0].seating]
        assert _seats(by_id[c.game_id]) == _seats(by_id[c.of])
    # the games the old run shares with the new schedule are the fresh run's games
    fresh = _outcomes(runs["fresh"])
    assert {g: o for g, o in _outcomes(runs["old"]).items()} == {
        g: fresh[g]
        for g in ("4p-classic-0000", "4p-classic-0001", "4p-classic-0004", "4p-classic-0005")
    }


def test_a_run_with_copies_is_read_once_and_says_so_everywhere(
    runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "old"
    shutil.copytree(runs["old"], run)
    data = load_run(run)
    assert len(data.games) == 4 and len(data.seats) == 16 and len(data.copies) == 4
    note = (
        "4 games of the run replay the deal and seating of another game (a paired rotation "
        "that repeats a seating, e.g. 4p-classic-0002 = 4p-classic-0000): counted once, "
        "4 distinct games"
    )
    assert data.copies_note == note
    report = build_report(run, bootstrap=0)
    assert report.games == 4 and int(report.win_rates["games"].sum()) == 16
    # terminal, Markdown and flags.csv: the one line
    capsys.readouterr()
    assert main(["league", "report", str(run), "--bootstrap", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.count(note) == 1
    assert f"- {note}" in (run / "report" / "report.md").read_text(encoding="utf-8")
    rows = list(csv.DictReader((run / "report" / "flags.csv").open(encoding="utf-8")))
    assert [r["message"] for r in rows if r["kind"] == "note"] == [note]
    # the HTML report: its run checks hold the line, its game list the distinct games
    assert main(["report", str(run), "--out", str(tmp_path / "html")]) == 0
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert 'id="copies-note"' in index and "Games that replay the deal and seating" in index
    assert "4p-classic-0002" not in index and "4p-classic-0001" in index
    # the leaderboard
    capsys.readouterr()
    assert main(["leaderboard", str(run), "--out", str(tmp_path / "lb"), "--bootstrap", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"run old: {note}" in out
    # a run without copies says nothing of them
    assert load_run(runs["fresh"]).copies_note is None
    assert "replay the deal and seating" not in build_report(runs["fresh"], bootstrap=0).flags.notes


def test_a_run_with_copies_resumes_to_the_games_of_a_fresh_run(
    runs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    out = tmp_path / "out"
    shutil.copytree(runs["old"], out / "old")
    capsys.readouterr()
    code, _cfg = _play(tmp_path, "old", build_schedule, monkeypatch, "--resume")
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("league old: 8 games (4 already finished)")
    assert lines[1] == (
        "  deals × seatings: 4p classic 4 deals × 2 seatings (rotations that repeat a seating "
        "are skipped)"
    )
    resumed = _outcomes(out / "old")
    assert resumed == _outcomes(runs["fresh"])  # the 8 distinct games of a fresh run
    assert len(RunStore(out / "old").copies()) == 4
    # a second resume has nothing left to play
    code, _cfg = _play(tmp_path, "old", build_schedule, monkeypatch, "--resume")
    assert code == 0 and "all 8 games already finished" in capsys.readouterr().out


def test_games_of_one_rotation_are_never_copies(runs: dict[str, Path]) -> None:
    """The web table's and Inspect's games are each their own deal at rotation 0: two with the
    same seed and seating (people decide differently) are both kept."""
    g = RunStore(runs["fresh"]).games()[0]
    twin = g.model_copy(update={"game_id": "web-2"})
    assert len(distinct_games([g, twin]).games) == 2
    again = g.model_copy(update={"game_id": "x", "rotation": g.rotation + 2})
    assert distinct_games([again, g]).copies[0].of == g.game_id  # lowest rotation kept
    void = g.model_copy(update={"void": "20 consecutive fallbacks"})
    kept = again.model_copy(update={"game_id": "y"})
    assert [c.of for c in distinct_games([void, kept]).copies] == ["y"]  # a result is kept first
