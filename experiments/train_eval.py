"""The honest half of training: choose on validation deals, report on test deals (issue 17).

A run plays three disjoint sets of deals:

| deals | drawn from | used for |
|---|---|---|
| training | the envs' own generators (`seed` + i) | learning |
| validation | `val_seed` (`eval_games` per opponent, every `eval_every` steps) | choosing `best.zip` |
| test | `test_seed` (`test_games` per opponent, once, at the end) | the figures reported; never for a choice |

Each deal's seed is a 62-bit number drawn from its set's generator, so two sets share a deal with
probability below 1e-9 for any run of this package's size; `val_seed` and `test_seed` are fixed in
the config, the same for every training seed, so runs of one config are compared on the same deals.
The test opponents default to held-out ones: every heuristic variant of the game, the shipped
model of the same game and player count and the earlier ones kept beside it (`ppo:builtin_prev`,
models/__init__.py), besides `eval_opponents`.
"""
from __future__ import annotations

import csv
from pathlib import Path


def held_out_opponents(game, cfg) -> list[str]:
    """cfg.test_opponents, or by default eval_opponents + every heuristic variant + the shipped and kept models."""
    if cfg.test_opponents:
        return list(cfg.test_opponents)
    from virus_envs import agents, models

    specs = list(cfg.eval_opponents)
    target = agents.HEURISTICS.get(game.env_id)
    if target:
        import importlib

        mod, cls = target.split(":")
        klass = getattr(importlib.import_module(mod), cls)
        specs += [f"heuristic:{v}" for v in sorted(getattr(klass, "VARIANTS", {}) or {})]
    for m in models.available():        # the shipped model (ppo.zip), then the ones it replaced (ppo_<tag>.zip)
        if m.env_id == game.env_id and m.num_players == game.num_players:
            specs.append(f"ppo:builtin_{m.tag}" if m.tag else "ppo:builtin")
    return list(dict.fromkeys(s for s in specs if s != "heuristic:default"))


def split_meta(cfg, test_opponents: list[str]) -> dict:
    """What a model file records of its deals (virus_meta["split"])."""
    return {"train_seed": cfg.seed, "val_seed": cfg.val_seed, "val_games": cfg.eval_games,
            "val_opponents": list(cfg.eval_opponents), "test_seed": cfg.test_seed, "test_games": cfg.test_games,
            "test_opponents": test_opponents}


def test_report(game, model_path: str, cfg, opponents: list, out: Path, echo) -> list[dict]:
    """Play the chosen model on the test deals against each opponent; test.csv and a table on echo.

    A multi-count model: `game` is a list of games (one per count) and `opponents` a list of lists, one per game;
    its rows are labelled 'spec (Np)'."""
    from virus_envs.experiments.train import evaluate_counts

    pairs = list(zip(game, opponents)) if isinstance(game, list) else [(game, opponents)]
    if not cfg.test_games or not any(o for _, o in pairs):
        return []
    echo(f"[{cfg.game}] test: {model_path} on the test deals (test_seed {cfg.test_seed}, {cfg.test_games} games "
         f"per opponent, seats rotated; never used to choose)")
    rows = []
    for g, opps in pairs:
        for r in evaluate_counts([g], model_path, opps, cfg.test_games, seed=cfg.test_seed):
            if len(pairs) > 1:
                r["opponent"] = f"{r['opponent']} ({g.num_players}p)"
            rows.append(r)
    with open(out / "test.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["opponent", "seat", "games", "wins", "win_rate", "ci95_low", "ci95_high", "baseline", "players"])
        for r in rows:
            for s, v in sorted(r["by_seat"].items()):
                w.writerow([r["opponent"], s, v["games"], v["wins"], round(v["win_rate"], 4),
                            round(v["ci95"][0], 4), round(v["ci95"][1], 4), round(r["baseline"], 4), r["players"]])
            w.writerow([r["opponent"], "all", r["games"], r["wins"], round(r["win_rate"], 4),
                        round(r["ci95"][0], 4), round(r["ci95"][1], 4), round(r["baseline"], 4), r["players"]])
    for r in rows:
        seats = ", ".join(f"seat {s} {v['win_rate']:.3f}" for s, v in sorted(r["by_seat"].items()))
        echo(f"[{cfg.game}] test vs {r['opponent']}: {r['win_rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] "
             f"({seats}; 1/N = {r['baseline']:.3f})")
    return rows
