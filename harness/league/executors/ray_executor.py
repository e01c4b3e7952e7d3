"""Games as Ray tasks on a local or remote Ray cluster; only the driver writes the run folder.

Each game without model seats is one Ray task that plays it from its schedule entry and returns
its records; the driver writes them when the task ends, exactly as the local executor does with
its process pool.  So ``--resume``, safety against SIGKILL and the set of games are those of a
local run: a game is finished only once its line is in ``games.jsonl``, a task lost with its
worker or node is retried by Ray (``max_retries``) and written once, and a killed driver leaves
nothing half-written for its games.

Each game with model seats is one streaming Ray task (:mod:`.ray_models`): its decision lines,
spend lines and system prompts come back as they happen and the driver writes them where a local
run would (the game's file, the spend ledger, which the spending caps count); provider limits
hold for the whole cluster through one actor.  A model game whose worker or node is lost is
started again from the decisions it had sent (as ``--resume`` does), so none is asked twice;
the calls that were in flight then are not in the ledger.

Task arguments are the schedule entry, the run's config (which names API-key *variables*, never
keys), the run name and a game's recorded decisions; keys reach Ray workers only through the
environment of the nodes.

Ray is an optional extra (``pip install -e '.[ray]'``), imported only when this executor runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import TYPE_CHECKING, Any

from harness.extras import require

if TYPE_CHECKING:
    from collections.abc import Callable

    from harness.league.runner import LeagueRunner
    from harness.play.game_spec import GameSpec
    from harness.play.recorder import GameOutput
    from harness.records import DecisionLine  # noqa: F401 - also imported where it is used


def _play_task(spec: GameSpec, config_json: str, run: str) -> tuple[tuple[str, str, str, str], str]:
    """Ray task body: play one game; return its records (as JSON) and the node it ran on."""
    import ray

    from harness.league.runner import _play_in_process

    return _play_in_process(spec, config_json, run), ray.get_runtime_context().get_node_id()


def task_args(spec: GameSpec, config_json: str, run: str) -> tuple[Any, ...]:
    """Everything a game's task is sent (the test checks that no API key is among it)."""
    return (spec, config_json, run)


class RayExecutor:
    """Runs the games without model seats of a :class:`~harness.league.runner.LeagueRunner`."""

    name = "ray"

    def __init__(self, address: str | None = None, *, max_retries: int = 3) -> None:
        self.address = address
        self.max_retries = max_retries
        self.nodes: Counter[str] = Counter()  # games finished per Ray node id
        self.restarts = 0  # model games started again after their worker or node was lost
        self._ray: Any = None
        self._started = False  # whether this executor started Ray (and so shuts it down)
        self._limits: Any = None  # the run's limits actor (harness.league.executors.ray_models)
        self._told_stop = False

    def start(self) -> None:
        """Connect to the cluster at ``address`` (``None``: a Ray instance on this machine)."""
        ray = self._ray = require("ray", "ray")
        if ray.is_initialized():
            return
        local: dict[str, Any] = {} if self.address else {"_node_ip_address": "127.0.0.1"}
        ray.init(
            address=self.address,
            include_dashboard=False,
            logging_level=logging.WARNING,
            log_to_driver=False,
            configure_logging=False,
            **local,  # a Ray instance of our own listens on the loopback address only
        )
        self._started = True

    def close(self) -> None:
        if self._limits is not None:
            self._ray.kill(self._limits)
            self._limits = None
        if self._started and self._ray is not None:
            self._ray.shutdown()
            self._started = False

    async def play(self, runner: LeagueRunner, specs: list[GameSpec]) -> None:
        """Play ``specs`` as Ray tasks; each ended game is handed to ``runner.finish_game``."""
        if not specs:
            return
        self.start()
        ray = self._ray
        config_json = runner.config.model_dump_json()
        run = runner.config.name
        remote = ray.remote(num_cpus=1, max_retries=self.max_retries)(_play_task)
        refs = [remote.remote(*task_args(spec, config_json, run)) for spec in specs]
        futures = {asyncio.wrap_future(ref.future()): ref for ref in refs}
        pending = set(futures)
        try:
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for fut in done:
                    parts, node = fut.result()
                    self.nodes[node] += 1
                    runner.finish_game(parts)
                if runner.stop_reason:
                    break
        finally:
            for fut in pending:
                ray.cancel(futures[fut], force=True)
                fut.cancel()

    # ---------------------------------------------------------------- model games

    def _limits_actor(self, runner: LeagueRunner) -> Any:
        if self._limits is None:
            from .ray_models import Limits, limits_of

            actor = self._ray.remote(Limits).options(max_concurrency=1000, max_restarts=3)
            self._limits = actor.remote(limits_of(runner.config))
        return self._limits

    def _after_item(self, runner: LeagueRunner) -> None:
        if runner.stop_reason and not self._told_stop:  # no worker sends another call
            self._told_stop = True
            self._limits.stop.remote()

    async def play_model_game(
        self,
        runner: LeagueRunner,
        spec: GameSpec,
        prior: list[DecisionLine],
        on_line: Callable[[DecisionLine], None],
    ) -> GameOutput:
        """Play (or continue) one model game as a streaming Ray task; what it sends is written
        here through ``on_line``, the runner's spend ledger and its store."""
        from harness.play.ledger import SpendLine
        from harness.play.recorder import GameOutput
        from harness.records import DecisionLine
        from harness.records.probes import ProbeRecord

        from .ray_models import model_game_task

        self.start()
        ray = self._ray
        limits = self._limits_actor(runner)
        remote = ray.remote(num_cpus=0, max_retries=0)(model_game_task)
        config_json = runner.config.model_dump_json()
        sent: list[DecisionLine] = []
        seats = runner.model_seats
        while True:
            earlier = [d.model_dump_json() for d in (*prior, *sent)]
            gen = remote.options(num_returns="streaming").remote(
                spec, config_json, runner.config.name, earlier, limits
            )
            try:
                async for ref in gen:
                    item = await ref
                    kind = item[0]
                    if kind == "line":
                        line = DecisionLine.model_validate_json(item[1])
                        sent.append(line)
                        on_line(line)
                    elif kind == "spend":
                        seats.add_spend(SpendLine.model_validate_json(item[1]))
                    elif kind == "prompt":
                        runner.store.add_system_prompt(item[1], item[2])
                    elif kind == "probe":
                        seats.probes(ProbeRecord.model_validate_json(item[1]))
                    else:
                        self.nodes[item[2]] += 1
                        return GameOutput.from_parts(item[1])
                    self._after_item(runner)
            except asyncio.CancelledError:
                ray.cancel(gen, force=True)
                self._after_item(runner)
                raise
            except ray.exceptions.RayTaskError as e:  # the game itself raised: as a local game
                cause = e.cause if e.cause is not None else e
                if isinstance(cause, asyncio.CancelledError | ray.exceptions.TaskCancelledError):
                    raise asyncio.CancelledError from None  # refused a call: the run is stopping
                raise cause from None
            except ray.exceptions.RayError:  # its worker or node was lost: go on from `sent`
                if self.restarts >= self.max_retries * max(1, len(runner.schedule)):
                    raise
                self.restarts += 1
                continue
            raise RuntimeError(f"game {spec.game_id}: its task ended without its records")
