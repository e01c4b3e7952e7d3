"""Numbers and nouns agree in every language (issue 15): one rule (prompts/plural.j2, the CLDR
cardinal categories) behind the Russian and Arabic helpers, tested over a range of numbers;
Chinese and Japanese have no plural."""

from __future__ import annotations

import pytest
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.engine import parse_action
from harness.engine.view import PublicSeat
from harness.paths import PROMPTS_DIR
from harness.views.narrate import Narrator
from harness.views.option_labels import option_label

NUMBERS = (1, 2, 3, 5, 11, 21, 22, 100, 101, 102)


def _module(name: str):  # type: ignore[no-untyped-def]
    env = Environment(loader=FileSystemLoader(PROMPTS_DIR), undefined=StrictUndefined)
    return env.get_template(name).make_module()


def category(n: int, locale: str) -> str:
    return str(_module("plural.j2").category(n, locale))


def test_categories_of_every_locale() -> None:
    cats = {loc: [category(n, loc) for n in (0, *NUMBERS)] for loc in ("en", "ru", "ar", "zh")}
    assert cats == {
        "en": ["other", "one", "other", "other", "other", "other", "other", "other", "other",
               "other", "other"],
        "ru": ["many", "one", "few", "few", "many", "many", "one", "few", "many", "one", "few"],
        "ar": ["zero", "one", "two", "few", "few", "many", "many", "many", "other", "other",
               "other"],
        "zh": ["other"] * 11,
    }  # fmt: skip
    assert [category(n, "ja") for n in NUMBERS] == ["other"] * len(NUMBERS)
    assert [category(n, "ar") for n in (10, 99, 103, 110, 111, 199, 200)] == [
        "few", "many", "few", "few", "many", "many", "other"
    ]  # fmt: skip
    assert [category(n, "ru") for n in (4, 12, 14, 104, 111, 112)] == [
        "few", "many", "many", "few", "many", "many"
    ]  # fmt: skip


def test_russian_forms() -> None:
    plural = _module("plural.ru.j2").plural
    assert [str(plural(n, "карта", "карты", "карт")) for n in NUMBERS] == [
        "1 карта", "2 карты", "3 карты", "5 карт", "11 карт", "21 карта", "22 карты",
        "100 карт", "101 карта", "102 карты",
    ]  # fmt: skip


def test_arabic_forms() -> None:
    """1: the noun and واحد (no digit); 2: the dual (no digit); 3–10: the plural; 11–99: the
    singular in the accusative; 100–102: the singular in the genitive."""
    plural = _module("plural.ar.j2").plural
    seats = [str(plural(n, "مقعد واحد", "مقعدان", "مقاعد", "مقعدًا", "مقعد")) for n in NUMBERS]
    assert seats == [
        "مقعد واحد", "مقعدان", "3 مقاعد", "5 مقاعد", "11 مقعدًا", "21 مقعدًا", "22 مقعدًا",
        "100 مقعد", "101 مقعد", "102 مقعد",
    ]  # fmt: skip
    cards = [str(plural(n, "بطاقة واحدة", "بطاقتان", "بطاقات", "بطاقة")) for n in NUMBERS]
    assert cards[:4] == ["بطاقة واحدة", "بطاقتان", "3 بطاقات", "5 بطاقات"]
    assert cards[4:] == [f"{n} بطاقة" for n in NUMBERS[4:]]


AR_CARDS = {1: "بطاقة واحدة", 2: "بطاقتان", 3: "3 بطاقات", 5: "5 بطاقات"}
AR_CARDS_OBJ = {**AR_CARDS, 2: "بطاقتين"}


@pytest.mark.parametrize("n", NUMBERS)
def test_every_count_in_the_arabic_feed(n: int) -> None:
    line = Narrator(["Ada", "Bill", "Cole", "Dora"], "ar").line
    cards = AR_CARDS.get(n, f"{n} بطاقة")
    obj = AR_CARDS_OBJ.get(n, f"{n} بطاقة")
    seats = {1: "مقعد واحد", 2: "مقعدان", 3: "3 مقاعد", 5: "5 مقاعد"}.get(
        n, f"{n} مقعدًا" if n % 100 >= 11 else f"{n} مقعد"
    )
    assert line({"t": "setup", "seats": n, "mode": "classic", "marshal": 0}).startswith(
        f"لعبة جديدة: {seats}، "
    )
    assert line({"t": "shuffle", "n": n, "why": "x"}) == f"خُلطت المجموعة ({cards})."
    assert line({"t": "draw", "seat": 1, "n": n, "why": "draw"}) == f"Bill يسحب {obj}."
    assert line({"t": "look", "seat": 1, "n": n}) == f"Bill ينظر إلى {obj} من أعلى المجموعة."


@pytest.mark.parametrize("n", NUMBERS)
def test_counts_in_chinese_and_japanese_need_no_plural(n: int) -> None:
    assert Narrator(["Ada", "Bill"], "zh").line({"t": "shuffle", "n": n, "why": "x"}) == (
        f"牌堆已洗混（{n} 张牌）。"
    )
    assert Narrator(["Ada", "Bill"], "ja").line({"t": "look", "seat": 1, "n": n}) == (
        f"Bill が山札の上から{n}枚を見る。"
    )


@pytest.mark.parametrize("n", NUMBERS)
def test_the_hand_size_in_option_labels(n: int) -> None:
    class View:  # what option_label reads of a view
        seats = tuple(
            PublicSeat(i, "lucky", 4, 4, n, (), None, 1, (), True, None, 1) for i in range(4)
        )
        discard_top = None

    def label(locale: str) -> str:
        return option_label(
            parse_action("draw:hand@2"), "draw_source", View(), ["A", "B", "C", "D"], locale
        )  # type: ignore[arg-type]

    assert label("ar") == f"اسحب بطاقة عشوائية من يد C ({AR_CARDS.get(n, f'{n} بطاقة')})"
    ru = {1: "карта", 2: "карты", 3: "карты", 21: "карта", 22: "карты", 101: "карта", 102: "карты"}
    assert label("ru").endswith(f"({n} {ru.get(n, 'карт')})")
    assert label("zh").endswith(f"（{n} 张）") and label("ja").endswith(f"（{n}枚）")
