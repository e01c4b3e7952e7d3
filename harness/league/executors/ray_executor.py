"""Games as Ray tasks on a local or remote Ray cluster; only the driver writes the run folder.

Each game without model seats is one Ray task that plays it from its schedule entry and returns
its records; the driver writes them when the task ends, exactly as the local executor does with
its process pool.  So ``--resume``, safety against SIGKILL and the set of games are those of a
local run: a game is finished only once its line is in ``games.jsonl``, a task lost with its
worker or node is retried by Ray (``max_retries``) and written once, and a killed driver leaves
nothing half-written for its games.

Task arguments are the schedule entry, the run's config (which names API-key *variables*, never
keys) and the run name; keys reach Ray workers only through the environment of the nodes.

Ray is an optional extra (``pip install -e '.[ray]'``), imported only when this executor runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import TYPE_CHECKING, Any

from harness.integrations.extras import require

if TYPE_CHECKING:
    from harness.league.runner import LeagueRunner
    from harness.league.schedule import GameSpec


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
        self._ray: Any = None
        self._started = False  # whether this executor started Ray (and so shuts it down)

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
