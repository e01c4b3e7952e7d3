"""The scanner on hand-written inputs: what it must flag and what it must let through (RULES.md §9,
§2 and Ruling R-3 for who knows which role).

The table: a 5-seat double_agent deal (seed 0) — Ada raider, Bill deputy, Cole the Marshal, Dora
the Double Agent, Eli loner; the Marshal was told the pair {Bill, Dora}; Ada and Dora know each
other.
"""

from __future__ import annotations

from typing import Any

import pytest

from harness.engine import Game
from harness.engine.cards import CARD_FACE
from harness.views.names import card_label

from .account import SPECTATOR, Account
from .scan import card_identities, find_leaks

ADA, BILL, COLE, DORA, ELI = range(5)


@pytest.fixture(scope="module")
def game() -> Game:
    g = Game.new(5, "double_agent", 0)
    assert [s.role for s in g.seats] == ["raider", "deputy", "marshal", "double_agent", "loner"]
    assert set(g.seats[COLE].marshal_pair or ()) == {BILL, DORA}
    return g


def leaks(
    game: Game, seat: int, obj: object, extra: list[dict[str, Any]] | None = None
) -> list[str]:
    account = Account.from_game(game)
    if extra:
        account.feed(extra)
    return find_leaks(obj, seat, account.processed, account, game)


@pytest.mark.parametrize(
    "text",
    [
        "Roles at the table: Marshal 1, Deputy 1, Raider 1, Loner 1, Double Agent 1",
        "Роли за столом: Маршал 1, Помощник 1, Налётчик 1, Одиночка 1, Двойной агент 1",
        "You are **Bill**, the **Deputy**. Goal: ",
        "New game: 5 seats, Double Agent (beta). Cole is the Marshal.",
        "| Cole | Lucky | 6/6 | 6 | 1 | — | Revolver (1) | — | Marshal |",
        "Penalty: the Marshal eliminated a Deputy and discards all cards.",
        "Ada draws 3 (reward for a Raider).",
        "牌桌上的身份：警长 1，副手 1，劫匪 1，独行者 1，双面特工 1",
        "你是 **Bill**，副手。目标：",
        "新的一局：5 个座位，双面特工（测试版）。Cole 是警长。",
        "- Cole：身份 警长。",
        "Cole：役職は保安官。",
        "あなたは **Bill**、保安官補。",
        "テーブルの役職：保安官 1、保安官補 1、襲撃者 1、一匹狼 1、二重スパイ 1",
        "الأدوار على الطاولة: المارشال 1، نائب 1، مغوار 1، منفرد 1، العميل المزدوج 1",
        "أنت **Bill**، الدور: نائب.",
        "لعبة جديدة: 5 مقاعد، العميل المزدوج (تجريبي). المارشال: Cole.",
        "- Dora: الماسورة المزدوجة — على المسافة 1",
    ],
)
def test_legitimate_role_text_passes(game: Game, text: str) -> None:
    assert leaks(game, BILL, text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Ada: role Raider.",
        "Your team: Ada (Raider), Dora (Double Agent).",
        "| Eli | Lucky | 4/4 | 4 | 1 | — | Revolver (1) | — | Loner |",
        "- Dora — Двойной агент: attacked Bill (Shot);",
        "Ada — Налётчика видно сразу",
        "☠ Eli is eliminated by Ada — was loner.",  # before Eli's elimination
        "- Ada：身份 劫匪。",
        "你的队友：Ada（劫匪），Dora（双面特工）。",
        "Ada是劫匪",  # a name written right against the words around it
        "**对局结束：**独行者们——Eli。",
        "- Ada：役職は襲撃者。",
        "Eli：役職は保安官補。",  # the Deputy's name contains the Marshal's
        "| Eli | 幸運 | 4/4 | 4 | 1 | — | リボルバー (1) | — | 一匹狼たち |",
        "- Ada: الدور مغوار.",
        "فريقك: Ada (مغوار)، Dora (العميل المزدوج).",
        "Dora والعميل المزدوج",
        "☠ أُقصي Eli على يد Ada — الدور: للمنفردين.",
        "**انتهت اللعبة:** المغاوير — Ada، Dora.",
    ],
)
def test_a_hidden_role_next_to_a_name_is_flagged(game: Game, text: str) -> None:
    found = leaks(game, BILL, text)
    assert found and "knows none of them" in found[0]


def test_revealed_roles_and_the_winning_side_pass(game: Game) -> None:
    events: list[dict[str, Any]] = [
        {"t": "eliminated", "seat": ELI, "by": ADA, "role": "loner"},
        {"t": "game_over", "side": "raiders", "winners": [ADA, DORA]},
    ]
    text = "☠ Eli is eliminated by Ada — was Loner.\nGame over — the Raiders win: Ada, Dora."
    assert leaks(game, BILL, text, events) == []
    assert leaks(game, BILL, "Dora: Loner.", events)  # the winners' side is not Eli's role


def test_the_marshal_knows_his_pair_only_as_a_pair(game: Game) -> None:
    pair = "You are told: one of Dora and Bill is a Deputy, the other the Double Agent."
    assert leaks(game, COLE, pair) == []
    assert leaks(game, ADA, pair)  # Ada knows Dora, not Bill
    assert leaks(game, COLE, "Bill is Deputy.")
    assert leaks(game, COLE, {"marshal_pair": [BILL, DORA]}) == []
    assert leaks(game, ELI, {"marshal_pair": [BILL, DORA]})


def test_the_raiders_team_knows_itself(game: Game) -> None:
    """Ruling R-3."""
    assert leaks(game, ADA, "Your team: Dora (Double Agent).") == []
    assert leaks(game, ADA, {"known_roles": {"3": "double_agent"}}) == []
    assert leaks(game, ELI, {"known_roles": {"3": "double_agent"}})


def test_role_claims_in_structures(game: Game) -> None:
    assert leaks(game, BILL, {"seat": ADA, "role": "raider"})
    assert (
        leaks(game, BILL, [{"seat": BILL, "role": "deputy"}, {"seat": COLE, "role": "marshal"}])
        == []
    )
    assert leaks(game, SPECTATOR, {"seat": COLE, "role": "marshal"}) == []
    assert leaks(game, SPECTATOR, {"seat": BILL, "role": "deputy"})
    messages = [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": "Ada: role Raider."},
    ]
    (leak,) = leaks(game, BILL, messages)
    assert leak.startswith("[1].content line 1")


def test_card_identities_in_every_written_form(game: Game) -> None:
    own = CARD_FACE[game.seats[BILL].hand[0]]
    other = CARD_FACE[game.seats[ADA].hand[0]]
    mine = Account.from_game(game).cards(BILL)
    assert own in mine and other not in mine
    assert leaks(game, BILL, f"Bill draws 1: {card_label(own)}.") == []
    for text in (
        f"Ada draws 1: {card_label(other)}.",
        f"Ada берёт 1: {card_label(other, 'ru')}.",
        f"1. `putback:{other}` — put it back",
        {"cards": [other]},
        f'{{"hand": ["{other}"]}}',
    ):
        found = leaks(game, BILL, text)
        assert found and other in found[0], text
    assert card_identities("3 ♥ · Dynamite ♠2–9 · Flask ♥") == []
    assert card_identities("Long Rifle ♠8, Rifle ♣K") == [
        ("long_rifle.8S", "Long Rifle ♠8"),
        ("rifle.KC", "Rifle ♣K"),
    ]
