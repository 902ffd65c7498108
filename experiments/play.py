"""`virus-arena play` (a person against agents in the terminal) and `virus-arena replay` (step through a recorded game).

play: the table is drawn from the person's seat only (`state.render_for(seat)`: no hidden
information), the legal actions are listed with readable descriptions, and a wrong entry is
explained and asked again. Other seats' moves are announced by their context-free action names.
`--record FILE` appends the game in the same JSON-lines format as a tournament's games.jsonl.

replay: replays a record on the engine, showing each decision and the table after it, and checks
that the final scores equal the recorded ones.
"""
from __future__ import annotations

import json
import re
import sys

import numpy as np


def _read(prompt: str, inp, out) -> str:
    out.write(prompt)
    out.flush()
    line = inp.readline()
    if not line:
        raise EOFError
    return line.strip()


def choose(state, inp=None, out=None) -> int:
    """Ask the person for one of the legal actions; a wrong entry is explained and asked again."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    legal = state.legal_actions()
    out.write("legal actions:\n")
    for i, a in enumerate(legal):
        out.write(f"  {i:>3}: {state.action_to_string(a)}\n")
    while True:
        text = _read("your move (number or action name; 'q' quits)> ", inp, out)
        if text.lower() in ("q", "quit", "exit"):
            raise KeyboardInterrupt
        if text.isdigit():
            k = int(text)
            if k < len(legal):
                return legal[k]
            out.write(f"  {k} is not in the list: choose 0..{len(legal) - 1}\n")
            continue
        try:
            a = state.game.string_to_action(text)
        except ValueError:
            out.write(f"  {text!r} is neither a number from the list nor an action name\n")
            continue
        if a in legal:
            return a
        out.write(f"  {state.action_to_string(a)!r} is not allowed now ({state.phase()})\n")


def seat_specs(n: int, seat: int, opponents: list) -> list:
    """Who sits where: "human" at `seat`, the opponents' specs cycled over the other seats (default heuristic)."""
    opponents = opponents or ["heuristic"]
    others = iter(opponents[k % len(opponents)] for k in range(n))
    return ["human" if p == seat else next(others) for p in range(n)]


def add_table_args(p, what: str) -> None:
    """The arguments of a game against agents (`play`, `serve`): game, players, seat, opponents, config."""
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int)
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--opponents", nargs="+", help="agent specs for the other seats, cycled (default heuristic)")
    p.add_argument("--seed", type=int, default=None, help=f"{what} (default: a random seed, printed)")
    p.add_argument("--game-config", action="append", metavar="KEY=VALUE")


def play_session(env_id: str, players: int | None, seat: int, opponents: list, seed: int | None, config: dict,
                 inp=None, out=None, record: str | None = None) -> dict:
    """One game of a person (at `seat`) against agents; returns the game record."""
    from virus_envs import agents as agents_mod
    import virus_envs
    from virus_envs.agents.base import decision_for

    out = out or sys.stdout
    game = virus_envs.game(env_id, num_players=players, **config)
    n = game.num_players
    if not 0 <= seat < n:
        raise ValueError(f"--seat must be 0..{n - 1}")
    specs = seat_specs(n, seat, opponents)
    if seed is None:     # a fresh deal each time; printed so that the game can be played again
        import secrets
        seed = secrets.randbelow(2**31)
    bots = {p: agents_mod.make(specs[p], game, seed=seed * 31 + p) for p in range(n) if p != seat}
    s = game.new_initial_state(seed=seed)
    actions = []
    out.write(f"{env_id}, {n} players, seed {seed} (--seed {seed} deals it again); you are player_{seat}; the others: "
              + ", ".join(f"player_{p}={specs[p]}" for p in range(n) if p != seat) + "\n")
    try:
        while not s.is_terminal():
            p = s.current_player()
            if p == seat:
                out.write("\n" + s.render_for(seat) + "\n")
                a = choose(s, inp, out)
            else:
                a = bots[p].act(decision_for(s, with_handle=bots[p].needs_handle))
                out.write(f"player_{p} ({specs[p]}): {in_words(s, a)}\n")
            s.apply_action(a)
            actions.append(int(a))
    except (EOFError, KeyboardInterrupt):
        out.write("\ngame abandoned\n")
        rec = _record(env_id, n, game.config, seed, specs, actions, s, complete=False)
        if record:
            _append(record, rec)
        return rec
    out.write("\n" + s.render_for(seat) + "\n")
    out.write(f"game over: scores {[float(x) for x in s.scores()]}, returns {s.returns().tolist()}\n")
    rec = _record(env_id, n, game.config, seed, specs, actions, s, complete=True)
    if record:
        _append(record, rec)
        out.write(f"recorded in {record}\n")
    return rec


def _record(env_id, n, config, seed, specs, actions, s, complete):
    return {"env_id": env_id, "num_players": n, "config": dict(config), "seed": seed, "seats": specs,
            "actions": actions, "scores": [float(x) for x in s.scores()],
            "returns": [float(x) for x in s.returns()], "truncated": bool(getattr(s, "is_truncated", lambda: False)()),
            "complete": complete}


def _append(path, rec):
    with open(path, "a") as f:
        f.write(json.dumps(rec) + "\n")


def load_game_records(path: str) -> list[dict]:
    """Records of a games.jsonl (tournament) or a play file; errors name the file and the line."""
    try:
        with open(path) as f:
            lines = [ln for ln in f if ln.strip()]
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror})") from None
    recs = []
    for i, ln in enumerate(lines):
        try:
            rec = json.loads(ln)
        except ValueError:
            raise ValueError(f"{path}: line {i + 1} is not JSON") from None
        for key in ("env_id", "num_players", "seed", "actions"):
            if key not in rec:
                raise ValueError(f"{path}: line {i + 1} has no field {key!r}")
        recs.append(rec)
    if not recs:
        raise ValueError(f"{path}: no game records")
    return recs


