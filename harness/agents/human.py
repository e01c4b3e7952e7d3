"""A person at the terminal: sees the Markdown view and numbered options, answers by number or id.

Input is read without blocking the event loop (so the decision timer can expire while a person is
thinking); an invalid answer re-asks with a clear message.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import deque
from collections.abc import Callable, Sequence
from typing import TextIO

from harness.engine import SeatView

from .base import Agent
from .seat import FatalSeatError


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


class HumanAgent(Agent):
    kind = "human"

    def __init__(
        self,
        name: str,
        render: Callable[[SeatView], str],
        reader: LineReader | None = None,
        out: TextIO | None = None,
    ) -> None:
        super().__init__(name)
        self.render = render
        self.reader = reader or LineReader(sys.stdin.fileno())
        self.out = out or sys.stdout

    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        self.out.write("\n" + self.render(view))
        while True:
            self.out.write(f"Your choice (1–{len(options)} or an option id): ")
            self.out.flush()
            line = await self.reader.readline()
            if line is None:
                raise InputClosed("input ended")
            choice = parse_choice(line, options)
            if choice is not None:
                return choice
            self.out.write(
                f"'{line.strip()}' is not an option: enter a number from 1 to {len(options)} "
                "or an option id exactly as shown.\n"
            )
