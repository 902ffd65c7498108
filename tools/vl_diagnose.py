"""Where a board-game team's games end (virus_lab_v0) and which of the rulebook's team requirements it meets, per
deal: how the game ended, how far the team got, the lab cards that met at one grid point, the Research Lab formed,
the Exit Control Rooms' activations, deaths.

    python tools/vl_diagnose.py --agent heuristic --heroes 2 --difficulty 1 --deals 100 --seed 9101 \
        --out /tmp/diag.json

Deal k is game seed `deal_seed(seed, k)` of the virus-lab study (experiments/studies/virus_lab.py), played as the
study plays it (`one_deal`'s agent seeds). The requirements, as the engine checks them: a Research Lab needs the
lab symbols of 4-4-3-2 lab cards (4-3-2-1 living Heroes) at one grid point (`labs._check_lab`,
`research.LAB_NEEDED`); the Exit Control Rooms open when activated by living Heroes 1+1 (2-3 Heroes) or 1+2
(4 Heroes) within one Real Time phase (`labs._check_exit_open`).
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path


def end_reason(st) -> str:
    """Why the game ended, in the rulebook's terms."""
    from virus_envs.virus_lab.flow import LAST_TURN

    if st.is_truncated():
        return "truncated"
    if st.won:
        return "won"
    if st.antidote_out >= 0:
        return "exited, carrier dead"
    if not any(st.active(p) for p in range(st.n)):
        return "no Hero left on the map"
    if not st.room_deck:
        return "Room deck ran out"
    if not st.event_deck:
        return "Event deck ran out"
    if st.turn >= LAST_TURN:
        return "turn limit"
    return "other"


def exits_reached(st) -> int:
    """How many Exit Control Rooms a Hero can walk to from the Starting Room (through any room)."""
    from virus_envs.agents.virus_lab_plan import Table

    dist, _ = Table(st.g, st.view(0)).paths(st.g.geo.start_cell, avoid=False)
    return sum(1 for c in st.exit_cells if c in dist)


def diagnose_deal(spec: str, heroes: int, difficulty: int, seed: int, k: int) -> dict:
    import virus_envs
    from virus_envs import agents
    from virus_envs.experiments.arena import play_from
    from virus_envs.experiments.studies.virus_lab import GAME, deal_seed

    game = virus_envs.game(GAME, heroes, difficulty=difficulty)
    s = deal_seed(seed, k)
    state = game.new_initial_state(seed=s)
    line = [agents.make(spec, game) for _ in range(game.num_players)]
    for i, ag in enumerate(line):
        ag.reset(seed=(s * 7919 + i) % (2**63))
    rec = {"deal": k, "far": 0, "max_at_point": 0, "lab_cards": 0, "lab_turn": -1, "lab_living": -1,
           "antidote_turn": -1, "held_turn": -1, "exit_open_turn": -1, "deaths": 0, "half_phases": 0,
           "held_half_phases": 0, "min_living": heroes, "clues": 0}
    was_alive = [True] * heroes
    last_rt = [None]

    def probe(st):
        if st.antidote_holder >= 0 or st.antidote_out >= 0:
            rec["far"] = max(rec["far"], 2)
            if rec["held_turn"] < 0:
                rec["held_turn"] = st.turn
                rec["exits_reached_when_held"] = exits_reached(st)
        elif st.antidote_cell >= 0:
            rec["far"] = max(rec["far"], 1)
        if st.antidote_cell >= 0 and rec["antidote_turn"] < 0:
            rec["antidote_turn"] = st.turn
        cnt = collections.Counter(st.labvert[c] for c in st.labcells)
        rec["max_at_point"] = max(rec["max_at_point"], max(cnt.values(), default=0))
        rec["lab_cards"] = max(rec["lab_cards"], len(st.labcells))
        if st.labs_used and rec["lab_turn"] < 0:
            rec["lab_turn"], rec["lab_living"] = st.turn, st.living_heroes()
            colours = {st.g.comp.room_colour[st.card[c]] for c in st.labcells if st.labvert[c] == st.labs_used[0][0]}
            rec["lab_same_colour"] = len(colours) == 1
        rec["labs"] = max(rec.get("labs", 0), len(st.labs_used))
        rec["clues"] = max(rec["clues"], len(st.clues))
        if st.exit_open and rec["exit_open_turn"] < 0:
            rec["exit_open_turn"] = st.turn
        for p in range(st.n):
            if was_alive[p] and not st.alive[p] and not st.exited[p]:
                rec["deaths"] += 1
            was_alive[p] = bool(st.alive[p])
        rec["min_living"] = min(rec["min_living"], st.living_heroes() + sum(1 for p in range(st.n) if st.exited[p]))
        # one Exit Control Room activated in a Real Time phase that ended with the exit still closed
        key = (st.turn, tuple(map(tuple, st.act_exit)), st.exit_open)
        if last_rt[0] is not None and last_rt[0][0] != st.turn:
            _, acts, opened = last_rt[0]
            if any(acts) and not opened:
                rec["half_phases"] += 1
                if rec["held_turn"] >= 0:
                    rec["held_half_phases"] += 1
        last_rt[0] = key

    end = play_from(state, line, before_each=probe)[0]
    rec["exits_reached_at_end"] = exits_reached(end)
    rec["deaths"] += sum(1 for p in range(end.n) if was_alive[p] and not end.alive[p] and not end.exited[p])
    if last_rt[0] is not None and any(last_rt[0][1]) and not end.exit_open:
        rec["half_phases"] += 1
        rec["held_half_phases"] += rec["held_turn"] >= 0
    rec["win"] = int(bool(end.is_terminal() and not end.is_truncated() and end.won))
    rec["progress"] = 3 if rec["win"] else rec["far"]
    rec["end"] = end_reason(end)
    rec["end_turn"] = end.turn
    return rec


