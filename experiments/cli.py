"""`virus-arena`: the project's command line.

    virus-arena run                       # heuristic vs random on every implemented game (make run)
    virus-arena eval --game virus_cards_v0 --agent heuristic --opponent random --games 1000
    virus-arena eval --game virus_lab_v0 --players 1 --game-config difficulty=1 --games 1000   # a team
    virus-arena bench [--seconds 1 --rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import sys


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise SystemExit(f"virus-arena: {message} (see virus-arena --help)")


def _progress(total, desc):
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        return None, None
    bar = tqdm(total=total, desc=desc, file=sys.stderr, leave=False, disable=not sys.stderr.isatty())
    return bar, (lambda k: bar.update(k - bar.n))


def cmd_eval(args, echo=print):
    """One agent against another over many games, every seat, 95% Wilson interval.

    In a co-operative game there is no opponent: `--agent` plays as a whole team, or, with
    `--opponent`, in one seat with partners of that spec in the others (seats rotated); the result
    is the team's win rate, with no 1/N baseline."""
    import virus_envs
    from virus_envs.experiments.arena import head_to_head, mixed_team
    from virus_envs.experiments.tournament import _kv
    from virus_envs import agents

    config = _kv(getattr(args, "game_config", None))
    game = virus_envs.game(args.game, num_players=args.players, **config)
    coop = bool(getattr(game, "cooperative", False))
    if coop and args.opponent and game.num_players == 1:
        raise ValueError(f"{args.game} with 1 player is a team of one: --opponent has no seat to play "
                         f"(give --players 2 or more to seat partners)")
    opponent = args.opponent or (None if coop else "random")
    agents.make(args.agent, game)       # fail early on a bad spec
    if opponent:
        agents.make(opponent, game)
    if coop:
        label = f"team of {args.agent}" if not opponent else f"{args.agent} with partners {opponent}"
    else:
        label = f"{args.agent} vs {opponent}"
    bar, tick = _progress(args.games, f"{args.game} {label}")
    if not coop:
        res = head_to_head(game, args.agent, opponent, args.games, seed=args.seed, progress=tick)
    elif opponent:
        res = mixed_team(game, args.agent, opponent, args.games, seed=args.seed, progress=tick)
    else:
        res = head_to_head(game, args.agent, args.agent, args.games, seed=args.seed, progress=tick)
    if bar:
        bar.close()
    lo, hi = res.interval()
    baseline = None if coop else round(1 / game.num_players, 4)
    row = {"game": args.game, "players": game.num_players, "agent": args.agent, "opponent": None if coop else opponent,
           "partners": (opponent or args.agent) if coop else None, "cooperative": coop,
           "games": res.games, "wins": res.wins, "win_rate": round(res.rate, 4),
           "ci95": [round(lo, 4), round(hi, 4)], "baseline": baseline,
           "by_seat": {str(k): {"games": v[0], "wins": v[1]} for k, v in res.by_seat.items()},
           "seed": args.seed, "config": config}
    what = ("team win rate" if coop else "win rate")
    base = ("a co-operative game: no 1/N baseline" if coop else f"baseline {1 / game.num_players:.3f}")
    seats = "" if coop and not opponent else "; by seat " + ", ".join(f"{k}: {v[1]:g}/{v[0]}"
                                                                   for k, v in res.by_seat.items())
    echo(f"{args.game} {game.num_players}p: {label}: {what} {res.rate:.3f} [{lo:.3f}, {hi:.3f}] over {res.games} "
         f"games ({base}){seats}")
    if getattr(args, "out", None):
        with open(args.out, "w") as f:
            json.dump(row, f, indent=2)
    return row


