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
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any, Literal, get_args

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
    Metric,
    SampleScore,
    Score,
    Target,
    metric,
    scorer,
)
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from harness.agents.external_seat import ExternalSeat
from harness.agents.mcp_seat import McpBackend, McpChannel
from harness.agents.model_spec import ModelSpec, build_model_seat
from harness.agents.providers.base import AnswerMode
from harness.agents.rulebot import RuleBot
from harness.agents.table import Table, TableResult
from harness.engine import Game
from harness.engine.roles import ROLES
from harness.integrations.inspect_counts import counts_from_json, counts_json, merged_counts
from harness.integrations.inspect_league import LeagueHost
from harness.integrations.inspect_provider import InspectProvider
from harness.integrations.inspect_seat import SolverSeat, choose, first_messages, seat_of_sample
from harness.league.flags import DEFAULT_MAX_FALLBACK_RATE, fallback_flags
from harness.league.model_calls import ModelCounts
from harness.play.recorder import GameIdent, GameRecorder, LineSink
from harness.records import DecisionLine, RunStore
from harness.records.models import SeatPlayer
from harness.views.names import default_names

ANSWER_MODES: tuple[str, ...] = get_args(AnswerMode)
BOT_PLAYER = "rulebot"  # the league player of the rule-bot seats in a written run folder
RUN_NAME = "inspect"


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
        _start_run_folder(Path(run_dir), max_fallback_rate, locale)
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
        metrics=_metrics(max_fallback_rate),
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
        recorder, counts, table = _sample_table(
            state, model_seat, player, history, decision_seconds, max_fallbacks, "model"
        )
        try:
            result = await recorder.walk(table, _counted(counts, seat))
        finally:
            await model_seat.aclose()
        counts.games_read = 1
        meta["result"] = _sample_result(result, seat, counts)
        if run_dir is not None:
            _write_game(Path(run_dir), recorder, result, t0)
        state.messages = _conversation(model_seat.llm.conversation)
        state.output = ModelOutput.from_content(player, _outcome_line(meta, meta["result"]))
        state.completed = True
        return state

    return solve


def _sample_table(
    state: TaskState,
    agent: Any,
    player: str,
    history: str | None,
    decision_seconds: float,
    max_fallbacks: int,
    kind: Literal["model", "inspect"],
) -> tuple[GameRecorder, ModelCounts, Table]:
    """The sample's game: ``agent`` (``player``, of ``kind``: ``model``, the harness's model
    seat, or ``inspect``, a solver) at the sample's seat, rule bots elsewhere.  Returns its
    recorder (the game as a league game: run ``inspect``, its decisions as league decision
    lines), the seat's counts (as league report counts a game's file) and the table."""
    meta = state.metadata
    n, seat, game_seed = meta["seats"], meta["seat"], meta["seed"]
    names = default_names(n)
    agents = [agent if i == seat else RuleBot(names[i], seed=game_seed) for i in range(n)]
    game = Game.new(n, meta["mode"], game_seed)
    game_id = str(state.sample_id) + (f"-epoch-{state.epoch}" if state.epoch > 1 else "")
    seating = [
        SeatPlayer(seat=i, player=player, kind=kind, model=player, name=names[i], history=history)
        if i == seat
        else SeatPlayer(seat=i, player=BOT_PLAYER, kind="bot", model=None, name=names[i])
        for i in range(n)
    ]
    ident = GameIdent(RUN_NAME, game_id, game_seed, n, meta["mode"], meta["deal"])
    recorder = GameRecorder(ident, seating, game)
    table = Table(
        game, agents, game_id=game_id, timeout=decision_seconds, max_model_fallbacks=max_fallbacks
    )
    return recorder, ModelCounts(player, player, history), table


def _counted(counts: ModelCounts, seat: int) -> LineSink:
    """Count the decision lines of ``seat`` in ``counts``."""

    def add(line: DecisionLine) -> None:
        if line.seat == seat:
            counts.add(line)

    return add


def _sample_result(result: Any, seat: int, counts: ModelCounts) -> dict[str, Any]:
    """A played game as the sample's result (what the scorer reads)."""
    stats = result.stats[seat]
    return {
        "win": seat in result.winners,
        "void": result.void,
        "winning_side": result.winning_side,
        "decisions": stats.decisions,
        "model_decisions": counts.decisions,
        "single_option": counts.single_option,
        "fallbacks": sum(stats.fallbacks.values()),
        "fallback_reasons": dict(stats.fallbacks),
        "model_calls": counts.calls,
        "rounds": result.game.round,
        "counts": counts_json(counts),
    }


def _outcome_line(meta: dict[str, Any], r: dict[str, Any]) -> str:
    outcome = "void" if r["void"] else ("won" if r["win"] else "lost")
    return f"{meta['role']} at seat {meta['seat']}: {outcome} ({r['winning_side']} won)"


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
    recorder, counts, table = _sample_table(
        state, agent, player, None, decision_seconds, max_fallbacks, "inspect"
    )
    game, game_id = table.game, recorder.ident.game_id

    async def play() -> dict[str, Any]:
        try:
            result = await recorder.walk(table, _counted(counts, seat))
        finally:
            await agent.aclose()
        counts.games_read = 1
        r = _sample_result(result, seat, counts)
        if run_dir is not None:
            _write_game(Path(run_dir), recorder, result, t0)
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
        metrics=_metrics(max_fallback_rate),
    )


def _conversation(transcript: Any) -> list[ChatMessage]:
    """The model seat's conversation as Inspect messages (shown in ``inspect view``)."""
    out: list[ChatMessage] = [ChatMessageSystem(content=transcript.system())]
    for m in getattr(transcript, "history", []):
        kind = ChatMessageAssistant if m["role"] == "assistant" else ChatMessageUser
        out.append(kind(content=m["content"]))
    return out


