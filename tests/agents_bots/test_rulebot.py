"""RuleBot: no leaks, conformance, reproducibility, role behaviour from positions, seat fallbacks."""

from __future__ import annotations

import asyncio
import copy
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.agents import Agent
from harness.agents.rulebot import RuleBot, Suspicion
from harness.agents.seat import decide
from harness.agents.table import play_game
from harness.engine import (
    Game,
    SeatView,
    build_view,
    check_invariants,
    load_position,
    simplest_action,
)
from harness.engine.roles import MAX_SEATS, MIN_SEATS, MODES
from harness.league.bot_tables import TableJob, play_table, run_tables
from tests.engine.test_no_leak import redeal_hidden

ROOT = Path(__file__).resolve().parents[2]
CHARS = ("red_suit", "grip", "three_eyes", "vulture_jr", "lucky", "scavenger", "collector",
         "empty_hands")  # fmt: skip


def seat(role: str, i: int, hp: int = 4, max_hp: int = 4, **kw: Any) -> dict[str, Any]:
    return {"role": role, "character": CHARS[i], "hp": hp, "max_hp": max_hp, **kw}


def position(seats: list[dict[str, Any]], **kw: Any) -> Game:
    d: dict[str, Any] = {"format": "bangarena-position/1", "seed": 3, "turn": 0, "phase": "play"}
    d.update(kw)
    d["seats"] = seats
    return load_position(d)


def bot_choice(game: Game, seed: int = 0) -> str:
    """A fresh bot's choice for the pending decision of ``game`` (it sees the whole feed)."""
    d = game.pending
    assert d is not None
    bot = RuleBot("bot", seed)
    bot.new_game("t", d.seat, game.seed)
    return bot.decide(build_view(game, d.seat), d.option_ids)


# ------------------------------------------------------------------------------- (a) no leak
class PeekingBot(RuleBot):
    """A cheater for the no-leak check: shoots whoever holds no Ricochet, read from the game it
    was (illegitimately) handed.  The check below must catch it."""

    game: Game | None = None

    def decide(self, view: SeatView, options: Sequence[str]) -> str:
        g = self.game
        if g is not None:
            for o in options:
                if o.startswith("play:shot@"):
                    j = int(o.split("@")[1])
                    if not any(g.seats[j].count_in_hand(t) for t in ("ricochet",)):
                        return o
        return super().decide(view, options)


def mismatches(factory: type[RuleBot], seeds: range, mode: str, n: int = 6) -> tuple[int, int]:
    """Play bot games; at every 3rd decision compare the deciding bot's choice on its real view
    with a clone's choice on the view of a twin where everything the seat cannot see is re-dealt.
    Returns (decision points compared, mismatches)."""
    rng = random.Random(5)
    checked = bad = 0
    for seed in seeds:
        game = Game.new(n, mode, seed)
        bots = [factory(f"b{i}") for i in range(n)]
        for i, b in enumerate(bots):
            b.new_game("g", i, seed)
        seen = [0] * n
        step = 0
        while game.pending is not None:
            d = game.pending
            since = seen[d.seat]
            view = build_view(game, d.seat, since)
            seen[d.seat] = view.event_count
            bot = bots[d.seat]
            if step % 3 == 0:
                clone = copy.deepcopy(bot)
                twin = redeal_hidden(game, d.seat, rng)
                assert twin.pending is not None and twin.pending.option_ids == d.option_ids
                clone.game = twin  # type: ignore[attr-defined]  # only PeekingBot reads it
                other = clone.decide(build_view(twin, d.seat, since), d.option_ids)
                bot.game = game  # type: ignore[attr-defined]
                mine = bot.decide(view, d.option_ids)
                checked += 1
                bad += mine != other
            else:
                bot.game = game  # type: ignore[attr-defined]
                mine = bot.decide(view, d.option_ids)
            game.apply(mine)
            step += 1
    return checked, bad


@pytest.mark.parametrize("mode", MODES)
def test_choices_do_not_depend_on_hidden_information(mode: str) -> None:
    """RULES.md §9: a bot fed the views of a twin whose hidden cards, roles and future are
    re-dealt makes exactly the same choices."""
    checked, bad = mismatches(RuleBot, range(4), mode)
    assert checked > 150
    assert bad == 0


