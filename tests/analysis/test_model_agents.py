"""The model agents of ``bench variance --advantage --models`` (harness.analysis.ladder): a model
seat answered by the test server.  ``model:first`` chooses what a model seat of the harness
chooses against the fake server's default answer (the first offered option), checked through the
real model-seat path (LLMAgent, the OpenAI provider, the fake server over HTTP); ``model:random``
is seeded by the game and seat; both depart from the rule bot, and their departures are
advantage-adjusted like any seat of unknown policy."""

from __future__ import annotations

import asyncio
import time

import pytest

from harness.agents.rulebot import RuleBot
from harness.analysis.advantage import PlayoutRule, advantage_adjust
from harness.analysis.advantage_variance import deal_game, score_deal
from harness.analysis.ladder import MODEL_AGENTS, ModelAnswering, label, make_agent
from harness.engine import Game, build_view
from tests.fakes.backends import KEY_ENV, SECRET_KEY, make_backend

FAST = PlayoutRule(start=2, bound=0.0, cap=2)


def test_first_answers_as_a_model_seat_against_the_fake_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every real decision of a game's first 40 at one seat: the fake server's default answer,
    through the model-seat path, is the agent's choice."""
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    backend = make_backend("openai")
    game = Game.new(5, "classic", 314)
    agent = ModelAnswering("m", "first")
    agent.new_game("g", 0, 314)
    bots = [RuleBot(f"b{i}") for i in range(5)]
    for i, b in enumerate(bots):
        b.new_game("g", i, 314)
    compared = 0

    async def model_choice(options: tuple[str, ...]) -> str:
        provider = backend.provider()
        try:
            view = build_view(game, 0)
            chosen, _ = await backend.agent(provider).decide(
                view, options, time.monotonic() + 30, {"game_id": "g"}
            )
            return chosen
        finally:
            await provider.aclose()

    try:
        while game.pending is not None and compared < 40:
            d = game.pending
            options = tuple(d.option_ids)
            if d.seat == 0 and len(options) > 1:
                chosen = asyncio.run(model_choice(options))
                assert chosen == agent.decide(build_view(game, 0), options)
                compared += 1
            else:
                chosen = bots[d.seat].decide(build_view(game, d.seat), options)
            game.apply(chosen)
    finally:
        backend.server.stop()
    assert compared >= 5


def test_random_is_seeded_by_game_and_seat() -> None:
    options = [f"o{i}" for i in range(9)]

    def draws(seed: int, seat: int) -> list[str]:
        a = ModelAnswering("m", "random")
        a.new_game("g", seat, seed)
        return [a.decide(None, options) for _ in range(20)]  # type: ignore[arg-type]

    assert draws(5, 1) == draws(5, 1)
    assert draws(5, 1) != draws(6, 1) and draws(5, 1) != draws(5, 2)
    assert len(set(draws(5, 1))) > 3


def test_agents_and_labels() -> None:
    assert [label(a) for a in MODEL_AGENTS] == ["model-first", "model-random"]
    assert isinstance(make_agent("model:first", "x"), ModelAnswering)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("model:smart", "x")


@pytest.mark.parametrize("agent", MODEL_AGENTS)
def test_a_model_seat_departs_and_is_adjusted_at_its_own_seat(agent: str) -> None:
    game, me = deal_game(agent, 3, [4], "classic")
    policies = ["unknown" if i == me else "rulebot" for i in range(game.n)]
    r = advantage_adjust(game.n, "classic", game.seed, game.history, policies, FAST, rng_seed=3)  # type: ignore[arg-type]
    assert len(r.departures) >= 3  # it rarely plays as the rule bot
    assert {d.seat for d in r.departures} == {me}
    s = score_deal(agent, 3, [4], "classic", FAST)
    assert s.departures == len(r.departures) and s.adjusted == pytest.approx(r.adjusted[me])
    assert s.cpu > 0
