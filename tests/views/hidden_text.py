"""RULES.md §9 on the rendered text, in any language: re-dealing what a seat cannot see leaves its
Markdown view, JSON view and prompts byte-identical."""

from __future__ import annotations

import random

from harness.engine import Game, build_view
from harness.views.names import default_names
from harness.views.prompts import PromptBuilder
from harness.views.render import render_json, render_markdown
from tests.engine.test_no_leak import redeal_hidden


def check_rendered_text_hides(game: Game, locale: str, rng: random.Random, every: int) -> int:
    """Play ``game`` to the end with ``rng``; at every ``every``-th decision compare each seat's
    rendered view and prompts with those of a twin whose hidden cards and roles are re-dealt.
    Returns how many views were compared."""
    names = default_names(game.n)
    builder = PromptBuilder(names, locale)
    checked = 0
    step = 0
    while game.pending is not None:
        if step % every == 0:
            for viewer in range(game.n):
                twin = redeal_hidden(game, viewer, rng)
                a, b = build_view(game, viewer), build_view(twin, viewer)
                assert render_markdown(a, names, locale) == render_markdown(b, names, locale)
                assert render_json(a, names, locale) == render_json(b, names, locale)
                assert builder.decision_prompt(a) == builder.decision_prompt(b)
                assert builder.system_prompt(a) == builder.system_prompt(b)
                checked += 1
        game.apply(rng.choice(game.pending.options))
        step += 1
    return checked
