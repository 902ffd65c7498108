"""Virus: PLAY AS BOSS (config `boss_players` 1-2, `infected_boss`), up to 5-6 players.

"With this variant, 1 or 2 players can play as a Boss from the beginning of the game. This allows competitive play
and increases the player limit to 6." Seats: the Heroes first (`num_heroes` = num_players - boss_players), the
Boss players last; a Boss player's seat is off the map (`pos` -1, `retired`), so the Heroes' rules pass it by.
"This variant can be also used when an infected Hero dies": with `infected_boss` the dead Hero's seat becomes a
Boss player at the following Slow phase.

What the Boss players change (the module's parts):
- setup (`_bp_setup`): Leaders in the game by Heroes and Boss players, "Boss cards are not assigned to Leaders
  placed during the Setup", each Boss player "draws 4-5-6 Boss cards, keeping them secret";
- the Boss actions, "At any moment during the Slow phase" (PH_BOSS; `boss_actions.py`);
- CREATURE MOVEMENT (`controller`, `ask_side`: the hooks of `creatures.slow_run`): "the Boss player owning it moves
  all Creatures in the Boss's Alerted Area (along with his Boss) in the direction of his choice"; "Creatures moved
  by Boss players may explore" (`explore`);
- PLACE NEW CREATURES (`_placer`): "the Boss player owning this Boss places Creatures instead of the player(s)
  owning these Action cubes";
- the aim (`bp_win`, `boss_returns`, `sides`): "The Boss player who kills the last Hero in the game wins."

A mixin of `game.VirusLabState`; its fields exist only with the option on (`FIELDS`, `game.extra_fields`).
docs/rules/virus_lab.md, "Play as Boss", maps each rule to its code and test and lists the assumptions.
"""
from __future__ import annotations

from ..core.validate import check_int, check_ints, check_list, fail
from . import creatures as CR
from .board import ALERT, CAPACITY, bfs, draw_fitting_room
from .flow import *  # noqa: F401,F403  (phase and queue codes)

FIELDS = ("bp_seat", "bp_hand", "bp_boss", "bp_dmg", "bp_box", "bp_mode", "bp_opts", "bp_pick", "bp_todo",
          "bp_heal", "bp_ask", "bp_win", "bp_cell")
BOSS_WIN = ("killer", "all_bosses")
CARDS_BY_LEVEL = {1: 4, 2: 5, 3: 6}     # "In difficulty 1-2-3 games, each Boss player draws 4-5-6 Boss cards"
INFECT_CARDS = 2                        # "Player draws 2 Boss cards and immediately places one of them"
MAX_HAND = 8
LEADERS = range(4, 8)                   # the four Leader kinds (creatures.DESU .. EXECUTIONER)
MINIONS = range(4)
NK = 9                                  # creatures.NK (creatures imports this module)


MAX_SEATS = 6       # "increases the player limit to 6"


def allow_seats(g, n, config) -> None:
    """Before the core checks the player count: 5-6 seats only with Boss players (the class keeps 1-4, the base
    game's range, for every tool that iterates over player counts with the default config)."""
    if isinstance(n, bool) or not isinstance(n, int) or not g.max_players < n <= MAX_SEATS:
        return
    if not config.get("boss_players"):
        raise ValueError(f"config key 'boss_players': num_players={n} needs Boss players (1-4 Heroes; "
                         "'boss_players' 1 or 2 allows 5-6 players)")
    g.max_players = MAX_SEATS       # this instance only


def configure(g) -> None:
    """`g.boss_on`, `g.num_heroes`, `g.boss_seats`; the player count: Heroes 1-4, Boss players 0-2."""
    c = g.config
    b, n = c["boss_players"], g.num_players
    g.boss_seats = b
    g.num_heroes = n - b
    g.boss_on = b > 0 or bool(c["infected_boss"])
    g.boss_shared = c["boss_win"] == "all_bosses"
    if not 1 <= g.num_heroes <= 4:
        if b == 0:
            raise ValueError(f"config key 'boss_players': num_players={n} needs Boss players (1-4 Heroes; "
                             "'boss_players' 1 or 2 allows 5-6 players)")
        raise ValueError(f"config key 'boss_players': {b} Boss players leave {g.num_heroes} Heroes of "
                         f"num_players={n} (1-4 Heroes)")


