"""One game to seat: its id, seat count, mode, seed, deal and rotation, and who sits where under
which table name.  A league schedule (:mod:`harness.league.schedule`) is a list of them; the web
table makes one per game."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GameSpec"]


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
