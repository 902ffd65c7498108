"""RLlib PPO (new API stack) with action masking on a PettingZoo env of this package, then a check against random.

    pip install 'virus_envs[rllib]'
    .venv/bin/python examples/rllib_ppo.py --iterations 20
    .venv/bin/python examples/rllib_ppo.py --game virus_cards_v0 --players 3 --iterations 5 --runners 2

One module ("shared") plays every seat and learns from all of them (self-play with parameter sharing);
`virus_envs.rllib` holds the env, the masked module and the config. Without `--address` a local Ray
instance with `--cpus` CPUs is started; `--address auto` joins a running cluster. Each iteration prints
its wall-clock time and the env steps (decisions of all seats) it sampled; at the end the greedy module
plays `--eval-games` games against `--opponent` (random) in the other seats, in every seat in turn, with a 95%
Wilson interval, before training (the baseline: an untrained greedy module already beats random players
often) and after, on the same deals.
Figures: docs/scale.md "RLlib".
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import ray
import torch

import virus_envs
from virus_envs import agents
from virus_envs.experiments.arena import play_match, wilson, win_shares
from virus_envs.rllib import SHARED, RLModuleAgent, ppo_config


def parse():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="roll_write_v0")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--runners", type=int, default=1, help="EnvRunner actors (0: sample in this process)")
    p.add_argument("--envs-per-runner", type=int, default=8)
    p.add_argument("--batch", type=int, default=4000, help="env steps (all seats' decisions) per iteration")
    p.add_argument("--minibatch", type=int, default=500)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--opponent", default="random", help="agent spec the module is evaluated against")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cpus", type=int, default=None, help="CPUs of the local Ray instance (default: all)")
    p.add_argument("--address", default=None, help="join a running Ray cluster (auto or HOST:PORT)")
    p.add_argument("--threads", type=int, default=1, help="torch threads of the learner (this process)")
    p.add_argument("--checkpoint", default=None, help="save the trained algorithm to this folder")
    return p.parse_args()


def evaluate(module, game, opponent: str, games: int, seed: int) -> str:
    """Win share of the greedy module against `opponent` in every other seat, seats rotated on each deal."""
    rng = np.random.default_rng(seed)
    n, wins = game.num_players, 0.0
    for g in range(games):
        seat = g % n
        if seat == 0:
            deal = int(rng.integers(0, 2**62))
        line = [agents.make(opponent, game) for _ in range(n)]
        line[seat] = RLModuleAgent(game, module)
        o = play_match(game, line, deal)
        wins += win_shares(o.returns, o.truncated)[seat]
    lo, hi = wilson(wins, games)
    return f"win share {wins / games:.3f} [{lo:.3f}, {hi:.3f}] over {games} games against {opponent}"


def main():
    args = parse()
    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.cpus, include_dashboard=False)
    algo = ppo_config(args.game, args.players, num_env_runners=args.runners, envs_per_runner=args.envs_per_runner,
                      train_batch_size=args.batch, minibatch_size=args.minibatch, num_epochs=args.epochs,
                      lr=args.lr, seed=args.seed).build_algo()
    print(f"Ray started and PPO built in {time.perf_counter() - t0:.1f} s")
    game = virus_envs.game(args.game, args.players)
    if args.eval_games:   # the untrained module's greedy play is the baseline the trained one is read against
        print("untrained module:", evaluate(algo.get_module(SHARED), game, args.opponent, args.eval_games,
                                            args.seed + 1))
    times = []
    for it in range(1, args.iterations + 1):
        t = time.perf_counter()
        r = algo.train()
        times.append(time.perf_counter() - t)
        er, tm = r["env_runners"], r.get("timers", {})
        returns = er.get("agent_episode_returns_mean", {})
        # RLlib's timers are smoothed over iterations: where the time goes, roughly
        print(f"iter {it:3d}  {times[-1]:6.1f} s (sampling {tm.get('env_runner_sampling_timer', 0):5.1f} s, "
              f"learning {tm.get('learner_update_timer', 0):5.1f} s)  env steps {int(er['num_env_steps_sampled']):6d}  "
              f"episodes {int(er.get('num_episodes', 0)):4d}  mean length {float(er.get('episode_len_mean', 0)):6.1f}  "
              f"seat returns {({k: round(float(v), 2) for k, v in sorted(returns.items())})}")
    if times:
        steps = args.batch / np.mean(times[1:] if len(times) > 1 else times)
        print(f"mean {np.mean(times):.1f} s per iteration ({steps:.0f} env steps/s after the first)")
    if args.checkpoint:
        print("saved to", algo.save(args.checkpoint))
    if args.eval_games:   # the same deals as the untrained module's
        print("trained module:  ", evaluate(algo.get_module(SHARED), game, args.opponent, args.eval_games,
                                            args.seed + 1))
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
