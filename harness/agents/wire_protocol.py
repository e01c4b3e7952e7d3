"""The external agent protocol, version :data:`PROTOCOL_VERSION`: the messages a Python agent
(``kind: agent``) receives as pydantic objects and a remote agent (``kind: remote``) receives as
JSON, and the answer both give.  ``docs/agents.md`` describes it; ``docs/schema/`` publishes it as
JSON Schema (``python -m harness.agents.wire_protocol --write`` regenerates the files, a test
fails when they are stale).

* :class:`GameStartMessage` — once per game and seat, before its first decision: the seat's role,
  goal, secret intel and the players (the same facts as a model seat's game message), as JSON
  and Markdown.
* :class:`DecisionMessage` — each decision with more than one option: the seat's view as JSON and
  Markdown (the events since the seat's previous message included), the options (ids and
  labels) and the seconds left before the seat's deadline.
* :class:`AgentAnswer` — the chosen option id, optional reasoning and optional usage.
* :class:`McpChooseArguments` — the arguments of an MCP seat's ``choose`` tool: the same answer
  with the usage as flat optional fields (published as ``mcp-choose.v1.json``).

Nothing in a message reveals what RULES.md §9 hides from the seat: the game's seed is not sent
(it determines the deal).  An agent that needs randomness seeds it from ``game_id`` and ``seat``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from harness.engine import SeatView
from harness.views.prompts import PromptBuilder
from harness.views.render import environment, markdown_from_context
from harness.views.render_context import view_context

__all__ = [
    "MAX_ANSWER_BYTES",
    "MAX_REASONING_CHARS",
    "PROTOCOL_VERSION",
    "AgentAnswer",
    "DecisionMessage",
    "GameStartMessage",
    "McpChooseArguments",
    "OptionInfo",
    "Usage",
    "decision_message",
    "game_start_message",
    "schema_documents",
]

PROTOCOL_VERSION = 1
# An answer longer than this (its JSON, UTF-8) is refused unread past the limit: a fallback.
MAX_ANSWER_BYTES = 64 * 1024
MAX_REASONING_CHARS = 16 * 1024
MAX_ID_CHARS = 256
MAX_MODEL_CHARS = 200
MAX_TOKENS = 10**9  # per answer; more is not a usage report but garbage
MAX_COST_USD = 1e4


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    protocol_version: Literal[1] = PROTOCOL_VERSION
    game_id: str
    seat: int = Field(description="the seat's index (0-based)")
    player: str = Field(description="the league player's name")
    locale: str = Field(description="the language of the labels and the Markdown")


class GameStartMessage(_Message):
    """The seat's game, fixed at the deal."""

    type: Literal["game_start"] = "game_start"
    role: str
    goal: str = Field(description="the role's goal, in words")
    you: dict[str, Any] = Field(description="the seat's own entry, as in the view's seats")
    table: dict[str, Any] = Field(description="mode, seat count and role composition")
    knowledge: list[dict[str, Any]] = Field(description="secret intel at the deal")
    seats: list[dict[str, Any]] = Field(description="the players in seat order")
    markdown: str = Field(description="the same facts as a model seat's game message")


class OptionInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="the option's canonical id: answer exactly this")
    label: str


class DecisionMessage(_Message):
    """One decision of the seat."""

    type: Literal["decision"] = "decision"
    decision_index: int = Field(description="1-based, counting this seat's decisions")
    decision_kind: str
    options: list[OptionInfo] = Field(min_length=2)
    deadline_s: float = Field(description="seconds left to answer when the message was built")
    view: dict[str, Any] = Field(description="the seat view as JSON (schema_version inside)")
    view_markdown: str
    events: list[dict[str, Any]] = Field(
        description="the seat's events since its previous message, in the engine's form "
        "(as the seat may see them); the view's feed narrates the same events"
    )


class Usage(BaseModel):
    """What the decision cost the agent; flows into the run's spend ledger and its caps."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input_tokens: int = Field(default=0, ge=0, le=MAX_TOKENS)
    output_tokens: int = Field(default=0, ge=0, le=MAX_TOKENS)
    cost_usd: float | None = Field(default=None, ge=0, le=MAX_COST_USD)
    model: str | None = Field(default=None, max_length=MAX_MODEL_CHARS)


class AgentAnswer(BaseModel):
    """An agent's answer to a :class:`DecisionMessage`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    option: str = Field(max_length=MAX_ID_CHARS, description="one of the options' ids")
    reasoning: str | None = Field(default=None, max_length=MAX_REASONING_CHARS)
    usage: Usage | None = None


