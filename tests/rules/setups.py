"""Position builders and hand readers shared by several scenario test files of this package.

``hands``, ``shot_targets`` and ``_checks_pos`` serve the card tests (``test_cards_*.py``);
``CHARACTER_HP``, ``four``, ``hand_types`` and ``hand_faces`` the character tests
(``test_characters_*.py``)."""

from __future__ import annotations

from harness.engine import Game
from harness.engine.cards import CARD_FACE

from .helpers import pos, seat, types


def hands(d: dict, **by_seat: list[str]) -> dict:
    """Set hands: ``hands(d, s0=[...], s2=[...])``."""
    for k, v in by_seat.items():
        d["seats"][int(k[1:])]["hand"] = v
    return d


def shot_targets(game, card: str = "shot") -> set[int]:
    return {int(o.split("@")[1]) for o in game.pending.option_ids if o.startswith(f"play:{card}@")}


def _checks_pos(in_play: list[str], deck: list[str], hand: list[str] | None = None, **kw) -> dict:
    """Seat 3 (Empty Hands, no draw-phase choice) starts its turn with ``in_play``."""
    seats = [
        seat("marshal", "red_suit"),
        seat("raider", "grip"),
        seat("raider", "three_eyes"),
        seat("loner", "empty_hands", hand=["duel", "duel", "duel", "raid"] if hand is None else hand,
             in_play=in_play),
    ]  # fmt: skip
    return pos(seats, turn=3, phase="start", deck=deck, **kw)


# RULES.md §1 character table (♥; Old classic ♥ in the second entry where it differs).
CHARACTER_HP = {
    "stone_leopard": 3,
    "red_suit": 4,
    "two_face": 4,
    "collector": 3,
    "grip": 4,
    "iron_brow": 4,
    "three_eyes": 4,
    "lucky": 4,
    "pass_shadow": 3,
    "vulture_jr": 4,
    "eagle_eye": 4,
    "bonesetter": 5,
    "double_barrel": 4,
    "empty_hands": 4,
    "scavenger": 4,
    "mad_dog": 4,
}


def four(c0: str, c1: str, c2: str | None = None, c3: str | None = None, **kw) -> dict:
    """A 4-seat table (marshal, raider, raider, loner) with the given characters (seats 2 and 3
    default to unused plain ones); ``kw`` are per-seat overrides ``s0={...}`` .. ``s3={...}``
    plus top-level position fields.  Everyone is at full ♥ (Marshal +2)."""
    roles = ("marshal", "raider", "raider", "loner")
    spare = [c for c in ("grip", "three_eyes", "red_suit", "two_face") if c not in (c0, c1, c2, c3)]
    chars = (c0, c1, c2 or spare.pop(0), c3 or spare.pop(0))
    seats = []
    for i, (r, c) in enumerate(zip(roles, chars, strict=True)):
        s = seat(r, c, CHARACTER_HP[c] + (2 if r == "marshal" else 0))
        s.update(kw.pop(f"s{i}", {}))
        seats.append(s)
    return pos(seats, **kw)


def hand_types(game: Game, i: int) -> list[str]:
    return types(game.seats[i].hand)


def hand_faces(game: Game, i: int) -> list[str]:
    return [CARD_FACE[c] for c in game.seats[i].hand]
