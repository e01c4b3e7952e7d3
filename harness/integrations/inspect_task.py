"""BangArena as an Inspect AI task: Inspect's model plays against rule bots.

    inspect eval harness/integrations/inspect_task.py --model openai/gpt-4o-mini \\
        -T seats=5 -T games=20 -T answer_mode=json_schema

Each game is one sample.  Inspect's model (any model string) sits at one seat — seat ``i % seats``
in game ``i``, so every seat position gets its turn — and the other seats are this project's rule
bots.  The model is asked through the harness's own machinery: the model seat of a league player
(:func:`harness.agents.model_spec.build_model_seat`: its prompts, history policy and token counts,
strict answer parsing with corrective re-prompts, Ruling R-5's fallback move when it cannot answer
validly) in the answer mode of ``answer_mode`` (``text``, ``json_schema``, ``tool``,
``json_object``, ``grammar``, as a league player's ``answer_mode``).

Scores and metrics count as ``league report`` does (:mod:`harness.league.model_calls`): a *model
decision* is one with more than one option (a single option is taken without asking the model and
never enters a rate), and ``fallback_rate``, ``invalid_rate`` and ``timeout_rate`` are shares of
model decisions.  A run (the ``flagged`` metric) or a game (the score's ``flagged``) whose fallback
share passes ``max_fallback_rate`` is flagged with the league's one-line reason (the score's
``flag``): its win rates are the fallback move's, not the model's.  A game whose model seat falls
back ``max_fallbacks`` times in a row is ended as void (as in leagues) and left out of the win
rates.  ``run_dir`` also writes the games as a league run folder (``games.jsonl``,
``games/<id>.jsonl``) that ``bangarena league report``, ``replay`` and ``inspect`` read.

**Any Inspect solver or agent** can play the seat instead of the harness's model seat:
``inspect eval harness/integrations/inspect_task.py --solver my_agents.py@my_agent`` (Inspect's
own solver override; e.g. ``react(tools=[choose(), *my_tools])``).  The task's setup step (which
Inspect runs whatever the solver) opens the seat: the first user message is the seat's game and
first decision, and the ``choose(option_id, reasoning?)`` tool (in the sample's tools, and
importable as :func:`harness.integrations.inspect_seat.choose`) answers each decision and returns
the next (:mod:`harness.integrations.inspect_seat`: the same timer, fallbacks and records as any
external agent, the usage from Inspect's model usage).  The default solver plays the seat with the
harness's model seat instead (the setup's game is dropped before any decision of the seat).

**A league run**: ``-T config=league.yaml -T player=NAME`` plays the league of the config, whose
``kind: inspect`` player NAME is the solver's seat, one sample per game of NAME
(:mod:`harness.integrations.inspect_league`); ``-T mcp_port=`` serves its ``kind: mcp`` player over
streamable HTTP on 127.0.0.1.  Without ``--solver`` the solver is Inspect's ``generate()`` (the
model calls ``choose`` in a tool loop).

Needs the ``[inspect]`` extra: ``pip install -e '.[inspect]'``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any, get_args

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.scorer import (
    Score,
    Target,
    scorer,
)
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from harness.agents.external_seat import ExternalSeat
from harness.agents.mcp_seat import McpBackend, McpChannel
from harness.agents.model_spec import ModelSpec, build_model_seat
from harness.agents.providers.provider_contract import AnswerMode
from harness.engine import Game
from harness.integrations.inspect_counts import counts_from_json
from harness.integrations.inspect_league import LeagueHost
from harness.integrations.inspect_provider import InspectProvider
from harness.integrations.inspect_samples import (
    counted,
    outcome_line,
    sample_result,
    sample_table,
    start_run_folder,
    write_game,
)
from harness.integrations.inspect_scores import fallback_flag, rate, task_metrics
from harness.integrations.inspect_seat import SolverSeat, choose, first_messages, seat_of_sample
from harness.runs import DEFAULT_MAX_FALLBACK_RATE
from harness.views.names import default_names

ANSWER_MODES: tuple[str, ...] = get_args(AnswerMode)


@task
def bangarena(
    seats: int = 5,
    games: int = 20,
    mode: str = "classic",
    seed: int = 1,
    locale: str = "en",
    history: str = "conversation",
    context_tokens: int = 32_000,
    decision_seconds: float = 120.0,
    max_corrections: int = 1,
    max_fallbacks: int = 20,
    answer_mode: str = "text",
    max_fallback_rate: float = DEFAULT_MAX_FALLBACK_RATE,
    run_dir: str | None = None,
    config: str | None = None,
    player: str | None = None,
    mcp_port: int | None = None,
    price_input: float | None = None,
    price_output: float | None = None,
) -> Task:
    """``games`` games of ``seats`` seats in ``mode``; game ``i`` is dealt from ``seed + i``.
    With ``config``, the league of that file instead (its ``kind: inspect`` ``player``).
    ``price_input`` and ``price_output`` ($ per million tokens, both or neither) price the
    model's calls as a league player's ``price:`` does (``-T price_input=0 -T price_output=0``
    for a local server); without them the price is LiteLLM's for the model's name, if any."""
    if config is not None:
        return _league_task(config, player, run_dir, mcp_port, max_fallback_rate)
    if player is not None or mcp_port is not None:
        raise ValueError("player and mcp_port are for a league: give config=league.yaml")
    if answer_mode not in ANSWER_MODES:
        raise ValueError(
            f"answer_mode must be one of {', '.join(ANSWER_MODES)}, got {answer_mode!r}"
        )
    if not 0 <= max_fallback_rate <= 1:
        raise ValueError(f"max_fallback_rate must be within 0..1, got {max_fallback_rate}")
    price = _price(price_input, price_output)
    samples = []
    for i in range(games):
        game_seed = seed + i
        seat = i % seats
        role = Game.new(seats, mode, game_seed).seats[seat].role
        samples.append(
            Sample(
                id=f"game-{i + 1}",
                input=f"BangArena {mode}, {seats} seats, deal {game_seed}: you play seat {seat}.",
                target=role,
                metadata={
                    "seed": game_seed,
                    "deal": i,
                    "seat": seat,
                    "role": role,
                    "seats": seats,
                    "mode": mode,
                },
            )  # fmt: skip
        )
    if run_dir is not None:
        start_run_folder(Path(run_dir), max_fallback_rate, locale)
    return Task(
        dataset=MemoryDataset(samples, name="bangarena"),
        setup=solver_seat(
            locale=locale,
            decision_seconds=decision_seconds,
            max_fallbacks=max_fallbacks,
            run_dir=run_dir,
        ),
        cleanup=_cleanup,
        solver=bangarena_table(
            locale=locale,
            history=history,
            context_tokens=context_tokens,
            decision_seconds=decision_seconds,
            max_corrections=max_corrections,
            max_fallbacks=max_fallbacks,
            answer_mode=answer_mode,
            run_dir=run_dir,
            price=price,
        ),
        scorer=game_result(max_fallback_rate=max_fallback_rate),
        metrics=task_metrics(max_fallback_rate),
    )


def _price(price_input: float | None, price_output: float | None) -> dict[str, float] | None:
    """The model's price from the task's arguments: both or neither, each at least 0."""
    if price_input is None and price_output is None:
        return None
    if price_input is None or price_output is None:
        raise ValueError(
            "give both price_input and price_output ($ per million tokens), or neither"
        )
    if price_input < 0 or price_output < 0:
        raise ValueError("price_input and price_output must be at least 0 ($ per million tokens)")
    return {"input": float(price_input), "output": float(price_output)}


@solver
def bangarena_table(
    *,
    locale: str,
    history: str,
    context_tokens: int,
    decision_seconds: float,
    max_corrections: int,
    max_fallbacks: int,
    answer_mode: str = "text",
    run_dir: str | None = None,
    price: dict[str, float] | None = None,
) -> Solver:
    """Play the sample's game: Inspect's model at the sample's seat, rule bots elsewhere (the
    settings are the task's, which holds their defaults)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        await _drop_seat()  # the setup's seat for a solver: this solver plays another way
        t0 = time.monotonic()
        meta = state.metadata
        n, seat = meta["seats"], meta["seat"]
        model = get_model()
        player = str(model)
        names = default_names(n)
        spec = ModelSpec(
            provider="litellm",  # a label only: the calls go through Inspect's model
            model=player,
            answer_mode=answer_mode,  # type: ignore[arg-type]
            max_corrections=max_corrections,
            decision_seconds=decision_seconds,
            history=history,  # type: ignore[arg-type]
            context_tokens=context_tokens,
            price=price,  # type: ignore[arg-type]
        )
        # the league's model seat: the same prompts, history and token counts as a league player
        model_seat = build_model_seat(
            spec, names[seat], names, locale, provider=InspectProvider(model)
        )
        recorder, counts, table = sample_table(
            state, model_seat, player, history, decision_seconds, max_fallbacks, "model"
        )
        try:
            result = await recorder.walk(table, counted(counts, seat))
        finally:
            await model_seat.aclose()
        counts.games_read = 1
        meta["result"] = sample_result(result, seat, counts)
        if run_dir is not None:
            write_game(Path(run_dir), recorder, result, t0)
        state.messages = _conversation(model_seat.llm.conversation)
        state.output = ModelOutput.from_content(player, outcome_line(meta, meta["result"]))
        state.completed = True
        return state

    return solve


