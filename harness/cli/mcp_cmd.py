"""``bangarena mcp`` — an MCP client plays a seat: a league run whose ``kind: mcp`` player is
served over the Model Context Protocol (stdio or streamable HTTP), in this process.

* ``bangarena mcp CONFIG [--player NAME]`` — the league of CONFIG; NAME is its ``kind: mcp`` player.
* ``bangarena mcp [--seats 4 --mode classic --games 1 --seed 1]`` — a table of the MCP seat and
  rule bots, no config needed (what a desktop MCP client is set up with).
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import socket
import sys
import time
from pathlib import Path
from typing import Any

from harness.league.league_config import LeagueConfig, load_config, parse_config
from harness.league.runner import LeagueInterrupted, run_dir_for
from harness.league.served_players import check_mcp_players
from harness.play.agent_players import check_agent_players
from harness.play.config_files import ConfigError
from harness.views.plural import count

from .args import free_port
from .cli_errors import CliError, address_error
from .league_cmd import start_runner

QUICK = {"seats": 4, "mode": "classic", "games": 1, "seed": 1, "decision_seconds": 120.0}
MODES = ("classic", "partners", "double_agent", "old_classic")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve a seat to an MCP client (stdio or streamable HTTP)",
        description="Serve one seat over the Model Context Protocol: the client reads its view "
        "and options (get_decision, wait_for_decision, get_game) and acts (choose) under the "
        "decision timer; the games are recorded in the run folder like a league run's. With "
        "CONFIG, the league of that file, whose player NAME has 'kind: mcp'; without it, one "
        "table of the MCP seat and rule bots (--seats, --mode, --games, --seed). The run starts "
        "at the client's first tool call.",
    )
    p.add_argument("config", nargs="?", help="league config (YAML) with a 'kind: mcp' player")
    p.add_argument(
        "--player",
        help="the config's kind: mcp player (default: its only one); without CONFIG, the "
        "seat's player name (default: mcp)",
    )
    p.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (the client starts this command) or streamable HTTP at http://HOST:PORT/mcp",
    )
    p.add_argument("--host", default="127.0.0.1", help="with --transport http: the interface")
    p.add_argument(
        "--port", type=free_port, default=8765, help="with --transport http: the port (0: any free)"
    )
    p.add_argument(
        "--linger",
        type=_seconds,
        default=30.0,
        help="with --transport http: seconds the server stays up after the run, for the client "
        "to read the end",
    )
    quick = p.add_argument_group("without CONFIG")
    quick.add_argument("--seats", type=int, help=f"seats at the table (default {QUICK['seats']})")
    quick.add_argument("--mode", choices=MODES, help=f"game mode (default {QUICK['mode']})")
    quick.add_argument("--games", type=int, help=f"games to play (default {QUICK['games']})")
    quick.add_argument("--seed", type=int, help=f"the first deal's seed (default {QUICK['seed']})")
    quick.add_argument(
        "--decision-seconds",
        type=float,
        help=f"the decision timer (default {QUICK['decision_seconds']:g})",
    )
    quick.add_argument("--name", help="the run's name (default: mcp-<UTC time>)")
    p.add_argument("--output", help="results folder (default: the config's 'output', or results)")
    p.add_argument("--resume", action="store_true", help="continue a stopped run")
    p.add_argument(
        "--no-preflight",
        action="store_true",
        help="skip the sample decision sent to every model player before the first game",
    )
    p.set_defaults(func=run)


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= v <= 86400:
        raise argparse.ArgumentTypeError("seconds must be 0..86400")
    return v


def quick_config(args: argparse.Namespace) -> LeagueConfig:
    """The league of one table: the MCP seat (``--player``, default ``mcp``) and rule bots."""
    seats = args.seats if args.seats is not None else QUICK["seats"]
    player = args.player or "mcp"
    bots = [{"name": f"bot{i}", "kind": "bot"} for i in range(1, int(seats))]
    data = {
        "name": args.name or time.strftime("mcp-%Y%m%d-%H%M%S", time.gmtime()),
        "players": [{"name": player, "kind": "mcp"}, *bots],
        "tables": [{"seats": [seats], "modes": [args.mode or QUICK["mode"]]}],
        "games_per_table": args.games if args.games is not None else QUICK["games"],
        "base_seed": args.seed if args.seed is not None else QUICK["seed"],
        "decision_seconds": (
            args.decision_seconds
            if args.decision_seconds is not None
            else QUICK["decision_seconds"]
        ),
    }
    return parse_config(data, "bangarena mcp")


def _config(args: argparse.Namespace) -> tuple[LeagueConfig, str]:
    if args.config is None:
        config = quick_config(args)
        return config, config.players[0].name
    given = [f"--{k.replace('_', '-')}" for k in (*QUICK, "name") if getattr(args, k) is not None]
    if given:
        raise CliError(f"{given[0]} is for a table without CONFIG; set it in {args.config}")
    config = load_config(args.config)
    served = [p.name for p in config.players if p.kind == "mcp"]
    if args.player is None:
        if len(served) != 1:
            raise CliError(
                f"{args.config} has {count(len(served), 'player')} of kind mcp: "
                + ("add one" if not served else "choose one with --player")
            )
        return config, served[0]
    if args.player not in {p.name for p in config.players}:
        raise CliError(f"{args.config} has no player {args.player!r}")
    return config, args.player


def run(args: argparse.Namespace) -> int:
    from harness.extras import MissingExtra, require

    try:
        require("mcp", "mcp")
    except MissingExtra as e:
        raise CliError(str(e)) from None
    from harness.integrations.mcp_serve import serve

    try:
        config, player = _config(args)
        check_agent_players(config.players)
        check_mcp_players(config, served=player)
    except ConfigError as e:
        raise CliError(str(e)) from None
    # one seat for one client: its games one after the other, in this process
    config = config.model_copy(update={"max_concurrent_games": 1, "executor": "local"})
    sock = None
    if args.transport == "http":
        sock = _listen(args.host, args.port)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            _note(f"listening on {args.host}: anyone who can reach it can play the seat")
    run_dir = run_dir_for(config, Path(args.output) if args.output else None)
    try:
        runner = start_runner(
            config, run_dir, resume=args.resume, preflight_network=not args.no_preflight
        )
    except CliError:
        if sock is not None:
            sock.close()
        raise
    p = runner.progress
    t0 = time.monotonic()

    def announce(where: str) -> None:
        _note(
            f"serving player {player} over {where}; league {config.name}: "
            f"{count(p.total, 'game')} ({p.skipped} already finished) → {run_dir}"
        )

    outcome = asyncio.run(serve(runner, player, args.transport, sock=sock, linger_s=args.linger,
                                announce=announce))  # fmt: skip
    if not outcome.started:
        _note("the client left before its first tool call: no game was played")
        return 0
    if isinstance(outcome.error, LeagueInterrupted):
        print(
            f"bangarena: {outcome.error}; resume with: {_resume(args, config.name)}",
            file=sys.stderr,
        )
        return outcome.error.exit_code
    if outcome.error is not None:
        raise CliError(f"{outcome.error}; resume with: {_resume(args, config.name)}")
    _note(
        f"finished {p.done}/{count(p.total, 'game')} in {time.monotonic() - t0:.1f} s · "
        f"fallbacks {p.fallbacks} · results: {run_dir}"
    )
    from harness.runs import check_run

    flags = check_run(run_dir)  # as after a league run: broken measurements exit with 3
    for flag in flags.flags:
        print(f"flagged: {flag.message}", file=sys.stderr)
    return flags.exit_code


def _listen(host: str, port: int) -> socket.socket:
    from harness.integrations.mcp_serve import bind

    try:
        return bind(host, port)
    except OSError as e:
        raise address_error(host, port, e) from None


def _note(message: str) -> None:
    print(f"bangarena mcp: {message}", file=sys.stderr, flush=True)


def _resume(args: argparse.Namespace, name: str | None = None) -> str:
    argv = sys.argv[1:] if sys.argv[1:2] == ["mcp"] else ["mcp"]
    cmd = ["bangarena", *argv]
    if args.config is None and args.name is None and name is not None:
        cmd += ["--name", name]
    if not args.resume:
        cmd.append("--resume")
    return " ".join(shlex.quote(c) for c in cmd)
