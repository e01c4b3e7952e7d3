"""Copies in a run: games that replay another game of the run, counted once when it is read.

A paired schedule replays each deal with the lineup rotated.  With two players at an even table a
rotation can give a seating an earlier rotation gave (``A B A B`` rotated by two), and that game
is the same game again.  Schedules skip such rotations (:mod:`harness.league.schedule`), but runs
begun before they did hold them.

A game is a **copy** of another game of its run when both have the same table (seat count and
mode), the same deal seed, the same *seating* — the player at every seat; the names shown at the
table play no part — and a different rotation.  Games of one rotation are never copies of each
other (the web table's and Inspect's games are each their own deal, rotation 0).

Reading a run keeps one game of each group of copies: the first with a result, lowest rotation
first (then game id); the others are left out of every figure and :func:`copies_note` says so in
one line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from harness.views.plural import count

from .record_models import GameRecord

__all__ = ["Copy", "DistinctGames", "copies_note", "distinct_games", "seating"]


@dataclass(frozen=True, slots=True)
class Copy:
    game_id: str  # the game left out
    of: str  # the game of the same deal and seating that is kept


@dataclass(frozen=True)
class DistinctGames:
    games: list[GameRecord]  # in the order read, copies left out
    copies: list[Copy]


def seating(game: GameRecord) -> tuple[str, ...]:
    """The player at every seat of ``game``, in seat order."""
    return tuple(o.player for o in sorted(game.seat_outcomes, key=lambda o: o.seat))


def distinct_games(records: Iterable[GameRecord]) -> DistinctGames:
    """``records`` with each group of copies counted once (see the module docstring)."""
    records = list(records)
    groups: dict[tuple[object, ...], list[GameRecord]] = {}
    for g in records:
        groups.setdefault((g.seats, g.mode, g.seed, seating(g)), []).append(g)
    left_out: dict[str, str] = {}
    for group in groups.values():
        if len({g.rotation for g in group}) < 2:
            continue
        group.sort(key=lambda g: (g.void is not None, g.rotation, g.game_id))
        kept = group[0]
        for g in group[1:]:
            if g.rotation != kept.rotation:
                left_out[g.game_id] = kept.game_id
    copies = sorted((Copy(gid, of) for gid, of in left_out.items()), key=lambda c: c.game_id)
    return DistinctGames([g for g in records if g.game_id not in left_out], copies)


def copies_note(copies: Sequence[Copy], games: int) -> str | None:
    """The one line that says a run's copies were counted once (``None`` without copies);
    ``games``: the distinct games read."""
    if not copies:
        return None
    first = copies[0]
    verb = "replays" if len(copies) == 1 else "replay"
    return (
        f"{count(len(copies), 'game')} of the run {verb} the deal and seating of another game "
        f"(a paired rotation that repeats a seating, e.g. {first.game_id} = {first.of}): "
        f"counted once, {count(games, 'distinct game')}"
    )
