"""A rule-of-thumb team bot for Virus, the co-operative board game (`heuristic` for virus_lab_v0).

It reads only `decision.view`, the mask and the game's static tables (component data, table geometry); every
seat runs the same plan, so a team co-operates through the table. What it knows about the game:
- Creatures are placed AFTER the Real Time phase, one per empty coloured room holding the Hero's cubes. So a
  Hero who makes at most `steps` (1) moves in a turn spawns none (his cubes lie in the room he stands in);
  from `burst_turn` (8) on he spends freely (nothing spawned in the last turns can catch him). Cubes are saved
  meanwhile (the stock is recovered from the reserve, so a stock above `hoard` wastes recovery).
- The Antidote is placed as soon as the Clues single out one room, so when no room meets the Clues the Hero
  explores the room they describe (`agents/virus_lab_plan.py` asks the engine's own clue rules about
  hypothetical placements); a drawn Clue is kept when it singles out a room or can be made to, else redrawn
  with 2 Advantages (`clue_redraw`, keeping `adv_keep`).
- Research Labs: lab cards are placed where their symbol joins others; display groups are discarded at the
  turn end to draw lab cards while the Room deck can afford it (`deck_reserve` + `deck_per_turn` per Hero and
  turn left: a deck out ends the game).
- Exit: 1 living Hero activates the nearest Exit Control Room, 2-3 split them by seat (4: seats 0 and 1 on
  one); then the Antidote is fetched and carried to the Starting Room.
- Team play (`team`, 2-4 living Heroes; every seat reads the same plan from the public table, no messages):
  the Exit Control Rooms open only when activated in one phase, so when every Hero needed can walk to his room
  and pay the activation with the cubes he holds, they all go at once (past the stealth limit) and the first to
  activate waits (`_meeting`); the `pathfinders` highest seats explore a way to both Exit Control Rooms from
  `path_turn` on or once a Research Lab has given its Clues, while the others build labs; a lab card that joins
  lab symbols, or a walk of at most `trip` rooms to put one there, is worth a move past the stealth limit; once
  the Antidote is placed, the Hero nearest to it fetches it and the others make for their Exit Control Rooms.
- Combat: Successes grow as cubes x bullets, so rolls are sized to the group (up to `roll_cubes` cubes,
  `roll_bullets` bullets) to kill it all when expected (Advantages counted: each turns a negative cube
  positive, up to `adv_combat`), else to Dodge it all and flee paying only the penalty; Successes are spent
  by comparing kill-first and Dodge-first plans. At difficulty 2-3 the Boss next to the Starting Room is
  attacked on turn 1 (`hunt`) when a roll with Advantages is expected to kill it.
- Traps are placed unconnected to the Heroes' rooms; display cards given up are plain rooms of the most
  plentiful shape (lab cards kept); Hearts, Shields, bullets and Books are bought at the turn end.
- The rules this plain team leaves unused (Breaches, Shields against Lasers, attacking together, a group
  cleared on the way, Adrenaline for the last dash) are played with `uses` (`heuristic?uses=all` = the variant
  "tactician"; agents/virus_lab_uses.py); the default `uses=""` plays exactly as before. The 2-4 Hero requirements
  (one-colour Research Labs, the rush to the exit, no lone activation, the Exit Control Rooms split by the Antidote or
  sent to the one not reached) with `coop` (`heuristic:coop` = rush+wait+split; agents/virus_lab_coop.py); the default
  `coop=""` plays exactly as before.
Parameters: `heuristic?steps=2&burst_turn=7` etc. (PARAMS below); VARIANTS "brave", "frugal", "tactician", "coop". The agent keeps
no memory between decisions (everything is read from the view), so it can also label states it did not reach
(imitation learning with DAgger, agents/imitation.py).

Team win rates (every seat this agent, seeded deals, 95 % Wilson intervals) are in docs/rules/virus_lab.md,
"Figures": 1 Hero wins about a quarter of the games at difficulty 1 and a tenth at difficulty 2 (random: 0);
with 2 or more Heroes (Research Labs of 3-4 cards, Exit Control Rooms activated together) it rarely wins.
"""
from __future__ import annotations

from virus_envs.agents.base import ParamAgent
from virus_envs.agents.virus_lab_boss import BossPlay
from virus_envs.virus_lab.actions import A, MAX_DISPLAY, MAX_OPTS, cash_id, discard_id, explore_id, trap_id
from virus_envs.virus_lab.board import OPP, fits
from virus_envs.virus_lab.components import TK_BOOK, TK_HEART
from virus_envs.virus_lab.flow import (PH_DEATH_FLIP, PH_DISCARD, PH_FLIP, PH_LATE, PH_RESTORE, PH_SCENARIO, PH_SKILL,
                                       PH_TRAP)
from virus_envs.virus_lab.game import PHASES, PH_ACT, PH_BUY, PH_CLUE, PH_GAIN, PH_RESULT, PH_ROLL, PH_SHIELD, PH_SPEND
from virus_envs.virus_lab.research import LAB_NEEDED
from virus_envs.virus_lab.escalation import WAYS

