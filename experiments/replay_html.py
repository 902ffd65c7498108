"""`virus-arena replay FILE.jsonl --html -o replay.html`: a recorded game as one self-contained web page.

The page needs no server and no network: every picture is inline. It steps through the game with
buttons, a slider and the arrow keys, says each decision in words, switches between the full table
and any seat's view (`State.picture(p)`: only what that seat may see), and plots the scores over time.

The pictures (one per step and view, SVG) are stored gzip-compressed in the page and unpacked by the
browser's own DecompressionStream: consecutive pictures differ little, so a long game stays a few MB.
"""
from __future__ import annotations

import base64
import gzip
import html
import json

from .play import replay_states


def frames(rec: dict, seats: bool = True) -> dict:
    """Every position of a recorded game: pictures (full table and each seat), the decision that led to it,
    the scores. Raises ValueError if the record does not replay on this engine."""
    steps, svgs, index = [], [], {}

    def put(svg: str) -> int:
        k = index.get(svg)
        if k is None:
            k = index[svg] = len(svgs)
            svgs.append(svg)
        return k

    game = None
    seat_names = None
    for s, move in replay_states(rec):
        game = s.game
        n = game.num_players
        seat_names = rec.get("seats") or ["?"] * n
        step = {"full": put(s.picture()), "seats": [put(s.picture(p)) for p in range(n)] if seats else [],
                "scores": [float(x) for x in s.scores()], "phase": "game over" if s.is_terminal() else s.phase(),
                "to_act": s.current_player()}
        if move is not None:
            k, p, text = move
            step["move"] = f"player_{p} ({seat_names[p]}): {text}"
            step["actor"] = p
        steps.append(step)
    final = steps[-1]
    return {"env_id": rec["env_id"], "num_players": game.num_players, "seed": rec["seed"], "seats": seat_names,
            "config": rec.get("config", {}), "index": rec.get("index"), "cooperative": bool(game.cooperative),
            "returns": rec.get("returns"), "complete": rec.get("complete", True), "final_scores": final["scores"],
            "svgs": svgs, "steps": steps}


def page(data: dict) -> str:
    """The HTML text of a replay page."""
    svgs = data.pop("svgs")
    packed = base64.b64encode(gzip.compress(json.dumps(svgs).encode(), 9, mtime=0)).decode()
    title = f"{data['env_id']} seed {data['seed']}" + (f" game {data['index']}" if data.get("index") is not None else "")
    return (TEMPLATE.replace("__TITLE__", html.escape(title))
            .replace("__DATA__", json.dumps(data).replace("</", "<\\/"))
            .replace("__SVGS__", packed))


def write_html(rec: dict, path: str, seats: bool = True) -> dict:
    """Write the replay page of one record to `path`; returns the frames' summary (steps, pictures, bytes)."""
    data = frames(rec, seats=seats)
    n_steps, n_svgs = len(data["steps"]), len(data["svgs"])
    text = page(data)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return {"steps": n_steps, "pictures": n_svgs, "bytes": len(text.encode())}


