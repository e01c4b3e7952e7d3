"""``bangarena league run CONFIG [--resume]`` and ``bangarena league report RUN``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from harness.league.executors import EXECUTORS
from harness.league.league_config import LeagueConfig, load_config
from harness.league.runner import LeagueInterrupted, LeagueRunner, LeagueStopped, run_dir_for
from harness.league.runner import Progress as RunProgress
from harness.league.schedule import deals_and_seatings, skips_rotations
from harness.league.served_players import check_mcp_players
from harness.play.agent_players import check_agent_players
from harness.play.config_files import ConfigError
from harness.views.plural import count

from . import league_report_cmd
from .cli_errors import CliError, check_folder
from .progress import PLAIN_INTERVAL_S, Progress


def register(sub: Any) -> None:
    p = sub.add_parser("league", help="run leagues and report their results")
    lsub = p.add_subparsers(dest="league_command", required=True, parser_class=type(p))
    r = lsub.add_parser("run", help="play a league from a config (configs/*.yaml)")
    r.add_argument("config", help="league config (YAML)")
    r.add_argument(
        "--resume",
        action="store_true",
        help="continue a stopped run (starts it if it does not exist yet)",
    )
    r.add_argument("--output", help="results folder (default: the config's 'output')")
    r.add_argument(
        "--workers",
        type=int,
        help="processes for games without model seats (default: the config's 'workers', "
        "else all CPUs)",
    )
    r.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    r.add_argument(
        "--progress-interval",
        type=_positive_seconds,
        default=PLAIN_INTERVAL_S,
        metavar="S",
        help=f"seconds between progress lines when stderr is not a terminal (default "
        f"{PLAIN_INTERVAL_S:g}); a line comes during long games too, with the decisions made "
        "and model calls sent so far",
    )
    r.add_argument(
        "--executor",
        choices=EXECUTORS,
        default=None,
        help="where games run: this machine (local) or Ray tasks on a Ray cluster (needs the "
        "[ray] extra; provider limits and caps hold for the whole cluster); only this process "
        "writes the run folder (default: the config's executor, else local)",
    )
    r.add_argument(
        "--ray-address",
        help="with --executor ray: the cluster to join (e.g. 10.0.0.5:6379 or ray://host:10001); "
        "default: the config's ray_address, else a Ray instance started on this machine",
    )
    r.add_argument(
        "--no-preflight",
        action="store_true",
        help="skip the sample decision sent to every model before the first game",
    )
    r.set_defaults(func=run)
    league_report_cmd.register(lsub)


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def _model_seats(config: Any, run_dir: Path) -> Any:
    if not config.has_seated:
        return None
    from harness.play.model_seats import ModelSeats

    return ModelSeats(config, run_dir)


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
        check_agent_players(config.players)
        check_mcp_players(config)
    except ConfigError as e:
        raise CliError(str(e)) from None
    if args.workers is not None and args.workers < 1:
        raise CliError("--workers must be at least 1")
    args.executor = args.executor or config.executor
    args.ray_address = args.ray_address or (config.ray_address if args.executor == "ray" else None)
    run_dir = run_dir_for(config, Path(args.output) if args.output else None)
    check_folder(run_dir, "cannot create the run folder")  # before any model call; writes nothing
    executor = _executor(args)
    runner = start_runner(
        config,
        run_dir,
        resume=args.resume,
        preflight_network=not args.no_preflight,
        workers=args.workers,
        executor=executor,
    )
    t0 = time.monotonic()
    p = runner.progress
    finished = p.total > 0 and p.skipped == p.total  # a resumed run with nothing left to play
    if finished:
        print(f"league {config.name}: all {count(p.total, 'game')} already finished → {run_dir}")
    else:
        print(
            f"league {config.name}: {count(p.total, 'game')} ({p.skipped} already finished) "
            f"→ {run_dir}"
        )
    skipped = (
        " (rotations that repeat a seating are skipped)"
        if skips_rotations(config, runner.schedule)
        else ""
    )
    print(f"  deals × seatings: {deals_and_seatings(runner.schedule)}{skipped}")
    try:
        _run_with_progress(runner, not args.no_progress and not finished, args.progress_interval)
    except LeagueInterrupted as e:  # SIGINT / SIGTERM: one line, how to resume, 130 / 143
        sys.stdout.flush()
        print(f"bangarena: {e}; resume with: {_resume_command(args)}", file=sys.stderr)
        return e.exit_code
    except LeagueStopped as e:
        raise CliError(str(e)) from None
    finally:
        if executor is not None:
            executor.close()
    elapsed = time.monotonic() - t0
    if not finished:  # what this invocation played (a resumed run's earlier games not counted)
        print(
            f"finished {p.done}/{count(p.total, 'game')} in {elapsed:.1f} s · "
            f"{count(p.decisions, 'decision')} · {count(p.calls, 'model call')} · fallbacks "
            f"{p.fallbacks} · spend ${p.cost_usd:.4f} · tokens {p.tokens}",
            file=sys.stderr,
        )
    print(f"results: {run_dir}  (report: bangarena league report {run_dir})")
    from harness.runs import check_run

    flags = check_run(run_dir)  # broken measurements: exit code 3 (harness.runs.flags)
    for flag in flags.flags:
        print(f"flagged: {flag.message}", file=sys.stderr)
    return flags.exit_code


def start_runner(
    config: LeagueConfig,
    run_dir: Path,
    *,
    resume: bool,
    preflight_network: bool = True,
    workers: int | None = None,
    executor: Any = None,
) -> LeagueRunner:
    """The runner of ``config``'s run in ``run_dir``, after the model players' preflight (its
    lines go to stderr, its calls to the run's spend ledger)."""
    checked = None
    if config.has_models:  # before any run folder or game exists (harness.league.preflight)
        from harness.league.preflight import PreflightError, preflight

        try:
            checked = preflight(config, network=preflight_network)
        except PreflightError as e:
            _record_preflight_stop(config, run_dir, e)
            raise CliError(str(e)) from None
        for line in (*checked.lines, *checked.warnings):
            print(line, file=sys.stderr)
    try:
        runner = LeagueRunner(
            config,
            run_dir,
            resume=resume,
            model_seats=_model_seats(config, run_dir),
            workers=workers,
            executor=executor,
        )
    except LeagueStopped as e:
        raise CliError(str(e)) from None
    except OSError as e:  # the folder could not be made after all (/proc, a full disk)
        where = f"{e.filename}: " if e.filename and Path(e.filename) != run_dir else ""
        raise CliError(
            f"cannot create the run folder {run_dir}: {where}{e.strerror or e}"
        ) from None
    if runner.model_seats is not None and checked is not None:  # the preflight's calls count
        for spent in checked.spend:
            runner.model_seats.ledger.add(spent)
    return runner


def _record_preflight_stop(config: LeagueConfig, run_dir: Path, error: Exception) -> None:
    """The preflight's calls are spend: in the ledger of the run being resumed, or of a run
    folder opened for the stop (``stopped.json``: what ``league report`` shows), unless no call
    got past a failed connection and there is no folder yet."""
    from harness.league.preflight_records import record_spend
    from harness.league.runner import CONFIG_FILE
    from harness.league.stopped import reached_a_server, write_preflight_stop

    spend = list(getattr(error, "spend", []))
    has_run = (run_dir / CONFIG_FILE).exists()
    if not has_run and not reached_a_server(spend):
        return
    if has_run and ((run_dir / "games.jsonl").exists() or (run_dir / "games").exists()):
        record_spend(run_dir, spend)  # a resumed run that has games: its ledger only
        return
    with contextlib.suppress(OSError):  # the one-line error still says why the run stopped
        write_preflight_stop(run_dir, config.model_dump(mode="json"), str(error), spend)


def _executor(args: argparse.Namespace) -> Any:
    """The executor of ``--executor`` (harness.league.executors); Ray checked before any run."""
    from harness.extras import MissingExtra, require
    from harness.league.executors import make_executor

    if args.ray_address and args.executor != "ray":
        raise CliError("--ray-address needs --executor ray")
    if args.executor == "ray":
        try:
            require("ray", "ray")
        except MissingExtra as e:
            raise CliError(str(e)) from None
    return make_executor(args.executor, args.ray_address)


def _resume_command(args: argparse.Namespace) -> str:
    cmd = ["bangarena", "league", "run", args.config, "--resume"]
    if args.output:
        cmd += ["--output", args.output]
    if args.executor != "local":
        cmd += ["--executor", args.executor]
    if args.ray_address:
        cmd += ["--ray-address", args.ray_address]
    return " ".join(shlex.quote(c) for c in cmd)


def progress_note(p: RunProgress) -> str:
    """What the progress display says after the game count: live decisions and calls too."""
    return (
        f"{count(p.decisions, 'decision')} · {count(p.calls, 'model call')} · fallbacks "
        f"{p.fallbacks} · ${p.cost_usd:.4f}"
    )


def _run_with_progress(
    runner: LeagueRunner, enabled: bool, interval: float = PLAIN_INTERVAL_S
) -> None:
    """A bar with ETA on a terminal, a plain line every ``interval`` seconds in a log
    (harness.bench.progress_display) — also in the middle of a long game, counting its decisions."""
    p = runner.progress
    with Progress("league", p.total, done=p.done, enabled=enabled, interval=interval) as bar:

        def tick(p: RunProgress) -> None:
            bar.update(p.done, note=progress_note(p))

        p.listeners.append(tick)
        bar.note = progress_note(p)

        async def run() -> None:
            beat = asyncio.create_task(bar.heartbeat()) if enabled else None
            try:
                await runner.run()
            finally:
                if beat is not None:
                    beat.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await beat

        asyncio.run(run())
