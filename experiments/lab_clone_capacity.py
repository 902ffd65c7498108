"""Is the lab clone too small or too briefly trained? A measured answer (issue 17, the lab goal).

The shipped clone of the lab's team heuristic (`configs/train/virus_lab.yaml`: actor 128-128 tanh, 5 epochs, then
3 DAgger rounds) agrees with its teacher on 0.912 of held-out decisions and on 0.915 of its training decisions, which
reads as underfitting, and it wins about 1% of the deals where the teacher wins 22%. docs/agents/virus_lab.md names "a larger
network or more epochs" as a next step never tried. This script tries it on one set of teacher games, so that every
variant learns from the same data and is judged on the same deals:

    OPENBLAS_NUM_THREADS=1 python -m virus_envs.experiments.lab_clone_capacity --out DIR \
        [--games 6000] [--seed 0] [--variant NAME ...] [--eval-games 1000] [--eval-at 4,5,8,10,20]

1. `collect` the teacher's games (the team heuristic, 1 Hero, difficulty 1, `auto_display_choices`: the shipped
   model's game), cached in DIR/demos_<seed>_<games>.npz;
2. per variant, clone it from scratch (`behaviour_clone`, the shipped recipe's loss, batch and value weight) for
   the variant's epochs, with held-out accuracy by the teacher's decision kind (the first word of the action's
   name: move, explore, buy, ...) at each evaluation epoch;
3. at each `--eval-at` epoch, the clone's team win rate on `--eval-games` deals of the validation seed 7000003
   (greedy, the deals of `head_to_head`'s team mode: the same deals as the trainer's evaluations and as the
   heuristic's validation row of docs/results/virus_lab_reference.json).

Writes DIR/<variant>.json (rows per evaluation epoch) as it goes. No DAgger: this asks what capacity and epochs do
to cloning; DAgger's gain on top (0.89 -> 0.91 held-out in the shipped recipe) is measured by the trainer.
Result (2026-12-04, docs/agents/virus_lab.md, docs/results/virus_lab_clone_capacity.json): neither the epochs nor the
width helps; held-out agreement stops at 0.89-0.90 and the team wins 4-14 of 1000.
The test deals (9000011) are not touched: a variant that looks better here still has to be trained by the
trainer, on three seeds, and chosen on validation before anything is reported on test.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

VAL_SEED = 7000003
GAME_CONFIG = {"difficulty": 1, "auto_display_choices": True}

#: name -> (actor layers, activation, epochs, learning rate)
VARIANTS = {
    "base": ([128, 128], "tanh", 5, 1e-3),            # the shipped recipe's cloning (before DAgger)
    "base_long": ([128, 128], "tanh", 20, 1e-3),      # the same network, four times the epochs (its epoch 5 is
    #                                                   `base` exactly: same seed, initial weights and batches)
    "wide": ([512, 512], "relu", 8, 1e-3),            # four times the width (about 5x the cost of an epoch)
    "deep": ([512, 512, 256], "relu", 20, 5e-4),      # and a third layer
}


def _game():
    import virus_envs
    return virus_envs.game("virus_lab_v0", 1, **GAME_CONFIG)


def load_or_collect(out: Path, games: int, seed: int, workers: int, echo=print):
    from virus_envs.agents.imitation import Demonstrations, collect

    path = out / f"demos_{seed}_{games}.npz"
    if path.exists():
        z = np.load(path)
        meta = json.loads(str(z["meta"]))
        arrays = {k: z[k] for k in z.files if k not in ("meta",)}
        echo(f"teacher games from {path}")
        return Demonstrations(**arrays, **meta)
    t0 = time.time()
    d = collect(_game(), "heuristic", games, seed=seed, gamma=0.995, workers=workers, echo=echo)
    echo(f"teacher: {d.games} games, win rate {d.wins / d.games:.3f}, {len(d):,} decisions, "
         f"{(time.time() - t0) / 60:.1f} min")
    meta = {"obs_size": d.obs_size, "num_actions": d.num_actions, "games": d.games, "wins": d.wins,
            "decisions": d.decisions}
    arrays = {k: getattr(d, k) for k in ("obs_ptr", "obs_idx", "obs_val", "mask_ptr", "mask_idx", "actions",
                                         "returns", "game_ids")}
    np.savez(path, meta=json.dumps(meta), **arrays)
    return d


def make_policy(arch: list[int], activation: str, seed: int):
    """A fresh MaskablePPO MLP policy of the trainer's shape (critic 64-64, as the shipped config)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from virus_envs.agents.sb3_env import SelfPlayEnv

    venv = DummyVecEnv([lambda: SelfPlayEnv("virus_lab_v0", 1, GAME_CONFIG, opponents={"random": 1.0})])
    act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[activation]
    model = MaskablePPO("MlpPolicy", venv, policy_kwargs={"net_arch": dict(pi=list(arch), vf=[64, 64]),
                                                          "activation_fn": act}, seed=seed, device="cpu", verbose=0)
    return model.policy