# ------------------------------------------------------------------------------ solver seats

_GAMES: dict[str, asyncio.Task[Any]] = {}  # session -> the game of a sample's seat (no league)
_LEAGUES: dict[int, LeagueHost] = {}  # id(task's host) -> host, for the samples' setup


@solver
def solver_seat(
    *,
    locale: str = "en",
    decision_seconds: float = 120.0,
    max_fallbacks: int = 20,
    run_dir: str | None = None,
    league: int | None = None,
) -> Solver:
    """The setup step: the sample's seat opened to whatever solver runs next (the first
    message: the game and its first decision; the ``choose`` tool in the sample's tools)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if league is not None:
            seat = await _LEAGUES[league].claim(state.metadata)
        else:
            seat = _table_seat(state, locale, decision_seconds, max_fallbacks, run_dir)
        seat.register()
        state.messages = first_messages(await seat.next_status())
        state.tools.append(choose())
        return state

    return solve


def _table_seat(
    state: TaskState,
    locale: str,
    decision_seconds: float,
    max_fallbacks: int,
    run_dir: str | None,
) -> SolverSeat:
    """The sample's game against rule bots, its seat fed by a channel (the game runs until the
    seat's first decision, then waits for the solver)."""
    t0 = time.monotonic()
    meta = state.metadata
    n, seat = meta["seats"], meta["seat"]
    player = str(get_model())
    names = default_names(n)
    channel = McpChannel(player, games_total=1)
    agent = ExternalSeat(
        player,
        "inspect",
        player,
        McpBackend(channel),
        names,
        locale,
        decision_seconds=decision_seconds,
    )
    recorder, counts, table = sample_table(
        state, agent, player, None, decision_seconds, max_fallbacks, "inspect"
    )
    game, game_id = table.game, recorder.ident.game_id

    async def play() -> dict[str, Any]:
        try:
            result = await recorder.walk(table, counted(counts, seat))
        finally:
            await agent.aclose()
        counts.games_read = 1
        r = sample_result(result, seat, counts)
        if run_dir is not None:
            write_game(Path(run_dir), recorder, result, t0)
        channel.game_over(
            game_id,
            {"game_id": game_id, "seat": seat, "role": meta["role"], "won": r["win"],
             "alive": game.seats[seat].alive, "winning_side": r["winning_side"],
             "rounds": r["rounds"], "void": r["void"], "decisions": r["decisions"],
             "fallbacks": r["fallbacks"]},
        )  # fmt: skip
        return r

    task = asyncio.create_task(play(), name=f"bangarena {game_id}")
    solver_seat_ = SolverSeat(channel, game_id, task)
    _GAMES[solver_seat_.session] = task
    return solver_seat_


