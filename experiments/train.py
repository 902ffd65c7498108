"""`virus-arena train`: MaskablePPO self-play for any game of the package.

    virus-arena train --game virus_cards_v0 --config configs/train/virus_cards.yaml --seed 0 --out runs/train/vc
    virus-arena train --game virus_cards_v0 --total-steps 20000           # defaults of TrainConfig, quick try
    virus-arena train --game virus_cards_v0 --evaluate models/virus_cards_v0/ppo.zip --games 1000

The learner plays one seat of each game against a pool of opponents (agents/sb3_env.py): `random`,
`heuristic` and frozen snapshots of itself, refreshed every `snapshot_every` steps. Every
`eval_every` steps the current policy is saved as a checkpoint and played against each of
`eval_opponents` with `virus_envs.experiments.arena.head_to_head` (the tournament code, every seat in
turn); the best checkpoint by mean win rate is kept as `best.zip`. Written to `--out`:

| file | what |
|---|---|
| `config.yaml` | the resolved config (after command-line overrides) |
| `progress.csv` | SB3's per-rollout log (losses, entropy, fps) plus self-play win rates per opponent kind |
| `eval.csv` | one row per evaluation: step, opponent, games, win rate, 95% Wilson interval |
| `checkpoints/step_<n>.zip` | the policy at each evaluation |
| `final.zip`, `best.zip` | the last policy; the best one by evaluation on the validation deals (`val_seed`) |
| `test.csv` | `best.zip` on the test deals (`test_seed`) against held-out opponents, per seat (experiments/train_eval.py) |
| `summary.json` | the command, timings, evaluations, where each model is |
| TensorBoard events | only when `tensorboard` is installed |

Reproducible with `--seed` on `vec_env: dummy` (the default) when the run ends by `total_steps`;
a run cut by `max_minutes` (a safety on shared machines) depends on the machine's speed.
"""
from __future__ import annotations

import csv
import dataclasses
import json
import os
import shlex
import shutil
import sys
import time
from collections import deque
from dataclasses import field
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import ConfigDict, Field, NonNegativeInt as NonNegInt, field_validator
from pydantic.dataclasses import dataclass as pydantic_dataclass

from virus_envs.experiments import configfile
from virus_envs.experiments.configfile import Number

REPO = Path(__file__).resolve().parents[1]
#: a count of at least 1
PositiveInt = Annotated[int, Field(ge=1)]


