"""Behaviour cloning: a warm start for MaskablePPO from a teacher agent's games (any game of the package).

    demos = collect(game, "heuristic", games=2000, seed=0, gamma=0.995, workers=2)
    rows = behaviour_clone(model.policy, demos, epochs=4, lr=1e-3)      # the PPO model's own network
    more = collect(game, "heuristic", games=300, seed=1, driver=NumpyPolicy.from_sb3(model.policy))  # DAgger

Why: in a hard game with a sparse result (the co-operative `virus_lab_v0`: random teams never win),
PPO from a random network never sees a win and learns nothing. Cloning a teacher first (here the
game's heuristic) gives PPO a policy that already wins sometimes; PPO then fine-tunes it. This is
the standard BC-then-RL recipe (e.g. AlphaStar's supervised start, "PPO from demonstrations").

| step | what |
|---|---|
| `collect` | plays seeded teacher games, every seat the teacher (a team of it in a co-operative game), and records every decision with at least two legal actions: the deciding seat's observation, its action mask, the teacher's action, and the discounted final return of that seat (gamma ** (its later decisions) x its return: what the critic of `agents/sb3_env.py` estimates). With `targets="visits"` (a search teacher: `ismcts`, `pimc`) also the teacher's policy at that decision: each legal action's share of the root visits of its search (`Demonstrations.soft`). Observations are stored sparse (CSR), so hundreds of thousands of 7,091-float lab observations fit in a few hundred MB. Games are split over `workers` processes; the result does not depend on their number |
| DAgger (`driver=`) | the same, but a learner policy (a `NumpyPolicy`, greedy) plays the moves while the teacher only labels them: the clone's own mistakes become training states (Ross, Gordon & Bagnell 2011). The teacher reads only its seat's `view` and mask, so labelling any reachable state is honest |
| `behaviour_clone` | trains an SB3 `ActorCriticPolicy` (MaskablePPO's `model.policy`, in place) by masked cross-entropy (to the teacher's action, or with `soft=True` to its visit shares, AlphaZero's policy target: Silver et al. 2017, Anthony et al.'s expert iteration 2017): the logits of illegal actions are set to -1e8 exactly as sb3-contrib's `MaskableCategorical` does, so the clone's distribution is the one PPO will sample from. With `value_coef > 0` the critic is regressed on the discounted return at the same time (a critic that starts near the truth keeps PPO's first updates from wrecking the clone). A held-out share of games (by game, not by decision) gives validation loss and accuracy; `chance` is the accuracy of a uniform pick among the legal actions |
"""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

__all__ = ["Demonstrations", "collect", "behaviour_clone", "held_out_rows", "masked_logits", "soft_cross_entropy",
           "TARGETS"]

#: what sb3-contrib's MaskableCategorical puts on the logits of illegal actions
MASKED_LOGIT = -1e8
#: what a clone is trained on: the teacher's chosen action, or its search's root visit shares
TARGETS = ("action", "visits")


