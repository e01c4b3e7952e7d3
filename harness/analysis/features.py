"""Features of a game's true state for the fitted value model, one row per seat.

A row is the table's facts (size, mode, round, High Noon, per team: share alive, ♥, cards, stars;
the Marshal's ♥ and cards; whose turn) and the seat's own (alive, ♥, cards, weapon, reach, stars,
role, distance to the Marshal).  Nothing depends on the order of the deck (no seat knows it), so
a value computed from these features is a function of what has happened, as the luck adjustment
needs.  The fitted model has one weight vector per table size, mode and team (:data:`KEYS`).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from harness.engine import Game
from harness.engine.cards import CARD_TYPE
from harness.engine.roles import MAX_SEATS, MIN_SEATS, MODES, TEAM_OF

TEAMS: Final = ("law", "raiders", "loners")
TEAM_INDEX: Final = {t: i for i, t in enumerate(TEAMS)}
CELLS: Final[tuple[tuple[int, str], ...]] = tuple(
    (n, m) for n in range(MIN_SEATS, MAX_SEATS + 1) for m in MODES
)
CELL_INDEX: Final = {c: i for i, c in enumerate(CELLS)}
# one weight vector per (table size, mode, team): "team|seats|mode"
KEYS: Final[tuple[str, ...]] = tuple(f"{t}|{n}|{m}" for n, m in CELLS for t in TEAMS)

NAMES: Final[tuple[str, ...]] = (
    *(f"seats={n}" for n in range(MIN_SEATS, MAX_SEATS + 1)),
    *(f"mode={m}" for m in MODES),
    "round",
    "high_noon",
    *(f"{t}.{what}" for t in TEAMS for what in ("alive", "hp", "hand", "gear", "stars")),
    "marshal.hp",
    "marshal.hp1",
    "marshal.hp2",
    "marshal.hand",
    "marshal.gear",
    "alive",
    *(f"turn={t}" for t in TEAMS),
    "me.alive",
    "me.hp",
    "me.hp1",
    "me.hand",
    "me.gear",
    "me.reach",
    "me.in_reach",
    "me.stars",
    "me.marshal",
    "me.deputy",
    "me.double_agent",
    "me.turn",
    "me.to_marshal",
    *(
        f"me.{g}"
        for g in ("shots", "ricochets", "flasks", "attacks", "draws", "jailed", "dynamite")
    ),
    *(f"{t}.{g}" for t in TEAMS for g in ("shots", "ricochets", "flasks")),
    "me.hp2",
    "me.threats",
    "me.threat_shots",
    "me.marshal_threats",
)
N_FEATURES: Final = len(NAMES)
_MODE_AT: Final = {m: NAMES.index(f"mode={m}") for m in MODES}
_TEAM_AT: Final = NAMES.index("law.alive")
_ME_AT: Final = NAMES.index("me.alive")
_HAND_AT: Final = NAMES.index("me.shots")
_TEAM_HAND_AT: Final = NAMES.index("law.shots")
# hand-card groups: Shots, Ricochets, Flasks, other attacks, cards that draw more cards
_GROUP: Final = {
    "shot": 0, "ricochet": 1, "flask": 2, "saloon": 2,
    "snatch": 3, "knock_off": 3, "duel": 3, "raid": 3, "buckshot": 3, "jail": 3,
    "wagon": 4, "caravan": 4, "bazaar": 4,
}  # fmt: skip


def _hand_groups(hand: list[int]) -> list[float]:
    g = [0.0] * 5
    for c in hand:
        k = _GROUP.get(CARD_TYPE[c])
        if k is not None:
            g[k] += 1.0
    return g


def team_index(game: Game) -> np.ndarray:
    """Each seat's team as an index into :data:`TEAMS`."""
    return np.array([TEAM_INDEX[TEAM_OF[s.role]] for s in game.seats], dtype=np.intp)


def key_index(game: Game) -> np.ndarray:
    """Each seat's weight vector as an index into :data:`KEYS` (its table and team)."""
    base = 3 * CELL_INDEX[(game.n, game.mode)]
    return np.array([base + TEAM_INDEX[TEAM_OF[s.role]] for s in game.seats], dtype=np.intp)


