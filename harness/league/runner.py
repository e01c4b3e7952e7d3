"""``bangarena league run``: play a config's schedule concurrently, resumably, within limits.

* Games without model seats run in worker processes (all cores); games with model seats run as
  asyncio tasks so model calls overlap, at most ``max_concurrent_games`` at once, with provider
  concurrency and rate limits shared by every game.
* Records are written per finished game (see :mod:`harness.records.store`); ``resume`` skips
  finished games, so a killed run resumed ends with exactly the games of an uninterrupted run.
* Spending caps stop the run cleanly; an authentication or unknown-model error stops it at once.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from harness.agents.seat import FatalSeatError
from harness.agents.table import GameDidNotEnd
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, RunStore

from .config import LeagueConfig, parse_config
from .game_play import GameOutput, play_scheduled
from .schedule import GameSpec, build_schedule

CONFIG_FILE = "config.json"
# Settings that change what games are played or how seats decide; a resumed run must keep them.
# Operational settings (spending caps, concurrency, workers, output) may change between sessions.
RESULT_FIELDS = (
    "name", "players", "tables", "games_per_table", "base_seed", "paired", "shuffle_names",
    "locale", "decision_seconds", "fallback", "retry_budget",
)  # fmt: skip


class LeagueStopped(Exception):
    """The run stopped before its end (spending cap, fatal model error); one-line message."""


@dataclass
class Progress:
    total: int
    done: int = 0
    skipped: int = 0
    fallbacks: int = 0
    cost_usd: float = 0.0
    tokens: int = 0
    listeners: list[Callable[[Progress], None]] = field(default_factory=list)

    def update(self, record: GameRecord) -> None:
        self.done += 1
        self.fallbacks += record.fallbacks
        for cb in self.listeners:
            cb(self)


def run_dir_for(config: LeagueConfig, base: Path | None = None) -> Path:
    root = Path(config.output) if base is None else base
    return root / config.name


def prepare_run(config: LeagueConfig, run_dir: Path, resume: bool) -> RunStore:
    store = RunStore(run_dir)
    cfg_path = run_dir / CONFIG_FILE
    resolved = config.model_dump(mode="json")
    if cfg_path.exists():
        if not resume:
            raise LeagueStopped(
                f"run folder {run_dir} already exists: use --resume to continue it, or change "
                "the config's name"
            )
        stored = json.loads(cfg_path.read_text(encoding="utf-8"))
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
    store.prepare()
    return store


@lru_cache(maxsize=2)
def _worker_config(config_json: str) -> LeagueConfig:
    """The run's config, parsed once per worker process."""
    return parse_config(json.loads(config_json))


def _play_in_process(spec: GameSpec, config_json: str, run: str) -> tuple[str, str, str, str]:
    """Worker-process entry: play a game without model seats; return its records as JSON."""
    config = _worker_config(config_json)
    out = asyncio.run(play_scheduled(spec, config, run))
    return (
        out.start.model_dump_json(),
        json.dumps([d.model_dump(mode="json") for d in out.decisions]),
        out.end.model_dump_json(),
        out.record.model_dump_json(),
    )


def _from_json(parts: tuple[str, str, str, str]) -> GameOutput:
    start_j, decisions_j, end_j, record_j = parts
    return GameOutput(
        GameStart.model_validate_json(start_j),
        [DecisionLine.model_validate(d) for d in json.loads(decisions_j)],
        GameEnd.model_validate_json(end_j),
        GameRecord.model_validate_json(record_j),
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
    ) -> None:
        self.config = config
        self.run_dir = run_dir
        self.resume = resume
        self.store = prepare_run(config, run_dir, resume)
        self.schedule = build_schedule(config)
        finished = self.store.finished_ids()
        self.todo = [g for g in self.schedule if g.game_id not in finished]
        self.progress = Progress(total=len(self.schedule), skipped=len(finished))
        self.progress.done = len(finished)
        self.model_seats = model_seats  # harness.league.model_seats.ModelSeats or None
        self.workers = workers or config.workers or os.cpu_count() or 1
        self.stop_reason: str | None = None

    def _uses_models(self, spec: GameSpec) -> bool:
        return any(self.config.player(p).kind == "model" for p in spec.lineup)

    def _finish(self, out: GameOutput) -> None:
        self.store.write_game(out.start, out.decisions, out.end, out.record)
        self.progress.cost_usd += out.record.cost_usd
        self.progress.tokens += out.record.input_tokens + out.record.output_tokens
        self.progress.update(out.record)

    async def run(self) -> Progress:
        plain = [g for g in self.todo if not self._uses_models(g)]
        model = [g for g in self.todo if self._uses_models(g)]
        try:
            await asyncio.gather(self._run_plain(plain), self._run_models(model))
        finally:
            if self.model_seats is not None:
                await self.model_seats.aclose()
        if self.stop_reason:
            raise LeagueStopped(self.stop_reason)
        return self.progress

    async def _run_plain(self, specs: list[GameSpec]) -> None:
        if not specs:
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
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            pending = {
                loop.run_in_executor(pool, _play_in_process, spec, config_json, run)
                for spec in specs
            }
            try:
                for fut in asyncio.as_completed(pending):
                    self._finish(_from_json(await fut))
                    if self.stop_reason:
                        break
            finally:
                for f in pending:
                    f.cancel()

    async def _run_models(self, specs: list[GameSpec]) -> None:
        if not specs:
            return
        if self.model_seats is None:
            raise LeagueStopped("the config has model players but no model seat factory")
        sem = asyncio.Semaphore(self.config.max_concurrent_games)
        tasks: list[asyncio.Task[None]] = []

        def stop_all() -> None:
            """Cancel every game in flight (they are re-played on --resume)."""
            for t in tasks:
                if t is not asyncio.current_task():
                    t.cancel()

        def on_spend(cost_usd: float, tokens: int) -> None:
            if self._check_caps(cost_usd, tokens):
                stop_all()
                current = asyncio.current_task()
                if current in tasks:
                    current.cancel()  # the game asking is stopped at its next await

        self.model_seats.on_spend = on_spend

        async def one(spec: GameSpec) -> None:
            async with sem:
                if self.stop_reason:
                    return
                try:
                    out = await play_scheduled(spec, self.config, self.config.name,
                                               self.model_seats.seat)  # fmt: skip
                except (FatalSeatError, GameDidNotEnd) as e:
                    if not self.stop_reason:
                        self.stop_reason = f"stopped: {e}"
                    stop_all()
                    return
                if self.stop_reason:
                    stop_all()
                    return
                self._finish(out)

        tasks.extend(asyncio.create_task(one(s)) for s in specs)
        await asyncio.gather(*tasks, return_exceptions=True)

    def _check_caps(self, cost_usd: float, tokens: int) -> bool:
        """Set the stop reason when a spending cap is exceeded; True if the run must stop."""
        if self.stop_reason:
            return True
        caps = self.config.spending
        if caps.max_usd is not None and cost_usd > caps.max_usd:
            self.stop_reason = (
                f"spending cap reached: ${cost_usd:.4f} spent of ${caps.max_usd:.4f}; "
                f"{self.progress.done} of {self.progress.total} games finished "
                "(raise the cap and --resume to continue)"
            )
        elif caps.max_tokens is not None and tokens > caps.max_tokens:
            self.stop_reason = (
                f"token cap reached: {tokens} tokens of {caps.max_tokens}; "
                f"{self.progress.done} of {self.progress.total} games finished "
                "(raise the cap and --resume to continue)"
            )
        return self.stop_reason is not None
