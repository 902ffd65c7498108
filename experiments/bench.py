"""`virus-arena bench`: random legal play, our envs beside PettingZoo's classic envs, one process.

Every target is run in short rounds, interleaved (ours, connect_four, texas_holdem, ours, ...), so
that machine noise hits all alike. Targets: each implemented env through the AEC API (wrapped
`env`, as users run it) and through the raw engine (`apply_action` on `legal_action_mask`).
Prints steps/s, games/s, mean game length and the ratio to connect_four_v3's AEC steps/s.
"""
from __future__ import annotations

import json
import time
import warnings
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Tally:
    name: str
    steps: int = 0
    games: int = 0
    seconds: float = 0.0
    lengths: list = field(default_factory=list)

    @property
    def steps_per_s(self):
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def games_per_s(self):
        return self.games / self.seconds if self.seconds else 0.0


def _aec_round(env, rng, seconds, tally):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.reset(seed=int(rng.integers(1 << 30)))
        steps = 0
        for agent in env.agent_iter():
            obs, rew, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        tally.steps += steps
        tally.games += 1
        tally.lengths.append(steps)
    tally.seconds += time.perf_counter() - t0


def _engine_round(game, rng, seconds, tally):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state(seed=int(rng.integers(1 << 30)))
        steps = 0
        while not s.is_terminal():
            legal = np.flatnonzero(s.legal_action_mask())
            s.apply_action(int(legal[rng.integers(len(legal))]))
            steps += 1
        tally.steps += steps
        tally.games += 1
        tally.lengths.append(steps)
    tally.seconds += time.perf_counter() - t0


def run_bench(env_ids=None, players=None, seconds: float = 1.0, rounds: int = 3, seed: int = 0,
              out: str | None = None, echo=print) -> list[dict]:
    """Run the benchmark; returns one row per target (and writes JSON to `out` if given)."""
    import virus_envs
    warnings.filterwarnings("ignore")
    from pettingzoo.classic import connect_four_v3, texas_holdem_v4

    env_ids = list(env_ids or virus_envs.ENV_IDS)
    targets = [("connect_four_v3 (AEC)", "aec", connect_four_v3.env()),
               ("texas_holdem_v4 (AEC)", "aec", texas_holdem_v4.env())]
    for env_id in env_ids:
        cls = virus_envs.game_class(env_id)
        counts = players or sorted({cls.min_players, cls.default_players, cls.max_players})
        for n in counts:
            if not cls.min_players <= n <= cls.max_players:
                continue
            targets.append((f"{env_id} {n}p (AEC)", "aec", virus_envs.env(env_id, num_players=n)))
            targets.append((f"{env_id} {n}p (engine)", "engine", virus_envs.game(env_id, num_players=n)))
    tallies = [Tally(name) for name, _, _ in targets]
    rng = np.random.default_rng(seed)
    for r in range(rounds):
        for (name, kind, obj), tally in zip(targets, tallies):
            (_aec_round if kind == "aec" else _engine_round)(obj, rng, seconds, tally)
        echo(f"bench round {r + 1}/{rounds} done")
    ref = tallies[0].steps_per_s
    rows = [{"target": t.name, "steps_per_s": round(t.steps_per_s), "games_per_s": round(t.games_per_s, 1),
             "mean_length": round(float(np.mean(t.lengths)), 1) if t.lengths else 0.0,
             "ratio_to_connect_four": round(t.steps_per_s / ref, 2) if ref else 0.0} for t in tallies]
    echo(format_table(rows))
    if out:
        with open(out, "w") as f:
            json.dump(rows, f, indent=2)
        echo(f"wrote {out}")
    return rows


def format_table(rows) -> str:
    head = "| target | steps/s | games/s | mean length | ratio to connect_four (AEC) |"
    lines = [head, "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['target']} | {r['steps_per_s']} | {r['games_per_s']} | {r['mean_length']} | "
                     f"{r['ratio_to_connect_four']} |")
    return "\n".join(lines)
