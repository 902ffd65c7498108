"""Virus: the checks of a state dict before it is loaded (`VirusLabGame._validate_dict`).

Every card, Creature miniature, cube, token and tile of the box is in exactly one place (the component files
give the counts); lists have one entry per seat, per table space or per border; counts are never negative and
stay within the rules' ranges (a room holds 7, Explosives 6, resources 30). A failure raises ValueError naming
the field (`core.validate`).
"""
from __future__ import annotations

from collections import Counter

from ..core.validate import check_bool, check_conserved, check_int, check_ints, check_list, fail
from . import boss_players, campaign_checks, clock, creatures as CR, divided, drifting, pvp, scenarios, skills, spy, walls
from .actions import MAX_DISPLAY, MAX_NET
from .flow import (EXIT_CARD, LAST_TURN, MAX_FACE_DOWN, NUM_PHASES, PH_AGREE, PH_BOSS, PH_DRIFT, PH_EVENT, PH_LATE,
                   PH_SCENARIO, PH_SKILL, SCEN_CARD, Q_DAMAGE, Q_FOUR, Q_GAIN, Q_LATE, Q_PLACE_P, Q_REFILL, Q_RESPAWN,
                   Q_TRAP, Q_WOUNDS, RES_CAP, START_CARD)

NK = CR.NK
_SEAT_STEPS = (Q_TRAP, Q_GAIN, Q_REFILL, Q_RESPAWN, Q_FOUR, Q_PLACE_P, Q_LATE)
_NUM_STEPS = 24


