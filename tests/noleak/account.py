"""An independent account of what each seat may know, computed from the raw event log.

The account reads ``game.events`` — every event with its secret part merged in — and nothing else
of the code under test: no ``build_view``, no ``filter_event``, no renderer.  Which field of an
event a seat learns is decided by the table in :mod:`tests.noleak.event_visibility` (the rules of
RULES.md §9), never by the engine's ``to`` list; the two are compared in ``test_event_table.py``.

Knowledge is a function of ``upto``, the number of events taken into account (pass a view's
``event_count``).  ``seat = -1`` is a spectator, who knows only what is public.

* :meth:`Account.cards` — every card face the seat has legitimately seen: its own draws, looks,
  put-backs and cards taken from or by it, and everything shown to all (plays, discards, checks,
  shown cards, the discard pile, in-play cards, eliminated players' cards).  Faces stay known once
  seen (two physical cards with one face, such as the two ``wagon.9S``, are one identity).
* :meth:`Account.roles` — exact roles: its own, the Marshal (RULES.md §2), eliminated players
  (Ruling R-9) and the raiders team at the deal in double_agent mode (Ruling R-3).
* :meth:`Account.teams` — teams: those of the exact roles, plus the winning side's players once
  the game is over (RULES.md §8).
* :meth:`Account.pair` — the Marshal's two names in double_agent mode, as a set (he is not told
  which is the Deputy).
* :meth:`Account.deck_top` — the cards the seat put back that are still on top of the deck, top
  first: a model of the deck's top computed from the events that move cards on and off it.
* :meth:`Account.looking` — the cards the seat is looking at between a ``look`` and its ``keep``.

Only games dealt by ``Game.new`` are covered: the deal (roles, intel, starting hands) is in their
log.  A game loaded from a position is refused with a clear error.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from harness.engine import Game
from harness.engine.roles import TEAM_OF

from .event_visibility import (
    CARD,
    CARDS,
    MARSHAL,
    PAIR,
    ROLE,
    SIDE_TEAM,
    TEAM,
    WINNERS,
    audience_of,
    rule_for,
)

T = TypeVar("T")
SPECTATOR = -1
_IGNORED_KEYS = frozenset({"t", "to", "secret"})


class _Timeline(Generic[T]):
    """A value that changes at some event indices; ``get(upto)`` is its value after ``upto``
    events."""

    def __init__(self, initial: T) -> None:
        self._at: list[int] = [-1]
        self._values: list[T] = [initial]

    def set(self, index: int, value: T) -> None:
        if value != self._values[-1]:
            self._at.append(index)
            self._values.append(value)

    def get(self, upto: int) -> T:
        return self._values[bisect_left(self._at, upto) - 1]


class Account:
    """What each seat may know after each event; see the module docstring."""

    def __init__(self, n_seats: int, mode: str) -> None:
        self.n = n_seats
        self.mode = mode
        self.processed = 0
        seats = [SPECTATOR, *range(n_seats)]
        self._cards: dict[int, dict[str, int]] = {s: {} for s in seats}
        self._roles: dict[int, dict[int, tuple[int, str]]] = {s: {} for s in seats}
        self._teams: dict[int, dict[int, tuple[int, str]]] = {s: {} for s in seats}
        self._pair: dict[int, tuple[int, frozenset[int]]] = {}
        self._deck_top = {s: _Timeline[tuple[str, ...]](()) for s in seats}
        self._looking = {s: _Timeline[tuple[str, ...]](()) for s in seats}
        self._slots: list[tuple[int, str]] = []  # modelled top of the deck: (owner, face), top last
        self._limbo: dict[int, list[str]] = {}  # seat -> cards looked at, not yet kept

    # ----------------------------------------------------------------- building
    @classmethod
    def from_game(cls, game: Game) -> Account:
        """The account of ``game`` at its current point (any point of a dealt game)."""
        events = game.events
        if not events or events[0].get("t") != "setup":
            first = events[0].get("t") if events else None
            raise ValueError(
                f"the account needs a dealt game (Game.new) whose log starts with 'setup', "
                f"not {first!r}"
            )
        account = cls(game.n, game.mode)
        account.update(game)
        return account

    def update(self, game: Game) -> Account:
        """Take in the events ``game`` has logged since the last update (the log only grows)."""
        self.feed(game.events[self.processed :])
        return self

    def feed(self, events: Iterable[dict[str, Any]]) -> None:
        for event in events:
            self._event(self.processed, event)
            self.processed += 1

    def _everyone(self) -> list[int]:
        return [SPECTATOR, *range(self.n)]

    def _event(self, i: int, event: dict[str, Any]) -> None:
        t = event["t"]
        rule = rule_for(t)
        full = {k: v for k, v in event.items() if k not in _IGNORED_KEYS}
        full.update(event.get("secret", {}))
        for key, value in full.items():
            f = rule.fields.get(key)
            if f is None:
                raise KeyError(
                    f"event {i} ({t!r}) has field {key!r}, which tests/noleak/event_visibility.py "
                    f"does not classify"
                )
            aud = audience_of(f, full, self.n)
            learners = self._everyone() if aud is None else sorted(aud)
            self._learn(i, f.kind, value, full, learners)
        self._deck(i, t, full)

    def _learn(
        self, i: int, kind: str, value: Any, event: dict[str, Any], learners: list[int]
    ) -> None:
        if kind == CARD:
            faces = [value]
        elif kind == CARDS:
            faces = list(value)
        else:
            faces = []
        for s in learners:
            known = self._cards[s]
            for face in faces:
                known.setdefault(face, i)
        if kind == ROLE:
            for s in learners:
                self._know_role(s, i, int(event["seat"]), value)
        elif kind == MARSHAL:
            for s in learners:
                self._know_role(s, i, int(value), "marshal")
        elif kind == TEAM:
            for s in learners:
                for j, role in value.items():
                    self._know_role(s, i, int(j), role)
        elif kind == PAIR:
            for s in learners:
                self._pair.setdefault(s, (i, frozenset(int(j) for j in value)))
        elif kind == WINNERS:
            team = SIDE_TEAM[event["side"]]
            for s in learners:
                for j in value:
                    self._teams[s].setdefault(int(j), (i, team))

    def _know_role(self, seat: int, i: int, whose: int, role: str) -> None:
        self._roles[seat].setdefault(whose, (i, role))
        self._teams[seat].setdefault(whose, (i, TEAM_OF[role]))

    # ----------------------------------------------------------- deck top model
    def _deck(self, i: int, t: str, e: dict[str, Any]) -> None:
        """The top of the deck as far as put-back cards go (RULES.md §3 "Deck", §9)."""
        changed = False
        if t == "shuffle":
            changed = bool(self._slots)
            self._slots.clear()
        elif t == "look":
            changed = self._pop(int(e["n"]))
            self._limbo[int(e["seat"])] = list(e["cards"])
            self._looking[int(e["seat"])].set(i, tuple(e["cards"]))
        elif t == "putback":
            seat = int(e["seat"])
            self._slots.append((seat, e["card"]))
            limbo = self._limbo.get(seat)
            if limbo is not None and e["card"] in limbo:
                limbo.remove(e["card"])
                self._looking[seat].set(i, tuple(limbo))
            changed = True
        elif t == "draw":
            seat = int(e["seat"])
            if seat in self._limbo and e["why"] == "draw":  # the keep after a look: no new card
                del self._limbo[seat]
                self._looking[seat].set(i, ())
            else:
                changed = self._pop(int(e["n"]))
        elif t == "check":
            changed = self._pop(1)
        if changed:
            for s in range(self.n):
                run: list[str] = []
                for owner, face in reversed(self._slots):
                    if owner != s:
                        break
                    run.append(face)
                self._deck_top[s].set(i, tuple(run))

    def _pop(self, n: int) -> bool:
        if not self._slots or n <= 0:
            return False
        del self._slots[max(0, len(self._slots) - n) :]
        return True

    # ------------------------------------------------------------------ queries
    def _upto(self, upto: int | None) -> int:
        if upto is None:
            return self.processed
        if upto > self.processed:
            raise ValueError(f"the account has {self.processed} events, asked about {upto}")
        return upto

    def _check_seat(self, seat: int) -> None:
        if not SPECTATOR <= seat < self.n:
            raise ValueError(f"seat {seat} is not at this {self.n}-seat table")

    def cards(self, seat: int, upto_event: int | None = None) -> set[str]:
        """Card faces ``seat`` has seen in the first ``upto_event`` events."""
        self._check_seat(seat)
        u = self._upto(upto_event)
        return {f for f, i in self._cards[seat].items() if i < u}

    def first_seen(self, seat: int, face: str) -> int | None:
        """The index of the event that first showed ``face`` to ``seat`` (None: never)."""
        return self._cards[seat].get(face)

    def roles(self, seat: int, upto_event: int | None = None) -> dict[int, str]:
        """Exact roles ``seat`` knows after ``upto_event`` events (its own included)."""
        self._check_seat(seat)
        u = self._upto(upto_event)
        return {j: r for j, (i, r) in self._roles[seat].items() if i < u}

    def teams(self, seat: int, upto_event: int | None = None) -> dict[int, str]:
        """Teams (law / raiders / loners) ``seat`` knows after ``upto_event`` events."""
        self._check_seat(seat)
        u = self._upto(upto_event)
        return {j: team for j, (i, team) in self._teams[seat].items() if i < u}

    def pair(self, seat: int, upto_event: int | None = None) -> frozenset[int] | None:
        """The Marshal's two names (a Deputy and the Double Agent, unordered) if ``seat`` knows
        them."""
        self._check_seat(seat)
        got = self._pair.get(seat)
        if got is None or got[0] >= self._upto(upto_event):
            return None
        return got[1]

    def deck_top(self, seat: int, upto_event: int | None = None) -> tuple[str, ...]:
        """The unbroken run of cards ``seat`` put back that are on top of the deck, top first."""
        self._check_seat(seat)
        if seat == SPECTATOR:
            return ()
        return self._deck_top[seat].get(self._upto(upto_event))

    def looking(self, seat: int, upto_event: int | None = None) -> tuple[str, ...]:
        """The cards ``seat`` is looking at during its draw phase (empty otherwise)."""
        self._check_seat(seat)
        if seat == SPECTATOR:
            return ()
        return self._looking[seat].get(self._upto(upto_event))


__all__ = ["SPECTATOR", "Account"]
