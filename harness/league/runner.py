"""``bangarena league run``: play a config's schedule concurrently, resumably, within limits.

* Games without model seats run in worker processes (all cores) and are written when they end;
  games with model seats run as asyncio tasks so model calls overlap, at most
  ``max_concurrent_games`` at once, with provider concurrency and rate limits shared by every
  game, and each of their decisions is appended to the game's file as it is made.
* ``resume`` skips finished games and continues unfinished ones from their recorded decisions
  (replayed through the engine and the seats, no model call repeated), so a stopped or killed run
  resumed ends with exactly the games of an uninterrupted run.
* Every model call is written to the run's spend ledger (``spend.jsonl``); the spending caps count
  the ledger, across every session of the run.  A cap, a fatal model error (bad key, unknown
  model), a model player whose calls all fail for ``max_failed_decisions`` decisions in a row, or
  SIGINT/SIGTERM stops the run: no further call is sent, every game in flight is cancelled and
  awaited (their decisions so far are kept), and one line says why.
* A game whose model seats fall back ``max_consecutive_fallbacks`` times in a row is ended and
  recorded as void (see :mod:`harness.agents.table`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from harness.agents.deadline import watch_loop
from harness.agents.decision_record import ANSWERED_KINDS
from harness.agents.seat import FatalSeatError
from harness.play.config_files import ConfigError
from harness.play.game_spec import GameSpec
from harness.play.ledger import cap_reached, current_game
from harness.play.players import SEATED_KINDS
from harness.play.recorder import GameOutput
from harness.records import DecisionLine, GameRecord, GameStart, RunStore
from harness.records.rules_version import write_rules_version
from harness.records.store import GameFile, GameParts
from harness.views.plural import count
from harness.views.rules_doc import RULES_VERSION

from .game_play import ResumeMismatch, game_start, play_scheduled, played_before
from .league_config import LeagueConfig, parse_config
from .schedule import build_schedule
from .stopped import clear_stopped, only_stopped

CONFIG_FILE = "config.json"
# Settings that change what games are played or how seats decide; a resumed run must keep them.
# Operational settings (spending caps, concurrency, workers, output) may change between sessions.
RESULT_FIELDS = (
    "name", "players", "tables", "games_per_table", "base_seed", "paired", "shuffle_names",
    "locale", "decision_seconds", "fallback", "retry_budget", "max_consecutive_fallbacks",
    "signals",
)  # fmt: skip


class LeagueStopped(Exception):
    """The run stopped before its end (spending cap, fatal model error); one-line message."""


class LeagueInterrupted(LeagueStopped):
    """The run was stopped by SIGINT or SIGTERM; ``exit_code`` is 128 + the signal number."""

    def __init__(self, message: str, signum: int) -> None:
        super().__init__(message)
        self.signum = signum
        self.exit_code = 128 + signum


@dataclass
class Progress:
    """How far the run is: finished games, and — live, during long games — the decisions made
    and the model calls sent.  ``listeners`` hear every change."""

    total: int
    done: int = 0
    skipped: int = 0
    fallbacks: int = 0
    void: int = 0
    cost_usd: float = 0.0  # the run's spend so far (every session, from the spend ledger)
    tokens: int = 0
    decisions: int = 0  # made in this session: live in model games, at the end of others
    calls: int = 0  # model calls of the run (every session, preflight included: the ledger)
    listeners: list[Callable[[Progress], None]] = field(default_factory=list)

    def _tell(self) -> None:
        for cb in self.listeners:
            cb(self)

    def update(self, record: GameRecord, decided_live: int = 0) -> None:
        """A game ended; ``decided_live`` of its decisions were counted as they were made."""
        self.done += 1
        self.fallbacks += record.fallbacks
        self.void += record.void is not None
        self.decisions += max(0, record.decisions - decided_live)
        self._tell()

    def decided(self, line: DecisionLine) -> None:
        """A decision of a game in play was made (and written)."""
        self.decisions += 1
        self._tell()

    def spent(self, cost_usd: float, tokens: int, calls: int) -> None:
        self.cost_usd, self.tokens, self.calls = cost_usd, tokens, calls
        self._tell()


def run_dir_for(config: LeagueConfig, base: Path | None = None) -> Path:
    root = Path(config.output) if base is None else base
    return root / config.name


def written_config(config: LeagueConfig) -> dict[str, Any]:
    """The config as a run folder keeps it (``config.json``)."""
    data = config.model_dump(mode="json")
    for p in data["players"]:  # a player without probes is written as before they existed
        if p.get("probes") is None:
            p.pop("probes", None)
    return data


def as_written_now(stored: Any) -> Any:
    """A run folder's ``config.json`` as this code would write it: a setting added after the run
    started (at any depth, such as a model's ``rules``) reads as its default, the value the run
    was played with.  A config this code cannot read is compared as it is."""
    try:
        return written_config(parse_config(stored))
    except ConfigError:
        return stored


def prepare_run(config: LeagueConfig, run_dir: Path, resume: bool) -> RunStore:
    store = RunStore(run_dir)
    cfg_path = run_dir / CONFIG_FILE
    resolved = written_config(config)
    stopped_early = only_stopped(run_dir)  # a preflight stopped it: start afresh (its ledger stays)
    if cfg_path.exists() and not stopped_early:
        if not resume:
            raise LeagueStopped(
                f"run folder {run_dir} already exists: use --resume to continue it, or change "
                "the config's name"
            )
        stored = as_written_now(json.loads(cfg_path.read_text(encoding="utf-8")))
        changed = [k for k in RESULT_FIELDS if stored.get(k) != resolved.get(k)]
        if changed:
            raise LeagueStopped(
                f"the config differs from the one {run_dir} was started with in "
                f"{', '.join(changed)}; a resumed run must keep them"
            )
    else:
        run_dir.mkdir(parents=True, exist_ok=True)
        tmp = cfg_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(resolved, indent=1, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, cfg_path)
        write_rules_version(run_dir, RULES_VERSION)  # what `leaderboard` compares between runs
    store.prepare()
    clear_stopped(run_dir)
    return store


@lru_cache(maxsize=2)
def _worker_config(config_json: str) -> LeagueConfig:
    """The run's config, parsed once per worker process."""
    return parse_config(json.loads(config_json))


def _worker_init() -> None:
    """Worker processes leave Ctrl-C to the runner (which stops them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_in_process(spec: GameSpec, config_json: str, run: str) -> GameParts:
    """Worker-process entry: play a game without model seats; return its records as JSON."""
    config = _worker_config(config_json)
    return asyncio.run(play_scheduled(spec, config, run)).parts()


def failed_every_call(line: DecisionLine) -> bool:
    """A model decision whose calls all failed (errors, timeouts): no answer, valid or not,
    came back.  A decision the table's timer cut off (no model record) counts as failed."""
    if line.model is None:
        return line.fallback is not None
    return (
        not any(
            a.get("error_kind") is None or a.get("error_kind") in ANSWERED_KINDS
            for a in line.model.get("attempts") or []
        )
        and line.model.get("fallback") is not None
    )


class LeagueRunner:
    def __init__(
        self,
        config: LeagueConfig,
        run_dir: Path,
        *,
        resume: bool = False,
        model_seats: Any = None,
        workers: int | None = None,
        executor: Any = None,
    ) -> None:
        self.config = config
        self.executor = executor  # harness.league.executors: where games run (None: here)
        self.run_dir = run_dir
        self.resume = resume
        self.store = prepare_run(config, run_dir, resume)
        self.schedule = build_schedule(config)
        finished = self.store.finished_ids()
        self.todo = [g for g in self.schedule if g.game_id not in finished]
        # a finished game the schedule no longer plays (a paired rotation that repeated a
        # seating, in a run begun before such rotations were skipped) is not counted here
        done = len(self.schedule) - len(self.todo)
        self.progress = Progress(total=len(self.schedule), skipped=done)
        self.progress.done = done
        self.model_seats = model_seats  # harness.play.model_seats.ModelSeats or None
        self.workers = workers or config.workers or os.cpu_count() or 1
        self.stop_reason: str | None = None
        self.interrupted: int | None = None  # the signal that stopped the run
        self.calls_at_stop: int | None = None  # ledger calls when the stop was decided
        self.unfinished: set[str] = set()  # games in flight (their files keep their decisions)
        self._game_tasks: list[asyncio.Task[None]] = []
        self._plain_task: asyncio.Task[None] | None = None
        self._failed: dict[str, int] = {}  # model player -> decisions failed in a row
        self._drop_failed_tails = False  # set when a failing provider stopped the run
        self._model_players = {p.name for p in config.players if p.kind == "model"}
        self._seated_players = {p.name for p in config.players if p.kind in SEATED_KINDS}
        self.game_listeners: list[Callable[[GameOutput], None]] = []  # told of each game written

    def _uses_models(self, spec: GameSpec) -> bool:
        return any(p in self._seated_players for p in spec.lineup)

    # ----------------------------------------------------------------- stopping

    def _stop(self, reason: str) -> None:
        """Stop the run: no further model call is sent and every game in flight is cancelled
        (except the calling one, which stops at its next model call)."""
        if self.stop_reason is None:
            self.stop_reason = reason
            if self.model_seats is not None:
                self.calls_at_stop = self.model_seats.ledger.calls
        if self.model_seats is not None:
            self.model_seats.stopping = True
        current = asyncio.current_task()
        for t in [*self._game_tasks, self._plain_task]:
            if t is not None and t is not current and not t.done():
                t.cancel()

    def stop(self, reason: str) -> None:
        """Stop the run from outside it (e.g. its MCP client left): :meth:`run` then raises
        :class:`LeagueStopped` with ``reason``; the run can be resumed."""
        self._stop(reason)

    def _on_signal(self, signum: int) -> None:
        if self.interrupted is None:
            self.interrupted = signum
        self._stop(f"interrupted by {signal.Signals(signum).name}")

    def _cap_reason(self, cost_usd: float, tokens: int, *, at_start: bool = False) -> str | None:
        reached = cap_reached(self.config.spending, cost_usd, tokens, at_start=at_start)
        if reached is None:
            return None
        done = f"{self.progress.done} of {count(self.progress.total, 'game')} finished"
        return f"{reached}; {done} (raise the cap and --resume to continue)"

    def _on_spend(self, cost_usd: float, tokens: int) -> None:
        calls = self.model_seats.ledger.calls if self.model_seats is not None else 0
        self.progress.spent(cost_usd, tokens, calls)
        if self.stop_reason is None and (reason := self._cap_reason(cost_usd, tokens)):
            self._stop(reason)

    def _watch(self, line: DecisionLine) -> None:
        """Stop the run when a model player's calls have all failed for too many decisions."""
        if line.player not in self._model_players or len(line.options) < 2:
            return
        if not failed_every_call(line):
            self._failed[line.player] = 0
            return
        n = self._failed[line.player] = self._failed.get(line.player, 0) + 1
        if n >= self.config.max_failed_decisions and self.stop_reason is None:
            self._drop_failed_tails = True
            p = self.config.player(line.player)
            label = p.model.label if p.model is not None else line.player
            last = (line.model or {}).get("attempts") or []
            cause = (
                f"{last[-1].get('error_kind')}: {last[-1].get('error_message')}"
                if last
                else line.error or line.fallback
            )
            self._stop(
                f"stopped: model player {line.player} ({label}) failed every call for {n} "
                f"decisions in a row (last: {cause}); fix the provider, then --resume to continue"
            )

    # ----------------------------------------------------------------- the run

    def _finish(self, out: GameOutput, file: GameFile | None = None, decided_live: int = 0) -> None:
        if file is None:
            self.store.write_game(out.start, out.decisions, out.end, out.record)
        else:
            self.store.end_game(file, out.end, out.record)
        self.unfinished.discard(out.start.game_id)
        self.progress.update(out.record, decided_live)
        for listener in self.game_listeners:
            listener(out)

    async def run(self) -> Progress:
        """Play every game left; raises :class:`LeagueStopped` (or :class:`LeagueInterrupted`)
        when the run stops early, after every task has ended."""
        if self.model_seats is not None:
            self.model_seats.on_spend = self._on_spend
            ledger = self.model_seats.ledger
            self.progress.cost_usd, self.progress.tokens = ledger.cost_usd, ledger.tokens
            self.progress.calls = ledger.calls
            reason = self._cap_reason(ledger.cost_usd, ledger.tokens, at_start=True)
            if reason is not None and self.todo:
                await self.model_seats.aclose()
                raise LeagueStopped(reason)
        plain = [g for g in self.todo if not self._uses_models(g)]
        model = [g for g in self.todo if self._uses_models(g)]
        loop = asyncio.get_running_loop()
        handled = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                loop.add_signal_handler(sig, self._on_signal, sig)
                handled.append(sig)
        try:
            self._plain_task = asyncio.create_task(self._run_plain(plain))
            models = asyncio.create_task(self._run_models(model))
            results = await asyncio.gather(self._plain_task, models, return_exceptions=True)
        finally:
            for sig in handled:
                loop.remove_signal_handler(sig)
            if self.model_seats is not None:
                await self.model_seats.aclose()
        for r in results:
            if isinstance(r, Exception):
                raise r
        if self._drop_failed_tails:
            self._drop_failed_decisions()
        if self.interrupted is not None:
            raise LeagueInterrupted(self._interrupt_message(), self.interrupted)
        if self.stop_reason:
            raise LeagueStopped(self.stop_reason)
        return self.progress

    def _drop_failed_decisions(self) -> None:
        """In each unfinished game, forget the model decisions at its end whose calls all failed
        (and what followed them), so that ``--resume`` asks them again once the provider is
        back instead of keeping their fallbacks.  Their calls stay in the spend ledger."""
        for game_id in sorted(self.unfinished):
            partial = self.store.partial_game(game_id)
            if partial is None:
                continue
            start, decisions = partial
            cut = len(decisions)
            for i in range(len(decisions) - 1, -1, -1):
                d = decisions[i]
                if d.player in self._model_players and len(d.options) > 1:
                    if not failed_every_call(d):
                        break
                    cut = i
            if cut < len(decisions):
                self.store.open_game(start, decisions[:cut]).close()

    def _fatal_message(self, error: FatalSeatError) -> str:
        """The stop line of a fatal model error, naming the player and its model."""
        player = self.model_seats.fatal_player if self.model_seats is not None else None
        if player is None or player not in self._model_players:
            return f"stopped: {error}"
        p = self.config.player(player)
        model = f"{p.model.provider}/{p.model.model}" if p.model is not None else "?"
        return f"stopped: player {player} ({model}): {error}"

    def _interrupt_message(self) -> str:
        assert self.interrupted is not None
        p = self.progress
        left = len(self.unfinished)
        keep = "keeps" if left == 1 else "keep"
        kept = (
            f"; {count(left, 'unfinished game')} {keep} every decision made so far" if left else ""
        )
        return (
            f"interrupted by {signal.Signals(self.interrupted).name}: {p.done} of "
            f"{count(p.total, 'game')} finished{kept}"
        )

    def finish_game(self, parts: GameParts) -> None:
        """Write a game played elsewhere from its records as JSON text, as they came."""
        self.finish_games([parts])

    def finish_games(self, batch: list[GameParts]) -> None:
        for record in self.store.write_games_parts(batch):
            self.unfinished.discard(record.game_id)
            self.progress.update(record)

    async def _run_plain(self, specs: list[GameSpec]) -> None:
        if not specs:
            return
        if self.executor is not None:  # e.g. Ray tasks; the games come back here to be written
            await self.executor.play(self, specs)
            return
        config_json = self.config.model_dump_json()
        run = self.config.name
        if self.workers <= 1:
            for spec in specs:
                if self.stop_reason:
                    return
                self._finish(await play_scheduled(spec, self.config, run))
            return
        loop = asyncio.get_running_loop()
        pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_worker_init)
        pending = set()
        try:
            pending = {
                loop.run_in_executor(pool, _play_in_process, spec, config_json, run)
                for spec in specs
            }
            while pending:  # the games ended meanwhile are written together
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                self.finish_games([f.result() for f in done])
                if self.stop_reason:
                    break
        finally:
            for f in pending:
                f.cancel()
            pool.shutdown(wait=True, cancel_futures=True)

    async def _run_models(self, specs: list[GameSpec]) -> None:
        if not specs:
            return
        if self.model_seats is None:
            raise LeagueStopped("the config has model players but no model seat factory")
        sem = asyncio.Semaphore(self.config.max_concurrent_games)
        try:
            self.model_seats.warm()
        except FatalSeatError as e:  # e.g. a missing API key
            self._stop(self._fatal_message(e))
            return
        watch_loop()  # model seats' deadlines keep a margin for the loop's measured lag

        async def one(spec: GameSpec) -> None:
            async with sem:
                if self.stop_reason:
                    return
                current_game.set(spec.game_id)
                try:
                    await self._play_model_game(spec)
                except FatalSeatError as e:
                    self._stop(self._fatal_message(e))
                except ResumeMismatch as e:
                    self._stop(
                        f"{e}; delete {self.store.games_dir / spec.game_id}.jsonl to play it "
                        "again from the start"
                    )
                except Exception:
                    self._stop(f"stopped: game {spec.game_id} failed")
                    raise

        self._game_tasks = [asyncio.create_task(one(s), name=f"game {s.game_id}") for s in specs]
        results = await asyncio.gather(*self._game_tasks, return_exceptions=True)
        for r in results:
            if isinstance(r, Exception):
                raise r

    async def _play_model_game(self, spec: GameSpec) -> None:
        """Play (or continue) one game with model seats, streaming its decisions to its file."""
        start = game_start(spec, self.config, self.config.name)
        prior: list[DecisionLine] = []
        before = 0.0  # seconds the game was played in earlier sessions
        if self.resume:
            partial = self.store.partial_game(spec.game_id)
            if partial is not None and partial[0].model_copy(update={"elapsed_s": None}) == start:
                prior = partial[1]
                before = played_before(prior, partial[0])
        t0 = time.monotonic()
        file = self.store.open_game(_played(start, before), prior)
        self.unfinished.add(spec.game_id)
        written = list(prior)
        finished = False

        def on_line(line: DecisionLine) -> None:
            file.add(line)
            written.append(line)
            self.progress.decided(line)
            self._watch(line)

        try:
            assert self.model_seats is not None
            if hasattr(self.executor, "play_model_game"):  # e.g. a Ray task; written here
                out = await self.executor.play_model_game(self, spec, prior, on_line)
            else:
                out = await play_scheduled(
                    spec,
                    self.config,
                    self.config.name,
                    self.model_seats.seat,
                    prior=prior,
                    on_line=on_line,
                    digest=True,
                    elapsed_s=before,
                )
            self._finish(out, file, len(written))
            finished = True
        finally:
            file.close()
            if not finished:  # stopped: keep the time played so far for the resumed game
                played = _played(start, before + time.monotonic() - t0)
                self.store.open_game(played, written).close()


def _played(start: GameStart, seconds: float) -> GameStart:
    """``start`` recording that the game has been played ``seconds`` so far (none: unchanged)."""
    return start.model_copy(update={"elapsed_s": round(seconds, 3)}) if seconds > 0 else start
