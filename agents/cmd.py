"""`cmd:<command line>`: a bot in any language, run as a subprocess speaking JSON lines (docs/bots.md).

    agent = agents.make("cmd:python3 examples/bots/agent_bot.py heuristic", game)
    agent = agents.make("cmd:sh examples/bots/random_bot.sh", game)

Protocol version 1, one JSON object per line each way (the runner writes compact JSON, `type` first and
`view` last; a bot should parse JSON, not rely on that):

    runner -> bot                                                      bot -> runner
    {"type":"hello","protocol":1,"env_id":..,"num_players":..,         {"type":"ready"}   (within hello_seconds;
     "config":{..},"num_actions":..,"seat":s,"seed":..,"limits":{..}}    optional "name", "observation": true)
    {"type":"decision","seat":s,"phase":..,"decision":k,               {"action": <one of legal>}
     "legal":[ids],"legal_names":[..],"time_left":..,"view":{..}}        (within the decision's time)
    {"type":"end","seat":s,"returns":[..],"scores":[..],
     "truncated":false,"forfeit":null}
    {"type":"quit"}  (then end of input: the bot exits)

A hello starts every game (the process lives across games; a hello without the end of the game
before it means that game was abandoned). The decision carries only what the seat may know: its
`view` (what `State.view(seat)` gives), the phase, the legal actions (from the mask, which never
depends on hidden facts) with their context-free names, and, when the bot asked for it in its
ready, its `observation` (the float encoding of the same view). A fault forfeits the game
(`Forfeit`): the process is killed, and the next game starts a new one.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import time
import weakref

import numpy as np

from .base import Agent, Decision, Forfeit
from .botproc import BotLimits, BotProcess

__all__ = ["CmdAgent", "PROTOCOL", "split_spec", "decision_message", "hello_message"]

#: the protocol version this runner speaks
PROTOCOL = 1
#: an answer's end message gets this long to be written before the bot is killed (the game is over)
_END_SECONDS = 2.0


def split_spec(rest: str) -> tuple[str, str]:
    """'python3 bot.py --x?seed=3' -> ('python3 bot.py --x', 'seed=3'): the text after the last '?' is the
    spec's parameters when it is empty or all key=value pairs with plain keys; otherwise it belongs to the
    command (end a command that holds '?k=v' with '?')."""
    head, q, query = rest.rpartition("?")
    if not q:
        return rest, ""
    parts = [p for p in query.split("&") if p]
    if all("=" in p and p.partition("=")[0].isidentifier() for p in parts):
        return head, query
    return rest, ""


def hello_message(game, seat: int, seed, limits: BotLimits) -> dict:
    return {"type": "hello", "protocol": PROTOCOL, "env_id": game.env_id, "num_players": game.num_players,
            "config": dict(game.config), "num_actions": int(game.num_actions), "seat": int(seat),
            "seed": None if seed is None else int(seed), "limits": limits.to_dict()}


def decision_message(d: Decision, k: int, time_left: float, observation: bool = False) -> dict:
    """What the bot of seat d.seat is told at a decision: a function of that seat's view, phase and mask only."""
    legal = np.flatnonzero(d.action_mask).tolist()
    msg = {"type": "decision", "seat": int(d.seat), "phase": d.phase, "decision": int(k), "legal": legal,
           "legal_names": [d.game.action_to_string(a) for a in legal], "time_left": round(time_left, 3)}
    if observation:
        msg["observation"] = np.asarray(d.observation, dtype=np.float32).tolist()
    msg["view"] = d.view
    return msg


def _finalize(box: list, owner: int) -> None:
    """The agent is gone: its bot goes too (only in the process that started it, never in a forked copy)."""
    proc = box[0]
    if proc is not None and os.getpid() == owner:
        proc.close(grace=0.2)
    box[0] = None


