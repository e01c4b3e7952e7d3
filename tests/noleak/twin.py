"""A counterfactual twin of a game for one seat: the same history as far as the seat can tell,
another hidden deal.

:func:`make_twin` takes the start of a game (its state at the first decision), the same game played
to the end, a seat and a horizon (a number of events).  From the seat's account of the finished
game it knows which cards the seat has not seen before the horizon and whose roles it has not
learned, and re-deals exactly those at the start:

* physical cards the seat has not seen are permuted among themselves within each card type,
  wherever they are (other hands, the deck, a card being looked at), and every face in the deal's
  events is renamed to match;
* the roles of the seats the seat has learned nothing about are permuted among those seats; if the
  seat is the Marshal and was told a pair (RULES.md §2), the two of the pair swap roles; the deal's
  role and intel events and each seat's private knowledge are rewritten to match (Ruling R-3).

Cards keep their type and every role count stays the same among the seats alive, so the engine
offers the same options, draws the same random numbers and reaches the same victory checks: the
same actions replay to the same history until a re-dealt card or role shows up where the seat may
see it.  :func:`replay` applies the actions to both games and stops at that first divergence the
seat may see (an action illegal in the twin, or an event whose part visible to the seat differs —
visible as the event table defines it, not as the filter under test says).  Up to there, whatever
differs in what the seat is given is information it should not have.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from harness.engine import Game, parse_action
from harness.engine.cards import CARD_FACE, CARD_TYPE, N_CARDS
from harness.engine.roles import TEAM_OF

from .account import Account
from .event_visibility import audience_of, rule_for


@dataclass
class Twin:
    game: Game
    faces: dict[str, str]  # original face -> twin face (only the re-dealt ones)
    roles: dict[int, tuple[str, str]]  # seat -> (original role, twin role), changed ones only


@dataclass
class Playout:
    start: Game  # at its first decision; replay a copy
    actions: list[str]
    events_before: list[int]  # events logged before each action
    final: Game


def play_random(n_seats: int, mode: str, seed: int) -> Playout:
    """A random playout of a dealt game."""
    game = Game.new(n_seats, mode, seed)
    start = copy.deepcopy(game)
    rng = random.Random(seed)
    actions, before = [], []
    while game.pending is not None:
        action = rng.choice(game.pending.options)
        actions.append(action.id)
        before.append(len(game.events))
        game.apply(action)
    return Playout(start, actions, before, game)


def make_twin(start: Game, final: Game, seat: int, horizon: int, rng: random.Random) -> Twin:
    """The twin of ``start`` for ``seat`` (see the module docstring): ``final`` is the same game
    played on, whose log tells what ``seat`` learns in its first ``horizon`` events."""
    account = Account.from_game(final)
    seen = account.cards(seat, horizon)
    twin = copy.deepcopy(start)

    # Cards: permute the never-seen physical cards within each type.
    mapping = list(range(N_CARDS))
    by_type: dict[str, list[int]] = {}
    for c in range(N_CARDS):
        if CARD_FACE[c] not in seen:
            by_type.setdefault(CARD_TYPE[c], []).append(c)
    for cards in by_type.values():
        shuffled = cards[:]
        rng.shuffle(shuffled)
        for a, b in zip(cards, shuffled, strict=True):
            mapping[a] = b
    faces = {CARD_FACE[c]: CARD_FACE[mapping[c]] for c in range(N_CARDS)}
    faces = {a: b for a, b in faces.items() if a != b}
    for s in twin.seats:
        s.hand = [mapping[c] for c in s.hand]
        s.in_play = [mapping[c] for c in s.in_play]
        s.weapon = mapping[s.weapon] if s.weapon >= 0 else -1
    twin.deck = [mapping[c] for c in twin.deck]
    twin.discard = [mapping[c] for c in twin.discard]
    twin.looking = [mapping[c] for c in twin.looking]
    for event in twin.events:
        _rename_faces(event, faces)

    # Roles: permute those the seat never learns anything about.
    teams = account.teams(seat, horizon)
    pair = account.pair(seat, horizon)
    hidden = [j for j in range(twin.n) if j != seat and j not in teams and not (pair and j in pair)]
    new_roles = {s.index: s.role for s in twin.seats}
    permuted = [new_roles[j] for j in hidden]
    rng.shuffle(permuted)
    new_roles.update(zip(hidden, permuted, strict=True))
    if pair and not (set(pair) & set(teams)):
        a, b = sorted(pair)
        new_roles[a], new_roles[b] = new_roles[b], new_roles[a]
    changed = {
        s.index: (s.role, new_roles[s.index]) for s in twin.seats if s.role != new_roles[s.index]
    }
    for s in twin.seats:
        s.role = new_roles[s.index]
    _rewrite_deal(twin)

    # The pending decision's options may name cards (a put-back): ask again.
    frame = twin.pending_frame
    assert frame is not None, "the start must be at a decision"
    n_events = len(twin.events)
    twin.pending = twin.pending_frame = None
    twin.stack.append(frame)
    twin.run()
    assert len(twin.events) == n_events, "asking again logged events"
    return Twin(twin, faces, changed)


def _rename_faces(obj: Any, faces: dict[str, str]) -> Any:
    if isinstance(obj, dict):
        for k, v in obj.items():
            obj[k] = _rename_faces(v, faces)
        return obj
    if isinstance(obj, list):
        return [_rename_faces(v, faces) for v in obj]
    if isinstance(obj, str):
        return faces.get(obj, obj)
    return obj


def _rewrite_deal(game: Game) -> None:
    """Role and intel events and private knowledge for the twin's roles (RULES.md §2, R-3)."""
    seats = game.seats
    for event in game.events:
        if event["t"] == "role" and "secret" in event:
            event["secret"]["role"] = seats[event["seat"]].role
    intel = [i for i, e in enumerate(game.events) if e["t"] == "intel"]
    if not intel:
        return
    old_pair = next(game.events[i]["secret"]["deputy_or_agent"] for i in intel
                    if "deputy_or_agent" in game.events[i]["secret"])  # fmt: skip
    deputies = [s.index for s in seats if s.role == "deputy"]
    agent = next(s.index for s in seats if s.role == "double_agent")
    deputy = next((j for j in old_pair if j in deputies), deputies[0])
    pair = [deputy, agent] if seats[old_pair[0]].role == "deputy" else [agent, deputy]
    if set(old_pair) == set(pair):
        pair = list(old_pair)  # the Marshal's view of the pair does not change
    team = [s.index for s in seats if TEAM_OF[s.role] == "raiders"]
    marshal = game.marshal
    new_events: list[dict[str, Any]] = [
        {"t": "intel", "seat": marshal, "to": [marshal], "secret": {"deputy_or_agent": pair}}
    ]
    for s in seats:
        s.known_roles = {}
    seats[marshal].marshal_pair = (pair[0], pair[1])
    for i in team:
        known = {j: seats[j].role for j in team if j != i}
        seats[i].known_roles = known
        new_events.append(
            {"t": "intel", "seat": i, "to": [i],
             "secret": {"team": {str(j): r for j, r in known.items()}}}
        )  # fmt: skip
    assert len(new_events) == len(intel)
    for i, event in zip(intel, new_events, strict=True):
        game.events[i] = event


