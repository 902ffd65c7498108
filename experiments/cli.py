"""`virus-arena`: the project's command line.

    virus-arena run                       # heuristic vs random on every implemented game (make run)
    virus-arena eval --game virus_cards_v0 --agent heuristic --opponent random --games 1000
    virus-arena bench [--seconds 1 --rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
    """One agent against another over many games, every seat, 95% Wilson interval."""
    import virus_envs
    from virus_envs.experiments.arena import head_to_head
    from virus_envs import agents

    game = virus_envs.game(args.game, num_players=args.players)
    agents.make(args.agent, game)       # fail early on a bad spec
    agents.make(args.opponent, game)
    bar, tick = _progress(args.games, f"{args.game} {args.agent} vs {args.opponent}")
    res = head_to_head(game, args.agent, args.opponent, args.games, seed=args.seed, progress=tick)
    if bar:
        bar.close()
    lo, hi = res.interval()
    row = {"game": args.game, "players": game.num_players, "agent": args.agent, "opponent": args.opponent,
           "games": res.games, "wins": res.wins, "win_rate": round(res.rate, 4),
           "ci95": [round(lo, 4), round(hi, 4)], "baseline": round(1 / game.num_players, 4),
           "by_seat": {str(k): {"games": v[0], "wins": v[1]} for k, v in res.by_seat.items()},
           "seed": args.seed}
    echo(f"{args.game} {game.num_players}p: {args.agent} vs {args.opponent}: win rate {res.rate:.3f} "
         f"[{lo:.3f}, {hi:.3f}] over {res.games} games (baseline {1 / game.num_players:.3f}); by seat "
         + ", ".join(f"{k}: {v[1]:g}/{v[0]}" for k, v in res.by_seat.items()))
    if getattr(args, "out", None):
        with open(args.out, "w") as f:
            json.dump(row, f, indent=2)
    return row


def cmd_run(args, echo=print):
    """The main job: a tournament of the built-in agents on every implemented game (configs/tournaments/default.yaml)."""
    import os

    from virus_envs import agents
    import virus_envs
    from virus_envs.experiments.tournament import TournamentConfig, load_config_file, results_table, run_tournament

    cfgs, extra = load_config_file(args.config)
    listed = {c.game for c in cfgs}
    for env_id in virus_envs.ENV_IDS:      # games that landed after the config was written
        if env_id not in listed:
            cfgs.append(TournamentConfig(game=env_id, agents=["heuristic", "random"], games=cfgs[0].games if cfgs else 200))
    cfgs = [c for c in cfgs if c.game in virus_envs.ENV_IDS and (not args.game or c.game in args.game)]
    out_root = args.out or os.path.join("runs", f"run-seed{args.seed}")
    results, reports = [], []
    for c in cfgs:
        if c.game not in agents.HEURISTICS:
            echo(f"{c.game}: no heuristic yet, skipped")
            continue
        c.seed = args.seed
        if args.games:
            c.games = args.games
        out = os.path.join(out_root, f"{c.game}-{c.players or 'default'}p")
        if not args.resume:     # the main job starts afresh: the engine or agents may have changed since
            for name in ("config.json", "games.jsonl", "results.json", "report.md", "winrates.png"):
                if os.path.exists(os.path.join(out, name)):
                    os.remove(os.path.join(out, name))
        res = run_tournament(c, out, workers=args.workers or extra.get("workers"), echo=echo,
                             command=f"virus-arena run --seed {args.seed}" + (f" --games {args.games}" if args.games else ""))
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
    from virus_envs.experiments.bench import run_bench
    search = None if args.search.lower() == "none" else args.search
    return run_bench(env_ids=args.game or None, players=args.players or None, seconds=args.seconds,
                     rounds=args.rounds, seed=args.seed, out=args.out, echo=echo, search=search)


def _register_basic(sub):
    r = sub.add_parser("run", help="the main job: a tournament of the built-in agents on every implemented game")
    r.add_argument("--config", default=os.path.join(_ROOT, "configs", "tournaments", "default.yaml"))
    r.add_argument("--games", type=int, default=None, help="games per tournament (default: from the config)")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    r.add_argument("--out", default=None, help="output directory (default runs/run-seed<k>)")
    r.add_argument("--game", action="append", help="env id (repeatable; default: every implemented game)")
    r.add_argument("--resume", action="store_true", help="keep the games of an interrupted run instead of starting afresh")
    r.set_defaults(func=cmd_run)
    e = sub.add_parser("eval", help="one agent against another, every seat, with a 95%% interval")
    e.add_argument("--game", required=True)
    e.add_argument("--players", type=int, default=None)
    e.add_argument("--agent", default="heuristic")
    e.add_argument("--opponent", default="random")
    e.add_argument("--games", type=int, default=1000)
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--out", default=None)
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
    b.set_defaults(func=cmd_bench)


#: sub-command modules: each has `register(subparsers)` adding its parsers with `set_defaults(func=...)`;
#: a command function takes the parsed args and raises ValueError/OSError for a user mistake.
COMMAND_MODULES = [
    "virus_envs.experiments.cli:_register_basic",
    "virus_envs.experiments.tournament:register",
    "virus_envs.experiments.play:register",
    "virus_envs.experiments.train:register",
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
    try:
        args.func(args)
    except (ValueError, OSError) as e:
        raise SystemExit(f"virus-arena {args.cmd}: {e}") from None
    except KeyboardInterrupt:
        raise SystemExit(f"virus-arena {args.cmd}: interrupted") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
