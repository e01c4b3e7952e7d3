"""Whole games with every seat a :class:`ModelSeat`, over real HTTP against the fake servers.

Each provider path (openai, anthropic, litellm→openai, litellm→anthropic) runs through its real
SDK client.  The fake answers the first listed option unless scripted, so a game is the
deterministic "first option everywhere" game of its seed.  Then scripted failures inside a game
(malformed, illegal, stall, 429, 500, reset), fatal errors that stop the game, the autopilot
fallback, and the :class:`ModelSpec` rules.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import ValidationError

from harness.agents import Decided
from harness.agents.decision_record import ModelDecisionRecord, sha256_text
from harness.agents.llm_agent import FatalModelError
from harness.agents.model_spec import ModelSpec, build_model_seat
from harness.agents.rulebot import RuleBot
from harness.agents.table import TableResult, play_game
from harness.engine import Game, SeatView, build_view, simplest_for_view
from harness.views.names import default_names
from tests.fakes.backends import KEY_ENV, SECRET_KEY, Backend

SEATS = 4
SEED = 5  # the first-option game of this deal ends after ~40 model decisions
DECISION_S = 3.0  # the seat's deadline where a test is about deadlines (room for a loaded machine)
ANSWER_S = 10.0  # elsewhere: the fake answers at once, so a loaded machine never hits the timer
TABLE_TIMEOUT_S = 3.0  # the table's own timer: a safety net well past the seat's deadline
NAMES = default_names(SEATS)


def spec_for(backend: Backend, **overrides: Any) -> ModelSpec:
    """The spec pointing ``backend``'s provider at its fake server (key from ``KEY_ENV``)."""
    settings: dict[str, Any] = {
        "provider": backend.provider_name,
        "model": backend.model,
        "base_url": backend.settings.get("base_url") or backend.settings.get("api_base"),
        "api_key_env": KEY_ENV,
        "price": {"input": 1.0, "output": 2.0},
        "backoff": 0.05,
        "decision_seconds": ANSWER_S,
    }
    settings.update(overrides)
    return ModelSpec(**settings)


@dataclass
class Played:
    """What a game left behind (filled in as it runs, so also after a fatal error)."""

    decisions: list[tuple[SeatView, Decided]] = field(default_factory=list)
    records: list[ModelDecisionRecord] = field(default_factory=list)
    system_prompts: dict[str, str] = field(default_factory=dict)
    result: TableResult | None = None

    @property
    def model_calls(self) -> list[tuple[SeatView, Decided]]:
        """Decisions with more than one option (the ones that ask the model)."""
        return [(v, d) for v, d in self.decisions if len(_options(v)) > 1]


def _options(view: SeatView) -> tuple[str, ...]:
    assert view.pending is not None and view.pending.options is not None
    return view.pending.options


Hook = Callable[[SeatView, Decided], None]


def play(spec: ModelSpec, played: Played | None = None, hook: Hook | None = None) -> Played:
    """Play one whole game of deal ``SEED`` with four seats built from ``spec``."""
    out = played if played is not None else Played()

    def on_decision(game: Game, view: SeatView, decided: Decided) -> None:
        if hook is not None:
            hook(view, decided)
        out.decisions.append((view, decided))

    async def go() -> None:
        seats = [
            build_model_seat(
                spec, NAMES[i], NAMES, "en", out.records.append, out.system_prompts.__setitem__
            )
            for i in range(SEATS)
        ]
        try:
            out.result = await play_game(
                Game.new(SEATS, "classic", SEED),
                seats,
                game_id="model-game",
                timeout=max(TABLE_TIMEOUT_S, 3 * spec.decision_seconds),
                on_decision=on_decision,
                max_decisions=5000,
            )
        finally:
            for seat in seats:
                await seat.aclose()

    asyncio.run(go())
    return out


def _record_json(played: Played) -> str:
    return "\n".join(r.model_dump_json() for r in played.records)


# ------------------------------------------------------------------------------ whole games


