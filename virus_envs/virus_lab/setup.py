"""Virus: the setup of a game ("Setup" in the rulebook), a mixin of `game.VirusLabState`.

"Place the Starting Room on an edge of the table ... Take 3 random room cards from the Room deck and place them so
they're connected to the Starting Room ... Shuffle the Exit deck and draw a card. Place two Exit Control Rooms as
shown on the card ... Shuffle the Boss, Wound and Clue decks ... Each player draws 8 room cards": `_setup` lays the
table and deals the decks, the Heroes' stock and displays, then the advanced elements' own setup (Skills, Spy Mode,
the Scenarios, Boss players); `_put` lays one card.
"""
from __future__ import annotations

from . import creatures as CR, pvp, spy, walls
from .board import fits
from .final_attack import draw_boss
from .flow import BOSSES_BY_LEVEL, EXIT_CARD, PH_NONE, Q_RT, Q_SKILLS, RET_QUEUE, START_CARD

NK = CR.NK


class SetupRules:
    """The setup of one game (`VirusLabGame.new_initial_state` calls `_setup`)."""

    def _setup(self, campaign_heroes=None):
        g, comp, geo, n = self.g, self.g.comp, self.g.geo, self.n
        rng = self.rng
        N = geo.ncells
        self.turn, self.lead, self.ph, self.cur, self.ret, self.in_rt = 1, 0, PH_NONE, 0, RET_QUEUE, False
        self.steps, self.terminal, self.truncated, self.won, self.final = 0, False, False, False, False
        self.queue = []
        self.card = [-1] * N
        self.rot = [0] * N
        self.doors = bytearray(N)
        self.trapside = bytearray(N)
        self.door = bytearray(geo.nedges)
        self.barrier = bytearray(geo.nedges)
        self.breach = bytearray(geo.nedges)
        self.cubes = bytearray(N * n)
        self.explored = [-1] * N
        self.searched = [-1] * N
        self.sp_uses = bytearray(N)
        self.labcells, self.labvert, self.labs_used = [], [-1] * N, []
        self.cre = bytearray(N * NK)
        self.flat = bytearray(N)
        self.pool = list(comp.cre_count)
        self.bar_pool = walls.supply(g.num_heroes) if g.walls else list(comp.barrier_supply)
        self.bosses, self.boss_seen = [], []
        self.antidote_cell, self.antidote_holder, self.antidote_out = -1, -1, -1
        self.exit_open = False
        self.act_exit = [[], []]
        self.tok_pool = list(comp.tokens)
        self.door_pool, self.breach_pool = comp.doors_supply, comp.breach_supply
        self.bullet_pool = comp.bullets
        # Starting Room on the table edge
        st = geo.start_cell
        self._put(st, START_CARD, 0, False)
        # room deck: shuffle; 3 rooms connected to the Starting Room (no single doorway, no Research Lab)
        deck = list(g.room_cards)           # the 144 cards and the special rooms switched on (rooms.py)
        rng.shuffle(deck)
        put_back = []
        for d in range(4):
            if not (self.doors[st] >> d) & 1:
                continue
            y = geo.NB[st][d]
            while True:
                c = deck.pop()
                if comp.room_shape[c] == 0 or comp.room_lab[c] >= 0:
                    put_back.append(c)
                    continue
                rots = [r for r in range(4) if fits(geo, self.card, self.doors, self.breach, y, g.rot_doors[c][r])]
                if not rots:
                    put_back.append(c)
                    continue
                self._put(y, c, rots[int(rng.integers(len(rots)))], False)
                break
        # exit card -> Exit Control Rooms; the exit card goes back and the deck becomes the Event deck
        events = list(range(len(comp.event_name)))
        ex = int(rng.integers(len(events)))
        sr, sc = geo.rc(st)
        self.exit_cells = []
        for dr, dc in comp.event_exit[ex]:
            cell = geo.cell(sr + dr, sc + dc)
            self._put(cell, EXIT_CARD, 0, False)
            self.exit_cells.append(cell)
        rng.shuffle(events)
        self.event_deck, self.event_pile, self.event = events, [], -1
        wounds = list(range(g.num_wound_cards))
        rng.shuffle(wounds)
        self.wound_deck, self.wound_discard = wounds, []
        clues = list(range(len(comp.clue_kind)))
        rng.shuffle(clues)
        self.clue_deck, self.clues = clues, []
        bosses = list(range(len(comp.boss_name)))
        rng.shuffle(bosses)
        self.boss_gone = []         # Bosses gone [card, revealed]
        self.boss_deck = bosses
        # discarded cards back, reshuffle; per-player-count removals
        deck.extend(put_back)
        rng.shuffle(deck)
        rem = comp.removals.get(g.num_heroes)          # by the number of Heroes (Boss players excepted)
        self.room_out = []          # removed at setup: unknown to every player
        if rem is not None:
            if "random" in rem:
                self.room_out = sorted(deck[:rem["random"]])
                deck = deck[rem["random"]:]
            else:
                out = set()
                for col in range(4):
                    labs = [c for c in deck if comp.room_colour[c] == col and comp.room_lab[c] >= 0]
                    norm = [c for c in deck if comp.room_colour[c] == col and comp.room_lab[c] < 0]
                    out.update(labs[:rem["lab_per_colour"]])
                    out.update(norm[:rem["normal_per_colour"]])
                deck = [c for c in deck if c not in out]
                self.room_out = sorted(out)
                rng.shuffle(deck)
        self.room_deck, self.room_discard = deck, []
        # Bosses by difficulty: ASSUMPTION: a Leader on a Boss tile in each of the first rooms
        first = [geo.NB[st][d] for d in range(4) if (self.doors[st] >> d) & 1]
        for i in range(BOSSES_BY_LEVEL[g.level]):
            k = max(range(4, 8), key=lambda t: (self.pool[t], -t))
            self.pool[k] -= 1
            cell = first[i % len(first)]
            self.bosses.append([cell, k, draw_boss(self)])
            self.cre[cell * NK + CR.BOSS] += 1
        # Heroes: stock, displays ("If a player draws any Research Lab cards, discard them and draw new cards")
        self.pos = [st] * n
        self.alive = [True] * n
        self.exited = [False] * n
        self.exit_turn = [0] * n
        self.exit_order = []
        self.stock = [comp.start_actions] * n
        self.reserve = [comp.action_cubes - comp.start_actions] * n
        self.bullets = [comp.start_bullets] * n
        self.bullet_pool -= comp.start_bullets * n
        self.tok = [[0] * 6 for _ in range(n)]
        self.t_door, self.t_breach = [0] * n, [0] * n
        self.t_bar = [[0] * 4 for _ in range(n)]
        self.wounds = [[] for _ in range(n)]
        self.disp = [[] for _ in range(n)]
        self.net = [[] for _ in range(n)]
        if g.skills:                # Skill cards: on the table (skills.py), or the campaign's Heroes' (campaign.py)
            self._setup_skills(campaign_heroes)
        labs_out = []
        for p in range(n):
            while len(self.disp[p]) < self.knowledge(p):        # 8 cards in the base game
                c = self.room_deck.pop()
                if comp.room_lab[c] >= 0:
                    labs_out.append(c)
                    continue
                self.disp[p].append([c, True])
        self.room_deck.extend(labs_out)
        rng.shuffle(self.room_deck)
        self.adren = [0] * n                    # Adrenaline tokens used this Real Time phase
        self.dodged = [[0] * NK for _ in range(n)]
        self.countered = [[] for _ in range(n)]   # rooms whose group counter-attacked the Hero this turn
        self.combat_cell = [-1] * n
        self.flee_free = [False] * n
        self.passed = [False] * n
        self.res = [0] * n
        self.gained = [0] * n
        self.infected_dead = [False] * n
        self.roll, self.rollres, self.succ, self.dmg = [], [], 0, []
        self.trap_card = -1
        self.clue_pending = []
        self.expl, self.expl_by, self.armed = bytearray(N), [-1] * N, bytearray(N)
        self.slow_red = [0] * N
        self.majors, self.retired = [0] * n, [False] * n
        self.team, self.team_succ, self.rt_dmg, self.rt_actor = [], 0, [], 0
        self.sl_rem, self.sl_moved, self.sl_bonus, self.sl_done, self.sl_events = [], [], [], [], []
        self.sl_pick = self.sl_side = -1
        self.opts, self.opt_kind = [], CR.OPT_NONE
        self.pl_queue, self.pl_kind, self.pl_player = [], -2, -1
        self.wpend, self.sl_enter = [], []
        self.pl_ord, self.pl_move, self.pl_enter = 0, -1, []
        # a pending display choice: flip = [phase to resume, action to resume, flips left, slots open to the
        # choice, flips in all]; dsel = [group action, cards it takes, slots chosen so far...]
        self.flip, self.dsel = [], []
        # what the players know of the decks besides the public top cards (hidden.py): the number of Room and
        # Clue cards returned to the bottom (seen by all), per bottom Event card the Lead who returned it, per
        # bottom Wound card whether its face is known (its back always is); Bosses gone [card, revealed]
        self.room_known, self.clue_known, self.event_known, self.wound_known = 0, 0, [], []
        self.net_left = 0           # Net cards still to draw (one at a time)
        self.ranged = []            # a ranged attack being rolled: [target room, distance] (ranged.py)
        # Smoke bombs (smoke.py): in each stock, in the reserve, the rooms smoked this turn
        self.smoke, self.smoke_pool, self.smoked = [0] * n, comp.smoke_bombs if g.smoke else 0, []
        # Resolution tokens (resolution.py): in each stock, in the reserve, [in the roll, positive, fixes left]
        self.resol, self.resol_pool, self.resol_roll = [0] * n, comp.resolution_tokens if g.resolution else 0, [0, 0, 0]
        if g.divided:               # the divided combat (divided.py): the split stored, a request, refusals
            self.share, self.agree, self.refused = [[] for _ in range(n)], [], [False] * n
        if g.drifting:              # Drifting rooms (drifting.py): [room drifting, moves made, rooms to come]
            self.drift = []
        if g.clock:                 # the countdown (clock.py): seconds used per seat, late starts, its length
            self.clock, self.late, self.countdown = [0] * n, [0] * n, 0
        self.queue = [[Q_RT]]      # turn 1 has no Event phase
        if g.skills and not g.campaign:     # the Skill assignment before the first turn (skills.py)
            self.queue.insert(0, [Q_SKILLS])
        if g.spy:                   # the Spy deck dealt (spy.py), the PvP register (pvp.py)
            spy.setup(self)
            if g.pvp:
                pvp.setup(self)
        if g.scenario:
            self._setup_scenario()          # The Captive: the Room Positioning Method first (scenarios.py)
        if g.boss_on:
            self._bp_setup()

    def _put(self, cell, c, r, trap):
        self.card[cell] = c
        self.rot[cell] = r
        self.doors[cell] = self.g.rot_doors[c][r]
        self.trapside[cell] = 1 if trap else 0
