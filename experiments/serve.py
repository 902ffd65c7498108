"""`virus-arena serve`: play a game in the browser against any agents, on this machine only (127.0.0.1).

    virus-arena serve --game virus_co_v0 --players 4 --opponents heuristic random   # then open http://127.0.0.1:8000

The page shows the table as your seat sees it (`State.picture(seat)`: nothing hidden from you), the legal
actions as buttons (with a filter when there are many), the moves of the others in words and the scores.
The agents are built by `agents.make`, so every agent spec works (heuristic, random, ppo:<zip>, ...).
Every game, finished or abandoned for a new one, is appended to a JSON-lines file in the format of
`play --record` and a tournament's games.jsonl (`virus-arena replay FILE --html` shows it again).

A Flask app (the optional extra `[web]`); the game lives in the server process, one table at a time.
"""
from __future__ import annotations

import os
import secrets
import threading

from .play import _append, _record, add_table_args, in_words, seat_specs


class Table:
    """One game of a person (at `seat`) against agents; every method holds the lock."""

    def __init__(self, env_id, players, seat, opponents, config, record, seed=None):
        import virus_envs
        from virus_envs import agents as agents_mod

        self.game = virus_envs.game(env_id, num_players=players, **config)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"--seat must be 0..{n - 1}")
        self.env_id, self.seat, self.record = env_id, seat, record
        self.specs = seat_specs(n, seat, opponents)
        for p in range(n):        # a bad spec fails now, with the agents module's message
            if p != seat:
                agents_mod.make(self.specs[p], self.game)
        self.lock = threading.Lock()
        self.new(seed)

    def new(self, seed=None):
        from virus_envs import agents as agents_mod

        if getattr(self, "actions", None) and not self.state.is_terminal():
            self._save(complete=False)
        self.seed = secrets.randbelow(2**31) if seed is None else int(seed)
        n = self.game.num_players
        self.bots = {p: agents_mod.make(self.specs[p], self.game, seed=self.seed * 31 + p)
                     for p in range(n) if p != self.seat}
        self.state = self.game.new_initial_state(seed=self.seed)
        self.actions, self.log, self.saved = [], [], False
        self._run_bots()

    def _apply(self, a):
        s = self.state
        p = s.current_player()
        self.log.append(f"player_{p} ({self.specs[p]}): {in_words(s, a)}")
        s.apply_action(a)
        self.actions.append(int(a))

    def _run_bots(self):
        from virus_envs.agents.base import decision_for

        s = self.state
        while not s.is_terminal() and s.current_player() != self.seat:
            bot = self.bots[s.current_player()]
            self._apply(bot.act(decision_for(s, with_handle=bot.needs_handle)))
        if s.is_terminal() and not self.saved:
            self._save(complete=True)

    def _save(self, complete):
        self.saved = True
        if self.record:
            folder = os.path.dirname(os.path.abspath(self.record))
            os.makedirs(folder, exist_ok=True)
            _append(self.record, _record(self.env_id, self.game.num_players, self.game.config, self.seed, self.specs,
                                         self.actions, self.state, complete=complete))

    def act(self, a):
        """The person's action; ValueError with the reason if it is not theirs to take or not legal now."""
        s = self.state
        if s.is_terminal():
            raise ValueError("the game is over: start a new one")
        if s.current_player() != self.seat:
            raise ValueError(f"it is player_{s.current_player()}'s decision, not yours")
        if not (isinstance(a, int) and 0 <= a < self.game.num_actions and s.legal_action_mask()[a]):
            raise ValueError(f"action {a!r} is not legal now ({s.phase()})")
        self._apply(a)
        self._run_bots()

    def snapshot(self) -> dict:
        s = self.state
        over = s.is_terminal()
        yours = not over and s.current_player() == self.seat
        return {
            "env_id": self.env_id, "seed": self.seed, "seat": self.seat, "seats": self.specs,
            "svg": s.picture(self.seat), "over": over, "your_turn": yours,
            "phase": "game over" if over else s.phase(), "to_act": s.current_player(),
            "legal": [{"id": a, "label": in_words(s, a)} for a in s.legal_actions()] if yours else [],
            "scores": [float(x) for x in s.scores()], "returns": [float(x) for x in s.returns()] if over else None,
            "log": self.log[-60:], "decisions": len(self.actions), "record": self.record,
        }


def create_app(table: Table):
    """The Flask app of one table: `/` the page, `/api/state`, `/api/act` (POST {"action": id}), `/api/new`."""
    from flask import Flask, jsonify, request

    app = Flask("virus_arena_serve")

    @app.get("/")
    def index():
        return PAGE.replace("__TITLE__", f"{table.env_id}: you are player_{table.seat}")

    @app.get("/api/state")
    def state():
        with table.lock:
            return jsonify(table.snapshot())

    @app.post("/api/act")
    def act():
        body = request.get_json(silent=True) or {}
        with table.lock:
            try:
                table.act(body.get("action"))
            except ValueError as e:
                return jsonify({"error": str(e)}), 400
            return jsonify(table.snapshot())

    @app.post("/api/new")
    def new():
        body = request.get_json(silent=True) or {}
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            return jsonify({"error": f"seed must be a non-negative integer, got {seed!r}"}), 400
        with table.lock:
            table.new(seed)
            return jsonify(table.snapshot())

    return app