def cmd_run(args, echo=print):
    """The main job: a tournament of the built-in agents on every implemented game (configs/tournaments/default.yaml)."""
    import os

    from virus_envs import agents, configs
    import virus_envs
    from virus_envs.experiments.tournament import TournamentConfig, load_config_file, results_table, run_tournament

    for env_id in args.game or []:
        virus_envs.game_class(env_id)     # ValueError naming an unknown env id
    path = args.config or configs.path("tournaments", "default.yaml")
    cfgs, extra = load_config_file(path)
    listed = {c.game for c in cfgs}
    for env_id in virus_envs.ENV_IDS:      # games that landed after the config was written
        if env_id not in listed:
            cfgs.append(TournamentConfig(game=env_id, agents=["heuristic", "random"], games=cfgs[0].games if cfgs else 200))
    cfgs = [c for c in cfgs if not args.game or c.game in args.game]
    for c in cfgs:
        c.seed = args.seed
        if args.games:
            c.games = args.games
        if c.game in agents.HEURISTICS:
            c.validate()                  # every tournament checked before the first is played
    out_root = args.out or os.path.join("runs", f"run-seed{args.seed}")
    results, reports = [], []
    command = " ".join(["virus-arena run", f"--seed {args.seed}"] + ([f"--games {args.games}"] if args.games else [])
                       + ([f"--config {args.config}"] if args.config else []) + [f"--game {g}" for g in args.game or []]
                       + ([f"--out {args.out}"] if args.out else []))
    for c in cfgs:
        if c.game not in agents.HEURISTICS:
            echo(f"{c.game}: no heuristic yet, skipped")
            continue
        out = os.path.join(out_root, f"{c.game}-{c.players}p")
        # the same command resumes (the games are checked); another config, model, engine or agent is refused
        res = run_tournament(c, out, workers=args.workers or extra.get("workers"), echo=echo, command=command,
                             fresh=args.fresh)
        echo(results_table(res))
        reports.append(os.path.join(out, "report.md"))
        results.append(res)
    echo("")
    echo("| game | players | agent | seat-games | win rate | 95% CI | 1/N | OpenSkill |")
    echo("|---|---:|---|---:|---:|---|---:|---|")
    for res in results:
        for a in res["agents"]:
            base = "team" if a["baseline"] is None else f"{a['baseline']:.3f}"
            echo(f"| {res['config']['game']} | {res['config']['players']} | {a['agent']} | {a['games']} | "
                 f"{a['win_rate']:.3f} | [{a['ci95'][0]:.3f}, {a['ci95'][1]:.3f}] | {base} | "
                 f"{a['openskill']['mu']:.1f} ± {a['openskill']['sigma']:.1f} |")
    echo("")
    for r in reports:
        echo(f"report: {r}")
    return results


def cmd_bench(args, echo=print):
    import math

    import virus_envs
    from virus_envs.experiments.bench import run_bench

    if args.batch < 0:
        raise ValueError(f"--batch must be >= 0 (0: no batched rows), got {args.batch}")
    if not (math.isfinite(args.seconds) and args.seconds > 0):
        raise ValueError(f"--seconds must be a positive number, got {args.seconds:g}")
    ranges = {e: (virus_envs.game_class(e).min_players, virus_envs.game_class(e).max_players)
              for e in (args.game or virus_envs.ENV_IDS)}
    for n in args.players or []:
        if not any(lo <= n <= hi for lo, hi in ranges.values()):
            raise ValueError(f"--players {n}: no game benchmarked takes {n} players ("
                             + ", ".join(f"{e} {lo}..{hi}" for e, (lo, hi) in ranges.items()) + ")")
    search = None if args.search.lower() == "none" else args.search
    return run_bench(env_ids=args.game or None, players=args.players or None, seconds=args.seconds,
                     rounds=args.rounds, seed=args.seed, out=args.out, echo=echo, search=search,
                     openspiel=not args.no_openspiel, batch=args.batch)