def visible_part(event: dict[str, Any], seat: int, n_seats: int) -> dict[str, Any]:
    """The fields of ``event`` the event table lets ``seat`` see (-1: the public part)."""
    full = {k: v for k, v in event.items() if k not in ("to", "secret")}
    full.update(event.get("secret", {}))
    fields = rule_for(event["t"]).fields
    return {
        k: v
        for k, v in full.items()
        if k == "t" or (a := audience_of(fields[k], full, n_seats)) is None or seat in a
    }


@dataclass
class Step:
    index: int  # actions applied so far
    original: Game
    twin: Game


def replay(
    start: Game,
    twin: Twin,
    actions: Sequence[str],
    seat: int,
    diverged: Callable[[str], None] | None = None,
) -> Iterator[Step]:
    """Yield both games before each action, then apply it to both (``start`` is played on); stop
    at the first divergence ``seat`` may see (reported to ``diverged``)."""
    a, b = start, twin.game
    for i, action_id in enumerate(actions):
        yield Step(i, a, b)
        action = parse_action(action_id)
        if action.verb == "putback":
            action = action._replace(arg=twin.faces.get(action.arg, action.arg))
        if b.pending is None or action not in b.pending.options:
            if diverged:
                diverged(f"action {i} {action_id!r} is not legal in the twin")
            return
        n = len(a.events)
        a.apply(action_id)
        b.apply(action)
        new_a = [visible_part(e, seat, a.n) for e in a.events[n:]]
        new_b = [visible_part(e, seat, b.n) for e in b.events[n:]]
        if new_a != new_b:
            if diverged:
                diverged(f"action {i} {action_id!r}: the seat sees {new_a} / {new_b}")
            return
    yield Step(len(actions), a, b)


__all__ = ["Playout", "Step", "Twin", "make_twin", "play_random", "replay", "visible_part"]
