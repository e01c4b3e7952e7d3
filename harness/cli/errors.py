"""The one error type the command line turns into a one-line message and exit code 2."""

from __future__ import annotations


class CliError(Exception):
    """Bad input from the user: printed as ``bangarena: error: <message>``, exit code 2."""
