"""The harness inside tools its users already run: PettingZoo, Inspect AI, RLCard (optional extras)."""
