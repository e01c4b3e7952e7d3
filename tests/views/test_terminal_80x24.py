"""`bangarena play` in an 80 × 24 terminal: the seat table keeps every header and cell whole (no
"…"), each seat's weapon and range are on the screen, and the table, hand and options fit above
the prompt, so the table does not scroll away before the person answers."""

from __future__ import annotations

import io

import pytest
from jinja2 import Environment, FileSystemLoader
from rich.console import Console

from harness.agents.human import Screen
from harness.agents.rulebot import RuleBot
from harness.engine import Game, build_view
from harness.paths import PROMPTS_DIR
from harness.views.names import card_effect, card_name, character_ability, default_names
from harness.views.render_context import view_context
from harness.views.terminal import first_sentence, words


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


@pytest.mark.parametrize(("seats", "mode", "locale"), [(8, "double_agent", "en"),
                                                        (7, "classic", "ru"),
                                                        (8, "partners", "zh"),
                                                        (6, "classic", "ja"),
                                                        (8, "classic", "ar")])  # fmt: skip
def test_your_role_and_goal_stay_on_screen_at_80_by_24(seats: int, mode: str, locale: str) -> None:
    """What is still on an 80 × 24 screen above the prompt after a decision is drawn (its last
    23 lines) holds your role and the first sentence of your goal, for every role dealt."""
    names = default_names(seats)
    roles = set()
    for _game, view in _positions(seats, mode, seed=3, every=5):
        ctx = view_context(view, names, locale)
        if len(ctx["decision"]["options"]) > 15:  # a long list of options scrolls it away
            continue
        buf = io.StringIO()
        console = Console(file=buf, width=80, height=24, force_terminal=True, color_system=None)
        Screen(names, locale, console).show(view, whole=True)
        visible = "".join("".join(buf.getvalue().splitlines()[-23:]).split())
        goal = first_sentence(str(roles_of(locale).goal(ctx["you"]["role"], mode)))
        assert len(goal) < len(str(roles_of(locale).goal(ctx["you"]["role"], mode)))
        goal = "".join(goal.split())
        assert goal in visible, visible
        before = visible[: visible.index(goal)][-30:]  # "Ada, Marshal — " just before it
        assert "".join(ctx["you"]["role_name"].split()) in before, visible
        roles.add(ctx["you"]["role"])
    assert len(roles) >= 3


def roles_of(locale: str):  # type: ignore[no-untyped-def]
    """The role goals of ``locale`` (``prompts/roles.<locale>.j2``)."""
    env = Environment(loader=FileSystemLoader(PROMPTS_DIR))
    return env.get_template(f"roles.{locale}.j2").module


def test_question_mark_explains_the_cards_and_the_characters() -> None:
    """``?`` shows, besides how to answer, each card type in your hand and in play on the table
    with its effect, and each living character at the table with its ability."""
    names = default_names(8)
    for locale in ("en", "ru"):
        checked = 0
        for _game, view in _positions(8, "classic", seed=5, every=9):
            buf = io.StringIO()
            console = Console(file=buf, width=80, height=24, force_terminal=True, color_system=None)
            Screen(names, locale, console).explain(view, 3)
            text = "".join(buf.getvalue().split())
            w = words(locale)
            assert "".join(str(w.help(3)).split()) in text
            in_play = {
                f.split(".")[0] for s in view.seats for f in (*s.in_play, s.weapon or "") if f
            }
            for card in {f.split(".")[0] for f in view.hand} | in_play:
                assert (
                    "".join(f"{card_name(card, locale)} — {card_effect(card, locale)}".split())
                    in text
                )
            for s in view.seats:
                ability = "".join(character_ability(s.character, locale).split())
                assert (ability in text) == s.alive
            checked += bool(in_play) and not all(s.alive for s in view.seats)
        assert checked >= 2
