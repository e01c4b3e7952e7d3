"""``bangarena rules build [--check]`` — regenerate rules_md/ from the engine's data."""

from __future__ import annotations

import argparse
from typing import Any

from harness.views import rules_doc

from .cli_errors import CliError


def register(sub: Any) -> None:
    p = sub.add_parser("rules", help="AI-facing rules documents (rules_md/)")
    rsub = p.add_subparsers(dest="rules_command", required=True, parser_class=type(p))
    b = rsub.add_parser(
        "build", help="regenerate rules_md/rules.<locale>.md (every language) and rules.json"
    )
    b.add_argument("--check", action="store_true", help="only report stale files (exit 2)")
    b.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    if args.check:
        stale = rules_doc.stale()
        if stale:
            raise CliError(f"stale: {', '.join(stale)} (run: bangarena rules build)")
        print("rules_md/ is up to date")
        return 0
    for path in rules_doc.build():
        print(f"wrote {path}")
    return 0
