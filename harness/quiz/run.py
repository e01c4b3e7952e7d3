"""``quiz run CONFIG``: ask the model players of a league config every question of a dataset.

The models are asked exactly as they are at a game table — the same providers behind the same
per-provider limits and spend ledger (:class:`~harness.play.model_seats.ModelSeats`), the same
:class:`~harness.agents.llm_agent.LLMAgent` (answer modes, strict parsing, corrective re-prompts,
retries, deadlines, response cache, decision records) built from each player's spec — with the
rules document under test as the system prompt (:func:`harness.quiz.question_wording.system_prompt`) and
the question text as the one user message.  Single answers use the game answer object
``{"choice": id}``; set answers ``{"answer": [ids]}``.

Each answer is one :class:`QuizAnswer` line in ``OUT/answers.jsonl`` (appended and flushed, its
full decision record inside), so a stopped run keeps every answer; running again asks only what
is missing (a new ``--rules`` document adds its answers next to the others).  The dataset asked
is kept beside them as ``OUT/<name>.<locale>.jsonl``, so ``quiz report`` reads the questions the
answers came from, whichever file they were asked from.  Every model call is
in ``OUT/spend.jsonl``; the config's spending caps count that ledger and stop the run (no call is
sent once a cap is passed).  A model that never answers validly in time scores as no answer; a
fatal model error (a missing or rejected key, an unknown model) stops the run.

Questions in flight per provider are at most its ``concurrency`` (and ``max_concurrent_games``),
so each question's timer (``decision_seconds``) starts when its call can be sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.key_redaction import redact
from harness.agents.llm_agent import FatalModelError, LLMAgent
from harness.agents.model_spec import build_llm_agent, build_provider
from harness.engine.roles import MIN_SEATS, MODES
from harness.paths import RULES_MD_DIR, shipped
from harness.play.ledger import cap_reached, current_game
from harness.play.model_checks import PreflightError, check_key
from harness.play.model_seats import ModelSeats
from harness.play.players import SeatSettings, SpendingCaps
from harness.records.store import read_records

from .question_wording import system_prompt
from .quiz_records import Dataset, QuizError, QuizQuestion, write_dataset
from .score import exact, f1

ANSWERS_FILE = "answers.jsonl"
DEFAULT_CONCURRENCY = 8  # a provider's calls at once when the config sets no limit (as games)
NO_ANSWER = "no_answer"


class QuizSettings(SeatSettings, Protocol):
    """What a quiz reads of its config (``quiz run CONFIG`` loads a league config): the model
    players and the settings their seats share (:class:`~harness.play.players.SeatSettings`),
    the run's name, its spending caps, and how many questions a provider is asked at once at
    most (``max_concurrent_games``)."""

    @property
    def name(self) -> str: ...
    @property
    def spending(self) -> SpendingCaps: ...
    @property
    def max_concurrent_games(self) -> int: ...


@dataclass(frozen=True)
class RulesDoc:
    """A rules document under test: a short label, its text and the text's sha256."""

    label: str
    text: str
    sha256: str

    @classmethod
    def from_text(cls, label: str, text: str) -> RulesDoc:
        return cls(label, text, hashlib.sha256(text.encode("utf-8")).hexdigest())


