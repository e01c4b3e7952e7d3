"""``bangarena`` — the command line.  Every subcommand lives in its own module and registers
itself with :func:`build_parser`.  Bad input ends with one line on stderr and exit code 2."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

from harness.bench.core import BenchError
from harness.engine import EngineError
from harness.records.notices import RecordWarning

from . import (
    analysis_cmd,
    analyze_cmd,
    ask_cmd,
    balance_cmd,
    bench_cmd,
    inspect_cmd,
    leaderboard_cmd,
    league_cmd,
    mcp_cmd,
    plan_cmd,
    play_cmd,
    position_cmd,
    prompt_stats_cmd,
    quiz_cmd,
    replay_cmd,
    report_cmd,
    rules_cmd,
    serve_cmd,
)
from .cli_errors import CliError, error_line, path_error
from .help_format import DefaultsHelpFormatter

COMMANDS = (
    league_cmd,
    report_cmd,
    replay_cmd,
    inspect_cmd,
    analyze_cmd,
    play_cmd,
    ask_cmd,
    position_cmd,
    rules_cmd,
    quiz_cmd,
    prompt_stats_cmd,
    bench_cmd,
    balance_cmd,
    analysis_cmd,
    serve_cmd,
    mcp_cmd,
    plan_cmd,
    leaderboard_cmd,
)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", DefaultsHelpFormatter)  # every default shown
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bangarena",
        description="BangArena evaluation harness: rules engine, bots, model seats, leagues.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in COMMANDS:
        module.register(sub)
    return parser


@contextmanager
def record_warnings() -> Iterator[None]:
    """Damaged records a command read past (:mod:`harness.records.notices`): each distinct one
    as one ``bangarena: warning: <message>`` line on stderr, once per command."""
    said: set[str] = set()

    with warnings.catch_warnings():
        other = warnings.showwarning

        def show(message: Any, category: Any, *args: Any, **kwargs: Any) -> None:
            if not issubclass(category, RecordWarning):
                other(message, category, *args, **kwargs)
            elif str(message) not in said:
                said.add(str(message))
                sys.stderr.write(error_line(message).replace("error:", "warning:", 1))

        warnings.simplefilter("always", RecordWarning)
        warnings.showwarning = show
        yield


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with record_warnings():
            result = args.func(args)
    except (CliError, EngineError, BenchError) as e:
        sys.stderr.write(error_line(e))
        return 2
    except ImportError as e:  # a package a command needs is missing: one line, no traceback
        missing = getattr(e, "name", None) or str(e)
        sys.stderr.write(error_line(CliError(f"{missing} is not installed: pip install -e .")))
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("bangarena: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:  # a path that cannot be read or written: one line, no traceback
        if e.filename is None:
            raise
        sys.stderr.write(error_line(path_error(e)))
        return 2
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
