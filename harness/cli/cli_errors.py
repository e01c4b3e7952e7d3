"""The one error type the command line turns into a one-line message and exit code 2."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

from harness.agents.key_redaction import redact


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


def _file_above(path: Path) -> Path | None:
    """The nearest part of ``path`` (itself or a parent) that is a file, not a folder."""
    for part in (path, *path.parents):
        if part.is_file():
            return part
    return None


def check_folder(path: Path, doing: str) -> None:
    """A :class:`CliError` (``<doing> <path>: <why>``) when the folder ``path`` cannot be made or
    written: a file stands where a folder must be, or the nearest existing folder is not
    writable.  Creates nothing."""
    above = _file_above(path)
    if above is not None:
        raise CliError(
            f"{doing} {path}: {'it' if above == path else above} is a file, not a folder"
        )
    existing = next((p for p in (path, *path.parents) if p.exists()), None)
    if existing is not None and not os.access(existing, os.W_OK | os.X_OK):
        raise CliError(f"{doing} {path}: {existing} is not writable")


def path_error(error: OSError, doing: str = "cannot use") -> CliError:
    """The one line for a path the command could not read or write: ``<doing> <path>: <why>``,
    where a file standing where a folder must be is named."""
    path = Path(os.fsdecode(error.filename)) if error.filename is not None else None
    why = error.strerror or str(error)
    if path is not None and error.errno in (errno.ENOTDIR, errno.EEXIST):
        above = _file_above(path)
        if above is not None:
            why = f"{'it' if above == path else above} is a file, not a folder"
    where = f" {path}" if path is not None else ""
    return CliError(f"{doing}{where}: {why}")
