#!/usr/bin/env python3
"""A complete bot for the virus_envs bot protocol, version 1 (docs/bots.md), in Python.

It plays any in-process agent spec of the package behind the protocol, so that a tournament can
run it as an outside program; the tests check that `cmd:python3 examples/bots/agent_bot.py heuristic`
plays exactly the games the in-process `heuristic` plays on the same seeds.

    python3 examples/bots/agent_bot.py heuristic          # the game's heuristic
    python3 examples/bots/agent_bot.py random
    python3 examples/bots/agent_bot.py ppo:builtin        # asks for the observation vector in its ready

Everything it knows comes from the messages: the hello (game, player count, config, seat, seed) and
each decision (the seat's view, the phase, the legal action ids). Logs go to stderr; stdout carries
protocol lines only, one JSON object each, flushed.
"""
import json
import sys

import numpy as np

import virus_envs
from virus_envs import agents
from virus_envs.agents.base import Decision

PROTOCOL = 1


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main(spec):
    game = agent = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if msg["protocol"] != PROTOCOL:
                sys.exit(f"agent_bot speaks protocol {PROTOCOL}, not {msg['protocol']}")
            key = (msg["env_id"], msg["num_players"], json.dumps(msg["config"], sort_keys=True))
            if game is None or key != (game.env_id, game.num_players, json.dumps(game.config, sort_keys=True)):
                game = virus_envs.game(msg["env_id"], num_players=msg["num_players"], **msg["config"])
                agent = agents.make(spec, game)
            agent.reset(seed=msg["seed"])              # the seed the in-process agent would get
            send({"type": "ready", "name": f"agent_bot {spec}", "observation": spec.startswith("ppo:")})
        elif kind == "decision":
            mask = np.zeros(game.num_actions, dtype=bool)
            mask[msg["legal"]] = True
            obs = np.asarray(msg["observation"], dtype=np.float32) if "observation" in msg else None
            d = Decision(msg["seat"], msg["phase"], msg["view"], obs, mask, game)
            send({"action": int(agent.act(d))})
        elif kind == "end":
            print(f"game over: seat {msg['seat']} returns {msg['returns']}", file=sys.stderr)
        elif kind == "quit":
            return


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "heuristic")
