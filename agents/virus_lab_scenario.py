"""The heuristic team's Scenario goals for Virus (`scenario=...`, virus_envs/virus_lab/scenarios.py), read from the
view's `scenario` part: the Room Positioning Method's count goes where the room lands nearest the Starting Room;
Reboot: a Hero holding a Book and an Explosive token goes and deactivates the Computer Room (Books and Explosives
are bought while it is on); Save the Child: the Hero nearest the Child fetches him, and the Hero he follows leaves
by the exit once it is open; The Captive: the Captive leaves by the exit once it is open."""
from __future__ import annotations

from virus_envs.virus_lab import positioning as POS
from virus_envs.virus_lab.actions import A, ITEMS
from virus_envs.virus_lab.components import TK_BOOK, TK_EXPL

BUY_BOOK, BUY_EXPL = A.BUY + ITEMS.index("book"), A.BUY + ITEMS.index("explosive")


def _manhattan(geo, a, b):
    return POS.manhattan(geo, a, b)


def count_choice(agent, v, m):
    """The Lead player's count: the open direction whose space lies nearest the Starting Room; the Child's next
    space (`auto_child=False`): the engine's documented default, listed first."""
    geo = agent.geo
    pm = v["scenario"]["positioning"]
    cm = v["scenario"]["child_move"]
    if pm is None and cm is not None and cm["sides"]:
        return A.OPTION + "NESW".index(cm["sides"][0])      # the Child's next space: the documented default
    opts = [d for d in range(3) if m[A.OPTION + d]]
    if pm is None or not opts:
        return None
    return A.OPTION + min(opts, key=lambda d: (_manhattan(geo, POS.count_spaces(geo, pm["from"], d, pm["spaces"]),
                                                          geo.start_cell), d))


def target(agent, v, p):
    """(space, action) of the scenario's goal for Hero p now, or None (the base plan goes on)."""
    sc = v.get("scenario")
    if sc is None:
        return None
    geo = agent.geo
    me = v["heroes"][p]
    st = geo.start_cell
    if sc["scenario"] == "reboot":
        room = sc["room"]
        if room >= 0 and not sc["computer_room_deactivated"] and me["tokens"][TK_BOOK] and me["tokens"][TK_EXPL]:
            return room, A.ACTIVATE
    elif sc["scenario"] == "save_the_child":
        ch = sc["child"]
        if ch["state"] != "in the lab":
            return None
        if ch["follows"] == p:
            return (st, A.EXIT) if v["exit_open"] else None
        if ch["follows"] < 0 and ch["cell"] >= 0:
            on = [h["seat"] for h in v["heroes"] if h["pos"] >= 0 and h["seat"] != v["antidote_holder"]]
            if on and p == min(on, key=lambda q: (_manhattan(geo, v["heroes"][q]["pos"], ch["cell"]), q)):
                return ch["cell"], -1
    elif sc["scenario"] == "captive":
        if sc["captive"] == p and v["exit_open"] and v["antidote_holder"] != p:
            return st, A.EXIT
    return None


def _computer_room_on(v):
    sc = v.get("scenario")
    return sc is not None and sc["scenario"] == "reboot" and not sc["computer_room_deactivated"]


def keep_token(v, p, t):
    """Reboot: the last Book stays out of combat rolls while the Computer Room is on (it pays the deactivation)."""
    return t == TK_BOOK and _computer_room_on(v) and v["heroes"][p]["tokens"][t] <= 1


def pursue(agent, v, p, m):
    """The Real Time action towards the scenario's goal (its action where it is, else a step towards it), or None."""
    goal = target(agent, v, p)
    if goal is None:
        return None
    cell, todo = goal
    if cell == v["heroes"][p]["pos"]:
        return todo if todo >= 0 and m[todo] else None
    return agent._toward(v, p, m, cell)


def buy(v, p, m):
    """Reboot: a Book and an Explosive token in every stock while the Computer Room is on."""
    if not _computer_room_on(v):
        return None
    tok = v["heroes"][p]["tokens"]
    for a, t in ((BUY_BOOK, TK_BOOK), (BUY_EXPL, TK_EXPL)):
        if not tok[t] and m[a]:
            return a
    return None
