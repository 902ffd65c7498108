"""Virus, Scenarios (config `scenario`: "none" by default, "reboot", "save_the_child", "captive").

Each Scenario places the Scenario room (a grey card, `SCEN_CARD`, not in the Room deck: "This is a special card,
not used in normal play") and adds a goal to "the normal game victory conditions":
- REBOOT: "When players open the entrance door, use the "Room Positioning Method" above to place the Scenario
  room. This room is the Computer Room. Scenario Goal: Deactivate the Computer Room and achieve the normal game
  victory conditions. ... To deactivate the Computer Room, 1 or more players must reach the Room and
  simultaneously pay 1 Action cube, 1 Book and 1 Explosive token."
- SAVE THE CHILD (child.py: the Child's moves): "The second time a Trap symbol appears on the selected Event card,
  after applied the Event, the Lead player must place the Scenario Room with the Child tile placed on it ...
  halfway between the Starting Room and the nearest Exit Control Room ... in an isolated area". Goal: "Keep the
  Child safe" (ASSUMPTION: the Child leaves the map with the Hero he follows; a Child never placed is safe).
- THE CAPTIVE: "At the beginning of the game use the "Room Positioning Method" to place an additional room. Place
  the Hero of the youngest player in this room. This Hero begins the game with penalties: he starts the game as if
  he had just come back from the dead as well as with a random face-down deep wound." Goal: "The Captive must exit
  the map".

The Room Positioning Method (positioning.py) is the Lead player's decision twice (PH_SCENARIO; `slow option i` =
direction i: 0 straight ahead, 1 left, 2 right): the 3 Event cards of each count are drawn from the top of the
Event deck and shown to all (`sc_cards`); after the room is placed they go back and the Event deck is shuffled
(ASSUMPTION: the rulebook does not say where they go).

A mixin of `game.VirusLabState` (first among the bases: it extends `_enter`, `_die`, `_retire`,
`_check_exit_open`); its fields exist only with a scenario on (`FIELDS`, `game.extra_fields`).
"""
from __future__ import annotations

from ..core.validate import check_bool, check_int, check_ints, fail
from . import child as CH
from . import positioning as POS
from .boss_players import seat_slot
from .actions import A
from .components import SCEN_DOORS, TK_BOOK, TK_EXPL     # SCEN_DOORS: the Scenario room's doorways
from .flow import PH_NONE, PH_SCENARIO, Q_DEEP, Q_EVENT, Q_EXTRA, RET_RT, SCEN_CARD

NAMES = ("none", "reboot", "save_the_child", "captive")
NONE, REBOOT, CHILD, CAPTIVE = range(4)
FIELDS = ("sc_cell", "sc_move", "sc_cards", "sc_off", "sc_traps", "child", "ch_move", "ch_turn", "captive")
CARDS_PER_COUNT = 3             # "Draw 3 random cards from the Event deck"
# the Child's states (field `child` = [space, seat he follows or -1, state])
CHILD_OUT, CHILD_IN, CHILD_DEAD, CHILD_SAFE = range(4)


def configure(g) -> None:
    """`g.scenario` (0 = none) and `g.child` (Save the Child: the Creatures see and sniff the Child)."""
    g.scenario = NAMES.index(g.config["scenario"])
    g.child = g.scenario == CHILD
    g.auto_child = bool(g.config["auto_child"])


def captive_seat(n: int) -> int:
    """ "the Hero of the youngest player": ages are not in the game, so (ASSUMPTION) the last seat in clockwise
    order from the first Lead player (seat n - 1; seat 0 in a solo game). n counts the Heroes: with Boss players
    (the last seats, who have no Hero) the Captive is the last Hero seat (assumption B15)."""
    return n - 1


def scenario_goal_met(s, seat: int = -1, spy: bool = False) -> bool:
    """The Scenario's goal, beside "the normal game victory conditions". "The Spy ignores this Scenario's
    requirement": Spy Mode (not in this module) asks with the Spy's seat and `spy=True` and gets True; the Heroes'
    (co-operative) victory asks with `seat=-1`."""
    g = s.g
    if spy or not g.scenario:
        return True
    if g.scenario == REBOOT:
        return bool(s.sc_off)
    if g.scenario == CHILD:
        return CH.state_of(s) in (CHILD_OUT, CHILD_SAFE)
    return bool(s.exited[s.captive])


