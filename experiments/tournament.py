"""`virus-arena tournament`: many games between agents, fairly seated, with ratings and a report.

Fair seating (duplicate play): each deal (a game seed) is replayed in every seat rotation of its
line-up, so each agent meets the same cards from every seat. With more agents than seats a
line-up is sampled per deal; with fewer, the missing seats are filled by sampled agents.

Outputs in `--out DIR`: `config.json` (what was asked), `games.jsonl` (one line per game: seed,
seats, actions, scores, returns; a run resumes from it and any game can be replayed),
`results.json`, `report.md`, `winrates.png`. The same seed and config give the same results
whatever the number of workers: each game is a pure function of its job.

Outside bots (`cmd:` agents, docs/bots.md) play under the config's `limits`; a bot's timeout,
crash, garbage or illegal answer forfeits that game (`arena.play_match`): the record says
`forfeit`, the results count it per agent, and the tournament goes on.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt, field_validator

from virus_envs.experiments import forfeits
from virus_envs.experiments.arena import play_match, wilson, win_shares


@dataclass
class TournamentConfig:
    """One tournament: a game, a player count, agent specs and a budget."""

    game: str
    agents: list
    players: int | None = None
    games: int = 200            # total games, rounded up to whole deals (one game per seat rotation)
    seed: int = 0
    config: dict = field(default_factory=dict)   # engine config (e.g. max_turns)
    #: content hashes of the files agents load (ppo:<path>, a cmd: bot's program): a changed file is another
    #: tournament
    fingerprints: dict = field(default_factory=dict)
    #: limits of outside bots (`cmd:` agents; agents/botproc.py BotLimits): decision_seconds, game_seconds,
    #: hello_seconds, memory_mb, cpu_seconds; the keys not given take BotLimits' defaults
    limits: dict = field(default_factory=dict)

    def validate(self):
        from virus_envs import agents as agents_mod
        import virus_envs

        if not isinstance(self.agents, list) or len(self.agents) < 1:
            raise ValueError("tournament key 'agents' must list at least one agent spec")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"tournament key 'games' must be a positive int, got {self.games!r}")
        if len(set(self.agents)) != len(self.agents):
            raise ValueError(f"tournament key 'agents' lists a spec twice: {self.agents}")
        from virus_envs.agents.botproc import BotLimits

        try:
            BotLimits.from_dict(self.limits)
        except (ValueError, TypeError) as e:
            raise ValueError(f"tournament key 'limits': {e}") from None
        g = virus_envs.game(self.game, num_players=self.players, **self.config)
        for spec in self.agents:
            agent = agents_mod.make(spec, g)    # a bad spec fails here, before any game
            path = getattr(agent, "path", None)  # a model file (ppo:<path>, ppo:builtin)
            files = [path] if path else list(getattr(agent, "files", []))    # a cmd: bot's program
            files = [f for f in files if os.path.isfile(f)]
            if files:
                import hashlib
                h = hashlib.sha256()
                for name in files:
                    with open(name, "rb") as f:
                        h.update(f.read())
                self.fingerprints[spec] = h.hexdigest()[:16]
        self.players = g.num_players
        return g


@dataclass
class Job:
    index: int
    deal: int
    rotation: int
    seed: int
    seats: list


def is_cooperative(env_id: str, players: int | None = None, config: dict | None = None) -> bool:
    """Whether every seat shares one result. A config may turn a co-operative game into a game of sides (the
    board game's Spy Mode or Boss players): then the game instance says so, and it is seated as competitive."""
    import virus_envs
    if config is None and players is None:
        return bool(getattr(virus_envs.game_class(env_id), "cooperative", False))
    return bool(getattr(_game(env_id, players, json.dumps(config or {}, sort_keys=True)), "cooperative", False))


def schedule(cfg: TournamentConfig) -> list[Job]:
    """Every game to play, in a fixed order that depends only on the config.

    Competitive games: each deal in every seat rotation of its line-up. Co-operative games: each
    deal is played once by a team of each agent (the agent in every seat), so agents are compared
    on the same deals."""
    n, agents_ = cfg.players, list(cfg.agents)
    k = len(agents_)
    rng = np.random.default_rng(cfg.seed)
    jobs = []
    if is_cooperative(cfg.game, cfg.players, cfg.config):
        for d in range(math.ceil(cfg.games / k)):
            deal_seed = int(rng.integers(0, 2**62))
            for r, a in enumerate(agents_):
                jobs.append(Job(len(jobs), d, r, deal_seed, [a] * n))
        return jobs
    deals = math.ceil(cfg.games / n)
    for d in range(deals):
        deal_seed = int(rng.integers(0, 2**62))
        if k >= n:
            lineup = [agents_[i] for i in rng.permutation(k)[:n]]
        else:
            lineup = agents_ + [agents_[i] for i in rng.integers(0, k, size=n - k)]
            lineup = [lineup[i] for i in rng.permutation(n)]
        for r in range(n):
            seats = [lineup[(i - r) % n] for i in range(n)]
            jobs.append(Job(len(jobs), d, r, deal_seed, seats))
    return jobs


# -- playing (in worker processes) ------------------------------------------------------------
_CACHE: dict = {}


def _game(env_id, n, config_json):
    key = ("game", env_id, n, config_json)
    if key not in _CACHE:
        import virus_envs
        _CACHE[key] = virus_envs.game(env_id, num_players=n, **json.loads(config_json))
    return _CACHE[key]


def _agent(game, spec, seat, config_json, limits_json="{}"):
    key = ("agent", game.env_id, game.num_players, config_json, spec, seat, limits_json)
    if key not in _CACHE:
        from virus_envs import agents as agents_mod
        from virus_envs.agents.botproc import BotLimits
        agent = agents_mod.make(spec, game)
        if hasattr(agent, "limits"):          # an outside bot: the tournament's limits
            agent.limits = BotLimits.from_dict(json.loads(limits_json))
        _CACHE[key] = agent
    return _CACHE[key]


def close_agents() -> None:
    """Quit the outside bots this process started (the agents stay cached and start them again if needed)."""
    for key, agent in list(_CACHE.items()):
        if key[0] == "agent":
            agent.close()


def play_job(task) -> dict:
    """Play one scheduled game; returns its record (a pure function of the job, and of the outside bots' timing).

    A game that an outside bot forfeited (`arena.play_match`) ends there: its record has `forfeit` (seat, kind,
    reason, decision, agent), the returns of `arena.forfeit_returns` and the scores at the cut."""
    env_id, n, config_json, job = task[:4]
    limits_json = task[4] if len(task) > 4 else "{}"
    g = _game(env_id, n, config_json)
    line = [_agent(g, spec, i, config_json, limits_json) for i, spec in enumerate(job["seats"])]
    t0 = time.perf_counter()
    o = play_match(g, line, job["seed"], record=True)
    rec = {
        "index": job["index"], "deal": job["deal"], "rotation": job["rotation"], "seed": job["seed"],
        "env_id": env_id, "num_players": n, "config": json.loads(config_json),
        "seats": job["seats"], "actions": o.actions, "scores": o.scores, "returns": o.returns,
        "truncated": o.truncated, "length": len(o.actions), "seconds": round(time.perf_counter() - t0, 4),
    }
    if o.sides is not None:                  # a game of sides: the side of every seat, read at the end
        rec["sides"] = list(o.sides)
    if o.forfeit is not None:
        rec["forfeit"] = dict(o.forfeit, agent=job["seats"][o.forfeit["seat"]])
    return rec


def play_jobs(tasks) -> list[dict]:
    """Several scheduled games in one call (a Ray task): their records in order; outside bots quit after."""
    try:
        return [play_job(t) for t in tasks]
    finally:
        close_agents()


def _ray_records(tasks, workers: int | None, address: str | None):
    """The records of `tasks`, in order, played as Ray tasks (a chunk of games per task).

    address None: a local Ray instance with `workers` CPUs (all cores by default), shut down at the end;
    "auto" or HOST:PORT: an existing cluster (`ray start --head` / `--address`), left running (the driver
    disconnects). A Ray session already started in this process (ray.init) is used as it is. At most a
    few chunks per CPU are in flight, so a long tournament never queues everything at once."""
    import ray

    started = not ray.is_initialized()
    if started:
        kw = {"address": address} if address else {"num_cpus": workers or os.cpu_count() or 1}
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False, **kw)
    remote = ray.remote(num_cpus=1, max_retries=2)(play_jobs)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(16, len(tasks) // (cpus * 8) or 1))
    chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
    window = 4 * cpus
    refs = [remote.remote(c) for c in chunks[:window]]
    nxt = len(refs)
    try:
        for k in range(len(chunks)):
            recs = ray.get(refs[k])
            refs[k] = None
            if nxt < len(chunks):
                refs.append(remote.remote(chunks[nxt]))
                nxt += 1
            yield from recs
    finally:
        for r in refs:
            if r is not None:
                ray.cancel(r, force=True)
        if started:         # a local instance stops; a cluster only loses this driver
            ray.shutdown()


def _ignore_sigint():
    """In a worker: Ctrl-C reaches the whole process group; the parent alone stops the pool and saves."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# -- bookkeeping ----------------------------------------------------------------------------
#: how to get past a bad games.jsonl or config.json (the same words for `run` and `tournament`)
FRESH = "run again with --fresh to start afresh (its games are deleted), or choose another --out"


def load_records(path: str, cfg: TournamentConfig, jobs: list[Job]) -> dict[int, dict]:
    """Games already played, by index, each checked against the schedule and a replay.

    A torn last line (a write cut by an interrupt: no newline at its end) is dropped from the file
    and its game played again. Any other bad line is a ValueError naming the file, the line and the
    field: not JSON, a wrong type, an index that is not a game of this tournament or that came
    before, a deal, seed or seats other than the schedule's, actions that the engine refuses, or
    scores, returns, truncation or length other than the replayed game's. So no game counts twice,
    and no edited result is trusted."""
    from virus_envs.experiments import records

    done, first = {}, {}
    if not os.path.exists(path):
        return done
    try:
        with open(path) as f:
            lines = f.readlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: cannot be read as JSON lines ({e}); {FRESH}") from None
    game = _game(cfg.game, cfg.players, json.dumps(cfg.config, sort_keys=True))
    good = []
    for i, line in enumerate(lines):
        where = f"{path}: line {i + 1}"
        if not line.strip():
            continue
        try:
            try:
                rec = records.parse(line, where)
            except ValueError:
                if i == len(lines) - 1 and not line.endswith("\n"):
                    continue                       # torn by an interrupt: played again
                raise
            records.check_types(rec, where)
            for key in ("index", "scores", "returns", "truncated", "seats"):
                if rec.get(key) is None:
                    raise ValueError(f"{where}: field {key!r} is missing")
            idx = rec["index"]
            if idx >= len(jobs):
                raise ValueError(f"{where}: field 'index' is {idx}, not a game of this tournament "
                                 f"(0..{len(jobs) - 1})")
            if idx in first:
                raise ValueError(f"{where}: game {idx} again (first on line {first[idx]})")
            job = jobs[idx]
            expected = {"env_id": cfg.game, "num_players": cfg.players, "config": cfg.config, "deal": job.deal,
                        "rotation": job.rotation, "seed": job.seed, "seats": job.seats}
            for key, want in expected.items():
                if rec.get(key) != want:
                    raise ValueError(f"{where}: field {key!r} is {rec.get(key)!r}, the schedule of this "
                                     f"tournament says {want!r}")
            records.check_fields(rec, where, game)
            records.check_outcome(rec, records.replay(rec, where, game), where)
            ff = rec.get("forfeit")
            if ff is not None and ff.get("agent") != job.seats[ff["seat"]]:
                raise ValueError(f"{where}: field 'forfeit.agent' is {ff.get('agent')!r}, but seat {ff['seat']} is "
                                 f"{job.seats[ff['seat']]!r}")
        except ValueError as e:
            raise ValueError(f"{e}; {FRESH}") from None
        done[idx], first[idx] = rec, i + 1
        good.append(line if line.endswith("\n") else line + "\n")
    if good != lines:
        with open(path, "w") as f:
            f.writelines(good)
    _check_agents_play_the_same(cfg, done, first, path)
    return done


def read_games(path: str) -> list[dict]:
    """The records of a games.jsonl that run_tournament has just completed (and so checked), by index."""
    with open(path) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    return sorted(recs, key=lambda r: r["index"])


def _check_agents_play_the_same(cfg: TournamentConfig, done: dict, first: dict, path: str) -> None:
    """Play again, with the agents, the first recorded game of each agent: a changed engine or agent since the
    games were recorded gives other moves, and those games must not be mixed with new ones. Agents with a time
    budget (`?time=`) play differently from run to run and are not checked; nor are outside bots (`cmd:`),
    whose timing is their own and whose program files are fingerprinted instead, nor games cut by a forfeit
    (the engine's replay has checked their actions)."""
    from virus_envs import agents as agents_mod

    timed = {a for a in cfg.agents if a.strip().startswith("cmd:") or "time" in agents_mod.parse_spec(a)[2]}
    wanted = set(cfg.agents) - timed
    config_json = json.dumps(cfg.config, sort_keys=True)
    for idx in sorted(done):
        if not wanted:
            break
        rec = done[idx]
        seats = set(rec["seats"])
        if seats & timed or not seats & wanted or rec.get("forfeit") is not None:
            continue
        job = {k: rec[k] for k in ("index", "deal", "rotation", "seed", "seats")}
        again = play_job((cfg.game, cfg.players, config_json, job))
        if again["actions"] != rec["actions"]:
            k = next((i for i, (x, y) in enumerate(zip(again["actions"], rec["actions"])) if x != y),
                     min(len(again["actions"]), len(rec["actions"])))
            raise ValueError(f"{path}: line {first[idx]}: game {idx} is played differently now from decision {k} "
                             f"on (the engine or an agent changed since it was recorded); {FRESH}")
        wanted -= seats


def aggregate_cooperative(cfg: TournamentConfig, records: list[dict]) -> dict:
    """Co-operative game: each agent's team win rate; agents ranked against each other deal by deal."""
    from openskill.models import PlackettLuce

    specs = list(cfg.agents)
    st = {a: {"games": 0, "wins": 0, "score": 0.0, "scored": 0, "return": 0.0} for a in specs}
    h2h = {a: {b: [0.0, 0] for b in specs if b != a} for a in specs}
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in specs}
    by_deal = {}
    truncated = 0
    lost = forfeits.counts(specs, records)
    for rec in sorted(records, key=lambda r: r["index"]):
        a = rec["seats"][0]
        won = (not rec["truncated"]) and min(rec["returns"]) > 0
        truncated += rec["truncated"]
        key = (float(np.mean(rec["returns"])), float(np.mean(rec["scores"])))
        st[a]["games"] += 1
        st[a]["wins"] += int(won)
        if rec.get("forfeit") is None:
            st[a]["score"] += key[1]
            st[a]["scored"] += 1
        st[a]["return"] += key[0]
        by_deal.setdefault(rec["deal"], {})[a] = key[:1] if rec.get("forfeit") else key
    for deal in sorted(by_deal):
        res = by_deal[deal]
        present = [a for a in specs if a in res]
        for a in present:
            for b in present:
                if a != b:
                    h2h[a][b][0] += 1.0 if res[a] > res[b] else 0.5 if res[a] == res[b] else 0.0
                    h2h[a][b][1] += 1
        if len(present) > 1:
            ranks = [1 + sum(1 for b in present if res[b] > res[a]) for a in present]
            for a, team in zip(present, model.rate([[ratings[a]] for a in present], ranks=ranks)):
                ratings[a] = team[0]
    out = []
    for a in specs:
        g = st[a]["games"]
        lo, hi = wilson(st[a]["wins"], g)
        r = ratings[a]
        out.append({"agent": a, "games": g, "wins": st[a]["wins"], "win_rate": round(st[a]["wins"] / g, 6) if g else 0.0,
                    "ci95": [round(lo, 6), round(hi, 6)], "baseline": None,
                    "mean_score": round(st[a]["score"] / st[a]["scored"], 6) if st[a]["scored"] else 0.0,
                    "mean_return": round(st[a]["return"] / g, 6) if g else 0.0, "by_seat": [],
                    "openskill": {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "ordinal": round(r.ordinal(), 4)},
                    "forfeits": lost[a]})
    out.sort(key=lambda x: -x["openskill"]["ordinal"])
    matrix = {a: {b: (round(v[0] / v[1], 6) if v[1] else None) for b, v in row.items()} for a, row in h2h.items()}
    lengths = [r["length"] for r in records]
    return {"config": asdict(cfg), "cooperative": True, "games": len(records), "truncated": truncated,
            "mean_length": round(float(np.mean(lengths)), 3) if lengths else 0.0,
            "agents": out, "head_to_head": matrix, "forfeits": forfeits.listing(records)}


def aggregate(cfg: TournamentConfig, records: list[dict]) -> dict:
    """Win rates with Wilson intervals, mean scores and returns, OpenSkill ratings, head-to-head."""
    from openskill.models import PlackettLuce

    if is_cooperative(cfg.game, cfg.players, cfg.config):
        return aggregate_cooperative(cfg, records)

    n = cfg.players
    specs = list(cfg.agents)
    stats = {a: {"seat_games": 0, "wins": 0.0, "score": 0.0, "scored": 0, "return": 0.0,
                 "by_seat": [[0, 0.0] for _ in range(n)]} for a in specs}
    lost = forfeits.counts(specs, records)
    h2h = {a: {b: [0.0, 0] for b in specs if b != a} for a in specs}
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in specs}
    truncated = 0
    side_totals: dict = {}       # a game of sides: side -> [seat-games, wins], over every agent
    for a in specs:
        stats[a]["by_side"] = {}
    for rec in sorted(records, key=lambda r: r["index"]):
        seats, ret, sc = rec["seats"], rec["returns"], rec["scores"]
        truncated += rec["truncated"]
        shares = win_shares(ret, rec["truncated"], rec.get("sides"))
        cut = rec.get("forfeit") is not None
        for i, side in enumerate(rec.get("sides") or ()):
            for row in (stats[seats[i]]["by_side"].setdefault(side, [0, 0.0]), side_totals.setdefault(side, [0, 0.0])):
                row[0] += 1
                row[1] += shares[i]     # a forfeited game: its points at the cut are no final score
        for i, a in enumerate(seats):
            st = stats[a]
            st["seat_games"] += 1
            st["wins"] += shares[i]
            if not cut:
                st["score"] += sc[i]
                st["scored"] += 1
            st["return"] += ret[i]
            st["by_seat"][i][0] += 1
            st["by_seat"][i][1] += shares[i]
        # "ahead" = better return, then better game score (losers are told apart by their points)
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if a != b:
                    ki, kj = ((ret[i],), (ret[j],)) if cut else ((ret[i], sc[i]), (ret[j], sc[j]))
                    h2h[a][b][0] += 1.0 if ki > kj else 0.5 if ki == kj else 0.0
                    h2h[a][b][1] += 1
        present = sorted(set(seats), key=seats.index)
        if len(present) > 1:
            best = {a: max(ret[i] for i, x in enumerate(seats) if x == a) for a in present}
            ranks = [1 + sum(1 for b in present if best[b] > best[a]) for a in present]
            new = model.rate([[ratings[a]] for a in present], ranks=ranks)
            for a, team in zip(present, new):
                ratings[a] = team[0]
    out = []
    for a in specs:
        st = stats[a]
        g = st["seat_games"]
        lo, hi = wilson(st["wins"], g)
        r = ratings[a]
        out.append({
            "agent": a, "games": g, "wins": round(st["wins"], 6),
            "win_rate": round(st["wins"] / g, 6) if g else 0.0, "ci95": [round(lo, 6), round(hi, 6)],
            "baseline": None if side_totals else round(1 / n, 6),
            "mean_score": round(st["score"] / st["scored"], 6) if st["scored"] else 0.0,
            "mean_return": round(st["return"] / g, 6) if g else 0.0,
            "by_seat": [{"games": s_[0], "wins": round(s_[1], 6)} for s_ in st["by_seat"]],
            "openskill": {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "ordinal": round(r.ordinal(), 4)},
            "forfeits": lost[a],
        })
        if side_totals:
            out[-1]["by_side"] = {side: _rate(*st["by_side"][side]) for side in sorted(st["by_side"])}
    out.sort(key=lambda x: -x["openskill"]["ordinal"])
    matrix = {a: {b: (round(v[0] / v[1], 6) if v[1] else None) for b, v in row.items()} for a, row in h2h.items()}
    lengths = [r["length"] for r in records]
    res = {"config": asdict(cfg), "games": len(records), "truncated": truncated,
           "mean_length": round(float(np.mean(lengths)), 3) if lengths else 0.0,
           "agents": out, "head_to_head": matrix, "forfeits": forfeits.listing(records)}
    if side_totals:
        res["sides"] = {side: _rate(*side_totals[side]) for side in sorted(side_totals)}
    return res


