"""Every name of the game in every language (issue 15): the glossaries are complete, unambiguous
and validated, and every localized template exists in all five languages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from harness.engine.cards import CARD_TYPES
from harness.engine.characters import CHARACTERS
from harness.engine.roles import MODES, ROLES, UPGRADES
from harness.paths import PROMPTS_DIR
from harness.views import names
from harness.views.glossary import GLOSSARY_DIR, LOCALES, GlossaryError, glossary, load_glossary


def test_the_five_seed_languages() -> None:
    assert LOCALES == ("en", "ru", "zh", "ja", "ar")
    assert names.LOCALES == LOCALES
    assert [glossary(loc).direction for loc in LOCALES] == ["ltr", "ltr", "ltr", "ltr", "rtl"]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_character_role_upgrade_and_mode_has_a_name(locale: str) -> None:
    """RULES.md §1 lists 22 card types, 16 characters, 5 roles, 4 modes and 3 upgrades: each has
    a name (and a card an effect, a character an ability) in every language."""
    groups = {
        "cards": [names.card_name(t.id, locale) for t in CARD_TYPES],
        "effects": [names.card_effect(t.id, locale) for t in CARD_TYPES],
        "characters": [names.character_name(c.id, locale) for c in CHARACTERS],
        "abilities": [names.character_ability(c.id, locale) for c in CHARACTERS],
        "roles": [names.role_name(r, locale) for r in ROLES],
        "modes": [names.mode_name(m, locale) for m in MODES],
        "upgrades": [names.upgrade_name(u, locale) for u in UPGRADES],
    }
    assert [len(v) for v in groups.values()] == [22, 22, 16, 16, 5, 4, 3]
    for group, texts in groups.items():
        assert all(t.strip() == t and t for t in texts), (locale, group)
        if group in ("cards", "characters", "roles", "modes", "upgrades"):
            assert len(set(texts)) == len(texts), f"{locale}: two {group} share a name"


def test_names_differ_between_languages_except_where_a_language_borrows_them() -> None:
    """A translated glossary is not a copy of the English one."""
    en = glossary("en")
    for loc in LOCALES[1:]:
        g = glossary(loc)
        same = [c for c in en.cards if g.cards[c].name == en.cards[c].name]
        assert same == [], (loc, same)
        assert all(g.characters[c].ability != en.characters[c].ability for c in en.characters)


def test_card_labels_keep_the_face_in_every_language() -> None:
    labels = {loc: names.card_label("shot.QH", loc) for loc in LOCALES}
    assert labels == {
        "en": "Shot ♥Q", "ru": "Выстрел ♥Q", "zh": "射击 ♥Q", "ja": "発砲 ♥Q", "ar": "طلقة ♥Q",
    }  # fmt: skip


def test_seed_page_terms() -> None:
    """The terms come from each language's seed page (roles, cards, characters, upgrades)."""
    zh, ja, ar = glossary("zh"), glossary("ja"), glossary("ar")
    assert [zh.roles[r] for r in ROLES] == ["警长", "副手", "劫匪", "独行者", "双面特工"]
    assert [ja.roles[r] for r in ROLES] == ["保安官", "保安官補", "襲撃者", "一匹狼", "二重スパイ"]
    assert ar.roles["marshal"] == "المارشال" and ar.roles["double_agent"] == "العميل المزدوج"
    assert [zh.upgrades[u] for u in UPGRADES] == ["神射", "坚韧", "直觉"]
    assert [ja.upgrades[u] for u in UPGRADES] == ["狙撃手の腕", "頑丈さ", "勘"]
    assert zh.characters["stone_leopard"].name == "石豹"
    assert ja.characters["vulture_jr"].name == "ハゲタカJr."
    assert ar.cards["sawed_off"].name == "مقطوعة الماسورة"


def _broken(tmp_path: Path, edit: object) -> Path:
    path = tmp_path / "zh.yaml"
    shutil.copy(GLOSSARY_DIR / "zh.yaml", path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data)  # type: ignore[operator]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["cards"].pop("buckshot"), "cards: missing buckshot"),
        (lambda d: d["characters"].update(ghost={"name": "鬼", "ability": "无"}),
         "characters: unknown ghost"),
        (lambda d: d["roles"].update(loner=" "), "roles: empty loner"),
        (lambda d: d["cards"]["shot"].pop("effect"), "cards.shot.effect"),
        (lambda d: d.update(locale="ja"), "locale is 'ja', expected 'zh'"),
    ],
)  # fmt: skip
def test_a_broken_glossary_fails_with_one_line_naming_the_problem(
    tmp_path: Path, edit: object, message: str
) -> None:
    with pytest.raises(GlossaryError) as e:
        load_glossary(_broken(tmp_path, edit))
    text = str(e.value)
    assert message in text and "\n" not in text and text.startswith("glossary zh.yaml")


def test_an_unknown_locale_is_refused() -> None:
    with pytest.raises(GlossaryError, match="no glossary for locale 'xx'"):
        glossary("xx")


# Every template written per locale (``<name>.<locale>.j2`` / ``.md.j2``) exists in all five —
# except the counted-noun helpers ``plural.<locale>.j2``, which exist for the languages whose nouns
# change with a number (en, ru, ar; Chinese and Japanese nouns do not).
LOCALIZED = sorted(
    (
        {p.name.replace(".en.", ".{}.") for p in PROMPTS_DIR.glob("*.en.*j2")}
        | {
            "rules/" + p.name.replace(".en.", ".{}.")
            for p in (PROMPTS_DIR / "rules").glob("*.en.*j2")
        }
    )
    - {"plural.{}.j2"}
)


@pytest.mark.parametrize("pattern", LOCALIZED)
def test_every_localized_template_exists_in_every_language(pattern: str) -> None:
    assert len(LOCALIZED) >= 10
    missing = [loc for loc in LOCALES if not (PROMPTS_DIR / pattern.format(loc)).exists()]
    assert missing == [], f"{pattern}: missing {missing}"
