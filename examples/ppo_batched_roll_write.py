"""CleanRL-style PPO on the batched Roll & Write engine: one file, self-play against random opponents.

    .venv/bin/python examples/ppo_batched_roll_write.py --total-timesteps 300000 --num-envs 256

The env is `RollWriteVectorEnv` (B games in numba kernels, the opponents' moves inside `step`);
the policy masks illegal actions by setting their logits to -1e8 (CleanRL's invalid-action-masking
PPO). It prints steps per second (env + policy + update: what training costs) and, at the end, the
learner's win share against random players on fresh seeds. Figures: docs/scale.md.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import torch
import torch.nn as nn

from virus_envs.roll_write.vector import RollWriteVectorEnv


def parse():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--num-envs", type=int, default=256)
    p.add_argument("--num-steps", type=int, default=64, help="steps per env per rollout")
    p.add_argument("--total-timesteps", type=int, default=300_000)
    p.add_argument("--lr", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--minibatches", type=int, default=8)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--eval-games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    return p.parse_args()


class Agent(nn.Module):
    def __init__(self, obs_size, num_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, 256), nn.Tanh(), nn.Linear(256, 256), nn.Tanh())
        self.pi = nn.Linear(256, num_actions)
        self.v = nn.Linear(256, 1)

    def value(self, x):
        return self.v(self.body(x)).squeeze(-1)

    def act(self, x, mask, action=None):
        h = self.body(x)
        logits = torch.where(mask, self.pi(h), torch.tensor(-1e8))
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.v(h).squeeze(-1)


def evaluate(agent, players, games, seed):
    """Win share of the (sampling) policy as the learner against random players, on fresh seeds."""
    env = RollWriteVectorEnv(256, num_players=players, seed=seed)
    obs, info = env.reset()
    rewards = []
    with torch.no_grad():
        while len(rewards) < games:
            a, _, _, _ = agent.act(torch.from_numpy(obs), torch.from_numpy(info["action_mask"]))
            obs, r, term, _, info = env.step(a.numpy())
            rewards += r[term].tolist()
    r = np.array(rewards[:games])
    return float(np.mean(np.where(r > 0, r, 0.0))), float(r.mean())   # share of wins (ties 1/k), mean return


def main():
    args = parse()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    env = RollWriteVectorEnv(args.num_envs, num_players=args.players, seed=args.seed)
    B, T = args.num_envs, args.num_steps
    obs_size, A = env.single_observation_space.shape[0], env.single_action_space.n
    agent = Agent(obs_size, A)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    obs_b = torch.zeros((T, B, obs_size))
    mask_b = torch.zeros((T, B, A), dtype=torch.bool)
    act_b = torch.zeros((T, B), dtype=torch.long)
    logp_b, rew_b, done_b, val_b = (torch.zeros((T, B)) for _ in range(4))
    obs, info = env.reset()
    next_obs, next_mask = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
    updates = args.total_timesteps // (B * T)
    start, steps = time.perf_counter(), 0
    for update in range(1, updates + 1):
        done_sum, ret_sum = 0, 0.0
        for t in range(T):
            obs_b[t], mask_b[t] = next_obs, next_mask
            with torch.no_grad():
                a, logp, _, v = agent.act(next_obs, next_mask)
            act_b[t], logp_b[t], val_b[t] = a, logp, v
            obs, r, term, _, info = env.step(a.numpy())
            rew_b[t], done_b[t] = torch.from_numpy(r).float(), torch.from_numpy(term).float()
            next_obs, next_mask = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
            done_sum += int(term.sum())
            ret_sum += float(r[term].sum())
        steps += B * T
        # GAE: a done at t means the transition t ended its game (the next obs is a new game's)
        with torch.no_grad():
            nxt = agent.value(next_obs)
            adv = torch.zeros((T, B))
            last = torch.zeros(B)
            for t in reversed(range(T)):
                nv = nxt if t == T - 1 else val_b[t + 1]
                live = 1.0 - done_b[t]
                delta = rew_b[t] + args.gamma * nv * live - val_b[t]
                last = delta + args.gamma * args.gae_lambda * live * last
                adv[t] = last
            ret = adv + val_b
        flat = lambda x: x.reshape((T * B,) + x.shape[2:])
        o, m, ac, lp, ad, rt = map(flat, (obs_b, mask_b, act_b, logp_b, adv, ret))
        mb = T * B // args.minibatches
        for _ in range(args.epochs):
            perm = torch.randperm(T * B)
            for k in range(0, T * B, mb):
                i = perm[k:k + mb]
                _, newlp, ent, v = agent.act(o[i], m[i], ac[i])
                ratio = (newlp - lp[i]).exp()
                a_n = (ad[i] - ad[i].mean()) / (ad[i].std() + 1e-8)
                pg = torch.max(-a_n * ratio, -a_n * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                loss = pg + args.vf_coef * ((v - rt[i]) ** 2).mean() - args.ent_coef * ent.mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        sps = steps / (time.perf_counter() - start)
        if update % max(1, updates // 10) == 0 or update == updates:
            print(f"update {update}/{updates}  steps {steps}  SPS {sps:,.0f}  games {done_sum}  "
                  f"mean return {ret_sum / max(done_sum, 1):+.3f}", flush=True)
    share, mean = evaluate(agent, args.players, args.eval_games, args.seed + 10_000)
    print(f"trained {steps} steps in {time.perf_counter() - start:.0f} s ({steps / (time.perf_counter() - start):,.0f} "
          f"SPS with evaluation); against random, {args.eval_games} games: win share {share:.3f}, "
          f"mean return {mean:+.3f}")


if __name__ == "__main__":
    main()
