"""Python agents (``kind: agent``): ``agent: "package.module:factory"`` names a callable that
``options`` are passed to as keyword arguments; it is called once per seat and game and returns
the agent.

The agent is either an object with a ``decide(message)`` method and, optionally, a
``start(message)`` method, or a callable (``agent(message)``, the decision).  Each may be a plain
or an ``async`` function.  ``start`` gets a
:class:`~harness.agents.wire_protocol.GameStartMessage`, ``decide`` a
:class:`~harness.agents.wire_protocol.DecisionMessage` and returns an
:class:`~harness.agents.wire_protocol.AgentAnswer`, a mapping of its fields, or an option id.

Async functions run in the run's event loop and must not block it; plain functions run in a
thread of their own (daemon), so a slow one costs its seat a timeout, not the table its loop.  A
seat whose previous plain call has not returned yet is not called again: that decision falls back
at once (one stuck thread per seat at most).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import os
import re
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

from .decision_record import Attempt
from .external_seat import AgentBackend, AgentFault
from .wire_protocol import DecisionMessage, GameStartMessage

__all__ = ["AGENT_PATH", "AgentPathError", "PythonBackend", "load_factory"]

AGENT_PATH = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*:[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$")


class AgentPathError(ValueError):
    """An ``agent:`` path that does not name a callable (one-line message)."""


def load_factory(path: str) -> Callable[..., Any]:
    """The callable named ``package.module:attribute`` (dotted attributes allowed); modules
    are found on ``sys.path`` and in the current directory."""
    if not AGENT_PATH.match(path):
        raise AgentPathError(f"agent {path!r} is not of the form 'package.module:factory'")
    module_name, _, attr = path.partition(":")
    if os.getcwd() not in sys.path:  # a module of the directory the command runs in, as uvicorn
        sys.path.append(os.getcwd())
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise AgentPathError(f"agent {path!r}: cannot import {module_name!r} ({e})") from None
    except Exception as e:  # a module that fails while importing: still one line
        raise AgentPathError(
            f"agent {path!r}: importing {module_name!r} failed ({type(e).__name__}: {e})"
        ) from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise AgentPathError(f"agent {path!r}: {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise AgentPathError(f"agent {path!r}: {attr!r} is not callable")
    return obj  # type: ignore[no-any-return]


def _is_async(fn: Any) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - an object whose __call__ is async
    )


class PythonBackend(AgentBackend):
    """A seat's Python agent, made by ``factory(**options)`` at each new game."""

    def __init__(self, factory: Callable[..., Any], options: Mapping[str, Any] | None = None):
        self.factory = factory
        self.options = dict(options or {})
        self.agent: Any = None
        self._error: str | None = None
        self._busy = False  # a plain call of this seat's agent is running in its thread

    def new_game(self, game_id: str, seat: int) -> None:
        self.agent, self._error = None, None
        try:
            self.agent = self.factory(**self.options)
        except Exception as e:  # every decision of this game then falls back with it
            self._error = f"the factory raised {type(e).__name__}: {e}"

    def _method(self, name: str) -> Any:
        if self._error is not None:
            raise AgentFault("agent_error", self._error)
        method = getattr(self.agent, name, None)
        if method is None and name == "decide" and callable(self.agent):
            method = self.agent
        return method

    async def _call(self, fn: Any, message: Any) -> Any:
        if _is_async(fn):
            return await fn(message)
        if self._busy:
            raise AgentFault("agent_error", "the agent's previous call has not returned yet")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def settle(ok: bool, value: Any) -> None:
            if future.done():
                return
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

        def run() -> None:
            try:
                result, ok = fn(message), True
            except Exception as e:
                result, ok = e, False
            self._busy = False
            with contextlib.suppress(RuntimeError):  # the loop may have closed meanwhile
                loop.call_soon_threadsafe(settle, ok, result)

        self._busy = True
        threading.Thread(target=run, name="python agent", daemon=True).start()
        return await future

    async def start(self, message: GameStartMessage, deadline: float) -> None:
        fn = self._method("start")
        if fn is not None:
            await self._call(fn, message)

    async def decide(
        self, message: DecisionMessage, deadline: float, attempts: list[Attempt]
    ) -> Any:
        fn = self._method("decide")
        if fn is None:
            raise AgentFault("agent_error", "the agent has no decide method and is not callable")
        return await self._call(fn, message)
