"""Schedules that make comparisons fair.

Every (seat count, mode) of every table gets ``games_per_table`` games.  Games come in deals: with
paired ("duplicate") play a deal's seed is replayed with the lineup rotated one seat at a time, so
the same cards and roles are played by every player in turn; lineups cycle through the players so
each sits equally often.  Roles are dealt at random by the seed, so rotation gives every player
every role about equally often.  Seat names are drawn per game from a pool, unrelated to players.

**Distinct games.**  A *seating* is the tuple of players per seat (seat names play no part).  A
rotation that gives a seating an earlier rotation of the deal gave would replay the same game (two
players at four seats: ``A B A B`` rotated by two is ``A B A B`` again), so a paired deal is played
at its distinct rotations only — ``0 .. p − 1`` for a lineup of cyclic period ``p``
(:func:`distinct_rotations`) — and the table's ``games_per_table`` is met with more deals.  Over
its ``p`` rotations every player still sits every seat of the deal equally often.  A game's id is
its index among every rotation of every deal (``deal · seats + rotation``), so a skipped rotation
leaves a gap and a game keeps the id it had in runs begun before rotations were skipped: such a
run resumes with the games it shares with this schedule, and the copies it holds are counted once
when it is read (:mod:`harness.records.copies`).
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Sequence

from harness.play.game_spec import GameSpec
from harness.views.plural import count

from .league_config import LeagueConfig

__all__ = [
    "NAME_POOL",
    "GameSpec",
    "build_schedule",
    "deal_seed",
    "deals_and_seatings",
    "distinct_rotations",
    "skips_rotations",
]

NAME_POOL = (
    "Ada", "Bill", "Cole", "Dora", "Eli", "Faye", "Gus", "Hank", "Iris", "Jed", "Kit", "Lou",
    "Mae", "Ned", "Opal", "Pete", "Rosa", "Sam", "Tess", "Wade",
)  # fmt: skip


def deal_seed(base_seed: int, seats: int, mode: str, deal: int) -> int:
    return zlib.crc32(f"{base_seed}:{seats}:{mode}:{deal}".encode())


def distinct_rotations(base: tuple[str, ...]) -> int:
    """How many rotations of the lineup ``base`` seat players differently: its smallest cyclic
    period.  Rotations ``r`` and ``r + p`` seat the same player at every seat, so rotations
    ``0 .. p − 1`` are the distinct ones (two players at four seats, ``A B A B``: 2)."""
    k = len(base)
    for p in range(1, k):
        if k % p == 0 and all(base[i] == base[(i + p) % k] for i in range(k)):
            return p
    return k


def build_schedule(config: LeagueConfig) -> list[GameSpec]:
    players = [p.name for p in config.players]
    out: list[GameSpec] = []
    cells: list[tuple[int, str]] = []  # (seats, mode)
    for table in config.tables:
        for seats in table.seats:
            for mode_name in table.modes:
                if (seats, mode_name) not in cells:
                    cells.append((seats, mode_name))
    for seats, mode in cells:
        made = deal = 0
        while made < config.games_per_table:
            base = tuple(players[(deal * seats + i) % len(players)] for i in range(seats))
            seed = deal_seed(config.base_seed, seats, mode, deal)
            if config.paired:
                rotations = range(distinct_rotations(base))
            else:
                rotations = range(deal % seats, deal % seats + 1)
            for rotation in rotations:
                if made == config.games_per_table:
                    break
                # the index the game has among every rotation of every deal: a game keeps its
                # id whichever rotations are skipped (runs played before they were stay valid)
                index = deal * seats + rotation if config.paired else deal
                out.append(_spec(config, seats, mode, seed, deal, rotation, base, index))
                made += 1
            deal += 1
    return out


def _spec(
    config: LeagueConfig,
    seats: int,
    mode: str,
    seed: int,
    deal: int,
    rotation: int,
    base: tuple[str, ...],
    index: int,
) -> GameSpec:
    lineup = tuple(base[(i - rotation) % seats] for i in range(seats))
    if config.shuffle_names:
        names = tuple(random.Random(f"{seed}:{rotation}:names").sample(NAME_POOL, seats))
    else:
        names = (
            lineup if len(set(lineup)) == seats else tuple(f"{p} {i}" for i, p in enumerate(lineup))
        )
    game_id = f"{seats}p-{mode}-{index:04d}"
    return GameSpec(game_id, seats, mode, seed, deal, rotation, lineup, names)


def deals_and_seatings(schedule: Sequence[GameSpec]) -> str:
    """What a schedule plays, table by table: ``4p classic 35 deals × 2 seatings`` (a deal
    cut short by the game count is said: ``+ 1 deal × 3``)."""
    cells: dict[tuple[int, str], Counter[int]] = {}
    deals: Counter[tuple[int, str, int]] = Counter()
    for spec in schedule:
        deals[(spec.seats, spec.mode, spec.deal)] += 1
    for (seats, mode, _deal), n in deals.items():
        cells.setdefault((seats, mode), Counter())[n] += 1
    parts = []
    for (seats, mode), sizes in cells.items():
        shown = " + ".join(
            f"{count(k, 'deal')} × {count(n, 'seating')}"
            for n, k in sorted(sizes.items(), reverse=True)
        )
        parts.append(f"{seats}p {mode} {shown}")
    return " · ".join(parts)


def skips_rotations(config: LeagueConfig, schedule: Sequence[GameSpec]) -> bool:
    """Whether a paired deal of ``schedule`` has fewer seatings than seats: rotations that would
    repeat a seating are skipped (two players at an even table)."""
    return config.paired and any(distinct_rotations(s.lineup) < s.seats for s in schedule)