class CmdAgent(Agent):
    """An outside bot behind the JSON-lines protocol. `limits` (BotLimits) is set by the runner (a tournament's
    config); the process starts at the bot's first decision and is reused for the following games."""

    def __init__(self, game, command: str, seed: int | None = None, limits: BotLimits | None = None):
        super().__init__(game, seed=seed)
        try:
            argv = shlex.split(command)
        except ValueError as e:
            raise ValueError(f"cmd: cannot split the command line {command!r}: {e}") from None
        if not argv:
            raise ValueError("cmd: the command line is empty (cmd:<command line>)")
        if shutil.which(argv[0]) is None:
            raise ValueError(f"cmd: {argv[0]!r} is neither an executable file nor a command on PATH")
        self.command, self.argv = command, argv
        self.limits = limits or BotLimits()
        self.seed = seed
        self.name = None                # what the bot calls itself (its ready)
        self.want_observation = False
        self.starts = 0                 # processes started (1 + restarts)
        self._game_seed = seed
        self._seat = None               # the seat of the game under way (None: no hello yet)
        self._k = 0
        self._used = 0.0
        self._owner = os.getpid()
        self._box: list = [None]
        self._finalizer = weakref.finalize(self, _finalize, self._box, self._owner)

    @property
    def files(self) -> list[str]:
        """The files the command line names that exist (the bot's program): fingerprinted by tournaments."""
        return [a for a in self.argv if os.path.isfile(a)]

    # -- the Agent interface -------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._game_seed = seed if seed is not None else self.seed
        self._seat = None

    def act(self, decision: Decision) -> int:
        if self._seat is None:
            self._hello(decision.seat)
        elif decision.seat != self._seat:
            raise ValueError(f"cmd agent {self.command!r} plays seat {self._seat} of this game and was asked for "
                             f"seat {decision.seat}: make one agent per seat")
        lim = self.limits
        left = lim.game_seconds - self._used
        budget = min(lim.decision_seconds, left)
        which = "decision" if lim.decision_seconds <= left else "game"
        msg = decision_message(decision, self._k, left, self.want_observation)
        limit_text = f"{budget:.3g} s (the {which} time limit)"
        try:
            t0 = time.monotonic()
            self._proc.send(msg, t0 + budget, f"decision {self._k}", limit_text)
            line = self._proc.readline(t0 + budget, f"decision {self._k}", limit_text)
            self._used += time.monotonic() - t0
            a = self._action(line, decision)
        except Forfeit:
            self._stop()
            raise
        self._k += 1
        return a

    def game_over(self, seat: int, returns, scores, truncated: bool = False, forfeit: dict | None = None) -> None:
        proc, self._seat = self._box[0], None
        if proc is None or self._owner != os.getpid():
            return
        msg = {"type": "end", "seat": int(seat), "returns": [float(x) for x in returns],
               "scores": [float(x) for x in scores], "truncated": bool(truncated),
               "forfeit": None if forfeit is None else {k: forfeit[k] for k in ("seat", "kind", "reason")}}
        try:
            proc.send(msg, time.monotonic() + _END_SECONDS, "the end of the game")
        except Forfeit:
            self._stop()            # the game is over: no forfeit, but a bot that does not listen starts afresh

    def close(self) -> None:
        """Quit the bot (it is started again if the agent plays on)."""
        proc, self._box[0] = self._box[0], None
        self._seat = None
        if proc is not None and self._owner == os.getpid():
            proc.close()

    # -- inside ----------------------------------------------------------------------------------
    @property
    def _proc(self) -> BotProcess:
        return self._box[0]

    def _stop(self) -> None:
        proc, self._box[0] = self._box[0], None
        self._seat = None
        if proc is not None:
            proc.kill()

    def _hello(self, seat: int) -> None:
        if self._owner != os.getpid():         # a forked copy (a worker): its own bot, the parent's untouched
            self._owner, self._box = os.getpid(), [None]
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _finalize, self._box, self._owner)
        proc = self._box[0]
        if proc is not None and not proc.alive():
            proc.kill()
            proc = self._box[0] = None
        if proc is None:
            proc = self._box[0] = BotProcess(self.argv, self.limits)
            self.starts += 1
        msg = hello_message(self.game, seat, self._game_seed, self.limits)
        try:
            deadline = time.monotonic() + self.limits.hello_seconds
            limit_text = f"{self.limits.hello_seconds:g} s (the hello time limit)"
            proc.send(msg, deadline, "the hello", limit_text)
            line = proc.readline(deadline, "the hello", limit_text)
            ready = _parse(line, "the hello")
            if ready.get("type") != "ready":
                raise Forfeit("garbage", f"answered the hello with {_short(line)}, not {{\"type\": \"ready\"}}")
            if ready.get("protocol", PROTOCOL) != PROTOCOL:
                raise Forfeit("garbage", f"speaks protocol {ready.get('protocol')!r}; this runner speaks {PROTOCOL}")
        except Forfeit:
            self._stop()
            raise
        self.name = ready.get("name") if isinstance(ready.get("name"), str) else self.name
        self.want_observation = ready.get("observation") is True
        self._seat, self._k, self._used = seat, 0, 0.0

    def _action(self, line: str, d: Decision) -> int:
        answer = _parse(line, f"decision {self._k}")
        a = answer.get("action")
        if isinstance(a, bool) or not isinstance(a, int):
            raise Forfeit("garbage", f"answered decision {self._k} with {_short(line)}: no integer 'action'")
        if not (0 <= a < d.action_mask.shape[0] and d.action_mask[a]):
            raise Forfeit("illegal", f"answered decision {self._k} ({d.phase}) with action {a}, which is not "
                                     f"legal there (legal: {_clip(str(np.flatnonzero(d.action_mask).tolist()))})")
        return a


def _parse(line: str, what: str) -> dict:
    try:
        obj = json.loads(line)
    except ValueError:
        raise Forfeit("garbage", f"answered {what} with {_short(line)}, which is not JSON") from None
    if not isinstance(obj, dict):
        raise Forfeit("garbage", f"answered {what} with {_short(line)}, not a JSON object")
    return obj


def _clip(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[:n] + "..."


def _short(text: str, n: int = 80) -> str:
    return repr(_clip(text, n))

