"""Seat views, narration, option labels and prompts in Chinese, Japanese and Arabic go through
the checks English has (issue 15): nothing hidden shows (RULES.md §9), Markdown and JSON carry the
same labels, every history policy builds its messages, and the text is in the seat's language."""

from __future__ import annotations

import random
import re

import pytest

from harness.agents.transcript import Transcript
from harness.engine import Game, build_view
from harness.views.names import default_names, feed_title, glossary
from harness.views.prompts import PromptBuilder, system_prompt_text
from harness.views.public_record import public_record
from harness.views.render import render_json, render_markdown
from tests.views.hidden_text import check_rendered_text_hides

NEW = ("zh", "ja", "ar")
# words of the English view and prompts that a translated one never shows
ENGLISH = re.compile(r"\b(Round|Your hand|Decision|Roles at the table|You are|Goal|draws|plays|"
                     r"discards|Answer with)\b")  # fmt: skip


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.pending is None:
            return
        game.apply(rng.choice(game.pending.options))


@pytest.mark.parametrize("locale", NEW)
def test_rendered_text_shows_nothing_hidden(locale: str) -> None:
    """RULES.md §9 on the rendered text: re-dealing what a seat cannot see leaves its Markdown
    view, JSON view and prompts byte-identical."""
    game = Game.new(7, "double_agent", 4)
    assert check_rendered_text_hides(game, locale, random.Random(11), every=23) >= 21


@pytest.mark.parametrize("locale", NEW)
def test_views_and_prompts_are_in_the_seats_language(locale: str) -> None:
    g = glossary(locale)
    names = default_names(5)
    game = Game.new(5, "double_agent", 8)
    _play(game, random.Random(8), 40)
    assert game.pending is not None
    view = build_view(game, game.pending.seat, since=len(game.events) - 10)
    md = render_markdown(view, names, locale)
    data = render_json(view, names, locale)
    assert data["locale"] == locale and data["table"]["mode_name"] == g.modes["double_agent"]
    assert data["you"]["role_name"] == g.roles[data["you"]["role"]]
    for o in data["decision"]["options"]:
        assert f"`{o['id']}` — {o['label']}" in md
    for c in data["hand"]:
        assert c["label"].rsplit(" ", 1)[0] in {card.name for card in g.cards.values()}
        assert c["label"] in md
    for s in data["seats"]:
        assert f"| {s['name']}" in md and s["character_name"] in md
    assert f"**{feed_title('decision', locale)}" in md
    prompt = PromptBuilder(names, locale).decision_prompt(view)
    system = system_prompt_text(locale)
    for text in (md, prompt, system.split("# ")[1]):
        assert not ENGLISH.search(text), ENGLISH.search(text)
    assert system.startswith({"zh": "你正在玩", "ja": "あなたは", "ar": "أنت تلعب"}[locale])
    assert '{"choice": "<' in system and "BangArena" in system


@pytest.mark.parametrize("locale", NEW)
@pytest.mark.parametrize("policy", ["conversation", "log", "since_last"])
def test_every_history_policy_builds_its_messages(locale: str, policy: str) -> None:
    """A whole game through one seat's transcript, compacted (a public record) under a small
    budget: every request starts with the locale's system prompt."""
    names = default_names(4)
    game = Game.new(4, "classic", 21)
    rng = random.Random(21)
    t = Transcript(names, locale, policy, context_tokens=5000 if policy == "conversation" else None,
                   log_feed_tokens=300)  # fmt: skip
    requests = 0
    while game.pending is not None:
        d = game.pending
        if d.seat == 0 and len(d.options) > 1:
            messages = t.request(build_view(game, 0))
            assert messages[0]["content"] == system_prompt_text(locale)
            t.answered('{"choice": "end"}')
            requests += 1
        game.apply(rng.choice(d.options))
    assert requests > 5
    if policy == "conversation":
        assert t.compactions > 0
        record_title = public_record([], names, locale).splitlines()[0]
        assert t.history[0]["content"].startswith(
            PromptBuilder(names, locale).game_message(build_view(game, 0)) + "\n\n" + record_title
        )