def _register_basic(sub):
    from virus_envs.experiments.tournament import add_fresh_argument
    from virus_envs.experiments.train import add_trust_argument

    r = sub.add_parser("run", help="the main job: a tournament of the built-in agents on every implemented game")
    r.add_argument("--config", default=None, help="tournament YAML (default: the shipped configs/tournaments/default.yaml)")
    r.add_argument("--games", type=int, default=None, help="games per tournament (default: from the config)")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    r.add_argument("--out", default=None, help="output directory (default runs/run-seed<k>)")
    r.add_argument("--game", action="append", help="env id (repeatable; default: every implemented game)")
    add_fresh_argument(r)
    add_trust_argument(r)
    r.set_defaults(func=cmd_run)
    e = sub.add_parser("eval", help="one agent against another, every seat, with a 95%% interval")
    e.add_argument("--game", required=True)
    e.add_argument("--players", type=int, default=None)
    e.add_argument("--agent", default="heuristic")
    e.add_argument("--opponent", default=None,
                   help="default random; in a co-operative game the partners of --agent (default: a team of --agent)")
    e.add_argument("--games", type=int, default=1000)
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--out", default=None)
    e.add_argument("--game-config", action="append", metavar="KEY=VALUE", help="engine config (repeatable)")
    add_trust_argument(e)
    e.set_defaults(func=cmd_eval)
    b = sub.add_parser("bench", help="steps/s beside PettingZoo's connect_four_v3 and texas_holdem_v4")
    b.add_argument("--game", action="append", help="env id (repeatable; default: all)")
    b.add_argument("--players", type=int, action="append", help="player count (repeatable)")
    b.add_argument("--seconds", type=float, default=1.0, help="seconds per target per round")
    b.add_argument("--rounds", type=int, default=3)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--out", default=None, help="write the rows as JSON here")
    b.add_argument("--search", default="ismcts?iters=100",
                   help="search agent timed at positions of random games, one row per game ('none': no search rows)")
    b.add_argument("--no-openspiel", action="store_true",
                   help="leave out the rows through OpenSpiel (shown when pyspiel is installed)")
    b.add_argument("--batch", type=int, default=1024,
                   help="games per batch in the batched-engine rows (0: no batched rows)")
    b.set_defaults(func=cmd_bench)


#: sub-command modules: each has `register(subparsers)` adding its parsers with `set_defaults(func=...)`;
#: a command function takes the parsed args and raises ValueError/OSError for a user mistake.
COMMAND_MODULES = [
    "virus_envs.experiments.cli:_register_basic",
    "virus_envs.experiments.tournament:register",
    "virus_envs.experiments.play:register",
    "virus_envs.experiments.serve:register",
    "virus_envs.experiments.snapshot:register",
    "virus_envs.experiments.train:register",
    "virus_envs.experiments.record_split:register",
    "virus_envs.experiments.contamination_study:register",
]


def build_parser() -> argparse.ArgumentParser:
    import importlib

    p = _Parser(prog="virus-arena", description="Tournaments, evaluation and benchmarks for virus_envs.")
    sub = p.add_subparsers(dest="cmd", parser_class=_Parser)
    for target in COMMAND_MODULES:
        mod, fn = target.split(":")
        getattr(importlib.import_module(mod), fn)(sub)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.cmd:
        parser.print_help()
        return 2
    for key in ("games", "rounds", "workers"):
        value = getattr(args, key, None)
        if value is not None and value < 1:
            raise SystemExit(f"virus-arena: --{key} must be at least 1")
    from virus_envs.agents.base import Forfeit
    from virus_envs.agents.ppo import trust_models

    try:
        with trust_models(getattr(args, "trust_model", False)):
            args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`virus-arena replay ... | head`): stop quietly, as the shell's own tools do;
        # stdout is pointed at /dev/null so that the interpreter's final flush raises nothing either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141            # 128 + SIGPIPE
    except (ValueError, OSError, Forfeit) as e:
        raise SystemExit(f"virus-arena {args.cmd}: {e}") from None
    except KeyboardInterrupt:
        raise SystemExit(f"virus-arena {args.cmd}: interrupted") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