TEMPLATE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__ - virus_envs replay</title>
<style>
 body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; background: #e9e4d8; color: #222; }
 header { background: #2b2d42; color: #fff; padding: 10px 16px; }
 header h1 { font-size: 18px; margin: 0; display: inline; }
 header span { color: #adb5bd; margin-left: 12px; font-size: 13px; }
 #bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 10px 16px; background: #f7f3ea;
        border-bottom: 1px solid #d6cfbf; position: sticky; top: 0; z-index: 2; }
 button { font-size: 14px; padding: 5px 10px; border-radius: 6px; border: 1px solid #8d8674; background: #fff; cursor: pointer; }
 button:hover { background: #fff3c4; }
 #slider { flex: 1; min-width: 200px; }
 #stepno { font-variant-numeric: tabular-nums; min-width: 110px; }
 #move { padding: 8px 16px; font-size: 15px; background: #fffdf6; border-bottom: 1px solid #e0d8c6; min-height: 20px; }
 #move b { color: #6a4c93; }
 main { display: flex; flex-wrap: wrap; gap: 16px; padding: 12px 16px; align-items: flex-start; }
 #picture { flex: 3 1 640px; min-width: 0; }
 #picture svg { width: 100%; height: auto; box-shadow: 0 1px 4px #0003; background: #fff; }
 aside { flex: 1 1 300px; max-width: 520px; }
 aside h2 { font-size: 14px; margin: 4px 0; }
 #log { max-height: 320px; overflow-y: auto; font-size: 12px; background: #fffdf6; border: 1px solid #e0d8c6; padding: 4px; }
 #log div { padding: 1px 4px; cursor: pointer; } #log div.now { background: #ffe08a; }
 #loading { padding: 20px; font-size: 16px; }
</style></head>
<body>
<header><h1>__TITLE__</h1><span id="info"></span></header>
<div id="bar">
 <button id="first" title="first position (Home)">|&#x25C0; first</button>
 <button id="back" title="back one decision (left arrow)">&#x25C0; back</button>
 <button id="fwd" title="forward one decision (right arrow)">forward &#x25B6;</button>
 <button id="last" title="last position (End)">last &#x25B6;|</button>
 <button id="play" title="play / pause (space)">play</button>
 <input id="slider" type="range" min="0" value="0" aria-label="decision">
 <span id="stepno"></span>
 <label>view <select id="view"></select></label>
</div>
<div id="move"></div>
<main>
 <div id="picture"><div id="loading">unpacking the pictures ...</div></div>
 <aside>
  <h2>scores over time</h2><div id="chart"></div>
  <h2>decisions</h2><div id="log"></div>
 </aside>
</main>
<script id="data" type="application/json">__DATA__</script>
<script id="svgs" type="application/octet-stream">__SVGS__</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const COLOURS = ["#d1495b", "#2e86ab", "#3c9d4e", "#e0a100", "#7b4fa3", "#e07a1f"];
let SVGS = null, step = 0, timer = null;
const $ = (id) => document.getElementById(id);

async function unpack() {
  const b64 = $("svgs").textContent.trim();
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function setup() {
  const n = D.num_players;
  $("info").textContent = `${n} players: ` + D.seats.map((s, i) => `player_${i}=${s}`).join(", ") +
    ` | ${D.steps.length - 1} decisions` + (D.complete ? "" : " (abandoned)");
  const view = $("view");
  view.add(new Option("full table", "full"));
  if (D.steps[0].seats.length)
    for (let p = 0; p < n; p++) view.add(new Option(`player_${p} (${D.seats[p]}) sees`, String(p)));
  view.onchange = show;
  const slider = $("slider");
  slider.max = D.steps.length - 1;
  slider.oninput = () => go(+slider.value);
  $("first").onclick = () => go(0);
  $("last").onclick = () => go(D.steps.length - 1);
  $("back").onclick = () => go(step - 1);
  $("fwd").onclick = () => go(step + 1);
  $("play").onclick = toggle;
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(D.steps.length - 1);
    else if (e.key === " ") { e.preventDefault(); toggle(); }
  });
  const log = $("log");
  D.steps.forEach((s, k) => {
    if (!s.move) return;
    const div = document.createElement("div");
    div.id = "log" + k;
    div.textContent = `${k}. ${s.move}`;
    div.onclick = () => go(k);
    log.appendChild(div);
  });
}

function toggle() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
  $("play").textContent = "pause";
  timer = setInterval(() => { if (step >= D.steps.length - 1) toggle(); else go(step + 1); }, 600);
}

function go(k) {
  step = Math.max(0, Math.min(D.steps.length - 1, k));
  show();
}

function show() {
  const s = D.steps[step];
  const v = $("view").value;
  if (SVGS) $("picture").innerHTML = SVGS[v === "full" ? s.full : s.seats[+v]];
  $("slider").value = step;
  $("stepno").textContent = `decision ${step} / ${D.steps.length - 1}`;
  const last = step === D.steps.length - 1;
  let text = step === 0 ? "the deal: nothing played yet" : s.move;
  if (last && s.phase === "game over") text += "  -  game over, scores " + s.scores.join(", ");
  $("move").innerHTML = "";
  const b = document.createElement("b");
  b.textContent = step === 0 ? "start" : `decision ${step}`;
  $("move").append(b, " " + text + (last ? "" : `  (next: player_${s.to_act} - ${s.phase})`));
  document.querySelectorAll("#log div.now").forEach((d) => d.classList.remove("now"));
  const row = $("log" + step);
  if (row) { row.classList.add("now"); row.scrollIntoView({block: "nearest"}); }
  chart();
}

function chart() {
  const W = 480, H = 180, L = 34, B = 22;
  const steps = D.steps, n = D.num_players;
  let lo = Infinity, hi = -Infinity;
  for (const s of steps) for (const x of s.scores) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
  if (lo === hi) { lo -= 1; hi += 1; }
  const X = (k) => L + (W - L - 8) * k / Math.max(1, steps.length - 1);
  const Y = (v) => 8 + (H - B - 8) * (hi - v) / (hi - lo);
  let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" style="background:#fffdf6">`;
  out += `<line x1="${L}" y1="${Y(lo)}" x2="${W - 8}" y2="${Y(lo)}" stroke="#999"/>`;
  for (const v of [lo, hi, 0]) if (v >= lo && v <= hi)
    out += `<text x="${L - 4}" y="${Y(v) + 4}" font-size="10" text-anchor="end">${+v.toFixed(1)}</text>` +
           `<line x1="${L}" y1="${Y(v)}" x2="${W - 8}" y2="${Y(v)}" stroke="#ddd"/>`;
  for (let p = 0; p < n; p++) {
    const pts = steps.map((s, k) => `${X(k).toFixed(1)},${Y(s.scores[p]).toFixed(1)}`).join(" ");
    out += `<polyline points="${pts}" fill="none" stroke="${COLOURS[p % 6]}" stroke-width="2"/>`;
    out += `<text x="${L + 4 + p * 70}" y="${H - 5}" font-size="11" fill="${COLOURS[p % 6]}">player_${p} ${steps[step].scores[p]}</text>`;
  }
  out += `<line x1="${X(step)}" y1="4" x2="${X(step)}" y2="${H - B}" stroke="#6a4c93" stroke-dasharray="3 2"/>`;
  $("chart").innerHTML = out + "</svg>";
}

setup();
show();
unpack().then((s) => { SVGS = s; show(); document.body.dataset.ready = "1"; })
  .catch((e) => { $("picture").textContent = "this browser cannot unpack the pictures: " + e; });
</script>
</body></html>
"""