def rules_doc(path: str | Path | None, locale: str) -> RulesDoc:
    """The rules document at ``path`` (``rules_md/rules.en.md`` names the shipped one from any
    directory, see :func:`harness.paths.shipped`), or the shipped ``rules_md/rules.<locale>.md``."""
    p = shipped(path) if path is not None else RULES_MD_DIR / f"rules.{locale}.md"
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise QuizError(f"cannot read rules document {p}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise QuizError(f"rules document {p} is not UTF-8 text") from None
    if not text.strip():
        raise QuizError(f"rules document {p} is empty")
    return RulesDoc.from_text(p.name, text)


class QuizAnswer(BaseModel):
    """One model's answer to one question under one rules document."""

    model_config = ConfigDict(extra="forbid")

    type: Literal["answer"] = "answer"
    schema_version: Literal[1] = 1
    run: str
    dataset: str
    dataset_sha256: str
    question_id: str
    kind: str
    mode: str
    seats: int
    answer_shape: Literal["one", "set"]
    player: str
    model: str
    rules: str
    rules_sha256: str
    expected: list[str]
    given: list[str] | None  # None: no valid answer in time (fallback)
    exact: bool
    f1: float
    fallback: str | None = None
    latency_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0
    record: dict[str, Any]

    @property
    def locale(self) -> str:
        """The language of the question asked: the dataset label's suffix (``core.zh``)."""
        return self.dataset.rpartition(".")[2]

    @property
    def arm(self) -> tuple[str, str, str]:
        """A model player answering one language's questions under one rules document."""
        return (self.player, self.rules_sha256, self.locale)


def _cell_rank(mode: str, seats: int) -> int:
    """Position of a (mode, seats) cell on the diagonal that walks every mode and table size at
    once: rank i has mode i mod 4 and size 4 + i mod 5."""
    m, n = MODES.index(mode), seats - MIN_SEATS
    return next(i for i in range(len(MODES) * 5) if i % len(MODES) == m and i % 5 == n)


def select_questions(
    dataset: Dataset, limit: int | None = None, kinds: Sequence[str] | None = None
) -> list[QuizQuestion]:
    """The questions of ``kinds`` (all by default); with ``limit``, that many spread evenly over
    the kinds and, within a kind, over its modes and table sizes (taken in turn along a
    diagonal of the cells, started at a different cell for each kind)."""
    pool = [q for q in dataset.questions if kinds is None or q.kind in kinds]
    if limit is None or limit >= len(pool):
        return pool
    queues: dict[str, list[QuizQuestion]] = {}
    for q in pool:
        queues.setdefault(q.kind, []).append(q)
    for k, (kind, queue) in enumerate(queues.items()):
        cells: dict[tuple[str, int], list[QuizQuestion]] = {}
        for q in queue:
            cells.setdefault((q.mode, q.seats), []).append(q)
        order = sorted(cells, key=lambda c: (_cell_rank(*c) - 3 * k) % 20)
        depth = max(len(v) for v in cells.values())
        queues[kind] = [cells[c][r] for r in range(depth) for c in order if r < len(cells[c])]
    shares = dict.fromkeys(queues, 0)
    while sum(shares.values()) < limit:  # one more for each kind in turn, while it has any
        for kind, queue in queues.items():
            if shares[kind] < len(queue) and sum(shares.values()) < limit:
                shares[kind] += 1
    picked = {q.id for kind, queue in queues.items() for q in queue[: shares[kind]]}
    return [q for q in pool if q.id in picked]


def check_keys(config: QuizSettings) -> None:
    """Stop before anything is asked or written when a model player's provider cannot be set
    up (no API key): :class:`QuizStopped` with the provider's one-line reason."""
    for p in config.players:
        if p.model is None:
            continue
        try:
            check_key(p.name, p.model)
            provider = build_provider(p.model)
        except (FatalModelError, PreflightError) as e:
            raise QuizStopped(str(e)) from None
        asyncio.run(provider.aclose())


def dataset_sha256(dataset: Dataset) -> str:
    blob = json.dumps(dataset.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def kept_dataset_path(out_dir: Path, label: str) -> Path:
    """Where a quiz folder keeps the dataset ``label`` (``<name>.<locale>``) it was asked."""
    return out_dir / f"{label}.jsonl"


def answered_dataset_path(out_dir: Path, label: str) -> Path:
    """The dataset ``label`` the answers in ``out_dir`` came from: the copy the folder keeps,
    else (a folder written before copies were kept) the shipped ``quizzes/<label>.jsonl``."""
    from .dataset import QUIZZES_DIR

    kept = kept_dataset_path(out_dir, label)
    return kept if kept.is_file() else QUIZZES_DIR / f"{label}.jsonl"


def read_answers(path: Path) -> list[QuizAnswer]:
    """The answers in ``path`` (a torn last line — a killed run — is ignored)."""
    return read_records(path, QuizAnswer, "a quiz answer", QuizError)


class QuizPrompts:
    """The prompt builder of a quiz agent: the rules under test as the system prompt, the
    question's text as the user message (``view`` is the :class:`QuizQuestion`)."""

    def __init__(self, rules: RulesDoc, locale: str) -> None:
        self.system = system_prompt(rules.text, locale)

    def system_prompt(self, view: Any) -> str:
        return self.system

    def decision_prompt(self, view: Any, options: Sequence[str]) -> str:
        return str(view.text)


def no_answer(view: Any, options: Sequence[str]) -> str:
    """The fallback of a quiz agent; a fallback is scored as no answer, whatever it returns."""
    return "[]" if getattr(view, "answer_shape", "one") == "set" else options[0]


class QuizStopped(Exception):
    """The run stopped early (spending cap, fatal model error); one-line message."""


@dataclass
class QuizRunResult:
    out_dir: Path
    asked: int = 0  # answers written in this session
    skipped: int = 0  # answers already in the folder
    stopped: str | None = None
    answers: list[QuizAnswer] = field(default_factory=list)  # every answer in the folder


def _given(question: QuizQuestion, chosen: str, record: ModelDecisionRecord) -> list[str] | None:
    if record.fallback is not None:
        return None
    if question.answer_shape == "set":
        return list(json.loads(chosen))
    return [chosen]


async def answer_question(
    agent: LLMAgent,
    q: QuizQuestion,
    deadline: float,
    *,
    run: str,
    dataset: Dataset,
    dataset_sha: str,
    player: str,
    model: str,
    rules: RulesDoc,
) -> QuizAnswer:
    """Ask ``agent`` the question ``q`` before ``deadline`` and score its answer."""
    context = {"game_id": f"quiz:{q.id}", "seat": q.seat, "player": player,
               "decision_kind": f"quiz:{q.kind}"}  # fmt: skip
    chosen, record = await agent.decide(
        q, q.candidate_ids, deadline, context, answer_shape=q.answer_shape
    )
    given = _given(q, chosen, record)
    return QuizAnswer(
        run=run,
        dataset=dataset.label,
        dataset_sha256=dataset_sha,
        question_id=q.id,
        kind=q.kind,
        mode=q.mode,
        seats=q.seats,
        answer_shape=q.answer_shape,
        player=player,
        model=model,
        rules=rules.label,
        rules_sha256=rules.sha256,
        expected=q.answer,
        given=given,
        exact=exact(q.answer, given),
        f1=f1(q.answer, given),
        fallback=record.fallback,
        latency_s=record.latency_s,
        input_tokens=record.input_tokens,
        output_tokens=record.output_tokens,
        cost_usd=record.cost_usd,
        record=record.model_dump(mode="json"),
    )


def cap_reason(config: QuizSettings, cost_usd: float, tokens: int, at_start: bool) -> str | None:
    """Why the config's spending caps stop the quiz, or ``None`` (at the start a cap already
    reached stops; later, a cap passed)."""
    return cap_reached(config.spending, cost_usd, tokens, at_start=at_start)


class _Writer:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._f = path.open("a", encoding="utf-8")

    def add(self, answer: QuizAnswer) -> None:
        self._f.write(redact(answer.model_dump_json()) + "\n")
        self._f.flush()

    def close(self) -> None:
        self._f.flush()
        os.fsync(self._f.fileno())
        self._f.close()


async def run_quiz(
    config: QuizSettings,
    dataset: Dataset,
    rules: Sequence[RulesDoc],
    out_dir: Path,
    *,
    questions: Sequence[QuizQuestion] | None = None,
    on_answer: Callable[[QuizAnswer], None] | None = None,
) -> QuizRunResult:
    """Ask every model player of ``config`` every question of ``dataset`` (or the selection
    ``questions`` of it) under every rules document of ``rules`` (what ``out_dir`` already holds
    is not asked again)."""
    players = [p.name for p in config.players if p.model is not None]
    if not players:
        raise QuizError("the config has no model players to quiz")
    if not rules:
        raise QuizError("no rules document to test")
    sha = dataset_sha256(dataset)
    answers_path = out_dir / ANSWERS_FILE
    existing = read_answers(answers_path)
    # A folder holds one dataset, in one or more languages (the same questions by id).
    name = dataset.header.name
    other = next(
        (
            a
            for a in existing
            if a.dataset.rpartition(".")[0] != name
            or (a.dataset == dataset.label and a.dataset_sha256 != sha)
        ),
        None,
    )
    if other is not None:
        raise QuizError(
            f"{out_dir} holds answers to another dataset ({other.dataset}); use another --out"
        )
    kept = kept_dataset_path(out_dir, dataset.label)
    if not kept.is_file():  # what quiz report reads the answers against
        write_dataset(kept, dataset.header, dataset.questions)
    existing_here = [a for a in existing if a.dataset == dataset.label]
    done = {(a.player, a.rules_sha256, a.question_id) for a in existing_here}
    asked = list(dataset.questions if questions is None else questions)
    result = QuizRunResult(out_dir, answers=list(existing))
    todo = [
        (player, doc, q)
        for player in players
        for doc in rules
        for q in asked
        if (player, doc.sha256, q.id) not in done
    ]
    result.skipped = len(players) * len(rules) * len(asked) - len(todo)
    seats = ModelSeats(config, out_dir)
    reason = cap_reason(config, seats.ledger.cost_usd, seats.ledger.tokens, at_start=True)
    if reason is not None and todo:
        seats.ledger.close()
        raise QuizStopped(f"{reason} ({len(todo)} answers left; raise the cap to continue)")
    writer = _Writer(answers_path)
    tasks: list[asyncio.Task[None]] = []

    def stop(why: str) -> None:
        if result.stopped is None:
            result.stopped = why
        seats.stopping = True
        current = asyncio.current_task()
        for t in tasks:
            if t is not current and not t.done():
                t.cancel()

    def on_spend(cost_usd: float, tokens: int) -> None:
        why = cap_reason(config, cost_usd, tokens, at_start=False)
        if why is not None:
            stop(why)

    seats.on_spend = on_spend
    agents: dict[tuple[str, str], LLMAgent] = {}
    # Questions in flight per provider: no more than its calls at once, so a question's timer
    # starts when its call can be sent (not while it queues behind the others).
    limits: dict[str, asyncio.Semaphore] = {}
    for player in players:
        name = seats.spec(player).provider
        provider_limits = config.providers.get(name)
        cap = provider_limits.concurrency if provider_limits else DEFAULT_CONCURRENCY
        limits.setdefault(name, asyncio.Semaphore(min(cap, config.max_concurrent_games)))
    locale = dataset.header.locale

    def agent(player: str, doc: RulesDoc) -> LLMAgent:
        key = (player, doc.sha256)
        if key not in agents:
            agents[key] = build_llm_agent(
                seats.spec(player),
                QuizPrompts(doc, locale),
                fallback=no_answer,
                fallback_policy=NO_ANSWER,
                provider=seats.provider(player),
                system_prompt_sink=seats.store.add_system_prompt,
            )
        return agents[key]

    async def ask(player: str, doc: RulesDoc, q: QuizQuestion) -> None:
        spec = seats.spec(player)
        async with limits[spec.provider]:
            if seats.stopping:
                return
            current_game.set(f"quiz:{q.id}")
            try:  # a missing key (building the provider) or a rejected call stops the quiz
                answer = await answer_question(
                    agent(player, doc), q, time.monotonic() + spec.decision_seconds,
                    run=config.name, dataset=dataset, dataset_sha=sha, player=player,
                    model=spec.label, rules=doc,
                )  # fmt: skip
            except FatalModelError as e:
                stop(str(e))
                return
        writer.add(answer)
        result.answers.append(answer)
        result.asked += 1
        if on_answer is not None:
            on_answer(answer)

    try:
        tasks.extend(asyncio.create_task(ask(*job)) for job in todo)
        await asyncio.gather(*tasks, return_exceptions=True)
        for t in tasks:
            if not t.cancelled() and (exc := t.exception()) is not None:
                raise exc
    finally:
        writer.close()
        await seats.aclose()  # closes the providers every agent shares
    return result


__all__ = [
    "ANSWERS_FILE",
    "QuizAnswer",
    "QuizPrompts",
    "QuizRunResult",
    "QuizSettings",
    "QuizStopped",
    "RulesDoc",
    "answer_question",
    "cap_reason",
    "check_keys",
    "dataset_sha256",
    "no_answer",
    "read_answers",
    "rules_doc",
    "run_quiz",
    "select_questions",
]
