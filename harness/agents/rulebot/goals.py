"""Role goals: how much the viewer wants each other seat hurt (> 0) or kept alive (< 0).

Contract of :func:`wants`: returns one float per seat, in about ``[-2, 2]`` (0 for the viewer and
for eliminated seats), from the viewer's role, the side beliefs of :mod:`.suspicion` and public
facts of the view (who is alive, revealed roles, ♥):

* law (Marshal, Deputy): hurt whoever is likely not law (raiders and loners); never the Marshal.
  The Marshal is more careful than a Deputy (his penalty for eliminating a Deputy, see
  :func:`kill_bonus`).
* raider: the Marshal first; then likely lawmen (loners count half); never known teammates.
* double agent: plays for the raiders while looking like a Deputy: hurts likely Deputies and
  loners, spares known teammates, and turns on the Marshal only when he is weak (♥ ≤ 2), when no
  other raider is alive, or when three or fewer players are left.
* loner: keeps the Marshal alive until the end: hunts raiders first, Deputies once no raider is
  left, and the Marshal only when his fall wins (only the two of them are left; partners at 8
  seats: only loners besides him).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.engine.live_view import SeatInfo

from .suspicion import Belief


def living_outlaws(view: SeatInfo) -> int:
    """Raiders and double agents not yet revealed as eliminated (public count)."""
    comp = view.composition
    dead = sum(1 for s in view.seats if not s.alive and s.role in ("raider", "double_agent"))
    return comp.get("raider", 0) + comp.get("double_agent", 0) - dead


def living_deputies(view: SeatInfo) -> int:
    dead = sum(1 for s in view.seats if not s.alive and s.role == "deputy")
    return view.composition.get("deputy", 0) - dead


def marshal_seat(view: SeatInfo) -> int:
    for s in view.seats:
        if s.role == "marshal":
            return s.seat
    return -1


def wants(
    view: SeatInfo,
    beliefs: Sequence[Belief],
    marshal: int | None = None,
    alive: list[int] | None = None,
) -> list[float]:
    """How much the viewer wants each seat hurt; see the module docstring.  ``marshal``: the
    Marshal's seat when the caller has it (:func:`marshal_seat`); ``alive``: the living seats
    other than the viewer, in seat order, when the caller has them."""
    role = view.role
    me = view.viewer
    if marshal is None:
        marshal = marshal_seat(view)
    out = [0.0] * view.n_seats
    if alive is None:
        alive = [s.seat for s in view.seats if s.alive and s.seat != me]
    if role in ("marshal", "deputy"):
        for j in alive:
            p_law, p_out, p_lon = beliefs[j]
            out[j] = (p_out + p_lon) - p_law
        if marshal >= 0 and marshal != me:
            out[marshal] = -2.0
    elif role == "raider":
        for j in alive:
            p_law, p_out, p_lon = beliefs[j]
            out[j] = p_law + 0.5 * p_lon - p_out
        if marshal >= 0:
            out[marshal] = 1.5
    elif role == "double_agent":
        others = living_outlaws(view) - 1
        for j in alive:
            p_law, p_out, p_lon = beliefs[j]
            out[j] = p_law + 0.6 * p_lon - 1.5 * p_out
        if marshal >= 0:
            m_hp = view.seats[marshal].hp
            strike = m_hp <= 2 or others <= 0 or len(alive) <= 2
            out[marshal] = 1.5 if strike else -0.3
    else:  # loner
        # RULES.md §8: the Marshal's fall makes a loner win only when he is the last one alive,
        # or (partners, 8 seats) when every living player is a loner
        partners = view.mode == "partners" and view.n_seats == 8
        only_loners = all(j == marshal or (partners and beliefs[j][2] > 0.99) for j in alive)
        outlaws = living_outlaws(view) > 0
        for j in alive:
            p_law, p_out, p_lon = beliefs[j]
            if outlaws:
                out[j] = p_out + 0.5 * p_lon + 0.15 * p_law
            else:
                out[j] = p_law + 0.5 * p_lon
        if marshal >= 0 and marshal != me:
            out[marshal] = 1.5 if only_loners else -1.0
    return out


def kill_bonus(view: SeatInfo, want: float, beliefs: Belief) -> float:
    """Extra value of eliminating a seat (on top of hurting it): its role's weight, and for the
    Marshal the penalty risk of eliminating a Deputy (RULES.md §7 R-9 step 5)."""
    bonus = want
    if view.role == "marshal":
        bonus -= 2.0 * beliefs[0]
    return bonus