def leaders_in_game(heroes, boss_players):
    """ "1 Hero: Use 4 Leaders (1 per type) with 1 Boss player, or 6 Leaders (1 per type+2 randomly chosen) with 2
    Boss players. 2 Heroes: use 6 Leaders with 1 Boss player, or 8 Leaders with 2 Boss players. 3-4 Heroes: no
    variations." (None: no variation, all 8.)"""
    if boss_players == 0 or heroes >= 3:
        return None
    return {(1, 1): 4, (1, 2): 6, (2, 1): 6, (2, 2): 8}[(heroes, boss_players)]


def alert_area(s, cell):
    """ "Alerted Area of X. The area of 4 rooms from X": room -> distance (through closed Doors, as a Hero's)."""
    return bfs(s.g.geo, s.card, s.doors, s.breach, s.door, cell, ALERT, True)[0]


def boss_index(s, q):
    """Index in `s.bosses` of Boss player q's active Boss, or -1."""
    c = s.bp_boss[q]
    if c < 0:
        return -1
    for i, rec in enumerate(s.bosses):
        if rec[2] == c:
            return i
    return -1


def boss_cell(s, q):
    i = boss_index(s, q)
    return s.bosses[i][0] if i >= 0 else -1


def owners_by_nearness(s, cell):
    """Boss players whose active Boss has `cell` in its Alerted Area, best first: "the player owning the Boss nearest
    to this Creature group ... In case of a tie ... the Boss player nearest in turn order to the Lead player"."""
    out = []
    for q in range(s.n):
        bc = boss_cell(s, q) if s.bp_seat[q] else -1
        if bc < 0:
            continue
        dist = alert_area(s, bc)
        if cell in dist:
            out.append((dist[cell], (q - s.lead) % s.n, q))
    return [q for _, _, q in sorted(out)]


def controller(s, cell):
    """The Boss player who moves the group of `cell` this Slow phase, or -1 (the normal rules). A healing Boss
    ("skips 1 entire turn") moves nothing, and its own group stays."""
    owners = owners_by_nearness(s, cell)
    for q in owners:
        if s.bp_heal[q] and boss_cell(s, q) == cell:
            return q                # the healing Boss's group stays, whoever else could move it
    return next((q for q in owners if not s.bp_heal[q]), -1)


def can_explore(s, cell, d):
    """An unexplored space on side d beyond a doorway (or Breach) of `cell`, with a Room card left to draw."""
    geo = s.g.geo
    y = geo.NB[cell][d]
    if y < 0 or s.card[y] >= 0 or not s.room_deck:
        return False
    return bool((s.doors[cell] >> d) & 1) or bool(s.breach[geo.EDGE[cell][d]])


def sides(s, cell):
    """Sides a Boss player may move the group of `cell` to: a room it may enter, or an unexplored space."""
    return [d for d in range(4) if CR.can_step(s, cell, d) or can_explore(s, cell, d)]


def explore(s, cell, d):
    """ "Draw the first card in the Room deck and place it on the chosen unexplored space. If the card is not
    compatible, draw another card until you find one that fits. Incompatible cards must be reshuffled with the Room
    deck." The card lies with its normal side up, in the first rotation that fits (ASSUMPTION). False when no card
    of the deck fits (the group stands still)."""
    g = s.g
    y = g.geo.NB[cell][d]
    drawn = draw_fitting_room(s, y, back=(d + 2) % 4)
    if drawn is None:
        return False
    c, r = drawn
    s._put(y, c, r, False)
    if g.comp.room_lab[c] >= 0:
        # ASSUMPTION: its lab symbol counts for the Research Labs; a Boss player draws no Clue card
        s.labcells.append(y)
        s.labvert[y] = g.geo.VERTEX[y][(g.comp.room_lab[c] + r) % 4]
    return True


def step_side(s, cell, d):
    """Explore first when side d is unexplored; True when the group can then move there."""
    if s.card[s.g.geo.NB[cell][d]] < 0:
        return explore(s, cell, d)
    return True


ASKED, STAY = -3, -2


def ask_side(s, cell, q):
    """The hook of `creatures.slow_run` for a group a Boss player moves: the side (after exploring), STAY (no way
    out; "Boss miniature are never laid down", nor the group its player moves: ASSUMPTION), or ASKED (the choice is
    pending: `slow option i` = side opts[i], by seat q)."""
    if s.bp_heal[q]:
        return STAY
    opts = sides(s, cell)
    if not opts:
        return STAY
    if len(opts) == 1:
        return opts[0] if step_side(s, cell, opts[0]) else STAY
    s.sl_pick = cell
    s.bp_ask = q
    CR._ask(s, CR.OPT_BOSS, opts)
    return ASKED


