"""The :class:`Game`: setup, the frame interpreter and the one-decision-at-a-time API.

Resolution is an explicit stack of small frames (tuples of a name and ints/strings).  Running the
stack either finishes the game or stops at exactly one pending :class:`Decision`; applying one of
its options resumes it.  Because frames are plain data, any moment of a game can be written to a
position and loaded back.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Any

from .actions import Action, action_id, parse_action
from .cards import CARD_FACE, N_CARDS
from .characters import CHARACTERS, character_hp
from .combat import CombatMixin
from .errors import EngineError, GameOver, IllegalAction
from .options import OptionsMixin
from .play import PlayMixin
from .roles import (
    MAX_SEATS,
    MIN_SEATS,
    MODES,
    marshal_hand_adjust,
    marshal_hp_bonus,
    role_list,
)
from .state import Decision, DecisionKind, Seat
from .turn import TurnMixin

Handler = Callable[..., None]
_new_decision = tuple.__new__  # Decision(seat, kind, options) without the Python-level __new__


class Game(TurnMixin, PlayMixin, CombatMixin, OptionsMixin):
    """One game of BangArena.  Create with :meth:`new` (seeded deal) or from a position."""

    _FRAMES: dict[str, Handler] = {}
    _DECIDE: dict[str, Handler] = {}

    def __init__(self, n_seats: int, mode: str, seed: int) -> None:
        if not MIN_SEATS <= n_seats <= MAX_SEATS:
            raise EngineError(f"seats must be {MIN_SEATS}..{MAX_SEATS}, got {n_seats}")
        if mode not in MODES:
            raise EngineError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.n = n_seats
        self.mode = mode
        self.seed = seed
        self.rng = random.Random(seed)
        self.seats = []
        self.marshal = 0
        self.round = 1
        self.turn = 0
        self.phase = "start"
        self.shots_used = 0
        self.deck = []
        self.discard = []
        self.resolving = []
        self.looking = []
        self.coins = deque()
        self.events = []
        self.stack = []
        self.pending = None
        self.pending_frame = None
        self.winning_side = None
        self.winners = ()
        self.history: list[str] = []

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(
        cls,
        n_seats: int,
        mode: str = "classic",
        seed: int = 0,
        roles: list[str] | None = None,
    ) -> Game:
        """Deal a new game from ``seed`` (RULES.md §2) and run to the first decision.

        ``roles`` (one per seat, the table's composition) fixes who holds which role and deals
        the rest (characters, cards) from ``seed``: a measurement's sample of the deal given the
        roles.  Without it the roles are shuffled from ``seed`` as in every game."""
        g = cls(n_seats, mode, seed)
        rng = g.rng
        if roles is None:
            roles = role_list(n_seats, mode)
            rng.shuffle(roles)
        elif sorted(roles) != sorted(role_list(n_seats, mode)):
            raise EngineError(f"roles {roles} are not the composition of {n_seats} seats, {mode}")
        else:
            roles = list(roles)
        chars = rng.sample([c.id for c in CHARACTERS], n_seats)
        g.marshal = roles.index("marshal")
        for i, (role, ch) in enumerate(zip(roles, chars, strict=True)):
            hp = character_hp(ch, mode)
            if role == "marshal":
                hp += marshal_hp_bonus(n_seats, mode)
            g.seats.append(Seat(i, role, ch, hp))
        g.emit(
            {"t": "setup", "seats": n_seats, "mode": mode, "marshal": g.marshal,
             "characters": chars}
        )  # fmt: skip
        for s in g.seats:
            if s.role == "marshal":
                g.emit({"t": "role", "seat": s.index, "role": "marshal"})
            else:
                g.emit_private({"t": "role", "seat": s.index}, [s.index], {"role": s.role})
        g.deck = list(range(N_CARDS))
        rng.shuffle(g.deck)
        g.emit_private(
            {"t": "shuffle", "n": N_CARDS, "why": "setup"},
            [],
            {"order": list(map(CARD_FACE.__getitem__, reversed(g.deck)))},
        )
        g._deal_knowledge()
        for s in g.seats:
            extra = marshal_hand_adjust(n_seats, mode) if s.role == "marshal" else 0
            g.draw(s.index, s.hp + extra, "deal")
        g.turn = g.marshal
        g.stack.append(("begin_turn", g.marshal))
        g.run()
        return g

    def _deal_knowledge(self) -> None:
        """double_agent mode: the Marshal learns two names (RULES.md §2); Ruling R-3: the raiders
        team knows each other."""
        if self.mode != "double_agent" or self.n < 5:
            return
        seats = self.seats
        deputies = [s.index for s in seats if s.role == "deputy"]
        agent = next(s.index for s in seats if s.role == "double_agent")
        pair = [self.rng.choice(deputies), agent]
        self.rng.shuffle(pair)
        seats[self.marshal].marshal_pair = (pair[0], pair[1])
        self.emit_private(
            {"t": "intel", "seat": self.marshal}, [self.marshal], {"deputy_or_agent": pair}
        )
        team = [s.index for s in seats if s.role in ("raider", "double_agent")]
        for i in team:
            known = {j: seats[j].role for j in team if j != i}
            seats[i].known_roles = known
            self.emit_private(
                {"t": "intel", "seat": i}, [i], {"team": {str(j): r for j, r in known.items()}}
            )

    # ----------------------------------------------------------- interpreter
    def run(self) -> None:
        """Run frames until a decision is pending or the game is over."""
        if self.pending is not None:
            return
        stack = self.stack
        frames = self._FRAMES
        while stack:
            frame = stack.pop()
            n = len(frame)  # spelled out for the common sizes: a call with a fixed number of
            # arguments runs in the same interpreter loop, one with ``*frame[1:]`` does not
            if n == 2:
                frames[frame[0]](self, frame[1])
            elif n == 1:
                frames[frame[0]](self)
            elif n == 5:
                frames[frame[0]](self, frame[1], frame[2], frame[3], frame[4])
            elif n == 4:
                frames[frame[0]](self, frame[1], frame[2], frame[3])
            elif n == 3:
                frames[frame[0]](self, frame[1], frame[2])
            else:
                frames[frame[0]](self, *frame[1:])
            if self.pending is not None:  # the frame asked: it resumes with the answer
                self.pending_frame = frame
                return

    def ask(self, seat: int, kind: DecisionKind, options: tuple[Action, ...]) -> None:
        """Called by a frame that needs a decision; :meth:`run` stops after that frame."""
        self.pending = _new_decision(Decision, (seat, kind, options))

    # -------------------------------------------------------------- public API
    @property
    def current_seat(self) -> int:
        """The seat that must decide now, or -1 when the game is over."""
        return self.pending.seat if self.pending else -1

    def legal_actions(self) -> tuple[Action, ...]:
        return self.pending.options if self.pending else ()

    def apply(self, action: Action | str) -> None:
        """Apply one option of the pending decision.  An illegal or malformed action raises and
        leaves the game unchanged."""
        d = self.pending
        if d is None:
            raise GameOver("the game is over; no action can be applied")
        if isinstance(action, str):
            action = parse_action(action)
        if action not in d[2]:
            raise IllegalAction(
                f"illegal action {action.id!r} for seat {d.seat} ({d.kind}); "
                f"legal: {', '.join(d.option_ids)}"
            )
        frame = self.pending_frame
        assert frame is not None
        self.pending = None
        self.pending_frame = None
        self.history.append(action_id(action))
        n = len(frame)  # the common sizes called without a slice, as in run
        if n == 2:
            self._DECIDE[frame[0]](self, action, frame[1])
        elif n == 5:
            self._DECIDE[frame[0]](self, action, frame[1], frame[2], frame[3], frame[4])
        elif n == 3:
            self._DECIDE[frame[0]](self, action, frame[1], frame[2])
        else:
            self._DECIDE[frame[0]](self, action, *frame[1:])
        self.run()

    def result(self) -> dict[str, Any]:
        return {"side": self.winning_side, "winners": list(self.winners), "round": self.round}


def _collect(prefix: str) -> dict[str, Handler]:
    out: dict[str, Handler] = {}
    for klass in reversed(Game.__mro__):
        for name, fn in vars(klass).items():
            if name.startswith(prefix) and callable(fn):
                out[name[len(prefix) :]] = fn
    return out


Game._FRAMES = _collect("f_")
Game._DECIDE = _collect("d_")
