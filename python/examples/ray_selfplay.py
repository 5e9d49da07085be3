"""Scaling out with Ray: durak self-play games and stud positions spread over Ray tasks.

Each task builds its own environment, agents and rule sessions (kibitzer objects stay inside the
worker that made them; only seeds, rows and summaries cross), so the same code runs on one
machine or a cluster. Run it as a script for the figures:

    python python/examples/ray_selfplay.py --games 400 --positions 20000

``run(..., num_cpus=2)`` starts a local Ray with two worker processes (what the test does); Ray's
old ``local_mode`` is not used (recent Ray releases removed it).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

import ray

import kibitzer
from kibitzer import agents, envs


@ray.remote
def play_durak(seeds, seats=("rules", "lowest")):
    """Plays one durak game per seed and counts who was left the durak."""
    env = envs.DurakEnv()
    players = [agents.rules("durak") if s == "rules" else agents.native("durak", s) for s in seats]
    tally = Counter()
    steps = 0
    for seed in seeds:
        # Seats alternate so neither name always sits first.
        order = players if seed % 2 == 0 else players[::-1]
        names = list(seats) if seed % 2 == 0 else list(seats)[::-1]
        r = envs.play(env, order, seed=seed)
        steps += r["steps"]
        tally["draw" if r["durak"] is None else f"durak:{names[r['durak']]}"] += 1
    return dict(tally), steps


@ray.remote
def answer_stud(rows):
    """Answers stud positions with `batch` (all of this worker's cores) and counts advice."""
    tally = Counter()
    for a in kibitzer.batch("stud", rows, explain=False):
        advice = [c["args"][0] for c in a.get("conclusions", []) if c["relation"] == "advice"]
        tally[advice[0] if advice else "error" if "error" in a else "none"] += 1
    return dict(tally)


def stud_rows(n, seed=0):
    """Random heads-up positions on the fourth street: my four cards, the opponent's three up."""
    rng = random.Random(seed)
    deck = [r + s for r in "23456789TJQKA" for s in "SHDC"]
    rows = []
    for _ in range(n):
        cards = rng.sample(deck, 7)
        rows.append({"hand": " ".join(cards[:4]), "opponent": "XX " + " ".join(cards[4:])})
    return rows


def run(games=200, positions=2000, chunk=25, num_cpus=None):
    """Spreads the work over Ray and returns what it measured."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    try:
        t0 = time.perf_counter()
        jobs = [play_durak.remote(list(range(i, min(i + chunk, games)))) for i in range(0, games, chunk)]
        durak = Counter()
        steps = 0
        for tally, n in ray.get(jobs):
            durak.update(tally)
            steps += n
        t1 = time.perf_counter()
        rows = stud_rows(positions)
        size = max(1, positions // 8)
        stud = Counter()
        for tally in ray.get([answer_stud.remote(rows[i : i + size]) for i in range(0, positions, size)]):
            stud.update(tally)
        t2 = time.perf_counter()
    finally:
        if started:
            ray.shutdown()
    return {
        "games": games,
        "durak": dict(durak),
        "steps": steps,
        "games_per_s": games / (t1 - t0),
        "steps_per_s": steps / (t1 - t0),
        "positions": positions,
        "advice": dict(stud),
        "positions_per_s": positions / (t2 - t1),
    }


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--positions", type=int, default=2000)
    p.add_argument("--chunk", type=int, default=25)
    p.add_argument("--num-cpus", type=int, default=None, help="Ray's worker count (default: every core)")
    a = p.parse_args()
    print(json.dumps(run(a.games, a.positions, a.chunk, a.num_cpus), indent=2))
