"""Leagues: configs, schedules, seating players and running games into a run folder, and reading finished runs."""
