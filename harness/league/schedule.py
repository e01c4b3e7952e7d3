"""Schedules that make comparisons fair.

Every (seat count, mode) of every table gets ``games_per_table`` games.  Games come in deals: with
paired ("duplicate") play a deal's seed is replayed with the lineup rotated one seat at a time, so
the same cards and roles are played by every player in turn; lineups cycle through the players so
each sits equally often.  Roles are dealt at random by the seed, so rotation gives every player
every role about equally often.  Seat names are drawn per game from a pool, unrelated to players.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

from .config import LeagueConfig

NAME_POOL = (
    "Ada", "Bill", "Cole", "Dora", "Eli", "Faye", "Gus", "Hank", "Iris", "Jed", "Kit", "Lou",
    "Mae", "Ned", "Opal", "Pete", "Rosa", "Sam", "Tess", "Wade",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class GameSpec:
    game_id: str
    seats: int
    mode: str
    seed: int
    deal: int
    rotation: int
    lineup: tuple[str, ...]  # player name per seat
    names: tuple[str, ...]  # table name per seat


def deal_seed(base_seed: int, seats: int, mode: str, deal: int) -> int:
    return zlib.crc32(f"{base_seed}:{seats}:{mode}:{deal}".encode())


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
        per_deal = seats if config.paired else 1
        for g in range(config.games_per_table):
            deal, rotation = divmod(g, per_deal)
            if not config.paired:
                rotation = deal % seats
            seed = deal_seed(config.base_seed, seats, mode, deal)
            base = [players[(deal * seats + i) % len(players)] for i in range(seats)]
            lineup = tuple(base[(i - rotation) % seats] for i in range(seats))
            if config.shuffle_names:
                names = tuple(random.Random(f"{seed}:{rotation}:names").sample(NAME_POOL, seats))
            else:
                names = (
                    lineup
                    if len(set(lineup)) == seats
                    else tuple(f"{p} {i}" for i, p in enumerate(lineup))
                )
            game_id = f"{seats}p-{mode}-{g:04d}"
            out.append(GameSpec(game_id, seats, mode, seed, deal, rotation, lineup, names))
    return out
