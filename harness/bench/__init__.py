"""Benchmarks: commands that print figures and end with one JSON line.

One module per benchmark (engine, pettingzoo, llm, league, report, quiz, caps, deadlines, serve)
on the shared core :mod:`harness.bench.core` (timing, rounds, load average, the final JSON line)
and :mod:`harness.bench.progress_display`; the command line (``bangarena bench …``) only parses the
options and calls the benchmark's ``run``.
"""
