"""What-if worlds of a quiz position, all computed by the engine on copies of the game.

* :func:`position_of` / :func:`load` — a question's position: the engine's position format without
  the random generator's state, so no answer can depend on a future random draw.
* :func:`what_if` — a copy with an option applied, the stated Cover outcome forced, then played
  forward by the quiz policy (:func:`resolve`): every response takes the hit, every upgrade or
  bounty choice takes the first option.
* :func:`restart` — a copy that runs the given engine frames first (the start of a seat's turn, an
  upgrade gained now), for hypothetical questions.
* :func:`role_worlds` / :func:`across_worlds` — every assignment of the roles the asked seat cannot
  see (RULES.md §9), so a question is only asked when its answer is the same in all of them.
* :func:`with_cards` — a copy in which a seat also holds the named cards, taken from zones that
  seat cannot see.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from harness.engine import Action, Game, dump_position, load_position
from harness.engine.cards import CARD_FACE, CARD_SUIT, CARD_TYPE
from harness.engine.redeal import role_worlds, unknown_seats

T = TypeVar("T")

RESPONSES = frozenset({"respond_shot", "respond_raid", "respond_duel"})
AUTO_CHOICES = frozenset({"upgrade", "bounty"})
MAX_STEPS = 500


def position_of(game: Game) -> dict[str, Any]:
    """The game as a position (``bangarena-position/1``) without ``rng_state``."""
    pos = dump_position(game)
    pos.pop("rng_state", None)
    return pos


def load(position: Mapping[str, Any]) -> Game:
    """The game of a stored question position."""
    return load_position(copy.deepcopy(dict(position)))


def clone(game: Game) -> Game:
    """A deep copy of ``game`` that shares its immutable parts (the pending decision, the frames)
    and has a fresh generator seeded from the game's seed: a quiz answer never depends on a
    random draw, only on the outcomes a question states and forces."""
    memo: dict[int, Any] = {id(game.rng): random.Random(game.seed)}
    for frozen in (game.pending, game.pending_frame, *game.stack):
        if frozen is not None:
            memo[id(frozen)] = frozen
    return copy.deepcopy(game, memo)


def resolve(game: Game, asker: int) -> Game:
    """Play ``game`` forward by the quiz policy until the asker's play decision is back, the game
    is over, or a decision outside the policy is pending; returns ``game``."""
    for _ in range(MAX_STEPS):
        d = game.pending
        if d is None or (d.seat == asker and d.kind == "play"):
            return game
        if d.kind in RESPONSES:
            game.apply(Action("take"))
        elif d.kind in AUTO_CHOICES:
            game.apply(d.options[0])
        else:
            return game
    raise RuntimeError("the quiz policy did not settle the position")


def force_cover(game: Game, blocked: bool) -> None:
    """Every Cover check of ``game`` from now on comes out ``blocked`` (a coin; in old_classic a
    revealed card, so the deck's ♥ cards go on top for a success, the others for a failure)."""
    if game.mode != "old_classic":
        game.coins = deque([blocked] * 32)
        return
    hearts = [c for c in game.deck if CARD_SUIT[c] == "H"]
    others = [c for c in game.deck if CARD_SUIT[c] != "H"]
    game.deck = (others + hearts) if blocked else (hearts + others)  # the top is the end


def cover_results(events: Iterable[Mapping[str, Any]]) -> list[tuple[int, bool]]:
    """(seat, blocked) of every Cover check among ``events``."""
    out = []
    for e in events:
        if e["t"] == "coin":
            out.append((e["seat"], bool(e["ok"])))
        elif e["t"] == "check" and e["for"] == "cover":
            out.append((e["seat"], e["card"].endswith("H")))
    return out


def what_if(
    game: Game,
    asker: int,
    option: str,
    *,
    blocked: bool = False,
    roles: Mapping[int, str] | None = None,
    settle: bool = True,
) -> tuple[Game, list[dict[str, Any]]]:
    """A copy with ``option`` applied (Cover checks forced to ``blocked``, hidden roles replaced by
    ``roles``) and, when ``settle``, resolved by the quiz policy; returns it and the new events."""
    g = clone(game)
    for seat, role in (roles or {}).items():
        g.seats[seat].role = role
    force_cover(g, blocked)
    start = len(g.events)
    g.apply(option)
    if settle:
        resolve(g, asker)
    return g, g.events[start:]


def restart(game: Game, frames: Sequence[tuple[Any, ...]], *, turn: int | None = None) -> Game:
    """A copy whose pending decision is dropped and whose engine runs ``frames`` (the first one
    first) until the next decision; ``turn`` makes it that seat's turn (Shots unused)."""
    g = clone(game)
    g.pending = None
    g.pending_frame = None
    if turn is not None:
        g.turn = turn
        g.shots_used = 0
        g.stack = []
    g.stack.extend(reversed(list(frames)))
    g.run()
    return g


def put_on_top(game: Game, faces: Sequence[str]) -> bool:
    """Move the cards ``faces`` (from the deck, the discard pile, a hand or the cards a seat is
    looking at) onto the deck, the first face on top; ``False`` when one of them is in play."""
    for face in reversed(faces):
        card = CARD_FACE.index(face)
        for zone in (game.deck, game.discard, game.looking, *(s.hand for s in game.seats)):
            if card in zone:
                zone.remove(card)
                break
        else:
            return False
        game.deck.append(card)
    return True


def hidden_faces(game: Game, seat: int) -> list[str]:
    """Faces of the cards ``seat`` cannot see (other hands, the deck below its known top, cards
    being looked at by another seat), sorted."""
    me = game.seats[seat]
    seen = set(me.hand) | set(me.known_top) | set(game.discard) | set(game.resolving)
    for s in game.seats:
        seen.update(s.in_play)
        if s.weapon >= 0:
            seen.add(s.weapon)
    if game.pending is not None and game.pending.seat == seat:
        seen.update(game.looking)
    return sorted(CARD_FACE[c] for c in range(len(CARD_FACE)) if c not in seen)


def with_cards(game: Game, seat: int, types: Sequence[str]) -> Game | None:
    """A copy in which ``seat`` holds a card of every type in ``types`` (those it lacks are taken
    from the deck, else the discard pile, else the largest other hand); ``None`` when a type has
    no copy left in those zones."""
    g = clone(game)
    me = g.seats[seat]
    for type_id in types:
        if me.hand_card(type_id) >= 0:
            continue
        others = sorted(
            (s for s in g.seats if s.index != seat), key=lambda s: (-len(s.hand), s.index)
        )
        for zone in (g.deck, g.discard, *(s.hand for s in others)):
            card = next((c for c in zone if CARD_TYPE[c] == type_id), -1)
            if card >= 0:
                zone.remove(card)
                me.hand.append(card)
                break
        else:
            return None
    return g


# ------------------------------------------------------------------ roles the seat cannot see


def possible_roles(game: Game, seat: int, target: int) -> list[str]:
    """The roles ``target`` may have as far as ``seat`` can tell."""
    if target not in unknown_seats(game, seat):
        return [game.seats[target].role]
    return sorted({w[target] for w in role_worlds(game, seat)})


def across_worlds(
    game: Game,
    seat: int,
    compute: Callable[[Mapping[int, str]], T],
    fixed: Mapping[int, str] | None = None,
) -> T | None:
    """``compute(roles)`` when it is the same for every role world of ``seat`` (``fixed`` roles
    held), else ``None``."""
    worlds = role_worlds(game, seat, fixed)
    if not worlds:
        return None
    first = compute(worlds[0])
    for world in worlds[1:]:
        if compute(world) != first:
            return None
    return first


def eliminated(events: Iterable[Mapping[str, Any]]) -> bool:
    return any(e["t"] == "eliminated" for e in events)


__all__ = [
    "across_worlds",
    "clone",
    "cover_results",
    "eliminated",
    "force_cover",
    "hidden_faces",
    "load",
    "position_of",
    "possible_roles",
    "put_on_top",
    "resolve",
    "restart",
    "role_worlds",
    "unknown_seats",
    "what_if",
    "with_cards",
]