@pydantic_dataclass(config=ConfigDict(extra="forbid", strict=True, validate_assignment=True))
class TrainConfig:
    """Every knob of a training run; a YAML config sets any subset. Checked by pydantic (types, ranges,
    choices, an unknown key) when built and when a key is set: one line naming the key."""

    game: str = ""
    """env id (must match --game when both are given)"""
    players: NonNegInt = 0
    """player count; 0 = the game's default (a model only fits the player count it was trained for)"""
    player_counts: list[Annotated[int, Field(ge=1)]] = field(default_factory=list)
    """several player counts for one model in the game's padded encoding (agents/padded.py; VIRUS!: 2-6), a count
    drawn per episode, each evaluated and tested; [] = `players` alone"""
    game_config: dict[str, Any] = field(default_factory=dict)
    """engine config keys passed to virus_envs.game(...)"""
    total_steps: PositiveInt = 200_000
    """learner decisions (environment steps) to train for"""
    max_minutes: Annotated[Number, Field(ge=0)] = 0.0
    """stop after this wall time even if total_steps is not reached (0 = no limit)"""
    seed: NonNegInt = 0
    """seeds the model, the envs (seed + i) and the evaluations"""
    n_envs: PositiveInt = 8
    """parallel copies of the game"""
    vec_env: Literal["dummy", "subproc"] = "dummy"
    """'dummy' (all envs in this process) or 'subproc' (one process per env, for many free cores)"""
    torch_threads: PositiveInt = 1
    """torch.set_num_threads: keep 1 on a shared machine"""
    net_arch: Annotated[list[PositiveInt], Field(min_length=1)] = field(default_factory=lambda: [128, 128])
    """hidden layer sizes, the same for the actor and the critic (separate networks)"""
    activation: Literal["tanh", "relu"] = "tanh"
    """'tanh' or 'relu'"""
    learning_rate: Annotated[Number, Field(gt=0)] = 3e-4
    n_steps: PositiveInt = 256
    """steps per env per rollout (a rollout is n_envs * n_steps transitions)"""
    batch_size: PositiveInt = 512
    n_epochs: PositiveInt = 4
    gamma: Annotated[Number, Field(gt=0, le=1)] = 0.995
    gae_lambda: Annotated[Number, Field(ge=0, le=1)] = 0.95
    clip_range: Annotated[Number, Field(gt=0)] = 0.2
    ent_coef: Annotated[Number, Field(ge=0)] = 0.01
    vf_coef: Annotated[Number, Field(ge=0)] = 0.5
    max_grad_norm: Annotated[Number, Field(gt=0)] = 0.5
    opponents: dict[str, Annotated[Number, Field(ge=0)]] = field(default_factory=lambda: {"random": 0.25, "heuristic": 0.35, "snapshot": 0.4})
    """opponent pool: agent spec (or 'snapshot') -> weight"""
    same_opponent: bool = True
    """one opponent kind per episode for every other seat (False: one draw per seat)"""
    pfsp: Annotated[Number, Field(ge=0)] = 0.0
    """league weighting (prioritised fictitious self-play): at each rollout's end every opponent kind's weight
    becomes its `opponents` weight x max(pfsp_floor, (1 - learner's recent win share against it) ^ pfsp);
    0 = the fixed weights of `opponents`"""
    pfsp_floor: Annotated[Number, Field(ge=0, le=1)] = 0.05
    """the smallest factor of an opponent the learner beats every time (it is still met now and then)"""
    pfsp_min_games: PositiveInt = 50
    """games against an opponent kind (of the last 500) before its win share moves its weight"""
    shaping: Annotated[Number, Field(ge=0)] = 0.0
    """potential-based shaping on (own score - best rival score) x shaping; 0 = the pure return (see agents/sb3_env.py)"""
    potential: str = ""
    """'module:function' (state, seat) -> float replacing the score difference in the shaping (e.g.
    'virus_envs.agents.shaping:virus_lab_progress' for the co-operative game); '' = the score difference"""
    snapshot_every: PositiveInt = 50_000
    """steps between frozen copies of the learner added to the pool"""
    snapshot_pool: PositiveInt = 8
    """how many recent snapshots are kept"""
    eval_every: PositiveInt = 100_000
    """steps between evaluations (each also writes a checkpoint); the end of training is always evaluated"""
    eval_games: NonNegInt = 200
    """games per evaluation opponent (seats rotated)"""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    progress_every: PositiveInt = 20_000
    """steps between progress lines"""
    val_seed: NonNegInt = 7_000_003
    """validation deals: the evaluations during training, which choose best.zip (the same for every training seed)"""
    test_seed: NonNegInt = 9_000_011
    """test deals: best.zip's final report (test.csv, summary.json), never used for a choice"""
    test_games: NonNegInt = 1000
    """games per test opponent at the end (seats rotated); 0 = no test report"""
    test_opponents: list[str] = field(default_factory=list)
    """held-out opponents of the test report; empty = eval_opponents, every heuristic variant and the shipped
    model of the game and player count (experiments/train_eval.py)"""
    target_kl: Annotated[Number, Field(ge=0)] = 0.0
    """MaskablePPO's target_kl: stop a rollout's epochs once the approximate KL exceeds 1.5 x this (0 = off)"""
    vf_arch: list[PositiveInt] = field(default_factory=list)
    """the critic's hidden layers when they differ from the actor's (empty = net_arch for both)"""
    bc_teacher: str = ""
    """behaviour-cloning warm start (agents/imitation.py): the teacher's agent spec, e.g. 'heuristic'; '' = off"""
    bc_targets: Literal["action", "visits"] = "action"
    """what the clone learns: 'action' (cross-entropy to the teacher's move) or 'visits' (to the root visit shares
    of a search teacher, ismcts?.../pimc?...: AlphaZero-style policy targets)"""
    bc_games: PositiveInt = 1000
    """teacher games (every seat the teacher) whose decisions are cloned"""
    bc_epochs: NonNegInt = 4
    """passes over the teacher's decisions"""
    bc_lr: Annotated[Number, Field(gt=0)] = 1e-3
    """Adam learning rate of the cloning (its own optimizer; PPO's starts fresh)"""
    bc_batch_size: PositiveInt = 256
    bc_value: Annotated[Number, Field(ge=0)] = 0.5
    """weight of the critic's regression on the discounted final return during cloning (0 = the actor only)"""
    bc_dagger_rounds: NonNegInt = 0
    """DAgger rounds after the first cloning: the clone plays bc_dagger_games games, the teacher labels them,
    and the policy is cloned again (bc_dagger_epochs) on everything collected"""
    bc_dagger_games: PositiveInt = 200
    bc_dagger_epochs: NonNegInt = 2
    bc_workers: PositiveInt = 1
    """processes playing the teacher's games (the data do not depend on it)"""
    init_from: str = ""
    """a saved model (.zip of the same game, players and networks) whose policy weights PPO starts from, e.g.
    an earlier run's bc.zip; applied before any cloning ('' = a fresh network)"""
    save_optimizer: bool = True
    """False: model files are saved without Adam's moment estimates (a third of the size; inference and
    loading are unchanged, training from such a file restarts Adam)"""

    @field_validator("game")
    @classmethod
    def _known_game(cls, v):
        import virus_envs

        if v and v not in virus_envs.ENV_IDS:
            raise ValueError(f"must be one of {list(virus_envs.ENV_IDS)}")
        return v

    @field_validator("opponents")
    @classmethod
    def _some_weight(cls, v):
        if not v or sum(v.values()) <= 0:
            raise ValueError("must map agent specs (or 'snapshot') to non-negative weights with a positive sum")
        return v

    @field_validator("test_seed")
    @classmethod
    def _apart(cls, v, info):
        if v == info.data.get("val_seed"):
            raise ValueError("must differ from val_seed (a choice and its report on the same deals is not a test)")
        return v

    @field_validator("init_from")
    @classmethod
    def _model_file(cls, v):
        if v and not os.path.isfile(v):
            raise ValueError("names no file (a saved model .zip, relative to the current directory)")
        return v


