"""A person at the terminal: sees the table, their hand and the numbered options drawn with rich
(:mod:`harness.views.terminal`), answers by number or option id.

* Only what changed is printed again: the events since the person's last decision, the seat rows
  that changed (the whole table at the start of a round, when most rows changed, or on ``t``),
  and the hand-and-options panel.
* A decision with a single option is made at once, with a one-line note.
* Input is read without blocking the event loop (so the decision timer can expire while a person
  is thinking); an invalid answer re-asks with a clear message; ``?`` explains the answers, the
  cards in the hand and on the table, and the characters at the table.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import deque
from collections.abc import Sequence
from typing import Any, TextIO

from rich.console import Console

from harness.engine import SeatView, parse_action
from harness.views.narrate import Narrator
from harness.views.option_labels import option_label
from harness.views.render_context import view_context
from harness.views.terminal import (
    TableDiff,
    colored,
    compact_for,
    explain,
    options_panel,
    seat_table,
    words,
)

from .seat import FatalSeatError
from .seat_protocol import Agent

WIDE = 120  # a pipe or a file gets rows this wide rather than folded cells


class InputClosed(FatalSeatError):
    """The person's input ended (end of file): the game is abandoned, not auto-played."""


class LineReader:
    """Lines from a file descriptor, awaited on the running event loop."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buf = b""
        self._lines: deque[str] = deque()
        self._eof = False

    async def readline(self) -> str | None:
        """The next line without its newline, or None at end of input."""
        while not self._lines and not self._eof:
            loop = asyncio.get_running_loop()
            ready: asyncio.Future[None] = loop.create_future()

            def on_ready(ready: asyncio.Future[None] = ready) -> None:
                if not ready.done():
                    ready.set_result(None)

            loop.add_reader(self.fd, on_ready)
            try:
                await ready
            finally:
                loop.remove_reader(self.fd)
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self._eof = True
                if self._buf:
                    self._lines.append(self._buf.decode(errors="replace"))
                    self._buf = b""
                break
            self._buf += chunk
            *lines, self._buf = self._buf.split(b"\n")
            self._lines.extend(line.decode(errors="replace").rstrip("\r") for line in lines)
        return self._lines.popleft() if self._lines else None


def parse_choice(text: str, options: Sequence[str]) -> str | None:
    """An option number (1-based) or an exact option id; anything else is None."""
    text = text.strip()
    if text.isdigit() and 1 <= int(text) <= len(options):
        return options[int(text) - 1]
    return text if text in options else None


def console_for(out: TextIO | None = None) -> Console:
    """A rich console on ``out`` (stdout): colours on a terminal, wide plain rows elsewhere."""
    stream = out or sys.stdout
    tty = stream.isatty()
    return Console(file=stream, highlight=False, width=None if tty else WIDE)


class Screen:
    """What a person at one seat sees, printed to a rich console."""

    def __init__(self, names: Sequence[str], locale: str, console: Console) -> None:
        self.names = list(names)
        self.locale = locale
        self.console = console
        self.words = words(locale)
        self.narrator = Narrator(self.names, locale)
        self.diff = TableDiff()

    def label(self, view: SeatView, option: str) -> str:
        kind = view.pending.kind if view.pending else ""
        try:
            return option_label(parse_action(option), kind, view, self.names, self.locale)
        except Exception:  # an option the labeller does not know: show its id
            return option

    def feed(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.console.print(colored(line))

    def show(self, view: SeatView, whole: bool = False) -> None:
        """The events since the last decision, the changed seat rows, the hand and options."""
        ctx = view_context(view, self.names, self.locale)
        if ctx["feed"] and not whole:
            self.console.rule(self.words.feed, align="left", style="dim")
            self.feed(ctx["feed"])
        changed = self.diff.changes(ctx)
        size = self.console.size
        compact = compact_for(size.width, size.height) and self.console.is_terminal
        if whole or changed is None:
            self.console.print(seat_table(ctx, compact=compact))
        elif changed:
            table = seat_table(ctx, only=changed, title=self.words.changed, compact=compact)
            self.console.print(table)
        self.console.print(options_panel(ctx, compact=compact))

    def explain(self, view: SeatView, options: int) -> None:
        """``?``: how to answer, then the cards in the hand and on the table and the
        characters at the table, each with what it does."""
        self.say(str(self.words.help(options)))
        self.console.print(explain(view, self.names, self.locale))

    def forced(self, view: SeatView, option: str) -> None:
        ctx = view_context(view, self.names, self.locale)
        self.feed(ctx["feed"])
        self.console.print(colored(self.words.forced(self.label(view, option)), "italic"))

    def say(self, text: str, style: str = "") -> None:
        self.console.print(colored(text, style))


class HumanAgent(Agent):
    kind = "human"

    def __init__(
        self,
        name: str,
        screen: Screen,
        reader: LineReader | None = None,
    ) -> None:
        super().__init__(name)
        self.screen = screen
        self.reader = reader or LineReader(sys.stdin.fileno())

    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        screen = self.screen
        if len(options) == 1:  # nothing to choose: made at once, said in one line
            screen.forced(view, options[0])
            return options[0]
        screen.show(view)
        w: Any = screen.words
        out = screen.console.file
        while True:
            out.write(str(w.prompt(len(options))))
            out.flush()
            line = await self.reader.readline()
            if line is None:
                raise InputClosed("input ended")
            if not os.isatty(self.reader.fd):
                out.write("\n")  # the answer was not echoed: the next text starts a line
            text = line.strip()
            if text in ("t", "?"):
                if text == "t":
                    screen.show(view, whole=True)
                else:
                    screen.explain(view, len(options))
                continue
            choice = parse_choice(text, options)
            if choice is not None:
                return choice
            screen.say(str(w.invalid(text, len(options))), "yellow")
