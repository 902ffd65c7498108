"""MaskablePPO's training speed: today's SelfPlayEnv against the batched VecEnv (Roll & Write, VIRUS!, Virus & Co).

    .venv/bin/python -m virus_envs.experiments.batched_fps --steps 32768
    .venv/bin/python -m virus_envs.experiments.batched_fps --steps 32768 --opponent heuristic
    .venv/bin/python -m virus_envs.experiments.batched_fps --steps 32768 --game virus_cards_v0
    .venv/bin/python -m virus_envs.experiments.batched_fps --steps 32768 --game virus_co_v0 --players 4

Both runs use the same MaskablePPO settings (MlpPolicy [64, 64], batch 1024, 4 epochs, 1 torch
thread, `--players` (default 2), opponents `--opponent`: random or a heuristic spec) and differ only in the
env: `SelfPlayEnv` in a DummyVecEnv of 8 copies (what `virus-arena train` builds; a heuristic opponent is
the scalar agent) with n_steps 256, or the game's batched VecEnv (`VECENV`) with 256 games and n_steps 8
(the same 2048 transitions per rollout; a heuristic opponent is the batched kernel,
`roll_write/batched_heuristic.py`: Roll & Write only).
It prints, per run, timesteps per second of wall-clock and of process CPU time (the machine may be
shared), and the time spent in the env.
"""
from __future__ import annotations

import argparse
import time


#: env id -> "module:class" of its batched SB3 VecEnv
VECENV = {"roll_write_v0": "virus_envs.roll_write.vector:RollWriteVecEnv",
          "virus_cards_v0": "virus_envs.virus_cards.vector:VirusCardsVecEnv",
          "virus_co_v0": "virus_envs.virus_co.vector:VirusCoVecEnv"}


def _run(kind: str, steps: int, seed: int, opponent: str = "random", game: str = "roll_write_v0",
         players: int = 2) -> dict:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    if kind == "SelfPlayEnv x8 (DummyVecEnv)":
        from virus_envs.agents.sb3_env import SelfPlayEnv
        venv = DummyVecEnv([lambda: SelfPlayEnv(game, players, opponents=[opponent]) for _ in range(8)])
        n_steps = 256
    else:
        import importlib
        module, cls = VECENV[game].split(":")
        venv = getattr(importlib.import_module(module), cls)(256, num_players=players, opponent=opponent, seed=seed)
        n_steps = 8
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=1024, n_epochs=4, seed=seed, device="cpu",
                        policy_kwargs={"net_arch": [64, 64]})
    spent = [0.0]
    step_wait = venv.step_wait

    def timed():
        t = time.process_time()
        out = step_wait()
        spent[0] += time.process_time() - t
        return out

    venv.step_wait = timed
    from stable_baselines3.common.logger import Logger
    model.set_logger(Logger(folder=None, output_formats=[]))    # a benchmark: no log files (SB3 would make /tmp/SB3-<date>)
    w0, c0 = time.perf_counter(), time.process_time()
    model.learn(steps)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {"env": f"{players}p {kind}", "opponent": opponent, "timesteps": model.num_timesteps,
            "fps_wall": round(model.num_timesteps / wall), "fps_cpu": round(model.num_timesteps / cpu),
            "env_cpu_share": round(spent[0] / cpu, 2)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=32768)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponent", default="random", help="random, or a heuristic spec such as heuristic:cautious")
    p.add_argument("--game", default="roll_write_v0", choices=sorted(VECENV))
    p.add_argument("--players", type=int, default=2)
    a = p.parse_args(argv)
    batched = VECENV[a.game].rpartition(":")[2] + " B=256"
    rows = [_run(k, a.steps, a.seed, a.opponent, a.game, a.players)
            for k in ("SelfPlayEnv x8 (DummyVecEnv)", batched)]
    print("| game | env | opponent | timesteps | fps (wall) | fps (CPU time) | share of CPU in the env |")
    print("|---|---|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {a.game} | {r['env']} | {r['opponent']} | {r['timesteps']} | {r['fps_wall']} | {r['fps_cpu']} | "
              f"{r['env_cpu_share']} |")
    return rows


if __name__ == "__main__":
    main()