def chosen_side(s, d):
    """`slow option i` on a Boss player's side choice: explore if needed, then move that way."""
    cell = s.sl_pick
    s.bp_ask = -1
    if step_side(s, cell, d):
        s.sl_side = d
    else:
        s.sl_rem[cell] = 0


def seat_slot(s, q, p):
    """The Hero slot (0-3) of seat q seen by seat p: relative to p ((q - p) mod n) in the base game; with Boss
    players (5-6 seats), relative among the Hero seats 0..num_heroes-1 for a Hero observer, absolute for a Boss
    player; -1 for a seat that never had a Hero (its own `boss` block)."""
    n, H = s.n, s.g.num_heroes
    if H == n:
        return (q - p) % n
    if q >= H:
        return -1
    return (q - p) % H if p < H else q


class BossPlayerRules:
    """Boss players: setup, the Slow-phase hooks, hands, the infected Hero, the aim."""

    # -- setup ------------------------------------------------------------------------------------
    def _bp_setup(self):
        """After the normal setup: Boss seats off the map, Leaders in the game, plain setup Leaders, the hands."""
        g, n, rng = self.g, self.n, self.rng
        H = g.num_heroes
        self.bp_seat = [1 if q >= H else 0 for q in range(n)]
        self.bp_hand = [[] for _ in range(n)]
        self.bp_boss, self.bp_dmg, self.bp_heal, self.bp_cell = [-1] * n, [0] * n, [0] * n, [-1] * n
        self.bp_box = [0] * 4
        self.bp_mode, self.bp_opts, self.bp_pick, self.bp_todo, self.bp_ask, self.bp_win = 0, [], [], [], -1, -1
        if g.boss_seats:
            # "Boss cards are not assigned to Leaders placed during the Setup. These Leaders are just normal Leaders"
            for rec in reversed(self.bosses):
                self.cre[rec[0] * NK + CR.BOSS] -= 1
                self.cre[rec[0] * NK + rec[1]] += 1
                self.boss_deck.append(rec[2])
            self.bosses, self.boss_seen = [], []
            rng.shuffle(self.boss_deck)
            total = leaders_in_game(H, g.boss_seats)
            if total is not None:
                keep = [1] * 4
                for k in rng.choice(4, size=total - 4, replace=False) if total > 4 else []:
                    keep[int(k)] += 1
                for j, k in enumerate(LEADERS):
                    out = g.comp.cre_count[k] - keep[j]
                    self.pool[k] -= out
                    self.bp_box[j] = out
            for q in range(H, n):
                self._leave_map(q)
                for _ in range(CARDS_BY_LEVEL[g.level]):
                    self._bp_draw(q)

    def _leave_map(self, q):
        """A Boss player's seat: no Hero on the map; his setup Rooms display and Bullet cubes go back, his Action
        cubes to his reserve (he places none: no Skill bid either)."""
        self.reserve[q] += self.stock[q]
        self.stock[q] = 0
        self.pos[q] = -1
        self.alive[q] = False
        self.retired[q] = True
        for c, _ in self.disp[q]:
            self.room_deck.append(c)
        self.disp[q] = []
        self.rng.shuffle(self.room_deck)
        self.room_known = 0
        self.bullet_pool += self.bullets[q]
        self.bullets[q] = 0

    def _bp_draw(self, q, public=0):
        """Draw 1 Boss card into q's hand: "If the Boss deck runs out, shuffle all discarded Boss cards and make a new
        deck" (the Bosses gone are the discards)."""
        from .final_attack import draw_boss
        if not self.boss_deck and self.boss_gone:
            self.boss_deck = [c for c, _ in self.boss_gone]
            self.boss_gone = []
            self.rng.shuffle(self.boss_deck)
        c = draw_boss(self)
        if c >= 0:
            self.bp_hand[q].append([c, public])
        return c

    # -- the Boss on the map ---------------------------------------------------------------------
    def boss_hp_left(self, rec):
        """ "Bosses must take wounds into account, registering them with Bullet cubes on the Boss card" """
        hp = self.g.comp.boss_hp[rec[2]]
        if self.g.boss_on:
            for q in range(self.n):
                if self.bp_boss[q] == rec[2]:
                    return hp - self.bp_dmg[q]
        return hp

    def _remove_boss(self, i):
        """Boss i leaves the map (killed, or its group returned to the reserve): its Leader miniature goes back to
        the reserve, its card out of the game (still hidden if nobody met the Boss). "When a Boss is killed, the
        corresponding Boss card is discarded" (the Bosses gone are the discard pile)."""
        rec = self.bosses.pop(i)
        self.boss_gone.append([rec[2], 1 if i in self.boss_seen else 0])
        self.boss_seen = [j - (1 if j > i else 0) for j in self.boss_seen if j != i]
        self.pool[rec[1]] += 1
        self.cre[rec[0] * NK + CR.BOSS] -= 1
        if self.g.boss_on:
            for q in range(self.n):
                if self.bp_boss[q] == rec[2]:
                    self.bp_boss[q], self.bp_dmg[q] = -1, 0

    # -- the Slow phase ----------------------------------------------------------------------------
    def _slow_continue(self):
        """Run the Creature movement until it ends or the Lead player (a Boss player, for a group he moves) must
        choose."""
        if CR.slow_run(self, not self.g.config["auto_slow_phase"]):
            boss = self.g.boss_on and self.opt_kind == CR.OPT_BOSS
            self.ph, self.cur = PH_SLOW, (self.bp_ask if boss else self.lead)
            return
        for p, amt in self.sl_events:
            self.queue.insert(0, [Q_DAMAGE, p, amt, 0, 1])
        self.sl_events = []

    def _place_continue(self):
        """Place the queued new Creatures until done or the placing player must choose (a Boss player placing
        chooses every time: his choices are a player's, not the Lead player's documented default)."""
        boss = self.g.boss_on and self.pl_player >= 0 and self.bp_seat[self.pl_player]
        if CR.place_run(self, boss or not self.g.config["auto_slow_phase"]):
            self.ph, self.cur = PH_SLOW, self.pl_player

    def _placer(self, p):
        """ "For each active Boss in a room containing any Action cubes, the Boss player owning this Boss places
        Creatures instead of the player(s) owning these Action cubes. If two Boss players are eligible to place
        Creatures for the same Hero player, the Boss player nearest in turn order to the Lead player will place
        them." """
        if not self.g.boss_on:
            return p
        for q in self._order_from_lead():
            c = boss_cell(self, q) if self.bp_seat[q] else -1
            if c >= 0 and self.cubes[c * self.n + p]:
                return q
        return p

    # -- the infected Hero ----------------------------------------------------------------------------
    def _die(self, p):
        cell = self.pos[p]
        super()._die(p)
        if not self.g.boss_on:
            return
        self.bp_cell[p] = cell
        if self.living_heroes() == 0 and self.bp_win < 0:
            # "The Boss player who kills the last Hero in the game wins": the Boss player who moves the Creatures
            # of the room where the Hero died (ASSUMPTION: the killer; none when no Boss has the room in its area)
            owners = owners_by_nearness(self, cell) if cell >= 0 else []
            self.bp_win = owners[0] if owners else -1

    def _bp_infected(self):
        """ "If there are still other surviving players in the game, during the following Slow phase control the dead
        Hero's face-down Wound cards: If he was infected ..., the Hero becomes a Boss." Seats converted now."""
        out = []
        if not self.g.config["infected_boss"] or self.living_heroes() == 0:
            return out
        for p in self._order_from_lead():
            if not self.bp_seat[p] and not self.alive[p] and not self.exited[p] and not self.retired[p] \
                    and self._infected(p):
                self.bp_seat[p] = 1
                self.retired[p] = True
                for _ in range(INFECT_CARDS):
                    self._bp_draw(p)
                out.append(p)
        return out

    def may_respawn(self, p):
        """An infected dead Hero waits for the Slow phase check instead of returning (`infected_boss`)."""
        return not (self.g.boss_on and self.g.config["infected_boss"] and self._infected(p))

    # -- the turn end ---------------------------------------------------------------------------------
    def _bp_turn_end(self):
        """ "When a Boss player loses his last Boss card, he draws 1 Boss card at turn end." The Lead passes over the
        Boss players (ASSUMPTION: the Lead player's duties are the Heroes')."""
        for q in range(self.n):
            if self.bp_seat[q] and not self.bp_hand[q] and self.bp_boss[q] < 0:
                self._bp_draw(q)
        for _ in range(self.n):
            if not self.bp_seat[self.lead]:
                break
            self.lead = (self.lead - 1) % self.n

    # -- the aim -------------------------------------------------------------------------------------
    def sides(self):
        if not self.g.boss_on:
            return super().sides()          # Spy Mode's (spy.py), else None
        hero = super().sides() or ["heroes"] * self.n      # with Spy Mode: "spy" for the seat dealt the Spy card
        bs = [q for q in range(self.n) if self.bp_seat[q]]
        if len(bs) <= 1 or self.g.boss_shared:
            return ["boss" if self.bp_seat[q] else hero[q] for q in range(self.n)]
        return [f"boss {bs.index(q) + 1}" if self.bp_seat[q] else hero[q] for q in range(self.n)]

    def winning_sides(self):
        """The sides that reached their aim at the end: the Heroes when a Hero exited with the Antidote (the base
        victory) and, in Spy Mode, the Spy did not win; the Spy by his conditions; the Boss player who killed the
        last Hero (with `boss_win="all_bosses"`: every Boss player) when the Heroes did not win. The Spy and a Boss
        player may both win (the Spy fled, the last Hero inside was killed: assumption B14)."""
        from .spy import spy_wins
        sd = self.sides()
        wins = set()
        if self.g.spy and spy_wins(self):
            wins.add("spy")
        if self.won and "spy" not in wins:
            wins.add("heroes")
        if "heroes" not in wins and self.bp_win >= 0 and self.bp_seat[self.bp_win]:
            wins.add(sd[self.bp_win])
        return wins

    def boss_returns(self):
        """+1 to every seat of a winning side (`winning_sides`), -1 to the others; every seat -1 when nobody won, as
        "all players lose" in the base game."""
        wins = self.winning_sides()
        return [1.0 if x in wins else -1.0 for x in self.sides()]