def config_from_dict(d: dict, source: str = "config") -> TrainConfig:
    """TrainConfig from a dict; ValueError naming the source and key (unknown key, type, range, choice)."""
    return configfile.validate(TrainConfig, d, source)


def check_config(cfg: TrainConfig, source: str = "config") -> None:
    """Check a TrainConfig again as a whole (after keys were set); ValueError naming the key."""
    config_from_dict(dataclasses.asdict(cfg), source)


def set_key(cfg: TrainConfig, key: str, value, source: str = "command line") -> None:
    """cfg.key = value, checked; ValueError naming the key."""
    try:
        setattr(cfg, key, value)
    except configfile.ValidationError as e:
        raise ValueError(configfile.one_line(source, e, TrainConfig)) from None


def load_config(path: str | os.PathLike) -> TrainConfig:
    """Read a YAML training config (checked: ValueError naming the file and the key)."""
    return configfile.read(str(path), TrainConfig)


def default_config_path(env_id: str) -> Path:
    """configs/train/<game>.yaml (package data: virus_envs.configs), the game's name without the version suffix
    (virus_cards_v0 -> virus_cards)."""
    from virus_envs import configs
    return Path(configs.path("train", f"{env_id.rsplit('_v', 1)[0]}.yaml"))


# -- the run ------------------------------------------------------------------------------------

def make_env_fn(cfg: TrainConfig, num_players: int):
    """A picklable constructor of one monitored SelfPlayEnv (for DummyVecEnv / SubprocVecEnv); with
    cfg.player_counts a MultiCountSelfPlayEnv over them (num_players is then not used)."""
    from virus_envs.agents.multicount_env import MultiCountSelfPlayEnv
    from virus_envs.agents.sb3_env import SelfPlayEnv

    def _make():
        from stable_baselines3.common.monitor import Monitor
        kw = dict(opponents=cfg.opponents, same_opponent=cfg.same_opponent, shaping=cfg.shaping, gamma=cfg.gamma,
                  potential=cfg.potential)
        if cfg.player_counts:
            return Monitor(MultiCountSelfPlayEnv(cfg.game, cfg.player_counts, cfg.game_config, **kw))
        return Monitor(SelfPlayEnv(cfg.game, num_players, cfg.game_config, **kw))

    return _make


def multi_count_meta(cfg: TrainConfig) -> dict:
    """{} for a one-count run; for cfg.player_counts what the model records (agents/padded.py: the counts, the
    padding, the padded shapes), after checking the counts (ValueError naming the key)."""
    if not cfg.player_counts:
        return {}
    from virus_envs.agents.padded import padding_meta

    counts = sorted(set(cfg.player_counts))
    if cfg.players and cfg.players not in counts:
        raise ValueError(f"config key 'players': {cfg.players} is not among player_counts {counts} "
                         f"(give players: 0 with player_counts)")
    if cfg.bc_teacher:
        raise ValueError("config key 'bc_teacher': behaviour cloning is for one player count (not with player_counts)")
    try:
        return padding_meta(cfg.game, counts)
    except ValueError as e:
        raise ValueError(f"config key 'player_counts': {e}") from None


def evaluate_counts(games: list, model_path: str, opponents, n_games: int, seed: int) -> list[dict]:
    """`evaluate` at every game of the list (one per player count); each row says its `players`, and with
    several games the opponent is labelled 'spec (Np)'."""
    rows = []
    for g in games:
        for r in evaluate(g, model_path, opponents, n_games, seed):
            if len(games) > 1:
                r["opponent"] = f"{r['opponent']} ({g.num_players}p)"
            rows.append(r)
    return rows


def evaluate(game, model_path: str, opponents, games: int, seed: int) -> list[dict]:
    """The model against each opponent spec with the tournament code; rows with per-seat Wilson intervals.

    In a co-operative game (`game.cooperative`) the opponents are partners: a first row `team` is a
    whole team of the model (`head_to_head`'s team mode), then each row is the model in one seat of a
    team of that spec, seats rotated (`mixed_team`); with one player only the `team` row is played
    (the others would be the same games).
    """
    from virus_envs.experiments.arena import head_to_head, mixed_team, wilson

    rows = []
    coop = bool(getattr(game, "cooperative", False))
    for opp in (["team"] if coop else []) + ([] if coop and game.num_players == 1 else list(opponents)):
        label = opp
        if opp == "team":
            res = head_to_head(game, f"ppo:{model_path}", f"ppo:{model_path}", games, seed=seed)
        elif coop:
            res = mixed_team(game, f"ppo:{model_path}", opp, games, seed=seed)
        else:
            res = head_to_head(game, f"ppo:{model_path}", opp, games, seed=seed)
        lo, hi = res.interval()
        seats = {}
        for s, (n, w) in sorted(res.by_seat.items()):
            slo, shi = wilson(w, n)
            seats[str(s)] = {"games": n, "wins": w, "win_rate": w / n if n else 0.0, "ci95": [slo, shi]}
        rows.append({"opponent": label, "games": res.games, "wins": res.wins, "win_rate": res.rate,
                     "ci95": [lo, hi], "baseline": 1.0 / game.num_players, "by_seat": seats,
                     "players": game.num_players})
    return rows


