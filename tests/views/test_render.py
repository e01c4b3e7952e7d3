"""Seat views as Markdown and JSON, rules documents and prompts (views issue)."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from harness.agents import RandomAgent
from harness.agents.table import play_game
from harness.engine import Game, SeatView, build_view
from harness.views import rules_doc
from harness.views.names import default_names
from harness.views.prompts import PromptBuilder
from harness.views.render import render_json, render_markdown
from harness.views.render_context import SCHEMA_VERSION
from tests.views.hidden_text import check_rendered_text_hides


def _mid_game(seats: int = 7, mode: str = "classic", seed: int = 5, steps: int = 40) -> Game:
    game = Game.new(seats, mode, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.pending is None:
            break
        game.apply(rng.choice(game.pending.options))
    return game


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_rendered_text_shows_nothing_hidden(locale: str) -> None:
    """RULES.md §9 on the rendered text: re-dealing what a seat cannot see leaves its Markdown
    view, JSON view and prompts byte-identical."""
    rng = random.Random(3)
    checked = sum(
        check_rendered_text_hides(Game.new(7, "double_agent", seed), locale, rng, every=9)
        for seed in range(3)
    )
    assert checked > 30


def test_markdown_view_has_the_table_hand_feed_and_numbered_options() -> None:
    game = _mid_game()
    d = game.pending
    assert d is not None
    view = build_view(game, d.seat, since=len(game.events) - 5)
    md = render_markdown(view, default_names(7))
    assert md.startswith("**Round ")
    assert md.count("\n| ") == 7 + 1  # header row + one row per seat
    assert "**Your hand**" in md and "**Since your last decision:**" in md
    for i, oid in enumerate(d.option_ids, 1):
        assert f"{i}. `{oid}` — " in md


def test_json_view_matches_the_markdown_content() -> None:
    game = _mid_game()
    d = game.pending
    assert d is not None
    view = build_view(game, d.seat)
    names = default_names(7)
    data = render_json(view, names)
    assert data["schema_version"] == SCHEMA_VERSION
    json.dumps(data)  # plain JSON
    assert [o["id"] for o in data["decision"]["options"]] == d.option_ids
    assert len(data["seats"]) == 7 and data["you"]["role"] == game.seats[d.seat].role
    md = render_markdown(view, names)
    for o in data["decision"]["options"]:
        assert o["label"] in md
    for s in data["seats"]:
        assert s["name"] in md


def test_options_have_human_labels() -> None:
    from harness.engine import load_position
    from tests.engine.test_positions import EXAMPLE

    game = load_position(EXAMPLE.read_text())
    view = build_view(game, 0)
    labels = {
        o["id"]: o["label"] for o in render_json(view, default_names(4))["decision"]["options"]
    }
    assert labels["play:shot@1"] == "Shot → Bill (distance 1)"
    assert labels["play:duel@2"] == "Duel → Cole"
    assert labels["end"] == "End your turn"
    ru = {
        o["id"]: o["label"]
        for o in render_json(view, default_names(4), "ru")["decision"]["options"]
    }
    assert ru["end"] == "Завершить ход"


def test_rules_md_is_up_to_date() -> None:
    """rules_md/ must equal a fresh build from the engine's data (bangarena rules build)."""
    assert rules_doc.stale() == []


def test_rules_json_has_every_card_and_character() -> None:
    data = rules_doc.rules_data()
    assert sum(c["copies"] for c in data["cards"]) == 80
    assert sum(len(c["cards"]) for c in data["cards"]) == 80
    assert len(data["characters"]) == 16
    assert data["compositions"]["double_agent"]["5"]["double_agent"] == 1


def test_system_prompt_is_byte_identical_for_a_seat_across_a_game() -> None:
    names = default_names(6)
    builder = PromptBuilder(names)
    seen: dict[int, str] = {}

    def hook(game: Game, view: SeatView, decided: object) -> None:
        text = builder.system_prompt(view)
        assert seen.setdefault(view.viewer, text) == text

    game = Game.new(6, "double_agent", 8)
    asyncio.run(play_game(game, [RandomAgent(str(i), i) for i in range(6)], on_decision=hook))
    assert len(seen) == 6
    assert "rules" not in seen[0][:20] and "# BangArena rules" in seen[0]