# -- dict checks, view, observation ------------------------------------------------------------------------
def card_places(g, d):
    """The Boss cards in the Boss players' hands (for the conservation check of checks.py)."""
    if not g.boss_on:
        return {}
    return {"bp_hand": [c[0] for h in d["bp_hand"] for c in h]}


def boxed(g, d, k):
    """Leader miniatures of kind k left in the box ("Use 4 Leaders ...")."""
    return d["bp_box"][k - 4] if g.boss_on and k in LEADERS else 0


def validate(g, d) -> None:
    env, n, nb = g.env_id, g.num_players, len(g.comp.boss_name)
    seat = check_ints(env, "bp_seat", d["bp_seat"], n, 0, 1)
    for q in range(n):
        if seat[q] and not d["retired"][q]:
            raise fail(env, "bp_seat", f"seat {q} plays as Boss but has a Hero on the map")
        if seat[q] and d["alive"][q]:       # a Boss player never had a Hero, an infected Hero turned Boss died
            raise fail(env, "alive", f"seat {q} plays as Boss: he has no living Hero")
    for q, h in enumerate(check_list(env, "bp_hand", d["bp_hand"], n)):
        for c in check_list(env, f"bp_hand[{q}]", h):
            check_ints(env, f"bp_hand[{q}]", c, 2)
            check_int(env, f"bp_hand[{q}]", c[0], 0, nb - 1)
            check_int(env, f"bp_hand[{q}]", c[1], 0, 1)
        if h and not seat[q]:
            raise fail(env, "bp_hand", f"seat {q} holds Boss cards but is no Boss player")
        if len(h) > MAX_HAND:
            raise fail(env, "bp_hand", f"seat {q} holds more than {MAX_HAND} Boss cards")
    on_map = [rec[2] for rec in d["bosses"]]
    boss = check_ints(env, "bp_boss", d["bp_boss"], n, -1, nb - 1)
    for q in range(n):
        if boss[q] >= 0 and (not seat[q] or boss[q] not in on_map or boss.count(boss[q]) > 1):
            raise fail(env, "bp_boss", f"seat {q}'s active Boss card {boss[q]} is not a Boss of his on the map")
    dmg = check_ints(env, "bp_dmg", d["bp_dmg"], n, 0, 9)
    for q in range(n):
        if boss[q] < 0 and dmg[q]:
            raise fail(env, "bp_dmg", f"seat {q} registers Damage without an active Boss")
        if boss[q] >= 0 and dmg[q] >= g.comp.boss_hp[boss[q]]:
            raise fail(env, "bp_dmg", f"seat {q}'s Boss has Damage >= its Hit points")
    check_ints(env, "bp_box", d["bp_box"], 4, 0, 2)
    mode = check_int(env, "bp_mode", d["bp_mode"], 0, 10)
    from .boss_actions import OPT_SHAPE
    shape, N = OPT_SHAPE[mode], g.geo.ncells
    cur = d["cur"]
    for o in check_list(env, "bp_opts", d["bp_opts"], None if shape else 0):
        if shape == "cell_kind":
            check_ints(env, "bp_opts", o, 2)
            check_int(env, "bp_opts", o[0], 0, N - 1)
            check_int(env, "bp_opts", o[1], 0, 7)
        else:
            hi = {"cell": N - 1, "side": 3, "kind": 7, "card": len(d["bp_hand"][cur]) - 1}[shape]
            check_int(env, "bp_opts", o, 0, hi)
    check_ints(env, "bp_pick", d["bp_pick"], None, 0, max(N, 8))
    for x in check_list(env, "bp_todo", d["bp_todo"]):
        check_ints(env, "bp_todo", x, 2)
        check_int(env, "bp_todo", x[0], 0, n - 1)
        if not seat[x[0]]:
            raise fail(env, "bp_todo", f"seat {x[0]} to act as Boss player is no Boss player")
    check_ints(env, "bp_heal", d["bp_heal"], n, 0, 1)
    check_int(env, "bp_ask", d["bp_ask"], -1, n - 1)
    check_int(env, "bp_win", d["bp_win"], -1, n - 1)
    check_ints(env, "bp_cell", d["bp_cell"], n, -1, g.geo.ncells - 1)
    if d["ph"] == PH_BOSS and (not d["bp_todo"] or d["bp_mode"] == 0):
        raise fail(env, "bp_mode", "a Boss action decision needs a Boss player to act")


