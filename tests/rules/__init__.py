"""RULES.md scenario tests.

The only code here makes the repository root importable under a plain ``pytest tests/rules``
(the ``harness`` package is not installed in the venv; ``tests/agents/conftest.py`` does the same).
"""

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
