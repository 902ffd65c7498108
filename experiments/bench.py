"""`virus-arena bench`: random legal play, our envs beside PettingZoo's classic envs, one process.

Every target is run in short rounds, interleaved (ours, connect_four, texas_holdem, ours, ...), so
that machine noise hits all alike. Targets: each implemented env through the AEC API (wrapped
`env`, as users run it), through the raw engine (`apply_action` on `legal_action_mask`), and a
search agent (`--search`, default `ismcts?iters=100`) deciding at positions of random games.
Prints steps/s, games/s, mean game length and the ratio to connect_four_v3's AEC steps/s; in a
search row (`(ismcts)`) a step is one search iteration and a game one decision searched, and the
time counted is the time spent inside the agent's `act`. Steps per CPU second (the process's CPU
time, `time.process_time`) stand beside them: on a shared machine wall-clock rates fall with the
load, CPU rates much less (a search decides on one core). With `pyspiel` installed (and `openspiel`
true), rows through OpenSpiel follow: its C++ hearts and gin_rummy and our games via the adapter
(`experiments/bench_openspiel.py`).

Games with a batched engine (`BATCHED`) add two rows per player count: `(batched B=1024)`, B games
stepped together with a uniformly drawn legal action each (a step is one decision of one game, as
in the engine rows: mask, random choice, apply), and `(batched+obs)`, the same plus the (B, obs)
observations of the players to move, as an RL loop needs them (`--batch 0`: no batched rows). Where a
batched heuristic exists (`BATCHED_HEURISTIC`), `(batched heuristic)` has it choose every decision of
every game instead of the random draw (a step: its decision and the move), beside `(engine, heuristic)`:
the scalar heuristic agent choosing every decision on the raw engine.
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
    cpu_seconds: float = 0.0
    lengths: list = field(default_factory=list)
    state: object = None        # a search target's current position

    @property
    def steps_per_s(self):
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def cpu_steps_per_s(self):
        return self.steps / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def games_per_s(self):
        return self.games / self.seconds if self.seconds else 0.0


def _aec_round(env, rng, seconds, tally):
    c0 = time.process_time()
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
    tally.cpu_seconds += time.process_time() - c0


def _engine_round(game, rng, seconds, tally, agent=None):
    """Whole games on the raw engine: a uniformly drawn legal action, or `agent`'s (the heuristic row)."""
    from virus_envs.agents.base import decision_for

    c0 = time.process_time()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state(seed=int(rng.integers(1 << 30)))
        steps = 0
        while not s.is_terminal():
            if agent is not None:
                s.apply_action(agent.act(decision_for(s)))
            else:
                legal = np.flatnonzero(s.legal_action_mask())
                s.apply_action(int(legal[rng.integers(len(legal))]))
            steps += 1
        tally.steps += steps
        tally.games += 1
        tally.lengths.append(steps)
    tally.seconds += time.perf_counter() - t0
    tally.cpu_seconds += time.process_time() - c0


#: env id -> "module:class" of its batched engine (B games in arrays; docs/scale.md)
BATCHED = {
    "roll_write_v0": "virus_envs.roll_write.batched:RollWriteBatch",
    "virus_cards_v0": "virus_envs.virus_cards.batched:VirusCardsBatch",
    "virus_co_v0": "virus_envs.virus_co.batched:VirusCoBatch",
}
#: env id -> "module:class" of its batched heuristic (`cls(batch)() -> actions`)
BATCHED_HEURISTIC = {"roll_write_v0": "virus_envs.roll_write.batched_heuristic:BatchedHeuristic"}


def _batched_round(target, rng, seconds, tally):
    """Random play in all B games at once; with_obs also builds the observations of the players to move; a
    batched policy (the heuristic row) chooses every action instead of the random draw."""
    batch, with_obs, policy = target
    if tally.state is None:                  # first round: start the games (and compile, outside the clock)
        batch.reset(int(rng.integers(1 << 30)))
        tally.state = np.empty(batch.B, dtype=np.int64)
        batch.step(batch.random_actions(rng, tally.state) if policy is None else policy())
        tally.lengths.append(None)
    acts, obs = tally.state, None
    if with_obs:
        obs = np.empty((batch.B,) + batch.observation_shape, dtype=np.float32)
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        out = batch.step(batch.random_actions(rng, acts) if policy is None else policy())
        if with_obs:
            batch.observation(out=obs)
        tally.steps += batch.B
        tally.games += int(out.done.sum())
    tally.seconds += time.perf_counter() - t0
    tally.cpu_seconds += time.process_time() - c0


