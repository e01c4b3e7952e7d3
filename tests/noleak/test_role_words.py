"""The scanner's role words come from the glossaries and find each role in the forms the five
languages write (RULES.md §9: a seat must not read another seat's hidden role in any language)."""

from __future__ import annotations

import pytest

from harness.engine.roles import ROLES
from harness.views.names import LOCALES, glossary, role_name

from .role_words import SIDE_ROLE
from .scan import ROLE_RE, _role_of_match


def roles_in(text: str) -> list[str]:
    return [_role_of_match(m) for m in ROLE_RE.finditer(text)]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_glossary_role_and_side_is_read_as_its_role(locale: str) -> None:
    g = glossary(locale)
    for role in ROLES:
        assert roles_in(f"Ada: {role_name(role, locale)}.") == [role], (locale, role)
    for side, side_role in SIDE_ROLE.items():
        assert roles_in(f"Ada: {g.sides[side]}.") == [side_role], (locale, side)


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        ("Deputies and Raiders", ["deputy", "raider"]),
        ("the double_agent", ["double_agent"]),
        ("награда за Налётчика, Налетчики", ["raider", "raider"]),
        ("Одиночек двое; Двойного агента нет", ["loner", "double_agent"]),
        ("劫匪们获胜", ["raider"]),
        ("独行者们", ["loner"]),
        ("保安官補たち", ["deputy"]),
        ("保安官は", ["marshal"]),
        ("襲撃者たちの勝利", ["raider"]),
        ("والعميل المزدوج", ["double_agent"]),
        ("للمارشال وبالنائب", ["marshal", "deputy"]),
        ("نائبًا", ["deputy"]),
        ("المغاوير والمنفردون", ["raider", "loner"]),
        ("المنفردين", ["loner"]),
    ],
)
def test_role_words_in_the_forms_each_language_writes(text: str, roles: list[str]) -> None:
    assert roles_in(text) == roles


@pytest.mark.parametrize(
    "text",
    [
        "Double Barrel",
        "Двойной Ствол",
        "الماسورة المزدوجة",  # Double Barrel: one word of the Double Agent's name
        "Raiding, deputize",
        "القانون",  # the Law: a side, not one role
    ],
)
def test_words_that_only_look_like_a_role_are_not_one(text: str) -> None:
    assert roles_in(text) == []
