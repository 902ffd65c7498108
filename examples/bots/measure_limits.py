#!/usr/bin/env python3
"""How precisely the time limits of outside bots are enforced, and what one protocol round trip costs.

    python examples/bots/measure_limits.py [--timeouts 30] [--limit 0.2] [--decisions 300]

Prints (1) how late a timeout is noticed after the decision's limit: a bot that never answers is asked
`--timeouts` times with `decision_seconds = --limit`, and the time from the start of `act` to the
forfeit is measured; (2) the wall time of one decision round trip (write the decision, read the
answer) for the shell/awk example and the Python example wrapping `random`, over `--decisions`
decisions. The figures of docs/bots.md come from this script.
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import virus_envs
from virus_envs import agents
from virus_envs.agents.base import Forfeit, decision_for
from virus_envs.agents.botproc import BotLimits

HERE = Path(__file__).resolve().parent
HANG = f"{sys.executable} -c \"import sys,json,time\nfor l in sys.stdin:\n m=json.loads(l)\n" \
       f" if m['type']=='hello': print(json.dumps({{'type':'ready'}}),flush=True)\n else: time.sleep(3600)\""


def pct(xs, q):
    return float(np.percentile(xs, q))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeouts", type=int, default=30)
    ap.add_argument("--limit", type=float, default=0.2)
    ap.add_argument("--decisions", type=int, default=300)
    args = ap.parse_args()
    game = virus_envs.game("virus_cards_v0")
    d = decision_for(game.new_initial_state(seed=0))
    late = []
    bot = agents.make(f"cmd:{HANG}", game)
    bot.limits = BotLimits(decision_seconds=args.limit, hello_seconds=60)
    for i in range(args.timeouts):
        bot.reset(i)
        bot._hello(0)                   # the process start is not part of what is measured
        t0 = time.monotonic()
        try:
            bot.act(d)
        except Forfeit:
            late.append(time.monotonic() - t0 - args.limit)
    print(f"timeouts: {len(late)} at decision_seconds={args.limit:g}: noticed late by median "
          f"{1000 * statistics.median(late):.1f} ms, p90 {1000 * pct(late, 90):.1f} ms, max {1000 * max(late):.1f} ms; "
          f"never early: {min(late) >= 0}")
    for name, spec in (("sh/awk random_bot.sh", f"cmd:sh {HERE / 'random_bot.sh'}"),
                       ("python agent_bot.py random", f"cmd:{sys.executable} {HERE / 'agent_bot.py'} random")):
        bot = agents.make(spec, game)
        bot.limits = BotLimits(hello_seconds=120)
        other = agents.make("random", game)
        times, s = [], None
        while len(times) < args.decisions:          # the bot in seat 0, random in seat 1
            if s is None or s.is_terminal():
                s = game.new_initial_state(seed=len(times))
                bot.reset(len(times))
                other.reset(len(times))
                bot._hello(0)
            d = decision_for(s)
            if d.seat == 0:
                t0 = time.monotonic()
                a = bot.act(d)
                times.append(time.monotonic() - t0)
            else:
                a = other.act(d)
            s.apply_action(a)
        bot.close()
        print(f"round trip, {name}: median {1000 * statistics.median(times):.2f} ms, "
              f"p90 {1000 * pct(times, 90):.2f} ms over {len(times)} decisions")


if __name__ == "__main__":
    main()