_RELATIVE_SEAT = re.compile(r"(?<![\w+])(?:seat)?\+(\d+)\b")


def in_words(state, a: int) -> str:
    """The action's name with relative seats resolved: VIRUS!'s `+r` and Virus & Co's `seat+k` (k seats on
    from the decider, in turn order) become `player_q`."""
    text = state.action_to_string(a)
    p, n = state.current_player(), state.game.num_players
    return _RELATIVE_SEAT.sub(lambda m: f"player_{(p + int(m.group(1))) % n}", text) if p >= 0 else text


def replay_states(rec: dict):
    """The positions of a recorded game, in order: yields (state, move) with move None for the deal, else
    (k, seat, action in words) of the decision that led to it (the same state object, advanced in place).
    Raises ValueError if the record does not replay (another engine or config) or ends on other scores."""
    import virus_envs

    game = virus_envs.game(rec["env_id"], num_players=rec["num_players"], **rec.get("config", {}))
    s = game.new_initial_state(seed=rec["seed"])
    yield s, None
    for k, a in enumerate(rec["actions"]):
        p = s.current_player()
        if s.is_terminal() or not (isinstance(a, int) and 0 <= a < game.num_actions and s.legal_action_mask()[a]):
            raise ValueError(f"decision {k}: action {a} is not legal in the replayed game (a different engine or config?)")
        text = in_words(s, a)
        s.apply_action(a)
        yield s, (k, p, text)
    scores = [float(x) for x in s.scores()]
    if "scores" in rec and rec.get("complete", True) and not np.allclose(scores, rec["scores"]):
        raise ValueError(f"replay ends with scores {scores}, the record says {rec['scores']}")


def replay_record(rec: dict, out=None, tables: bool = True, pause=None) -> object:
    """Replay a record on the engine; returns the final state. Raises ValueError if it diverges."""
    import virus_envs

    out = out or sys.stdout
    game = virus_envs.game(rec["env_id"], num_players=rec["num_players"], **rec.get("config", {}))
    s = game.new_initial_state(seed=rec["seed"])
    seats = rec.get("seats") or ["?"] * game.num_players
    if tables:
        out.write(str(s) + "\n")
    for k, a in enumerate(rec["actions"]):
        p = s.current_player()
        if s.is_terminal() or not (0 <= a < game.num_actions and s.legal_action_mask()[a]):
            raise ValueError(f"decision {k}: action {a} is not legal in the replayed game (a different engine or config?)")
        out.write(f"[{k}] player_{p} ({seats[p]}), {s.phase()}: {s.action_to_string(a)}\n")
        s.apply_action(a)
        if tables:
            out.write(str(s) + "\n")
        if pause:
            pause()
    scores = [float(x) for x in s.scores()]
    if "scores" in rec and rec.get("complete", True):
        if not np.allclose(scores, rec["scores"]):
            raise ValueError(f"replay ends with scores {scores}, the record says {rec['scores']}")
        out.write(f"final scores {scores} match the record\n")
    return s


def cmd_play(args, echo=print):
    from virus_envs.experiments.tournament import _kv
    return play_session(args.game, args.players, args.seat, args.opponents or [], args.seed, _kv(args.game_config),
                        record=args.record)


def cmd_replay(args, echo=print):
    if args.out and not args.html:
        raise ValueError("-o/--out is the file of --html: add --html")
    recs = load_game_records(args.file)
    if args.game_index is not None:
        chosen = [r for r in recs if r.get("index") == args.game_index] or \
            ([recs[args.game_index]] if 0 <= args.game_index < len(recs) else [])
        if not chosen:
            raise ValueError(f"{args.file}: no game with index {args.game_index}")
        recs = chosen
    else:
        recs = recs[:1]

    if args.html:
        from virus_envs.experiments.replay_html import write_html
        out = args.out or "replay.html"
        info = write_html(recs[0], out)
        echo(f"{out}: {info['steps'] - 1} decisions of {recs[0]['env_id']} (seed {recs[0]['seed']}), "
             f"{info['pictures']} pictures, {info['bytes'] / 1e6:.1f} MB; open it in a browser (no server needed)")
        return recs

    def pause():
        if sys.stdin.readline() == "":
            raise EOFError

    for rec in recs:
        try:
            replay_record(rec, tables=not args.quiet, pause=pause if args.step else None)
        except EOFError:
            echo("replay stopped")
    return recs


def register(sub):
    p = sub.add_parser("play", help="play a game in the terminal against agents")
    add_table_args(p, "the deal")
    p.add_argument("--record", help="append the game to this JSON-lines file (replayable)")
    p.set_defaults(func=cmd_play)
    r = sub.add_parser("replay", help="step through a recorded game (games.jsonl or a play record)")
    r.add_argument("file")
    r.add_argument("--game-index", type=int, help="the game's index field (tournaments) or position in the file")
    r.add_argument("--step", action="store_true", help="wait for Enter after each decision")
    r.add_argument("--quiet", action="store_true", help="decisions only, no tables")
    r.add_argument("--html", action="store_true", help="write a self-contained web page of the game instead (pictures, "
                   "step buttons, slider, each seat's view, scores over time)")
    r.add_argument("-o", "--out", help="the page's file (with --html; default replay.html)")
    r.set_defaults(func=cmd_replay)
