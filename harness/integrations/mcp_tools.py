"""The MCP server of one seat (the official ``mcp`` SDK): four tools over an
:class:`~harness.agents.mcp_seat.McpChannel`.

* ``get_game`` — the seat's game: the protocol's ``game_start`` message (role, goal, intel, players).
* ``get_decision`` — the seat's status now: a pending ``decision`` (the protocol's decision message:
  the view as JSON and Markdown, the options, the seconds left), ``waiting``, ``game_over`` (the
  seat's outcome, once) or ``finished``.
* ``wait_for_decision(timeout_s)`` — the same status, as soon as there is something to do (a
  decision, a game's end, the run's end), or after ``timeout_s`` (at most 60) with ``waiting``.
* ``choose(option_id, reasoning?, decision_index?, input_tokens?, output_tokens?, cost_usd?,
  model?)`` — answer the pending decision, with what it cost the client (optional: the usage flows
  into the run's spend ledger and caps like a Python agent's).

Each result has the Markdown for a model to read as its text and the status as structured content.
A refused choice (unknown option id, no pending decision, a stale ``decision_index``, reasoning
over the limit) is a tool error result (``isError``), never an exception out of the server.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from harness.agents.mcp_seat import MAX_WAIT_S, ChoiceRefused, McpChannel
from harness.agents.wire_protocol import (
    MAX_COST_USD,
    MAX_ID_CHARS,
    MAX_MODEL_CHARS,
    MAX_REASONING_CHARS,
    MAX_TOKENS,
    PROTOCOL_VERSION,
)
from harness.views.render import environment

__all__ = ["build_server", "status_text"]

INSTRUCTIONS = (
    "You play one seat of a BangArena card game (a hidden-role BANG! variant). Call "
    "wait_for_decision, read the view and the options, then call choose with one option id "
    "before the deadline; repeat until the status is 'finished'. get_game shows your role, goal "
    "and the players. A decision not answered in time is played for you (a recorded fallback)."
)


def status_text(status: dict[str, Any]) -> str:
    """The Markdown of a tool result (``prompts/mcp_status.j2``)."""
    return environment().get_template("mcp_status.j2").render(s=status).strip() + "\n"


def _result(status: dict[str, Any]) -> CallToolResult:
    status = {"protocol_version": PROTOCOL_VERSION, **status}
    return CallToolResult(
        content=[TextContent(type="text", text=status_text(status))], structured_content=status
    )


def build_server(channel: McpChannel, name: str = "bangarena") -> MCPServer[Any]:
    """The MCP server whose tools drive ``channel``'s seat."""
    server: MCPServer[Any] = MCPServer(name, instructions=INSTRUCTIONS, log_level="WARNING")
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=read_only)
    def get_game() -> CallToolResult:
        """Your seat's game (protocol v1 game_start message): your role and goal, your secret
        intel, the mode and the players in seat order."""
        return _result(channel.game_start())

    @server.tool(annotations=read_only)
    def get_decision() -> CallToolResult:
        """Your seat's status now, without waiting: 'decision' (a pending decision with the
        view as JSON and Markdown, the options and the seconds left), 'waiting', 'game_over'
        (your outcome) or 'finished'."""
        return _result(channel.status())

    @server.tool(annotations=read_only)
    async def wait_for_decision(
        timeout_s: Annotated[float, Field(ge=0, le=MAX_WAIT_S)] = 30.0,
    ) -> CallToolResult:
        """Wait until you have something to do (a decision, the end of a game or of the run)
        and return your status, or return 'waiting' after timeout_s seconds (at most 60)."""
        return _result(await channel.wait(timeout_s))

    @server.tool(annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False))
    def choose(
        option_id: Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS)],
        reasoning: Annotated[str | None, Field(max_length=MAX_REASONING_CHARS)] = None,
        decision_index: Annotated[int | None, Field(ge=1)] = None,
        input_tokens: Annotated[int | None, Field(ge=0, le=MAX_TOKENS)] = None,
        output_tokens: Annotated[int | None, Field(ge=0, le=MAX_TOKENS)] = None,
        cost_usd: Annotated[float | None, Field(ge=0, le=MAX_COST_USD)] = None,
        model: Annotated[str | None, Field(max_length=MAX_MODEL_CHARS)] = None,
    ) -> CallToolResult:
        """Answer the pending decision with one of its option ids (exactly as listed), with
        an optional short reasoning. Give decision_index to make sure the answer goes to the
        decision you read. Optionally report what deciding cost you since your previous
        accepted choice (input_tokens, output_tokens, cost_usd, model): it is counted in the
        run's spending and its caps."""
        usage = {
            k: v
            for k, v in (
                ("input_tokens", input_tokens),
                ("output_tokens", output_tokens),
                ("cost_usd", cost_usd),
                ("model", model),
            )
            if v is not None
        }
        try:
            return _result(channel.choose(option_id, reasoning, decision_index, usage))
        except ChoiceRefused as e:
            raise ToolError(str(e)) from None

    return server