@dataclass
class Demonstrations:
    """Decisions of teacher games: sparse observations, legal actions, the teacher's action, the return."""

    obs_ptr: np.ndarray      # int64 (n + 1,): row i's non-zero observation entries are [obs_ptr[i], obs_ptr[i+1])
    obs_idx: np.ndarray      # int32: their positions
    obs_val: np.ndarray      # float32: their values
    mask_ptr: np.ndarray     # int64 (n + 1,)
    mask_idx: np.ndarray     # int32: legal action ids of each row
    actions: np.ndarray      # int64 (n,): the teacher's action
    returns: np.ndarray      # float32 (n,): gamma ** (the seat's later decisions) x the seat's final return
    game_ids: np.ndarray     # int32 (n,): which game (0 .. games - 1) the row comes from
    obs_size: int
    num_actions: int
    games: int = 0
    wins: float = 0.0        # games whose best return is positive (a co-operative win; in a rivals' game: any)
    decisions: int = 0       # every decision played, forced ones included
    soft: np.ndarray | None = None   # float32, aligned with mask_idx: each legal action's share of the teacher's
    #                                  root visits (targets="visits"); None when only the actions were recorded

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def batch(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Dense (observations float32 (B, obs_size), masks bool (B, num_actions)) of the given rows."""
        rows = np.asarray(rows, dtype=np.int64)
        obs = np.zeros((rows.shape[0], self.obs_size), dtype=np.float32)
        mask = np.zeros((rows.shape[0], self.num_actions), dtype=bool)
        for j, i in enumerate(rows):
            a, b = self.obs_ptr[i], self.obs_ptr[i + 1]
            obs[j, self.obs_idx[a:b]] = self.obs_val[a:b]
            a, b = self.mask_ptr[i], self.mask_ptr[i + 1]
            mask[j, self.mask_idx[a:b]] = True
        return obs, mask

    def sparse_batch(self, rows: np.ndarray):
        """(indices int64, offsets int64, values float32) of the rows' observations, for an EmbeddingBag sum."""
        rows = np.asarray(rows, dtype=np.int64)
        a, b = self.obs_ptr[rows], self.obs_ptr[rows + 1]
        lens = b - a
        offsets = np.zeros(rows.shape[0], dtype=np.int64)
        np.cumsum(lens[:-1], out=offsets[1:])
        take = np.repeat(a - offsets, lens) + np.arange(int(lens.sum()), dtype=np.int64)
        return self.obs_idx[take].astype(np.int64), offsets, self.obs_val[take]

    def masks(self, rows: np.ndarray) -> np.ndarray:
        """Bool (B, num_actions) legal-action masks of the rows."""
        rows = np.asarray(rows, dtype=np.int64)
        mask = np.zeros((rows.shape[0], self.num_actions), dtype=bool)
        for j, i in enumerate(rows):
            mask[j, self.mask_idx[self.mask_ptr[i]:self.mask_ptr[i + 1]]] = True
        return mask

    def soft_targets(self, rows: np.ndarray) -> np.ndarray:
        """Float32 (B, num_actions): the teacher's visit shares of the rows (0 on illegal actions)."""
        if self.soft is None:
            raise ValueError("these demonstrations hold no visit shares (collected with targets='action')")
        rows = np.asarray(rows, dtype=np.int64)
        out = np.zeros((rows.shape[0], self.num_actions), dtype=np.float32)
        for j, i in enumerate(rows):
            a, b = self.mask_ptr[i], self.mask_ptr[i + 1]
            out[j, self.mask_idx[a:b]] = self.soft[a:b]
        return out

    def chance_accuracy(self, rows: np.ndarray | None = None) -> float:
        """Accuracy of a uniform pick among the legal actions (the floor a clone must beat)."""
        n_legal = np.diff(self.mask_ptr).astype(np.float64)
        if rows is not None:
            n_legal = n_legal[rows]
        return float(np.mean(1.0 / n_legal)) if n_legal.size else 0.0

    @staticmethod
    def concat(parts: list["Demonstrations"]) -> "Demonstrations":
        """One set from several (game ids renumbered so that they stay distinct)."""
        parts = [p for p in parts if p is not None]
        first = parts[0]
        obs_ptr, mask_ptr, gids = [np.zeros(1, dtype=np.int64)], [np.zeros(1, dtype=np.int64)], []
        o_off = m_off = g_off = 0
        for p in parts:
            obs_ptr.append(p.obs_ptr[1:] + o_off)
            mask_ptr.append(p.mask_ptr[1:] + m_off)
            gids.append(p.game_ids + g_off)
            o_off += int(p.obs_ptr[-1])
            m_off += int(p.mask_ptr[-1])
            g_off += p.games
        return Demonstrations(
            np.concatenate(obs_ptr), np.concatenate([p.obs_idx for p in parts]),
            np.concatenate([p.obs_val for p in parts]), np.concatenate(mask_ptr),
            np.concatenate([p.mask_idx for p in parts]), np.concatenate([p.actions for p in parts]),
            np.concatenate([p.returns for p in parts]), np.concatenate(gids).astype(np.int32),
            first.obs_size, first.num_actions, games=sum(p.games for p in parts),
            wins=sum(p.wins for p in parts), decisions=sum(p.decisions for p in parts),
            soft=(np.concatenate([p.soft for p in parts]) if all(p.soft is not None for p in parts) else None))


# -- collection ---------------------------------------------------------------------------------

def _game_seeds(seed: int, games: int) -> list[int]:
    """One deal seed per game, fixed by `seed` (independent of how the games are split over workers)."""
    rng = np.random.default_rng([seed, 0x1B1])
    return [int(s) for s in rng.integers(0, 2**62, size=games)]


def _play_chunk(args) -> Demonstrations:
    """Worker: play the games of these deal seeds (game ids 0.. in this chunk); see `collect`."""
    env_id, num_players, game_config, teacher, seeds, gamma, driver, targets = args
    from virus_envs import agents as agents_mod
    import virus_envs
    from virus_envs.agents.base import Decision, SearchHandle

    game = virus_envs.game(env_id, num_players, **game_config)
    obs_size, n_act = int(np.prod(game.observation_shape)), int(game.num_actions)
    obs_ptr, obs_idx, obs_val, mask_ptr, mask_idx = [0], [], [], [0], []
    actions, returns, gids, soft = [], [], [], []
    wins, decisions = 0.0, 0
    for k, deal in enumerate(seeds):
        st = game.new_initial_state(seed=deal)
        line = [agents_mod.make(teacher, game) for _ in range(game.num_players)]
        for i, ag in enumerate(line):
            ag.reset(seed=(deal * 7919 + i) % (2**63))
        rows = []                        # (seat, row index) of recorded decisions, in order
        count = [0] * game.num_players   # decisions per seat so far
        at = []                          # decision number of the seat at each recorded row
        while not st.is_terminal():
            p = st.current_player()
            ag = line[p]
            mask = st.legal_action_mask()
            legal = np.flatnonzero(mask)
            obs = None
            if legal.shape[0] > 1 or driver is not None or not ag.mask_only:
                obs = np.asarray(st.observation(p), dtype=np.float32).reshape(-1)
            if ag.mask_only:
                d = Decision(p, "", {}, obs, mask, game)
            else:
                d = Decision(p, st.phase(), st.view(p), obs, mask, game,
                             SearchHandle(st, p) if ag.needs_handle else None)
            a = int(ag.act(d))
            if legal.shape[0] > 1:
                nz = np.flatnonzero(obs)
                obs_idx.append(nz.astype(np.int32))
                obs_val.append(obs[nz])
                obs_ptr.append(obs_ptr[-1] + nz.shape[0])
                mask_idx.append(legal.astype(np.int32))
                mask_ptr.append(mask_ptr[-1] + legal.shape[0])
                if targets == "visits":
                    shares = ag.last_policy
                    soft.append(np.asarray([shares.get(int(b), 0.0) for b in legal], dtype=np.float32))
                actions.append(a)
                gids.append(k)
                rows.append(p)
                at.append(count[p])
            count[p] += 1
            decisions += 1
            played = a if driver is None else driver.act(obs, mask)
            st.apply_action(played)
        r = np.asarray(st.returns(), dtype=np.float64)
        truncated = bool(getattr(st, "is_truncated", lambda: False)())
        if not truncated and r.max() > 0:
            wins += 1.0
        for p, t in zip(rows, at):
            returns.append(float(r[p]) * gamma ** (count[p] - 1 - t))
    cat = (lambda xs, dt: np.concatenate(xs).astype(dt) if xs else np.zeros(0, dtype=dt))
    return Demonstrations(np.asarray(obs_ptr, dtype=np.int64), cat(obs_idx, np.int32), cat(obs_val, np.float32),
                          np.asarray(mask_ptr, dtype=np.int64), cat(mask_idx, np.int32),
                          np.asarray(actions, dtype=np.int64), np.asarray(returns, dtype=np.float32),
                          np.asarray(gids, dtype=np.int32), obs_size, n_act, games=len(seeds), wins=wins,
                          decisions=decisions, soft=cat(soft, np.float32) if targets == "visits" else None)


def check_teacher(teacher: str, game, targets: str = "action") -> None:
    """ValueError when `teacher` is a bad spec, or when `targets="visits"` and it keeps no root visit counts."""
    from virus_envs import agents as agents_mod

    if targets not in TARGETS:
        raise ValueError(f"bc targets must be one of {list(TARGETS)}, got {targets!r}")
    ag = agents_mod.make(teacher, game)
    if targets == "visits" and not hasattr(ag, "last_policy"):
        raise ValueError(f"bc_targets 'visits' needs a search teacher that keeps its root visit counts "
                         f"(ismcts?..., pimc?...); {teacher!r} has none")


def collect(game, teacher: str, games: int, seed: int = 0, gamma: float = 1.0, workers: int = 1,
            driver=None, echo=None, chunk: int = 50, targets: str = "action") -> Demonstrations:
    """Play `games` seeded games with `teacher` (an agent spec) in every seat and record its decisions.

    driver: None (the teacher plays its own moves) or a NumpyPolicy that plays every seat greedily
    while the teacher labels each decision (DAgger). Decisions with a single legal action are played
    but not recorded. The rows are in game order whatever `workers` is. targets="visits" also records the
    teacher's root visit shares of every recorded decision (`Demonstrations.soft`; a search teacher only).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    check_teacher(teacher, game, targets)              # a bad spec fails here, not in a worker
    seeds = _game_seeds(seed, games)
    cfg = dict(getattr(game, "config", {}) or {})
    tasks = [(game.env_id, game.num_players, cfg, teacher, seeds[lo:lo + chunk], gamma, driver, targets)
             for lo in range(0, games, chunk)]
    t0, parts = time.time(), []
    if workers <= 1 or len(tasks) == 1:
        results = map(_play_chunk, tasks)
        pool = None
    else:
        import multiprocessing as mp
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("fork"))
        results = pool.map(_play_chunk, tasks)
    try:
        done, step, shown = 0, max(chunk, games // 10), 0
        for part in results:
            parts.append(part)
            done += part.games
            if echo and (done - shown >= step or done == games):      # about ten progress lines
                shown = done
                el = time.time() - t0
                echo(f"[bc] {'DAgger' if driver is not None else 'teacher'} games {done}/{games} "
                     f"({done / el if el else 0:.0f} games/s), {sum(len(p) for p in parts):,} decisions recorded")
    finally:
        if pool is not None:
            pool.shutdown()
    return Demonstrations.concat(parts)


# -- cloning ---------------------------------------------------------------------------------------

def _sparse_ready(policy) -> bool:
    """True when the policy is SB3's MLP on flattened observations with a first Linear layer in both nets:
    then the first layer can read sparse observations (an EmbeddingBag sum: same result, far fewer products)."""
    import torch.nn as nn

    if type(policy.features_extractor).__name__ != "FlattenExtractor" or not policy.share_features_extractor:
        return False
    nets = (policy.mlp_extractor.policy_net, policy.mlp_extractor.value_net)
    return all(isinstance(n, nn.Sequential) and len(n) > 0 and isinstance(n[0], nn.Linear) for n in nets)


def sparse_logits(policy, idx, offsets, vals, mask):
    """As `masked_logits`, the observations given sparse (`Demonstrations.sparse_batch`, as tensors)."""
    import torch.nn.functional as F

    def net(seq):
        first = seq[0]
        h = F.embedding_bag(idx, first.weight.t().contiguous(), offsets, mode="sum", per_sample_weights=vals) + first.bias
        return seq[1:](h)

    logits = policy.action_net(net(policy.mlp_extractor.policy_net))
    values = policy.value_net(net(policy.mlp_extractor.value_net)).squeeze(-1)
    return logits.masked_fill(~mask, MASKED_LOGIT), values


def masked_logits(policy, obs, mask):
    """(action logits with illegal ones at MASKED_LOGIT, values) of an SB3 ActorCriticPolicy."""
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        pi_f, vf_f = features
        latent_pi, latent_vf = policy.mlp_extractor.forward_actor(pi_f), policy.mlp_extractor.forward_critic(vf_f)
    logits = policy.action_net(latent_pi)
    return logits.masked_fill(~mask, MASKED_LOGIT), policy.value_net(latent_vf).squeeze(-1)


def soft_cross_entropy(logits, target):
    """Mean over the batch of -sum_a target[a] log softmax(logits)[a] (torch tensors (B, A)); masked logits
    (MASKED_LOGIT) give 0 where the target is 0. Equals F.cross_entropy when each target row is one-hot."""
    import torch

    return -(target * torch.log_softmax(logits, dim=-1)).sum(-1).mean()


def _held_out(demos: Demonstrations, rng: np.random.Generator, holdout: float) -> np.ndarray:
    """The game ids held out for validation (drawn from rng): `holdout` of the games, at least one, when there are
    at least 10; none otherwise."""
    if demos.games >= 10 and holdout > 0:
        return rng.choice(demos.games, size=max(1, int(round(holdout * demos.games))), replace=False)
    return np.zeros(0, dtype=np.int64)


def held_out_rows(demos: Demonstrations, seed: int = 0, holdout: float = 0.05) -> np.ndarray:
    """The rows `behaviour_clone(..., seed=seed, holdout=holdout)` validates on (the same draw), for an experiment
    that measures the clone on them between epochs."""
    return np.flatnonzero(np.isin(demos.game_ids, _held_out(demos, np.random.default_rng([seed, 0xB0C]), holdout)))


def behaviour_clone(policy, demos: Demonstrations, epochs: int, lr: float, batch_size: int = 256,
                    value_coef: float = 0.5, seed: int = 0, holdout: float = 0.05, max_grad_norm: float = 1.0,
                    echo=None, label: str = "bc", soft: bool = False, on_epoch=None) -> list[dict]:
    """Train `policy` (in place) to imitate `demos`; one dict per epoch (losses, accuracies, minutes).

    Its own Adam optimizer (PPO's optimizer state is left untouched). Games are held out for
    validation when there are at least 10 (`holdout` of them, at least one). soft=True: the actor's
    loss is the cross-entropy to the teacher's visit shares (`demos.soft`) instead of to its action;
    the accuracy is still the agreement of the clone's argmax with the teacher's action. on_epoch: called as
    on_epoch(row) after each epoch's row is logged (an experiment's evaluation between epochs; the policy is in
    eval mode then and goes back to training after).
    """
    import torch
    import torch.nn.functional as F

    n = len(demos)
    if n == 0:
        raise ValueError("no decisions to clone (every teacher decision was forced)")
    if soft and demos.soft is None:
        raise ValueError("soft targets asked, but the demonstrations hold no visit shares (collect targets='visits')")
    rng = np.random.default_rng([seed, 0xB0C])
    val_games = _held_out(demos, rng, holdout)
    is_val = np.isin(demos.game_ids, val_games)
    train_rows, val_rows = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    params = list(policy.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    acts = torch.as_tensor(demos.actions)
    rets = torch.as_tensor(demos.returns)
    log, t0 = [], time.time()
    sparse = _sparse_ready(policy)

    def run(rows, train: bool):
        tot = {"loss": 0.0, "acc": 0.0, "value_loss": 0.0}
        policy.train(train)
        for lo in range(0, rows.shape[0], batch_size):
            idx = rows[lo:lo + batch_size]
            with torch.set_grad_enabled(train):
                if sparse:
                    si, so, sv = demos.sparse_batch(idx)
                    logits, values = sparse_logits(policy, torch.as_tensor(si), torch.as_tensor(so),
                                                   torch.as_tensor(sv), torch.as_tensor(demos.masks(idx)))
                else:
                    o, m = demos.batch(idx)
                    logits, values = masked_logits(policy, torch.as_tensor(o), torch.as_tensor(m))
                target = acts[idx]
                if soft:
                    ce = soft_cross_entropy(logits, torch.as_tensor(demos.soft_targets(idx)))
                else:
                    ce = F.cross_entropy(logits, target)
                vl = F.mse_loss(values, rets[idx])
                if train:
                    opt.zero_grad()
                    (ce + value_coef * vl).backward()
                    torch.nn.utils.clip_grad_norm_(params, max_grad_norm)
                    opt.step()
            b = idx.shape[0]
            tot["loss"] += float(ce.detach()) * b
            tot["value_loss"] += float(vl.detach()) * b
            tot["acc"] += float((logits.argmax(-1) == target).float().sum())
        return {k: v / max(1, rows.shape[0]) for k, v in tot.items()}

    for ep in range(1, epochs + 1):
        perm = train_rows[rng.permutation(train_rows.shape[0])]
        tr = run(perm, True)
        row = {"phase": label, "epoch": ep, "samples": int(train_rows.shape[0]), "train_loss": tr["loss"],
               "train_acc": tr["acc"], "train_value_loss": tr["value_loss"],
               "chance_acc": demos.chance_accuracy(train_rows)}
        if val_rows.shape[0]:
            va = run(val_rows, False)
            row.update(val_samples=int(val_rows.shape[0]), val_loss=va["loss"], val_acc=va["acc"],
                       val_value_loss=va["value_loss"])
        row["minutes"] = round((time.time() - t0) / 60, 2)
        log.append(row)
        if echo:
            v = (f", held-out loss {row['val_loss']:.3f} acc {row['val_acc']:.3f}" if "val_loss" in row else "")
            echo(f"[{label}] epoch {ep}/{epochs}: loss {tr['loss']:.3f} acc {tr['acc']:.3f} "
                 f"value mse {tr['value_loss']:.3f}{v} (chance {row['chance_acc']:.3f}; "
                 f"{row['minutes']:.1f} min)")
        if on_epoch is not None:
            policy.train(False)
            on_epoch(row)
    policy.train(False)
    return log
