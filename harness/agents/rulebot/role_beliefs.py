"""The rule bot's suspicion (:mod:`.suspicion`) as role probabilities, for belief probes.

The bot keeps per seat ``(p_law, p_out, p_loner)``.  For a seat whose role the viewer cannot see,
the roles asked about get:

* ``deputy``: ``p_law`` (the Marshal is public, so a hidden lawman is a Deputy);
* ``raider`` and ``double_agent``: ``p_out`` split in proportion to how many of each are still
  unaccounted for (composition minus the roles the viewer knows); for the Marshal's pair in
  double_agent mode (one Deputy, one double agent) all of ``p_out`` goes to ``double_agent``;
* ``loner``: ``p_loner``.

Roles not asked about get nothing and the row is renormalised over the asked roles (uniform when
it sums to 0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from harness.engine.live_view import SeatInfo

from .suspicion import Suspicion

Beliefs = dict[int, dict[str, float]]


def _unaccounted(view: SeatInfo) -> Counter[str]:
    left: Counter[str] = Counter(view.composition)
    left[view.role] -= 1
    for s in view.seats:
        if s.role is not None and s.seat != view.viewer:
            left[s.role] -= 1
        elif s.seat in view.known_roles and s.seat != view.viewer:
            left[view.known_roles[s.seat]] -= 1
    return left


def suspicion_roles(
    suspicion: Suspicion, view: SeatInfo, targets: Sequence[int], roles: Sequence[str]
) -> Beliefs:
    """Role probabilities of ``targets`` over ``roles`` from the bot's beliefs on ``view``."""
    beliefs = suspicion.beliefs(view)
    left = _unaccounted(view)
    raiders, agents = max(0, left["raider"]), max(0, left["double_agent"])
    pair = set(view.marshal_pair or ())
    out: Beliefs = {}
    for seat in targets:
        p_law, p_out, p_loner = beliefs[seat]
        if seat in pair:
            share_r, share_a = 0.0, 1.0
        elif raiders + agents:
            share_r, share_a = raiders / (raiders + agents), agents / (raiders + agents)
        else:
            share_r, share_a = 0.5, 0.5
        raw = {
            "deputy": p_law,
            "raider": p_out * share_r,
            "double_agent": p_out * share_a,
            "loner": p_loner,
        }
        row = {r: max(0.0, raw.get(r, 0.0)) for r in roles}
        total = sum(row.values())
        out[seat] = (
            {r: v / total for r, v in row.items()}
            if total > 0
            else {r: 1 / len(roles) for r in roles}
        )
    return out