def _callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Snapshot pool refresh, periodic evaluation + checkpoint, progress lines, self-play win rates."""

        def __init__(self, cfg, game, out: Path, echo, meta: dict, games: list | None = None):
            super().__init__(verbose=0)
            self.cfg, self.game, self.out, self.echo, self.meta = cfg, game, out, echo, meta
            self.games = list(games or [game])          # a multi-count run evaluates at every count
            self.snapshots: list = []
            self.next_snapshot = cfg.snapshot_every
            self.next_eval = cfg.eval_every
            self.next_progress = cfg.progress_every
            self.recent: dict = {}
            self.evals: list = []
            self.best = (-1.0, None)
            self.t0 = time.time()          # the run's start (max_minutes counts the warm start too)
            self.t_learn = None            # PPO's start (steps/s)
            self.stopped_by_time = False
            self.eval_file = out / "eval.csv"
            with open(self.eval_file, "w", newline="") as f:
                csv.writer(f).writerow(["step", "minutes", "opponent", "games", "wins", "win_rate", "ci95_low",
                                        "ci95_high", "baseline", "players"])

        def _on_training_start(self) -> None:
            self.t_learn = time.time()

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"]):
                if done and "win_share" in info:
                    q = self.recent.setdefault(info["opponents"], deque(maxlen=500))
                    q.append(info["win_share"])
            if self.cfg.max_minutes and time.time() - self.t0 > 60 * self.cfg.max_minutes:
                self.stopped_by_time = True
                return False
            return True

        def _on_rollout_end(self) -> None:
            n = self.num_timesteps
            for kind, q in sorted(self.recent.items()):
                self.logger.record(f"selfplay/win_{kind}", float(np.mean(q)) if q else 0.0)
            self.logger.record("selfplay/snapshots", len(self.snapshots))
            if self.cfg.pfsp:
                self.reweigh()
            if n >= self.next_snapshot:
                self.add_snapshot()
                while self.next_snapshot <= n:
                    self.next_snapshot += self.cfg.snapshot_every
            if n >= self.next_eval:
                self.run_eval()
                while self.next_eval <= n:
                    self.next_eval += self.cfg.eval_every
            if n >= self.next_progress:
                self.progress_line()
                while self.next_progress <= n:
                    self.next_progress += self.cfg.progress_every

        def reweigh(self):
            """The league's prioritised sampling (cfg.pfsp): new weights to every env, logged as pool/weight_*."""
            from virus_envs.agents.sb3_env import pfsp_weights

            rates = {k: float(np.mean(q)) for k, q in self.recent.items() if len(q) >= self.cfg.pfsp_min_games}
            base = {k: float(w) for k, w in self.cfg.opponents.items() if w > 0}
            weights = pfsp_weights(base, rates, float(self.cfg.pfsp), float(self.cfg.pfsp_floor))
            self.training_env.env_method("set_weights", weights)
            total = sum(weights.values())
            for k, w in weights.items():
                self.logger.record(f"pool/weight_{k}", w / total)
            self.weights = weights

        def add_snapshot(self):
            from virus_envs.agents.ppo import NumpyPolicy
            self.snapshots.append(NumpyPolicy.from_sb3(self.model.policy))
            self.snapshots = self.snapshots[-self.cfg.snapshot_pool:]
            self.training_env.env_method("set_snapshots", self.snapshots)

        def save(self, path: Path):
            self.model.virus_meta = dict(self.meta, trained_steps=int(self.num_timesteps),
                                         saved_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
            save_model(self.model, path, optimizer=self.cfg.save_optimizer)

        def run_eval(self):
            n = self.num_timesteps
            ck = self.out / "checkpoints" / f"step_{n}.zip"
            self.save(ck)
            if not self.cfg.eval_games or not self.cfg.eval_opponents:
                return
            rows = evaluate_counts(self.games, str(ck), self.cfg.eval_opponents, self.cfg.eval_games,
                                   seed=self.cfg.val_seed)
            minutes = (time.time() - self.t0) / 60
            with open(self.eval_file, "a", newline="") as f:
                w = csv.writer(f)
                for r in rows:
                    w.writerow([n, round(minutes, 2), r["opponent"], r["games"], r["wins"], round(r["win_rate"], 4),
                                round(r["ci95"][0], 4), round(r["ci95"][1], 4), round(r["baseline"], 4),
                                r["players"]])
                    self.logger.record(f"eval/win_{r['opponent']}", r["win_rate"])
            score = float(np.mean([r["win_rate"] for r in rows]))
            self.evals.append({"step": n, "minutes": round(minutes, 2), "checkpoint": str(ck),
                               "score": score, "rows": rows})
            if score > self.best[0]:
                self.best = (score, ck)
            self.echo(f"[{self.cfg.game}] eval at {n:,} steps: " + ", ".join(
                f"vs {r['opponent']} {r['win_rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]" for r in rows)
                + (f" (1/N = {1 / self.game.num_players:.3f})" if len(self.games) == 1 else ""))

        def progress_line(self):
            n, el = self.num_timesteps, time.time() - self.t0
            ppo = time.time() - (self.t_learn or self.t0)
            fps = n / ppo if ppo > 0 else 0.0
            left = max(0, self.cfg.total_steps - n) / fps if fps else 0.0
            if self.cfg.max_minutes:
                left = min(left, max(0.0, 60 * self.cfg.max_minutes - el))
            wins = " ".join(f"{k} {np.mean(q):.2f}" for k, q in sorted(self.recent.items()) if q)
            if getattr(self, "weights", None):
                total = sum(self.weights.values())
                wins += " | pool: " + " ".join(f"{k} {w / total:.2f}" for k, w in sorted(self.weights.items()))
            if self.evals:
                e = self.evals[-1]
                wins += f" | last validation ({e['step']:,} steps): " + ", ".join(
                    f"{r['opponent']} {r['win_rate']:.3f}" for r in e["rows"])
            self.echo(f"[{self.cfg.game}] {progress_bar(n, self.cfg.total_steps)} {n:,}/{self.cfg.total_steps:,} steps  "
                      f"{fps:,.0f} steps/s  "
                      f"elapsed {el / 60:.1f} min  left ~{left / 60:.1f} min | self-play win share: {wins}")

    return SelfPlayCallback


def progress_bar(done: int, total: int, width: int = 20) -> str:
    """A text bar for a log line: `|#####...............| 25%` (done past total shows full, 100%)."""
    frac = min(1.0, max(0.0, done / total)) if total > 0 else 1.0
    k = int(frac * width)
    return "|" + "#" * k + "." * (width - k) + f"| {frac * 100:3.0f}%"


def _say(*args):
    """print, flushed: progress must show when the output goes to a log file."""
    print(*args, flush=True)


def train(cfg: TrainConfig, out: str | os.PathLike, echo=_say, command: str = "") -> dict:
    """Run one training; returns the summary (also written to out/summary.json)."""
    import torch
    import yaml
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from virus_envs import agents
    import virus_envs

    check_config(cfg)
    multi = multi_count_meta(cfg)
    games = [virus_envs.game(cfg.game, n, **cfg.game_config) for n in multi["player_counts"]] if multi else \
        [virus_envs.game(cfg.game, cfg.players or None, **cfg.game_config)]
    game = games[0]
    if not multi:
        cfg.players = game.num_players
    from virus_envs.experiments.train_eval import held_out_opponents, split_meta, test_report

    tests_by_game = [held_out_opponents(g, cfg) if cfg.test_games else [] for g in games]
    tests = list(dict.fromkeys(s for t in tests_by_game for s in t))
    for g, t in zip(games, tests_by_game):
        for spec in list(cfg.opponents) + list(cfg.eval_opponents) + t:
            if spec != "snapshot":                                  # fail early on a bad spec
                agents.make(spec, g)
    if cfg.bc_teacher:
        from virus_envs.agents.imitation import check_teacher
        check_teacher(cfg.bc_teacher, game, cfg.bc_targets)
    out = Path(out)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    with open(out / "config.yaml", "w") as f:
        yaml.safe_dump(dataclasses.asdict(cfg), f, sort_keys=False)

    torch.set_num_threads(cfg.torch_threads)
    fns = [make_env_fn(cfg, game.num_players) for _ in range(cfg.n_envs)]
    venv = SubprocVecEnv(fns) if cfg.vec_env == "subproc" else DummyVecEnv(fns)
    try:
        act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg.activation]
        arch = (dict(pi=list(cfg.net_arch), vf=list(cfg.vf_arch)) if cfg.vf_arch else list(cfg.net_arch))
        model = MaskablePPO(
            "MlpPolicy", venv, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps, batch_size=cfg.batch_size,
            n_epochs=cfg.n_epochs, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range,
            ent_coef=cfg.ent_coef, vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
            target_kl=cfg.target_kl or None,
            policy_kwargs={"net_arch": arch, "activation_fn": act}, seed=cfg.seed, device="cpu",
            verbose=0)
        formats = ["csv"]
        try:
            import tensorboard  # noqa: F401
            formats.append("tensorboard")
        except ImportError:
            pass
        model.set_logger(configure(str(out), formats))
        meta = {"env_id": cfg.game, "num_players": game.num_players, "game_config": dict(cfg.game_config),
                "observation_shape": list(game.observation_shape), "num_actions": int(game.num_actions),
                "seed": cfg.seed, "command": command, "config": dataclasses.asdict(cfg), "git_commit": _git_head(),
                "git_dirty": _git_dirty(), "split": split_meta(cfg, tests), **multi}
        if meta["git_dirty"]:
            echo(f"[{cfg.game}] note: the checkout has uncommitted changes to tracked files; the model records "
                 f"git_commit {meta['git_commit'][:10]} with git_dirty true: that commit alone will not reproduce it")
        cb = _callback_class()(cfg, game, out, echo, meta, games)
        bc = None
        if cfg.init_from:
            from virus_envs.agents.ppo import model_meta, policy_state_dict, trained_counts
            was = model_meta(cfg.init_from)
            if was.get("env_id") not in (None, cfg.game):
                raise ValueError(f"init_from {cfg.init_from}: a model of {was['env_id']}, not {cfg.game}")
            try:
                model.policy.load_state_dict(policy_state_dict(cfg.init_from))
            except RuntimeError as e:
                counts = trained_counts(was)
                why = (f"it was trained with {' or '.join(map(str, counts))} players, this run has {game.num_players} "
                       f"(another observation size)" if counts and game.num_players not in counts
                       else f"the networks differ from this config's: {str(e).splitlines()[0]}")
                raise ValueError(f"init_from {cfg.init_from}: {why}") from None
            echo(f"[{cfg.game}] policy weights from {cfg.init_from}")
        if cfg.bc_teacher:
            bc = warm_start(model, game, cfg, out, echo)
            meta["bc"] = {k: v for k, v in bc.items() if k != "epochs"}
        if cfg.bc_teacher or cfg.init_from:
            cb.init_callback(model)
            cb.run_eval()                          # step 0: the starting policy (checkpoints/step_0.zip)
            if cfg.bc_teacher:
                cb.save(out / "bc.zip")
        echo(f"[{cfg.game}] training MaskablePPO, "
             f"{'/'.join(str(g.num_players) for g in games)} players, {cfg.total_steps:,} steps, "
             f"{cfg.n_envs} {cfg.vec_env} envs, out {out}")
        t0 = time.time()
        model.learn(total_timesteps=cfg.total_steps, callback=cb)
        minutes = (time.time() - t0) / 60
        if not cb.evals or cb.evals[-1]["step"] != model.num_timesteps:
            cb.run_eval()
        cb.save(out / "final.zip")
        best = cb.best[1] or (out / "final.zip")
        shutil.copyfile(best, out / "best.zip")
    finally:
        venv.close()
    test = test_report(games if multi else game, str(out / "best.zip"), cfg, tests_by_game if multi else tests,
                       out, echo)
    summary = {"command": command, "env_id": cfg.game, "num_players": game.num_players, **multi,
               "steps": int(model.num_timesteps), "minutes": round(minutes, 2),
               "stopped_by_time": cb.stopped_by_time, "final": str(out / "final.zip"), "best": str(out / "best.zip"),
               "best_checkpoint": str(best), "best_score": cb.best[0], "evals": cb.evals, "bc": bc,
               "split": meta["split"], "test": test}
    with open(out / "summary.json", "w") as f:
        json.dump(summary, f, indent=2)
    echo(f"[{cfg.game}] done: {model.num_timesteps:,} steps in {minutes:.1f} min; best {best} "
         f"(mean validation win rate {cb.best[0]:.3f}); written to {out}")
    return summary


