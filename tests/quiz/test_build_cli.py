"""``bangarena quiz build`` (and ``--check``), ``bangarena bench quiz``, and the quiz page linked
from a league run's HTML report."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.quiz.quiz_records import read_dataset
from harness.quiz.quiz_summary import summarize, write_summary
from harness.quiz.run import QuizAnswer
from harness.report.quiz_page import write_quiz_page


def test_build_writes_both_locales_and_check_finds_stale_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["quiz", "build", "--n", "12", "--seed", "3", "--out", str(tmp_path)]
    assert main([*args, "--locale", "en", "--locale", "ru"]) == 0
    en, ru = read_dataset(tmp_path / "core.en.jsonl"), read_dataset(tmp_path / "core.ru.jsonl")
    assert (en.header.n, en.header.seed, len(en.questions)) == (12, 3, 12)
    assert [q.answer for q in en.questions] == [q.answer for q in ru.questions]
    assert en.questions[0].text != ru.questions[0].text
    assert main(["quiz", "build", "--check", "--out", str(tmp_path)]) == 0
    # a hand-edited answer makes the file stale: one line, exit code 2
    path = tmp_path / "core.ru.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    q = json.loads(lines[1])
    q["answer"] = ["edited"]
    path.write_text("\n".join([lines[0], json.dumps(q, ensure_ascii=False), *lines[2:]]) + "\n")
    capsys.readouterr()
    assert main(["quiz", "build", "--check", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "stale:" in err and "core.ru.jsonl" in err
    assert "core.en.jsonl" not in err.split("(run:")[0]


def test_bench_prints_figures_and_a_final_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "quiz", "--questions", "10"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures["benchmark"] == "quiz" and figures["questions"] == figures["asked"] == 10
    assert figures["questions_per_s"] > 0 and figures["overhead_median_ms"] > 0
    assert any("questions built per second" in line for line in lines)


def test_the_league_report_links_the_runs_quiz_page(tmp_path: Path) -> None:
    """``bangarena report RUN`` copies ``RUN/quiz/<dataset>/quiz.html`` and links it."""
    from harness.league.league_config import parse_config
    from harness.league.runner import LeagueRunner, run_dir_for

    config = parse_config(
        {
            "name": "tiny",
            "players": [{"name": "b1", "kind": "bot"}, {"name": "b2", "kind": "random"}],
            "tables": [{"seats": [4]}],
            "games_per_table": 1,
            "output": str(tmp_path),
            "workers": 1,
        }
    )
    asyncio.run(LeagueRunner(config, run_dir_for(config)).run())
    run = run_dir_for(config)
    dataset = read_dataset(Path(__file__).resolve().parents[2] / "quizzes" / "core.en.jsonl")
    q = dataset.questions[0]
    answer = QuizAnswer(
        run="tiny", dataset=dataset.label, dataset_sha256="x", question_id=q.id, kind=q.kind,
        mode=q.mode, seats=q.seats, answer_shape=q.answer_shape, player="p", model="openai:m",
        rules="rules.en.md", rules_sha256="0" * 64, expected=q.answer, given=[], exact=False,
        f1=0.0, record={},
    )  # fmt: skip
    folder = run / "quiz" / dataset.label
    folder.mkdir(parents=True)
    write_summary(folder, summarize("tiny", dataset, [answer]))
    write_quiz_page(folder, summarize("tiny", dataset, [answer]), dataset, [answer])
    assert main(["report", str(run), "--no-progress", "--workers", "1"]) == 0
    index = (run / "report" / "index.html").read_text(encoding="utf-8")
    assert 'href="quiz-core.en.html"' in index
    page = (run / "report" / "quiz-core.en.html").read_text(encoding="utf-8")
    assert q.id in page and "rules.en.md" in page


def test_questions_from_a_position_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--position FILE``: every kind that can be asked at the position (docs/positions.md)."""
    from harness.quiz.kinds import KIND_BY_NAME
    from harness.quiz.worlds import load

    position = Path(__file__).resolve().parents[1] / "positions" / "duel_example.json"
    args = ["quiz", "build", "--position", str(position), "--name", "duel", "--out", str(tmp_path)]
    assert main(args) == 0
    ds = read_dataset(tmp_path / "duel.en.jsonl")
    assert ds.header.positions == [str(position)] and len(ds.questions) >= 6
    for q in ds.questions:
        assert q.source.play == "position" and q.source.file == "duel_example.json"
        assert (
            list(KIND_BY_NAME[q.kind].answer(load(q.position), q.seat, q.params) or []) == q.answer
        )
    assert main(["quiz", "build", "--check", "--name", "duel", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main([*args[:3], str(tmp_path / "missing.json"), *args[4:]]) == 2
    assert "cannot read position file" in capsys.readouterr().err
