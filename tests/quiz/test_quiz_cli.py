"""``bangarena quiz run|report`` against fake model servers on 127.0.0.1: the questions reach the
model through the shared LLMAgent (strict parsing, corrections, records, spend ledger, caps),
answers are scored by exact match and set F1, the summary has Wilson intervals and a random
baseline per kind, two rules documents are compared on the same questions, and the HTML page
shows every answer next to the right one."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.league.stats_basic import wilson
from harness.play.ledger import SPEND_FILE, SpendLedger
from harness.quiz.quiz_records import Dataset, read_dataset, write_dataset
from harness.quiz.quiz_summary import SUMMARY_FILE, read_summary
from harness.quiz.run import ANSWERS_FILE, read_answers
from tests.fakes.anthropic_server import FakeAnthropicServer
from tests.fakes.backends import KEY_ENV, SECRET_KEY
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.script import Malformed, Status
from tests.quiz.conftest import SHIPPED
from tests.quiz.fake_models import answering, model_player, right, write_config, wrong

SHORT_RULES = Path(__file__).parent / "data" / "short_rules.en.md"


@pytest.fixture
def openai_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    server = FakeOpenAIServer().start()
    try:
        yield server  # type: ignore[misc]
    finally:
        server.stop()


def quiz_dir(cfg: Path) -> Path:
    return cfg.parent / "results" / "quizzed" / "quiz" / "core.en"


def run(cfg: Path, *extra: str) -> int:
    return main(["quiz", "run", str(cfg), "--no-progress", *extra])


def test_a_model_that_knows_the_rules_scores_everything(
    tmp_path: Path,
    openai_server: FakeOpenAIServer,
    shipped: dict[str, Dataset],
    capsys: pytest.CaptureFixture[str],
) -> None:
    ds = shipped["en"]
    openai_server.script.default = answering(ds, right)
    cfg = write_config(tmp_path / "q.yaml", [model_player("oracle", openai_server)])
    assert run(cfg, "--limit", "20") == 0
    out = capsys.readouterr().out
    folder = quiz_dir(cfg)
    answers = read_answers(folder / ANSWERS_FILE)
    assert len(answers) == 20 and all(a.exact and a.f1 == 1.0 for a in answers)
    assert set(Counter(a.kind for a in answers).values()) == {2}  # spread over the ten kinds
    texts = {q.id: q.text for q in ds.questions}
    for a in answers:  # each answer carries the decision record of its one model call
        assert a.record["messages"][0]["content"] == texts[a.question_id]
        assert a.record["fallback"] is None and len(a.record["attempts"]) == 1
        assert a.record["answer_mode"] == "json_object"
    # the system prompt is the rules document, stored once
    prompts = [json.loads(x) for x in (folder / "system_prompts.jsonl").read_text().splitlines()]
    rules = (SHIPPED["en"].parents[1] / "rules_md" / "rules.en.md").read_text().strip()
    assert len(prompts) == 1 and rules in prompts[0]["text"]
    assert SpendLedger(folder / SPEND_FILE).calls == 20 == len(openai_server.script.model_requests)
    summary = read_summary(folder / SUMMARY_FILE)
    (arm,) = summary.arms
    assert (arm.overall.k, arm.overall.n, arm.overall.accuracy) == (20, 20, 1.0)
    assert (arm.overall.lo, arm.overall.hi) == pytest.approx(wilson(20, 20))
    assert arm.overall.baseline_accuracy is not None and arm.overall.baseline_accuracy < 0.5
    assert set(arm.by_kind) == set(summary.baseline) - {"overall"}
    assert "accuracy 100.0 % [84–100] n=20" in out
    page = (folder / "quiz.html").read_text()
    assert all(a.question_id in page for a in answers) and "✓" in page and "✗" not in page


def test_wrong_and_unreadable_answers_score_nothing(
    tmp_path: Path, openai_server: FakeOpenAIServer, shipped: dict[str, Dataset]
) -> None:
    ds = shipped["en"]
    cfg = write_config(tmp_path / "q.yaml", [model_player("m", openai_server)])
    openai_server.script.default = answering(ds, wrong)
    assert run(cfg, "--limit", "10") == 0
    answers = read_answers(quiz_dir(cfg) / ANSWERS_FILE)
    assert len(answers) == 10 and not any(a.exact for a in answers)
    assert all(a.given is not None and a.fallback is None for a in answers)
    sets = [a for a in answers if a.answer_shape == "set"]
    assert sets and all(a.f1 < 1.0 for a in sets)
    # prose instead of the JSON object: one corrective re-prompt, then no answer
    openai_server.script.default = lambda body: Malformed("I think the answer is the first one.")
    prose = tmp_path / "prose"
    assert run(cfg, "--kinds", "legal,hp_after", "--limit", "4", "--out", str(prose)) == 0
    fresh = read_answers(prose / ANSWERS_FILE)
    assert len(fresh) == 4 and {a.kind for a in fresh} == {"legal", "hp_after"}
    for a in fresh:
        assert (a.exact, a.f1, a.fallback) == (False, 0.0, "invalid_answer")
        attempts = a.record["attempts"]
        assert [x["error_kind"] for x in attempts] == ["unparseable", "unparseable"]
        correction = a.record["messages"][2]["content"]
        fmt = '{"answer": ["<option id>", ...]}' if a.answer_shape == "set" else '{"choice"'
        assert fmt in correction


def test_an_id_outside_the_candidates_is_corrected(
    tmp_path: Path, openai_server: FakeOpenAIServer, shipped: dict[str, Dataset]
) -> None:
    ds = shipped["en"]
    good = answering(ds, right)
    calls: list[int] = []

    def first_wrong_id(body: dict) -> Malformed:
        calls.append(1)
        if len(calls) == 1:
            return Malformed(json.dumps({"answer": ["not-a-candidate"]}))
        return good(body)  # type: ignore[return-value]

    openai_server.script.default = first_wrong_id
    cfg = write_config(tmp_path / "q.yaml", [model_player("m", openai_server)])
    assert run(cfg, "--kinds", "legal", "--limit", "1") == 0
    (a,) = read_answers(quiz_dir(cfg) / ANSWERS_FILE)
    assert a.exact and [x["error_kind"] for x in a.record["attempts"]] == ["illegal_option", None]
    assert "not one of the listed option ids" in a.record["messages"][2]["content"]


def test_two_rules_documents_are_compared_on_the_same_questions(
    tmp_path: Path,
    openai_server: FakeOpenAIServer,
    shipped: dict[str, Dataset],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A model that answers right only under the short document: the two arms differ."""
    ds = shipped["en"]
    by_right = answering(ds, right)
    by_wrong = answering(ds, wrong)

    def depends_on_rules(body: dict) -> Malformed:
        system = body["messages"][0]["content"]
        return (by_right if "Short rules" in system else by_wrong)(body)  # type: ignore[return-value]

    openai_server.script.default = depends_on_rules
    cfg = write_config(tmp_path / "q.yaml", [model_player("m", openai_server)])
    full = SHIPPED["en"].parents[1] / "rules_md" / "rules.en.md"
    args = ("--limit", "10", "--rules", str(full), "--rules", str(SHORT_RULES))
    assert run(cfg, *args) == 0
    summary = read_summary(quiz_dir(cfg) / SUMMARY_FILE)
    arms = {a.rules: a for a in summary.arms}
    assert arms["short_rules.en.md"].overall.accuracy == 1.0
    assert arms["rules.en.md"].overall.accuracy == 0.0
    assert arms["rules.en.md"].overall.hi < arms["short_rules.en.md"].overall.lo
    out = capsys.readouterr().out
    assert "2 arms" in out and "short_rules.en.md" in out
    # asking again asks nothing: every answer is already in the folder
    before = len(openai_server.script.model_requests)
    assert run(cfg, *args) == 0
    assert len(openai_server.script.model_requests) == before
    assert len(read_answers(quiz_dir(cfg) / ANSWERS_FILE)) == 20
    # the report command prints the same summary again and rewrites the page
    capsys.readouterr()
    assert main(["quiz", "report", str(quiz_dir(cfg))]) == 0
    assert "2 arms" in capsys.readouterr().out


