"""What each engine event type reveals, and to whom (RULES.md §9) — the table the independent
account of knowledge (:mod:`tests.noleak.account`) is computed from.

Every field of every event type is listed with its *kind* (what it carries) and its *audience*
(who may learn it).  The audience is decided here from the rules, not read from the engine: the
account takes each event with its secret part merged in and gives each field to the seats this
table names.  The engine's own split (the public part, and the ``to`` list of the secret part) is
checked against this table separately (``tests/noleak/test_event_table.py``), so an engine that
shows a secret field to the wrong seats fails there, and a view that shows more than this table
allows fails the information-flow test.

Audiences:

* ``ALL`` — every seat (and a spectator);
* ``NOBODY`` — kept in the log only (the deck order of a shuffle);
* a tuple of field names — the seats those fields name (e.g. ``("seat", "from")`` for a card taken
  from a hand: the taker and the player it was taken from).

``public_when`` makes a restricted field public when a condition on the event holds: the Marshal's
role is public (RULES.md §2), and a card taken from a player's table (not the hand) was in plain
sight.

An event type missing here, or a field missing from its entry, fails the tests: a new event must be
classified before any seat may see it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

# Field kinds.  Only the first group carries hidden information.
CARD: Final = "card"  # one card face (``shot.QH``)
CARDS: Final = "cards"  # a list of card faces
ROLE: Final = "role"  # the role of the seat named by the event's ``seat`` field
TEAM: Final = "team"  # {seat (str): role} — team mates told at the deal (Ruling R-3)
PAIR: Final = "pair"  # [seat, seat] — the Marshal's two names (RULES.md §2)
MARSHAL: Final = "marshal"  # a seat that is the Marshal
WINNERS: Final = "winners"  # seats of the winning side named by the event's ``side`` field
SEAT: Final = "seat"  # a seat index (or -1: nobody)
COUNT: Final = "count"
WORD: Final = "word"  # a fixed vocabulary word (a reason, a mode, a side, an upgrade, a card type)
FLAG: Final = "flag"
CHARACTERS: Final = "characters"  # the character of every seat (public, RULES.md §9)

HIDDEN_KINDS: Final = frozenset({CARD, CARDS, ROLE, TEAM, PAIR, MARSHAL, WINNERS})

ALL: Final = "all"
NOBODY: Final = "nobody"

Audience = str | tuple[str, ...]


@dataclass(frozen=True)
class Field:
    kind: str
    audience: Audience = ALL
    public_when: Callable[[dict[str, Any]], bool] | None = None
    why: str = ""


@dataclass(frozen=True)
class EventRule:
    fields: dict[str, Field] = field(default_factory=dict)
    note: str = ""


def _public(**kinds: str) -> dict[str, Field]:
    return {name: Field(kind) for name, kind in kinds.items()}


_SEAT_ONLY: Final = ("seat",)
_BOTH: Final = ("seat", "from")

EVENT_VISIBILITY: Final[dict[str, EventRule]] = {
    "setup": EventRule(
        {**_public(seats=COUNT, mode=WORD, characters=CHARACTERS), "marshal": Field(MARSHAL)},
        "the table, the characters and the Marshal are public (RULES.md §2, §9)",
    ),
    "role": EventRule(
        {
            "seat": Field(SEAT),
            "role": Field(
                ROLE,
                _SEAT_ONLY,
                public_when=lambda e: e.get("role") == "marshal",
                why="your own role; the Marshal's is public",
            ),
        }  # fmt: skip
    ),
    "intel": EventRule(
        {
            "seat": Field(
                SEAT,
                _SEAT_ONLY,
                why="who was told something: the team intel goes to exactly the raiders team",
            ),
            "deputy_or_agent": Field(PAIR, _SEAT_ONLY, why="the Marshal's two names"),
            "team": Field(TEAM, _SEAT_ONLY, why="Ruling R-3: the raiders team knows itself"),
        },
        "double_agent mode only; even the recipient's seat is private, since the seats told the "
        "team (Ruling R-3) are the raiders team",
    ),
    "shuffle": EventRule(
        {**_public(n=COUNT, why=WORD), "order": Field(CARDS, NOBODY, why="deck order")},
    ),
    "draw": EventRule(
        {**_public(seat=SEAT, n=COUNT, why=WORD), "cards": Field(CARDS, _SEAT_ONLY)},
    ),
    "look": EventRule(
        {**_public(seat=SEAT, n=COUNT), "cards": Field(CARDS, _SEAT_ONLY)},
        "Three Eyes / Instinct look at the top cards",
    ),
    "putback": EventRule(
        {"seat": Field(SEAT), "card": Field(CARD, _SEAT_ONLY)},
        "the card put back on top of the deck: private knowledge (RULES.md §9)",
    ),
    "show": EventRule(_public(seat=SEAT, card=CARD, red=FLAG), "Red Suit shows the 2nd card"),
    "take_discard": EventRule(_public(seat=SEAT, card=CARD), "the discard pile top is public"),
    "grab": EventRule(
        {**_public(seat=SEAT), "from": Field(SEAT), "card": Field(CARD, _BOTH)},
        "Grip takes a random hand card: seen by the taker and the player it came from",
    ),
    "turn": EventRule(_public(seat=SEAT, round=COUNT)),
    "end_turn": EventRule(_public(seat=SEAT)),
    "high_noon": EventRule(_public(round=COUNT)),
    "check": EventRule(
        {**_public(seat=SEAT, card=CARD), "for": Field(WORD)}, "revealed check cards are public"
    ),
    "coin": EventRule(_public(seat=SEAT, ok=FLAG)),
    "dynamite": EventRule(_public(seat=SEAT, blast=FLAG, to_seat=SEAT)),
    "jail": EventRule(_public(seat=SEAT, free=FLAG)),
    "play": EventRule(_public(seat=SEAT, card=CARD, target=SEAT, what=WORD)),
    "steal": EventRule(
        {
            **_public(seat=SEAT, what=WORD),
            "from": Field(SEAT),
            "card": Field(
                CARD,
                _BOTH,
                public_when=lambda e: e.get("what") != "hand",
                why="a card from the hand: taker and victim; from the table: public",
            ),
        }  # fmt: skip
    ),
    "knocked": EventRule(
        {**_public(seat=SEAT, what=WORD, card=CARD), "from": Field(SEAT)},
        "a knocked-off card goes to the discard pile face up",
    ),
    "discard": EventRule(_public(seat=SEAT, cards=CARDS, why=WORD)),
    "miss": EventRule(_public(seat=SEAT, by=SEAT, how=WORD)),
    "hit": EventRule(_public(seat=SEAT, by=SEAT, n=COUNT, hp=COUNT)),
    "heal": EventRule(_public(seat=SEAT, n=COUNT, hp=COUNT, why=WORD)),
    "eliminated": EventRule(
        {**_public(seat=SEAT, by=SEAT), "role": Field(ROLE, why="Ruling R-9: revealed to all")},
    ),
    "scavenge": EventRule(
        {
            **_public(seat=SEAT, in_play=CARDS, n_hand=COUNT),
            "from": Field(SEAT),
            "hand": Field(CARDS, _BOTH, why="the victim's hand: Scavenger and victim"),
        }
    ),
    "collect": EventRule(
        {**_public(seat=SEAT), "from": Field(SEAT), "card": Field(CARD, _BOTH)},
        "Collector takes a random hand card from the damage source",
    ),
    "penalty": EventRule(_public(seat=SEAT, cards=CARDS), "the Marshal's cards go face up"),
    "star": EventRule(_public(seat=SEAT, upgrade=WORD, why=WORD)),
    "game_over": EventRule(
        {"side": Field(WORD), "winners": Field(WINNERS)},
        "the winning side and its players are public (RULES.md §8)",
    ),
}

# Event types the account cannot start from: a game loaded from a position has no deal in its log.
UNSUPPORTED: Final = {"position": "a game loaded from a position (its deal is not in the log)"}

# Which roles a side's winners have (RULES.md §8); used for the ``game_over`` event.
SIDE_TEAM: Final = {"law": "law", "raiders": "raiders", "loner": "loners", "loners": "loners"}


def rule_for(event_type: str) -> EventRule:
    """The table entry of ``event_type``; an unlisted type is an error naming it."""
    try:
        return EVENT_VISIBILITY[event_type]
    except KeyError:
        why = UNSUPPORTED.get(event_type, "not in tests/noleak/event_visibility.py")
        raise KeyError(f"event type {event_type!r}: {why}") from None


def audience_of(rule: Field, event: dict[str, Any], n_seats: int) -> frozenset[int] | None:
    """The seats that may learn field ``rule`` of ``event`` (``None`` = every seat)."""
    if rule.audience == ALL or (rule.public_when is not None and rule.public_when(event)):
        return None
    if rule.audience == NOBODY:
        return frozenset()
    assert isinstance(rule.audience, tuple)
    return frozenset(int(event[f]) for f in rule.audience if 0 <= int(event[f]) < n_seats)