async def _drop_seat() -> None:
    """Stop the sample's seat game (no decision of the seat was made yet)."""
    seat = seat_of_sample()
    if seat is None:
        return
    seat.unregister()
    task = _GAMES.pop(seat.session, None)
    if task is not None and not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _cleanup(state: TaskState) -> None:
    """After the scorer, or a sample that failed before it: a seat still open falls back to its
    game's end (in a league, the run then goes on without the sample)."""
    seat = seat_of_sample()
    if seat is None:
        return
    try:
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await seat.finish()
    finally:
        _GAMES.pop(seat.session, None)


async def _solver_result(state: TaskState) -> dict[str, Any]:
    """The result of a sample whose seat a solver played (its game played to the end)."""
    seat = seat_of_sample()
    if seat is None:
        raise RuntimeError("the sample has no BangArena seat")
    try:
        r = await seat.finish()
    finally:
        _GAMES.pop(seat.session, None)
    state.metadata["result"] = r
    return r


def _league_task(
    config: str,
    player: str | None,
    run_dir: str | None,
    mcp_port: int | None,
    max_fallback_rate: float,
) -> Task:
    if player is None:
        raise ValueError("config needs player=NAME: the config's kind: inspect player")
    host = LeagueHost(config, player, run_dir, mcp_port)
    _LEAGUES[id(host)] = host
    samples = [
        Sample(
            id=f"game-{i + 1}",
            input=f"BangArena league {host.config.name}: you play {player}.",
            metadata={"player": player},
        )
        for i in range(len(host.games))
    ]
    return Task(
        dataset=MemoryDataset(samples, name="bangarena"),
        setup=solver_seat(league=id(host)),
        cleanup=_cleanup,
        solver=generate(),
        scorer=game_result(max_fallback_rate=max_fallback_rate),
        metrics=task_metrics(max_fallback_rate),
    )