def view(s, p) -> dict:
    comp = s.g.comp
    return {"seats": [q for q in range(s.n) if s.bp_seat[q]],
            "hand": [comp.boss_name[c] for c, _ in s.bp_hand[p]], "hand_ids": [c for c, _ in s.bp_hand[p]],
            "hand_sizes": [len(h) for h in s.bp_hand],
            "shown_in_hands": [[comp.boss_name[c] for c, pub in h if pub] for h in s.bp_hand],
            "active": [comp.boss_name[c] if c >= 0 else None for c in s.bp_boss],
            "active_cell": [boss_cell(s, q) for q in range(s.n)], "damage": list(s.bp_dmg),
            "healing": list(s.bp_heal), "leaders_in_box": list(s.bp_box), "winner": s.bp_win,
            "moving_group": s.sl_pick if s.opt_kind == CR.OPT_BOSS else -1,
            "choice": {"mode": s.bp_mode, "options": [list(o) if isinstance(o, list) else o for o in s.bp_opts]}
            if s.ph == PH_BOSS and s.cur == p else None}


def block_size(g):
    """Per seat (6): Boss player, cards in hand/8, active Boss, its Damage/9, healing, relative-seat slot is the
    observer; the observer's hand (one per Boss card); the pending Boss choice: mode (11), options per table
    space (N), per Creature kind (9), per Boss card (nb), per side (4); the Leaders in the box/2 (4)."""
    nb = len(g.comp.boss_name)
    return 6 * 6 + nb + 11 + g.geo.ncells + 9 + nb + 4 + 4


