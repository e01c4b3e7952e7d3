"""The ratings' own Plackett-Luce update (:func:`harness.runs.ratings._rate_match`) gives
exactly openskill's numbers: the same ``mu`` and ``sigma`` to the last bit, over random team
matches of every shape the league rates (one player at several seats, on both sides, lone loners,
partner loners, 4–8 seats) and long sequences of them."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from harness.runs.ratings import RatedGame, _is_default, rate_games


class _Openskill:
    """openskill's own model under another name: rated by openskill, not by the fast path."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.rating = self.model.rating
        self.rate = self.model.rate


def _games(rng: random.Random, n: int, players: list[str]) -> list[RatedGame]:
    out = []
    for k in range(n):
        seats = rng.randint(4, 8)
        who = tuple(rng.choice(players) for _ in range(seats))
        order = list(range(seats))
        rng.shuffle(order)
        cut = rng.randint(1, seats - 1)
        winners, rest = tuple(sorted(order[:cut])), sorted(order[cut:])
        losers: list[tuple[int, ...]] = []
        while rest:
            size = rng.randint(1, len(rest))
            losers.append(tuple(rest[:size]))
            rest = rest[size:]
        teams = (winners, *losers)
        out.append(RatedGame(f"g{k:04d}", who, teams, (1,) + (2,) * len(losers)))
    return out


def test_the_fast_update_is_openskills_to_the_last_bit() -> None:
    assert _is_default(PlackettLuce()) and not _is_default(_Openskill())
    rng = random.Random(7)
    for players in (["a", "b"], ["a", "b", "c", "d", "e"], [f"p{i}" for i in range(12)]):
        games = _games(rng, 300, players)
        fast = rate_games(games)
        slow = rate_games(games, _Openskill())
        assert fast == slow  # exact float equality, every player
        assert len(fast) == len(players)
