"""How ``--help`` shows options: every option's help ends with its default.

Like :class:`argparse.ArgumentDefaultsHelpFormatter`, but an option whose help already names its
default (``"processes (default: all CPUs)"``) is left alone, and on/off flags are not given a
"(default: False)".  An option whose default is ``None`` must say in its help what happens when
it is not given (``tests/cli/test_help.py`` checks every option of every command).
"""

from __future__ import annotations

import argparse

__all__ = ["DefaultsHelpFormatter", "shows_default"]

_FLAGS = (
    argparse._HelpAction,
    argparse._VersionAction,
    argparse._StoreTrueAction,
    argparse._StoreFalseAction,
    argparse._StoreConstAction,
    argparse._CountAction,
)


def shows_default(action: argparse.Action) -> bool:
    """True when the option's default is worth printing after its help text."""
    return bool(action.option_strings) and not action.required and not isinstance(action, _FLAGS)


class DefaultsHelpFormatter(argparse.HelpFormatter):
    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if (
            not shows_default(action)
            or "default" in text.lower()
            or action.default in (None, argparse.SUPPRESS)
        ):
            return text
        return f"{text} (default: %(default)s)" if text else "(default: %(default)s)"
