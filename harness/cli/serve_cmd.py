"""``bangarena serve [--host] [--port] [--config FILE] [--allow-origin O] [--allow-host H]
[--forwarded-allow-ips IPS]`` — the web table (FastAPI + uvicorn, :mod:`harness.web.server`)."""

from __future__ import annotations

import argparse
import socket
from typing import Any

from .args import port
from .cli_errors import CliError, address_error


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the web table: people, bots and model seats play in the browser",
        description="Start the web table on http://HOST:PORT/. People create rooms, join by "
        "code, and play with rule bots and configured model seats; every finished game is "
        "written to the run folder (default results/web) in the league format, so `bangarena "
        "report` and `league report` read it. Model seats are configured like league players "
        "(--config: a YAML file with `players`, optional `name`, `output`, `locale`, "
        "`providers`, `spending`, `limits`); their API keys come from environment variables. "
        "Model seats always run under a spending cap (the config's `spending`, else a default "
        "printed at start). WebSockets are accepted only from the page this server serves, "
        "and requests only for the address it listens on, IP addresses and localhost, plus "
        "the --allow-origin and --allow-host lists. Behind a reverse proxy, name its public "
        "origin and host there and its own address in --forwarded-allow-ips, so that the "
        "per-address limits count the clients it forwards. Every limit is a field of the "
        "config's `limits` (README, Web table limits).",
    )
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    p.add_argument("--port", type=port, default=8000, help="TCP port")
    p.add_argument(
        "--config",
        metavar="FILE",
        help="YAML with model players and the run folder (default: no model players)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another page origin (https://host[:port]) whose WebSockets are accepted; "
        "repeatable, added to the config's allow_origins (default: only the served page)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST",
        help="another name this server answers to (a Host header); repeatable, added to the "
        "config's allow_hosts (default: the --host address, IP addresses and localhost)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        action="append",
        default=[],
        metavar="IPS",
        help="addresses or networks of reverse proxies whose X-Forwarded-For names the client "
        "(comma-separated, repeatable; added to the config's forwarded_allow_ips; default: "
        "none, every client is its socket's address)",
    )
    p.set_defaults(func=run)


def _check_bind(host: str, port: int) -> None:
    """Fail with one line (not a traceback) when the address cannot be used."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(addr)
    except OSError as e:
        raise address_error(host, port, e) from None


def run(args: argparse.Namespace) -> int:
    from harness.agents.llm_agent import FatalModelError
    from harness.play.config_files import ConfigError
    from harness.play.model_checks import PreflightError
    from harness.web import Registry, create_app, load_web_config
    from harness.web.proxies import split_entries
    from harness.web.server import table_server
    from harness.web.spending import caps_line, check_prices, server_caps
    from harness.web.web_config import with_allowed

    try:
        config = with_allowed(load_web_config(args.config), args.allow_origin, args.allow_host,
                              split_entries(args.forwarded_allow_ips))  # fmt: skip
    except ConfigError as e:
        raise CliError(str(e)) from None
    _check_bind(args.host, args.port)
    try:
        Registry(config).check_models()  # a missing API key stops here, with one line
        check_prices(config)  # a dollar cap needs every model's price
    except (FatalModelError, ImportError, ConfigError) as e:
        raise CliError(str(e)) from None
    except PreflightError as e:
        raise CliError(str(e).removeprefix("preflight: ")) from None
    models = ", ".join(config.model_players()) or "none"
    print(f"BangArena table on http://{args.host}:{args.port}/  (model seats: {models}; "
          f"games are written to {config.run_dir})", flush=True)  # fmt: skip
    print(caps_line(config, server_caps(config)), flush=True)
    if config.forwarded_allow_ips:
        print("X-Forwarded-For is believed from " + ", ".join(config.forwarded_allow_ips),
              flush=True)  # fmt: skip
    app = create_app(config, listen_host=args.host)
    table_server(app, config, host=args.host, port=args.port).run()
    return 0