def save_model(model, path, optimizer: bool = True) -> None:
    """model.save(path) plus `virus_model.json` (agents/model_file.py: the network and `virus_meta` as JSON, so
    that `ppo:` loads the file without unpickling it); optimizer=False leaves Adam's moment estimates out of
    the file (loading is unchanged)."""
    from virus_envs.agents.model_file import add_entry, entry_for

    entry = entry_for(model.policy, getattr(model, "virus_meta", None))
    if optimizer:
        model.save(str(path))
    else:
        from collections import defaultdict

        opt = model.policy.optimizer
        kept = opt.state
        opt.state = defaultdict(dict)
        try:
            model.save(str(path))
        finally:
            opt.state = kept
    add_entry(path, entry)


def upgrade_model(src: str, out: str | None = None) -> str:
    """Add `virus_model.json` to a model zip saved without it (by SB3, or by an older train), in place or into
    out. It loads src through SB3, which unpickles it: for your own files only. Returns the file written."""
    from virus_envs.agents.model_file import add_entry, entry_for
    from virus_envs.agents.ppo import load_model

    loaded = load_model(src, trusted=True)
    if loaded.model is None:
        raise ValueError(f"{src} already has its virus_model.json: nothing to do")
    dst = out or src
    if out:
        shutil.copyfile(src, out)
    add_entry(dst, entry_for(loaded.model.policy, loaded.meta))
    return str(dst)