def test_whole_game_every_seat_a_model(backend: Backend) -> None:
    played = play(spec_for(backend))
    result = played.result
    assert result is not None and result.game.pending is None
    assert result.winning_side is not None

    # One record per decision, in order, the same object the table saw.
    assert len(played.records) == len(played.decisions)
    assert all(r is d.record for r, (_, d) in zip(played.records, played.decisions, strict=True))
    calls = played.model_calls
    assert len(calls) >= 10
    index = Counter[int]()
    for view, decided in played.decisions:
        record = decided.record
        index[view.viewer] += 1
        assert (record.game_id, record.seat, record.decision_index) == (
            "model-game",
            view.viewer,
            index[view.viewer],
        )
        assert (record.player, record.role) == (NAMES[view.viewer], view.role)
        assert record.decision_kind == view.pending.kind and record.options == list(_options(view))
        assert record.view is not None and record.view["you"]["name"] == NAMES[view.viewer]
        assert record.chosen == decided.option and decided.fallback is None
        assert record.fallback is None and record.provider == backend.provider_name
        if len(_options(view)) == 1:  # never sent to the server
            assert record.attempts == [] and record.messages == [] and record.input_tokens == 0
        else:  # the fake's answer (the first listed option) is what the table applied
            assert [a.error_kind for a in record.attempts] == [None]
            assert record.parsed_choice == decided.option == _options(view)[0]
            assert record.input_tokens > 0 and record.output_tokens > 0
            assert record.cost_usd is not None and record.cost_usd > 0
            assert record.system_prompt_sha256 in played.system_prompts
            assert record.messages[0]["role"] == "user"

    # Exactly one request per multi-option decision; the key went out in the headers only.
    requests = backend.script.model_requests
    assert len(requests) == len(calls)
    assert all(SECRET_KEY in json.dumps(r.headers) for r in requests)
    assert SECRET_KEY not in _record_json(played)
    assert all(sha256_text(t) == h for h, t in played.system_prompts.items())
    assert len(played.system_prompts) == 1  # one system prompt (the rules) for every seat
    assert sum(s.decisions for s in result.stats) == len(played.decisions)
    assert all(not s.fallbacks for s in result.stats)

    # Replaying the recorded choices reproduces the game.
    replay = Game.new(SEATS, "classic", SEED)
    for view, decided in played.decisions:
        assert replay.pending is not None and tuple(replay.pending.option_ids) == _options(view)
        replay.apply(decided.option)
    assert replay.pending is None and replay.winning_side == result.winning_side


# ------------------------------------------------------------------- failures inside a game

# (scripted behaviours of one decision, attempt error kinds, final fallback)
FAILURES: list[tuple[str, list[str | None], str | None]] = [
    ("malformed", ["unparseable", "unparseable"], "invalid_answer"),
    ("illegal", ["illegal_option", "illegal_option"], "invalid_answer"),
    ("stall", ["timeout"], "timeout"),
    ("429 then answer", ["rate_limit", None], None),
    ("500 twice", ["server_error", "server_error"], "error"),
    ("reset then answer", ["connection_error", None], None),
    ("reset twice", ["connection_error", "connection_error"], "error"),
    ("429 past the deadline", ["rate_limit"], "timeout"),
]


def _script_failures(backend: Backend) -> None:
    s = backend.script
    s.malformed().malformed()
    s.illegal("play:shot@9").illegal("PLAY:SHOT@1")
    s.stall(8.0)
    s.status(429, retry_after=0.3).answer()
    s.status(500).status(500)
    s.reset().answer()
    s.reset().reset()
    s.status(429, retry_after=30)


def test_scripted_failures_inside_a_game(backend: Backend) -> None:
    _script_failures(backend)
    played = play(spec_for(backend, retry_budget=1, max_corrections=1, decision_seconds=DECISION_S))
    result = played.result
    assert result is not None and result.winning_side is not None
    assert backend.script.pending == 0

    calls = played.model_calls
    assert len(calls) > len(FAILURES)
    for (label, kinds, fallback), (view, decided) in zip(FAILURES, calls, strict=False):
        record = decided.record
        assert [a.error_kind for a in record.attempts] == kinds, label
        assert record.fallback == decided.fallback == fallback, label
        assert record.chosen == decided.option, label
        assert record.latency_s < DECISION_S, label  # the seat's own deadline held
        if fallback is None:
            assert decided.option == _options(view)[0] and decided.error is None, label
        else:
            assert decided.option == simplest_for_view(view, _options(view)), label
            assert record.fallback_policy == "simplest", label
            assert decided.error is not None and decided.error.startswith(kinds[-1]), label
    stall = calls[2][1].record
    # waited for the stalled server until the deadline (answered calls take milliseconds; the
    # deadline starts with the decision, a little before the call on a loaded machine)
    assert stall.latency_s >= DECISION_S * 0.5
    assert calls[3][1].record.latency_s >= 0.3  # honoured Retry-After
    assert calls[7][1].record.latency_s < 0.5  # a Retry-After past the deadline is not waited for

    # After the script, every decision is a clean answer again.
    assert all(d.fallback is None for _, d in calls[len(FAILURES) :])
    fallbacks = sum((s.fallbacks for s in result.stats), Counter[str]())
    assert fallbacks == Counter({"invalid_answer": 2, "timeout": 2, "error": 2})
    assert SECRET_KEY not in _record_json(played)


@pytest.mark.parametrize("failure", ["401", "unknown model"])
def test_fatal_errors_stop_the_game(backend: Backend, failure: str) -> None:
    if failure == "401":
        backend.script.status(401, message="invalid x-api-key")
    else:
        backend.script.unknown_model()
    played = Played()
    with pytest.raises(FatalModelError) as info:
        play(spec_for(backend), played)
    message = str(info.value)
    assert backend.model in message and "\n" not in message and SECRET_KEY not in message
    assert ("authentication failed" if failure == "401" else "unknown model") in message
    assert len(backend.script.model_requests) == 1  # no retries, no fallback, the game stopped
    assert played.result is None and played.model_calls == []
    assert all(d.fallback is None for _, d in played.decisions)


