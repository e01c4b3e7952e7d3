"""Game state and the primitive operations every rule is built from.

The state is plain mutable data (seats, zones, counters, the frame stack).  Cards are ints indexing
:data:`harness.engine.cards.DECK`.  The deck and the discard pile keep their *top at the end* of the
list.  Every random outcome goes through the one injected :class:`random.Random` and becomes an
event.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any, Literal, NamedTuple, get_args

from .actions import Action, action_id
from .cards import CARD_FACE, CARD_SUIT, CARD_TYPE, REVOLVER_RANGE, WEAPON_RANGE
from .roles import HIGH_NOON_ROUND, MAX_SEATS

Event = dict[str, Any]
Frame = tuple[Any, ...]

# What a pending decision asks for (a turn RULES.md §3, answers §5, glory §7); every
# ``Game.ask`` names one of these (tests/engine/test_kinds.py checks the engine asks no other).
DecisionKind = Literal[
    "draw_source",  # where a seat whose character may choose takes its draw from
    "putback",  # which looked-at cards go back on the deck
    "play",  # the acting seat's next play, or ending the turn
    "discard",  # which cards to discard at the end of the turn
    "respond_shot",  # answering a Shot, or taking the hit
    "respond_raid",  # answering a Raid, or taking the hit
    "respond_duel",  # answering a Duel, or taking the hit
    "upgrade",  # which ★ upgrade to gain
    "bounty",  # which bounty to take for an elimination
]
DECISION_KINDS: tuple[DecisionKind, ...] = get_args(DecisionKind)

# The ``"t"`` of every engine event (an event is a plain dict for speed, so mypy cannot check
# the literals at the ``emit`` calls: tests/engine/test_kinds.py checks them against the source)
EventType = Literal[
    "check", "coin", "collect", "discard", "draw", "dynamite", "eliminated", "end_turn",
    "game_over", "grab", "heal", "high_noon", "hit", "intel", "jail", "knocked", "look", "miss",
    "penalty", "play", "position", "putback", "role", "scavenge", "setup", "show", "shuffle",
    "star", "steal", "take_discard", "turn",
]  # fmt: skip
EVENT_TYPES: tuple[EventType, ...] = get_args(EventType)


def _ring(m: int, p: int, limit: int) -> tuple[tuple[int, int], ...]:
    """Among ``m`` living seats, seen from the ``p``-th of them, the others whose step distance
    (steps round the table, the shorter way) is at most ``limit``: (place among the living,
    distance), in seat order."""
    out = []
    for q in range(m):
        steps = min((q - p) % m, (p - q) % m)
        if q != p and steps <= limit:
            out.append((q, steps))
    return tuple(out)


# ``_RING[m][p][limit]`` = ``_ring(m, p, limit)`` for each limit up to ``m // 2`` (the farthest
# any seat is)
_RING: tuple[tuple[tuple[tuple[tuple[int, int], ...], ...], ...], ...] = tuple(
    tuple(tuple(_ring(m, p, limit) for limit in range(m // 2 + 1)) for p in range(m))
    for m in range(MAX_SEATS + 1)
)


class Decision(NamedTuple):
    """The one pending decision: which seat decides, what kind of decision, the legal options."""

    seat: int
    kind: DecisionKind
    options: tuple[Action, ...]

    @property
    def option_ids(self) -> list[str]:
        return list(map(action_id, self.options))


class Seat:
    __slots__ = (
        "index", "role", "character", "hp", "max_hp", "hand", "in_play", "weapon", "upgrades",
        "alive", "known_roles", "marshal_pair", "known_top",
    )  # fmt: skip

    def __init__(self, index: int, role: str, character: str, max_hp: int) -> None:
        self.index = index
        self.role = role
        self.character = character
        self.hp = max_hp
        self.max_hp = max_hp
        self.hand: list[int] = []  # in the order received; the last is the newest
        self.in_play: list[int] = []  # blue cards, in the order played
        self.weapon = -1  # card index, -1 = Revolver
        self.upgrades: list[str] = []  # one per ★, in the order gained
        self.alive = True
        self.known_roles: dict[int, str] = {}  # private knowledge of other seats' roles
        self.marshal_pair: tuple[int, int] | None = None  # double_agent mode, Marshal only
        self.known_top: list[
            int
        ] = []  # cards this seat put back on the deck (Three Eyes, Instinct)

    def has_in_play(self, type_id: str) -> bool:
        for c in self.in_play:  # noqa: SIM110 - a plain loop is faster on this hot path
            if CARD_TYPE[c] == type_id:
                return True
        return False

    def in_play_card(self, type_id: str) -> int:
        for c in self.in_play:
            if CARD_TYPE[c] == type_id:
                return c
        return -1

    def hand_card(self, type_id: str) -> int:
        """The most recently received copy of ``type_id`` in hand, or -1."""
        for c in reversed(self.hand):
            if CARD_TYPE[c] == type_id:
                return c
        return -1

    def count_in_hand(self, type_id: str) -> int:
        return list(map(CARD_TYPE.__getitem__, self.hand)).count(type_id)

    @property
    def stars(self) -> int:
        return len(self.upgrades)

    @property
    def weapon_range(self) -> int:
        base = WEAPON_RANGE[CARD_TYPE[self.weapon]] if self.weapon >= 0 else REVOLVER_RANGE
        return base + self.upgrades.count("marksmanship") if self.upgrades else base

    @property
    def has_scope(self) -> bool:
        return self.character in ("eagle_eye", "mad_dog") or bool(
            self.in_play and self.has_in_play("scope")
        )

    @property
    def horse_bonus(self) -> int:
        # Ruling R-6: built-in equipment never stacks with the card.
        if self.character == "pass_shadow":
            return 2
        return 1 if self.in_play and self.has_in_play("horse") else 0

    @property
    def has_cover(self) -> bool:
        return self.character == "iron_brow" or self.has_in_play("cover")


class GameState:
    """All state of one game plus the primitives (events, deck, checks, distance)."""

    n: int
    mode: str
    seats: list[Seat]
    marshal: int
    round: int
    turn: int
    phase: str  # start (checks) | draw | play | discard
    shots_used: int
    deck: list[int]
    discard: list[int]
    resolving: list[int]
    looking: list[int]
    rng: random.Random
    coins: deque[bool]
    events: list[Event]
    stack: list[Frame]
    pending: Decision | None
    pending_frame: Frame | None
    winning_side: str | None
    winners: tuple[int, ...]

    # ----------------------------------------------------------------- events
    def emit(self, event: Event) -> None:
        self.events.append(event)

    def emit_private(self, event: Event, to: list[int], secret: dict[str, Any]) -> None:
        """An event whose ``secret`` part only the seats in ``to`` see (``[]``: log only)."""
        event["to"] = to
        event["secret"] = secret
        self.events.append(event)

    # ------------------------------------------------------------ table facts
    @property
    def high_noon(self) -> bool:
        return self.mode != "old_classic" and self.round >= HIGH_NOON_ROUND

    @property
    def is_over(self) -> bool:
        return self.winning_side is not None

    def living(self) -> list[int]:
        return [s.index for s in self.seats if s.alive]

    def n_alive(self) -> int:
        return [s.alive for s in self.seats].count(True)

    def next_living(self, seat: int) -> int:
        n = self.n
        for step in range(1, n + 1):
            j = (seat + step) % n
            if self.seats[j].alive:
                return j
        return seat

    def others_by_index(self, seat: int) -> list[int]:
        """Living players other than ``seat``, by seat index."""
        seats = self.seats
        return [j for j in range(self.n) if j != seat and seats[j].alive]

    def others_in_turn_order(self, seat: int) -> list[int]:
        """Living players other than ``seat``, in turn order starting after ``seat``."""
        n = self.n
        seats = self.seats
        return [j for j in ((seat + k) % n for k in range(1, n)) if seats[j].alive]

    def distance(self, a: int, b: int) -> int:
        """RULES.md §4: fewest steps among living players, +Horse of b, −Scope of a, min 1."""
        seats = self.seats
        if a < b:
            lo, hi = a, b
        else:
            lo, hi = b, a
        inner = 0
        alive = 0
        for j, s in enumerate(seats):
            if s.alive:
                alive += 1
                if lo < j < hi:
                    inner += 1
        outer = alive - 2 - inner
        d = 1 + (inner if inner < outer else outer)
        d += seats[b].horse_bonus
        if seats[a].has_scope:
            d -= 1
        return d if d > 1 else 1

    def seats_within(self, a: int, reach: int) -> list[int]:
        """Living seats other than ``a`` at :meth:`distance` at most ``reach`` (>= 1) from ``a``,
        by seat index; a Horse is only looked at for seats the steps alone keep in reach."""
        seats = self.seats
        n = self.n
        if not seats[a].alive:
            return [
                j for j in range(n) if j != a and seats[j].alive and self.distance(a, j) <= reach
            ]
        me = seats[a]
        living = [s for s in seats if s.alive]
        m = len(living)
        # distance = max(1, steps + Horse - Scope) <= reach  <=>  steps + Horse <= reach + Scope
        limit = reach + 1 if me.has_scope else reach
        half = m // 2
        out = []
        for q, steps in _RING[m][living.index(me)][limit if limit < half else half]:
            t = living[q]
            if steps + t.horse_bonus <= limit:
                out.append(t.index)
        return out

    def unlimited_shots(self, s: Seat) -> bool:
        return (
            self.high_noon
            or s.character == "mad_dog"
            or (s.weapon >= 0 and CARD_TYPE[s.weapon] == "volcanic")
        )

    # ------------------------------------------------------------ deck moves
    def reshuffle(self) -> None:
        """Shuffle the discard pile into a new deck (RULES.md §3 "Deck")."""
        deck = self.discard
        self.discard = []
        self.rng.shuffle(deck)
        self.deck = deck
        for s in self.seats:
            s.known_top.clear()
        self.emit_private(
            {"t": "shuffle", "n": len(deck)},
            [],
            {"order": list(map(CARD_FACE.__getitem__, reversed(deck)))},
        )

    def pop_deck(self) -> int:
        """The top card of the deck, reshuffling the discard pile when needed; -1 when both are
        empty."""
        if not self.deck:
            if not self.discard:
                return -1
            self.reshuffle()
        c = self.deck.pop()
        for s in self.seats:  # knowledge of a put-back card ends when it leaves the deck
            if s.known_top and c in s.known_top:
                s.known_top.remove(c)
        return c

    def draw(self, seat: int, n: int, why: str = "draw") -> list[int]:
        deck = self.deck
        if 0 < n <= len(deck):  # no reshuffle on the way: take the top ``n`` at once
            got = deck[-n:]
            del deck[-n:]
            got.reverse()
            for s in self.seats:  # as in pop_deck
                if s.known_top:
                    s.known_top[:] = [c for c in s.known_top if c not in got]
        else:
            got = []
            for _ in range(n):
                c = self.pop_deck()
                if c < 0:
                    break
                got.append(c)
        if got:
            self.seats[seat].hand.extend(got)
            self.emit_private(
                {"t": "draw", "seat": seat, "n": len(got), "why": why},
                [seat],
                {"cards": list(map(CARD_FACE.__getitem__, got))},
            )
        return got

    def to_discard(self, card: int) -> None:
        self.discard.append(card)

    def reveal_check(self, seat: int, purpose: str) -> int:
        """Reveal the top card for a check; it goes to the discard pile. -1 if no card exists."""
        c = self.pop_deck()
        if c >= 0:
            self.discard.append(c)
            self.emit({"t": "check", "seat": seat, "for": purpose, "card": CARD_FACE[c]})
        return c

    def coin(self, seat: int) -> bool:
        """A fair 50/50 Cover coin (or the next forced result of a position)."""
        ok = self.coins.popleft() if self.coins else self.rng.random() < 0.5
        self.emit({"t": "coin", "seat": seat, "ok": ok})
        return ok

    def random_hand_index(self, seat: int) -> int:
        return self.rng.randrange(len(self.seats[seat].hand))

    def is_heart(self, card: int) -> bool:
        return CARD_SUIT[card] == "H"
