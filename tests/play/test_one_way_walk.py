"""A game's walk goes one way: the table yields each decision (:meth:`Table.steps`) and the
recorder consumes it; the table imports nothing of the floors that seat and record it, and the
league, the web table and Inspect hand it no callback."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

from harness.agents import RandomAgent
from harness.agents.table import Step, Table
from harness.engine import Game
from tests.package_graph import imported_names

HARNESS = Path(__file__).resolve().parents[2] / "harness"
ABOVE = ("harness.play", "harness.league", "harness.web", "harness.integrations", "harness.cli")
CALLERS = (
    "league/game_play.py",
    "web/match.py",
    "integrations/inspect_task.py",
    "integrations/inspect_samples.py",
)


def test_the_table_imports_nothing_of_the_floors_above_it() -> None:
    got = imported_names(HARNESS / "agents" / "table.py")
    assert not [m for m in got if m.startswith(ABOVE)], got


def test_league_web_and_inspect_pass_the_table_no_callback() -> None:
    for rel in CALLERS:
        tree = ast.parse((HARNESS / rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name in ("Table", "play_game"):
                    keys = {k.arg for k in node.keywords}
                    assert "on_decision" not in keys, f"{rel}:{node.lineno}"
        text = (HARNESS / rel).read_text(encoding="utf-8")
        assert "on_decision" not in text, rel
        assert ".play()" not in text, rel  # the walk is consumed, not called back


def test_steps_yield_each_decision_before_it_is_applied() -> None:
    async def walk() -> tuple[list[tuple[int, int, str]], Table]:
        game = Game.new(4, "classic", 11)
        table = Table(game, [RandomAgent(str(i), seed=i) for i in range(4)])
        seen = []
        async for step in table.steps():
            assert isinstance(step, Step) and step.game is game
            pending = game.pending
            assert pending is not None and step.decided.option in pending.option_ids
            assert step.view.viewer == pending.seat
            seen.append((pending.seat, len(game.events), step.decided.option))
        return seen, table

    seen, table = asyncio.run(walk())
    result = table.result()
    assert result.game.winning_side is not None and result.void is None
    assert len(seen) == sum(st.decisions for st in result.stats)
    # the same game played with play() makes the same choices
    again = Table(Game.new(4, "classic", 11), [RandomAgent(str(i), seed=i) for i in range(4)])
    heard: list[tuple[int, int, str]] = []
    again.on_decision = lambda g, v, d: heard.append((v.viewer, len(g.events), d.option))
    asyncio.run(again.play())
    assert heard == seen