# ------------------------------------------------------------------------------ run folder


def _start_run_folder(root: Path, max_fallback_rate: float, locale: str) -> None:
    """The run folder's ``config.json``: what ``league report`` reads of a league config (the
    fallback limit, the locale); the games are added as they end.  A folder that already holds
    games is refused (its games would mix with this run's)."""
    if (root / "games.jsonl").exists() and RunStore(root).games():
        raise ValueError(f"run_dir {root} already holds games: give a new folder")
    root.mkdir(parents=True, exist_ok=True)
    RunStore(root).prepare()
    config = {
        "name": RUN_NAME,
        "source": "inspect",
        "paired": False,
        "locale": locale,
        "max_fallback_rate": max_fallback_rate,
    }
    (root / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")


def _write_game(root: Path, recorder: GameRecorder, result: TableResult, t0: float) -> None:
    """One finished sample as a league game: its file and its ``games.jsonl`` line."""
    out = recorder.finish(result, time.monotonic() - t0)
    RunStore(root).write_game(out.start, out.decisions, out.end, out.record)


# ------------------------------------------------------------------------------ scores


def _model_counts(scores: list[SampleScore]) -> ModelCounts | None:
    """The model seat's counts over every scored game (``None`` when none was)."""
    parts = []
    for s in scores:
        meta = s.score.metadata or {}
        if isinstance(meta.get("counts"), dict):
            parts.append(counts_from_json(meta["counts"]))
    if not parts:
        return None
    return merged_counts(parts[0].player, parts)


def fallback_flag(counts: ModelCounts, limit: float) -> str | None:
    """The league's flag message when ``counts``' fallback share passes ``limit``."""
    flags = fallback_flags([], {counts.player: counts}, limit)
    return flags[0].message if flags else None


def _rate(x: float | None) -> float:
    """A rate for a metric (Inspect metrics are numbers): 0.0 when nothing was decided."""
    return 0.0 if x is None else float(x)


@metric
def win_rate_by_role() -> Metric:
    """Share of decided games won: ``all`` and one entry per role played (void games left out)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        played: Counter[str] = Counter()
        won: Counter[str] = Counter()
        for s in scores:
            value = s.score.value
            if not isinstance(value, dict) or value.get("void"):
                continue
            role = str(s.score.answer)
            for key in ("all", role):
                played[key] += 1
                won[key] += int(value["win"])
        keys = ["all", *(r for r in ROLES if played[r])]
        return {k: won[k] / played[k] if played[k] else 0.0 for k in keys}

    return compute


@metric
def fallback_rate() -> Metric:
    """Model decisions that fell back / model decisions (decisions with more than one option),
    over all games: ``league report``'s ``fallback_rate``."""

    def compute(scores: list[SampleScore]) -> float:
        c = _model_counts(scores)
        return _rate(c.fallback_per_decision if c else None)

    return compute


@metric
def invalid_rate() -> Metric:
    """Model decisions with at least one invalid answer / model decisions."""

    def compute(scores: list[SampleScore]) -> float:
        c = _model_counts(scores)
        return _rate(c.invalid_per_decision if c else None)

    return compute


@metric
def timeout_rate() -> Metric:
    """Model decisions with a timed-out call (or cut off by the timer) / model decisions."""

    def compute(scores: list[SampleScore]) -> float:
        c = _model_counts(scores)
        return _rate(c.timeout_per_decision if c else None)

    return compute


@metric
def flagged(max_fallback_rate: float = DEFAULT_MAX_FALLBACK_RATE) -> Metric:
    """1.0 when the run's fallback share of model decisions passes ``max_fallback_rate`` (its
    win rates are not valid; each game's score names its own flag), else 0.0."""

    def compute(scores: list[SampleScore]) -> float:
        c = _model_counts(scores)
        return 1.0 if c is not None and fallback_flag(c, max_fallback_rate) else 0.0

    return compute


@metric
def void_games() -> Metric:
    def compute(scores: list[SampleScore]) -> float:
        return float(
            sum(1 for s in scores if isinstance(s.score.value, dict) and s.score.value["void"])
        )

    return compute


def _metrics(max_fallback_rate: float = DEFAULT_MAX_FALLBACK_RATE) -> list[Metric]:
    return [
        win_rate_by_role(),
        fallback_rate(),
        invalid_rate(),
        timeout_rate(),
        flagged(max_fallback_rate),
        void_games(),
    ]


@scorer(metrics=_metrics())
def game_result(max_fallback_rate: float = DEFAULT_MAX_FALLBACK_RATE) -> Any:
    """The game's result for the model seat: win, role, model decisions and fallbacks (the rates
    of ``league report``), and the flag when its fallback share passes ``max_fallback_rate``."""

    async def score(state: TaskState, target: Target) -> Score:
        r = state.metadata.get("result") or await _solver_result(state)
        counts = counts_from_json(r["counts"])
        flag = fallback_flag(counts, max_fallback_rate)
        explanation = _outcome_line(state.metadata, r) + (f"; FLAG: {flag}" if flag else "")
        return Score(
            value={
                "win": 1 if r["win"] else 0,
                "void": 1 if r["void"] else 0,
                "decisions": counts.decisions,
                "single_option": counts.single_option,
                "fallbacks": counts.fallback_total,
                "fallback_rate": _rate(counts.fallback_per_decision),
                "invalid_rate": _rate(counts.invalid_per_decision),
                "timeout_rate": _rate(counts.timeout_per_decision),
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