def _batched_targets(env_id, n, batch):
    """The batched rows of env_id with n players (none if it has no batched engine)."""
    if not batch or env_id not in BATCHED:
        return []
    import importlib
    mod, cls = BATCHED[env_id].split(":")
    make = getattr(importlib.import_module(mod), cls)
    rows = [(f"{env_id} {n}p (batched B={batch})", "batched", (make(batch, num_players=n), False, None)),
            (f"{env_id} {n}p (batched+obs B={batch})", "batched", (make(batch, num_players=n), True, None))]
    if env_id in BATCHED_HEURISTIC:
        import virus_envs
        from virus_envs import agents
        g = virus_envs.game(env_id, num_players=n)
        rows.append((f"{env_id} {n}p (engine, heuristic)", "engine heuristic", (g, agents.make("heuristic", g))))
        mod, cls = BATCHED_HEURISTIC[env_id].split(":")
        b = make(batch, num_players=n)
        rows.append((f"{env_id} {n}p (batched heuristic B={batch})", "batched",
                     (b, False, getattr(importlib.import_module(mod), cls)(b))))
    return rows


def _search_round(target, rng, seconds, tally):
    """Random games; at every decision with a choice the search agent decides (timed), then a random move."""
    from virus_envs.agents.base import decision_for

    game, agent = target
    state = tally.state          # a search target's game goes on across rounds
    spent = cpu = 0.0
    while spent < seconds:
        if state is None or state.is_terminal():
            state = game.new_initial_state(seed=int(rng.integers(1 << 30)))
            agent.reset(seed=int(rng.integers(1 << 30)))
        legal = np.flatnonzero(state.legal_action_mask())
        if len(legal) > 1:
            d = decision_for(state, with_handle=True)
            c0, t0 = time.process_time(), time.perf_counter()
            agent.act(d)
            spent += time.perf_counter() - t0
            cpu += time.process_time() - c0
            tally.steps += _iterations(agent.last)
            tally.games += 1
        state.apply_action(int(legal[rng.integers(len(legal))]))
    tally.state = state
    tally.seconds += spent
    tally.cpu_seconds += cpu


def _iterations(last) -> int:
    """Iterations of an agent's last search (PIMC: summed over its worlds)."""
    return sum(r.iterations for r in last) if isinstance(last, list) else last.iterations


def run_bench(env_ids=None, players=None, seconds: float = 1.0, rounds: int = 3, seed: int = 0,
              out: str | None = None, echo=print, search: str | None = "ismcts?iters=100",
              openspiel: bool = True, batch: int = 1024) -> list[dict]:
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
            targets += _batched_targets(env_id, n, batch)
            if search:
                from virus_envs import agents
                g = virus_envs.game(env_id, num_players=n)
                name = agents.parse_spec(search)[0]
                targets.append((f"{env_id} {n}p ({name})", "search", (g, agents.make(search, g, seed=seed))))
    from .bench_openspiel import openspiel_round, openspiel_targets
    if openspiel:
        targets += openspiel_targets(env_ids, players)
    tallies = [Tally(name) for name, _, _ in targets]
    rng = np.random.default_rng(seed)
    rounds_of = {"aec": _aec_round, "engine": _engine_round, "search": _search_round, "openspiel": openspiel_round,
                 "batched": _batched_round, "engine heuristic": lambda t, *a: _engine_round(t[0], *a, agent=t[1])}
    for r in range(rounds):
        for (name, kind, obj), tally in zip(targets, tallies):
            rounds_of[kind](obj, rng, seconds, tally)
        echo(f"bench round {r + 1}/{rounds} done")
    ref = tallies[0].steps_per_s
    rows = [{"target": t.name, "steps_per_s": round(t.steps_per_s), "cpu_steps_per_s": round(t.cpu_steps_per_s),
             "games_per_s": round(t.games_per_s, 1),
             "mean_length": _mean_length(t),
             "ratio_to_connect_four": round(t.steps_per_s / ref, 2) if ref else 0.0} for t in tallies]
    echo(format_table(rows))
    if out:
        with open(out, "w") as f:
            json.dump(rows, f, indent=2)
        echo(f"wrote {out}")
    return rows


def _mean_length(t: Tally):
    """Mean game length in decisions (batched rows: decisions per finished game)."""
    if t.lengths and t.lengths[0] is None:
        return round(t.steps / t.games, 1) if t.games else None
    return round(float(np.mean(t.lengths)), 1) if t.lengths else None


def format_table(rows) -> str:
    head = ("| target | steps/s (search: iterations/s) | per CPU second | games/s (search: decisions/s) | mean length "
            "| ratio to connect_four (AEC) |")
    lines = [head, "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        length = "—" if r["mean_length"] is None else r["mean_length"]
        lines.append(f"| {r['target']} | {r['steps_per_s']} | {r['cpu_steps_per_s']} | {r['games_per_s']} | {length} | "
                     f"{r['ratio_to_connect_four']} |")
    return "\n".join(lines)
