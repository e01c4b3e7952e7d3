"""The one error type the command line turns into a one-line message and exit code 2."""

from __future__ import annotations

import errno
import socket

from harness.agents.redact import redact


class CliError(Exception):
    """Bad input from the user: printed as ``bangarena: error: <message>``, exit code 2."""


def error_line(error: BaseException) -> str:
    """The stderr line for ``error``: ``bangarena: error: <message>`` on one line, with API keys
    redacted."""
    lines = (line.strip() for line in redact(str(error)).splitlines())
    return f"bangarena: error: {' '.join(line for line in lines if line)}\n"


def address_error(host: str, port: int, error: OSError) -> CliError:
    """The one line for an address a server cannot listen on."""
    if isinstance(error, socket.gaierror):
        return CliError(f"cannot resolve host {host!r}")
    why = "is already in use" if error.errno == errno.EADDRINUSE else f"({error.strerror})"
    return CliError(f"cannot listen on {host}:{port}: the address {why}")
