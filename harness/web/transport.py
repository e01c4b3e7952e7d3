"""The server below the app: uvicorn's HTTP (httptools) and WebSocket (websockets, sans-I/O)
protocols with the limits of :class:`~harness.web.limits.WebLimits` applied before a byte
reaches the app.

:class:`TableHttp`, per socket:

- counted in the :class:`~harness.web.sockets.SocketTable` as soon as it is accepted; past its
  address's cap, or when the server is full and no socket waits for a request, answered HTTP 503
  and closed;
- a request line and headers longer than ``request_head_bytes`` are answered 414 (the line) or
  431 (the headers) as soon as they pass it, before the rest is read;
- a request must arrive whole within ``request_timeout_s`` of the socket's opening or of the
  previous response, else the socket is closed (an idle keep-alive connection after
  ``keep_alive_s``, uvicorn's own timer);
- a response the client stops reading (the socket's buffers full) for ``request_timeout_s``:
  the socket is closed.

:class:`TableWebSocket`, per connection after the upgrade:

- the app must accept or refuse it within ``request_timeout_s``;
- every frame spends from the connection's frame bucket, a ping or pong from its control-frame
  bucket too; past either, close code 1008 — the data a client sends is read in slices of
  :data:`SLICE_BYTES`, so the server parses at most one slice past the budget;
- a message passes ``message_bytes`` (after inflating, which stops there): close code 1009;
- text that is not UTF-8: close code 1007 and one short line in the log (rate-limited by
  :mod:`.log_budget`), not a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request

from .limits import TokenBucket, WebLimits
from .sockets import SocketTable

SLICE_BYTES = 4096
CONTROL = (Opcode.PING, Opcode.PONG)

log = logging.getLogger(__name__)


@dataclass
class TransportState:
    """What every socket of one server shares (``config.transport`` of the uvicorn config)."""

    limits: WebLimits
    sockets: SocketTable


def _state(config: Config) -> TransportState:
    state = getattr(config, "transport", None)
    if not isinstance(state, TransportState):
        raise TypeError("the table's protocols need harness.web.server's uvicorn config")
    return state


def _peer(transport: Any) -> str:
    info = transport.get_extra_info("peername")
    return str(info[0]) if isinstance(info, tuple | list) and info else ""


class TableHttp(HttpToolsProtocol):
    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.state = _state(config)
        self._head = 0  # bytes of the request line and headers read so far
        self._in_head = True  # reading a request line and headers (not a body, not a response)
        self._line_done = False
        self._deadline: asyncio.TimerHandle | None = None
        self._stall: asyncio.TimerHandle | None = None  # a response the client does not read
        self._serving: Any = None  # the request being answered (with pipelining, not self.cycle)
        self._refused = False

    # --------------------------------------------------------------- the socket
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.state.sockets.open(transport, _peer(transport)):
            self._reply(503, "too many connections: try again later\n")
            return
        self._wait_for_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self._reading_again()
        self.state.sockets.release(self.transport)
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(self.state.limits.request_timeout_s, self._drop)

    def resume_writing(self) -> None:
        self._reading_again()
        super().resume_writing()

    def _reading_again(self) -> None:
        """The client reads its response again (or is gone): no stall timer."""
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def data_received(self, data: bytes) -> None:
        while data and self._reading():
            part = data
            if self._in_head:  # the parser gets no more of a head than the limit allows
                room = self.state.limits.request_head_bytes - self._head
                if room <= 0:
                    self._too_long()
                    return
                part = data[:room]
                self._head += len(part)
                self._line_done = self._line_done or b"\n" in part
            data = data[len(part) :]
            super().data_received(part)

    # ------------------------------------------------------- the parser's calls
    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head = 0
        self._line_done = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_head = True
        self._stop_waiting()  # the request is whole: the app answers it
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.timeout_keep_alive_task is not None:  # kept alive: waiting for the next one
            self._wait_for_request()

    def _start_asgi_task(self, cycle: Any, app: Any) -> None:
        self._serving = cycle
        super()._start_asgi_task(cycle, app)

    def handle_websocket_upgrade(self) -> None:
        self._stop_waiting()
        super().handle_websocket_upgrade()

    # ---------------------------------------------------------------- helpers
    def _reading(self) -> bool:
        """Still this protocol's socket to read: not refused, closing or upgraded."""
        t = self.transport
        return not (self._refused or t.is_closing() or t.get_protocol() is not self)

    def _wait_for_request(self) -> None:
        self._stop_waiting()
        self._deadline = self.loop.call_later(self.state.limits.request_timeout_s, self._late)
        self.state.sockets.waiting(self.transport, self.transport.abort)

    def _stop_waiting(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        if self.transport is not None:
            self.state.sockets.busy(self.transport)

    def _drop(self) -> None:
        """The client has not read its response for the request timeout: every request of the
        socket is over (nothing more is written) and the socket is dropped."""
        self._stall = None
        for cycle in (self._serving, self.cycle, *(c for c, _ in self.pipeline)):
            if cycle is not None:
                cycle.disconnected = True
        self.pipeline.clear()
        self.transport.abort()

    def _late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _too_long(self) -> None:
        if self._line_done:
            self._reply(431, "request headers too large\n")
        else:
            self._reply(414, "request line too long\n")

    def _reply(self, status: int, text: str) -> None:
        """Answer ``status`` with ``text`` and close the socket (nothing more of it is read)."""
        self._refused = True
        self._stop_waiting()
        body = text.encode()
        head = (
            b"content-type: text/plain; charset=utf-8\r\n"
            + b"content-length: %d\r\n" % len(body)
            + b"connection: close\r\n\r\n"
        )
        self.transport.write(STATUS_LINE[status] + head + body)
        self.transport.close()


class TableWebSocket(WebSocketsSansIOProtocol):
    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.state = _state(config)
        lim = self.state.limits
        self.frame_budget = TokenBucket(lim.frames_burst, lim.frames_per_s)
        self.control_budget = TokenBucket(lim.control_frames_burst, lim.control_frames_per_s)
        self._handshake_deadline: asyncio.TimerHandle | None = None
        self._cut = False  # closed by the transport for a limit: nothing more of it is read

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.state.sockets.busy(transport)  # counted since it was accepted (TableHttp)
        self._handshake_deadline = self.loop.call_later(
            self.state.limits.request_timeout_s, self._handshake_late
        )

    def connection_lost(self, exc: Exception | None) -> None:
        if self._handshake_deadline is not None:
            self._handshake_deadline.cancel()
            self._handshake_deadline = None
        self.state.sockets.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        for i in range(0, len(data), SLICE_BYTES):
            if self._cut or self.transport.is_closing():
                return
            super().data_received(data[i : i + SLICE_BYTES])

    def handle_events(self) -> None:
        for event in self.conn.events_received():
            if isinstance(event, Request):
                self.handle_connect(event)
                continue
            if not isinstance(event, Frame):  # pragma: no cover - the parser yields no other
                continue
            if self._cut:
                return
            if not self._spend(event.opcode):
                self._close_for(CloseCode.POLICY_VIOLATION, "too many frames")
                return
            if event.opcode == Opcode.CONT:
                self.handle_cont(event)
            elif event.opcode == Opcode.TEXT:
                self.handle_text(event)
            elif event.opcode == Opcode.BINARY:
                self.handle_bytes(event)
            elif event.opcode == Opcode.PING:
                self.handle_ping()
            elif event.opcode == Opcode.PONG:
                self.handle_pong(event)
            elif event.opcode == Opcode.CLOSE:
                self.handle_close(event)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                log.warning("a WebSocket client sent text that is not UTF-8: closed it (1007)")
                self._close_for(CloseCode.INVALID_DATA, "invalid UTF-8")
                return
        super().send_receive_event_to_app()

    # ---------------------------------------------------------------- helpers
    def _spend(self, opcode: Opcode) -> bool:
        if not self.frame_budget.take():
            return False
        return opcode not in CONTROL or self.control_budget.take()

    def _close_for(self, code: CloseCode, reason: str) -> None:
        """Close the connection with ``code`` at once (what else it sent is not read)."""
        if self._cut or self.transport.is_closing():
            return
        self._cut = True
        if not self.close_sent:  # else the app's close frame is out: no second one
            self.conn.fail(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
        self.transport.close()

    def _handshake_late(self) -> None:
        self._handshake_deadline = None
        if not self.handshake_complete and not self.transport.is_closing():
            self.transport.close()
