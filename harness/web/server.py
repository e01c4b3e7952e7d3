"""uvicorn as the table runs it (``bangarena serve``, the tests' live server, ``bench serve``).

The HTTP and WebSocket protocols are the table's own (:mod:`.transport`, with the config's
``limits``); WebSocket messages are capped at ``limits.message_bytes`` (inflating a compressed
one stops there) and pinged every ``limits.ping_interval_s``.  ``X-Forwarded-For`` is believed
only from the proxies the config names (``forwarded_allow_ips``; none by default, whatever
uvicorn's own default or its ``FORWARDED_ALLOW_IPS`` variable say).  Client-caused log lines are
rate-limited (:mod:`.log_budget`).
"""

from __future__ import annotations

from typing import Any

import uvicorn

from . import log_budget
from .proxies import Proxies
from .sockets import SocketTable, socket_budget
from .transport import TableHttp, TableWebSocket, TransportState
from .web_config import WebConfig


class TableServerConfig(uvicorn.Config):
    """A uvicorn config whose protocols are the table's, with their shared state
    (``transport``)."""

    def __init__(
        self, app: Any, web: WebConfig, *, host: str, port: int, log_level: str = "warning"
    ) -> None:
        lim = web.limits
        proxies = Proxies(web.forwarded_allow_ips)
        super().__init__(
            app,
            host=host,
            port=port,
            http=TableHttp,
            ws=TableWebSocket,
            ws_max_size=lim.message_bytes,
            ws_ping_interval=lim.ping_interval_s,
            ws_ping_timeout=lim.ping_timeout_s,
            proxy_headers=bool(proxies),
            forwarded_allow_ips=[str(n) for n in proxies.networks],
            timeout_keep_alive=lim.keep_alive_s,  # type: ignore[arg-type]  # a float works
            log_level=log_level,
            lifespan="on",
        )
        total = socket_budget(lim.max_sockets)
        self.transport = TransportState(lim, SocketTable(lim.sockets_per_address, total, proxies))
        log_budget.install()


def table_server(
    app: Any, web: WebConfig, *, host: str, port: int, log_level: str = "warning"
) -> uvicorn.Server:
    """The server of ``app`` (its config ``web``) on ``host:port``, not started."""
    return uvicorn.Server(TableServerConfig(app, web, host=host, port=port, log_level=log_level))
