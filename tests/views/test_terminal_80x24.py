"""`bangarena play` in an 80 × 24 terminal: the seat table keeps every header and cell whole (no
"…"), each seat's weapon and range are on the screen, and the table, hand and options fit above
the prompt, so the table does not scroll away before the person answers."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from harness.agents.human import Screen
from harness.agents.rulebot import RuleBot
from harness.engine import Game, build_view
from harness.views.context import view_context
from harness.views.names import default_names
from harness.views.terminal import words


def _positions(seats: int, mode: str, seed: int, every: int = 23):
    """Play decisions of a rule-bot game, every ``every``-th one."""
    game = Game.new(seats, mode, seed)
    bots = [RuleBot(f"b{i}") for i in range(seats)]
    for i, bot in enumerate(bots):
        bot.new_game("t", i, seed)
    step = 0
    while game.pending is not None:
        d = game.pending
        view = build_view(game, d.seat)
        if d.kind == "play" and step % every == 0:
            yield game, view
        game.apply(bots[d.seat].decide(view, d.option_ids))
        step += 1


@pytest.mark.parametrize(("seats", "mode", "locale"), [(8, "double_agent", "en"),
                                                        (7, "classic", "ru"),
                                                        (8, "partners", "en")])  # fmt: skip
def test_the_table_and_the_options_fit_an_80_by_24_terminal(
    seats: int, mode: str, locale: str
) -> None:
    names = default_names(seats)
    w = words(locale)
    shown = 0
    for _game, view in _positions(seats, mode, seed=11):
        buf = io.StringIO()
        console = Console(file=buf, width=80, height=24, force_terminal=True, color_system=None)
        Screen(names, locale, console).show(view, whole=True)
        lines = buf.getvalue().splitlines()
        assert max(len(line) for line in lines) <= 80
        assert "…" not in buf.getvalue()  # nothing cut
        head = " ".join(lines[:2])  # every header whole (a long one may take two lines)
        assert all(word in head.split() for col in w.columns for word in col.split())
        ctx = view_context(view, names, locale)
        for s in ctx["seats"]:  # each seat's row: its weapon and range and its role, whole
            weapon = (s["weapon"] or w.revolver).split(" ")[0]
            row = next(r for r in lines if r[2:].startswith(s["name"]))
            assert weapon in row and f"({s['range']})" in row, row
            assert (s["role_name"] or w.unknown_role).split(" ")[0] in row, row
        options = len(ctx["decision"]["options"])
        if options <= 8:  # the table, hand and options above the prompt line
            assert len(lines) <= 23, "\n".join(lines)
        shown += 1
    assert shown >= 3