def encode(s, p, out) -> None:
    g = s.g
    nb, N, n = len(g.comp.boss_name), g.geo.ncells, s.n
    for q in range(n):
        j = 6 * ((q - p) % n)
        out[j:j + 6] = (s.bp_seat[q], len(s.bp_hand[q]) / MAX_HAND, s.bp_boss[q] >= 0, s.bp_dmg[q] / 9,
                        s.bp_heal[q], q == p)
    i = 36
    for c, _ in s.bp_hand[p]:
        out[i + c] = 1
    i += nb
    if s.ph == PH_BOSS and s.cur == p and not s.terminal:
        out[i + s.bp_mode] = 1
        from .boss_actions import OPT_SHAPE
        shape = OPT_SHAPE[s.bp_mode]
        for o in s.bp_opts:
            if shape == "cell":
                out[i + 11 + o] = 1
            elif shape == "cell_kind":
                out[i + 11 + o[0]] = 1
                out[i + 11 + N + o[1]] = 1
            elif shape == "kind":
                out[i + 11 + N + o] = 1
            elif shape == "card":               # a place in his hand: the card there
                out[i + 11 + N + 9 + s.bp_hand[p][o][0]] = 1
            elif shape == "side":
                out[i + 11 + N + 9 + nb + o] = 1
    i += 11 + N + 9 + nb + 4
    out[i:i + 4] = [x / 2 for x in s.bp_box]
