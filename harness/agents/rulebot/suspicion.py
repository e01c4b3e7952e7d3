"""Suspicion model: who is on which side, from the public event feed and one seat's knowledge.

Contract:

* :meth:`Suspicion.feed` takes the events of a seat's view and processes each event index
  at most once, so views whose feeds overlap (``observe`` then ``choose`` on the same view) are
  harmless.  Events are never re-scanned: only the new ones are read.
* Hostile acts are recorded in an attack matrix ``attacks[a][b]`` (a Shot, Duel or Jail aimed at
  ``b``, a Snatch/Knock Off of ``b``'s cards, a hit ``b`` took from ``a``); knocking a Jail or a
  Dynamite off ``b`` counts as help (negative).
* :meth:`Suspicion.beliefs` turns the matrix, the revealed roles (the Marshal, eliminated players),
  the viewer's private knowledge (``known_roles``, ``marshal_pair``) and the role composition into
  per-seat probabilities ``(p_law, p_out, p_loner)``; ``p_out`` is the raiders team (raiders and the
  double agent).  Attacks on the Marshal count double; attacking a likely raider makes the attacker
  look lawful, and an attack by a likely lawman makes the victim look outlaw.  The probabilities
  are fitted so that the expected count of each hidden role matches the composition.
* Only the seat's view (:class:`~harness.engine.live_view.SeatInfo`) is read — never the game.
  :meth:`Suspicion.copy` continues a picture separately (rollouts of one position).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from harness.engine.live_view import SeatInfo, events_from

# How much each public act says about the actor's attitude to its target.
_PLAY_WEIGHT = {
    "shot": 1.0,
    "ricochet": 1.0,  # Two-Face's Ricochet played as a Shot
    "duel": 1.0,
    "jail": 1.0,
    "snatch": 0.6,
    "knock_off": 0.6,
}
_HELP_WHAT = {"jail": -0.8, "dynamite": -0.4}  # knocking these off someone helps them
# the events :meth:`Evidence._event` reads
_READ = frozenset(("play", "hit", "grab", "turn", "eliminated"))
_HIT_WEIGHT = 0.25  # damage actually dealt by a targeted attack (not Raid/Buckshot)
_GRAB_WEIGHT = 0.3  # Grip chose whose hand to take from
_MARSHAL_FACTOR = 2.0  # attacks on the Marshal count heavily toward "raider"
_REVERSE = 0.5  # an attack by a likely lawman makes the victim look outlaw (and vice versa)
_LAW = ("marshal", "deputy")
_OUT = ("raider", "double_agent")

Belief = tuple[float, float, float]  # p_law, p_out, p_loner
ELIMINATED = (-1, -1)  # an evidence change that concerns the whole table


def _onehot(role: str) -> Belief:
    if role in _LAW:
        return (1.0, 0.0, 0.0)
    if role in _OUT:
        return (0.0, 1.0, 0.0)
    return (0.0, 0.0, 1.0)


# the beliefs of a seat whose side is known: law, raiders, loner
_ONE_SIDE: tuple[Belief, ...] = tuple(map(_onehot, ("deputy", "raider", "loner")))


class Evidence:
    """The attack matrix read from the public event feed.  It holds only what every seat sees
    alike (who attacked whom, who was eliminated: the public part of every event), so the seats
    of one table may share it: each event is then read once for all of them."""

    __slots__ = ("n", "seen", "attacks", "acts", "_area", "changes")

    def __init__(self, n: int) -> None:
        self.n = n
        self.seen = 0  # events with index < seen have been processed
        self.attacks = [[0.0] * n for _ in range(n)]
        self.acts = [0] * n  # hostile acts each seat made (how much evidence there is)
        self._area = False  # the last card played hits everyone (Raid, Buckshot)
        # every change that may call for new beliefs, in order: the pair of seats (attacker,
        # target) whose entry of the matrix changed, or ``ELIMINATED`` (the table changed)
        self.changes: list[tuple[int, int]] = []

    @property
    def version(self) -> int:
        """The number of changes so far."""
        return len(self.changes)

    def copy(self) -> Evidence:
        """An independent copy, fed on separately."""
        c = Evidence.__new__(Evidence)
        c.n, c.seen, c._area = self.n, self.seen, self._area
        c.changes = list(self.changes)
        c.attacks = [list(row) for row in self.attacks]
        c.acts = list(self.acts)
        return c

    def feed(self, view: SeatInfo) -> None:
        """Process the events of ``view`` that were not processed yet (each index once)."""
        count = view.event_count
        if self.seen >= count:  # nothing new (a shared matrix another seat brought up to date)
            return
        # from the first event not processed yet (a gap, the bot joined late: what there is)
        event = self._event
        for e in events_from(view, self.seen, _READ):  # most events say nothing about attitudes
            event(e)
        self.seen = count

    def _event(self, e: dict[str, Any]) -> None:
        t = e["t"]
        if t == "play":
            card = e["card"].partition(".")[0]
            self._area = card in ("raid", "buckshot")
            target = e.get("target")
            if target is None:
                return
            w = _PLAY_WEIGHT.get(card)
            if card == "knock_off" or card == "snatch":
                w = _HELP_WHAT.get(e.get("what", ""), w)
            if w:
                self._attack(e["seat"], target, w)
        elif t == "hit":
            by = e["by"]
            if by >= 0 and not self._area:
                self._attack(by, e["seat"], _HIT_WEIGHT)
        elif t == "grab":
            self._attack(e["seat"], e["from"], _GRAB_WEIGHT)
        elif t == "turn":
            self._area = False
        elif t == "eliminated":
            self.changes.append(ELIMINATED)

    def _attack(self, a: int, b: int, w: float) -> None:
        if a == b or not (0 <= a < self.n and 0 <= b < self.n):
            return
        self.attacks[a][b] += w
        if w > 0:
            self.acts[a] += 1
        self.changes.append((a, b))


class Suspicion:
    """The public-feed picture of one seat; see the module docstring for the contract.  The
    :class:`Evidence` is the seat's own unless one is given to share."""

    __slots__ = ("n", "evidence", "_version", "_beliefs", "_key", "_fixed", "_marshal_at", "_setup")

    def __init__(self, n: int, evidence: Evidence | None = None) -> None:
        self.n = n
        self.evidence = Evidence(n) if evidence is None else evidence
        self._version = -1  # the evidence version of the kept beliefs (-1: none)
        self._fixed: frozenset[int] = frozenset()  # seats whose beliefs the evidence cannot move
        self._beliefs: list[Belief] = []
        self._key: tuple[Any, ...] = ()
        self._marshal_at = -1  # the Marshal's seat once seen (his role is always public)
        self._setup: _Setup | None = None  # what a fit starts from, for the table of its key

    @property
    def seen(self) -> int:
        return self.evidence.seen

    @property
    def attacks(self) -> list[list[float]]:
        return self.evidence.attacks

    @property
    def acts(self) -> list[int]:
        return self.evidence.acts

    def copy(self, shared: dict[int, Evidence] | None = None) -> Suspicion:
        """An independent copy: the same picture, fed on separately.  Copies made with the same
        ``shared`` dict share one copy of each shared :class:`Evidence`."""
        ev = self.evidence
        if shared is None:
            evidence = ev.copy()
        else:
            found = shared.get(id(ev))
            evidence = shared[id(ev)] = ev.copy() if found is None else found
        c = Suspicion(self.n, evidence)
        c._version, c._beliefs, c._key = self._version, list(self._beliefs), self._key
        c._fixed = self._fixed
        c._marshal_at = self._marshal_at
        c._setup = self._setup
        return c

    def feed(self, view: SeatInfo) -> None:
        """Process the events of ``view`` that were not processed yet (each index once)."""
        self.evidence.feed(view)

    # --------------------------------------------------------------- beliefs
    def beliefs(self, view: SeatInfo) -> list[Belief]:
        """``(p_law, p_out, p_loner)`` for every seat (eliminated seats: their revealed role)."""
        key = _key(view)
        evidence = self.evidence
        version = evidence.version
        if key == self._key and self._version >= 0:
            if version == self._version:
                return self._beliefs
            # the beliefs read the matrix only in the rows and columns of the seats they fit:
            # changes between seats whose beliefs are fixed leave them exactly as they are
            fixed = self._fixed
            if all(a in fixed and b in fixed for a, b in evidence.changes[self._version : version]):
                self._version = version
                return self._beliefs
        setup = self._setup
        if setup is None or setup.key != key:
            setup = self._setup = _prepare(view, key)
        self._fixed = setup.fixed
        self._beliefs = self._compute(view, setup)
        self._key = key
        self._version = version
        return self._beliefs

    def _compute(self, view: SeatInfo, setup: _Setup | None = None) -> list[Belief]:
        """The beliefs fitted from the evidence; ``setup``: :func:`_prepare` of ``view``'s key
        (made from the view when not given)."""
        n = self.n
        if setup is None:
            setup = _prepare(view, _key(view))
        hidden, pair, prior, col = setup.hidden, setup.pair, setup.prior, setup.col
        beliefs = list(setup.beliefs)
        free = setup.free
        if not free:
            return beliefs
        score = [0.0] * n
        att = self.evidence.attacks
        marshal = self.marshal(view)
        if marshal < 0:
            marshal = 0
        # each free seat's score is a sum over the seats j in order: its attack on j times j's
        # lawfulness, then j's attack on it times _REVERSE times j's lawfulness (non-zero terms)
        terms: list[tuple[int, list[tuple[float, int]]]] = []
        for i in free:
            row = att[i]
            mine: list[tuple[float, int]] = []
            for j in range(n):
                if row[j]:
                    mine.append((row[j], j))
                if att[j][i]:
                    mine.append((_REVERSE * att[j][i], j))
            terms.append((i, mine))
        last: list[float] = []  # the previous round's scores of the free seats
        for _ in range(3):
            law = [b[0] - b[1] for b in beliefs]
            law[marshal] *= _MARSHAL_FACTOR
            now: list[float] = []
            for i, mine in terms:
                acc = 0.0
                for w, j in mine:
                    acc += w * law[j]
                score[i] = acc
                now.append(acc)
            if now == last:  # the same scores give the beliefs the last round gave: done
                break
            last = now
            if pair:  # exactly one of the two is the double agent
                a, b = pair
                q = 1.0 / (1.0 + math.exp(max(-8.0, min(8.0, score[b] - score[a]))))
                beliefs[a] = (1.0 - q, q, 0.0)
                beliefs[b] = (q, 1.0 - q, 0.0)
            if hidden:
                _fit(beliefs, hidden, score, prior, col)
        return beliefs

    def marshal(self, view: SeatInfo) -> int:
        """The Marshal's seat (-1: none at this table); his role is public from the deal on
        (RULES.md §9), so the seat found once stays his."""
        m = self._marshal_at
        if m < 0:
            for s in view.seats:
                if s.role == "marshal":
                    m = self._marshal_at = s.seat
                    break
        return m


