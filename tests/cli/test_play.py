"""Terminal play drawn with rich (harness.views.terminal, harness.agents.human): a table of
seats, coloured ♥ and suits, only what changed printed again, a forced move made with a note,
``--watch`` paced by ``--speed``; ``replay --step`` refuses unknown keys."""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from harness.agents.human import HumanAgent, Screen
from harness.cli import play_cmd
from harness.cli.main import main
from harness.engine import Game, build_view
from harness.views.names import default_names

ROOT = Path(__file__).resolve().parents[2]


def screen(locale: str = "en", color: bool = False) -> tuple[Screen, io.StringIO]:
    out = io.StringIO()
    console = Console(
        file=out, width=140, force_terminal=color, color_system="standard" if color else None
    )
    return Screen(default_names(4), locale, console), out


class NoInput:
    fd = -1

    async def readline(self) -> str | None:
        raise AssertionError("a forced move must not wait for input")


def game_at(predicate, seed: int = 3) -> Game:  # type: ignore[no-untyped-def]
    """A 4-seat game played at random until ``predicate(game)`` holds."""
    game = Game.new(4, "classic", seed)
    rng = random.Random(seed)
    while not predicate(game):
        options = game.pending.options
        game.apply(options[rng.randrange(len(options))])
    return game


def test_a_single_option_is_made_at_once_with_a_one_line_note() -> None:
    game = game_at(lambda g: len(g.pending.options) == 1)
    seat = game.pending.seat
    sc, out = screen()
    agent = HumanAgent("Ada", sc, reader=NoInput())  # type: ignore[arg-type]
    view = build_view(game, seat)
    only = game.pending.option_ids[0]
    assert asyncio.run(agent.choose(view, [only])) == only
    text = out.getvalue()
    assert f"Only one move: {sc.label(view, only)} — made for you." in text
    assert "Your choice" not in text


WEAPONS = ("play:volcanic", "play:sawed_off", "play:rifle", "play:carbine", "play:long_rifle")


def test_the_table_is_drawn_once_then_only_changed_rows() -> None:
    game = game_at(
        lambda g: (
            g.pending.seat == 0
            and g.pending.kind == "play"
            and any(o in WEAPONS for o in g.pending.option_ids)
        )
    )
    sc, out = screen()
    names = default_names(4)
    sc.show(build_view(game, 0))
    first = out.getvalue()
    assert "Player" in first and "Weapon (range)" in first and "Your hand (" in first
    table = first.split("╭")[0]
    assert all(re.search(rf"\b{n}\b", table) for n in names)
    assert "changed since your last decision" not in first
    # equipping a weapon changes only seat 0's row: only that row is drawn again
    game.apply(next(o for o in game.pending.option_ids if o in WEAPONS))
    out.truncate(0)
    out.seek(0)
    sc.show(build_view(game, 0))
    again = out.getvalue()
    assert "changed since your last decision" in again
    rows = again.split("changed since your last decision")[1].split("╭")[0]
    assert [n for n in names if re.search(rf"\b{n}\b", rows)] == [names[0]]


def test_hearts_and_red_suits_are_coloured() -> None:
    game = game_at(lambda g: g.pending.seat == 0 and g.pending.kind == "play")
    sc, out = screen(color=True)
    sc.show(build_view(game, 0))
    text = out.getvalue()
    assert "\x1b[31m♥" in text or "\x1b[1;31m♥" in text  # ♥ in red
    assert "\x1b[" in text


def test_watch_is_paced_by_speed_in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    assert play_cmd.pause_for("slow", True) > play_cmd.pause_for("normal", True)
    assert play_cmd.pause_for("normal", True) > play_cmd.pause_for("fast", True) > 0
    assert play_cmd.pause_for("slow", False) == 0.0  # a pipe or a file is never slowed down
    out = io.StringIO()
    monkeypatch.setattr(
        play_cmd, "console_for", lambda: Console(file=out, force_terminal=True, width=120)
    )
    pauses: list[float] = []
    args = argparse.Namespace(seats=4, mode="classic", seed=3, seat=0, time=None,
                              opponents="random", watch=True, speed="fast", locale="en")  # fmt: skip
    assert play_cmd.run(args, sleep=pauses.append) == 0
    assert pauses and set(pauses) == {play_cmd.SPEEDS["fast"]}
    assert "Game over" in out.getvalue()


def test_russian_table_says_4_mesta() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "harness.cli.main", "play", "--seats", "4", "--seed", "3",
         "--opponents", "random", "--locale", "ru"],
        input="1\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "Новая партия: 4 места" in p.stdout and "4 мест," not in p.stdout
    assert "Твоя рука (" in p.stdout and "Ввод закончился — партия брошена." in p.stdout


def test_replay_step_refuses_unknown_keys_with_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.league.league_config import parse_config
    from harness.league.runner import LeagueRunner

    config = parse_config(
        {"name": "one", "players": [{"name": "b", "kind": "bot"}],
         "tables": [{"seats": [4]}], "games_per_table": 1, "paired": False,
         "output": str(tmp_path)}
    )  # fmt: skip
    asyncio.run(LeagueRunner(config, tmp_path / "one", workers=1).run())
    run = tmp_path / "one"
    gid = (run / "games.jsonl").read_text().split('"game_id":"')[1].split('"')[0]
    monkeypatch.setattr("sys.stdin", io.StringIO("x\n\n7\nzz\nq\n"))
    assert main(["replay", str(run), "--game", gid, "--step"]) == 0
    out = capsys.readouterr().out
    assert out.count("unknown key 'x': Enter (or n) = next step, b = back") == 1
    assert "unknown key 'zz'" in out
    steps = [int(s) for s in re.findall(r"step (\d+)/\d+ ·", out)]
    assert steps == [1, 2, 7]  # x stays on step 1, Enter goes on, 7 jumps
