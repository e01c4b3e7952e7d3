"""Where the project's data folders live.

Run from a checkout (or an editable install), the repository root holds ``prompts/``,
``rules_md/``, ``configs/`` and ``quizzes/``, and runs are written to its ``results/``.  Installed
from a wheel, the same folders are in ``<prefix>/share/bangarena`` (the wheel's data files) and
runs are written to ``results/`` in the working directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

SHARE = Path("share") / "bangarena"


def data_root(package_dir: Path, prefix: Path) -> Path:
    """The folder holding ``prompts/`` for a ``harness`` package at ``package_dir``: its checkout,
    else the installed data files under ``prefix``."""
    checkout = package_dir.parent
    return checkout if (checkout / "prompts").is_dir() else prefix / SHARE


_CHECKOUT = Path(__file__).resolve().parents[1]
ROOT = data_root(_CHECKOUT / "harness", Path(sys.prefix))
PROMPTS_DIR = ROOT / "prompts"
RULES_MD_DIR = ROOT / "rules_md"
CONFIGS_DIR = ROOT / "configs"
# a checkout keeps its runs beside the code; an installed harness writes where it is run
RESULTS_DIR = ROOT / "results" if ROOT == _CHECKOUT else Path("results")


def shipped(path: str | Path, root: Path = ROOT) -> Path:
    """``path`` as given when it exists (or is absolute); else, for a relative path, the same path
    under ``root`` when that exists — the shipped copy, so ``configs/quickstart.yaml`` names the
    installed ``<prefix>/share/bangarena/configs/quickstart.yaml`` from any directory."""
    given = Path(path)
    if given.is_absolute() or given.exists():
        return given
    installed = root / given
    return installed if installed.is_file() else given