def _key(view: SeatInfo) -> tuple[Any, ...]:
    """What the beliefs depend on besides the evidence: the viewer, the role, who is alive (the
    deal-time knowledge, ``known_roles`` and the Marshal's pair, is given at the deal only)."""
    return (view.viewer, view.role, tuple([s.alive for s in view.seats]))


class _Setup(NamedTuple):
    """What a fit starts from (see :func:`_prepare`)."""

    key: tuple[Any, ...]
    hidden: tuple[int, ...]  # seats whose side is unknown
    pair: tuple[int, ...]  # the Marshal's pair when neither is known (one is the double agent)
    prior: Belief
    col: Belief  # hidden seats of each side
    beliefs: tuple[Belief, ...]  # the known seats' beliefs, the pair's even odds
    free: tuple[int, ...]  # hidden + pair
    fixed: frozenset[int]  # seats whose beliefs the evidence cannot move


def _prepare(view: SeatInfo, key: tuple[Any, ...]) -> _Setup:
    """What a fit of ``view``'s seat starts from: a function of who is alive and the deal-time
    knowledge (``key``: the viewer, the role and who is alive), so it holds while the key does."""
    n = view.n_seats
    fixed: dict[int, Belief] = {}
    counts = dict(view.composition)
    viewer, known = view.viewer, view.known_roles
    for s in view.seats:
        role = s.role
        if s.seat == viewer:
            role = view.role
        elif role is None:
            role = known.get(s.seat)
        if role is not None:
            fixed[s.seat] = _onehot(role)
            counts[role] = counts.get(role, 0) - 1
    pair: list[int] = []
    if view.marshal_pair is not None:
        a, b = view.marshal_pair
        if a in fixed and b not in fixed:
            fixed[b] = (fixed[a][1], fixed[a][0], 0.0)  # the other one of the pair
            counts["deputy" if fixed[b][0] else "double_agent"] = (
                counts.get("deputy" if fixed[b][0] else "double_agent", 0) - 1
            )
        elif b in fixed and a not in fixed:
            fixed[a] = (fixed[b][1], fixed[b][0], 0.0)
            counts["deputy" if fixed[a][0] else "double_agent"] = (
                counts.get("deputy" if fixed[a][0] else "double_agent", 0) - 1
            )
        elif a not in fixed and b not in fixed:
            pair = [a, b]
            counts["deputy"] = counts.get("deputy", 0) - 1
            counts["double_agent"] = counts.get("double_agent", 0) - 1
    hidden = [i for i in range(n) if i not in fixed and i not in pair]
    c_law = max(0, counts.get("deputy", 0))
    c_out = max(0, counts.get("raider", 0) + counts.get("double_agent", 0))
    c_lon = max(0, counts.get("loner", 0))
    total = c_law + c_out + c_lon
    k = len(hidden)
    prior = (c_law / total, c_out / total, c_lon / total) if total and k else (1 / 3, 1 / 3, 1 / 3)
    col = (float(c_law), float(c_out), float(c_lon))
    if k and not pair and prior in _ONE_SIDE:
        # every hidden seat is on the one side left: :func:`_fit` gives each exactly that side
        # whatever the evidence (one non-zero column), so their beliefs are fixed
        for i in hidden:
            fixed[i] = prior
        hidden = []
    beliefs: list[Belief] = [fixed.get(i, (0.0, 0.0, 0.0)) for i in range(n)]
    for i in pair:
        beliefs[i] = (0.5, 0.5, 0.0)
    free = hidden + pair
    fixed_seats = frozenset(range(n)).difference(free)
    return _Setup(
        key, tuple(hidden), tuple(pair), prior, col, tuple(beliefs), tuple(free), fixed_seats
    )


