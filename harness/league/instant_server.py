"""An OpenAI-compatible model server on 127.0.0.1 that answers at once with the first option id.

Used by ``bangarena bench league`` to measure the runner itself: the server adds no thinking
time, so what is left is the harness (engine, views, prompts, records) and the HTTP round trip.
It speaks just enough HTTP/1.1 (keep-alive, ``Content-Length`` bodies) for the ``openai`` SDK:

* ``POST /v1/chat/completions`` — reads the option ids from the request (the ``choice`` enum of a
  tool / ``response_format`` schema, a GBNF grammar, or the first ``backticked`` id of the last
  user message) and answers ``{"choice": "<first id>"}``, as a forced tool call when tools were
  sent, else as message text; usage holds rough token estimates (4 characters a token);
* ``GET /v1/models`` — one model.

:class:`InstantServer` runs it in a separate process (``python -m
harness.league.instant_server``, so it takes no time from the runner's event loop) and reports how
many completions it served.  Standard library only.
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


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, st: _State) -> None:
    try:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                return
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = (lines[0].split(" ", 2) + ["", ""])[:3]
            headers = {}
            for line in lines[1:]:
                key, sep, value = line.partition(":")
                if sep:
                    headers[key.strip().lower()] = value.strip()
            length = int(headers.get("content-length") or 0)
            try:
                raw = await reader.readexactly(length) if length else b""
            except (asyncio.IncompleteReadError, ConnectionError):
                return  # the client gave up while sending (a cancelled call)
            status = 404
            payload: dict[str, Any] = {"error": {"message": f"no route {method} {path}"}}
            route = path.split("?", 1)[0].rstrip("/")
            if method == "GET" and route.endswith("/models"):
                status = 200
                payload = {"object": "list", "data": [{"id": "instant", "object": "model"}]}
            elif method == "POST" and route.endswith("/chat/completions"):
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    status, payload = 400, {"error": {"message": "body is not JSON"}}
                else:
                    st.completions += 1
                    status, payload = 200, _completion(body, len(raw), st.completions)
            data = json.dumps(payload).encode()
            reason = {200: "OK", 400: "Bad Request", 404: "Not Found"}[status]
            writer.write(
                f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\nConnection: keep-alive\r\n\r\n".encode()
                + data
            )
            await writer.drain()
            if headers.get("connection", "").lower() == "close":
                return
    finally:
        with contextlib.suppress(Exception):
            writer.close()


async def serve(port: int = 0) -> int:
    """Serve on ``port`` (0: ephemeral) of 127.0.0.1; print the port as one line on stdout;
    stop when stdin gets a line or closes, and return the number of completions served."""
    st = _State()
    server = await asyncio.start_server(lambda r, w: _handle(r, w, st), "127.0.0.1", port)
    sys.stdout.write(f"{server.sockets[0].getsockname()[1]}\n")
    sys.stdout.flush()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_reader(sys.stdin.fileno(), stop.set)
    await stop.wait()
    loop.remove_reader(sys.stdin.fileno())
    server.close()  # open keep-alive connections are dropped when the loop ends
    return st.completions


def main() -> None:
    """``python -m harness.league.instant_server``: serve until stdin has a line; then print
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
            [sys.executable, "-m", "harness.league.instant_server"],
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
