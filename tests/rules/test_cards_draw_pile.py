"""Scenario tests for the draw pile: an empty deck reshuffles the discard pile, both empty
(RULES.md §3 Deck), and the turn's draw and end-of-turn discard (§3.2, §3.4)."""

from __future__ import annotations

import pytest

from .helpers import events_of, faces, load, play, pos, types, unnamed_cards
from .setups import _checks_pos, hands


# ------------------------------------------------------------------------------ §3 deck rules
def _park_rest(d: dict, where: int = 2) -> dict:
    d["seats"][where]["hand"] = list(d["seats"][where].get("hand", [])) + unnamed_cards(d)
    return d


def test_deck_reshuffles_discard_pile_when_empty():
    """RULES.md §3 Deck: when a card must be drawn and the deck is empty, the discard pile is
    shuffled into a new deck."""
    d = hands(pos(deck=[], discard=["duel.JS", "jail.4H", "horse.8H"]), s0=["wagon"])
    d = _park_rest(d)
    g = load(d)
    assert g.deck == []
    play(g, "play:wagon")
    assert events_of(g, "shuffle", n=3)
    assert len(g.seats[0].hand) == 2
    assert set(faces(g.seats[0].hand)) <= {"duel.JS", "jail.4H", "horse.8H"}
    assert len(g.deck) == 1
    assert types(g.discard) == ["wagon"]


@pytest.mark.parametrize(("card", "n"), [("wagon", 2), ("caravan", 3), ("bazaar", 1)])
def test_draw_cards_never_draw_themselves_back(card, n):
    """RULES.md §3 Deck: a Wagon/Bazaar/Caravan being resolved is not in the discard pile yet,
    so it can never draw itself back."""
    d = hands(pos(deck=[], discard=["duel.JS"]), s0=[card])
    d = _park_rest(d)
    g = load(d)
    play(g, f"play:{card}")
    assert faces(g.seats[0].hand) == ["duel.JS"]
    assert types(g.discard) == [card]
    assert g.deck == []


def test_both_empty_nothing_is_drawn():
    """RULES.md §3 Deck: if deck and discard are both empty, nothing is drawn."""
    d = _park_rest(hands(pos(deck=[], discard=[]), s0=["caravan"]))
    g = load(d)
    play(g, "play:caravan")
    assert g.seats[0].hand == []
    assert not events_of(g, "draw", seat=0)
    assert types(g.discard) == ["caravan"]


def test_both_empty_dynamite_passes_without_exploding():
    """RULES.md §3 Deck: both empty → Dynamite passes on without exploding."""
    d = _checks_pos(["dynamite"], [])
    d["discard"] = []
    d = _park_rest(d)
    g = load(d)
    assert not events_of(g, "check")
    assert g.seats[3].hp == 4
    assert types(g.seats[0].in_play) == ["dynamite"]
    assert events_of(g, "dynamite", seat=3, blast=False, to_seat=0)


def test_both_empty_jail_releases():
    """RULES.md §3 Deck: both empty → Jail releases the player (and is discarded)."""
    d = _checks_pos(["jail"], [])
    d = _park_rest(d)
    g = load(d)
    assert not events_of(g, "check")
    assert events_of(g, "jail", seat=3, free=True)
    assert (g.pending.seat, g.pending.kind) == (3, "play")
    assert g.seats[3].in_play == []
    # the Jail went to the discard pile, which the empty deck then reshuffled for the draw
    assert events_of(g, "shuffle", n=1)
    assert types(g.seats[3].hand)[-1] == "jail"


def test_both_empty_cover_does_not_block_old_classic():
    """RULES.md §3 Deck: both empty → Cover (old_classic: a revealed card) does not block."""
    d = hands(pos(mode="old_classic", deck=[], discard=[]), s0=["shot"])
    d["seats"][1]["in_play"] = ["cover"]
    d = _park_rest(d)
    g = load(d)
    play(g, "play:shot@1")
    assert not events_of(g, "check")
    assert (g.pending.seat, g.pending.kind) == (1, "respond_shot")
    play(g, "take")
    assert g.seats[1].hp == 3


# ------------------------------------------------------------------------ §3 turn structure
def test_draw_phase_draws_two_from_deck():
    """RULES.md §3.2: the draw phase draws 2 cards from the deck."""
    g = load(_checks_pos([], ["horse.8H", "scope.AS", "duel.JS"], hand=[]))
    assert faces(g.seats[3].hand) == ["horse.8H", "scope.AS"]
    assert (g.pending.seat, g.pending.kind) == (3, "play")


def test_end_turn_discard_down_to_hp():
    """RULES.md §3.4: after ending the turn, a hand above current ♥ is discarded down to ♥, the
    player choosing which."""
    d = hands(pos(), s0=["shot", "duel", "wagon"])
    d["seats"][0]["hp"] = 1
    g = load(d)
    play(g, "end")
    assert (g.pending.seat, g.pending.kind) == (0, "discard")
    assert set(g.pending.option_ids) == {"discard:shot", "discard:duel", "discard:wagon"}
    play(g, "discard:shot", "discard:wagon")
    assert types(g.seats[0].hand) == ["duel"]
    assert g.turn == 1