def _fit(
    beliefs: list[Belief],
    hidden: Sequence[int],
    score: Sequence[float],
    prior: Belief,
    col: Belief,
) -> None:
    """Per-seat likelihoods from the scores, then a few rounds of proportional fitting so that
    each row sums to 1 and each column to the number of hidden seats of that side."""
    # the common sizes are fitted on plain variables: the same operations, faster
    fit = _fit_2 if len(hidden) == 2 else _fit_3 if len(hidden) == 3 else _fit_any
    fit(beliefs, hidden, score, prior, col)


def _fit_any(
    beliefs: list[Belief],
    hidden: Sequence[int],
    score: Sequence[float],
    prior: Belief,
    col: Belief,
) -> None:
    """:func:`_fit` of any number of hidden seats."""
    p_law, p_out, p_lon = prior
    c_law, c_out, c_lon = col
    xs = [math.exp(max(-6.0, min(6.0, score[i]))) for i in hidden]
    law = [p_law / x for x in xs]
    out = [p_out * x for x in xs]
    lon = [p_lon] * len(xs)
    rows = range(len(xs))
    # each round: the previous round's column factors (1.0 at first: values stay the same), each
    # row to a sum of 1, then the column sums for this round's factors
    f_law = f_out = f_lon = 1.0
    for _ in range(4):
        s_law = s_out = s_lon = 0.0
        for r in rows:
            a, b, c = law[r] * f_law, out[r] * f_out, lon[r] * f_lon
            t = a + b + c
            if t > 0:
                a, b, c = a / t, b / t, c / t
            law[r], out[r], lon[r] = a, b, c
            s_law += a
            s_out += b
            s_lon += c
        # a column that is not fitted is scaled by exactly 1.0 (its values stay the same)
        f_law = c_law / s_law if s_law > 0 and c_law > 0 else 1.0
        f_out = c_out / s_out if s_out > 0 and c_out > 0 else 1.0
        f_lon = c_lon / s_lon if s_lon > 0 and c_lon > 0 else 1.0
    for r, i in enumerate(hidden):
        a, b, c = law[r] * f_law, out[r] * f_out, lon[r] * f_lon
        t = a + b + c
        beliefs[i] = (a / t, b / t, c / t) if t > 0 else prior


