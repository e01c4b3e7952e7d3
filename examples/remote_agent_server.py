"""A reference remote agent (``kind: remote``) in standard-library Python: it answers each
decision with a random option drawn from a generator seeded by the game, seat and decision, so
its games replay exactly.  ``python examples/remote_agent_server.py --port 8765``, then
``url: http://127.0.0.1:8765/`` in a league config.  With ``AGENT_TOKEN`` set it refuses
requests without ``Authorization: Bearer $AGENT_TOKEN``.  Protocol: docs/agents.md."""

from __future__ import annotations

import argparse
import json
import os
import random
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 4 * 1024 * 1024  # a decision message is far smaller


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _reply(self, status: int, payload: dict) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        token = os.environ.get("AGENT_TOKEN")
        if token and self.headers.get("Authorization") != f"Bearer {token}":
            return self._reply(401, {"error": "unauthorized"})
        size = int(self.headers.get("Content-Length") or 0)
        if not 0 < size <= MAX_BODY:
            return self._reply(413, {"error": "body too large or empty"})
        try:
            msg = json.loads(self.rfile.read(size))
        except ValueError:
            return self._reply(400, {"error": "not JSON"})
        if msg.get("type") != "decision":
            return self._reply(200, {})  # game_start: nothing to answer
        ids = [o["id"] for o in msg["options"]]
        rng = random.Random(f"{msg['game_id']}:{msg['seat']}:{msg['decision_index']}")
        self._reply(200, {"option": rng.choice(ids), "reasoning": "a seeded random pick"})


def make_server(port: int = 0) -> ThreadingHTTPServer:
    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    server = make_server(parser.parse_args().port)
    print(f"agent listening on http://127.0.0.1:{server.server_port}/", flush=True)
    server.serve_forever()
