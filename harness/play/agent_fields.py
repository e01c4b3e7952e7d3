"""The fields each external player kind takes in a league config (``kind: agent`` needs an
``agent: package.module:factory``, ``kind: remote`` a ``url``), checked by format only: reading a
run's config never imports an agent's code (:func:`~harness.play.agent_players.check_agent_players`
does, before a run starts).

It reads a player's fields through :class:`AgentFields` rather than the config model, so the
config validates its players without importing the module that seats them.
"""

from __future__ import annotations

from typing import Any, Protocol

from harness.agents.python_agent import AGENT_PATH
from harness.agents.remote_agent import check_url

__all__ = ["AgentFields", "check_agent_fields"]


class AgentFields(Protocol):
    """The fields of a player that :func:`check_agent_fields` reads."""

    @property
    def kind(self) -> str: ...
    @property
    def agent(self) -> str | None: ...
    @property
    def options(self) -> dict[str, Any] | None: ...
    @property
    def url(self) -> str | None: ...
    @property
    def token_env(self) -> str | None: ...


def check_agent_fields(p: AgentFields) -> None:
    """Raise ``ValueError`` when ``p`` has a field its kind does not take, or lacks one."""
    agent_fields = {"agent": p.agent, "options": p.options}
    remote_fields = {"url": p.url, "token_env": p.token_env}
    if p.kind == "agent":
        if not p.agent:
            raise ValueError("a player of kind 'agent' needs 'agent: package.module:factory'")
        if not AGENT_PATH.match(p.agent):
            raise ValueError(f"agent {p.agent!r} is not of the form 'package.module:factory'")
    if p.kind == "remote":
        if not p.url:
            raise ValueError("a player of kind 'remote' needs 'url: http(s)://...'")
        check_url(p.url)
    for kind, fields in (("agent", agent_fields), ("remote", remote_fields)):
        if p.kind != kind:
            extra = [k for k, v in fields.items() if v is not None]
            if extra:
                raise ValueError(f"a player of kind {p.kind!r} takes no {extra[0]!r}")