def features(game: Game) -> np.ndarray:
    """The feature rows of every seat, shape ``(game.n, N_FEATURES)``."""
    n = game.n
    seats = game.seats
    table = [0.0] * _ME_AT
    table[n - MIN_SEATS] = 1.0
    table[_MODE_AT[game.mode]] = 1.0
    at = NAMES.index("round")
    table[at] = min(game.round, 12) / 12.0
    table[at + 1] = 1.0 if game.high_noon else 0.0
    size = [0, 0, 0]
    agg = [[0.0] * 5 for _ in TEAMS]
    teams = [TEAM_INDEX[TEAM_OF[s.role]] for s in seats]
    for s, t in zip(seats, teams, strict=True):
        size[t] += 1
        if s.alive:
            a = agg[t]
            a[0] += 1
            a[1] += s.hp
            a[2] += len(s.hand)
            a[3] += len(s.in_play) + (s.weapon >= 0)
            a[4] += len(s.upgrades)
    for t in range(3):
        k = size[t] or 1
        a = agg[t]
        base = _TEAM_AT + 5 * t
        table[base] = a[0] / k
        table[base + 1] = a[1] / (4.0 * k)
        table[base + 2] = a[2] / (4.0 * k)
        table[base + 3] = a[3] / (2.0 * k)
        table[base + 4] = a[4] / (2.0 * k)
    m = seats[game.marshal]
    at = NAMES.index("marshal.hp")
    table[at] = m.hp / 5.0
    table[at + 1] = 1.0 if m.hp == 1 else 0.0
    table[at + 2] = 1.0 if m.hp <= 2 else 0.0
    table[at + 3] = len(m.hand) / 5.0
    table[at + 4] = (len(m.in_play) + (m.weapon >= 0)) / 2.0
    alive = [s.alive for s in seats]
    n_alive = sum(alive)
    table[at + 5] = n_alive / n
    turn_team = teams[game.turn] if 0 <= game.turn < n else 0
    table[NAMES.index("turn=law") + turn_team] = 1.0
    out = np.empty((n, N_FEATURES))
    out[:, :_ME_AT] = table
    groups = [_hand_groups(s.hand) if s.alive else [0.0] * 5 for s in seats]
    team_hand = [[0.0] * 3 for _ in TEAMS]
    for g, t in zip(groups, teams, strict=True):
        for k in range(3):
            team_hand[t][k] += g[k]
    out[:, _TEAM_HAND_AT : _TEAM_HAND_AT + 9] = [
        v / (2.0 * (size[t] or 1)) for t in range(3) for v in team_hand[t]
    ]
    reach_of = [
        game.seats_within(j, s.weapon_range) if s.alive else [] for j, s in enumerate(seats)
    ]
    threats = [0] * n
    threat_shots = [0.0] * n
    for j, targets in enumerate(reach_of):
        for i in targets:
            threats[i] += 1
            threat_shots[i] += groups[j][0]
    tail = _TEAM_HAND_AT + 9
    for i, s in enumerate(seats):
        row = out[i]
        row[tail] = 1.0 if s.alive and s.hp <= 2 else 0.0
        row[tail + 1] = threats[i] / 3.0
        row[tail + 2] = threat_shots[i] / 3.0
        row[tail + 3] = threats[game.marshal] / 3.0
        if not s.alive:
            row[_ME_AT:_TEAM_HAND_AT] = 0.0
            row[_ME_AT + 9] = 1.0 if s.role == "deputy" else 0.0
            row[_ME_AT + 10] = 1.0 if s.role == "double_agent" else 0.0
            continue
        reach = s.weapon_range
        row[_ME_AT] = 1.0
        row[_ME_AT + 1] = s.hp / 4.0
        row[_ME_AT + 2] = 1.0 if s.hp == 1 else 0.0
        row[_ME_AT + 3] = len(s.hand) / 4.0
        row[_ME_AT + 4] = (len(s.in_play) + (s.weapon >= 0)) / 2.0
        row[_ME_AT + 5] = reach / 3.0
        row[_ME_AT + 6] = len(reach_of[i]) / max(1, n_alive - 1)
        row[_ME_AT + 7] = len(s.upgrades) / 2.0
        row[_ME_AT + 8] = 1.0 if i == game.marshal else 0.0
        row[_ME_AT + 9] = 1.0 if s.role == "deputy" else 0.0
        row[_ME_AT + 10] = 1.0 if s.role == "double_agent" else 0.0
        row[_ME_AT + 11] = 1.0 if i == game.turn else 0.0
        row[_ME_AT + 12] = (
            game.distance(game.marshal, i) / 4.0 if i != game.marshal and m.alive else 0.0
        )
        g = groups[i]
        row[_HAND_AT : _HAND_AT + 5] = [g[0] / 2.0, g[1] / 2.0, g[2], g[3], g[4]]
        row[_HAND_AT + 5] = 1.0 if s.in_play and s.has_in_play("jail") else 0.0
        row[_HAND_AT + 6] = 1.0 if s.in_play and s.has_in_play("dynamite") else 0.0
    return out
