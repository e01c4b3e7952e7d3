"""A fixed, numbered action space for learning code, derived from the canonical action ids.

Index 0 is ``wait``: the only move of a seat that is not deciding.  Every other index is one
canonical action id (``harness.engine.actions``) a table of ``n_seats`` can ever offer, in the
engine's canonical order of verbs, card types (RULES.md §1), target seats and named cards.
"""

from __future__ import annotations

from functools import cache

from harness.engine.cards import BLUE_TYPES, CARD_FACE, CARD_TYPES, WEAPON_RANGE
from harness.engine.roles import UPGRADES

WAIT = "wait"
_TYPE_IDS = tuple(t.id for t in CARD_TYPES)
_AT_SEAT = ("shot", "ricochet", "duel", "jail")  # ricochet: Two-Face plays it as a Shot
_TAKE = ("snatch", "knock_off")
# What Snatch and Knock Off may name: an in-play card, the weapon, or a random hand card.
_TAKEABLE = (*(t for t in _TYPE_IDS if t in BLUE_TYPES or t in WEAPON_RANGE), "hand")
_DODGES = ("ricochet", "shot", "ricochet+ricochet", "ricochet+shot", "shot+shot")


@cache
def action_ids(n_seats: int) -> tuple[str, ...]:
    """Every action id of the space, index = position (``wait`` first)."""
    seats = range(n_seats)
    ids = [WAIT, "end", "take", "flask"]
    for t in _TYPE_IDS:
        if t in _AT_SEAT:
            ids += [f"play:{t}@{j}" for j in seats]
        elif t in _TAKE:
            ids += [f"play:{t}@{j}/{what}" for j in seats for what in _TAKEABLE]
        else:
            ids.append(f"play:{t}")
    ids += [f"heal:{a}+{b}" for i, a in enumerate(_TYPE_IDS) for b in _TYPE_IDS[i:]]
    ids += [f"dodge:{d}" for d in _DODGES]
    ids += ["match:shot", "match:ricochet"]
    ids += [f"discard:{t}" for t in _TYPE_IDS]
    ids += ["draw:deck", "draw:discard", *(f"draw:hand@{j}" for j in seats)]
    ids += [f"putback:{f}" for f in dict.fromkeys(CARD_FACE)]
    ids += [f"upgrade:{u}" for u in UPGRADES]
    ids += [f"bounty:{u}" for u in UPGRADES]
    return tuple(ids)


@cache
def action_index(n_seats: int) -> dict[str, int]:
    """Action id → index in :func:`action_ids`."""
    return {a: i for i, a in enumerate(action_ids(n_seats))}
