"""An exploitability proxy (issue 17): train a PPO best response against a frozen agent, report how far above 1/N it gets.

    virus-arena train --game roll_write_v0 --best-response-to ppo:builtin --out /tmp/br_rw
    virus-arena train --game roll_write_v0 --best-response-to ppo:runs/x/final.zip --total-steps 300000

A policy that could not be exploited would hold any learner to its 1/N share in the learner's seat;
how far a fresh learner gets above 1/N against it, in the same training budget, is a lower bound on
how exploitable it is (the learner is one PPO run, not the true best response: a small margin does not
prove the target unexploitable). The run is `virus-arena train` with these keys set:

| key | value |
|---|---|
| everything else | the target model's own training config (`virus_meta["config"]`: network, budget `total_steps`, PPO's settings, shaping): the same budget; with `--config`, for a model without a stored config, or for a target that is not a model file, that config file (default `configs/train/<game>.yaml`) |
| `players`, `game_config` | the target model's (`virus_meta`) |
| `opponents` | the target alone, in every other seat of every game (`same_opponent: true`); no snapshots, no league |
| `eval_opponents`, `test_opponents` | the target alone: `best.zip` is chosen on the validation deals (`val_seed`) and reported on the test deals (`test_seed`) |
| `bc_teacher`, `init_from` | off: the learner starts from a fresh network |

Command-line overrides (`--total-steps`, `--seed`, `--max-minutes`, `--test-games`, ...) apply on top and are
named in the report. Written to `--out`: everything `train` writes, plus `best_response.json` (the test win
rate with its 95% Wilson interval, per seat, 1/N, the margin above 1/N with its interval, the steps run and
the target's budget).
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

__all__ = ["best_response_config", "best_response", "margin_report", "margin_markdown"]


def _model_path(target: str, env_id: str, players: int | None) -> str | None:
    """The model file a `ppo:` spec names (builtin: the shipped one of env_id and players), or None."""
    if not target.startswith("ppo:"):
        return None
    path = target[len("ppo:"):].split("?", 1)[0]
    if path == "builtin":
        from virus_envs import models
        return models.path(env_id, players)
    return path


def best_response_config(target: str, env_id: str, players: int | None = None, config_path: str | None = None):
    """(TrainConfig, where its base came from, the target's trained steps or None) of a best response to target."""
    import virus_envs
    from virus_envs.agents.ppo import model_meta
    from virus_envs.experiments.train import TrainConfig, config_from_dict, default_config_path, load_config

    cls = virus_envs.game_class(env_id)                     # ValueError naming an unknown env id
    if getattr(cls, "cooperative", False):
        raise ValueError(f"--best-response-to: {env_id} is co-operative (one team, no rival to exploit)")
    path = _model_path(target, env_id, players)
    budget, base = None, {}
    if path is not None:
        meta = model_meta(path)
        if meta.get("env_id") not in (None, env_id):
            raise ValueError(f"--best-response-to {target}: {path} is a model for {meta['env_id']}, not {env_id}")
        if players and meta.get("num_players") and players != meta["num_players"]:
            raise ValueError(f"--best-response-to {target}: {path} was trained for {env_id} with "
                             f"{meta['num_players']} players, not --players {players}")
        known = {f.name for f in dataclasses.fields(TrainConfig)}
        base = {k: v for k, v in (meta.get("config") or {}).items() if k in known}
        players = int(meta.get("num_players") or base.get("players") or 0) or players
    if base and not config_path:
        # its own recipe; the keys set below are cleared first (a stored init_from may name a file gone since)
        base.update(init_from="", bc_teacher="", opponents={target: 1.0}, game=env_id)
        cfg = config_from_dict(base, f"{path} (virus_meta.config)")
        cfg.game_config = dict(meta.get("game_config") or {})
        source = f"{path}'s own training config (virus_meta.config)"
        budget = int(base.get("total_steps", 0)) or None
    else:
        file = Path(config_path) if config_path else default_config_path(env_id)
        if config_path and not file.is_file():
            raise ValueError(f"config file not found: {config_path}")
        cfg = load_config(file) if file.is_file() else TrainConfig()
        if cfg.game and cfg.game != env_id:
            raise ValueError(f"{file}: config is for game {cfg.game!r}, not --game {env_id!r}")
        source = str(file) if file.is_file() else "the defaults (no configs/train file)"
        if path is not None:
            cfg.game_config = dict(meta.get("game_config") or {})
    if players:
        cfg.players = players
    cfg.game = env_id
    for key, value in (("opponents", {target: 1.0}), ("same_opponent", True), ("pfsp", 0.0), ("bc_teacher", ""),
                       ("init_from", ""), ("eval_opponents", [target]), ("test_opponents", [target])):
        setattr(cfg, key, value)
    return cfg, source, budget


def margin_report(row: dict, num_players: int) -> dict:
    """The test row of the target (from `train`'s summary) as the proxy: win rate, interval, 1/N, margin."""
    base = 1.0 / num_players
    lo, hi = row["ci95"]
    return {"opponent": row["opponent"], "games": row["games"], "wins": row["wins"], "win_rate": row["win_rate"],
            "ci95": [lo, hi], "baseline": base, "margin": row["win_rate"] - base, "margin_ci95": [lo - base, hi - base],
            "by_seat": row["by_seat"]}


def margin_markdown(rep: dict) -> str:
    """A best_response.json as the docs' table: the win rate against the target and the margin above 1/N, all seats
    (bold) and per seat, 95% Wilson intervals."""
    n, base = rep["num_players"], rep["baseline"]
    lo, hi = rep["ci95"]
    against = f"`{rep['target']}`" if n == 2 else f"{n - 1} x `{rep['target']}`"
    lines = [f"| | best response vs {against} [95% CI] | margin above 1/N = {base:g} [95% CI] |", "|---|---|---|",
             f"| {'both' if n == 2 else 'all'} seats ({rep['games']} games) | **{rep['win_rate']:.3f}** [{lo:.3f}, "
             f"{hi:.3f}] | **{rep['margin']:+.3f}** [{rep['margin_ci95'][0]:+.3f}, {rep['margin_ci95'][1]:+.3f}] |"]
    for s, v in sorted(rep["by_seat"].items(), key=lambda kv: int(kv[0])):
        lines.append(f"| seat {s} ({v['games']}) | {v['win_rate']:.3f} [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}] | "
                     f"{v['win_rate'] - base:+.3f} |")
    return "\n".join(lines) + "\n"


def best_response(target: str, env_id: str, out, players: int | None = None, config_path: str | None = None,
                  overrides: dict | None = None, echo=print, command: str = "") -> dict:
    """Train a best response to `target` and report it (also written to out/best_response.json)."""
    from virus_envs.experiments.train import set_key, train

    cfg, source, budget = best_response_config(target, env_id, players, config_path)
    for key, value in (overrides or {}).items():
        set_key(cfg, key, value, f"--{key.replace('_', '-')}")
    if not cfg.test_games:
        raise ValueError("--test-games must be at least 1: the test win rate is the best response's report")
    echo(f"[{env_id}] best response to {target}: base config {source}"
         + (f"; the target's budget {budget:,} steps, this run {cfg.total_steps:,}" if budget else "")
         + (f"; overridden: {', '.join(f'{k}={v}' for k, v in overrides.items())}" if overrides else ""))
    from virus_envs.experiments.train import TrainConfig

    default = TrainConfig()
    echo(f"[{env_id}] resolved: " + ", ".join(f"{k}={v}" for k, v in dataclasses.asdict(cfg).items()
                                              if v != getattr(default, k)))
    summary = train(cfg, out, echo=echo, command=command)
    row = next(r for r in summary["test"] if r["opponent"] == target)
    rep = margin_report(row, summary["num_players"])
    rep.update(target=target, env_id=env_id, num_players=summary["num_players"], base_config=source,
               target_budget_steps=budget, steps=summary["steps"], minutes=summary["minutes"],
               stopped_by_time=summary["stopped_by_time"], test_seed=cfg.test_seed, val_seed=cfg.val_seed,
               seed=cfg.seed, overrides=dict(overrides or {}), command=command)
    with open(Path(out) / "best_response.json", "w") as f:
        json.dump(rep, f, indent=2)
    seats = ", ".join(f"seat {s} {v['win_rate']:.3f}" for s, v in sorted(rep["by_seat"].items()))
    echo(f"[{env_id}] best response to {target}: test win rate {rep['win_rate']:.3f} "
         f"[{rep['ci95'][0]:.3f}, {rep['ci95'][1]:.3f}] over {rep['games']} games ({seats}); 1/N = "
         f"{rep['baseline']:.3f}; margin {rep['margin']:+.3f} [{rep['margin_ci95'][0]:+.3f}, "
         f"{rep['margin_ci95'][1]:+.3f}] after {rep['steps']:,} steps"
         + (f" of the target's {budget:,}" if budget else "") + ("; stopped by max_minutes" if rep["stopped_by_time"] else ""))
    return rep
