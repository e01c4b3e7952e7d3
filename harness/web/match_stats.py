"""Per-player statistics of a finished game, counted from the game's own events.

Shown on the web table's game-over screen.  Every figure is a plain count over ``game.events``
(the engine's full event list, read only once the game is over, when nothing is secret):

- ``shots``: Shot cards played at a player (``play`` events of a ``shot`` card, or a ``ricochet``
  played as a Shot by Two-Face, with a target);
- ``hits``: damage events (``hit``) this player caused to another player, from any card;
- ``dealt`` / ``taken``: ♥ lost by others through this player's damage / ♥ this player lost,
  from any source (Dynamite included);
- ``heals``: ♥ this player regained (``heal`` events count the ♥ actually gained);
- ``played``: cards this player played from hand (``play`` events);
- ``eliminations``: other players this player eliminated (the source of the last damage, R-9);
- ``stars``: upgrades this player earned (``star`` events).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

_SHOT_CARDS = frozenset({"shot", "ricochet"})


@dataclass(slots=True)
class PlayerStats:
    shots: int = 0
    hits: int = 0
    dealt: int = 0
    taken: int = 0
    heals: int = 0
    played: int = 0
    eliminations: int = 0
    stars: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def _card_type(face: str) -> str:
    """``shot.QH`` → ``shot``."""
    return face.split(".", 1)[0]


def player_stats(events: Iterable[Mapping[str, Any]], seats: int) -> list[PlayerStats]:
    """One :class:`PlayerStats` per seat, from a game's events in order."""
    out = [PlayerStats() for _ in range(seats)]

    def valid(i: object) -> bool:
        return isinstance(i, int) and 0 <= i < seats

    for e in events:
        kind, seat = e.get("t"), e.get("seat")
        if not valid(seat):
            continue
        assert isinstance(seat, int)
        me = out[seat]
        if kind == "play":
            me.played += 1
            if _card_type(str(e.get("card", ""))) in _SHOT_CARDS and valid(e.get("target")):
                me.shots += 1
        elif kind == "hit":
            amount = int(e.get("n", 0))
            me.taken += amount
            by = e.get("by")
            if valid(by) and by != seat:
                assert isinstance(by, int)
                out[by].hits += 1
                out[by].dealt += amount
        elif kind == "heal":
            me.heals += int(e.get("n", 0))
        elif kind == "eliminated":
            by = e.get("by")
            if valid(by) and by != seat:
                assert isinstance(by, int)
                out[by].eliminations += 1
        elif kind == "star":
            me.stars += 1
    return out