def _fit_2(
    beliefs: list[Belief],
    hidden: Sequence[int],
    score: Sequence[float],
    prior: Belief,
    col: Belief,
) -> None:
    """:func:`_fit` of two hidden seats: the same operations in the same order on plain
    variables (values are never negative, so a column sum ``0.0 + u + v`` is ``u + v``)."""
    p_law, p_out, p_lon = prior
    c_law, c_out, c_lon = col
    i, j = hidden
    x = math.exp(max(-6.0, min(6.0, score[i])))
    y = math.exp(max(-6.0, min(6.0, score[j])))
    a0, b0, c0 = p_law / x, p_out * x, p_lon
    a1, b1, c1 = p_law / y, p_out * y, p_lon
    f_law = f_out = f_lon = 1.0
    for _ in range(4):
        a0 *= f_law
        b0 *= f_out
        c0 *= f_lon
        t = a0 + b0 + c0
        if t > 0:
            a0 /= t
            b0 /= t
            c0 /= t
        a1 *= f_law
        b1 *= f_out
        c1 *= f_lon
        t = a1 + b1 + c1
        if t > 0:
            a1 /= t
            b1 /= t
            c1 /= t
        s = a0 + a1
        f_law = c_law / s if s > 0 and c_law > 0 else 1.0
        s = b0 + b1
        f_out = c_out / s if s > 0 and c_out > 0 else 1.0
        s = c0 + c1
        f_lon = c_lon / s if s > 0 and c_lon > 0 else 1.0
    a0 *= f_law
    b0 *= f_out
    c0 *= f_lon
    t = a0 + b0 + c0
    beliefs[i] = (a0 / t, b0 / t, c0 / t) if t > 0 else prior
    a1 *= f_law
    b1 *= f_out
    c1 *= f_lon
    t = a1 + b1 + c1
    beliefs[j] = (a1 / t, b1 / t, c1 / t) if t > 0 else prior


