"""Small generic helpers for the RULES.md scenario tests (positions, actions, events).

Import from a test module in this package with ``from .helpers import pos, seat, play, ...``.
"""

from __future__ import annotations

import copy
from typing import Any

from harness.engine import Game, load_position
from harness.engine.cards import CARD_FACE, CARD_TYPE

# Four characters with no ability that interferes with ordinary scenarios.
PLAIN = ("red_suit", "grip", "three_eyes", "vulture_jr")


def seat(role: str, character: str, hp: int = 4, max_hp: int | None = None, **kw: Any) -> dict:
    """One seat of a position; ``kw`` may set hand, in_play, weapon, upgrades, ..."""
    d: dict[str, Any] = {
        "role": role,
        "character": character,
        "hp": hp,
        "max_hp": max(hp, 1) if max_hp is None else max_hp,
    }
    d.update(kw)
    return d


def pos(seats: list[dict] | None = None, **overrides: Any) -> dict:
    """A position dict: by default 4 seats (marshal, raider, raider, loner), 4/4 ♥, empty hands,
    seat 0's play phase, round 1, classic mode.  ``overrides`` replace top-level fields."""
    if seats is None:
        seats = [
            seat("marshal", PLAIN[0]),
            seat("raider", PLAIN[1]),
            seat("raider", PLAIN[2]),
            seat("loner", PLAIN[3]),
        ]
    d: dict[str, Any] = {
        "format": "bangarena-position/1",
        "mode": "classic",
        "seed": 1,
        "round": 1,
        "turn": 0,
        "phase": "play",
        "seats": copy.deepcopy(seats),
    }
    d.update(overrides)
    return d


def with_seat(d: dict, i: int, **kw: Any) -> dict:
    """Update seat ``i`` of position ``d`` in place (and return ``d``)."""
    d["seats"][i].update(kw)
    return d


def load(d: dict) -> Game:
    return load_position(d)


def play(game: Game, *ids: str) -> Game:
    """Apply action ids in order."""
    for a in ids:
        game.apply(a)
    return game


def events_of(game: Game, t: str, **match: Any) -> list[dict]:
    """Events of type ``t`` whose fields equal ``match``."""
    return [
        e for e in game.events if e.get("t") == t and all(e.get(k) == v for k, v in match.items())
    ]


def types(cards: list[int]) -> list[str]:
    """Card type ids of a list of card indices."""
    return [CARD_TYPE[c] for c in cards]


def faces(cards: list[int]) -> list[str]:
    """Faces (``shot.QH``) of a list of card indices."""
    return [CARD_FACE[c] for c in cards]


def weapon_type(game: Game, i: int) -> str | None:
    w = game.seats[i].weapon
    return CARD_TYPE[w] if w >= 0 else None


def options(game: Game) -> list[str]:
    return game.pending.option_ids if game.pending else []


def unnamed_cards(d: dict) -> list[str]:
    """Faces of the physical cards that position ``d`` does not name anywhere (hands, in play,
    weapons, deck, discard).  Use it to place "all the rest" somewhere, e.g. to empty the deck."""
    named: list[str] = list(d.get("deck") or []) + list(d.get("discard") or [])
    for s in d["seats"]:
        named += list(s.get("hand", [])) + list(s.get("in_play", []))
        if s.get("weapon"):
            named.append(s["weapon"])
    free = list(CARD_FACE)
    for name in sorted(named, key=lambda x: "." not in x):  # exact faces first
        if "." in name:
            free.remove(name)
        else:
            free.remove(next(f for f in free if f.split(".")[0] == name))
    return free
