"""Games with model seats as Ray tasks: the worker side and the cluster-wide limits actor.

A model game runs in one streaming Ray task.  Everything the run folder needs is sent back to
the driver as it happens — each decision line, each model call's spend line, each new system
prompt, and at the end the game's records — and the driver writes it (one writer).  The task
builds the players' providers itself, so API keys are read from the worker's environment and are
never part of a task's arguments.

Provider concurrency and rate limits are enforced for the whole cluster by one
:class:`Limits` actor (the same :class:`~harness.play.provider_limits.RateLimiter` the local run uses,
held by the actor); once the driver stops the run, the actor answers every further request with
"stopping" and no call is sent.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from harness.league.game_play import play_scheduled
from harness.league.league_config import LeagueConfig, parse_config
from harness.play.game_spec import GameSpec
from harness.play.ledger import SpendLine, current_game
from harness.play.model_seats import ModelSeats
from harness.play.players import ProviderLimits
from harness.play.provider_limits import RateLimiter
from harness.play.recorder import GameOutput
from harness.records import DecisionLine
from harness.records.probes import ProbeRecord

# ("line", json) | ("spend", json) | ("prompt", sha, text) | ("end", records, node id)
Item = tuple[Any, ...]


class Limits:
    """Ray actor body: the run's per-provider limits, shared by every worker of the cluster.

    A call takes a lease (``acquire``) and gives it back (``release``); a lease abandoned by a
    cancelled caller is given back as soon as it is granted, so no slot is lost."""

    def __init__(self, limits: dict[str, tuple[int, float | None]]) -> None:
        self.limits = limits
        self.limiters: dict[str, RateLimiter] = {}
        self.stopping = False
        self.granted: set[str] = set()
        self.abandoned: set[str] = set()

    def _limiter(self, provider: str) -> RateLimiter:
        if provider not in self.limiters:
            default = ProviderLimits()
            concurrency, rpm = self.limits.get(
                provider, (default.concurrency, default.requests_per_minute)
            )
            self.limiters[provider] = RateLimiter(concurrency, rpm)
        return self.limiters[provider]

    async def acquire(self, provider: str, lease: str) -> bool:
        """Wait for a slot; returns whether the run is stopping (then no call may be sent)."""
        await self._limiter(provider).__aenter__()
        if lease in self.abandoned:
            self.abandoned.discard(lease)
            await self._limiter(provider).__aexit__()
            return True
        self.granted.add(lease)
        return self.stopping

    async def release(self, provider: str, lease: str) -> None:
        if lease in self.granted:
            self.granted.discard(lease)
            await self._limiter(provider).__aexit__()
        else:
            self.abandoned.add(lease)

    def stop(self) -> None:
        self.stopping = True

    def is_stopping(self) -> bool:
        return self.stopping


class RemoteLimiter:
    """The :class:`RateLimiter` interface over the :class:`Limits` actor, for one provider."""

    def __init__(self, actor: Any, provider: str) -> None:
        self.actor = actor
        self.provider = provider
        self.stopping = False
        self._leases: list[str] = []
        self._n = 0

    async def __aenter__(self) -> None:
        self._n += 1
        lease = f"{id(self)}:{self._n}"
        self._leases.append(lease)
        try:
            stopping = await self.actor.acquire.remote(self.provider, lease)
        except BaseException:
            self.actor.release.remote(self.provider, lease)  # given back once granted
            self._leases.remove(lease)
            raise
        self.stopping = self.stopping or stopping

    async def __aexit__(self, *exc: object) -> None:
        lease = self._leases.pop(0)
        self.actor.release.remote(self.provider, lease)


class _Collect:
    """Stands in for the run folder on a worker: what would be written is sent instead."""

    def __init__(self, send: Callable[[Item], None]) -> None:
        self.send = send
        self.calls = 0
        self.cost_usd = 0.0
        self.tokens = 0

    def add(self, line: SpendLine) -> None:
        self.send(("spend", line.model_dump_json()))

    def add_system_prompt(self, sha: str, text: str) -> None:
        self.send(("prompt", sha, text))

    def __call__(self, record: ProbeRecord) -> None:
        """A belief probe's record (harness.records.probes), written by the driver."""
        self.send(("probe", record.model_dump_json()))

    def close(self) -> None:
        pass


class WorkerSeats(ModelSeats):
    """The run's :class:`ModelSeats` on a Ray worker: the cluster's limits, nothing written here
    (spend lines and system prompts go to the driver)."""

    def __init__(self, config: LeagueConfig, limits: Any, send: Callable[[Item], None]) -> None:
        super().__init__(config, Path(tempfile.gettempdir()) / "bangarena-worker-unused")
        collect = _Collect(send)
        self.ledger = collect  # type: ignore[assignment]
        self.store = collect  # type: ignore[assignment]
        self.probes = collect  # type: ignore[assignment]
        self.remote_limiters: dict[str, RemoteLimiter] = {
            spec.provider: RemoteLimiter(limits, spec.provider) for spec in self._specs.values()
        }
        self._limiters = self.remote_limiters  # type: ignore[assignment]  # same interface

    @property
    def stopping(self) -> bool:
        """Whether the driver stopped the run (as the limits actor last said)."""
        limiters = self.__dict__.get("remote_limiters", {})
        return any(limiter.stopping for limiter in limiters.values())

    @stopping.setter
    def stopping(self, value: bool) -> None:
        """Set by the driver only (through the limits actor)."""


def limits_of(config: LeagueConfig) -> dict[str, tuple[int, float | None]]:
    """Provider name -> (concurrency, requests per minute), as the local run sets them."""
    out: dict[str, tuple[int, float | None]] = {}
    for p in config.players:
        if p.model is not None:
            lim = config.providers.get(p.model.provider, ProviderLimits())
            out[p.model.provider] = (lim.concurrency, lim.requests_per_minute)
    return out


def model_game_task(
    spec: GameSpec, config_json: str, run: str, prior_json: list[str], limits: Any
) -> Iterator[Item]:
    """Ray streaming task body: play (or continue) one model game, yielding what to write."""
    config = parse_config(json.loads(config_json))
    prior = [DecisionLine.model_validate_json(x) for x in prior_json]
    loop = asyncio.new_event_loop()
    items: asyncio.Queue[Item] = asyncio.Queue()
    seats = WorkerSeats(config, limits, items.put_nowait)

    async def play() -> GameOutput:
        current_game.set(spec.game_id)
        try:
            return await play_scheduled(
                spec,
                config,
                run,
                seats.seat,
                prior=prior,
                on_line=lambda line: items.put_nowait(("line", line.model_dump_json())),
                digest=True,
            )
        finally:
            await seats.aclose()

    game = loop.create_task(play())
    try:
        while True:
            getter = loop.create_task(items.get())
            loop.run_until_complete(
                asyncio.wait({getter, game}, return_when=asyncio.FIRST_COMPLETED)
            )
            if getter.done():
                yield getter.result()
                continue
            getter.cancel()
            while not items.empty():
                yield items.get_nowait()
            import ray

            yield ("end", game.result().parts(), ray.get_runtime_context().get_node_id())
            return
    finally:
        if not game.done():
            game.cancel()
            loop.run_until_complete(asyncio.gather(game, return_exceptions=True))
        loop.close()
