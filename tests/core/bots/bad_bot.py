"""A scripted bot for the fault tests: plays random legal actions, and in the games chosen by its seed
misbehaves at one decision in the way named on its command line.

    python bad_bot.py MODE [EVERY] [AT]

MODE: hang (stops answering), crash (exits with code 3), garbage (prints a line that is not JSON),
illegal (answers an action that is not legal), memory (allocates 2 GiB), spin (a busy loop), slow (sleeps AT seconds before each answer, never
a fault by itself), silent-hello (never answers the hello), good (never misbehaves).
The fault comes in the games whose hello seed is divisible by EVERY (default 1: every game), at the
bot's decision AT (default 1) of that game. Standard library only: it starts fast.
"""
import json
import random
import sys
import time

mode = sys.argv[1]
every = int(sys.argv[2]) if len(sys.argv) > 2 else 1
at = float(sys.argv[3]) if len(sys.argv) > 3 else 1
rng, bad, k = random.Random(0), False, 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        if mode == "silent-hello":
            time.sleep(3600)
        seed = msg["seed"] or 0
        rng, bad, k = random.Random(seed), seed % every == 0, 0
        print(json.dumps({"type": "ready", "name": f"bad_bot {mode}"}), flush=True)
    elif msg["type"] == "decision":
        a = rng.choice(msg["legal"])
        if mode == "slow":
            time.sleep(at)
        elif bad and k == at:
            if mode == "hang":
                time.sleep(3600)
            elif mode == "crash":
                print("bad_bot: crashing on purpose", file=sys.stderr, flush=True)
                sys.exit(3)
            elif mode == "garbage":
                print("thinking... I'd play the red card", flush=True)
                continue
            elif mode == "illegal":
                a = next(x for x in range(10**6) if x not in msg["legal"])
            elif mode == "memory":
                hog = bytearray(2 << 30)            # 2 GiB: more than any memory_mb the tests set
            elif mode == "spin":
                while True:
                    pass
        k += 1
        print(json.dumps({"action": a}), flush=True)
    elif msg["type"] == "quit":
        break