from virus_envs.agents import virus_lab_scenario as SCN
from virus_envs.agents.virus_lab_combat import CombatPlay
from virus_envs.agents.virus_lab_coop import CoopPlay, parse_coop
from virus_envs.agents.virus_lab_plan import Table, clues_after, display_cards, engineer, placements
from virus_envs.agents.virus_lab_spy import SpyPlay
from virus_envs.agents.virus_lab_team import TeamPlay
from virus_envs.agents.virus_lab_uses import RulePlay, parse_uses

P_ACT, P_ROLL, P_RESULT, P_SPEND, P_SHIELD, P_GAIN, P_BUY, P_CLUE = (PHASES[x] for x in (
    PH_ACT, PH_ROLL, PH_RESULT, PH_SPEND, PH_SHIELD, PH_GAIN, PH_BUY, PH_CLUE))
P_TRAP = PHASES[PH_TRAP]
P_LATE = PHASES[PH_LATE]
P_SKILL = PHASES[PH_SKILL]
P_SCENARIO = PHASES[PH_SCENARIO]
P_CARD_CHOICE = {PHASES[x] for x in (PH_FLIP, PH_DISCARD, PH_DEATH_FLIP, PH_RESTORE)}
NAMES_KIND = 9


class VirusLabHeuristic(CombatPlay, BossPlay, SpyPlay, TeamPlay, RulePlay, CoopPlay, ParamAgent):
    """Stealth turns, labs and Clues, the room the Clues describe, the exit, a last-turns burst (module docstring)."""

    reads_observation = False      # it reads the view and the mask only

    PARAMS = {
        # turn plan
        "steps": 1,             # moves a turn before `burst_turn` (1: the Hero's cubes all lie in his room: no spawn)
        "burst_turn": 8,        # from this turn on, no limit
        "exit_turn": 1,         # the first turn the Exit Control Rooms are a target before the Antidote is found
        "burst_at": 16,         # (with exit_turn > 1) a turn is active anyway when the stock reaches this
        "exit_first": False,    # head for the Exit Control Room before labs and Clues
        "idle": "pass",         # nothing to do: "pass" or "explore" / "home" (towards the Starting Room once open)
        "hoard": 13,            # idle with more cubes than this: explore (recovery comes from the reserve)
        "search": True, "search_stock": 17,   # idle search where the Hero stands, with at least this stock
        "keep": 0,              # cubes kept back from moves that do not reach the target room
        "reach": 2, "boss_reach": 3,          # step away from a group / a Boss this close when idle
        # labs, Clues, display
        "focus_labs": True,     # 2-4 Heroes: lab cards join the most advanced grid point
        "labs_wanted": 4, "keep_plain": 2,    # discard plain display cards for lab cards while fewer are held
        "deck_reserve": 15, "deck_per_turn": 2,   # Room cards kept in the deck (a deck out ends the game)
        "clue_redraw": True, "adv_keep": 2,   # redraw useless Clues (2 Advantages), keeping this many
        # combat
        "roll_cubes": 5, "roll_bullets": 12,  # largest roll
        "fight_margin": 1.0,    # attack when the expected Successes reach this x the group's kill cost
        "dodge_margin": 1.5,    # ... or this x its Dodge cost (then flee)
        "kill_bonus": 2.0,      # a kill is worth this x its Damage more than a Dodge
        "adv_combat": 4,        # Advantages a turn on combat results
        "hunt": True,           # attack a Boss next door when a roll is expected to kill it
        # team play (2-4 Heroes; the plan is read from the public table, so every seat computes the same one)
        "team": True,           # meet at the Exit Control Rooms in one phase; lab trips past the stealth limit
        "meet_turn": 1,         # the first turn the Heroes meet at the Exit Control Rooms
        "trip": 3,              # rooms a Hero may walk in one turn to put a lab card on the team's lab point
        "pathfinders": 1,       # the highest living seats that first explore a way to both Exit Control Rooms
        "path_free": False,     # a pathfinder explores past the stealth limit
        "path_turn": 6,         # ... from this turn on, or once a Research Lab has given its Clues
        # turn-end purchases (caps)
        "bullets": 16, "hearts": 2, "shields": 2, "books": 1,
        # Skill cards (skills on): the most Action cubes bid on one card in the auction
        "skill_bid": 2,
        # the rules the plain team leaves unused (agents/virus_lab_uses.py): "" none, "all", or items joined by "+"
        # (breach, shields, together, clear, adrenaline); a Breach is bought with at least `breach_bullets` bullets held and
        # placed between known rooms when it shortens the way by `breach_gain` rooms or more
        "uses": "", "breach_bullets": 6, "breach_gain": 3,
        # the 2-4 Hero requirements (agents/virus_lab_coop.py): "" none, "all", or items joined by "+" (colour, rush,
        # split); with `colour` a lab card of another colour completes a Research Lab only from turn `colour_turn` on
        "coop": "", "colour_turn": 7,
        # the Boss side (boss_players, agents/virus_lab_boss.py): add minions when a Hero is within `boss_near`
        # rooms of the Boss (as the crow flies) and the Boss keeps `boss_add_hp` Hit points after the Damage; the
        # Boss's own group stops `boss_keep` rooms short of the Heroes (0: it walks into them)
        "boss_near": 4,
        "boss_add_hp": 2,
        "boss_keep": 0,
    }
    # Skill powers, most wanted first (skills on): survive and win combats, then tempo, then starting items
    SKILL_RANK = ("hit_points", "roll_cube", "roll_bullet", "start_token", "stamina", "dodge", "knowledge",
                  "turn_resources", "discount", "start_bullets", "search_cubes", "start_tile")
    VARIANTS = {"brave": {"roll_cubes": 7, "fight_margin": 0.7}, "frugal": {"search": False, "hearts": 3},
                "tactician": {"uses": "all"}, "coop": {"coop": "rush+wait+split"}}

    def __init__(self, game, seed=None, variant=None, **params):
        super().__init__(game, seed=seed, variant=variant, **params)
        self.g = game
        comp = game.comp
        self.card_id = {name: i for i, name in enumerate(comp.room_name)}
        self.geo = game.geo
        self._use_set = parse_uses(self.params["uses"])
        self._coop_set = parse_coop(self.params["coop"])
        self._shield_now = False

    # ------------------------------------------------------------------------------------------
    def act(self, decision) -> int:
        m = decision.action_mask
        ph = decision.phase
        v = decision.view
        p = decision.seat
        self._shield_now = self._shielded(v, p) if self._use_set and "heroes" in v else False
        if self._is_boss_seat(v, p):         # Play as Boss: the Boss side (agents/virus_lab_boss.py)
            a = self._boss_act(v, p, m)
        elif ph == P_ACT:
            a = self._real_time(v, p, m)
        elif ph == P_ROLL:
            a = self._build_roll(v, p, m)
        elif ph == P_RESULT:
            a = self._result(v, m)
        elif ph == P_SPEND:
            a = self._spend(v, p, m)
        elif ph == P_SHIELD:
            a = max(i for i in range(A.SHIELD, A.SHIELD + 17) if m[i])
        elif ph == P_GAIN:
            a = self._gain(v, p, m)
        elif ph == P_BUY:
            a = self._buy(v, p, m)
        elif ph == P_CLUE:
            # Spy Mode: the card kept is declared (agents/virus_lab_spy.py)
            a = self._declare(v, p, m) if "spy" in v and v["spy"]["to_declare"] else self._clue(v, p, m)
        elif ph in P_CARD_CHOICE:
            a = self._card_choice(v, p, m)
        elif ph == P_TRAP:
            a = self._trap(v, p, m)
        elif ph == P_SKILL:
            a = self._skill(v, p, m)
        elif ph == P_SCENARIO:
            a = SCN.count_choice(self, v, m)       # the Room Positioning Method (virus_lab_scenario.py)
        elif ph.startswith("campaign:"):
            a = self._preplay(v, p, m)
        elif ph == P_LATE:
            # real_time=True: a stealth turn takes a few seconds of the countdown, so starting 15 s later to
            # recover a spent Advantage costs nothing; in the burst turns every second counts
            a = A.RECOVER if v["turn"] < self.params["burst_turn"] else A.KEEP
        else:
            a = self._default(m)
        if a is None or not m[a]:
            a = self._default(m)
        return int(a)

    def _skill(self, v, p, m):
        """Skill cards: take (draft, keep) the best-ranked card open; in the auction bid on it while holding fewer
        than 2 cards' bids and the bid stays within `skill_bid` cubes, else pass."""
        sk = v["skills"]
        power = {c[0]: c[1] for c in self.g.skill_cards}

        def rank(i):
            return self.SKILL_RANK.index(power[sk["table"][i]])

        open_ = [i for i, name in enumerate(sk["table"]) if name is not None and m[A.OPTION + i]]
        if sk["step"] == "auction":
            mine = sum(1 for o, _ in sk["bids"] if o == p)
            open_ = [i for i in open_ if sk["bids"][i][1] + 1 <= self.params["skill_bid"]]
            if mine >= 2 or not open_:
                return A.PASS
        return A.OPTION + min(open_, key=rank) if open_ else None

    def _preplay(self, v, p, m):
        """Campaign Pre-Play (campaign_games): after a won game (`campaign_escalation="choice"`) the Lead player raises
        the difficulty by the first way open in the engine's ladder order; Hit points first (+2 if affordable), then one Skill card nobody else
        wants (the best-ranked), then Knowledge, Stamina; in a Skill auction bid `skill_bid` XP (or what is left)."""
        c = v["campaign"]
        if c["step"] == "raise":
            # "the next play must be increased in difficulty. You can do that in several ways": the first way open
            # in the order of the engine's ladder (escalation.WAYS: the level, the Additional Final Attack, Legend
            # tiles, the Scenarios, the Spy, the Boss players, the special contents)
            return next((A.OPTION + i for i in range(len(WAYS)) if m[A.OPTION + i]), None)
        if c["step"] == "bid":
            bids = [x for x in range(MAX_OPTS) if m[A.OPTION + x]]
            return A.OPTION + min(self.params["skill_bid"], max(bids)) if bids else None
        for opt in (6, 5):
            if m[A.OPTION + opt]:
                return A.OPTION + opt
        wanted = {k for q, w in enumerate(c["wants"]) if q != p for k in w}
        power = [s_[1] for s_ in self.g.skill_cards]
        free = [k for k in range(16) if m[A.OPTION + 7 + k] and k not in wanted]
        if free and not c["wants"][p]:
            return A.OPTION + 7 + min(free, key=lambda k: self.SKILL_RANK.index(power[k]))
        for opt in (1, 3):
            if m[A.OPTION + opt]:
                return A.OPTION + opt
        return A.OPTION

    def _default(self, m):
        for a in (A.KEEP, A.NO_FOUR, A.GAIN_DONE, A.BUY_DONE, A.SPEND_DONE, A.ACCEPT, A.ROLL, A.PASS):
            if m[a]:
                return a
        for a in range(len(m)):
            if m[a]:
                return a
        return 0

    # -- map helpers -------------------------------------------------------------------------
    def _paths(self, v, src, avoid=True, goal=-1):
        """BFS over the rooms a Hero can walk (rooms with Creatures or hurting traps avoided unless `avoid` is
        False, except the goal): distance and first side (`virus_lab_plan.Table.paths`)."""
        return Table(self.g, v).paths(src, avoid=avoid, goal=goal, shielded=self._shield_now)

    def _manhattan(self, a, b):
        ra, ca = divmod(a, self.geo.cols)
        rb, cb = divmod(b, self.geo.cols)
        return abs(ra - rb) + abs(ca - cb)

    # -- real time -----------------------------------------------------------------------------
    def _target(self, v, p):
        """Where this Hero should go now (a cell), and what to do there."""
        goal = SCN.target(self, v, p)     # a scenario's goal first (virus_lab_scenario.py)
        if goal is not None:
            return goal
        me = v["heroes"][p]
        living = sum(1 for h in v["heroes"] if h["alive"] and not h["exited"] and not h.get("retired"))
        holder = v["antidote_holder"]
        st = self.geo.start_cell
        if holder == p:
            if v["exit_open"]:
                return st, A.EXIT
            return self._exit_room(v, p, living), A.ACTIVATE
        if v["antidote_cell"] >= 0:
            if self.params["team"] and living >= 2 and not v["exit_open"] and p != self._fetcher(v) \
                    and not self._is_spy(v):     # the Spy fetches it himself (virus_lab_spy.py)
                # one Hero fetches the Antidote; the others make for their Exit Control Rooms meanwhile
                return self._exit_room(v, p, living), A.ACTIVATE
            return v["antidote_cell"], A.PICKUP
        if not v["exit_open"] and (v["turn"] >= self.params["exit_turn"] or self._active(v, p)):
            return self._exit_room(v, p, living), A.ACTIVATE
        del me
        return -1, -1

    def _exit_room(self, v, p, living):
        ex = v["exit_cells"]
        room = self._coop_room(v, p, living) if self._coop_set else None
        if room is not None:
            return room
        if living <= 1:
            pos = v["heroes"][p]["pos"]
            return min(ex, key=lambda c: self._manhattan(pos, c))
        if living >= 4:
            return ex[0] if p in (0, 1) else ex[1]
        alive = [h["seat"] for h in v["heroes"] if h["alive"] and not h["exited"]]
        i = alive.index(p) if p in alive else p
        return ex[i % 2]

    def _real_time(self, v, p, m):
        self._free = False                  # set by a team move: no stealth or pacing limit on it
        a = self._real_time_plan(v, p, m)
        if self._free or (self._coop_set and self._rushing(v, p, m, a)):
            return a
        me = v["heroes"][p]
        in_combat = any(me["pos"] == r["cell"] and any(r["creatures"]) for r in v["rooms"])
        if a is not None and A.MOVE <= a < A.SEARCH and not in_combat:
            # stealth: a Creature is placed in each EMPTY room holding the Hero's cubes after the phase, so a Hero
            # who moves only while no room holds his cubes yet (at most `steps` rooms this turn) ends in the one
            # room his cube went to and spawns none; from `burst_turn` on he is free (nothing spawned in the
            # last turns can come back to bite). Read from the table, so the rule needs no memory.
            cubed = sum(1 for r in v["rooms"] if r["cubes"][p])
            if v["turn"] < self.params["burst_turn"] and cubed >= self.params["steps"]:
                here = {r["cell"]: r for r in v["rooms"]}[me["pos"]]
                if self.params["search"] and m[A.SEARCH] and here["colour"] >= 0 and me["stock"] >= self.params["search_stock"]:
                    return A.SEARCH
                return A.PASS
        if a is not None and A.MOVE <= a < A.SEARCH and me["stock"] <= self.params["keep"] \
                and not any(me["pos"] == r["cell"] and any(r["creatures"]) for r in v["rooms"]):
            # pacing: the last cubes are kept for the next turn (a Hero with no cubes cannot run or fight),
            # unless this step reaches the room where the plan's next action happens
            target, _ = self._target(v, p)
            if target < 0 or a >= A.EXPLORE or self.geo.NB[me["pos"]][a - A.MOVE] != target:
                return A.PASS
        return a

    def _real_time_plan(self, v, p, m):
        me = v["heroes"][p]
        pos = me["pos"]
        rooms = {r["cell"]: r for r in v["rooms"]}
        here = rooms[pos]
        in_combat = any(here["creatures"])
        target, todo = self._target(v, p)
        if in_combat:
            return self._combat(v, p, m, here, target)
        if self.params["team"]:
            a = self._meet(v, p, m)
            if a is not None:
                self._free = True
                return a
        # a Boss next door that a roll (with Advantages) is expected to kill: go and kill it before it grows a
        # group; a Boss close by otherwise: get away first (it moves 2-3 rooms and hits for 2-3)
        a = self._dash(v, p, m, target)
        if a is None:
            a = self._hunt(v, p, m)
        if a is None:
            a = self._clear(v, p, m, target)
        if a is not None:
            return a
        if self._boss_distance(v, pos) <= self.params["boss_reach"]:
            a = self._keep_away(v, p, m, bosses_only=True)
            if a is not None:
                return a
        a = SCN.pursue(self, v, p, m)      # a scenario's goal, past the stealth limit (virus_lab_scenario.py)
        if a is not None:
            self._free = True
            return a
        if not self._active(v, p):
            return self._idle(v, p, m, here)
        if target == pos and todo >= 0 and m[todo]:
            if todo == A.ACTIVATE and (p in sum(v["exit_activated"], []) or self._coop_set and self._waits(v)):
                pass
            else:
                return todo
        a = self._pathfind(v, p, m)
        if a is not None:
            self._free = self.params["path_free"]
            return a
        if self.params["exit_first"] and not v["exit_open"] and todo == A.ACTIVATE and target != pos:
            a = self._toward(v, p, m, target)
            if a is not None:
                return a
        # Clues on the table that no room meets: build the room they describe
        plan = self._engineer_plan(v, p)
        if plan is not None:
            _, a_room, d, k, r, _ = plan
            if a_room == pos:
                a = explore_id(d, k, r)
                if m[a]:
                    return a
            else:
                a = self._toward(v, p, m, a_room)
                if a is not None:
                    return a
        # labs: a lab card placed where its symbol joins others
        lab = self._best_lab_explore(v, p, m)
        team = self.params["team"] and self._living(v) >= 2
        if lab is not None and (lab[1] >= 2 or target < 0 or v["exit_open"]):
            self._free = team and lab[1] >= 2     # the card joins lab symbols: worth a move past the limit
            return lab[0]
        if v["antidote_cell"] < 0 and v["antidote_holder"] < 0 and v["antidote_out"] < 0:
            site = self._lab_site(v, p)
            if site is not None and site != pos:
                a = self._toward(v, p, m, site)
                if a is not None:
                    # a lab trip: the site within `trip` rooms and cubes for the walk and the card
                    dist, _ = self._paths(v, pos, goal=site)
                    self._free = team and site in dist and dist[site] <= self.params["trip"] \
                        and v["heroes"][p]["stock"] >= dist[site] + 1
                    return a
        if lab is not None:
            return lab[0]
        if target >= 0:
            a = self._toward(v, p, m, target)
            if a is not None:
                return a
        return self._idle(v, p, m, here)

    def _active(self, v, p):
        """Creatures are placed after the Real Time phase, so whatever a Hero does within one phase is safe from
        the Creatures it spawns: with `exit_turn` > 1, cubes are saved up (`burst_at`) for one long phase rather
        than spent a few at a time. Read from the table (the stock this turn started with = stock + cubes put
        down this turn), so the rule needs no memory."""
        me = v["heroes"][p]
        start = me["stock"] + sum(r["cubes"][p] for r in v["rooms"])
        return (start >= self.params["burst_at"] or v["turn"] >= self.params["exit_turn"]
                or v["antidote_holder"] == p or v["antidote_cell"] >= 0)

    def _idle(self, v, p, m, here):
        pos = v["heroes"][p]["pos"]
        a = self._keep_away(v, p, m)
        if a is not None:
            return a
        # nothing to do: a search where the Hero stands spawns no Creature (his room is not empty), and cubes
        # above `hoard` would be wasted (the turn's recovery comes from the reserve)
        me = v["heroes"][p]
        if self.params["search"] and m[A.SEARCH] and here["colour"] >= 0 and me["stock"] >= self.params["search_stock"]:
            return A.SEARCH
        if self.params["idle"] == "home" and v["exit_open"] and pos != self.geo.start_cell:
            a = self._toward(v, p, m, self.geo.start_cell)
            if a is not None:
                return a
        if self.params["idle"] == "explore" or me["stock"] > self.params["hoard"]:
            a = self._explore_any(v, p, m)
            if a is not None:
                return a
        return A.PASS

    def _group_distance(self, v, cell):
        """Rooms from `cell` to the nearest Creature group (through any connection)."""
        dist, _ = self._paths(v, cell, avoid=False)
        rooms = {r["cell"]: r for r in v["rooms"]}
        ds = [k for c, k in dist.items() if any(rooms[c]["creatures"])]
        return min(ds) if ds else 99

    def _keep_away(self, v, p, m, bosses_only=False):
        """End the turn out of reach: step away while a group (or a Boss) is within `reach` rooms."""
        me = v["heroes"][p]
        dist = self._boss_distance if bosses_only else self._group_distance
        reach = self.params["boss_reach"] if bosses_only else self.params["reach"]
        if me["stock"] < 1 or dist(v, me["pos"]) > reach:
            return None
        rooms = {r["cell"]: r for r in v["rooms"]}
        best, best_k = None, dist(v, me["pos"])
        for d in range(4):
            if m[A.MOVE + d]:
                y = self.geo.NB[me["pos"]][d]
                if any(rooms[y]["creatures"]):
                    continue
                k = dist(v, y)
                if k > best_k:
                    best, best_k = A.MOVE + d, k
        if best is None and bosses_only:
            # no room further away: explore away from it
            for a, d, k, r, c, y in self._explores(v, p, m):
                return a
        return best

    def _hunt(self, v, p, m):
        if not self.params["hunt"]:
            return None
        me = v["heroes"][p]
        rooms = {r["cell"]: r for r in v["rooms"]}
        c = min(me["stock"] - 2, self.params["roll_cubes"])
        b = min(me["bullets"], self.params["roll_bullets"])
        if c < 1 or b < 1:
            return None
        for d in range(4):
            if not m[A.MOVE + d]:
                continue
            r = rooms[self.geo.NB[me["pos"]][d]]
            if r["creatures"][8] and self._expect(c, b, self._advantages(v, p)) >= \
                    self.params["fight_margin"] * self._kill_cost(v, r):
                return A.MOVE + d
        return None

    def _boss_distance(self, v, cell):
        dist, _ = self._paths(v, cell, avoid=False)
        rooms = {r["cell"]: r for r in v["rooms"]}
        ds = [k for c, k in dist.items() if rooms[c]["creatures"][8]]
        return min(ds) if ds else 99

    def _lab_vertex(self, card, rot, cell):
        lab = self.g.comp.room_lab[card]
        if lab < 0:
            return -1
        return self.geo.VERTEX[cell][(lab + rot) % 4]

    def _lab_counts(self, v):
        cnt = {}
        for r in v["rooms"]:
            c = self.card_id.get(r["card"], -1)
            if c >= 0 and not r["trap"]:
                vx = self._lab_vertex(c, r["rot"], r["cell"])
                if vx >= 0:
                    cnt[vx] = cnt.get(vx, 0) + 1
        return cnt

    def _explores(self, v, p, m):
        """(action, side, slot, rot, card, cell) of every legal exploration."""
        me = v["heroes"][p]
        pos = me["pos"]
        out = []
        cards = [(k, self.card_id[name]) for k, (name, up) in enumerate(me["display"]) if up]
        cards += [(MAX_DISPLAY + k, self.card_id[name]) for k, name in enumerate(me["net"])]
        for d in range(4):
            y = self.geo.NB[pos][d]
            if y < 0:
                continue
            for k, c in cards:
                for r in range(4):
                    a = explore_id(d, k, r)
                    if m[a]:
                        out.append((a, d, k, r, c, y))
        return out

    def _best_lab_explore(self, v, p, m):
        if v["antidote_cell"] >= 0 or v["antidote_holder"] >= 0 or v["antidote_out"] >= 0:
            return None
        living = max(1, sum(1 for h in v["heroes"] if h["alive"] and not h["exited"]))
        need = LAB_NEEDED[living]
        cnt = self._lab_counts(v)
        used = set(v["labs_used"])
        # the most advanced open grid point (lab symbols there, an empty space still around it): other lab
        # cards join it rather than start another group (a team's 3-4 cards must meet at ONE point)
        occupied = {r["cell"] for r in v["rooms"]}
        lead = max((n for vx, n in cnt.items() if vx not in used and n < need and self._open_vertex(vx, occupied)),
                   default=0) if self.params["focus_labs"] and need >= 3 else 0
        best, best_s = None, 0
        for a, d, k, r, c, y in self._explores(v, p, m):
            vx = self._lab_vertex(c, r, y)
            if vx < 0 or vx in used:
                continue
            s_ = cnt.get(vx, 0) + 1
            if (s_ < need and s_ <= lead) or (self._coop_set and not self._colour_fits(v, c, vx, s_ >= need)):
                continue
            score = 100 if s_ >= need else s_
            if s_ == 1:
                # a first symbol: worth it where the next lab card can join it from this new room (a doorway
                # of the new card opens on an empty space touching the same grid point), and more so when
                # another lab card is in hand
                score = self._first_symbol_score(v, p, c, r, y)
            if score > best_s:
                best, best_s = a, score
        return None if best is None else (best, best_s)

    def _open_vertex(self, vx, occupied):
        geo = self.geo
        vr, vc = divmod(vx, geo.cols + 1)
        cells = (geo.cell(vr - 1, vc - 1), geo.cell(vr - 1, vc), geo.cell(vr, vc - 1), geo.cell(vr, vc))
        return any(x >= 0 and x not in occupied for x in cells)

    def _first_symbol_score(self, v, p, c, r, y):
        me = v["heroes"][p]
        if me["stock"] < 2:
            return 0
        geo = self.geo
        rooms = {x["cell"] for x in v["rooms"]}
        corner = (self.g.comp.room_lab[c] + r) % 4
        mask = self.g.rot_doors[c][r]
        score = 0
        for d in (corner, (corner + 1) % 4):      # the two sides touching the symbol's corner
            z = geo.NB[y][d]
            if z >= 0 and z not in rooms and (mask >> d) & 1:
                score = 1.5
        labs_in_hand = sum(1 for name, up in me["display"] if up and self.g.comp.room_lab[self.card_id[name]] >= 0)
        return score + (0.5 if labs_in_hand >= 2 and score else 0)

    def _lab_site(self, v, p):
        """A room next to an empty space where a display lab card would put its symbol on a grid point that
        already holds lab symbols (not yet a lab): the nearest such room, or None."""
        me = v["heroes"][p]
        comp = self.g.comp
        geo = self.geo
        labs = [(k, self.card_id[name]) for k, (name, up) in enumerate(me["display"])
                if up and comp.room_lab[self.card_id[name]] >= 0]
        if not labs:
            return None
        cnt = self._lab_counts(v)
        used = set(v["labs_used"])
        card = [-1] * geo.ncells
        doors = [0] * geo.ncells
        for r in v["rooms"]:
            card[r["cell"]] = 0
            doors[r["cell"]] = r["doors"]
        breach = [0] * geo.nedges
        for e in v["breaches"]:
            breach[e] = 1
        dist, _ = self._paths(v, me["pos"])
        best, best_k = None, None
        for vx, c in cnt.items():
            if vx in used:
                continue
            vr, vc = divmod(vx, geo.cols + 1)
            for x in (geo.cell(vr - 1, vc - 1), geo.cell(vr - 1, vc), geo.cell(vr, vc - 1), geo.cell(vr, vc)):
                if x < 0 or card[x] >= 0:
                    continue
                k = geo.VERTEX[x].index(vx)
                ok = False
                for _, cid in labs:
                    if self._coop_set and not self._colour_fits(v, cid, vx, c + 1 >= LAB_NEEDED[max(1, self._living(v))]):
                        continue
                    r_ = (k - comp.room_lab[cid]) % 4
                    if fits(geo, card, doors, breach, x, self.g.rot_doors[cid][r_]):
                        mask = self.g.rot_doors[cid][r_]
                        ok = any((mask >> d) & 1 and geo.NB[x][d] in dist and (doors[geo.NB[x][d]] >> OPP[d]) & 1
                                 for d in range(4))
                        if ok:
                            break
                if not ok:
                    continue
                for d in range(4):
                    y = geo.NB[x][d]
                    if y in dist and (doors[y] >> OPP[d]) & 1:
                        key = (-c, dist[y])
                        if best_k is None or key < best_k:
                            best, best_k = y, key
        return best

    def _toward(self, v, p, m, target):
        """A step towards `target`: along a shortest path when one exists, else towards the frontier space
        (an empty space beside a reachable room's doorway) minimising path + distance left, explored with the
        card that opens towards the target (ties broken by cell and side, so the choice is stable)."""
        me = v["heroes"][p]
        pos = me["pos"]
        a = self._breach_toward(v, p, m, target)
        if a is not None:
            return a
        t = Table(self.g, v)
        dist, first = t.paths(pos, goal=target, shielded=self._shield_now)
        if target in dist and target != pos:
            d = first[target]
            return A.MOVE + d if m[A.MOVE + d] else None
        cards = display_cards(self.g, me)
        if not cards:
            return None
        geo = self.geo
        best = None
        for a_, d, y in t.frontier(dist):
            if not placements(self.g, t, cards, y, breach=self._breach_placements(v, p)):
                continue
            k = (dist[a_] + 1 + self._manhattan(y, target), dist[a_], y, d)
            if best is None or k < best[3:]:
                best = (a_, d, y) + k
        if best is None:
            return self._breach_open(v, p, m, target)
        a_, d, y = best[:3]
        if a_ != pos:
            s_ = first[a_]
            return A.MOVE + s_ if m[A.MOVE + s_] else None
        ty, tx = divmod(target, geo.cols)
        yy, yx = divmod(y, geo.cols)
        want = {0 if ty < yy else 2 if ty > yy else -1, 3 if tx < yx else 1 if tx > yx else -1} - {-1}
        return self._toward_explore(v, p, m, t, y, d, want, target)

    def _explore_any(self, v, p, m):
        lab_cards = self.g.comp.room_lab
        best, best_k = None, None
        for a, d, k, r, c, y in self._explores(v, p, m):
            key = (0 if lab_cards[c] < 0 else 1, -bin(self.g.rot_doors[c][r]).count("1"))
            if best_k is None or key < best_k:
                best, best_k = a, key
        return best

    # -- trap check --------------------------------------------------------------------------------
    def _trap(self, v, p, m):
        """Place the trap card where it hurts least: not connected to a Hero's room (a wall against his wall),
        away from the Heroes' way, with few doorways; Lasers and Gas only hurt who enters."""
        c = self.card_id[v["trap_card"]]
        heroes = v["heroes"]
        t = Table(self.g, v)
        best, best_k = None, None
        for h in range(len(heroes)):
            pos = heroes[h]["pos"]
            if pos < 0:
                continue
            for d in range(4):
                y = self.geo.NB[pos][d]
                for r in range(4):
                    a = trap_id(h, d, r)
                    if not m[a]:
                        continue
                    mk = self.g.rot_doors[c][r]
                    linked = sum(1 for dd in range(4) if (mk >> dd) & 1 and self.geo.NB[y][dd] >= 0
                                 and t.card[self.geo.NB[y][dd]] >= 0 and (t.doors[self.geo.NB[y][dd]] >> OPP[dd]) & 1)
                    k = (linked, bin(mk).count("1"))
                    if best_k is None or k < best_k:
                        best, best_k = a, k
        return best

    # -- Rooms display choices ----------------------------------------------------------------------
    def _card_choice(self, v, p, m):
        """Which display card an Advantage (or the death penalty) flips, a group discards, or a restore turns up:
        give up plain rooms of the most plentiful shape first and keep Research Lab cards; restore labs first."""
        comp = self.g.comp
        disp = v["heroes"][p]["display"]
        cnt = [0] * 5
        for name, up in disp:
            if up:
                cnt[comp.room_shape[self.card_id[name]]] += 1

        def keep_value(k):          # low = give it up first
            c = self.card_id[disp[k][0]]
            return (comp.room_lab[c] >= 0, comp.room_special[c] > 0, -cnt[comp.room_shape[c]], -k)
        slots = [(A.FLIP + k, k) for k in range(len(disp)) if m[A.FLIP + k]]
        slots += [(A.DISCARD_SLOT + k, k) for k in range(len(disp)) if m[A.DISCARD_SLOT + k]]
        if not slots:
            return None
        if v["phase"] == PHASES[PH_RESTORE]:
            return max(slots, key=lambda x: keep_value(x[1]))[0]
        return min(slots, key=lambda x: keep_value(x[1]))[0]

    # -- clues and the antidote ---------------------------------------------------------------------
    def _antidote_free(self, v):
        return v["antidote_cell"] < 0 and v["antidote_holder"] < 0 and v["antidote_out"] < 0

    def _engineer_plan(self, v, p):
        """The nearest exploration that makes the clues single out one room (when no room meets them now)."""
        clues = self._stated(v)
        if not clues or not self._antidote_free(v):
            return None
        t = Table(self.g, v)
        if t.candidates(clues):
            return None
        dist, _ = t.paths(v["heroes"][p]["pos"], shielded=self._shield_now)
        plans = engineer(self.g, t, clues, v["heroes"][p], dist, breach=self._breach_placements(v, p))
        return plans[0] if plans else None

    def _clue(self, v, p, m):
        """Keep a Clue that singles out a room now or can be made to (a room I can build); else redraw (2 Advantages)."""
        disp = v["heroes"][p]["display"]
        up = sum(1 for _, u in disp if u)
        if not m[A.REDRAW] or not self._antidote_free(v) or \
                min(up, 8 - (len(disp) - up)) < 2 + self.params["adv_keep"]:
            return A.KEEP
        new = clues_after(self._stated(v), v["clue_drawn"], self.g.incompatible)
        if not new:
            return A.REDRAW
        t = Table(self.g, v)
        cand = t.candidates(new)
        if len(cand) == 1:
            return A.KEEP
        if not cand:
            dist, _ = t.paths(v["heroes"][p]["pos"])
            if engineer(self.g, t, new, v["heroes"][p], dist):
                return A.KEEP
        return A.REDRAW if self.params["clue_redraw"] else A.KEEP

    # -- combat ----------------------------------------------------------------------------------
    # -- turn end --------------------------------------------------------------------------------
    def _gain(self, v, p, m):
        # "If the Room deck runs out, the game ends immediately": every card discarded here is drawn again at the
        # refill, so keep `deck_reserve` + `deck_per_turn` per living Hero and turn left in the deck
        living = sum(1 for h in v["heroes"] if h["alive"] and not h["exited"])
        spare = v["room_deck"] - self.params["deck_reserve"] - self.params["deck_per_turn"] * living * (9 - v["turn"])
        for k in (4, 3, 2):
            if k > spare:
                continue
            for s_ in range(5):
                for c in range(4):
                    if m[cash_id(s_, c, k)]:
                        return cash_id(s_, c, k)
        a = self._gain_uses(v, p, m)
        if a is not None:
            return a
        # refresh the display to draw Research Lab cards: discard plain rooms of one shape (labs are kept)
        comp = self.g.comp
        disp = v["heroes"][p]["display"]
        plain = [self.card_id[n] for n, up in disp if up and comp.room_lab[self.card_id[n]] < 0]
        labs = sum(1 for n, up in disp if up and comp.room_lab[self.card_id[n]] >= 0)
        if labs < self.params["labs_wanted"] and len(plain) > self.params["keep_plain"] and spare >= 2:
            by_shape = [0] * 5
            for c in plain:
                by_shape[comp.room_shape[c]] += 1
            for s_ in sorted(range(5), key=lambda x: -by_shape[x]):
                k = min(4, by_shape[s_], len(plain) - self.params["keep_plain"], spare)
                if k >= 2 and m[discard_id(s_, k)]:
                    return discard_id(s_, k)
        return A.GAIN_DONE

    def _buy(self, v, p, m):
        a = SCN.buy(v, p, m)
        if a is None:
            a = self._buy_uses(v, p, m)
        if a is not None:
            return a
        tok = v["heroes"][p]["tokens"]
        want = ((1, tok[TK_HEART] < self.params["hearts"]), (2, tok[4] < self.params["shields"]),
                (0, v["heroes"][p]["bullets"] < self.params["bullets"]), (6, tok[TK_BOOK] < self.params["books"]))
        for item, ok in want:
            if ok and m[A.BUY + item]:
                return A.BUY + item
        return A.BUY_DONE