def test_the_no_leak_check_catches_a_peeking_bot() -> None:
    """The check has teeth: a bot that reads other hands gives different answers on twins."""
    _, bad = mismatches(PeekingBot, range(4), "classic")
    assert bad > 0


# ------------------------------------------------------------------------ (b) conformance
class StrictBot(RuleBot):
    """Fails the test (not just falls back) when the bot answers something unlisted."""

    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        answer = await super().choose(view, options)
        assert answer in options, (answer, options)
        return answer


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", range(MIN_SEATS, MAX_SEATS + 1))
def test_bot_only_games_finish_without_fallbacks(mode: str, n: int) -> None:
    for seed in (1, 2):
        game = Game.new(n, mode, seed)
        result = asyncio.run(play_game(game, [StrictBot(f"b{i}") for i in range(n)], timeout=5.0))
        assert game.winning_side is not None and game.pending is None
        check_invariants(game)
        assert all(not st.fallbacks for st in result.stats), [st.fallbacks for st in result.stats]
        assert sum(st.decisions for st in result.stats) == len(game.history)


def test_bots_against_random_agents_finish() -> None:
    for teams in (("law",), ("raiders",), ("loners",), ()):
        out = play_table(TableJob(6, "double_agent", 4, teams))
        assert out.side is not None and out.fallbacks == 0


# ---------------------------------------------------------------------- (c) reproducibility
def _history(n: int, mode: str, seed: int) -> list[str]:
    game = Game.new(n, mode, seed)
    asyncio.run(play_game(game, [RuleBot(f"b{i}") for i in range(n)]))
    return game.history


def test_same_seed_same_history() -> None:
    for mode in MODES:
        assert _history(7, mode, 9) == _history(7, mode, 9)
    assert _history(7, "classic", 9) != _history(7, "classic", 10)


def test_same_history_in_other_processes() -> None:
    """Nothing depends on the process (hash seed, object ids): the same game in two fresh
    interpreters with different PYTHONHASHSEED gives the same history, and so does a pool."""
    code = (
        "import asyncio, hashlib; from harness.engine import Game; "
        "from harness.agents.table import play_game; from harness.agents.rulebot import RuleBot; "
        "g = Game.new(8, 'double_agent', 21); "
        "asyncio.run(play_game(g, [RuleBot() for _ in range(8)])); "
        "print(hashlib.sha256(' '.join(g.history).encode()).hexdigest())"
    )
    outs = set()
    for hs in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hs}
        r = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert r.returncode == 0, r.stderr
        outs.add(r.stdout.strip())
    assert len(outs) == 1
    jobs = [TableJob(5, "classic", s, ("all",)) for s in range(6)]
    assert run_tables(jobs, workers=2, chunk=2) == run_tables(jobs, workers=1)


