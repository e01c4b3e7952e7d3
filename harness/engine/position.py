"""Positions — this game's FEN: a JSON document that sets up any moment of a game.

See ``docs/positions.md`` for the format with an example.  :func:`load_position` builds a
:class:`Game` from a position (a dict or JSON text) and :func:`dump_position` writes a game back;
loading what was written gives the same game (same state, same random generator), so
``dump(load(dump(g))) == dump(g)``.
"""

from __future__ import annotations

import base64
import json
import random
import struct
from collections import deque
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .cards import (
    BLUE_TYPES,
    CARD_FACE,
    CARD_TYPE,
    DECK,
    N_CARDS,
    RANK_TEXT,
    SYMBOL_SUIT,
    TEXT_RANK,
    TYPE_BY_ID,
    WEAPON_RANGE,
)
from .characters import CHARACTER_BY_ID
from .errors import PositionError
from .game import Game
from .state import Frame, Seat

FORMAT = "bangarena-position/1"
Phase = Literal["start", "draw", "play", "discard"]
RoleName = Literal["marshal", "deputy", "raider", "loner", "double_agent"]
UpgradeName = Literal["marksmanship", "toughness", "instinct"]


class SeatPosition(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: RoleName
    character: str
    hp: int = Field(ge=0)
    max_hp: int = Field(ge=1)
    hand: list[str] = []
    in_play: list[str] = []
    weapon: str | None = None
    upgrades: list[UpgradeName] = []
    known_roles: dict[int, RoleName] = {}
    marshal_pair: tuple[int, int] | None = None
    known_top: list[str] = []

    @field_validator("character")
    @classmethod
    def _known_character(cls, v: str) -> str:
        if v not in CHARACTER_BY_ID:
            raise ValueError(f"unknown character {v!r}; known: {', '.join(CHARACTER_BY_ID)}")
        return v


class Position(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["bangarena-position/1"] = "bangarena-position/1"
    mode: Literal["classic", "partners", "double_agent", "old_classic"] = "classic"
    seed: int = 0
    rng_state: str | None = None
    round: int = Field(default=1, ge=1)
    turn: int = Field(default=0, ge=0)
    phase: Phase = "play"
    shots_used: int = Field(default=0, ge=0)
    seats: list[SeatPosition] = Field(min_length=4, max_length=8)
    deck: list[str] | None = None  # top first; unlisted cards are shuffled in below
    discard: list[str] = []  # bottom first: the last one is the top card
    resolving: list[str] = []
    looking: list[str] = []
    coins: list[bool] = []  # forced results of the next Cover coins (true = the hit is blocked)
    stack: list[list[str | int]] | None = None
    winning_side: str | None = None
    winners: list[int] = []


# ----------------------------------------------------------------- card names
def parse_card(text: str) -> tuple[str, str | None]:
    """``shot`` → (shot, None); ``shot.QH`` / ``shot.Q♥`` → (shot, shot.QH)."""
    type_id, dot, code = text.strip().partition(".")
    if type_id not in TYPE_BY_ID:
        raise ValueError(f"unknown card {text!r}")
    if not dot:
        return type_id, None
    if len(code) < 2:
        raise ValueError(f"malformed card {text!r}; expected e.g. shot.QH")
    rank, suit = code[:-1], code[-1]
    suit = SYMBOL_SUIT.get(suit, suit)
    if rank not in TEXT_RANK or suit not in "SHDC":
        raise ValueError(f"malformed card {text!r}; expected e.g. shot.QH")
    face = f"{type_id}.{rank}{suit}"
    if face not in CARD_FACE:
        raise ValueError(f"no such card {text!r} in the deck (Ruling R-1)")
    return type_id, face


class _CardPool:
    """Hands out physical cards for card names, each physical card once."""

    def __init__(self) -> None:
        self.free = list(range(N_CARDS))

    def take(self, where: str, type_id: str, face: str | None) -> int:
        for c in self.free:
            if (face is None and CARD_TYPE[c] == type_id) or CARD_FACE[c] == face:
                self.free.remove(c)
                return c
        copies = sum(1 for c in DECK if (CARD_FACE[c.index] == face if face else c.type == type_id))
        raise PositionError(
            f"position field {where}: no unused {face or type_id} left"
            f" (the deck has {copies} of it)"
        )


def _encode_rng(rng: random.Random) -> str:
    version, internal, gauss = rng.getstate()
    if gauss is not None:  # the engine never uses gauss(); keep the format simple
        raise ValueError("unsupported random state")
    raw = struct.pack(f"<{len(internal)}I", *internal)
    return f"{version}:" + base64.b64encode(raw).decode()


def _decode_rng(text: str) -> tuple[Any, ...]:
    version, _, b64 = text.partition(":")
    raw = base64.b64decode(b64.encode(), validate=True)
    internal = struct.unpack(f"<{len(raw) // 4}I", raw)
    if len(internal) != 625:
        raise ValueError("wrong length")
    return (int(version), internal, None)


def _standard_stack(phase: str, turn: int) -> list[Frame]:
    name = {"start": "begin_turn", "draw": "start_draw", "play": "play", "discard": "discard"}
    return [(name[phase], turn)]


# ----------------------------------------------------------------------- load
def load_position(data: dict[str, Any] | str) -> Game:
    """Build a game from a position; raises :class:`PositionError` naming the bad field."""
    try:
        raw = json.loads(data) if isinstance(data, str) else data
        pos = Position.model_validate(raw)
    except json.JSONDecodeError as e:
        raise PositionError(f"position is not valid JSON: {e.msg} (line {e.lineno})") from None
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "position"
        raise PositionError(f"position field {loc}: {err['msg']}") from None
    return _build(pos)


def _build(pos: Position) -> Game:
    n = len(pos.seats)
    game = Game(n, pos.mode, pos.seed)
    roles = [s.role for s in pos.seats]
    if roles.count("marshal") != 1:
        raise PositionError("position field seats: exactly one seat must be the marshal")
    chars = [s.character for s in pos.seats]
    if len(set(chars)) != n:
        raise PositionError("position field seats: two seats have the same character")
    if not 0 <= pos.turn < n:
        raise PositionError(f"position field turn: must be a seat 0..{n - 1}")
    pool = _CardPool()
    # Exact faces first, so that a bare type never takes a card named elsewhere.
    named: list[tuple[str, str, str | None]] = []

    def card_list(where: str, items: list[str]) -> list[tuple[str, str, str | None]]:
        out = []
        for i, text in enumerate(items):
            try:
                type_id, face = parse_card(text)
            except ValueError as e:
                raise PositionError(f"position field {where}.{i}: {e}") from None
            out.append((f"{where}.{i}", type_id, face))
        return out

    slots: dict[str, list[tuple[str, str, str | None]]] = {}
    for i, sp in enumerate(pos.seats):
        slots[f"seats.{i}.hand"] = card_list(f"seats.{i}.hand", sp.hand)
        slots[f"seats.{i}.in_play"] = card_list(f"seats.{i}.in_play", sp.in_play)
        if sp.weapon is not None:
            (_, w_type, w_face) = card_list(f"seats.{i}.weapon", [sp.weapon])[0]
            slots[f"seats.{i}.weapon"] = [(f"seats.{i}.weapon", w_type, w_face)]
        slots[f"seats.{i}.known_top"] = card_list(f"seats.{i}.known_top", sp.known_top)
    for zone in ("deck", "discard", "resolving", "looking"):
        slots[zone] = card_list(zone, getattr(pos, zone) or [])
    for items in slots.values():
        named.extend(items)
    resolved: dict[str, int] = {}
    for key, type_id, face in sorted(named, key=lambda x: x[2] is None):
        if key.startswith("seats.") and ".known_top." in key:
            continue
        resolved[key] = pool.take(key, type_id, face)

    def cards(slot: str) -> list[int]:
        return [resolved[k] for k, _, _ in slots[slot]]

    for i, sp in enumerate(pos.seats):
        where = f"position field seats.{i}"
        if sp.hp > sp.max_hp:
            raise PositionError(f"{where}.hp: {sp.hp} is above max_hp {sp.max_hp}")
        s = Seat(i, sp.role, sp.character, sp.max_hp)
        s.hp = sp.hp
        s.alive = sp.hp > 0
        s.hand = cards(f"seats.{i}.hand")
        s.in_play = cards(f"seats.{i}.in_play")
        for c in s.in_play:
            if CARD_TYPE[c] not in BLUE_TYPES:
                raise PositionError(f"{where}.in_play: {CARD_TYPE[c]} is not a blue card")
        names = [CARD_TYPE[c] for c in s.in_play]
        if len(set(names)) != len(names):
            raise PositionError(f"{where}.in_play: two cards of the same name in play (R-6)")
        if sp.weapon is not None:
            (w,) = cards(f"seats.{i}.weapon")
            if CARD_TYPE[w] not in WEAPON_RANGE:
                raise PositionError(f"{where}.weapon: {CARD_TYPE[w]} is not a weapon")
            s.weapon = w
        s.upgrades = list(sp.upgrades)
        s.known_roles = dict(sp.known_roles)
        s.marshal_pair = sp.marshal_pair
        if not s.alive and (s.hand or s.in_play or s.weapon >= 0):
            raise PositionError(f"{where}: an eliminated player (hp 0) holds no cards")
        game.seats.append(s)
    game.marshal = roles.index("marshal")
    game.round, game.turn, game.phase = pos.round, pos.turn, pos.phase
    game.shots_used = pos.shots_used
    top_first = cards("deck")
    rest = list(pool.free)
    game.rng.shuffle(rest)
    game.deck = rest + list(reversed(top_first))
    game.discard = cards("discard")
    game.resolving = cards("resolving")
    game.looking = cards("looking")
    for i, sp in enumerate(pos.seats):
        game.seats[i].known_top = _known_top_cards(game, sp.known_top, f"seats.{i}.known_top")
    game.coins = deque(pos.coins)
    if pos.rng_state is not None:
        try:
            game.rng.setstate(_decode_rng(pos.rng_state))
        except (ValueError, TypeError):
            raise PositionError("position field rng_state: not a valid generator state") from None
    game.emit({"t": "position"})
    if pos.winning_side is not None:
        game.winning_side = pos.winning_side
        game.winners = tuple(pos.winners)
        return game
    if pos.stack is None and not game.seats[pos.turn].alive:
        raise PositionError(f"position field turn: seat {pos.turn} is eliminated")
    stack = (
        [tuple(f) for f in pos.stack]
        if pos.stack is not None
        else _standard_stack(pos.phase, pos.turn)
    )
    for i, frame in enumerate(stack):
        if not frame or frame[0] not in Game._FRAMES:
            raise PositionError(f"position field stack.{i}: unknown frame {list(frame)!r}")
    game.stack = stack
    try:
        game.run()
    except (TypeError, IndexError, KeyError, ValueError, AssertionError) as e:
        raise PositionError(f"position field stack: cannot be resumed ({e!r})") from None
    return game


def _known_top_cards(game: Game, faces: list[str], where: str) -> list[int]:
    out: list[int] = []
    for i, f in enumerate(faces):
        # nearest the top: a put-back card lies above any identical copy (wagon.9S ×2)
        match = [c for c in reversed(game.deck) if CARD_FACE[c] == f and c not in out]
        if not match:
            raise PositionError(f"position field {where}.{i}: {f} is not in the deck")
        out.append(match[0])
    return out


# ---------------------------------------------------------------------- dump
def dump_position(game: Game) -> dict[str, Any]:
    """Write the game as a position (a JSON-ready dict)."""
    seats = []
    for s in game.seats:
        sp: dict[str, Any] = {
            "role": s.role,
            "character": s.character,
            "hp": s.hp,
            "max_hp": s.max_hp,
            "hand": [CARD_FACE[c] for c in s.hand],
            "in_play": [CARD_FACE[c] for c in s.in_play],
            "weapon": CARD_FACE[s.weapon] if s.weapon >= 0 else None,
            "upgrades": list(s.upgrades),
        }
        if s.known_roles:
            sp["known_roles"] = {str(k): v for k, v in s.known_roles.items()}
        if s.marshal_pair is not None:
            sp["marshal_pair"] = list(s.marshal_pair)
        known = [CARD_FACE[c] for c in s.known_top]
        if known:
            sp["known_top"] = known
        seats.append(sp)
    out: dict[str, Any] = {
        "format": FORMAT,
        "mode": game.mode,
        "seed": game.seed,
        "rng_state": _encode_rng(game.rng),
        "round": game.round,
        "turn": game.turn,
        "phase": game.phase,
        "shots_used": game.shots_used,
        "seats": seats,
        "deck": [CARD_FACE[c] for c in reversed(game.deck)],
        "discard": [CARD_FACE[c] for c in game.discard],
    }
    if game.resolving:
        out["resolving"] = [CARD_FACE[c] for c in game.resolving]
    if game.looking:
        out["looking"] = [CARD_FACE[c] for c in game.looking]
    if game.coins:
        out["coins"] = list(game.coins)
    if game.is_over:
        out["winning_side"] = game.winning_side
        out["winners"] = list(game.winners)
        return out
    stack = list(game.stack)
    if game.pending_frame is not None:
        stack.append(game.pending_frame)
    if stack != _standard_stack(game.phase, game.turn):
        out["stack"] = [list(f) for f in stack]
    return out


def position_json(game: Game) -> str:
    return json.dumps(dump_position(game), ensure_ascii=False, indent=1)


__all__ = ["Position", "SeatPosition", "dump_position", "load_position", "parse_card", "RANK_TEXT"]