def _fit_3(
    beliefs: list[Belief],
    hidden: Sequence[int],
    score: Sequence[float],
    prior: Belief,
    col: Belief,
) -> None:
    """:func:`_fit` of three hidden seats, as :func:`_fit_2` does it."""
    p_law, p_out, p_lon = prior
    c_law, c_out, c_lon = col
    i, j, k = hidden
    x = math.exp(max(-6.0, min(6.0, score[i])))
    y = math.exp(max(-6.0, min(6.0, score[j])))
    z = math.exp(max(-6.0, min(6.0, score[k])))
    a0, b0, c0 = p_law / x, p_out * x, p_lon
    a1, b1, c1 = p_law / y, p_out * y, p_lon
    a2, b2, c2 = p_law / z, p_out * z, p_lon
    f_law = f_out = f_lon = 1.0
    for _ in range(4):
        a0 *= f_law
        b0 *= f_out
        c0 *= f_lon
        t = a0 + b0 + c0
        if t > 0:
            a0 /= t
            b0 /= t
            c0 /= t
        a1 *= f_law
        b1 *= f_out
        c1 *= f_lon
        t = a1 + b1 + c1
        if t > 0:
            a1 /= t
            b1 /= t
            c1 /= t
        a2 *= f_law
        b2 *= f_out
        c2 *= f_lon
        t = a2 + b2 + c2
        if t > 0:
            a2 /= t
            b2 /= t
            c2 /= t
        s = a0 + a1 + a2
        f_law = c_law / s if s > 0 and c_law > 0 else 1.0
        s = b0 + b1 + b2
        f_out = c_out / s if s > 0 and c_out > 0 else 1.0
        s = c0 + c1 + c2
        f_lon = c_lon / s if s > 0 and c_lon > 0 else 1.0
    a0 *= f_law
    b0 *= f_out
    c0 *= f_lon
    t = a0 + b0 + c0
    beliefs[i] = (a0 / t, b0 / t, c0 / t) if t > 0 else prior
    a1 *= f_law
    b1 *= f_out
    c1 *= f_lon
    t = a1 + b1 + c1
    beliefs[j] = (a1 / t, b1 / t, c1 / t) if t > 0 else prior
    a2 *= f_law
    b2 *= f_out
    c2 *= f_lon
    t = a2 + b2 + c2
    beliefs[k] = (a2 / t, b2 / t, c2 / t) if t > 0 else prior
