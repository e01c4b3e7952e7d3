"""Redaction of everything written to a run's files, cheap when there is nothing to redact.

:func:`redact_text` returns exactly what :func:`harness.agents.key_redaction.redact` returns for any
text.  Before running that function's regular expressions (which try a match at every position
of the text: milliseconds for a game file) it checks, with substring searches, whether the text
can hold anything they replace:

* the value of a key-holding environment variable (:func:`harness.agents.key_redaction.secret_values`);
* ``sk-``, ``Bearer `` or ``bearer `` (every key shape starts with or follows one of them);
* a key assignment: ``key``, ``token``, ``secret`` or ``password`` (every name the assignment
  pattern accepts ends with one of them) followed by the separator and at least 16 value
  characters.  The search runs on ``text.casefold()``, which maps every character the
  case-insensitive pattern accepts onto the lower-case form checked here (the Kelvin sign to
  ``k``, the long s to ``s``; dotted and dotless i, which the pattern's value accepts too, are
  kept in the value class as they fold).

Texts that pass none of the checks are returned unchanged; the others go through the full
redaction, once, whole.
"""

from __future__ import annotations

import re

from harness.agents.key_redaction import redact, secret_values

__all__ = ["may_hold_secret", "redact_text"]

_STEMS = ("key", "token", "secret", "password")
# What follows the name in harness.agents.key_redaction's key-assignment pattern, case-folded.
_ASSIGNED = re.compile(r"""(?:\\?["'])?\s*[=:]\s*(?:\\?["'])?[a-z0-9._~+/\-\u0131\u0307]{16}""")


def _key_assignment_possible(text: str) -> bool:
    folded = text.casefold()
    for stem in _STEMS:
        at = folded.find(stem)
        while at >= 0:
            end = at + len(stem)
            if _ASSIGNED.match(folded, end):
                return True
            at = folded.find(stem, end)
    return False


def may_hold_secret(text: str) -> bool:
    """Whether :func:`harness.agents.key_redaction.redact` could change ``text`` (never a false no)."""
    if "sk-" in text or "Bearer " in text or "bearer " in text:
        return True
    if any(v in text for v in secret_values()):
        return True
    return _key_assignment_possible(text)


def redact_text(text: str) -> str:
    """``text`` with every key value and key-shaped string replaced, as
    :func:`harness.agents.key_redaction.redact` does, at the cost of a few substring searches when
    there is none."""
    return redact(text) if text and may_hold_secret(text) else text
