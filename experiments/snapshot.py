"""`virus-arena snapshot`: a picture of a position, as PNG or SVG (the README's screenshots: `make screenshots`).

    virus-arena snapshot --game virus_lab_v0 --players 2 --seed 1 --steps 120 -o docs/img/virus_lab.png

The position is the deal of `--seed` after `--steps` decisions of the `--agents` (default heuristic, cycled
over the seats). `--seat p` draws what player_p sees instead of the full table.
"""
from __future__ import annotations


def snapshot(env_id, players, seed, steps, agents_specs, seat, out, config=None) -> dict:
    import virus_envs
    from virus_envs import agents
    from virus_envs.agents.base import decision_for
    from virus_envs.core.picture import rasterize, save_png

    if not out.endswith((".png", ".svg")):
        raise ValueError(f"-o {out}: the file must end in .png or .svg")
    if steps < 0:
        raise ValueError(f"--steps must be >= 0, got {steps}")
    game = virus_envs.game(env_id, num_players=players, **(config or {}))
    specs = agents_specs or ["heuristic"]
    bots = [agents.make(specs[p % len(specs)], game, seed=seed * 31 + p) for p in range(game.num_players)]
    s = game.new_initial_state(seed=seed)
    done = 0
    while done < steps and not s.is_terminal():
        bot = bots[s.current_player()]
        s.apply_action(bot.act(decision_for(s, with_handle=bot.needs_handle)))
        done += 1
    svg = s.picture(seat)
    if out.endswith(".svg"):
        with open(out, "w", encoding="utf-8") as f:
            f.write(svg)
    else:
        save_png(rasterize(svg), out)
    return {"decisions": done, "terminal": s.is_terminal(), "out": out}


def cmd_snapshot(args, echo=print):
    from virus_envs.experiments.tournament import _kv

    res = snapshot(args.game, args.players, args.seed, args.steps, args.agents, args.seat, args.out,
                   _kv(args.game_config))
    echo(f"{res['out']}: {args.game} seed {args.seed} after {res['decisions']} decisions"
         + (" (game over)" if res["terminal"] else ""))
    return res


def register(sub):
    p = sub.add_parser("snapshot", help="a picture of a position (PNG or SVG)")
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--steps", type=int, default=0, help="decisions played before the picture (default 0: the deal)")
    p.add_argument("--agents", nargs="+", help="agent specs playing those decisions, cycled (default heuristic)")
    p.add_argument("--seat", type=int, default=None, help="draw what this seat sees (default: the full table)")
    p.add_argument("-o", "--out", required=True, help="the file: .png or .svg")
    p.add_argument("--game-config", action="append", metavar="KEY=VALUE")
    p.set_defaults(func=cmd_snapshot)
