"""Every command's ``--help``: every option has help text and shows its default."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from harness.cli.help_format import shows_default
from harness.cli.main import build_parser, main


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every (sub)command parser with its argv path, the top level included."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


ALL = list(commands(build_parser()))


def test_the_walk_finds_every_command() -> None:
    paths = {" ".join(p) for p, _ in ALL}
    for expected in ("league run", "league report", "report", "replay", "play", "balance",
                     "bench engine", "bench bots", "bench league", "bench llm", "bench report",
                     "prompt-stats"):  # fmt: skip
        assert expected in paths


@pytest.mark.parametrize(("path", "parser"), ALL, ids=[" ".join(p) or "bangarena" for p, _ in ALL])
def test_every_option_has_help_and_its_default(
    path: tuple[str, ...], parser: argparse.ArgumentParser, capsys: pytest.CaptureFixture[str]
) -> None:
    formatter = parser._get_formatter()
    missing = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        name = "/".join(action.option_strings) or action.dest
        text = (action.help or "").strip()
        if not text or text == argparse.SUPPRESS:
            missing.append(f"{name}: no help text")
            continue
        shown = formatter._expand_help(action) if hasattr(formatter, "_expand_help") else text
        if shows_default(action) and "default" not in shown.lower():
            missing.append(f"{name}: help does not show the default")
    assert missing == [], f"bangarena {' '.join(path)}"
    with pytest.raises(SystemExit) as e:
        main([*path, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: bangarena")
    assert "%%" not in out and "%(" not in out