def _conversation(transcript: Any) -> list[ChatMessage]:
    """The model seat's conversation as Inspect messages (shown in ``inspect view``)."""
    out: list[ChatMessage] = [ChatMessageSystem(content=transcript.system())]
    for m in getattr(transcript, "history", []):
        kind = ChatMessageAssistant if m["role"] == "assistant" else ChatMessageUser
        out.append(kind(content=m["content"]))
    return out


# ------------------------------------------------------------------------------ the scorer


@scorer(metrics=task_metrics())
def game_result(max_fallback_rate: float = DEFAULT_MAX_FALLBACK_RATE) -> Any:
    """The game's result for the model seat: win, role, model decisions and fallbacks (the rates
    of ``league report``), and the flag when its fallback share passes ``max_fallback_rate``."""

    async def score(state: TaskState, target: Target) -> Score:
        r = state.metadata.get("result") or await _solver_result(state)
        counts = counts_from_json(r["counts"])
        flag = fallback_flag(counts, max_fallback_rate)
        explanation = outcome_line(state.metadata, r) + (f"; FLAG: {flag}" if flag else "")
        return Score(
            value={
                "win": 1 if r["win"] else 0,
                "void": 1 if r["void"] else 0,
                "decisions": counts.decisions,
                "single_option": counts.single_option,
                "fallbacks": counts.fallback_total,
                "fallback_rate": rate(counts.fallback_per_decision),
                "invalid_rate": rate(counts.invalid_per_decision),
                "timeout_rate": rate(counts.timeout_per_decision),
                "flagged": 1 if flag else 0,
            },
            answer=state.metadata["role"],
            explanation=explanation,
            metadata={
                **r,
                "role": state.metadata["role"],
                "seat": state.metadata["seat"],
                "flag": flag,
                "max_fallback_rate": max_fallback_rate,
            },
        )

    return score
