"""Russian text uses the right plural form for every number it prints (1 карта, 2 карты,
5 карт, 11 карт, 21 карта, 22 карты), and no Russian template prints a number before a noun
without going through ``plural`` (prompts/plural.ru.j2)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.engine import parse_action
from harness.engine.view import PublicSeat
from harness.paths import PROMPTS_DIR
from harness.views.narrate import Narrator
from harness.views.option_labels import option_label

NUMBERS = (1, 2, 5, 11, 21, 22)
# n → the form of "карта" in the nominative and the accusative
CARDS = {1: "карта", 2: "карты", 5: "карт", 11: "карт", 21: "карта", 22: "карты"}
CARDS_ACC = {1: "карту", 2: "карты", 5: "карт", 11: "карт", 21: "карту", 22: "карты"}
SEATS = {1: "место", 2: "места", 5: "мест", 11: "мест", 21: "место", 22: "места"}


def test_plural_macro() -> None:
    env = Environment(loader=FileSystemLoader(PROMPTS_DIR), undefined=StrictUndefined)
    plural = env.get_template("plural.ru.j2").make_module().plural
    forms = {
        n: str(plural(n, "карта", "карты", "карт"))
        for n in (*NUMBERS, 0, 3, 4, 12, 14, 101, 111, 104)
    }
    assert forms == {
        1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта", 22: "22 карты",
        0: "0 карт", 3: "3 карты", 4: "4 карты", 12: "12 карт", 14: "14 карт", 101: "101 карта",
        111: "111 карт", 104: "104 карты",
    }  # fmt: skip


@pytest.mark.parametrize("n", NUMBERS)
def test_every_number_in_the_russian_event_feed(n: int) -> None:
    narrator = Narrator(["Ада", "Билл", "Коул", "Дора"], "ru")
    line = narrator.line
    assert line({"t": "setup", "seats": n, "mode": "classic", "marshal": 0}).startswith(
        f"Новая партия: {n} {SEATS[n]}, "
    )
    assert line({"t": "shuffle", "n": n}) == f"Сброс перемешан в новую колоду ({n} {CARDS[n]})."
    assert line({"t": "shuffle", "n": n, "why": "x"}) == f"Колода перемешана ({n} {CARDS[n]})."
    assert line({"t": "look", "seat": 1, "n": n}) == f"Билл смотрит {n} {CARDS_ACC[n]} колоды."
    scavenge = {"t": "scavenge", "seat": 2, "from": 3, "in_play": [], "n_hand": n}
    assert line(scavenge) == f"Коул забирает карты Дора и {n} {CARDS_ACC[n]} с руки."


@pytest.mark.parametrize("n", NUMBERS)
def test_every_number_in_the_russian_option_labels(n: int) -> None:
    class View:  # what option_label reads of a view
        seats = tuple(
            PublicSeat(i, "lucky", 4, 4, n, (), None, 1, (), True, None, 1) for i in range(4)
        )
        discard_top = None

    text = option_label(
        parse_action("draw:hand@2"), "draw_source", View(), ["А", "Б", "В", "Г"], "ru"
    )  # type: ignore[arg-type]
    assert text == f"Вытянуть случайную карту у В ({n} {CARDS[n]})"


RU_TEMPLATES = sorted(PROMPTS_DIR.glob("**/*.ru*.j2"))
# {{ expr }} followed by a Russian word: a number printed before a noun
NUMBER_THEN_WORD = re.compile(r"\{\{\s*([^{}]+?)\s*\}\}[ \t]+([а-яё]+)", re.IGNORECASE)
# conjunctions after a number ("1–{{ n }} или id") agree with nothing
CONJUNCTIONS = {"или", "и", "а", "но"}
# an expression that prints a count: a name like n, seats, hand, n_hand, e.count, t.round
COUNT = re.compile(r"^[\w.]*(?:^|\.|_)(?:n|count|total|seats|hand|cards|deck|discard|games|stars)$")


@pytest.mark.parametrize("path", RU_TEMPLATES, ids=[p.name for p in RU_TEMPLATES])
def test_no_russian_template_prints_a_bare_number_before_a_noun(path: Path) -> None:
    assert RU_TEMPLATES, "no Russian templates found"
    text = path.read_text(encoding="utf-8")
    bare = [
        m.group(0)
        for m in NUMBER_THEN_WORD.finditer(text)
        if COUNT.match(m.group(1)) and m.group(2).lower() not in CONJUNCTIONS
    ]
    assert bare == [], f"{path.name}: numbers printed without plural()"