class ScenarioRules:
    """The Scenario room, its placement, the Computer Room, the Captive; the Child's hooks (child.py)."""

    # -- setup --------------------------------------------------------------------------------------
    def _setup_scenario(self):
        self.sc_cell, self.sc_move, self.sc_cards, self.sc_off, self.sc_traps = -1, [], [], False, 0
        self.child = [-1, -1, CHILD_OUT]
        self.ch_move, self.ch_turn = [], 0     # the Child's move in progress [spaces left, flight]; turn moved
        self.captive = captive_seat(self.g.num_heroes) if self.g.scenario == CAPTIVE else -1
        if self.g.scenario == CAPTIVE:
            self._start_positioning()   # "At the beginning of the game" (before the first Real Time phase)

    # -- the Room Positioning Method ------------------------------------------------------------------
    def _draw_count(self):
        """Draw 3 Event cards (shown to all) and return the highest bottom-right number."""
        comp = self.g.comp
        new = [self.event_deck.pop() for _ in range(min(CARDS_PER_COUNT, len(self.event_deck)))]
        del self.event_known[len(self.event_deck):]
        self.sc_cards.extend(new)
        return POS.highest([comp.event_number[c] for c in new])

    def _start_positioning(self):
        """First count, from "the Exit Control Room located furthest from the Starting room"."""
        start = POS.furthest_exit(self.g.geo, self.exit_cells)
        self.sc_move = [0, start, -1, self._draw_count()]
        self.ph, self.cur = PH_SCENARIO, self.lead

    def _mask_scenario(self, m, p):
        if not self.sc_move:                    # the Child's next space (`auto_child=False`): side d
            for d in CH.options(self):
                m[A.OPTION + d] = True
            return
        for d in POS.allowed(self.sc_move[2]):
            m[A.OPTION + d] = True

    def _apply_scenario(self, a, p):
        """The Lead player counts in direction `a - A.OPTION`; after the second count the room is placed. Or he
        moves the Child one space to side `a - A.OPTION`."""
        d = a - A.OPTION
        if not self.sc_move:
            CH.step(self, d)
            if not CH.run(self):
                self.ph = PH_NONE               # the Event phase's first step resumes (the Event card drawn)
            return
        stage, cell, _, k = self.sc_move
        cell = POS.count_spaces(self.g.geo, cell, d, k)
        if stage == 0:
            # "Repeat the procedure once with 3 other random Event cards. You may not invert the previous movement."
            self.sc_move = [1, cell, d, self._draw_count()]
            return
        self.sc_move = []
        self.event_deck.extend(self.sc_cards)   # ASSUMPTION: the cards go back and the Event deck is shuffled
        self.sc_cards = []
        self.rng.shuffle(self.event_deck)
        self.event_known = []
        self.ph = PH_NONE
        self._place_scenario_room(POS.free_space(self.g.geo, self.card, cell))
        if self.g.scenario == CAPTIVE:
            self._captive_start()
        elif self.ret == RET_RT:                # Reboot: placed during a Real Time action; the phase goes on
            self._resume()

    def _place_scenario_room(self, cell):
        if cell >= 0:
            self.sc_cell = cell
            self._put(cell, SCEN_CARD, 0, False)

    # -- The Captive ------------------------------------------------------------------------------------
    def _captive_start(self):
        """ "Place the Hero of the youngest player in this room ... as if he had just come back from the dead"
        (the death penalties: "Take just 5 bullet cubes and 5 Action cubes in his stock. Flip 6 room cards face
        down on the player's Rooms display") "as well as with a random face-down deep wound" (the Wound deck's top
        card, face down, deep whatever the next card's back)."""
        p = self.captive
        if self.sc_cell < 0:
            return
        self.pos[p] = self.sc_cell
        self._penalty_cubes(p)                  # wounds.py, as a Hero's return after death
        self._wound(p, True)
        self.wounds[p][-1][2] = True
        self._death_flips(p)

    # -- Reboot ----------------------------------------------------------------------------------------
    def _check_exit_open(self):
        """ "When players open the entrance door, use the Room Positioning Method above to place the Scenario
        room" (the first time only: the Computer Room stays where it is after a System reboot)."""
        was = self.exit_open
        super()._check_exit_open()
        if self.g.scenario == REBOOT and self.exit_open and not was and self.sc_cell < 0 and not self.sc_move:
            self._start_positioning()

    def _deactivation_payers(self, p, cell):
        """Who pays the Book and the Explosive token: "1 or more players ... simultaneously pay"; ASSUMPTION: the
        acting Hero pays what he holds, the rest comes from the first Hero of the room in clockwise order from him
        who holds it (a co-operative choice made by that default). None when the room cannot pay."""
        here = [(p + i) % self.n for i in range(self.n) if self.pos[(p + i) % self.n] == cell]
        out = []
        for t in (TK_BOOK, TK_EXPL):
            q = next((h for h in here if self.tok[h][t] > 0), -1)
            if q < 0:
                return None
            out.append(q)
        return out

    def _may_deactivate(self, p, cell):
        return self.g.scenario == REBOOT and not self.sc_off and self._deactivation_payers(p, cell) is not None

    def _deactivate(self, p, cell):
        """The Action cube is the `activate room` action's (placed in the room); the Book and the Explosive
        token go back to the game reserve."""
        for q, t in zip(self._deactivation_payers(p, cell), (TK_BOOK, TK_EXPL)):
            self.tok[q][t] -= 1
            self.tok_pool[t] += 1
        self.sc_off = True

    # -- Save the Child: hooks into the turn ----------------------------------------------------------------
    def _scenario_step(self, item):
        """Called before each queue step (game._step) with a scenario on; True when the step waits for the Lead
        player's choice of the Child's next space (the step is queued again)."""
        if not self.g.child:
            return False
        k = item[0]
        if k == Q_EVENT:
            # "Each Event phase, before to draw the Event card"
            if CH.event_phase(self):
                self.queue.insert(0, item)
                self.ph, self.cur = PH_SCENARIO, self.lead
                return True
        elif k == Q_EXTRA:
            comp = self.g.comp
            if self.event >= 0 and comp.event_trap[self.event]:
                self.sc_traps += 1
                # "The second time a Trap symbol appears on the selected Event card, after applied the Event"
                if self.sc_traps == 2 and self.sc_cell < 0:
                    cell = POS.child_room_space(self.g.geo, self.card, self.exit_cells)
                    self._place_scenario_room(cell)
                    if cell >= 0:
                        self.child = [cell, -1, CHILD_IN]
        elif k == Q_DEEP:
            CH.check_death(self)        # after the Slow phase's Creature moves and placements
        return False

    def _enter(self, p, y):
        super()._enter(p, y)
        if self.g.child:
            CH.hero_enters(self, p, y)

    def _die(self, p):
        cell = self.pos[p]
        super()._die(p)
        if self.g.child:
            CH.hero_gone(self, p, cell, dies=True)

    def _retire(self, p):
        cell = self.pos[p]
        super()._retire(p)
        if self.g.child:
            CH.hero_gone(self, p, cell, dies=False)


