"""The game-over statistics are counts over the game's events: a scripted game (RULES.md §5
Shot, Flask, Duel; R-9 elimination; §7 glory stars) with every figure worked out by hand."""

from __future__ import annotations

from harness.web.match_stats import PlayerStats, player_stats
from tests.rules.helpers import load, play, pos, seat


def scripted_game():
    """Marshal (2/4 ♥) shoots the raider at 1 ♥ (eliminated, a glory star: Toughness +1 ♥),
    drinks a Flask (+1 ♥) and loses a Duel to the other raider (−1 ♥, dealt by seat 2)."""
    g = load(
        pos(
            [
                seat("marshal", "red_suit", hp=2, max_hp=4, hand=["shot", "flask", "duel"]),
                seat("raider", "grip", hp=1, max_hp=4),
                seat("raider", "three_eyes", hand=["shot"]),
                seat("loner", "vulture_jr"),
            ]
        )
    )
    play(g, "play:shot@1", "take", "upgrade:toughness", "play:flask", "play:duel@2")
    play(g, "match:shot", "take")
    return g


def test_scripted_game_counts_every_figure() -> None:
    g = scripted_game()
    assert g.seats[0].hp == 3 and not g.seats[1].alive  # the script went as planned
    stats = player_stats(g.events, g.n)
    assert stats[0] == PlayerStats(
        shots=1, hits=1, dealt=1, taken=1, heals=1, played=3, eliminations=1, stars=1
    )
    assert stats[1] == PlayerStats(taken=1)
    # A card discarded to answer a Duel is not a card played; the Duel's hit is seat 2's.
    assert stats[2] == PlayerStats(hits=1, dealt=1)
    assert stats[3] == PlayerStats()


def test_damage_from_nobody_or_oneself_is_taken_not_dealt() -> None:
    """Dynamite (``by`` −1) and self-inflicted damage count as ♥ taken only; a 2-♥ hit counts
    once as a hit and twice in ♥; an event naming no valid seat is ignored."""
    events = [
        {"t": "hit", "seat": 0, "by": -1, "n": 3, "hp": 1},
        {"t": "hit", "seat": 1, "by": 1, "n": 1, "hp": 3},
        {"t": "hit", "seat": 1, "by": 0, "n": 2, "hp": 1},
        {"t": "eliminated", "seat": 0, "by": -1, "role": "raider"},
        {"t": "play", "seat": 7, "card": "shot.AS", "target": 0},
        {"t": "play", "seat": 1, "card": "ricochet.2S", "target": 0},
        {"t": "play", "seat": 1, "card": "raid.KD"},
    ]
    stats = player_stats(events, 2)
    assert stats[0] == PlayerStats(taken=3, hits=1, dealt=2)
    assert stats[1] == PlayerStats(taken=3, shots=1, played=2)