def summarise(rows: list) -> dict:
    n = len(rows)

    def count(f):
        return sum(1 for r in rows if f(r))

    return {
        "deals": n, "wins": count(lambda r: r["win"]),
        "progress": dict(sorted(collections.Counter(r["progress"] for r in rows).items())),
        "end": dict(collections.Counter(r["end"] for r in rows).most_common()),
        "end_by_progress": {str(p): dict(collections.Counter(r["end"] for r in rows if r["progress"] == p))
                            for p in range(4)},
        "max_lab_cards_at_one_point": dict(sorted(collections.Counter(r["max_at_point"] for r in rows).items())),
        "lab_cards_on_map_mean": round(sum(r["lab_cards"] for r in rows) / n, 2),
        "research_lab_formed": count(lambda r: r["lab_turn"] >= 0),
        "research_lab_formed_with_living": dict(collections.Counter(r["lab_living"] for r in rows
                                                                    if r["lab_turn"] >= 0)),
        "research_lab_same_colour": count(lambda r: r.get("lab_same_colour", False)),
        "two_or_more_labs": count(lambda r: r.get("labs", 0) >= 2),
        "lab_formed_clues_on_table_max": dict(sorted(collections.Counter(r["clues"] for r in rows
                                                                         if r["lab_turn"] >= 0).items())),
        "lab_formed_antidote_never_placed": count(lambda r: r["lab_turn"] >= 0 and r["antidote_turn"] < 0),
        "antidote_placed": count(lambda r: r["antidote_turn"] >= 0),
        "antidote_held": count(lambda r: r["held_turn"] >= 0),
        "exit_opened": count(lambda r: r["exit_open_turn"] >= 0),
        "held_but_exit_never_opened": count(lambda r: r["held_turn"] >= 0 and r["exit_open_turn"] < 0),
        "held_and_exit_opened_not_won": count(lambda r: r["held_turn"] >= 0 and r["exit_open_turn"] >= 0
                                              and not r["win"]),
        "deals_with_a_half_activation": count(lambda r: r["half_phases"] > 0),
        "held_half_activation_exit_never_opened": count(lambda r: r["held_half_phases"] > 0
                                                         and r["exit_open_turn"] < 0),
        "held_exits_reached_when_held": dict(collections.Counter(r["exits_reached_when_held"] for r in rows
                                                                 if r["held_turn"] >= 0)),
        "held_never_opened_exits_reached_at_end": dict(collections.Counter(
            r["exits_reached_at_end"] for r in rows if r["held_turn"] >= 0 and r["exit_open_turn"] < 0)),
        "exits_reached_at_end": dict(collections.Counter(r["exits_reached_at_end"] for r in rows)),
        "deals_with_a_death": count(lambda r: r["deaths"] > 0),
        "deaths_mean": round(sum(r["deaths"] for r in rows) / n, 2),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="heuristic")
    ap.add_argument("--heroes", type=int, default=2)
    ap.add_argument("--difficulty", type=int, default=1)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", default="")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    rows = [diagnose_deal(args.agent, args.heroes, args.difficulty, args.seed, k) for k in range(args.deals)]
    out = {"agent": args.agent, "heroes": args.heroes, "difficulty": args.difficulty, "seed": args.seed,
           "summary": summarise(rows), "cpu_seconds": round(time.process_time() - t0, 1), "deals": rows}
    print(json.dumps({k: out[k] for k in ("agent", "heroes", "difficulty", "seed", "summary", "cpu_seconds")},
                     indent=1))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
