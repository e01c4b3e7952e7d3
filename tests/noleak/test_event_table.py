"""The event table (``event_visibility.py``) against the engine, and the account against the
engine's own state (RULES.md §9, §2, Ruling R-3).

* every event type and field that real games log is classified in the table;
* the engine sends each secret part to exactly the seats the table names, and ``filter_event``
  gives every seat (and a spectator) exactly the fields the table lets it learn — no more (a leak)
  and no less (a seat missing its own card);
* the deal's intel follows RULES.md §2 and Ruling R-3;
* the account agrees with what the engine holds for each seat (hand, put-back cards on top, the
  cards being looked at, known roles) and, at the deal, holds nothing more.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest

from harness.engine import Game, filter_event
from harness.engine.cards import CARD_FACE
from harness.engine.roles import MODES, TEAM_OF

from .account import SPECTATOR, Account
from .event_visibility import EVENT_VISIBILITY, audience_of

SIZES = range(4, 9)


@lru_cache(maxsize=1)
def played_games() -> tuple[Game, ...]:
    """One random game of every mode and size, played to the end."""
    games = []
    for i, mode in enumerate(MODES):
        for n in SIZES:
            game = Game.new(n, mode, seed=500 + 10 * i + n)
            rng = random.Random(n)
            while game.pending is not None:
                game.apply(rng.choice(game.pending.options))
            games.append(game)
    return tuple(games)


def merged(event: dict[str, Any]) -> dict[str, Any]:
    full = {k: v for k, v in event.items() if k not in ("to", "secret")}
    full.update(event.get("secret", {}))
    return full


def test_every_event_type_and_field_in_real_games_is_classified() -> None:
    seen: set[str] = set()
    for game in played_games():
        for i, event in enumerate(game.events):
            rule = EVENT_VISIBILITY.get(event["t"])
            assert rule is not None, f"event {i} type {event['t']!r} is not in the event table"
            unknown = set(merged(event)) - {"t"} - set(rule.fields)
            assert not unknown, f"event {i} ({event['t']}) has unclassified fields {unknown}"
            seen.add(event["t"])
    # The games exercise the secret-bearing types the table is mostly about.
    assert {"draw", "role", "shuffle", "steal", "intel"} <= seen


def test_an_unclassified_event_type_or_field_stops_the_account() -> None:
    game = Game.new(5, "classic", 1)
    account = Account.from_game(game)
    with pytest.raises(KeyError, match="mystery"):
        account.feed([{"t": "mystery", "seat": 0}])
    account = Account.from_game(game)
    with pytest.raises(KeyError, match="hint"):
        account.feed([{"t": "turn", "seat": 0, "round": 1, "hint": "shot.QH"}])


def test_the_account_refuses_a_game_without_its_deal() -> None:
    from harness.engine import dump_position, load_position

    position = load_position(dump_position(Game.new(4, "classic", 2)))
    with pytest.raises(ValueError, match="dealt game"):
        Account.from_game(position)


def test_secret_parts_go_to_exactly_the_seats_the_table_names() -> None:
    checked = 0
    for game in played_games():
        for i, event in enumerate(game.events):
            if "secret" not in event:
                continue
            full = merged(event)
            fields = EVENT_VISIBILITY[event["t"]].fields
            expected: set[int] = set()
            for key in event["secret"]:
                audience = audience_of(fields[key], full, game.n)
                assert audience is not None, f"event {i}: public field {key!r} kept secret"
                expected |= audience
            assert set(event["to"]) == expected, f"event {i} {event}: secret part to {event['to']}"
            checked += 1
    assert checked > 500


def test_filter_gives_every_seat_exactly_the_fields_the_table_allows() -> None:
    """RULES.md §9 field by field, for every seat and a spectator (seat -1)."""
    checked = 0
    for game in played_games():
        for i, event in enumerate(game.events):
            full = merged(event)
            fields = EVENT_VISIBILITY[event["t"]].fields
            for viewer in (SPECTATOR, *range(game.n)):
                allowed = {"t"} | {
                    k
                    for k in full
                    if k != "t"
                    and ((a := audience_of(fields[k], full, game.n)) is None or viewer in a)
                }
                shown = filter_event(event, viewer)
                assert set(shown) == allowed, (
                    f"event {i} {full} as seat {viewer} sees it: {shown}; the table allows "
                    f"{sorted(allowed)}"
                )
                assert all(shown[k] == full[k] for k in shown), f"event {i} altered: {shown}"
                checked += 1
    assert checked > 10_000


def test_deal_intel_follows_the_rules() -> None:
    """RULES.md §2: the Marshal is told one Deputy and the Double Agent; Ruling R-3: the raiders
    team knows each other, only in double_agent mode."""
    for game in played_games():
        intel = [e for e in game.events if e["t"] == "intel"]
        roles = {s.index: s.role for s in game.seats}
        if game.mode != "double_agent" or game.n < 5:
            assert not intel
            continue
        team = {j for j, r in roles.items() if TEAM_OF[r] == "raiders"}
        told_team = {e["to"][0]: e["secret"]["team"] for e in intel if "team" in e["secret"]}
        assert set(told_team) == team
        for seat, mates in told_team.items():
            assert {int(j): r for j, r in mates.items()} == {j: roles[j] for j in team if j != seat}
        (pair_event,) = [e for e in intel if "deputy_or_agent" in e["secret"]]
        assert pair_event["to"] == [game.marshal]
        assert sorted(roles[j] for j in pair_event["secret"]["deputy_or_agent"]) == [
            "deputy",
            "double_agent",
        ]


def _engine_known_top(game: Game, seat: int) -> tuple[str, ...]:
    known = set(game.seats[seat].known_top)
    run = []
    for c in reversed(game.deck):
        if c not in known:
            break
        run.append(CARD_FACE[c])
    return tuple(run)


@pytest.mark.parametrize("mode", MODES)
def test_the_account_agrees_with_the_engine_state(mode: str) -> None:
    """The account is not too strict: all the engine lets a seat hold is in it."""
    tops = 0
    for n in (5, 8):
        game = Game.new(n, mode, seed=40 + n)
        account = Account.from_game(game)
        rng = random.Random(n)
        while game.pending is not None:
            account.update(game)
            for s in game.seats:
                i = s.index
                assert {CARD_FACE[c] for c in s.hand} <= account.cards(i)
                assert account.deck_top(i) == _engine_known_top(game, i)
                tops += bool(account.deck_top(i))
                if game.pending.seat == i and game.pending.kind == "putback":
                    assert account.looking(i) == tuple(CARD_FACE[c] for c in game.looking)
                assert s.known_roles.items() <= account.roles(i).items()
                assert account.roles(i)[i] == s.role
                pair = account.pair(i)
                assert (pair is None) == (s.marshal_pair is None)
                assert pair is None or pair == frozenset(s.marshal_pair or ())
            game.apply(rng.choice(game.pending.options))
    assert mode == "old_classic" or tops > 0


@pytest.mark.parametrize("mode", MODES)
def test_at_the_deal_the_account_holds_only_the_seats_own_cards_and_intel(mode: str) -> None:
    """The account is not too lax: at the first decision a seat knows its own hand, its role,
    the Marshal, and its intel (double_agent), nothing else."""
    game = Game.new(7, mode, seed=3)
    account = Account.from_game(game)
    for s in game.seats:
        assert account.cards(s.index) == {CARD_FACE[c] for c in s.hand}
        expected = {s.index: s.role, game.marshal: "marshal", **s.known_roles}
        assert account.roles(s.index) == expected
    assert account.cards(SPECTATOR) == set()
    assert account.roles(SPECTATOR) == {game.marshal: "marshal"}
    # Before the deal's events nobody knows anything.
    assert all(not account.cards(i, 0) and not account.roles(i, 0) for i in range(7))