def test_each_event_is_processed_once_even_when_views_overlap() -> None:
    game = Game.new(6, "classic", 3)
    rng = random.Random(1)
    for _ in range(150):
        assert game.pending is not None
        game.apply(rng.choice(game.pending.options))
    full = build_view(game, 2)
    once = Suspicion(6)
    once.feed(full)
    twice = Suspicion(6)
    half = build_view(game, 2, since=0)
    twice.feed(half)
    twice.feed(half)  # the same view again (observe, then choose)
    twice.feed(build_view(game, 2, since=full.event_count // 2))  # an overlapping view
    assert twice.attacks == once.attacks and twice.acts == once.acts
    assert sum(map(sum, once.attacks)) > 0
    assert once.seen == full.event_count


def _beliefs(game: Game, viewer: int) -> list[tuple[float, float, float]]:
    view = build_view(game, viewer)
    s = Suspicion(game.n)
    s.feed(view)
    return s.beliefs(view)


def _six(**kw: Any) -> Game:
    seats = [
        seat("marshal", 0, hp=5, max_hp=5),
        seat("deputy", 1),
        seat("raider", 2, hand=["shot", "shot"], weapon="long_rifle"),
        seat("loner", 3, hand=["shot"], weapon="carbine"),
        seat("raider", 4),
        seat("raider", 5, hp=1, hand=["shot"], weapon="rifle"),
    ]
    return position(seats, **kw)


def test_shooting_the_marshal_looks_like_a_raider_and_shooting_him_looks_lawful() -> None:
    g = _six(turn=5)
    before = _beliefs(g, 1)
    assert before[2] == before[3] == before[4] == before[5]  # no evidence yet: the prior
    g.apply("play:shot@0")
    g.apply("take")
    after = _beliefs(g, 1)
    assert after[5][1] > 0.9 > before[5][1]  # seat 5 shot the Marshal: a raider
    for p in after:  # still proper probabilities
        assert abs(sum(p) - 1.0) < 1e-9
    # the raiders team's expected size stays what the composition says (3 hidden of 4)
    assert abs(sum(after[j][1] for j in (2, 3, 4, 5)) - 3.0) < 0.05


def test_revealed_roles_calibrate_who_helped_whom() -> None:
    """Seat 3 eliminates seat 5, who turns out to be a raider: seat 3 now looks lawful to the
    Marshal, more than seats that did nothing."""
    g = _six(turn=3)
    g.apply("play:shot@5")
    g.apply("take")
    assert g.seats[5].alive is False
    b = _beliefs(g, 0)
    assert b[5] == (0.0, 1.0, 0.0)
    assert b[3][0] > b[2][0] and b[3][0] > b[4][0]


def test_marshal_pair_is_split_by_the_feed() -> None:
    """double_agent mode: the Marshal knows {1, 4} holds a Deputy and the double agent; when
    seat 4 shoots him, seat 4 is the double agent and seat 1 the Deputy."""
    seats = [
        seat("marshal", 0, hp=5, max_hp=5, marshal_pair=[4, 1]),
        seat("deputy", 1),
        seat("raider", 2),
        seat("loner", 3),
        seat("double_agent", 4, hand=["shot"], weapon="long_rifle"),
    ]
    g = position(seats, mode="double_agent", turn=4)
    b = _beliefs(g, 0)
    assert b[1] == b[4] == (0.5, 0.5, 0.0)
    g.apply("play:shot@0")
    g.apply("take")
    b = _beliefs(g, 0)
    assert b[4][1] > 0.8 and b[1][0] > 0.8


# ------------------------------------------------------------------ (d) behaviour scenarios
def test_answers_a_shot_with_a_ricochet_at_one_heart() -> None:
    g = position(
        [
            seat("marshal", 0, hand=["shot"]),
            seat("raider", 1, hp=1, hand=["flask", "ricochet", "shot"]),
            seat("raider", 2),
            seat("loner", 3),
        ]
    )
    g.apply("play:shot@1")
    assert g.pending is not None and g.pending.seat == 1
    assert bot_choice(g) == "dodge:ricochet"


def test_plays_flask_at_one_heart_against_a_shot_without_ricochet() -> None:
    g = position(
        [
            seat("marshal", 0, hand=["shot"]),
            seat("raider", 1, hp=1, hand=["flask", "shot"]),
            seat("raider", 2),
            seat("loner", 3),
        ]
    )
    g.apply("play:shot@1")
    assert "flask" in g.pending.option_ids  # type: ignore[union-attr]
    assert bot_choice(g) == "flask"


def test_plays_a_weapon_before_ending_the_turn() -> None:
    g = position(
        [
            seat("deputy", 0, hand=["rifle", "shot"]),
            seat("marshal", 1),
            seat("raider", 2),
            seat("raider", 3),
            seat("loner", 4),
        ]
    )
    assert bot_choice(g) == "play:rifle"
    g.apply("play:rifle")
    assert bot_choice(g) != "end"  # with range 3 there is an enemy to shoot


def test_deputy_does_not_shoot_the_marshal() -> None:
    """Only the Marshal is in range (the other neighbour has a Horse): the Deputy holds fire,
    and does not Duel him either."""
    g = position(
        [
            seat("marshal", 0),
            seat("deputy", 1, hand=["shot", "duel"]),
            seat("raider", 2, in_play=["horse"]),
            seat("raider", 3),
            seat("loner", 4),
        ],
        turn=1,
    )
    assert "play:shot@0" in g.pending.option_ids  # type: ignore[union-attr]
    for _ in range(3):
        choice = bot_choice(g)
        assert not choice.endswith("@0")
        if choice == "end":
            break
        g.apply(choice)
        while g.pending is not None and g.pending.seat != 1:
            g.apply(bot_choice(g))


def test_raider_shoots_the_marshal_when_in_range() -> None:
    g = position(
        [
            seat("marshal", 0),
            seat("raider", 1, hand=["shot"]),
            seat("deputy", 2),
            seat("raider", 3),
            seat("loner", 4),
        ],
        turn=1,
    )
    assert bot_choice(g) == "play:shot@0"


def test_marshal_answers_a_duel_from_a_deputy_but_a_deputy_spares_the_marshal() -> None:
    g = position(
        [
            seat("marshal", 0, hand=["duel", "shot", "shot"]),
            seat("deputy", 1, hand=["shot"]),
            seat("raider", 2),
            seat("raider", 3),
            seat("loner", 4),
        ]
    )
    g.apply("play:duel@1")
    assert g.pending is not None and g.pending.seat == 1
    assert bot_choice(g) == "take"  # losing a ♥ beats making the Marshal lose one


def test_jails_the_player_who_shot_the_marshal() -> None:
    """Suspicion from the feed: seat 3 shot the Marshal; the Marshal jails seat 3."""
    g = position(
        [
            seat("marshal", 0, hand=["jail"]),
            seat("deputy", 1),
            seat("loner", 2),
            seat("raider", 3, hand=["shot"], weapon="rifle"),
            seat("raider", 4),
            seat("deputy", 5),
        ],
        turn=3,
        deck=["bazaar", "knock_off", "bazaar", "knock_off"],
    )
    g.apply("play:shot@0")
    g.apply("take")
    g.apply("end")
    # seats 4 and 5 end their turns; the Marshal's turn comes
    while g.pending is not None and not (g.pending.seat == 0 and g.pending.kind == "play"):
        g.apply(simplest_action(g))
    assert g.pending is not None
    choice = bot_choice(g)
    while choice.startswith("play:") and not choice.startswith("play:jail"):
        g.apply(choice)
        while g.pending is not None and g.pending.seat != 0:
            g.apply(simplest_action(g))
        choice = bot_choice(g)
    assert choice == "play:jail@3"


def test_no_dynamite_at_three_hearts_or_less() -> None:
    hand = ["dynamite"]
    low = position([seat("raider", 0, hp=3, hand=hand), seat("marshal", 1), seat("raider", 2),
                    seat("loner", 3)])  # fmt: skip
    assert bot_choice(low) == "end"
    high = position([seat("raider", 0, hp=4, hand=hand), seat("marshal", 1), seat("raider", 2),
                     seat("loner", 3)])  # fmt: skip
    assert bot_choice(high) == "play:dynamite"


def test_draw_cards_come_first_and_the_ricochet_is_kept() -> None:
    g = position(
        [
            seat("deputy", 0, hand=["ricochet", "shot", "wagon", "cover"]),
            seat("marshal", 1),
            seat("raider", 2),
            seat("raider", 3),
            seat("loner", 4),
        ]
    )
    assert bot_choice(g) == "play:wagon"
    g = position(
        [
            seat("deputy", 0, hp=2, hand=["ricochet", "shot", "jail"]),
            seat("marshal", 1),
            seat("raider", 2),
            seat("raider", 3),
            seat("loner", 4),
        ],
        phase="discard",
    )
    assert g.pending is not None and g.pending.kind == "discard"
    assert bot_choice(g) != "discard:ricochet"


def test_loner_spares_the_marshal_until_they_are_alone() -> None:
    seats = [
        seat("marshal", 0, hp=1),
        seat("loner", 1, hand=["shot"]),
        seat("raider", 2),
        seat("deputy", 3),
    ]
    g = position(seats, turn=1)
    assert bot_choice(g) != "play:shot@0"
    alone = copy.deepcopy(seats)
    alone[2]["hp"] = alone[3]["hp"] = 0
    g = position(alone, turn=1)
    assert bot_choice(g) == "play:shot@0"


@pytest.mark.parametrize(("mode", "shoots"), [("classic", False), ("partners", True)])
def test_two_loners_and_the_marshal(mode: str, shoots: bool) -> None:
    """RULES.md §8: with two loners left, the Marshal's fall is a loners' win only in partners
    mode (8 seats); in classic the raiders would win, so the loner holds fire."""
    roles = ("marshal", "loner", "loner", "deputy", "deputy", "raider", "raider", "raider")
    seats = [seat(r, i, hp=0 if i >= 3 else 4) for i, r in enumerate(roles)]
    seats[0]["hp"] = 1
    seats[1]["hand"] = ["shot"]
    g = position(seats, mode=mode, turn=1)
    assert "play:shot@0" in g.pending.option_ids  # type: ignore[union-attr]
    assert (bot_choice(g) == "play:shot@0") is shoots


def test_double_agent_keeps_cover_while_the_marshal_is_healthy() -> None:
    seats = [
        seat("marshal", 0, hp=5, max_hp=5),
        seat("double_agent", 1, hand=["shot"], known_roles={"3": "raider"}),
        seat("deputy", 2),
        seat("raider", 3, known_roles={"1": "double_agent"}),
        seat("loner", 4),
    ]
    g = position(seats, mode="double_agent", turn=1)
    assert bot_choice(g) != "play:shot@0"
    weak = copy.deepcopy(seats)
    weak[0]["hp"] = 1
    g = position(weak, mode="double_agent", turn=1)
    assert bot_choice(g) == "play:shot@0"


# ----------------------------------------------------------------------- 3. seat fallbacks
class Slow(Agent):
    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        await asyncio.sleep(1.0)
        return options[0]


class Raising(Agent):
    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        raise RuntimeError("boom")


class Garbage(Agent):
    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        return "fire!"


def _wagon_turn() -> Game:
    """Seat 0's play phase with a Wagon: the bot plays it, the R-5 move ends the turn."""
    return position(
        [
            seat("deputy", 0, hand=["wagon", "shot"]),
            seat("marshal", 1),
            seat("raider", 2),
            seat("raider", 3),
            seat("loner", 4),
        ]
    )


@pytest.mark.parametrize(
    ("agent", "reason"),
    [(Slow("slow"), "timeout"), (Raising("raise"), "error"), (Garbage("junk"), "invalid_answer")],
)
def test_fallback_reasons_and_policies(agent: Agent, reason: str) -> None:
    game = _wagon_turn()
    expected_bot = bot_choice(game)
    expected_r5 = simplest_action(game).id
    assert expected_bot != expected_r5 == "end"

    autopilot = RuleBot("bot")
    autopilot.new_game("t", 0, game.seed)
    d = asyncio.run(decide(agent, game, None, 0.05, "autopilot", autopilot))
    assert d.fallback == reason and d.error
    assert d.option == expected_bot == "play:wagon"

    d = asyncio.run(decide(agent, game, None, 0.05, "simplest", None))
    assert d.fallback == reason
    assert d.option == expected_r5


def test_slow_agent_is_cut_off_at_the_deadline() -> None:
    d = asyncio.run(decide(Slow("slow"), _wagon_turn(), None, 0.05))
    assert d.fallback == "timeout"
    assert d.latency_s < 0.5


def test_rule_bot_as_the_autopilot_of_a_whole_game() -> None:
    """An agent that always answers garbage, with the rule bot as autopilot: the game is played
    by the autopilot (which observes every view once) and finishes."""
    game = Game.new(5, "classic", 8)
    result = asyncio.run(
        play_game(
            game,
            [Garbage(f"g{i}") for i in range(5)],
            policy="autopilot",
            autopilots=[RuleBot(f"b{i}") for i in range(5)],
        )
    )
    assert game.winning_side is not None
    assert all(st.fallbacks["invalid_answer"] == st.decisions for st in result.stats)
    same = Game.new(5, "classic", 8)
    asyncio.run(play_game(same, [RuleBot(f"b{i}") for i in range(5)]))
    assert same.history == game.history
