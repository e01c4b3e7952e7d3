"""Roles, teams, modes and table compositions (RULES.md §1–2)."""

from __future__ import annotations

from typing import Final, Literal

Role = Literal["marshal", "deputy", "raider", "loner", "double_agent"]
Mode = Literal["classic", "partners", "double_agent", "old_classic"]
Team = Literal["law", "raiders", "loners"]

ROLES: Final[tuple[Role, ...]] = ("marshal", "deputy", "raider", "loner", "double_agent")
MODES: Final[tuple[Mode, ...]] = ("classic", "partners", "double_agent", "old_classic")
UPGRADES: Final = ("marksmanship", "toughness", "instinct")
MIN_SEATS: Final = 4
MAX_SEATS: Final = 8

TEAM_OF: Final[dict[str, Team]] = {
    "marshal": "law",
    "deputy": "law",
    "raider": "raiders",
    "double_agent": "raiders",
    "loner": "loners",
}

# seats → (marshal, deputy, raider, loner, double_agent)
_CLASSIC: Final = {
    4: (1, 0, 2, 1, 0),
    5: (1, 1, 2, 1, 0),
    6: (1, 1, 3, 1, 0),
    7: (1, 2, 3, 1, 0),
    8: (1, 2, 3, 2, 0),
}
_DOUBLE_AGENT: Final = {
    5: (1, 1, 1, 1, 1),
    6: (1, 1, 2, 1, 1),
    7: (1, 2, 2, 1, 1),
    8: (1, 2, 2, 2, 1),
}
MARSHAL_HP_BONUS: Final = {4: 2, 5: 0, 6: 2, 7: 1, 8: 1}
MARSHAL_HAND_ADJUST: Final = {4: 0, 5: 0, 6: 2, 7: 1, 8: -1}
HIGH_NOON_ROUND: Final = 8


def composition(n_seats: int, mode: str) -> dict[str, int]:
    """Role counts at a table; a 4-seat double_agent table plays classic (RULES.md §1)."""
    table = _DOUBLE_AGENT if mode == "double_agent" and n_seats >= 5 else _CLASSIC
    counts = table[n_seats]
    return {role: k for role, k in zip(ROLES, counts, strict=True) if k}


def role_list(n_seats: int, mode: str) -> list[str]:
    return [role for role, k in composition(n_seats, mode).items() for _ in range(k)]


def marshal_hp_bonus(n_seats: int, mode: str) -> int:
    return 1 if mode == "old_classic" else MARSHAL_HP_BONUS[n_seats]


def marshal_hand_adjust(n_seats: int, mode: str) -> int:
    """Ruling R-2: old_classic has no hand adjustment."""
    return 0 if mode == "old_classic" else MARSHAL_HAND_ADJUST[n_seats]