def kind_accuracy(policy, demos, rows: np.ndarray, names: list[str]) -> dict:
    """Held-out agreement with the teacher by decision kind (first word of the teacher action's name)."""
    import torch

    from virus_envs.agents.imitation import sparse_logits

    pred = np.zeros(rows.shape[0], dtype=np.int64)
    policy.train(False)
    with torch.no_grad():
        for lo in range(0, rows.shape[0], 2048):
            idx = rows[lo:lo + 2048]
            si, so, sv = demos.sparse_batch(idx)
            logits, _ = sparse_logits(policy, torch.as_tensor(si), torch.as_tensor(so), torch.as_tensor(sv),
                                      torch.as_tensor(demos.masks(idx)))
            pred[lo:lo + idx.shape[0]] = logits.argmax(-1).numpy()
    teacher = demos.actions[rows]
    kinds = np.asarray([names[a] for a in teacher])
    out = {"all": {"n": int(rows.shape[0]), "acc": float(np.mean(pred == teacher))}}
    for k in sorted(set(kinds)):
        sel = kinds == k
        out[k] = {"n": int(sel.sum()), "acc": float(np.mean(pred[sel] == teacher[sel]))}
    return out


def team_win_rate(policy, games: int, seed: int = VAL_SEED) -> dict:
    """The clone as a (1-Hero) team on `games` deals of `seed`, greedy: the deals and the win of head_to_head's team
    mode (`play_match`, `win_shares`), the network as a greedy SnapshotAgent since it is not a file yet."""
    from virus_envs.agents.ppo import NumpyPolicy, SnapshotAgent
    from virus_envs.experiments.arena import play_match, wilson, win_shares

    net = NumpyPolicy.from_sb3(policy)
    game = _game()
    rng = np.random.default_rng(seed)
    wins = 0
    for _ in range(games):
        o = play_match(game, [SnapshotAgent(game, net, deterministic=True)], int(rng.integers(0, 2**62)))
        wins += int(win_shares(o.returns, o.truncated)[0] > 0)
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games, "ci95": [lo, hi], "seed": seed}


def run_variant(name: str, demos, out: Path, seed: int, eval_at: list[int], eval_games: int, echo=print) -> list:
    import torch

    from virus_envs.agents.imitation import behaviour_clone, held_out_rows

    torch.set_num_threads(1)
    arch, activation, epochs, lr = VARIANTS[name]
    policy = make_policy(arch, activation, seed)
    names = [_game().action_to_string(a).split()[0] for a in range(demos.num_actions)]
    val_rows = held_out_rows(demos, seed)           # behaviour_clone's own held-out games
    rows, t0 = [], time.time()
    stops = {e for e in eval_at if e <= epochs} | {epochs}

    def at_epoch(r):
        if r["epoch"] not in stops:
            return
        row = {"variant": name, "arch": arch, "activation": activation, "lr": lr, "epoch": r["epoch"],
               "minutes": round((time.time() - t0) / 60, 2), "train_acc": r["train_acc"],
               "val_acc": r.get("val_acc"), "val_loss": r.get("val_loss"),
               "by_kind": kind_accuracy(policy, demos, val_rows, names)}
        if eval_games:
            row["team_val"] = team_win_rate(policy, eval_games)
        rows.append(row)
        echo(f"[{name}] epoch {r['epoch']}: held-out acc {row['val_acc']:.3f} (train {row['train_acc']:.3f}); "
             + ", ".join(f"{k} {v['acc']:.2f}" for k, v in row["by_kind"].items() if v["n"] >= 200)
             + (f"; team {row['team_val']['wins']}/{eval_games}" if eval_games else ""), flush=True)
        with open(out / f"{name}.json", "w") as f:
            json.dump(rows, f, indent=1)

    behaviour_clone(policy, demos, epochs, lr=lr, batch_size=512, value_coef=0.5, seed=seed, label=name,
                    echo=lambda s: echo(f"[{name}] {s}", flush=True), on_epoch=at_epoch)
    return rows


def summarize(out: Path, path: str, games: int, seed: int) -> None:
    """One file of every variant's rows in `out` (in VARIANTS order), with the teacher data it learned from."""
    rows = {n: json.loads((out / f"{n}.json").read_text()) for n in VARIANTS if (out / f"{n}.json").is_file()}
    if not rows:
        raise SystemExit(f"{out}: no variant results (<variant>.json) to summarize")
    demo = out / f"demos_{seed}_{games}.npz"
    teacher = json.loads(str(np.load(demo)["meta"])) if demo.is_file() else None
    doc = {"about": "lab clone capacity (experiments/lab_clone_capacity.py): one set of teacher games, each variant "
                    "cloned from scratch; held-out agreement by decision kind; team win rate on validation deals",
           "teacher_games": games, "teacher_seed": seed, "teacher": teacher, "val_seed": VAL_SEED,
           "variants": {n: {"arch": VARIANTS[n][0], "activation": VARIANTS[n][1], "epochs": VARIANTS[n][2],
                            "lr": VARIANTS[n][3], "rows": r,
                            "stopped_after_epoch": (r[-1]["epoch"] if r[-1]["epoch"] < VARIANTS[n][2] else None)}
                        for n, r in rows.items()}}
    Path(path).write_text(json.dumps(doc, indent=1))
    print(f"written to {path} ({', '.join(rows)})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--eval-at", default="4,5,8,10,20", help="epochs after which the clone is evaluated")
    ap.add_argument("--collect-only", action="store_true")
    ap.add_argument("--summarize", metavar="JSON", help="write the variants' rows found in --out into one stored file "
                                                         "(docs/results/virus_lab_clone_capacity.json) and stop")
    a = ap.parse_args(argv)
    out = Path(a.out)
    if a.summarize:
        return summarize(out, a.summarize, a.games, a.seed)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    demos = load_or_collect(out, a.games, a.seed, a.workers)
    if a.collect_only:
        return
    for name in a.variant or list(VARIANTS):
        run_variant(name, demos, out, a.seed, [int(x) for x in a.eval_at.split(",") if x], a.eval_games)


if __name__ == "__main__":
    main()