# -- the observation, the view, the loader ------------------------------------------------------------------
def block_size(g) -> int:
    """The `scenario` block: per table space the Scenario room, the Child, the space a count starts from (3 x N);
    then the scenario (3), the positioning's count (2) and open directions (3), its number / 10, the Computer Room
    deactivated, the Child's state (4), the Hero he follows by relative seat (4), Trap symbols seen / 2, the
    Captive by relative seat (4); the Child's move being chosen: flight, spaces left / 3, sides open (4)."""
    return 3 * g.geo.ncells + 29


def encode(s, p, out) -> None:
    g = s.g
    N, n = g.geo.ncells, s.n
    if s.sc_cell >= 0:
        out[s.sc_cell] = 1
    c = CH.cell_of(s)
    state = CH.state_of(s)
    if c >= 0 and state == CHILD_IN:
        out[N + c] = 1
    i = 3 * N
    out[i + g.scenario - 1] = 1
    if s.sc_move:
        stage, cell, prev, k = s.sc_move
        out[2 * N + cell] = 1
        out[i + 3 + stage] = 1
        for d in POS.allowed(prev):
            out[i + 5 + d] = 1
        out[i + 8] = k / 10
    out[i + 9] = s.sc_off
    out[i + 10 + state] = 1
    if s.child[1] >= 0:
        out[i + 14 + seat_slot(s, s.child[1], p)] = 1
    out[i + 18] = s.sc_traps / 2
    if s.captive >= 0:
        out[i + 19 + seat_slot(s, s.captive, p)] = 1
    if s.ch_move:
        out[i + 23] = s.ch_move[1]
        out[i + 24] = s.ch_move[0] / CH.MAX_FLIGHT
        if s.ph == PH_SCENARIO and not s.sc_move:
            for d in CH.options(s):
                out[i + 25 + d] = 1


