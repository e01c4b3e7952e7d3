"""The brief rules documents (rules_md/rules.<locale>.brief.md, a model's ``rules: brief``): in all
five languages they keep what a seat plays by — every card's effect, every character's ability and
♥, the High Noon round, the check odds, every section of the turn (RULES.md §3–§8) — and are
shorter than the full documents; a model seat with ``rules: brief`` reads them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from harness.agents.model_spec import ModelSpec, build_model_seat
from harness.paths import RULES_MD_DIR
from harness.views.names import LOCALES
from harness.views.prompts import PromptBuilder, system_prompt_text
from harness.views.rules_doc import render_rules_md, rules_data, rules_file_name


def brief(locale: str) -> str:
    return (RULES_MD_DIR / rules_file_name(locale, "brief")).read_text(encoding="utf-8")


def full(locale: str) -> str:
    return (RULES_MD_DIR / rules_file_name(locale)).read_text(encoding="utf-8")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_brief_document_is_the_built_one_and_shorter(locale: str) -> None:
    assert brief(locale) == render_rules_md(locale, "brief")
    assert len(brief(locale)) < 0.85 * len(full(locale))


@pytest.mark.parametrize("locale", LOCALES)
def test_the_brief_document_keeps_every_card_and_character(locale: str) -> None:
    """RULES.md §1: every card's effect and every character's ability and ♥ are still there."""
    text = brief(locale)
    data = rules_data()
    for card in data["cards"]:
        assert f"| {card['name'][locale]} |" in text, card["id"]
        assert card["effect"][locale] in text, card["id"]
    for char in data["characters"]:
        assert f"| {char['name'][locale]} | {char['hp']}" in text, char["id"]
        assert char["ability"][locale] in text, char["id"]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_brief_document_keeps_the_rules_of_a_turn(locale: str) -> None:
    """Every section heading of the full document's play rules (the turn, distance, responses,
    checks, damage: RULES.md §3–§8) is in the brief one, with High Noon's round and the odds."""
    text, whole = brief(locale), full(locale)
    headings = [line for line in whole.splitlines() if line.startswith("## ")]
    kept = [h for h in headings if h in text]
    # dropped: the victory and "what you can see" sections (said by the roles and the view)
    assert len(kept) == len(headings) - 2, sorted(set(headings) - set(kept))
    data = rules_data()
    assert str(data["high_noon_round"]) in text
    for check in ("jail", "dynamite"):
        assert f"{round(data['checks'][check]['probability'] * 100)} %" in text
    assert "♥" in text and any(f"2{dash}" in text for dash in "–〜")  # ♠2–9 explodes
    assert "{{" not in text and "{%" not in text


def test_a_prompt_builder_with_brief_rules_sends_the_brief_document() -> None:
    builder = PromptBuilder(["a", "b", "c", "d"], "ru", rules="brief")
    system = builder.system_prompt()
    assert brief("ru").rstrip("\n") in system
    assert system == system_prompt_text("ru", rules="brief")
    assert len(system) < len(system_prompt_text("ru"))


@pytest.mark.parametrize("rules", ["full", "brief"])
def test_a_model_seat_reads_the_rules_its_spec_names(rules: str) -> None:
    spec = ModelSpec.model_validate(
        {
            "provider": "openai",
            "model": "m",
            "base_url": "http://127.0.0.1:9/v1",
            "rules": rules,
            "tokenizer": "cl100k_base",
        }  # fmt: skip
    )
    seat = build_model_seat(spec, "a", ["a", "b", "c", "d"], "zh")
    assert seat.llm.conversation.system() == system_prompt_text("zh", rules=rules)


def test_an_unknown_rules_variant_is_refused() -> None:
    with pytest.raises(ValidationError, match="rules"):
        ModelSpec.model_validate({"provider": "openai", "model": "m", "rules": "short"})