def cmd_serve(args, echo=print):
    from virus_envs.experiments.tournament import _kv

    try:
        import flask  # noqa: F401
    except ImportError:
        raise ValueError("serve needs Flask: pip install 'virus_envs[web]'") from None
    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be 1..65535, got {args.port}")
    table = Table(args.game, args.players, args.seat, args.opponents or [], _kv(args.game_config), args.record,
                  seed=args.seed)
    app = create_app(table)
    echo(f"{args.game}: you are player_{args.seat} against " + ", ".join(
        f"player_{p}={s}" for p, s in enumerate(table.specs) if p != args.seat)
        + f"; games recorded in {args.record}")
    echo(f"open http://127.0.0.1:{args.port}/ in a browser (Ctrl-C stops the server)")
    import logging
    logging.getLogger("werkzeug").setLevel(logging.WARNING)     # no line per request
    app.run(host="127.0.0.1", port=args.port, debug=False, use_reloader=False)


def register(sub):
    p = sub.add_parser("serve", help="play in the browser against agents (a local web app on 127.0.0.1)")
    add_table_args(p, "the first deal")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--record", default=os.path.join("runs", "serve", "games.jsonl"),
                   help="append every game to this JSON-lines file (default runs/serve/games.jsonl)")
    p.set_defaults(func=cmd_serve)


PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__ - virus_envs</title>
<style>
 body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; background: #e9e4d8; color: #222; }
 header { background: #2b2d42; color: #fff; padding: 10px 16px; display: flex; gap: 16px; align-items: center; }
 header h1 { font-size: 18px; margin: 0; }
 header span { color: #adb5bd; font-size: 13px; flex: 1; }
 main { display: flex; flex-wrap: wrap; gap: 16px; padding: 12px 16px; align-items: flex-start; }
 #picture { flex: 3 1 640px; min-width: 0; }
 #picture svg { width: 100%; height: auto; box-shadow: 0 1px 4px #0003; background: #fff; }
 aside { flex: 1 1 320px; max-width: 560px; }
 h2 { font-size: 14px; margin: 8px 0 4px; }
 #status { font-size: 15px; padding: 8px; background: #fffdf6; border: 1px solid #e0d8c6; border-radius: 6px; }
 #status.yours { background: #fff3c4; border-color: #e0a100; font-weight: bold; }
 #actions { display: flex; flex-wrap: wrap; gap: 6px; max-height: 360px; overflow-y: auto; padding: 4px 0; }
 #actions button { font-size: 13px; padding: 6px 10px; border-radius: 6px; border: 1px solid #6a4c93;
                   background: #fff; cursor: pointer; text-align: left; }
 #actions button:hover { background: #efe6ff; }
 #filter { width: 100%; box-sizing: border-box; padding: 5px; font-size: 13px; }
 #log { max-height: 260px; overflow-y: auto; font-size: 12px; background: #fffdf6; border: 1px solid #e0d8c6; padding: 4px; }
 #error { color: #b00020; font-size: 13px; min-height: 16px; }
 header button { font-size: 13px; padding: 5px 10px; border-radius: 6px; border: 0; cursor: pointer; }
</style></head>
<body>
<header><h1>__TITLE__</h1><span id="who"></span><button id="new">new game</button></header>
<main>
 <div id="picture"></div>
 <aside>
  <div id="status"></div>
  <div id="error"></div>
  <h2>your actions</h2>
  <input id="filter" placeholder="filter the actions ..." aria-label="filter">
  <div id="actions"></div>
  <h2>what happened</h2>
  <div id="log"></div>
  <h2>scores</h2><div id="scores"></div>
 </aside>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let S = null;

async function call(path, body) {
  const opts = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(body)};
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) { $("error").textContent = data.error || r.statusText; return; }
  $("error").textContent = "";
  S = data;
  show();
}

function show() {
  $("picture").innerHTML = S.svg;
  $("who").textContent = `seed ${S.seed}: ` + S.seats.map((s, i) => `player_${i}=${s}`).join(", ") +
    ` | ${S.decisions} decisions | recorded in ${S.record || "(nothing)"}`;
  const st = $("status");
  st.className = S.your_turn ? "yours" : "";
  if (S.over) st.textContent = "game over: scores " + S.scores.join(", ") + " (returns " + S.returns.join(", ") + ")";
  else st.textContent = S.your_turn ? `your decision: ${S.phase}` : `waiting for player_${S.to_act}`;
  document.body.dataset.over = S.over ? "1" : "0";
  document.body.dataset.decisions = String(S.decisions);
  renderActions();
  $("log").innerHTML = "";
  for (const line of S.log) { const d = document.createElement("div"); d.textContent = line; $("log").appendChild(d); }
  $("log").scrollTop = $("log").scrollHeight;
  $("scores").textContent = S.scores.map((x, i) => `player_${i}: ${x}`).join("   ");
}

function renderActions() {
  const box = $("actions");
  box.innerHTML = "";
  const f = $("filter").value.toLowerCase();
  for (const a of S.legal) {
    if (f && !a.label.toLowerCase().includes(f)) continue;
    const b = document.createElement("button");
    b.textContent = a.label;
    b.dataset.action = a.id;
    b.className = "act";
    b.onclick = () => call("/api/act", {action: a.id});
    box.appendChild(b);
  }
}

$("filter").oninput = renderActions;
$("new").onclick = () => call("/api/new", {});
call("/api/state");
</script>
</body></html>
"""