def warm_start(model, game, cfg: TrainConfig, out: Path, echo) -> dict:
    """Behaviour cloning of cfg.bc_teacher into model.policy (in place), then DAgger rounds; writes bc.csv.

    Returns what was done: teacher, games, decisions, the teacher's win rate in its games, per-epoch rows.
    """
    from virus_envs.agents.imitation import Demonstrations, behaviour_clone, collect
    from virus_envs.agents.ppo import NumpyPolicy

    t0 = time.time()
    echo(f"[{cfg.game}] behaviour cloning of {cfg.bc_teacher!r}: {cfg.bc_games} teacher games, "
         f"{cfg.bc_epochs} epochs, then {cfg.bc_dagger_rounds} DAgger rounds; targets: the teacher's "
         + ("root visit shares" if cfg.bc_targets == "visits" else "actions"))
    demos = collect(game, cfg.bc_teacher, cfg.bc_games, seed=cfg.seed, gamma=cfg.gamma, workers=cfg.bc_workers,
                    echo=echo, targets=cfg.bc_targets)
    teacher_rate = demos.wins / demos.games
    echo(f"[{cfg.game}] teacher games: {demos.games}, win rate {teacher_rate:.3f}, {len(demos):,} decisions "
         f"to clone ({demos.decisions:,} played), {(time.time() - t0) / 60:.1f} min")
    kw = dict(lr=cfg.bc_lr, batch_size=cfg.bc_batch_size, value_coef=cfg.bc_value, echo=echo,
              soft=cfg.bc_targets == "visits")
    rows = behaviour_clone(model.policy, demos, cfg.bc_epochs, seed=cfg.seed, label="bc", **kw)
    dagger = []
    for r in range(1, cfg.bc_dagger_rounds + 1):
        more = collect(game, cfg.bc_teacher, cfg.bc_dagger_games, seed=cfg.seed + 1000 * r, gamma=cfg.gamma,
                       workers=cfg.bc_workers, driver=NumpyPolicy.from_sb3(model.policy), targets=cfg.bc_targets)
        dagger.append({"round": r, "games": more.games, "clone_win_rate": more.wins / more.games,
                       "decisions": len(more)})
        echo(f"[{cfg.game}] DAgger round {r}: the clone won {more.wins:g}/{more.games} games; "
             f"{len(more):,} decisions labelled by the teacher")
        demos = Demonstrations.concat([demos, more])
        rows += behaviour_clone(model.policy, demos, cfg.bc_dagger_epochs, seed=cfg.seed + r, label=f"dagger{r}",
                                **kw)
    first = ["phase", "epoch"]
    keys = first + sorted({k for row in rows for k in row} - set(first))
    with open(out / "bc.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    last = rows[-1] if rows else {}
    return {"teacher": cfg.bc_teacher, "targets": cfg.bc_targets, "teacher_games": cfg.bc_games, "teacher_win_rate": teacher_rate,
            "decisions": len(demos), "dagger": dagger, "final_train_acc": last.get("train_acc"),
            "final_val_acc": last.get("val_acc"), "chance_acc": last.get("chance_acc"),
            "minutes": round((time.time() - t0) / 60, 2), "epochs": rows}


def _git_head(repo=None) -> str:
    """The repository's HEAD commit (the engine a model was trained on), or '' outside a checkout."""
    import subprocess

    repo = Path(repo or REPO)
    if not (repo / ".git").exists():        # installed from a wheel: no commit to name
        return ""
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _git_dirty(repo=None) -> bool | None:
    """Whether tracked files of the checkout differ from HEAD (None outside a checkout or without git).

    A model records `git_commit`; trained from a tree with uncommitted changes, that commit alone does not
    reproduce it (the Roll & Write model of 2026-11-29 cannot be re-created from its commit and config:
    docs/agents/roll_write.md), so the model records `git_dirty` too and the run says so at its start."""
    import subprocess

    repo = Path(repo or REPO)
    if not (repo / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=repo, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(out.stdout.strip()) if out.returncode == 0 else None


# -- the command line -----------------------------------------------------------------------

def _report(args, echo):
    """--evaluate: a model against random and the heuristic, per seat, 95% Wilson intervals (Markdown)."""
    import virus_envs
    from virus_envs.agents.ppo import load_model

    _, _, meta = load_model(args.evaluate)
    if meta.get("env_id") not in (None, args.game):
        raise ValueError(f"{args.evaluate} is a model for {meta['env_id']} ({meta.get('num_players', '?')} players), "
                         f"not for --game {args.game}")
    players = args.players or meta.get("num_players")
    game = virus_envs.game(args.game, players, **meta.get("game_config", {}))
    opponents = args.opponent or ["random", "heuristic"]
    rows = evaluate(game, args.evaluate, opponents, args.games, seed=args.seed)
    echo(f"{args.game} {game.num_players}p, {args.evaluate} ({args.games} games per opponent, seats rotated, "
         f"seed {args.seed}); 1/N = {1 / game.num_players:.3f}")
    echo("| opponent | seat | games | win rate | 95% CI |")
    echo("|---|---|---:|---:|---|")
    for r in rows:
        for s, v in r["by_seat"].items():
            echo(f"| {r['opponent']} | {s} | {v['games']} | {v['win_rate']:.3f} | "
                 f"[{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}] |")
        echo(f"| {r['opponent']} | all | {r['games']} | {r['win_rate']:.3f} | "
             f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] |")
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        path = Path(args.out) / "eval.json"
        with open(path, "w") as f:
            json.dump({"env_id": args.game, "num_players": game.num_players, "model": args.evaluate,
                       "seed": args.seed, "rows": rows}, f, indent=2)
        echo(f"written to {path}")
    return rows


def cmd_train(args, echo=_say):
    """Train (or, with --evaluate, report on) a MaskablePPO self-play agent."""
    import virus_envs

    virus_envs.game_class(args.game)      # ValueError naming the unknown id
    keys = ("seed", "total_steps", "max_minutes", "players", "n_envs", "vec_env", "eval_games", "progress_every",
            "test_games")
    command = "virus-arena " + " ".join(shlex.quote(a) for a in (args.argv or sys.argv[1:]))
    if getattr(args, "best_response_to", None):
        if args.evaluate:
            raise ValueError("--best-response-to and --evaluate do not go together (one trains, the other does not)")
        from virus_envs.experiments.best_response import best_response

        overrides = {k: getattr(args, k) for k in keys if k != "players" and getattr(args, k) is not None}
        out = args.out or str(Path("runs") / "train" / f"{args.game}-best-response-seed{args.seed or 0}")
        return best_response(args.best_response_to, args.game, out, players=args.players, config_path=args.config,
                             overrides=overrides, echo=echo, command=command)
    if args.evaluate:
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        return _report(args, echo)
    path = Path(args.config) if args.config else default_config_path(args.game)
    if args.config and not path.is_file():
        raise ValueError(f"config file not found: {args.config}")
    cfg = load_config(path) if path.is_file() else TrainConfig()
    if cfg.game and cfg.game != args.game:
        raise ValueError(f"{path}: config is for game {cfg.game!r}, not --game {args.game!r}")
    cfg.game = args.game
    for key in keys:
        value = getattr(args, key)
        if value is not None:
            set_key(cfg, key, value, f"--{key.replace('_', '-')}")
    out = args.out or str(Path("runs") / "train" / f"{args.game}-seed{cfg.seed}")
    echo(f"[{args.game}] config: {path if path.is_file() else 'the defaults (no configs/train file)'}; resolved: "
         + ", ".join(f"{k}={v}" for k, v in dataclasses.asdict(cfg).items() if v != getattr(TrainConfig(), k)))
    return train(cfg, out, echo=echo, command=command)


def register(sub):
    """Add the `train` sub-command to virus-arena's sub-parsers."""
    t = sub.add_parser("train", help="MaskablePPO self-play for one game (or --evaluate a trained model)")
    t.add_argument("--game", required=True, help="env id, e.g. virus_cards_v0")
    t.add_argument("--config", default=None, help="YAML config (default: configs/train/<game>.yaml if present)")
    t.add_argument("--seed", type=int, default=None)
    t.add_argument("--out", default=None, help="output directory (default: runs/train/<game>-seed<seed>)")
    t.add_argument("--total-steps", dest="total_steps", type=int, default=None, help="override total_steps")
    t.add_argument("--max-minutes", dest="max_minutes", type=float, default=None, help="override max_minutes")
    t.add_argument("--players", type=int, default=None, help="override players")
    t.add_argument("--n-envs", dest="n_envs", type=int, default=None, help="override n_envs")
    t.add_argument("--vec-env", dest="vec_env", choices=["dummy", "subproc"], default=None)
    t.add_argument("--eval-games", dest="eval_games", type=int, default=None,
                   help="override eval_games (validation games per opponent at each evaluation)")
    t.add_argument("--progress-every", dest="progress_every", type=int, default=None,
                   help="override progress_every (steps between progress lines)")
    t.add_argument("--test-games", dest="test_games", type=int, default=None,
                   help="override test_games (test games per held-out opponent at the end; 0 = none)")
    t.add_argument("--evaluate", default=None, metavar="MODEL.zip",
                   help="do not train: play MODEL against random and the heuristic, per seat, and print a table")
    t.add_argument("--opponent", action="append", help="with --evaluate: opponent spec (repeatable)")
    t.add_argument("--best-response-to", dest="best_response_to", default=None, metavar="SPEC",
                   help="exploitability proxy: train a PPO best response against SPEC (e.g. ppo:builtin) in every "
                        "other seat, with the target model's own training config (its budget), and report its test "
                        "win rate against SPEC and the margin above 1/N (experiments/best_response.py)")
    t.add_argument("--games", type=int, default=1000, help="with --evaluate: games per opponent")
    add_trust_argument(t)
    t.set_defaults(func=cmd_train, argv=None)
    u = sub.add_parser("upgrade-model", help="add virus_model.json to your own model zip saved without it "
                                             "(unpickles the file: never run it on a file from someone else)")
    u.add_argument("model", metavar="MODEL.zip")
    u.add_argument("-o", "--out", default=None, help="write the upgraded copy here (default: in place)")
    u.set_defaults(func=cmd_upgrade_model)


def cmd_upgrade_model(args, echo=_say):
    """`virus-arena upgrade-model FILE`: the safe entry added to a trusted file of one's own."""
    written = upgrade_model(args.model, args.out)
    echo(f"{written}: virus_model.json written; ppo:{written} now loads without unpickling")
    return written


def add_trust_argument(parser) -> None:
    """--trust-model: model files without virus_model.json may load through SB3 (unpickling them)."""
    parser.add_argument("--trust-model", dest="trust_model", action="store_true",
                        help="let ppo: model files without virus_model.json load through stable-baselines3, which "
                             "unpickles them and so can run code from the file: for your own files only")
