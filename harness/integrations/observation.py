"""A fixed-size numeric encoding of a :class:`~harness.engine.SeatView` for learning code.

Made from the seat view only, so it carries exactly what the information filter lets the seat
see (RULES.md §9).  Seats are listed from the viewer round the table (slot 0 is the viewer);
slots past the table's size stay zero, so every table size has the same length.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from harness.engine import SeatView
from harness.engine.cards import BLUE_TYPES, CARD_TYPES, WEAPON_RANGE
from harness.engine.characters import CHARACTERS
from harness.engine.roles import MAX_SEATS, MODES, ROLES, UPGRADES

PHASES: Final = ("start", "draw", "play", "discard")
KINDS: Final = (
    "play", "discard", "respond_shot", "respond_raid", "respond_duel", "draw_source", "putback",
    "upgrade", "bounty",
)  # fmt: skip
_TYPES: Final = {t.id: i for i, t in enumerate(CARD_TYPES)}
_BLUE: Final = {t: i for i, t in enumerate(sorted(BLUE_TYPES))}
_WEAPONS: Final = {t: i for i, t in enumerate(WEAPON_RANGE)}
_CHARS: Final = {c.id: i for i, c in enumerate(CHARACTERS)}
_ROLES: Final[dict[str, int]] = {r: i for i, r in enumerate(ROLES)}
_MODES: Final[dict[str, int]] = {m: i for i, m in enumerate(MODES)}

# Field layout: (name, width).  Counts and sizes are stored as they are; one-hots as 0/1.
GLOBAL_FIELDS: Final = (
    ("n_seats", 1), ("round", 1), ("high_noon", 1), ("shots_used", 1), ("deck_size", 1),
    ("discard_size", 1), ("phase", len(PHASES)), ("mode", len(MODES)), ("role", len(ROLES)),
    ("deciding", 1), ("kind", len(KINDS)), ("game_over", 1), ("won", 1),
    ("hand", len(_TYPES)), ("looking", len(_TYPES)), ("known_deck_top", len(_TYPES)),
    ("discard_top", len(_TYPES)),
)  # fmt: skip
SEAT_FIELDS: Final = (
    ("present", 1), ("alive", 1), ("hp", 1), ("max_hp", 1), ("hand_size", 1), ("range", 1),
    ("in_play", len(_BLUE)), ("weapon", len(_WEAPONS)), ("upgrades", len(UPGRADES)),
    ("role", len(ROLES)), ("marshal_pair", 1), ("distance", 1), ("turn", 1), ("deciding", 1),
    ("character", len(_CHARS)),
)  # fmt: skip
GLOBAL_SIZE: Final = sum(w for _, w in GLOBAL_FIELDS)
SEAT_SIZE: Final = sum(w for _, w in SEAT_FIELDS)
SIZE: Final = GLOBAL_SIZE + MAX_SEATS * SEAT_SIZE
HIGH: Final = 255.0  # every entry lies in [0, HIGH]


def _offsets(fields: tuple[tuple[str, int], ...]) -> dict[str, int]:
    out, at = {}, 0
    for name, width in fields:
        out[name] = at
        at += width
    return out


_G: Final = _offsets(GLOBAL_FIELDS)
_S: Final = _offsets(SEAT_FIELDS)


def _type_of(face: str) -> int:
    return _TYPES[face.partition(".")[0]]


def encode(view: SeatView) -> np.ndarray:
    """The view as a float32 vector of length :data:`SIZE`."""
    out = np.zeros(SIZE, dtype=np.float32)
    g = _G
    out[g["n_seats"]] = view.n_seats
    out[g["round"]] = min(view.round, HIGH)
    out[g["high_noon"]] = view.high_noon
    out[g["shots_used"]] = min(view.shots_used, HIGH)
    out[g["deck_size"]] = view.deck_size
    out[g["discard_size"]] = view.discard_size
    out[g["phase"] + PHASES.index(view.phase)] = 1
    out[g["mode"] + _MODES[view.mode]] = 1
    out[g["role"] + _ROLES[view.role]] = 1
    p = view.pending
    if p is not None:
        out[g["deciding"]] = p.seat == view.viewer
        out[g["kind"] + KINDS.index(p.kind)] = 1
    if view.winning_side is not None:
        out[g["game_over"]] = 1
        out[g["won"]] = view.viewer in view.winners
    for name, faces in (
        ("hand", view.hand),
        ("looking", view.looking),
        ("known_deck_top", view.known_deck_top),
    ):
        for f in faces:
            out[g[name] + _type_of(f)] += 1
    if view.discard_top is not None:
        out[g["discard_top"] + _type_of(view.discard_top)] = 1
    n = view.n_seats
    for k in range(n):
        s = view.seats[(view.viewer + k) % n]
        base = GLOBAL_SIZE + k * SEAT_SIZE
        out[base + _S["present"]] = 1
        out[base + _S["alive"]] = s.alive
        out[base + _S["hp"]] = s.hp
        out[base + _S["max_hp"]] = s.max_hp
        out[base + _S["hand_size"]] = s.hand_size
        out[base + _S["range"]] = s.weapon_range
        for f in s.in_play:
            out[base + _S["in_play"] + _BLUE[f.partition(".")[0]]] = 1
        if s.weapon is not None:
            out[base + _S["weapon"] + _WEAPONS[s.weapon.partition(".")[0]]] = 1
        for u in s.upgrades:
            out[base + _S["upgrades"] + UPGRADES.index(u)] += 1
        role = s.role or view.known_roles.get(s.seat)
        if role is not None:
            out[base + _S["role"] + _ROLES[role]] = 1
        if view.marshal_pair is not None and s.seat in view.marshal_pair:
            out[base + _S["marshal_pair"]] = 1  # double_agent mode: a Deputy or the Agent
        out[base + _S["distance"]] = s.distance or 0
        out[base + _S["turn"]] = s.seat == view.turn
        out[base + _S["deciding"]] = p is not None and p.seat == s.seat
        out[base + _S["character"] + _CHARS[s.character]] = 1
    return out
