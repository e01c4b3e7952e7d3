"""The rules documents in all five languages (rules_md/rules.<locale>.md, built by `bangarena rules
build` from the engine's data): the same sections and table rows as the English one, every
glossary name in its tables, and the JSON naming everything in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.paths import RULES_MD_DIR
from harness.views import rules_doc
from harness.views.glossary import LOCALES, glossary

HEADING = re.compile(r"^(#+) ")


def outline(text: str) -> list[tuple[int, int, list[int]]]:
    """Per heading (in order): its level, the number of its table rows, and each row's number of
    cells — the shape a translation must keep."""
    out: list[tuple[int, int, list[int]]] = []
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            out.append((len(m.group(1)), 0, []))
        elif line.startswith("|") and out:
            level, rows, cells = out[-1]
            out[-1] = (level, rows + 1, [*cells, line.count(" | ") + 1])
    return out


def _doc(locale: str) -> str:
    return (RULES_MD_DIR / f"rules.{locale}.md").read_text(encoding="utf-8")


def test_the_committed_documents_are_fresh_for_every_language() -> None:
    """`bangarena rules build --check` fails on a stale file: a fresh build equals rules_md/."""
    files = rules_doc.rules_files()
    assert sorted(files) == sorted(
        [f"rules.{loc}.md" for loc in LOCALES]
        + [f"rules.{loc}.brief.md" for loc in LOCALES]  # a model's ``rules: brief``
        + ["rules.json"]
    )
    assert rules_doc.stale() == []


@pytest.mark.parametrize("locale", LOCALES[1:])
def test_every_document_has_the_sections_and_table_rows_of_the_english_one(locale: str) -> None:
    en, other = outline(_doc("en")), outline(_doc(locale))
    assert len(en) == 15 and sum(rows for _, rows, _ in en) == 49
    assert [level for level, _, _ in other] == [level for level, _, _ in en]
    assert [(rows, cells) for _, rows, cells in other] == [(rows, cells) for _, rows, cells in en]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_name_of_the_glossary_is_in_the_document(locale: str) -> None:
    text, g = _doc(locale), glossary(locale)
    for card in g.cards.values():
        assert f"| {card.name} | " in text and card.effect in text
    for character in g.characters.values():
        assert f"| {character.name} | " in text and character.ability in text
    if locale not in ("en", "ru"):  # the en and ru tables predate the glossaries' role names
        for role in g.roles.values():
            assert f"{role} 1" in text


def test_the_json_names_everything_in_every_language() -> None:
    data = json.loads((RULES_MD_DIR / "rules.json").read_text(encoding="utf-8"))
    for group in ("cards", "characters", "roles", "modes", "upgrades"):
        for item in data[group]:
            assert sorted(item["name"]) == sorted(LOCALES), (group, item["id"])
    assert data["cards"][0]["name"]["zh"] == "射击" and data["roles"][0]["name"]["ar"] == "المارشال"


def test_rules_build_check_passes_and_a_stale_document_is_named(tmp_path: Path) -> None:
    from harness.cli.main import main

    assert main(["rules", "build", "--check"]) == 0
    rules_doc.build(tmp_path)
    (tmp_path / "rules.ja.md").write_text("stale", encoding="utf-8")
    (tmp_path / "rules.ar.md").unlink()
    assert rules_doc.stale(tmp_path) == ["rules.ja.md", "rules.ar.md"]
