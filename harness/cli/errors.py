"""The one error type the command line turns into a one-line message and exit code 2."""

from __future__ import annotations

from harness.agents.redact import redact


class CliError(Exception):
    """Bad input from the user: printed as ``bangarena: error: <message>``, exit code 2."""


def error_line(error: BaseException) -> str:
    """The stderr line for ``error``: ``bangarena: error: <message>`` on one line, with API keys
    redacted."""
    lines = (line.strip() for line in redact(str(error)).splitlines())
    return f"bangarena: error: {' '.join(line for line in lines if line)}\n"
