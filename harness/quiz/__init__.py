"""The rules quiz: questions about positions reached by rule-bot play, worded from one seat's view,
answered by the engine, asked to models and scored.

* :mod:`.kinds` — the question kinds (what is asked, how the engine answers it);
* :mod:`.worlds` — what-if copies of a game, stated outcomes, the role assignments a seat cannot
  tell apart;
* :mod:`.build` and :mod:`.dataset` — drafting questions from bot games, wording them
  (:mod:`.question_wording`, ``prompts/quiz``), the dataset files (:mod:`.quiz_records`);
* :mod:`.run`, :mod:`.score`, :mod:`.quiz_summary`, :mod:`.text` — asking models, scoring, accuracy with
  Wilson intervals next to a random guess;
* :mod:`.bench` — questions built per second and the harness overhead per question.
"""

from .kinds import KIND_NAMES, KINDS
from .quiz_records import Dataset, QuizHeader, QuizQuestion, read_dataset

__all__ = ["KINDS", "KIND_NAMES", "Dataset", "QuizHeader", "QuizQuestion", "read_dataset"]
