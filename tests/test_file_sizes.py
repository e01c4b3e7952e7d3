"""No file over ~600 lines except data (issue 38): every Python module under `harness/` and
`tests/` and every script the package serves (`harness/**/*.js`) stays at most :data:`MAX_LINES`
lines, so a file holds one job a reader can take in.  Data files are named in :data:`DATA_FILES`,
a short list kept explicit."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600
# Data, not code: the page's words in every language.
DATA_FILES = frozenset({"harness/web/static/i18n.js"})


def checked_files(root: Path) -> list[Path]:
    """The files held to the limit: ``harness/`` and ``tests/`` ``.py``, ``harness/`` ``.js``."""
    files = [*root.glob("harness/**/*.py"), *root.glob("tests/**/*.py")]
    files += root.glob("harness/**/*.js")
    return sorted(p for p in files if "__pycache__" not in p.parts)


def too_long(root: Path, data: frozenset[str] = DATA_FILES) -> dict[str, int]:
    """Each checked file under ``root`` over :data:`MAX_LINES` lines (data files left out), with
    its line count, by path relative to ``root``."""
    out = {}
    for path in checked_files(root):
        rel = path.relative_to(root).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and rel not in data:
            out[rel] = lines
    return out


def test_no_code_file_is_over_600_lines() -> None:
    long = too_long(ROOT)
    assert not long, "files over 600 lines (split them by job):\n" + "\n".join(
        f"{path}: {n}" for path, n in long.items()
    )


def test_the_data_files_exist_and_the_check_covers_the_page_scripts() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in checked_files(ROOT)}
    assert names >= DATA_FILES, DATA_FILES - names
    assert {"harness/web/static/main.js", "harness/report/static/report.js"} <= names
    assert "tests/test_file_sizes.py" in names


def test_a_long_file_is_found_and_a_data_file_is_not(tmp_path: Path) -> None:
    for rel, n in (
        ("harness/a/long.py", 601),
        ("harness/a/ok.py", 600),
        ("harness/web/static/page.js", 700),
        ("harness/web/static/i18n.js", 900),
        ("tests/b/test_long.py", 650),
        ("harness/web/static/style.css", 900),  # not code the check covers
        ("harness/a/__pycache__/long.py", 900),
    ):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x\n" * n, encoding="utf-8")
    assert too_long(tmp_path) == {
        "harness/a/long.py": 601,
        "harness/web/static/page.js": 700,
        "tests/b/test_long.py": 650,
    }