def test_a_spending_cap_stops_the_quiz_and_a_rerun_respects_it(
    tmp_path: Path,
    openai_server: FakeOpenAIServer,
    shipped: dict[str, Dataset],
    capsys: pytest.CaptureFixture[str],
) -> None:
    openai_server.script.default = answering(shipped["en"], right)
    openai_server.script.usage_tokens = 50_000
    cfg = write_config(
        tmp_path / "q.yaml",
        [model_player("m", openai_server)],
        spending={"max_tokens": 120_000},
        max_concurrent_games=1,
    )
    assert run(cfg, "--limit", "20") == 2
    err = capsys.readouterr().err
    assert err.startswith("bangarena: error: token cap reached") and err.count("\n") == 1
    kept = read_answers(quiz_dir(cfg) / ANSWERS_FILE)
    assert 2 <= len(kept) < 20
    assert SpendLedger(quiz_dir(cfg) / SPEND_FILE).calls == len(kept)
    assert run(cfg, "--limit", "20") == 2
    assert "token cap reached" in capsys.readouterr().err
    assert len(read_answers(quiz_dir(cfg) / ANSWERS_FILE)) == len(kept)


def test_a_fatal_model_error_stops_the_quiz_in_one_line(
    tmp_path: Path, openai_server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rejected key is not papered over with no-answers: the quiz stops (exit 2)."""
    openai_server.script.default = lambda body: Status(401, message="bad key")
    cfg = write_config(tmp_path / "q.yaml", [model_player("m", openai_server)])
    assert run(cfg, "--limit", "20") == 2
    err = capsys.readouterr().err
    assert err.startswith("bangarena: error: openai model 'gpt-test'") and "401" in err
    assert err.count("\n") == 1 and SECRET_KEY not in err
    assert read_answers(quiz_dir(cfg) / ANSWERS_FILE) == []
    assert len(openai_server.script.model_requests) <= 4  # the calls already in flight


def test_a_missing_api_key_stops_the_quiz_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("QUIZ_TEST_NO_SUCH_KEY", raising=False)
    player = {"name": "m", "kind": "model",
              "model": {"provider": "openai", "model": "gpt-x", "api_key_env": "QUIZ_TEST_NO_SUCH_KEY"}}  # fmt: skip
    cfg = write_config(tmp_path / "q.yaml", [player])
    assert run(cfg, "--limit", "3") == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "QUIZ_TEST_NO_SUCH_KEY" in captured.err
    assert captured.out == ""  # no summary table of nothing
    assert not (tmp_path / "results").exists()  # and no quiz folder


def test_one_model_is_compared_across_languages_on_the_same_questions(
    tmp_path: Path,
    openai_server: FakeOpenAIServer,
    shipped: dict[str, Dataset],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--locale` repeated: the same questions (by id) in each language, one arm per language,
    a language column in the summary and on the page; the model here answers right only in
    English and Japanese."""
    behave = {loc: answering(ds, right if loc in ("en", "ja") else wrong)
              for loc, ds in shipped.items()}  # fmt: skip
    texts = {q.text: loc for loc, ds in shipped.items() for q in ds.questions}

    def by_language(body: dict) -> Malformed:
        users = [m for m in body["messages"] if m.get("role") == "user"]
        return behave[texts[users[0]["content"]]](body)  # type: ignore[return-value]

    openai_server.script.default = by_language
    cfg = write_config(tmp_path / "q.yaml", [model_player("m", openai_server)])
    locales = ["en", "zh", "ja", "ar", "ru"]
    assert run(cfg, "--limit", "10", *[x for loc in locales for x in ("--locale", loc)]) == 0
    out = capsys.readouterr().out
    folder = cfg.parent / "results" / "quizzed" / "quiz" / "core"
    answers = read_answers(folder / ANSWERS_FILE)
    assert len(answers) == 50
    by_locale: dict[str, set[str]] = {}
    for a in answers:
        by_locale.setdefault(a.locale, set()).add(a.question_id)
    assert set(by_locale) == set(locales) and len({frozenset(v) for v in by_locale.values()}) == 1
    summary = read_summary(folder / SUMMARY_FILE)
    assert [a.locale for a in summary.arms] == locales
    assert [a.overall.accuracy for a in summary.arms] == [1.0, 0.0, 1.0, 0.0, 0.0]
    assert [a.rules for a in summary.arms] == [f"rules.{loc}.md" for loc in locales]
    for i, loc in enumerate(locales, 1):
        assert f"[{i}] m (openai:gpt-test) · {loc} · rules rules.{loc}.md" in out
        assert f"[{i}] {loc} accuracy" in out
    page = (folder / "quiz.html").read_text(encoding="utf-8")
    assert "<th>language</th>" in page and "<td>zh</td>" in page
    # running again asks nothing; the report rewrites the same summary
    assert run(cfg, "--limit", "10", *[x for loc in locales for x in ("--locale", loc)]) == 0
    assert len(read_answers(folder / ANSWERS_FILE)) == 50
    assert main(["quiz", "report", str(folder)]) == 0
    assert [a.locale for a in read_summary(folder / SUMMARY_FILE).arms] == locales


def test_anthropic_tool_answers_carry_the_set_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shipped: dict[str, Dataset]
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    server = FakeAnthropicServer().start()
    try:
        server.script.default = answering(shipped["en"], right)
        cfg = write_config(tmp_path / "q.yaml", [model_player("claude", server, "anthropic")])
        assert run(cfg, "--kinds", "reach,cover_check", "--limit", "2") == 0
        answers = read_answers(quiz_dir(cfg) / ANSWERS_FILE)
        assert len(answers) == 2 and all(a.exact for a in answers)
        schemas = [r.body["tools"][0]["input_schema"] for r in server.script.model_requests]
        kinds = {tuple(s["properties"]) for s in schemas}
        assert kinds == {("answer", "reason"), ("choice", "reason")}
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--dataset", "missing.jsonl"), "cannot read quiz dataset"),
        (("--kinds", "legal,nonsense"), "unknown kind 'nonsense'"),
        (("--rules", "no/such/rules.md"), "cannot read rules document"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path,
    openai_server: FakeOpenAIServer,
    capsys: pytest.CaptureFixture[str],
    extra: tuple[str, ...],
    message: str,
) -> None:
    cfg = write_config(tmp_path / "q.yaml", [model_player("m", openai_server)])
    assert run(cfg, *extra) == 2
    err = capsys.readouterr().err
    assert err.startswith("bangarena: error: ") and message in err and err.count("\n") == 1
    assert not openai_server.script.model_requests


def test_a_config_without_model_players_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = write_config(tmp_path / "q.yaml", [])
    assert run(cfg) == 2
    assert "no model players" in capsys.readouterr().err


def test_the_report_reads_the_dataset_the_answers_came_from(
    tmp_path: Path,
    openai_server: FakeOpenAIServer,
    shipped: dict[str, Dataset],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`quiz run --dataset FILE` with a dataset of the shipped name but other questions: `quiz
    report` reads the copy the folder keeps, not the shipped file (issue 36); a folder without
    the copy names the file it compared against, and `--dataset FILE` reads that one."""
    ds = shipped["en"]
    own = tmp_path / "mine" / "core.en.jsonl"
    header = ds.header.model_copy(update={"seed": ds.header.seed + 1, "questions": 12})
    write_dataset(own, header, ds.questions[:12])
    openai_server.script.default = answering(ds, right)
    cfg = write_config(tmp_path / "q.yaml", [model_player("m", openai_server)])
    assert run(cfg, "--dataset", str(own), "--limit", "6") == 0
    folder = quiz_dir(cfg)
    kept = folder / "core.en.jsonl"
    assert read_dataset(kept) == read_dataset(own)
    own.unlink()  # the report needs only the quiz folder
    capsys.readouterr()
    assert main(["quiz", "report", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "accuracy 100.0 %" in out
    kept.rename(tmp_path / "elsewhere.jsonl")  # a folder from before the copy was kept
    assert main(["quiz", "report", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"bangarena: error: {folder}: the answers are to another version of core.en than "
        f"{SHIPPED['en']}\n"
    )
    assert (
        main(["quiz", "report", str(folder), "--dataset", str(tmp_path / "elsewhere.jsonl")]) == 0
    )
