"""A league run whose ``kind: inspect`` player is played by the Inspect task's solver.

``inspect eval harness/integrations/inspect_task.py --solver S -T config=league.yaml
-T player=NAME`` runs the league of the config in Inspect's own process and event loop: every
other player plays as in ``bangarena league run`` (models, rule bots, Python and remote agents),
an MCP player is served over streamable HTTP on ``127.0.0.1:mcp_port`` (as ``bangarena mcp``
does), and each game that seats NAME is one sample, whose solver plays NAME's seat through the
``choose`` tool (:mod:`harness.integrations.inspect_seat`).

* The run folder (``-T run_dir=``, else the config's output folder and name) is a league run's:
  ``league report``, ``report`` and ``replay`` read it.
* NAME's games are played one at a time (one solver per game), as an MCP player's are; a sample
  takes the next game that starts, so sample ids and game ids need not match (a score names its
  game).  Other games are played between them.
* The run starts with the first sample (and, with an MCP player, at its client's first tool call).
* Model players get no preflight here (run ``bangarena league run`` first to check them).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from harness.agents.mcp_seat import McpChannel
from harness.engine import Game
from harness.league.league_config import load_config
from harness.league.model_calls import ModelCounts
from harness.league.runner import LeagueRunner, run_dir_for
from harness.league.schedule import build_schedule
from harness.league.served_players import check_mcp_players
from harness.play.agent_players import check_agent_players
from harness.play.game_spec import GameSpec
from harness.play.recorder import GameOutput

from .inspect_counts import counts_json
from .inspect_seat import POLL_S, SolverSeat
from .seat_channel import attach, game_result

__all__ = ["LeagueHost"]

MCP_HOST = "127.0.0.1"


class LeagueHost:
    """The league run of one Inspect task (see the module docstring)."""

    def __init__(
        self, config_path: str, player: str, run_dir: str | None, mcp_port: int | None
    ) -> None:
        config = load_config(config_path)
        served = [p.name for p in config.players if p.kind == "mcp"]
        if len(served) > 1:
            raise ValueError(f"{config_path} has {len(served)} MCP players: one at most")
        if player not in {p.name for p in config.players}:
            raise ValueError(f"{config_path} has no player {player!r}")
        check_agent_players(config.players)
        check_mcp_players(config, served=served[0] if served else None, solver=player)
        if served and mcp_port is None:
            raise ValueError(f"player {served[0]} is an MCP client's seat: give -T mcp_port=PORT")
        # one seat for one solver: the games one after the other, in this process
        self.config = config.model_copy(update={"max_concurrent_games": 1, "executor": "local"})
        self.player = player
        self.mcp_player = served[0] if served else None
        self.mcp_port = mcp_port
        self.run_dir = Path(run_dir) if run_dir else run_dir_for(self.config)
        if (self.run_dir / "config.json").exists():
            raise ValueError(f"run folder {self.run_dir} already exists: give a new run_dir")
        self.games: list[GameSpec] = [g for g in build_schedule(config) if player in g.lineup]
        self.specs = {g.game_id: g for g in self.games}
        self.channel: McpChannel | None = None
        self.task: asyncio.Task[Any] | None = None
        self._lock = asyncio.Lock()
        self._claimed: set[str] = set()
        self._done = 0  # samples finished
        self._ended: dict[str, asyncio.Future[dict[str, Any]]] = {}

    # ---------------------------------------------------------------- the run

    async def _start(self) -> McpChannel:
        async with self._lock:
            if self.channel is not None:
                return self.channel
            from harness.play.model_seats import ModelSeats

            runner = LeagueRunner(
                self.config,
                self.run_dir,
                resume=False,
                model_seats=ModelSeats(self.config, self.run_dir),
            )
            channel = attach(runner, self.player)
            runner.game_listeners.append(self._on_game)
            run: Coroutine[Any, Any, Any]
            if self.mcp_player is not None:
                from .mcp_serve import bind, serve

                sock = bind(MCP_HOST, self.mcp_port or 0)
                run = serve(runner, self.mcp_player, "http", sock=sock, linger_s=1.0)
            else:
                run = runner.run()
            self.task = asyncio.create_task(run, name="bangarena league")
            self.task.add_done_callback(lambda _: channel.finish({"run_dir": str(self.run_dir)}))
            self.channel = channel
            return channel

    async def aclose(self) -> None:
        """Wait for the run's end (the solvers are done: the rest falls back)."""
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def _future(self, game_id: str) -> asyncio.Future[dict[str, Any]]:
        if game_id not in self._ended:
            self._ended[game_id] = asyncio.get_running_loop().create_future()
        return self._ended[game_id]

    def _on_game(self, out: GameOutput) -> None:
        rec = out.record
        mine = [o for o in rec.seat_outcomes if o.player == self.player]
        if not mine:
            return
        o = mine[0]
        p = self.config.player(self.player)
        counts = ModelCounts(self.player, p.label, None)
        for line in out.decisions:
            if line.seat == o.seat:
                counts.add(line)
        counts.games_read = 1
        result = {
            "game_id": rec.game_id,
            "win": o.won,
            "void": rec.void,
            "winning_side": rec.winning_side,
            "decisions": o.decisions,
            "model_decisions": counts.decisions,
            "single_option": counts.single_option,
            "fallbacks": sum(o.fallbacks.values()),
            "fallback_reasons": dict(o.fallbacks),
            "model_calls": counts.calls,
            "rounds": rec.rounds,
            "counts": counts_json(counts),
            "outcome": game_result(out, self.player),
        }
        future = self._future(rec.game_id)
        if not future.done():
            future.set_result(result)

    # ---------------------------------------------------------------- the samples

    async def claim(self, meta: dict[str, Any]) -> SolverSeat:
        """The seat of the next game of the player that no sample plays yet; ``meta`` (the
        sample's metadata) gets the game's id, seat, role and deal."""
        channel = await self._start()
        while True:  # bounded: the run ends
            g = channel.game
            if g is not None and g.game_id not in self._claimed:
                break
            assert self.task is not None
            if self.task.done():
                self.task.result()  # the run's error, if it failed
                raise RuntimeError(f"the league run ended before a game of {self.player} began")
            await channel.changed(POLL_S)
        self._claimed.add(g.game_id)
        spec = self.specs[g.game_id]
        role = Game.new(spec.seats, spec.mode, spec.seed).seats[g.seat].role
        meta.update(game_id=g.game_id, seat=g.seat, role=role, seed=spec.seed, deal=spec.deal,
                    seats=spec.seats, mode=spec.mode)  # fmt: skip
        return SolverSeat(channel, g.game_id, self._future(g.game_id), on_finish=self._finished)

    async def _finished(self) -> None:
        """A sample is over; after the last one, the run plays its remaining games."""
        self._done += 1
        if self._done >= len(self.games):
            await self.aclose()
