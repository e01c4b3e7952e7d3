"""Who a seat cannot see, and the counting observer's role beliefs (RULES.md §1, §2, §8, §9).

Computed from a :class:`SeatView` only — never from the game — so they use exactly what the seat
may know.

* :func:`probe_targets`: the living players whose role the seat cannot see (not itself, not
  revealed, not in its private ``known_roles``), in seat order, and the roles a probe asks about:
  every role of the mode's composition but the Marshal (whose role is public), in canonical order.
* :func:`counting_observer`: every assignment of the roles still unaccounted for to those seats
  that is consistent with what the seat knows is taken as equally likely; the result is each
  target's role marginals.  Consistent means: the composition minus the seat's own role, the
  revealed roles (the Marshal, eliminated players) and its private ``known_roles``; in
  double_agent mode the Marshal's pair (RULES.md §2) holds one Deputy and the double agent; and
  the game is not over (RULES.md §8: while the Marshal lives, some living player is a raider, the
  double agent or a loner).  Equal weights are exact for a uniformly random deal; they ignore
  what play itself says (who shot whom), which is what a model may add.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction

from .roles import ROLES
from .view import SeatView

Beliefs = dict[int, dict[str, float]]

_NOT_LAW = frozenset({"raider", "double_agent", "loner"})


def probe_roles(view: SeatView) -> list[str]:
    """The roles a probe asks about: the composition's, less the (public) Marshal."""
    return [r for r in ROLES if r != "marshal" and view.composition.get(r, 0) > 0]


def probe_targets(view: SeatView) -> tuple[list[int], list[str]]:
    """The living seats whose role ``view``'s seat cannot see, and the roles asked about."""
    seats = [
        s.seat
        for s in view.seats
        if s.alive and s.seat != view.viewer and s.role is None and s.seat not in view.known_roles
    ]
    return seats, probe_roles(view)


def _known(view: SeatView) -> dict[int, str]:
    """Every seat whose role the viewer knows, with that role."""
    known: dict[int, str] = {view.viewer: view.role}
    for s in view.seats:
        if s.role is not None:
            known[s.seat] = s.role
    for seat, role in view.known_roles.items():
        known.setdefault(seat, role)
    return known


def _assignments(pool: Counter[str], k: int) -> Iterator[tuple[str, ...]]:
    """Every distinct ordered assignment of ``k`` roles drawn from the multiset ``pool``."""
    if k == 0:
        yield ()
        return
    for role in sorted(pool):
        if pool[role] <= 0:
            continue
        pool[role] -= 1
        for rest in _assignments(pool, k - 1):
            yield (role, *rest)
        pool[role] += 1


def consistent_assignments(view: SeatView) -> tuple[list[int], list[tuple[str, ...]]]:
    """The hidden seats (alive or not) and every role assignment to them consistent with what
    ``view``'s seat knows (see the module docstring)."""
    known = _known(view)
    hidden = [s.seat for s in view.seats if s.seat not in known]
    pool: Counter[str] = Counter(view.composition)
    for role in known.values():
        pool[role] -= 1
    if any(v < 0 for v in pool.values()) or sum(pool.values()) != len(hidden):
        return hidden, []
    alive = {s.seat for s in view.seats if s.alive}
    marshal_alive = any(s.alive and s.role == "marshal" for s in view.seats)
    out = []
    for roles in _assignments(+pool, len(hidden)):
        full = {**known, **dict(zip(hidden, roles, strict=True))}
        if view.marshal_pair is not None:
            a, b = view.marshal_pair
            if {full[a], full[b]} != {"deputy", "double_agent"}:
                continue
        if marshal_alive and not any(full[s] in _NOT_LAW for s in alive):
            continue  # the law would have won already
        out.append(roles)
    return hidden, out


def counting_observer(view: SeatView, targets: Sequence[int] | None = None) -> Beliefs:
    """Each target's role probabilities under the counting observer (module docstring), over
    :func:`probe_roles`; ``targets`` defaults to :func:`probe_targets`.  An impossible view
    (no consistent assignment) gives the composition's shares."""
    seats, roles = probe_targets(view)
    if targets is not None:
        seats = list(targets)
    hidden, worlds = consistent_assignments(view)
    index = {seat: i for i, seat in enumerate(hidden)}
    out: Beliefs = {}
    for seat in seats:
        if not worlds or seat not in index:
            total = sum(view.composition.get(r, 0) for r in roles)
            out[seat] = {r: view.composition.get(r, 0) / total for r in roles}
            continue
        tally = Counter(w[index[seat]] for w in worlds)
        out[seat] = {r: float(Fraction(tally[r], len(worlds))) for r in roles}
    return out
