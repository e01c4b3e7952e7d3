"""An OpenAI-compatible model server on 127.0.0.1 that answers at once with the first option id.

Used by ``bangarena bench league`` to measure the runner itself: the server adds no thinking
time, so what is left is the harness (engine, views, prompts, records) and the HTTP round trip.
It runs on the project's own server stack (Starlette under uvicorn, as the web table):

* ``POST /v1/chat/completions`` — reads the option ids from the request (the ``choice`` enum of a
  tool / ``response_format`` schema, a GBNF grammar, or the first ``backticked`` id of the last
  user message) and answers ``{"choice": "<first id>"}``, as a forced tool call when tools were
  sent, else as message text; usage holds rough token estimates (4 characters a token);
* ``GET /v1/models`` — one model.

:class:`InstantServer` runs it in a separate process (``python -m
harness.bench.instant_server``, so it takes no time from the runner's event loop) and reports how
many completions it served.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import subprocess
import sys
import time
from typing import Any

__all__ = ["InstantServer", "first_option", "serve"]

_TICKED = re.compile(r"`([^`\s]+)`")
_GRAMMAR_CHOICE = re.compile(r"^choice ::= (.*)$", re.MULTILINE)
_GRAMMAR_LITERAL = re.compile(r'"\\"((?:[^"\\]|\\.)*?)\\""')


def _enum(schema: Any) -> list[str] | None:
    if isinstance(schema, dict):
        choice = (schema.get("properties") or {}).get("choice") or {}
        values = choice.get("enum")
        if isinstance(values, list) and values:
            return [str(v) for v in values]
    return None


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def first_option(body: dict[str, Any]) -> str:
    """The first option id offered by a Chat Completions request body (``"?"`` when none)."""
    for tool in body.get("tools") or []:
        found = _enum((tool.get("function") or {}).get("parameters"))
        if found:
            return found[0]
    fmt = body.get("response_format") or {}
    for schema in (fmt.get("schema"), (fmt.get("json_schema") or {}).get("schema")):
        found = _enum(schema)
        if found:
            return found[0]
    grammar = body.get("grammar") or (body.get("extra_body") or {}).get("grammar")
    if isinstance(grammar, str) and (m := _GRAMMAR_CHOICE.search(grammar)):
        literals = _GRAMMAR_LITERAL.findall(m.group(1))
        if literals:
            return str(literals[0].replace("\\\\", "\\"))
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    ticked = _TICKED.findall(_text(users[-1].get("content"))) if users else []
    return ticked[0] if ticked else "?"


def _completion(body: dict[str, Any], raw_len: int, counter: int) -> dict[str, Any]:
    answer = json.dumps({"choice": first_option(body), "reason": None})
    message: dict[str, Any] = {"role": "assistant", "content": None}
    tools = body.get("tools") or []
    if tools:
        name = (tools[0].get("function") or {}).get("name", "choose")
        message["tool_calls"] = [
            {
                "id": f"call_{counter}",
                "type": "function",
                "function": {"name": name, "arguments": answer},
            }
        ]
    else:
        message["content"] = answer
    prompt_tokens = max(1, raw_len // 4)
    completion_tokens = max(1, len(answer) // 4)
    return {
        "id": f"chatcmpl-instant-{counter}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "instant"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if tools else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class _State:
    def __init__(self) -> None:
        self.completions = 0


def _app(st: _State) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def models(_request: Request) -> JSONResponse:
        return JSONResponse({"object": "list", "data": [{"id": "instant", "object": "model"}]})

    async def completions(request: Request) -> JSONResponse:
        raw = await request.body()
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            return JSONResponse({"error": {"message": "body is not JSON"}}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"error": {"message": "body is not an object"}}, status_code=400)
        st.completions += 1
        return JSONResponse(_completion(body, len(raw), st.completions))

    async def not_found(request: Request) -> JSONResponse:
        message = f"no route {request.method} {request.url.path}"
        return JSONResponse({"error": {"message": message}}, status_code=404)

    return Starlette(
        routes=[
            Route("/v1/models", models, methods=["GET"]),
            Route("/v1/chat/completions", completions, methods=["POST"]),
            Route("/{path:path}", not_found, methods=["GET", "POST"]),
        ]
    )


async def serve(port: int = 0) -> int:
    """Serve on ``port`` (0: ephemeral) of 127.0.0.1; print the port as one line on stdout;
    stop when stdin gets a line or closes, and return the number of completions served."""
    import socket

    import uvicorn

    st = _State()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # answers go out at once (the accepted sockets inherit it), not after a delayed ACK
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", port))
    config = uvicorn.Config(_app(st), log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()  # the server's own error
        await asyncio.sleep(0.01)
    sys.stdout.write(f"{sock.getsockname()[1]}\n")
    sys.stdout.flush()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_reader(sys.stdin.fileno(), stop.set)
    await stop.wait()
    loop.remove_reader(sys.stdin.fileno())
    server.should_exit = True
    with contextlib.suppress(Exception):
        await asyncio.wait_for(task, 5)
    return st.completions


def main() -> None:
    """``python -m harness.bench.instant_server``: serve until stdin has a line; then print
    the number of completions served."""
    served = asyncio.run(serve())
    sys.stdout.write(f"{served}\n")
    sys.stdout.flush()


class InstantServer:
    """The instant server in its own process; use as a context manager.

    ``base_url`` ends in ``/v1`` as the OpenAI SDK expects; :meth:`stop` returns the number of
    chat completions served.
    """

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.served: int | None = None

    def start(self) -> InstantServer:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "harness.bench.instant_server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line.strip().isdigit():
            self._proc.kill()
            self._proc.wait()
            raise RuntimeError("the instant model server did not start")
        self.port = int(line)
        return self

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> int | None:
        proc, self._proc = self._proc, None
        if proc is None:
            return self.served
        try:
            out, _ = proc.communicate("stop\n", timeout=10)
            last = out.strip().splitlines()[-1:] if out else []
            self.served = int(last[0]) if last and last[0].isdigit() else None
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        return self.served

    def __enter__(self) -> InstantServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


if __name__ == "__main__":
    main()
