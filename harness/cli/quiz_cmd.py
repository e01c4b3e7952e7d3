"""``bangarena quiz build|run|report`` — the rules quiz — and ``bangarena bench quiz``.

* ``quiz build`` drafts questions from rule-bot games and writes ``quizzes/<name>.<locale>.jsonl``
  (``--check``: exit 2 when the shipped datasets differ from what the code builds now).
* ``quiz run CONFIG`` asks the config's model players (``--rules FILE``, repeatable: compare rules
  documents on the same questions) and writes ``RUN/quiz/<dataset>/``: ``answers.jsonl``,
  ``spend.jsonl``, ``summary.json`` and ``quiz.html``; prints accuracy with 95 % intervals.
* ``quiz report DIR`` prints the summary of a quiz folder again and rewrites its page.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any, get_args

from harness.league.league_config import load_config
from harness.paths import shipped
from harness.play.config_files import ConfigError
from harness.quiz.kinds import KIND_NAMES
from harness.quiz.quiz_records import Dataset, Locale, QuizError, read_dataset

from .args import positive_int
from .cli_errors import CliError
from .progress import Progress

DEFAULT_N = 300
DEFAULT_NAME = "core"
LOCALES = get_args(Locale)  # the languages of prompts/quiz


def register(sub: Any) -> None:
    p = sub.add_parser(
        "quiz",
        help="rules quiz: questions about real positions answered by the engine",
        description="A rules-comprehension benchmark: questions about positions reached by bot "
        "play, worded from one seat's view, with answers computed by the engine.",
    )
    qsub = p.add_subparsers(dest="quiz_command", required=True, parser_class=type(p))
    b = qsub.add_parser("build", help="write a quiz dataset (JSON Lines)")
    b.add_argument("--n", type=positive_int, default=DEFAULT_N, help="questions")
    b.add_argument("--seed", type=int, default=1, help="seed of the bot games and questions")
    b.add_argument(
        "--locale", choices=LOCALES, action="append", help="language (repeatable; default: en)"
    )
    b.add_argument("--name", default=DEFAULT_NAME, help="dataset name (file <name>.<locale>.jsonl)")
    b.add_argument(
        "--position",
        metavar="FILE",
        action="append",
        help="draft the questions from this position file instead of bot games (repeatable; "
        "every kind that can be asked there; default: bot games)",
    )
    b.add_argument("--out", metavar="DIR", help="folder of the files (default: quizzes/)")
    b.add_argument(
        "--check",
        action="store_true",
        help="only check that the datasets <name>.*.jsonl are up to date (exit 2 if stale)",
    )
    b.set_defaults(func=run_build)
    r = qsub.add_parser("run", help="ask the model players of a league config a quiz")
    r.add_argument("config", help="league config (YAML); its model players are asked")
    r.add_argument(
        "--dataset", metavar="FILE", help="quiz dataset (default: quizzes/core.<locale>.jsonl)"
    )
    r.add_argument(
        "--locale",
        choices=LOCALES,
        action="append",
        help="ask the shipped dataset in this language (repeatable: one model compared across "
        "languages on the same questions, in RUN/quiz/core/; default: the config's locale)",
    )
    r.add_argument(
        "--rules",
        metavar="FILE",
        action="append",
        help="rules document for the system prompt (repeatable, to compare documents on the "
        "same questions; default: rules_md/rules.<locale>.md)",
    )
    r.add_argument(
        "--limit",
        type=positive_int,
        help="ask only N questions, spread over kinds (default: all)",
    )
    r.add_argument(
        "--kinds",
        help=f"comma-separated kinds to ask ({', '.join(KIND_NAMES)}; default: all)",
    )
    r.add_argument("--out", metavar="DIR", help="folder (default: RUN/quiz/<dataset>)")
    r.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    r.set_defaults(func=run_quiz_cmd)
    rep = qsub.add_parser("report", help="print a quiz folder's summary and rewrite its page")
    rep.add_argument("dir", metavar="DIR", help="quiz folder (RUN/quiz/<dataset>)")
    rep.add_argument(
        "--dataset",
        metavar="FILE",
        help="dataset file (default: the copy the folder keeps of the dataset it was asked)",
    )
    rep.set_defaults(func=run_report)


def register_bench(bsub: Any) -> None:
    """Add ``quiz`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "quiz",
        help="quiz questions built per second and harness overhead per asked question",
        description="Builds quiz questions from bot games (timed), then asks each through the "
        "quiz's model path against an instant in-process provider; ends with one JSON line.",
    )
    p.add_argument("--questions", type=positive_int, default=200, help="questions to build")
    p.add_argument("--seed", type=int, default=1, help="build seed")
    p.add_argument("--locale", choices=LOCALES, default="en", help="language of the questions")
    p.set_defaults(func=run_bench)


# ----------------------------------------------------------------------------- build


def run_build(args: argparse.Namespace) -> int:
    from harness.quiz.build import QuizBuildError
    from harness.quiz.dataset import QUIZZES_DIR, stale, write_datasets

    directory = Path(args.out) if args.out else QUIZZES_DIR
    if args.check:
        paths = sorted(directory.glob(f"{args.name}.*.jsonl"))
        if not paths:
            raise CliError(f"no dataset {args.name}.*.jsonl in {directory}")
        try:
            old = stale(paths)
        except QuizError as e:
            raise CliError(str(e)) from None
        if old:
            h = read_dataset(old[0]).header
            locales = " ".join(f"--locale {p.name.split('.')[-2]}" for p in old)
            raise CliError(
                f"stale: {', '.join(str(p) for p in old)} (run: bangarena quiz build --n {h.n} "
                f"--seed {h.seed} --name {h.name} {locales})"
            )
        print(f"{', '.join(str(p) for p in paths)}: up to date")
        return 0
    try:
        written = write_datasets(
            args.n, args.seed, args.locale or ["en"], args.name, directory, args.position
        )
    except (QuizBuildError, QuizError) as e:
        raise CliError(str(e)) from None
    for path in written:
        print(f"wrote {path} ({read_dataset(path).header.questions} questions)")
    return 0


# ----------------------------------------------------------------------------- run


def _dataset(path: str | Path) -> Dataset:
    try:
        return read_dataset(shipped(path))  # quizzes/core.en.jsonl: the shipped one, anywhere
    except QuizError as e:
        raise CliError(str(e)) from None


def run_quiz_cmd(args: argparse.Namespace) -> int:
    from harness.quiz.dataset import dataset_path
    from harness.quiz.run import QuizStopped, check_keys, rules_doc, run_quiz, select_questions

    try:
        config = load_config(args.config)
    except ConfigError as e:
        raise CliError(str(e)) from None
    if not config.has_models:
        raise CliError(f"{args.config}: the config has no model players to quiz")
    if args.dataset and args.locale:
        raise CliError("give --dataset or --locale, not both")
    locales = list(dict.fromkeys(args.locale or [config.locale]))
    if args.dataset:
        datasets = [_dataset(args.dataset)]
    else:
        datasets = [_dataset(dataset_path(DEFAULT_NAME, loc)) for loc in locales]
    ids = [q.id for q in datasets[0].questions]
    for ds in datasets[1:]:
        if [q.id for q in ds.questions] != ids:
            raise CliError(f"{ds.label} does not hold the questions of {datasets[0].label}")
    kinds = None
    if args.kinds:
        kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
        unknown = [k for k in kinds if k not in KIND_NAMES]
        if unknown:
            raise CliError(f"unknown kind {unknown[0]!r}; kinds: {', '.join(KIND_NAMES)}")
    picked = {q.id for q in select_questions(datasets[0], args.limit, kinds)}
    if not picked:
        raise CliError("no question of those kinds in the dataset")
    try:
        docs = {
            ds.label: [rules_doc(path, ds.header.locale) for path in (args.rules or [None])]
            for ds in datasets
        }
    except QuizError as e:
        raise CliError(str(e)) from None
    if any(len({d.sha256 for d in ds_docs}) != len(ds_docs) for ds_docs in docs.values()):
        raise CliError("the same rules document is given twice")
    try:  # no key: one line, nothing written
        check_keys(config)
    except QuizStopped as e:
        raise CliError(str(e)) from None
    folder = datasets[0].label if len(datasets) == 1 else datasets[0].header.name
    out = Path(args.out) if args.out else Path(config.output) / config.name / "quiz" / folder
    players = sum(p.model is not None for p in config.players)
    total = players * sum(len(d) for d in docs.values()) * len(picked)
    answers: list[Any] = []
    stopped: str | None = None
    asked = 0
    with Progress("quiz", total, unit="answers", enabled=not args.no_progress) as bar:
        for ds in datasets:
            questions = [q for q in ds.questions if q.id in picked]
            try:
                result = asyncio.run(
                    run_quiz(
                        config, ds, docs[ds.label], out, questions=questions,
                        on_answer=lambda a: bar.advance(),
                    )
                )  # fmt: skip
            except (QuizStopped, QuizError) as e:
                raise CliError(str(e)) from None
            answers = result.answers
            asked += result.asked
            if result.stopped is not None:
                stopped = result.stopped
                break
    if answers:
        _write_results(config.name, datasets[0], out, answers)
    if stopped is not None:
        raise CliError(f"{stopped}; {asked} answers written to {out} (run again to continue)")
    return 0


def _write_results(run: str, dataset: Dataset, out: Path, answers: list[Any]) -> None:
    from harness.quiz.quiz_summary import summarize, write_summary
    from harness.quiz.text import summary_text
    from harness.report.quiz_page import write_quiz_page

    summary = summarize(run, dataset, answers)
    write_summary(out, summary)
    page = write_quiz_page(out, summary, dataset, answers)
    print(summary_text(summary))
    print(f"answers: {out / 'answers.jsonl'} · page: {page}")


def run_report(args: argparse.Namespace) -> int:
    from harness.quiz.run import (
        ANSWERS_FILE,
        answered_dataset_path,
        dataset_sha256,
        read_answers,
    )

    out = Path(args.dir)
    try:
        answers = read_answers(out / ANSWERS_FILE)
    except QuizError as e:
        raise CliError(str(e)) from None
    if not answers:
        raise CliError(f"{out}: no quiz answers ({ANSWERS_FILE}) in this folder")
    path = args.dataset or answered_dataset_path(out, answers[0].dataset)
    dataset = _dataset(path)
    if dataset_sha256(dataset) != answers[0].dataset_sha256:
        raise CliError(f"{out}: the answers are to another version of {dataset.label} than {path}")
    for label, sha in {a.dataset: a.dataset_sha256 for a in answers}.items():
        if label != dataset.label:  # the dataset in another language: the same questions
            other_path = answered_dataset_path(out, label)
            if dataset_sha256(_dataset(other_path)) != sha:
                raise CliError(
                    f"{out}: the answers are to another version of {label} than {other_path}"
                )
    _write_results(answers[0].run, dataset, out, answers)
    return 0


# ----------------------------------------------------------------------------- bench


def run_bench(args: argparse.Namespace) -> int:
    from harness.bench import quiz

    return quiz.run(args.questions, args.seed, args.locale)
