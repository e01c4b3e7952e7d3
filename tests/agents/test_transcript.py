"""History policies of model seats (harness/agents/transcript.py): what of the game each request
carries, that the shared prefix stays byte-identical, that conversations only grow, that a small
context budget is honoured by compacting into the public record, and that a recorded game
rebuilds the same conversation.  Information: RULES.md §9 (a seat's history is built only from
the events as that seat saw them)."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from harness.agents import RandomAgent
from harness.agents.llm_agent import LLMAgent
from harness.agents.pricing import PriceBook
from harness.agents.providers.provider_contract import Provider, ProviderReply, ProviderRequest
from harness.agents.table import play_game
from harness.agents.transcript import HISTORY_POLICIES, Transcript, approx_tokens
from harness.engine import Game, SeatView, build_view
from harness.engine.roles import MODES
from harness.views.names import default_names, role_name
from harness.views.narrate import Narrator
from harness.views.prompts import system_prompt_text
from harness.views.public_record import build_record
from tests.model_game import play_model_game


def _drive(
    seats: int,
    mode: str,
    seed: int,
    policy: str,
    context_tokens: int | None = None,
    locale: str = "en",
) -> tuple[Game, list[Transcript], list[tuple[int, list[dict[str, str]]]]]:
    """Play a random game; every seat keeps a transcript and 'answers' the option chosen.
    Returns the game, the transcripts and every request (seat, messages incl. system)."""
    names = default_names(seats)
    transcripts = [Transcript(names, locale, policy, context_tokens) for _ in range(seats)]
    requests: list[tuple[int, list[dict[str, str]]]] = []

    def hook(game: Game, view: SeatView, decided: Any) -> None:
        t = transcripts[view.viewer]
        options = view.pending.options if view.pending else ()
        if options and len(options) > 1:
            msgs = t.request(view, options)
            requests.append((view.viewer, msgs))
            t.answered(json.dumps({"choice": decided.option}))
        else:
            t.observe(view)

    game = Game.new(seats, mode, seed)
    agents = [RandomAgent(f"r{i}", seed) for i in range(seats)]
    asyncio.run(play_game(game, agents, on_decision=hook))
    return game, transcripts, requests


@pytest.mark.parametrize("policy", HISTORY_POLICIES)
def test_system_prompt_is_one_rules_prefix_for_every_seat_game_and_mode(policy: str) -> None:
    """The rules come first and are byte-identical across seats, games and modes, so one cached
    prefix serves them all; no seat name or role appears in it."""
    seen: set[str] = set()
    for mode, seats, seed in (("classic", 4, 1), ("partners", 6, 2), ("double_agent", 7, 3),
                              ("old_classic", 5, 4)):  # fmt: skip
        _, _, requests = _drive(seats, mode, seed, policy)
        for _, msgs in requests[:40]:
            assert msgs[0]["role"] == "system"
            seen.add(msgs[0]["content"])
    assert seen == {system_prompt_text("en")}
    system = system_prompt_text("en")
    assert "Ada" not in system and "You are **" not in system
    assert system_prompt_text("ru") != system


def test_conversation_only_grows_and_starts_with_the_game_message() -> None:
    """Every request of a seat is its previous request plus its own answer plus one new user
    message: earlier messages are byte-identical (prefix caches reuse them)."""
    game, transcripts, requests = _drive(6, "classic", 7, "conversation")
    last: dict[int, list[dict[str, str]]] = {}
    checked = 0
    for seat, msgs in requests:
        assert msgs[1]["content"].startswith("# Your game")
        assert [m["role"] for m in msgs[1:]] == ["user", "assistant"] * ((len(msgs) - 2) // 2) + [
            "user"
        ]
        if seat in last:
            prev = last[seat]
            assert msgs[: len(prev)] == prev
            assert len(msgs) == len(prev) + 2 and msgs[len(prev)]["role"] == "assistant"
            checked += 1
        last[seat] = msgs
    assert checked > 50
    assert all(t.compactions == 0 for t in transcripts)


def test_conversation_shows_every_event_the_seat_saw_exactly_once() -> None:
    """Across a seat's messages, the feed lines are the narration of every event it saw (in
    order) up to its last request — nothing from before its previous message is lost."""
    names = default_names(5)
    game, transcripts, requests = _drive(5, "classic", 3, "conversation")
    narrator = Narrator(names)
    for seat, t in enumerate(transcripts):
        mine = [m for s, m in requests if s == seat]
        if not mine:
            continue
        final = mine[-1]
        shown = []
        for m in final[1:]:
            if m["role"] == "user":
                block = m["content"].split("**Since your previous message:**\n", 1)
                if len(block) == 2:
                    shown += [ln[2:] for ln in block[1].split("\n\n")[0].splitlines()]
        expected = narrator.lines(t.events[: t.shown])
        assert shown == expected, f"seat {seat}"
        assert len(expected) > 20


def test_log_carries_the_whole_feed_until_it_is_long_then_the_public_record() -> None:
    game, transcripts, requests = _drive(7, "classic", 5, "log")
    whole = record = 0
    for _seat, msgs in requests:
        assert len(msgs) == 2  # system + one user message, no history
        text = msgs[1]["content"]
        if "**The game so far:**" in text:
            whole += 1
            assert "New game: 7 seats" in text  # the feed starts at the deal
        else:
            record += 1
            assert "**Public record of the game so far**" in text
            assert "**Recent events:**" in text
    assert whole > 0 and record > 0


def test_since_last_carries_only_the_events_of_the_current_view() -> None:
    names = default_names(5)
    narrator = Narrator(names)
    seen = [0] * 5
    game = Game.new(5, "classic", 9)
    rng = random.Random(9)
    transcripts = [Transcript(names, "en", "since_last") for _ in range(5)]
    checked = 0
    while game.pending is not None:
        seat = game.pending.seat
        view = build_view(game, seat, since=seen[seat])
        seen[seat] = view.event_count
        if len(game.pending.options) > 1:
            msgs = transcripts[seat].request(view, game.pending.option_ids)
            lines = narrator.lines(view.events)
            for line in lines:
                assert f"- {line}\n" in msgs[1]["content"]
            transcripts[seat].answered('{"choice": "x"}')
            checked += 1
        game.apply(rng.choice(game.pending.options))
    assert checked > 20


def test_small_budget_compacts_deterministically_and_every_prompt_fits() -> None:
    """A long 8-seat game with a small context budget: every request fits, the conversation is
    compacted into the public record, and the record agrees with the events it summarizes."""
    budget = 9000
    names = default_names(8)
    game, transcripts, requests = _drive(8, "old_classic", 11, "conversation", budget)
    for _, msgs in requests:
        used = sum(approx_tokens(m["content"]) + 4 for m in msgs)
        assert used + 1024 <= budget
    assert sum(t.compactions for t in transcripts) > 0
    compacted = [m for _, msgs in requests for m in msgs[1:2] if "**Public record" in m["content"]]
    assert compacted
    # The same run twice gives the same requests (compaction is deterministic).
    again = _drive(8, "old_classic", 11, "conversation", budget)[2]
    assert again == requests
    # The record agrees with the events: eliminations, revealed roles and stars.
    t = max(transcripts, key=lambda x: len(x.events))
    text = _record_of(t)
    for e in t.events:
        if e["t"] == "eliminated":
            assert f"- {names[e['seat']]} — ☠ eliminated" in text
            assert f"was {role_name(e['role'], 'en')}" in text
    stars = sum(1 for e in t.events if e["t"] == "star")
    assert sum(len(p.stars) for p in build_record(t.events, 8)) == stars


def _record_of(t: Transcript) -> str:
    from harness.views.public_record import public_record

    return public_record(t.events, t.builder.names)


def test_public_record_counts_attacks_hits_and_heals_from_the_events() -> None:
    game, transcripts, _ = _drive(6, "classic", 21, "conversation")
    events = transcripts[0].events
    players = build_record(events, 6)
    hits = {}
    for e in events:
        if e["t"] == "hit":
            hits[e["seat"]] = hits.get(e["seat"], 0) + e["n"]
    assert {s: sum(p.hits_taken.values()) for s, p in enumerate(players) if p.hits_taken} == hits
    shots = sum(1 for e in events if e["t"] == "play" and e["card"].startswith("shot."))
    assert sum(n for p in players for (_, k), n in p.attacks.items() if k == "shot") == shots
    heals = sum(e["n"] for e in events if e["t"] == "heal")
    assert sum(p.healed for p in players) == heals


@pytest.mark.parametrize("policy", HISTORY_POLICIES)
@pytest.mark.parametrize("mode", MODES)
def test_history_passes_the_redeal_no_leak_test(policy: str, mode: str) -> None:
    """RULES.md §9: re-dealing what a seat cannot see leaves its next request identical under
    every history policy (its history is built only from events filtered for it)."""
    from tests.engine.test_no_leak import redeal_hidden

    names = default_names(6)
    rng = random.Random(5)
    game = Game.new(6, mode, 5)
    seen = [0] * 6
    transcripts = [Transcript(names, "en", policy) for _ in range(6)]
    checked = step = 0
    while game.pending is not None:
        seat = game.pending.seat
        options = game.pending.option_ids
        if step % 5 == 0 and len(options) > 1:
            twin = redeal_hidden(game, seat, rng)
            a, b = copy.deepcopy(transcripts[seat]), copy.deepcopy(transcripts[seat])
            va = build_view(game, seat, since=seen[seat])
            vb = build_view(twin, seat, since=seen[seat])
            assert a.request(va, options) == b.request(vb, twin.pending.option_ids)
            checked += 1
        view = build_view(game, seat, since=seen[seat])
        seen[seat] = view.event_count
        if len(options) > 1:
            transcripts[seat].request(view, options)
            transcripts[seat].answered('{"choice": "x"}')
        else:
            transcripts[seat].observe(view)
        game.apply(rng.choice(game.pending.options))
        step += 1
    assert checked > 10


class _FirstOption(Provider):
    """An in-process provider answering the first listed option (records every request)."""

    name = "openai"
    default_answer_mode = "json_object"
    supported_answer_modes = frozenset({"json_object"})

    def __init__(self) -> None:
        self.requests: list[ProviderRequest] = []

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        self.requests.append(req)
        # Every third request of a seat answers an unlisted id first (a corrective re-prompt).
        bad = len(self.requests) % 3 == 0 and req.messages[-1]["content"].startswith("**")
        choice = "nope" if bad else req.option_ids[0]
        return ProviderReply(text=json.dumps({"choice": choice}), input_tokens=10, output_tokens=3)


def _model_game(seed: int) -> tuple[_FirstOption, list[tuple[SeatView, Sequence[str], Any]]]:
    provider = _FirstOption()
    names = default_names(4)
    agents = []
    for _ in range(4):
        agents.append(
            LLMAgent(
                provider,
                "m",
                Transcript(names, "en", "conversation"),
                fallback=lambda v, o: o[-1],
                price_table=PriceBook({}, use_litellm=False),
            )
        )
    return provider, play_model_game(agents, seed, 120)


def test_restore_rebuilds_the_same_conversation_without_calling_the_model() -> None:
    """A resumed game replays recorded decisions into fresh seats: their next request is
    byte-identical to the one the uninterrupted seat sends, and the model is not called."""
    provider, decisions = _model_game(13)
    assert any(d[2]["attempts"] and d[2]["attempts"][0]["error_kind"] for d in decisions)
    names = default_names(4)
    fresh = [
        LLMAgent(
            _FirstOption(),
            "m",
            Transcript(names, "en", "conversation"),
            fallback=lambda v, o: o[-1],
            price_table=PriceBook({}, use_litellm=False),
        )
        for _ in range(4)
    ]
    k = next(i for i in range(len(decisions) - 10, len(decisions)) if len(decisions[i][1]) > 1)
    for view, options, record in decisions[:k]:
        fresh[view.viewer].restore(view, options, record)
    assert all(not a.provider.requests for a in fresh)  # type: ignore[attr-defined]
    view, options, record = decisions[k]
    fresh[view.viewer].conversation.observe(view)
    replayed = fresh[view.viewer].conversation.turn(view, options)
    sent = [r for r in provider.requests if r.messages[-1] == record["messages"][0]][0]
    assert replayed == sent.messages
    assert record["context_messages"] == len(sent.messages) - 1


def test_restore_refuses_a_record_that_does_not_match() -> None:
    _, decisions = _model_game(13)
    names = default_names(4)
    agent = LLMAgent(
        _FirstOption(),
        "m",
        Transcript(names, "en", "conversation"),
        fallback=lambda v, o: o[-1],
        price_table=PriceBook({}, use_litellm=False),
    )
    view, options, record = next(d for d in decisions if len(d[1]) > 1)
    forged = dict(record, messages=[{"role": "user", "content": "something else"}])
    with pytest.raises(ValueError, match="differs"):
        agent.restore(view, options, forged)


def test_record_names_the_policy_and_the_context_it_extended() -> None:
    _, decisions = _model_game(17)
    asked = [r for _, o, r in decisions if len(o) > 1]
    assert all(r["history"] == "conversation" for r in asked)
    by_seat: dict[Any, int] = {}
    for view, options, r in decisions:
        if len(options) > 1:
            assert r["context_messages"] >= by_seat.get(view.viewer, 0)
            by_seat[view.viewer] = r["context_messages"] + 2
    assert re.fullmatch(r"[0-9a-f]{64}", asked[-1]["context_sha256"])


def test_inspect_rebuilds_every_request_from_the_records() -> None:
    """``inspect`` shows the exact prompt: the earlier messages of a conversation rebuilt from
    the seat's earlier records match what was sent, and the record's hash confirms them."""
    from harness.records import DecisionLine
    from harness.replay.rebuilt_conversation import conversation_context

    provider, decisions = _model_game(19)
    lines = [
        DecisionLine(game_id="g", index=i + 1, event_index=view.event_count, seat=view.viewer,
                     player="m", role=view.role, decision_kind="k", options=list(options),
                     chosen=record["chosen"], latency_s=0.0, model=record)
        for i, (view, options, record) in enumerate(decisions)
    ]  # fmt: skip
    sent = iter(provider.requests)
    checked = 0
    for line in lines:
        if len(line.options) <= 1:
            continue
        request = next(sent)
        for _ in range(len(line.model["attempts"]) - 1):  # corrective re-prompts
            next(sent)
        ctx = conversation_context(lines, line)
        assert ctx.verified
        assert [*ctx.messages, *line.model["messages"][:1]] == request.messages
        checked += 1
    assert checked > 30
    forged = lines[-1].model_copy(update={"model": dict(lines[-1].model, context_sha256="0" * 64)})
    assert not conversation_context(lines, forged).verified or not forged.model["context_messages"]


def test_restore_of_a_decision_without_a_record_drops_its_request_as_the_live_seat_did() -> None:
    """A decision the table's timer cut off has no model record: the live seat dropped the
    request (its events go into the next message), and a restored seat does the same."""
    names = default_names(4)
    game = Game.new(4, "classic", 3)
    live = Transcript(names, "en", "conversation")
    restored = Transcript(names, "en", "conversation")
    agent = LLMAgent(_FirstOption(), "m", restored, fallback=lambda v, o: o[-1],
                     price_table=PriceBook({}, use_litellm=False))  # fmt: skip
    rng = random.Random(3)
    seen, cut_off = 0, 0
    while game.pending is not None and cut_off < 2:
        seat, options = game.pending.seat, game.pending.option_ids
        if seat == 0:
            view = build_view(game, 0, since=seen)
            seen = view.event_count
            if len(options) > 1:
                live.request(view, options)
                live.skipped()  # the call was cut off: nothing committed
                agent.restore(view, options, {})
                cut_off += 1
            else:
                live.observe(view)
                agent.restore(view, options, {})
        game.apply(rng.choice(game.pending.options))
    while game.pending is not None and not (
        game.pending.seat == 0 and len(game.pending.options) > 1
    ):
        if game.pending.seat == 0:
            view = build_view(game, 0, since=seen)
            seen = view.event_count
            live.observe(view)
            restored.observe(view)
        game.apply(rng.choice(game.pending.options))
    assert game.pending is not None and cut_off == 2
    view = build_view(game, 0, since=seen)
    assert live.request(view, game.pending.option_ids) == restored.request(
        view, game.pending.option_ids
    )
    assert restored.shown == 0 and "New game: 4 seats" in restored.turn(view)[-1]["content"]


def test_an_autopilot_seat_restores_its_rule_bot_too() -> None:
    """With the autopilot fallback the seat's rule bot sees every restored view and decides
    again where it decided before, so it matches an uninterrupted game's bot."""
    from harness.agents.model_spec import ModelSpec, build_model_seat

    names = default_names(4)
    spec = ModelSpec(provider="openai", model="m", fallback="autopilot",
                     base_url="http://127.0.0.1:9/v1", api_key_env="UNUSED_TEST_KEY")  # fmt: skip
    seat = build_model_seat(spec, "m", names, "en", provider=_FirstOption())
    seat.new_game("g", 0, 1)
    seen_views: list[SeatView] = []
    decided: list[tuple[Any, Sequence[str]]] = []
    bot = seat.autopilot  # type: ignore[attr-defined]
    bot.observe = lambda v: seen_views.append(v)  # type: ignore[method-assign]
    bot.decide = lambda v, o: decided.append((v, o)) or o[0]  # type: ignore[method-assign]
    game = Game.new(4, "classic", 1)
    view = build_view(game, game.pending.seat)
    options = game.pending.option_ids
    assert len(options) > 1
    twin = copy.deepcopy(seat.llm.conversation)  # type: ignore[attr-defined]
    twin.observe(view)
    user = twin.turn(view, options)[-1]
    seat.restore(view, options, {"messages": [user], "attempts": [], "fallback": "timeout"})
    assert seen_views == [view] and decided == [(view, options)]
    seat.restore(view, options, None)  # a record-less decision: seen, no fallback decided
    assert len(seen_views) == 2 and len(decided) == 1