def test_missing_key_is_fatal_when_building(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BANGARENA_UNSET_KEY", raising=False)
    spec = ModelSpec(provider="openai", model="gpt-x", api_key_env="BANGARENA_UNSET_KEY")
    with pytest.raises(FatalModelError, match="BANGARENA_UNSET_KEY"):
        build_model_seat(spec, "Ada", NAMES, "en")


# ------------------------------------------------------------------------------- autopilot


def test_autopilot_fallback_applies_the_rule_bots_choice(backend_for: Any) -> None:
    backend = backend_for("openai")
    fallbacks = 12
    for _ in range(fallbacks):
        backend.script.malformed()
    shadows = [RuleBot() for _ in range(SEATS)]
    for seat, bot in enumerate(shadows):
        bot.new_game("model-game", seat, SEED)
    expected: list[tuple[str, str]] = []  # (the rule bot's choice, the R-5 move) per fallback

    def shadow(view: SeatView, decided: Decided) -> None:
        bot = shadows[view.viewer]  # sees exactly the views the seat's own autopilot sees
        if decided.fallback is None:
            bot.observe(view)
            return
        choice = bot.decide(view, _options(view))
        assert decided.option == choice
        expected.append((choice, simplest_for_view(view, _options(view))))

    played = play(spec_for(backend, fallback="autopilot", max_corrections=0), hook=shadow)
    records = [d.record for _, d in played.model_calls[:fallbacks]]
    assert all(r.fallback == "invalid_answer" for r in records)
    assert all(r.fallback_policy == "autopilot" for r in records)
    assert len(expected) == fallbacks
    assert any(bot != r5 for bot, r5 in expected), "the bot never differed from R-5"


def test_rule_bot_decides_synchronously() -> None:
    """``RuleBot.decide`` (used by the autopilot fallback) equals awaiting ``choose``."""
    game = Game.new(SEATS, "classic", 3)
    sync_bot, async_bot = RuleBot(), RuleBot()
    for bot in (sync_bot, async_bot):
        bot.new_game("g", 0, 3)
    checked = 0
    while game.pending is not None and checked < 30:
        d = game.pending
        if d.seat == 0:
            view = build_view(game, 0)
            mine = sync_bot.decide(view, d.option_ids)
            assert asyncio.run(async_bot.choose(view, d.option_ids)) == mine
            checked += 1
        game.apply(d.option_ids[0] if d.seat else mine)
    assert checked > 0


# ------------------------------------------------------------------------------- the spec


def _errors(**kwargs: Any) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as info:
        ModelSpec(**kwargs)
    assert "sk-" not in str(info.value)  # input values are never echoed
    return [(".".join(map(str, e["loc"])), e["msg"]) for e in info.value.errors()]


def test_spec_field_errors_are_clear() -> None:
    ((loc, msg),) = _errors(provider="openai", model="m", api_key_env="sk-live-abc123")
    assert loc == "api_key_env" and "NAME of an environment variable" in msg
    ((loc, msg),) = _errors(provider="anthropic", model="m", answer_mode="grammar")
    assert loc == "answer_mode" and "not supported by provider 'anthropic'" in msg
    ((loc, msg),) = _errors(provider="openai", model="m", params={"api_key": "sk-x"})
    assert loc == "params" and "api_key" in msg
    locs = {loc for loc, _ in _errors(provider="vertex", model="", colour="red", backoff=-1)}
    assert locs == {"provider", "model", "colour", "backoff"}
    ((loc, _),) = _errors(provider="openai", model="m", fallback="random")
    assert loc == "fallback"


def test_spec_defaults_and_provider_settings() -> None:
    spec = ModelSpec(
        provider="litellm", model="openai/x", base_url="http://127.0.0.1:1/v1", api_key_env="MY_KEY"
    )
    assert spec.provider_settings() == {
        "api_base": "http://127.0.0.1:1/v1",
        "api_key_env": "MY_KEY",
    }
    assert (spec.max_corrections, spec.retry_budget, spec.backoff) == (1, 4, 0.5)
    assert (spec.fallback, spec.decision_seconds, spec.cache_dir) == ("simplest", 60.0, None)
    assert spec.effective_answer_mode() == "json_schema"
    assert ModelSpec(provider="anthropic", model="c").effective_answer_mode() == "tool"
    local = ModelSpec(provider="openai", model="m", base_url="http://127.0.0.1:8080/v1")
    assert local.provider_settings() == {"base_url": "http://127.0.0.1:8080/v1"}
    priced = ModelSpec(provider="openai", model="m", price={"input": 2, "output": 8})
    assert priced.price_book().cost(
        "m", input_tokens=1_000_000, cached_input_tokens=0, output_tokens=0
    ) == pytest.approx(2.0)


def test_spec_cache_dir_serves_a_repeated_game(backend_for: Any, tmp_path: Any) -> None:
    backend = backend_for("openai")
    spec = spec_for(backend, cache_dir=tmp_path / "cache")
    first = play(spec)
    sent = len(backend.script.model_requests)
    second = play(spec)
    assert len(backend.script.model_requests) == sent  # every answer came from the cache
    assert [d.option for _, d in first.decisions] == [d.option for _, d in second.decisions]
    assert all(d.record.cached for _, d in second.model_calls)