def validate_dict(g, d) -> None:
    env, n, comp, geo = g.env_id, g.num_players, g.comp, g.geo
    N, E = geo.ncells, geo.nedges
    nr, ne, nw, nc, nb = (comp.num_rooms, len(comp.event_name), g.num_wound_cards, len(comp.clue_kind),
                          len(comp.boss_name))

    def i(f, lo=None, hi=None):
        return check_int(env, f, d[f], lo, hi)

    def b(f):
        return check_bool(env, f, d[f])

    def ints(f, length=None, lo=None, hi=None):
        return check_ints(env, f, d[f], length, lo, hi)

    def seats(f, lo=0):
        return ints(f, n, lo)

    def nested(f, length, inner, lo=None, hi=None):
        """One list of ints per seat (or slot), each of `inner` entries when given."""
        for k, x in enumerate(check_list(env, f, d[f], length)):
            check_ints(env, f"{f}[{k}]", x, inner, lo, hi)
        return d[f]

    # -- the turn and the decision ----------------------------------------------------------------
    i("turn", 1, LAST_TURN)
    i("lead", 0, n - 1)
    i("cur", 0, n - 1)
    i("ph", 0, NUM_PHASES - 1)
    if d["ph"] == PH_LATE and not g.clock:
        raise fail(env, "ph", "a late-start declaration needs real_time=True")
    if d["ph"] == PH_SKILL and not g.skills:
        raise fail(env, "ph", "a Skill card choice needs skills on")
    if d["ph"] == PH_SCENARIO and not g.scenario:
        raise fail(env, "ph", "the Room Positioning Method needs a scenario on")
    if d["ph"] == PH_BOSS and not g.boss_on:
        raise fail(env, "ph", "a Boss player's action needs boss_players or infected_boss")
    if d["ph"] == PH_DRIFT and not g.drifting:
        raise fail(env, "ph", "a Drifting room choice needs drifting_rooms=True")
    if d["ph"] == PH_AGREE and not g.divided:
        raise fail(env, "ph", "an agreement to a divided combat needs advanced_combat='divided' or 'full'")
    i("ret", 0, 1)
    i("steps", 0)
    for f in ("in_rt", "terminal", "truncated", "won", "final", "exit_open"):
        b(f)
    for k, item in enumerate(check_list(env, "queue", d["queue"])):
        check_ints(env, f"queue[{k}]", item)
        if not item or not 0 <= item[0] < _NUM_STEPS:
            raise fail(env, f"queue[{k}]", f"is not a step of the turn: {item!r}")
        want = 5 if item[0] == Q_DAMAGE else 4 if item[0] == Q_WOUNDS else 2 if item[0] in _SEAT_STEPS else 1
        if len(item) != want or (want > 1 and not 0 <= item[1] < n) or any(x < 0 for x in item[2:]):
            raise fail(env, f"queue[{k}]", f"is not a well-formed step: {item!r}")
    # -- the table -----------------------------------------------------------------------------------
    card = ints("card", N, -1, len(comp.room_colour) - 1)
    playable = set(g.room_cards)
    if any(comp.is_room(c) and c not in playable for c in card):
        raise fail(env, "card", "holds a special room card whose option is off")
    if SCEN_CARD in card and not g.scenario:
        raise fail(env, "card", f"holds the Scenario room ({SCEN_CARD}) without a scenario on")
    ints("rot", N, 0, 3)
    ints("doors", N, 0, 15)
    ints("trapside", N, 0, 1)
    door = ints("door", E, 0, 2)
    barrier = ints("barrier", E, 0, 4)
    breach = ints("breach", E, 0, 1)
    cubes = ints("cubes", N * n, 0, comp.action_cubes)
    ints("explored", N, -1, n - 1)
    ints("searched", N, -1, n - 1)
    ints("sp_uses", N, 0, 3)
    ints("labcells", None, 0, N - 1)
    ints("labvert", N, -1)
    cre = ints("cre", N * NK, 0, CR.CAPACITY)
    ints("flat", N, 0, 1)
    pool = ints("pool", 8, 0)
    bar_pool = ints("bar_pool", 4, 0)
    expl = ints("expl", N, 0, 6)             # "Limit of 6 Explosive tokens in a room"
    ints("expl_by", N, -1, n - 1)
    ints("armed", N, 0, 1)
    ints("slow_red", N, 0)
    i("antidote_cell", -1, N - 1)
    i("antidote_holder", -1, n - 1)
    i("antidote_out", -1, n - 1)
    exits = ints("exit_cells", 2, 0, N - 1)
    nested("act_exit", 2, None, 0, n - 1)
    if card[geo.start_cell] != START_CARD or card.count(START_CARD) != 1:
        raise fail(env, "card", "must hold the Starting Room once, in its place on the table edge")
    if sorted(c for c, x in enumerate(card) if x == EXIT_CARD) != sorted(exits):
        raise fail(env, "card", "must hold the two Exit Control Rooms where exit_cells says")
    for c in range(N):
        if card[c] < 0 and any(cre[c * NK:(c + 1) * NK]):
            raise fail(env, "cre", f"holds Creatures on the unexplored space {c}")
    # -- per seat ------------------------------------------------------------------------------------
    pos = seats("pos", -1)
    for c in pos:
        if c >= N:
            raise fail(env, "pos", f"names a space off the table: {c}")
    for f in ("alive", "exited", "flee_free", "passed", "infected_dead", "retired"):
        for k, x in enumerate(check_list(env, f, d[f], n)):
            check_bool(env, f"{f}[{k}]", x)
    ints("exit_turn", n, 0, LAST_TURN)
    stock = ints("stock", n, 0, comp.action_cubes)
    reserve = ints("reserve", n, 0, comp.action_cubes)
    bullets = ints("bullets", n, 0)
    tok = nested("tok", n, 6, 0)
    t_door = ints("t_door", n, 0)
    t_breach = ints("t_breach", n, 0)
    t_bar = nested("t_bar", n, 4, 0)
    ints("adren", n, 0)
    nested("dodged", n, NK, 0)
    nested("countered", n, None, 0, N - 1)
    ints("combat_cell", n, -1, N - 1)
    ints("res", n, 0, RES_CAP)
    ints("gained", n, 0)
    majors = ints("majors", n, 0)
    exit_order = ints("exit_order", None, 0, n - 1)
    if len(set(exit_order)) != len(exit_order):
        raise fail(env, "exit_order", "names a Hero twice")
    wounds = check_list(env, "wounds", d["wounds"], n)
    for q, ws in enumerate(wounds):
        for k, w in enumerate(check_list(env, f"wounds[{q}]", ws)):
            f = f"wounds[{q}][{k}]"
            if not isinstance(w, list) or len(w) != 3:
                raise fail(env, f, "must be [card, face down, deep]")
            check_int(env, f, w[0], -1, nw - 1)
            check_bool(env, f, w[1])
            check_bool(env, f, w[2])
    disp = check_list(env, "disp", d["disp"], n)
    for q, cards in enumerate(disp):
        if len(check_list(env, f"disp[{q}]", cards)) > MAX_DISPLAY:
            raise fail(env, f"disp[{q}]", f"holds more than {MAX_DISPLAY} cards")
        for k, x in enumerate(cards):
            if not isinstance(x, list) or len(x) != 2:
                raise fail(env, f"disp[{q}][{k}]", "must be [card, face up]")
            check_int(env, f"disp[{q}][{k}]", x[0], 0, len(comp.room_colour) - 1)
            if x[0] not in playable:
                raise fail(env, f"disp[{q}][{k}]", f"{x[0]!r} is no room card of this game")
            check_bool(env, f"disp[{q}][{k}]", x[1])
        if sum(1 for x in cards if not x[1]) > 8:
            raise fail(env, f"disp[{q}]", "has more than 8 face-down cards")
    if d["ph"] == PH_EVENT:
        # "If the Lead player does not like the Event card, he may spend 1 Advantage ... to return it": the Event is
        # a decision only while the Lead has an Advantage (a face-up card, fewer than MAX_FACE_DOWN face down)
        cards = disp[d["lead"]]
        up = sum(1 for x in cards if x[1])
        if d["cur"] != d["lead"] or min(up, MAX_FACE_DOWN - (len(cards) - up)) <= 0:
            raise fail(env, "ph", "an Event decision needs the Lead player to act with an Advantage to spend")
    net = nested("net", n, None, 0, len(comp.room_colour) - 1)
    for q in range(n):
        if len(net[q]) > MAX_NET:
            raise fail(env, f"net[{q}]", f"holds more than {MAX_NET} cards")
    # -- combat and pending decisions ----------------------------------------------------------------
    roll = ints("roll", None, 0)
    if roll and len(roll) != 8:
        raise fail(env, "roll", "must be empty or 8 counts (cubes, bullets, 6 tokens)")
    rollres = ints("rollres", None, 0)
    if rollres and len(rollres) != 16:
        raise fail(env, "rollres", "must be empty or 16 counts")
    i("succ", 0)
    dmg = ints("dmg", None, 0)
    if dmg and (len(dmg) != 4 or dmg[0] >= n):
        raise fail(env, "dmg", "must be empty or [seat, Damage points, penalty, face down]")
    ints("team", None, 0, n - 1)
    i("team_succ", 0)
    i("rt_actor", 0, n - 1)
    for k, item in enumerate(check_list(env, "rt_dmg", d["rt_dmg"])):
        check_ints(env, f"rt_dmg[{k}]", item, 5, 0)
        if item[0] >= n:
            raise fail(env, f"rt_dmg[{k}]", f"names seat {item[0]}")
    trap_card = i("trap_card", -1, len(comp.room_colour) - 1)
    clue_pending = ints("clue_pending", None, 0)
    if clue_pending and (len(clue_pending) < 2 or clue_pending[0] >= n):
        raise fail(env, "clue_pending", "must be empty or [seat, Clues to draw, drawn cards...]")
    i("net_left", 0, 2)
    i("opt_kind", 0, 9 if g.boss_on else 8)     # 9: a Boss player's side (boss_players.ask_side)
    i("pl_kind", -2, NK - 1)
    i("pl_player", -1, n - 1)
    for f in ("sl_pick", "sl_side", "pl_ord", "pl_move"):
        i(f, -1)
    if d["pl_move"] != -1 and d["opt_kind"] != CR.OPT_MOVE_SIDE:
        # set only just before the Lead player's choice of side for a 2B move, and cleared by that choice
        raise fail(env, "pl_move", "names a room while no choice of side for a moving group is pending")
    if d["pl_ord"] != 0 and not d["pl_queue"]:
        # 1 once the colour of the queue's first Creature is chosen; back to 0 with each queued Creature placed
        raise fail(env, "pl_ord", "is set while no Creature is queued for placing")
    for f in ("sl_rem", "sl_moved", "sl_bonus", "sl_done", "sl_enter", "pl_enter", "wpend", "flip", "dsel"):
        ints(f, None, -1)
    for f in ("sl_events", "opts", "pl_queue", "labs_used"):
        check_list(env, f, d[f])
    sm, smoked = ints("smoke", n, 0), ints("smoked", None, 0, N - 1)
    if len(set(smoked)) != len(smoked):
        raise fail(env, "smoked", "names a room twice")
    if i("smoke_pool", 0) + sum(sm) + len(smoked) != (comp.smoke_bombs if g.smoke else 0):
        raise fail(env, "smoke_pool", "reserve + stocks + rooms is not the box's Smoke bombs")
    rs, rr_ = ints("resol", n, 0), ints("resol_roll", 3, 0)
    if i("resol_pool", 0) + sum(rs) + rr_[0] != (comp.resolution_tokens if g.resolution else 0) \
            or rr_[1] > rr_[0] or rr_[2] > rr_[1]:
        raise fail(env, "resol_pool", "reserve + stocks + roll is not the box's Resolution tokens")
    shot = ints("ranged", None, 0)
    if shot and (not g.ranged or len(shot) != 2 or shot[0] >= N or not int(not g.divided) <= shot[1] <= g.ranged_dmax):
        raise fail(env, "ranged", "must be empty, or [target room, distance] of a ranged attack "
                                  "(advanced_combat='ranged')")
    # -- the decks and what is known of them ---------------------------------------------------------
    room_deck = ints("room_deck", None, 0, len(comp.room_colour) - 1)
    room_discard = ints("room_discard", None, 0, len(comp.room_colour) - 1)
    room_out = ints("room_out", None, 0, len(comp.room_colour) - 1)
    i("room_known", 0, len(room_deck))
    event_deck = ints("event_deck", None, 0, ne - 1)
    event_pile = ints("event_pile", None, 0, ne - 1)
    event = i("event", -1, ne - 1)
    event_known = ints("event_known", None, 0, n - 1)
    if len(event_known) > len(event_deck):
        raise fail(env, "event_known", "describes more cards than the Event deck holds")
    wound_deck = ints("wound_deck", None, 0, nw - 1)
    wound_discard = ints("wound_discard", None, 0, nw - 1)
    wound_known = ints("wound_known", None, 0, 1)
    if len(wound_known) > len(wound_deck):
        raise fail(env, "wound_known", "describes more cards than the Wound deck holds")
    clue_deck = ints("clue_deck", None, 0, nc - 1)
    clues = ints("clues", None, 0, nc - 1)
    # "All incompatible Clue cards on the table must be immediately discarded": no two stay there together
    for k, a in enumerate(clues):
        for b in clues[k + 1:]:
            if g.incompatible[a][b]:
                raise fail(env, "clues", f"holds Clue cards {a} and {b}, which are incompatible (both discarded)")
    if len(clue_pending) > 3:
        raise fail(env, "clue_pending", "holds more than the one Clue card being drawn")
    i("clue_known", 0, len(clue_deck))
    boss_deck = ints("boss_deck", None, 0, nb - 1)
    bosses = check_list(env, "bosses", d["bosses"])
    for k, rec in enumerate(bosses):
        check_ints(env, f"bosses[{k}]", rec, 3)
        check_int(env, f"bosses[{k}]", rec[0], 0, N - 1)
        check_int(env, f"bosses[{k}]", rec[1], 4, 7)
        check_int(env, f"bosses[{k}]", rec[2], 0, nb - 1)
    seen = ints("boss_seen", None, 0, max(0, len(bosses) - 1))
    if len(set(seen)) != len(seen) or (seen and not bosses):
        raise fail(env, "boss_seen", "must name each Boss on the map at most once")
    gone = nested("boss_gone", None, 2, 0)
    for k, x in enumerate(gone):
        check_int(env, f"boss_gone[{k}]", x[0], 0, nb - 1)
        check_int(env, f"boss_gone[{k}]", x[1], 0, 1)
    # -- conservation -------------------------------------------------------------------------------
    check_conserved(env, "room card", {
        "card": [c for c in card if comp.is_room(c)], "room_deck": room_deck, "room_discard": room_discard,
        "room_out": room_out, "disp": [x[0] for cards in disp for x in cards], "net": [c for cs in net for c in cs],
        "trap_card": [trap_card] if trap_card >= 0 else []}, Counter(g.room_cards))
    drawn = [event] if event >= 0 and event not in event_pile else []
    check_conserved(env, "event card", {"event_deck": event_deck, "event_pile": event_pile, "event": drawn,
                                        "sc_cards": d["sc_cards"] if g.scenario else []},
                    Counter(range(ne)))
    check_conserved(env, "wound card", {"wound_deck": wound_deck, "wound_discard": wound_discard,
                                        "wounds": [w[0] for ws in wounds for w in ws if w[0] >= 0]},
                    Counter(range(nw)))
    if g.spy:
        spy.validate(g, d)
    check_conserved(env, "clue card", {"clue_deck": clue_deck, "clues": clues, "clue_pending": clue_pending[2:],
                                       **({"spy_hand": spy.held_cards(d)} if g.spy else {})}, Counter(range(nc)))
    if g.boss_on:
        boss_players.validate(g, d)
    check_conserved(env, "Boss card", {"boss_deck": boss_deck, "bosses": [rec[2] for rec in bosses],
                                       "boss_gone": [x[0] for x in gone], **boss_players.card_places(g, d)},
                    Counter(range(nb)))
    for k in range(NK):
        on = sum(cre[c * NK + k] for c in range(N))
        if k == CR.BOSS:
            for c in range(N):
                if cre[c * NK + k] != sum(1 for rec in bosses if rec[0] == c):
                    raise fail(env, "cre", f"holds {cre[c * NK + k]} Bosses in room {c}, bosses says otherwise")
        elif pool[k] + on + sum(1 for rec in bosses if rec[1] == k) + boss_players.boxed(g, d, k) != comp.cre_count[k]:
            raise fail(env, "pool", f"Creature kind {k}: reserve + map + Bosses is not the {comp.cre_count[k]} "
                                    "miniatures of the box")
    for c in range(N):
        occ = sum(cre[c * NK + k] * CR.SIZE[k] for k in range(NK)) + sum(1 for x in pos if x == c)
        if occ > CR.CAPACITY:
            raise fail(env, "cre", f"puts {occ} into room {c}: rooms have a maximum capacity of 7")
    r = roll or [0] * 8
    ints("tok_pool", 6, 0)
    for t in range(6):
        tot = d["tok_pool"][t] + sum(tok[q][t] for q in range(n)) + r[2 + t] + (sum(expl) if t == 5 else 0)
        if tot != comp.tokens[t]:
            raise fail(env, "tok_pool", f"token kind {t}: reserve + stocks + roll + rooms make {tot}, the box has "
                                        f"{comp.tokens[t]}")
    if i("bullet_pool", 0) + sum(bullets) + r[1] != comp.bullets:
        raise fail(env, "bullet_pool", f"reserve + stocks + roll is not the {comp.bullets} Bullet cubes of the box")
    for q in range(n):
        tot = stock[q] + reserve[q] + sum(cubes[c * n + q] for c in range(N)) + (r[0] if q == d["cur"] else 0)
        if g.skills:                        # Action cubes placed on Skill cards in the auction
            tot += sum(b[1] for b in d["sk_bids"] if isinstance(b, list) and b and b[0] == q)
        if tot != comp.action_cubes:
            raise fail(env, "stock", f"seat {q}: stock + reserve + rooms + roll make {tot} Action cubes, a colour "
                                     f"has {comp.action_cubes}")
    if i("door_pool", 0) + sum(t_door) + sum(1 for x in door if x) != comp.doors_supply:
        raise fail(env, "door_pool", f"reserve + stocks + map is not the {comp.doors_supply} Door tiles")
    if i("breach_pool", 0) + sum(t_breach) + sum(breach) != comp.breach_supply:
        raise fail(env, "breach_pool", f"reserve + stocks + map is not the {comp.breach_supply} Breach tiles")
    if g.walls:
        walls.check(env, g.num_heroes, bar_pool, t_bar, barrier, fail)     # "for each Hero in the game"
    for k in range(0 if g.walls else 4):
        if bar_pool[k] + sum(t_bar[q][k] for q in range(n)) + sum(1 for x in barrier if x > k) \
                != comp.barrier_supply[k]:
            raise fail(env, "bar_pool", f"Barrier tiles with {k} bars: reserve + stocks + map is not "
                                        f"{comp.barrier_supply[k]}")
    if sum((m + 1) // 2 for m in majors) > comp.major_cards:
        raise fail(env, "majors", f"needs more than the {comp.major_cards} Major Advantage cards")
    # -- the advanced elements switched on --------------------------------------------------------------
    if g.clock:
        clock.validate(g, d)
    if g.skills:
        skills.validate(g, d)
    if g.campaign:
        campaign_checks.validate_game(g, d)
    if g.pvp:
        pvp.validate(g, d)
    if g.scenario:
        scenarios.validate(g, d)
    if g.divided:
        divided.validate(g, d)
    if g.drifting:
        drifting.validate(g, d)