def view(s) -> dict:
    comp = s.g.comp
    return {"scenario": NAMES[s.g.scenario], "room": s.sc_cell,
            "positioning": ({"count": s.sc_move[0] + 1, "from": s.sc_move[1], "spaces": s.sc_move[3],
                             "directions": [POS.DIRECTIONS[d] for d in POS.allowed(s.sc_move[2])],
                             "cards": [comp.event_name[c] for c in s.sc_cards],
                             "numbers": [comp.event_number[c] for c in s.sc_cards]} if s.sc_move else None),
            "computer_room_deactivated": bool(s.sc_off), "trap_symbols_seen": s.sc_traps,
            "child": {"cell": CH.cell_of(s), "follows": s.child[1],
                      "state": ("not placed", "in the lab", "dead", "safe")[CH.state_of(s)]},
            "child_move": ({"flight": bool(s.ch_move[1]), "spaces_left": s.ch_move[0],
                            "sides": ["NESW"[d] for d in CH.options(s)] if s.ph == PH_SCENARIO and not s.sc_move
                            else []} if s.ch_move else None),
            "captive": s.captive, "goal_met": scenario_goal_met(s)}


def validate(g, d) -> None:
    """What `state_from_dict` refuses in the scenario fields (the Scenario room on the table where `sc_cell`
    says; the positioning's cards out of the Event deck only while a count is pending)."""
    env, n, geo = g.env_id, g.num_players, g.geo
    N = geo.ncells
    cell = check_int(env, "sc_cell", d["sc_cell"], -1, N - 1)
    card = d["card"]
    where = [c for c, x in enumerate(card) if x == SCEN_CARD]
    if where != ([cell] if cell >= 0 else []):
        raise fail(env, "sc_cell", "must name the one space holding the Scenario room (or -1 before it is placed)")
    mv = check_ints(env, "sc_move", d["sc_move"])
    if mv and (len(mv) != 4 or mv[0] not in (0, 1) or not 0 <= mv[1] < N or not -1 <= mv[2] <= 2 or mv[3] < 0):
        raise fail(env, "sc_move", "must be empty or [count 0/1, space, previous direction, spaces]")
    cm = check_ints(env, "ch_move", d["ch_move"])
    if cm and (len(cm) != 2 or not 1 <= cm[0] <= CH.MAX_FLIGHT or cm[1] not in (0, 1) or g.scenario != CHILD):
        raise fail(env, "ch_move", "must be empty or [spaces left 1-3, flight 0/1] (Save the Child)")
    check_int(env, "ch_turn", d["ch_turn"], 0, d["turn"])
    if (d["ph"] == PH_SCENARIO) != bool(mv or cm) or (mv and cm):
        raise fail(env, "sc_move", "the phase PH_SCENARIO goes with one pending count or Child move")
    cards = check_ints(env, "sc_cards", d["sc_cards"], None, 0, len(g.comp.event_name) - 1)
    if len(cards) > 2 * CARDS_PER_COUNT or (cards and not mv):
        raise fail(env, "sc_cards", "holds Event cards outside a Room Positioning count")
    check_bool(env, "sc_off", d["sc_off"])
    if d["sc_off"] and g.scenario != REBOOT:
        raise fail(env, "sc_off", "only the Reboot scenario has a Computer Room")
    check_int(env, "sc_traps", d["sc_traps"], 0)
    ch = check_ints(env, "child", d["child"], 3)
    if not -1 <= ch[0] < N or not -1 <= ch[1] < n or not 0 <= ch[2] <= 3:
        raise fail(env, "child", "must be [space, seat followed or -1, state 0-3]")
    if ch[2] != CHILD_OUT and g.scenario != CHILD:
        raise fail(env, "child", "only Save the Child has a Child")
    if ch[2] == CHILD_IN and ch[1] < 0 and (ch[0] < 0 or card[ch[0]] < 0):
        raise fail(env, "child", "puts the Child on an unexplored space")
    if ch[2] == CHILD_IN and ch[1] >= 0 and d["pos"][ch[1]] < 0 and not d["exited"][ch[1]]:
        raise fail(env, "child", "has the Child follow a Hero off the map who did not exit")
    cap = check_int(env, "captive", d["captive"], -1, n - 1)
    if (cap >= 0) != (g.scenario == CAPTIVE):
        raise fail(env, "captive", "names a seat exactly in The Captive")
