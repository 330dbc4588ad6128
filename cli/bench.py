"""bench: random playouts for a fixed time, to compare the engine's speed across games and changes."""
from __future__ import annotations

import time

from rulewright.cli.agents import agents_for, playout

MAX_DECISIONS = 100_000


def bench(game, seconds: float, seed: int, agents: str = "random") -> dict:
    playouts = decisions = 0
    start = time.perf_counter()
    while True:  # at least one playout, however short the time
        state = game.new_state(seed=seed + playouts)
        decisions += playout(state, agents_for(agents, game.player_count, seed + playouts), MAX_DECISIONS)
        playouts += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {"game": game.name, "players": game.player_count, "options": dict(game.options),
            "seconds": round(elapsed, 3), "playouts": playouts, "decisions": decisions,
            "playouts_per_second": round(playouts / elapsed, 1),
            "decisions_per_second": round(decisions / elapsed, 1)}