class McpChooseArguments(BaseModel):
    """The arguments of the ``choose`` tool of an MCP seat (``bangarena mcp``): an
    :class:`AgentAnswer` whose usage fields are optional arguments of their own."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    option_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    reasoning: str | None = Field(default=None, max_length=MAX_REASONING_CHARS)
    decision_index: int | None = Field(default=None, ge=1)
    input_tokens: int | None = Field(default=None, ge=0, le=MAX_TOKENS)
    output_tokens: int | None = Field(default=None, ge=0, le=MAX_TOKENS)
    cost_usd: float | None = Field(default=None, ge=0, le=MAX_COST_USD)
    model: str | None = Field(default=None, max_length=MAX_MODEL_CHARS)


def _goal(role: str, mode: str, locale: str) -> str:
    module = environment().get_template(f"roles.{locale}.j2").module
    return str(module.goal(role, mode)).strip()  # type: ignore[attr-defined]


def game_start_message(
    view: SeatView, names: Sequence[str], locale: str, *, game_id: str, player: str
) -> GameStartMessage:
    """The start message of ``view``'s seat (any view of the game: only fixed facts are used)."""
    ctx = view_context(view, names, locale, feed=False)
    return GameStartMessage(
        game_id=game_id,
        seat=view.viewer,
        player=player,
        locale=locale,
        role=view.role,
        goal=_goal(view.role, view.mode, locale),
        you=ctx["you"],
        table=ctx["table"],
        knowledge=ctx["knowledge"],
        seats=ctx["seats"],
        markdown=PromptBuilder(names, locale).game_message(view),
    )


def decision_message(
    view: SeatView,
    names: Sequence[str],
    locale: str,
    *,
    game_id: str,
    player: str,
    index: int,
    deadline_s: float,
) -> DecisionMessage:
    """The message of ``view``'s pending decision."""
    ctx = view_context(view, names, locale)
    pending = ctx["decision"] or {}
    return DecisionMessage(
        game_id=game_id,
        seat=view.viewer,
        player=player,
        locale=locale,
        decision_index=index,
        decision_kind=pending.get("kind", ""),
        options=[OptionInfo(id=o["id"], label=o["label"]) for o in pending.get("options", [])],
        deadline_s=round(max(0.0, deadline_s), 3),
        view=ctx,
        view_markdown=markdown_from_context(ctx),  # = render_markdown(view, names, locale)
        events=[dict(e) for e in view.events],
    )


SCHEMA_DIR = Path(__file__).resolve().parents[2] / "docs" / "schema"
_SCHEMAS: dict[str, type[BaseModel]] = {
    "game-start": GameStartMessage,
    "decision": DecisionMessage,
    "answer": AgentAnswer,
}


def schema_documents() -> dict[str, str]:
    """File name → JSON Schema text of every wire model, plus the combined protocol file."""
    out: dict[str, str] = {}
    combined: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"BangArena agent protocol v{PROTOCOL_VERSION}",
        "description": "Messages to an external agent (game_start, decision) and its answer.",
        "protocol_version": PROTOCOL_VERSION,
    }
    for stem, model in _SCHEMAS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        out[f"agent-{stem}.v{PROTOCOL_VERSION}.json"] = json.dumps(schema, indent=2) + "\n"
    schema = McpChooseArguments.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    out[f"mcp-choose.v{PROTOCOL_VERSION}.json"] = json.dumps(schema, indent=2) + "\n"
    _, defs = models_json_schema([(m, "validation") for m in _SCHEMAS.values()])
    combined.update(defs)
    combined["oneOf"] = [{"$ref": f"#/$defs/{m.__name__}"} for m in _SCHEMAS.values()]
    out[f"agent-protocol.v{PROTOCOL_VERSION}.json"] = json.dumps(combined, indent=2) + "\n"
    return out


def stale_schemas(folder: Path = SCHEMA_DIR) -> list[str]:
    """The schema files under ``folder`` that are missing or differ from the models."""
    return [
        name
        for name, text in schema_documents().items()
        if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text
    ]


def write_schemas(folder: Path = SCHEMA_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in schema_documents().items():
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(folder / name)
    return paths


if __name__ == "__main__":  # python -m harness.agents.wire_protocol --write
    if "--write" in sys.argv[1:]:
        for p in write_schemas():
            print(p)
    else:
        stale = stale_schemas()
        print("\n".join(f"stale: {n}" for n in stale) or "schemas are up to date")
        sys.exit(1 if stale else 0)