def _rate(games: int, wins: float) -> dict:
    """Seat-games, wins, win rate and its 95% Wilson interval (a game of sides: one agent on one side)."""
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": round(wins, 6), "win_rate": round(wins / games, 6) if games else 0.0,
            "ci95": [round(lo, 6), round(hi, 6)]}


# -- reports --------------------------------------------------------------------------------
def report_markdown(res: dict, command: str = "") -> str:
    cfg = res["config"]
    seating = ("Co-operative game: each deal is played once by a team of each agent (the agent in every seat); "
               "win rate is the team's." if res.get("cooperative") else "Each deal is played in every seat rotation.")
    lines = [f"# Tournament: {cfg['game']}, {cfg['players']} players", "",
             f"{res['games']} games ({res['truncated']} truncated), mean length {res['mean_length']} decisions, "
             f"seed {cfg['seed']}, agents {', '.join(cfg['agents'])}. {seating}",
             ""]
    if command:
        lines += ["Reproduce: `" + command + "`", ""]
    lines += ["| agent | seat-games | win rate | 95% CI | 1/N | mean score | mean return | OpenSkill mu ± sigma | ordinal |",
              "|---|---:|---:|---|---:|---:|---:|---|---:|"]
    for a in res["agents"]:
        o = a["openskill"]
        base = "—" if a["baseline"] is None else f"{a['baseline']:.3f}"
        lines.append(f"| {a['agent']} | {a['games']} | {a['win_rate']:.3f} | [{a['ci95'][0]:.3f}, {a['ci95'][1]:.3f}] | "
                     f"{base} | {a['mean_score']:.2f} | {a['mean_return']:+.3f} | "
                     f"{o['mu']:.2f} ± {o['sigma']:.2f} | {o['ordinal']:.2f} |")
    names = [a["agent"] for a in res["agents"]]
    if len(names) > 1:
        lines += ["", "Head to head: how often the row agent finished ahead of the column agent at the same "
                  "table (by return, then game score; ties count half).", "",
                  "| | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
        for a in names:
            row = [("—" if b == a else ("n/a" if res["head_to_head"][a][b] is None else f"{res['head_to_head'][a][b]:.3f}"))
                   for b in names]
            lines.append(f"| {a} | " + " | ".join(row) + " |")
    lines += forfeits.report_lines(res)
    if res.get("cooperative"):
        return "\n".join(lines) + "\n"
    if res.get("sides"):
        lines += ["", "By side: a game of sides, where each seat of the winning side wins (so win rates are "
                  "compared with the side's own rate, not with 1/N; the seat rotation puts every agent on every "
                  "side a table allows).", "",
                  "| agent | side | seat-games | win rate | 95% CI | the side, all agents |", "|---|---|---:|---:|---|---:|"]
        for a in res["agents"]:
            for side, r in a["by_side"].items():
                lines.append(f"| {a['agent']} | {side} | {r['games']} | {r['win_rate']:.3f} | "
                             f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] | {res['sides'][side]['win_rate']:.3f} |")
    lines += ["", "By seat (wins / games):", ""]
    for a in res["agents"]:
        lines.append(f"- {a['agent']}: " + ", ".join(f"seat {i}: {s['wins']:g}/{s['games']}"
                                                      for i, s in enumerate(a["by_seat"])))
    return "\n".join(lines) + "\n"


def plot_winrates(res: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ag = res["agents"]
    x = np.arange(len(ag))
    rates = [a["win_rate"] for a in ag]
    err = np.array([[a["win_rate"] - a["ci95"][0] for a in ag], [a["ci95"][1] - a["win_rate"] for a in ag]])
    fig, ax = plt.subplots(figsize=(max(4, 1.4 * len(ag) + 2), 3.5))
    ax.bar(x, rates, yerr=err, capsize=6, color="#4c72b0")
    if ag and ag[0]["baseline"] is not None:
        ax.axhline(ag[0]["baseline"], color="grey", ls="--", lw=1, label="1/N")
    ax.set_xticks(x, [a["agent"] if len(a["agent"]) <= 32 else a["agent"][:29] + "..." for a in ag],
                  rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson CI)")
    cfg = res["config"]
    ax.set_title(f"{cfg['game']} {cfg['players']}p, {res['games']} games")
    if ag and ag[0]["baseline"] is not None:
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def results_table(res: dict) -> str:
    rows = [f"{res['config']['game']} {res['config']['players']}p ({res['games']} games)"]
    width = max([28, *(len(a["agent"]) for a in res["agents"])])      # long cmd:/ppo: specs keep the columns
    for a in res["agents"]:
        o = a["openskill"]
        base = "team game" if a["baseline"] is None else f"1/N {a['baseline']:.3f}"
        lost = sum((a.get("forfeits") or {}).values())
        rows.append(f"  {a['agent']:<{width}} win {a['win_rate']:.3f} [{a['ci95'][0]:.3f}, {a['ci95'][1]:.3f}]"
                    f" ({base})  score {a['mean_score']:.2f}  OpenSkill {o['mu']:.1f}±{o['sigma']:.1f}"
                    + (f"  forfeited {lost}" if lost else ""))
        for side, r in (a.get("by_side") or {}).items():
            rows.append(f"  {'':<{width}}   as {side}: win {r['win_rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
                        f" in {r['games']} ({side}, all agents: {res['sides'][side]['win_rate']:.3f})")
    return "\n".join(rows)


# -- the run ----------------------------------------------------------------------------------
#: what a tournament writes into its folder (deleted by fresh=True)
OUTPUTS = ("config.json", "games.jsonl", "results.json", "report.md", "winrates.png")


def _config_differs(before, asked: dict, cfg_path: str) -> str | None:
    """What differs between the tournament in cfg_path and the one asked for (None: the same)."""
    if before == asked:
        return None
    if not isinstance(before, dict):
        return f"{cfg_path} is not a tournament's config"
    before = {"limits": {}, **before}          # written before tournaments had bot limits
    if before == asked:
        return None
    if before.get("fingerprints") != asked["fingerprints"] and all(
            before.get(k) == v for k, v in asked.items() if k != "fingerprints"):
        return "an agent's model file changed, or an outside bot's program did"
    keys = [k for k in asked if k != "fingerprints" and before.get(k) != asked[k]]
    keys += [k for k in before if k not in asked]
    return "; ".join(f"{k!r} is {before.get(k)!r} there, {asked.get(k)!r} now" for k in keys)


def run_tournament(cfg: TournamentConfig, out_dir: str, workers: int | None = None, echo=print,
                   command: str = "", progress: bool = True, max_new_games: int | None = None,
                   fresh: bool = False, backend: str = "processes", address: str | None = None) -> dict:
    """Play (or resume) a tournament into out_dir and write its results; returns the results dict.

    Running it again resumes: the games in out_dir/games.jsonl are checked (`load_records`) and only
    the missing ones are played. Another tournament in out_dir (a changed config, agent model file,
    engine or agent) is refused with a ValueError saying how to start afresh; `fresh=True` deletes
    out_dir's tournament files first. `max_new_games` stops after that many new games (used to test
    resuming). backend "processes" (a local pool of `workers`) or "ray" (Ray tasks, on a local instance
    or the cluster at `address`: docs/scale.md); every game is a pure function of its job, so both give
    the same games.jsonl lines (but for each game's `seconds`) and the same results."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if address and backend != "ray":
        raise ValueError("--address is for --backend ray")
    if backend == "ray":
        import importlib.util
        if importlib.util.find_spec("ray") is None:
            raise ValueError("--backend ray needs Ray: pip install 'virus_envs[ray]'")
    cfg.validate()
    cfg_path = os.path.join(out_dir, "config.json")
    if fresh:
        for name in OUTPUTS:
            if os.path.exists(os.path.join(out_dir, name)):
                os.remove(os.path.join(out_dir, name))
    asked = asdict(cfg)
    if os.path.exists(cfg_path):
        try:
            with open(cfg_path) as f:
                before = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError(f"{cfg_path}: not a tournament's config (not JSON: {e}); {FRESH}") from None
        why = _config_differs(before, asked, cfg_path)
        if why:
            raise ValueError(f"{out_dir} holds another tournament ({why}); {FRESH}")
    jobs = schedule(cfg)
    games_path = os.path.join(out_dir, "games.jsonl")
    done = load_records(games_path, cfg, jobs)
    os.makedirs(out_dir, exist_ok=True)
    if not os.path.exists(cfg_path):
        with open(cfg_path, "w") as f:
            json.dump(asked, f, indent=2)
    todo = [j for j in jobs if j.index not in done]
    if max_new_games is not None:
        todo = todo[:max_new_games]
    if done:
        echo(f"resuming: {len(done)} of {len(jobs)} games already in {games_path} (each checked against the "
             f"schedule and replayed)")
    config_json = json.dumps(cfg.config, sort_keys=True)
    limits_json = json.dumps(cfg.limits, sort_keys=True)
    tasks = [(cfg.game, cfg.players, config_json, asdict(j), limits_json) for j in todo]
    given_workers = workers is not None
    workers = max(1, workers or os.cpu_count() or 1)
    bar = None
    if progress and tasks:
        from tqdm import tqdm
        bar = tqdm(total=len(jobs), initial=len(done), desc=f"{cfg.game} {cfg.players}p", file=sys.stderr,
                   unit="game", disable=None)
    pool = it = None
    try:
        with open(games_path, "a") as f:
            if backend == "ray" and tasks:
                it = _ray_records(tasks, workers if given_workers else None, address)
            elif workers > 1 and len(tasks) > 1:
                import multiprocessing as mp
                pool = mp.get_context("fork").Pool(workers, initializer=_ignore_sigint)
                it = pool.imap(play_job, tasks, chunksize=max(1, min(16, len(tasks) // (workers * 8) or 1)))
            else:
                it = map(play_job, tasks)
            for rec in it:
                f.write(json.dumps(rec) + "\n")
                f.flush()
                done[rec["index"]] = rec
                if bar:
                    bar.update(1)
    except KeyboardInterrupt:
        if pool:
            pool.terminate()
        raise ValueError(f"interrupted: {len(done)} of {len(jobs)} games saved in {games_path}; "
                         f"run the same command to resume") from None
    finally:
        if pool:
            pool.close()
            pool.join()
        if hasattr(it, "close"):          # the Ray generator: cancel what is in flight, stop a local instance
            it.close()
        close_agents()
        if bar:
            bar.close()
    records = [done[j.index] for j in jobs if j.index in done]
    res = aggregate(cfg, records)
    res["complete"] = len(records) == len(jobs)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(res, f, indent=2)
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write(report_markdown(res, command))
    plot_winrates(res, os.path.join(out_dir, "winrates.png"))
    return res


#: where the games are played: a local process pool, or Ray tasks (the `[ray]` extra)
BACKENDS = ("processes", "ray")


# -- configs and the command line ------------------------------------------------------------
class TournamentEntry(BaseModel):
    """One entry of a tournament file's `tournaments:` list."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str
    agents: Annotated[list[str], Field(min_length=1)]
    players: PositiveInt | None = None
    games: PositiveInt | None = None
    seed: NonNegativeInt | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    limits: forfeits.LimitsEntry | None = None

    @field_validator("game")
    @classmethod
    def _known_game(cls, v):
        import virus_envs

        if v not in virus_envs.ENV_IDS:
            raise ValueError(f"must be one of {list(virus_envs.ENV_IDS)}")
        return v


class TournamentFile(BaseModel):
    """A tournament YAML file: `tournaments:` and the defaults of its entries (`seed`, `games`, `limits`) and
    `workers`."""

    model_config = ConfigDict(extra="forbid", strict=True)

    seed: NonNegativeInt = 0
    games: PositiveInt = 200
    workers: PositiveInt | None = None
    limits: forfeits.LimitsEntry | None = None
    tournaments: Annotated[list[TournamentEntry], Field(min_length=1)]


def load_config_file(path: str) -> tuple[list[TournamentConfig], dict]:
    """A YAML file with `tournaments:` (a list of entries) and optional defaults `seed`, `games`, `workers`.

    Checked against `TournamentFile` (pydantic), then every entry's game config and agent specs are
    built once: any mistake is a ValueError naming the file and the key, before anything is played."""
    from virus_envs.experiments import configfile

    data = configfile.read(path, TournamentFile)
    out = []
    for i, e in enumerate(data.tournaments):
        limits = {**(data.limits.given() if data.limits else {}), **(e.limits.given() if e.limits else {})}
        c = TournamentConfig(game=e.game, agents=list(e.agents), players=e.players,
                             games=e.games if e.games is not None else data.games,
                             seed=e.seed if e.seed is not None else data.seed, config=dict(e.config),
                             limits=limits)
        try:
            c.validate()
        except ValueError as err:
            raise ValueError(f"{path}: tournaments[{i}]: {err}") from None
        out.append(c)
    return out, {"workers": data.workers}


def _kv(items):
    from virus_envs import agents as agents_mod
    cfg = {}
    for item in items or []:
        k, eq, v = item.partition("=")
        if not eq:
            raise ValueError(f"--game-config expects key=value, got {item!r}")
        cfg[k] = agents_mod._value(v)
    return cfg


def default_out(cfg: TournamentConfig) -> str:
    return os.path.join("runs", f"tournament-{cfg.game}-{cfg.players}p-seed{cfg.seed}")


def cmd_tournament(args, echo=print):
    if args.config:
        cfgs, extra = load_config_file(args.config)
        for c in cfgs:
            if args.games is not None:
                c.games = args.games
            if args.seed is not None:
                c.seed = args.seed
            c.limits.update(forfeits.limit_args(args))
        workers = args.workers or extra.get("workers")
    else:
        if not args.game or not args.agents:
            raise ValueError("give --config FILE, or --game and --agents")
        cfgs = [TournamentConfig(game=args.game, agents=args.agents, players=args.players,
                                 games=args.games or 200, seed=args.seed or 0, config=_kv(args.game_config),
                                 limits=forfeits.limit_args(args))]
        workers = args.workers
    results = []
    command = "virus-arena " + " ".join(sys.argv[1:]) if sys.argv and sys.argv[0].endswith("virus-arena") else ""
    for c in cfgs:
        c.validate()                    # every tournament checked before the first is played
    for c in cfgs:
        if args.out and len(cfgs) == 1:
            out = args.out
        elif args.out:
            out = os.path.join(args.out, f"{c.game}-{c.players}p")
        else:
            out = default_out(c)
        t0 = time.perf_counter()
        res = run_tournament(c, out, workers=workers, echo=echo, command=command, fresh=args.fresh,
                             backend=args.backend, address=args.address)
        echo(results_table(res))
        echo(f"  report: {os.path.join(out, 'report.md')}  ({time.perf_counter() - t0:.1f}s)")
        results.append(res)
    return results


def register(sub):
    t = sub.add_parser("tournament", help="agents against each other, fairly seated; ratings and a report")
    t.add_argument("--config", help="YAML file (configs/tournaments/*.yaml)")
    t.add_argument("--game", help="env id")
    t.add_argument("--players", type=int)
    t.add_argument("--agents", nargs="+", help="agent specs, e.g. heuristic random heuristic:aggressive")
    t.add_argument("--games", type=int, help="total games (rounded up to whole deals); default 200")
    t.add_argument("--seed", type=int)
    t.add_argument("--workers", type=int, help="processes (default: all cores); with --backend ray and no "
                   "--address: the CPUs of the local Ray instance")
    t.add_argument("--backend", choices=BACKENDS, default="processes",
                   help="processes: a local pool; ray: Ray tasks (pip install 'virus_envs[ray]'; docs/scale.md)")
    t.add_argument("--address", default=None,
                   help="with --backend ray: the cluster to use, 'auto' or HOST:PORT (default: a local instance)")
    t.add_argument("--out", help="output directory (default runs/tournament-<game>-<n>p-seed<k>)")
    t.add_argument("--game-config", action="append", metavar="KEY=VALUE", help="engine config (repeatable)")
    forfeits.add_limit_arguments(t)
    add_fresh_argument(t)
    from virus_envs.experiments.train import add_trust_argument
    add_trust_argument(t)
    t.set_defaults(func=cmd_tournament)


def add_fresh_argument(parser) -> None:
    """--fresh (and the old --resume, now what happens anyway) for `run` and `tournament`."""
    g = parser.add_mutually_exclusive_group()
    g.add_argument("--fresh", action="store_true",
                   help="delete the games already in the output folder and start afresh (by default the same "
                        "command resumes, and refuses a folder holding another tournament)")
    g.add_argument("--resume", action="store_true",
                   help="resume an interrupted run (what happens anyway; kept for old scripts)")
