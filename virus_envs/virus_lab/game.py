"""Virus (Giochix 2016), the co-operative lab-escape board game: rules engine (base game, "No Real Time").

| | |
|---|---|
| players | 1-4 Heroes, seats in clockwise order; the Lead player starts each phase |
| turn | Event phase (from turn 2) -> Real Time phase (players act in turn, one action at a time, and pass) -> Slow phase (automatic: `auto_slow_phase`) -> Turn End (wounds, resources, recovery, refill, new Lead) |
| actions | `actions.py` (one table for every phase); the mask is the only source of legality |
| returns | co-operative: +1 to every seat when a Hero exited with the Antidote and is not dead at the end, else -1 to every seat; 0 to all on truncation (`max_steps`); with Boss players per side (`boss_players.py`) |
| scores | 1 per seat on a victory, 0 otherwise; `ranking()` gives the rulebook's ranking of a won game |

Rules modules: `board.py` (table grid, placement, connections), `creatures.py` (Slow phase),
`research.py` (lab and clue geometry), `components.py` (validated data); the state's rule families are
mixins in `events.py`, `combat.py`, `wounds.py`, `tiles.py`, `turnend.py`, `labs.py`; `flow.py` holds
the phase and queue-step codes. The rule map to code and
tests, the assumptions and what is not yet implemented: docs/rules/virus_lab.md.
"""
from __future__ import annotations

import numpy as np

from ..core import Game, State, make_rng, rng_from_dict, rng_to_dict
from . import boss_players, campaign, clock, creatures as CR, skills
from . import encoding, render
from .actions import A, ITEMS, MAX_GROUPS, MAX_OPTS, MAX_SHIELD, NUM_ACTIONS, TABLE, trap_id
from .advantages import AdvantageRules
from .boss_actions import BossActionRules
from .boss_players import BossPlayerRules
from .board import Geometry, fits, rotate
from .components import ANY_COLOUR, EF_CALM, EF_FRENZY, TK_BOOK, TK_FOUR, TK_SHIELD, load_components
from .checks import validate_dict
from .combat import CombatRules
from .events import EventRules, additional_creatures
from .campaign import CampaignRules
from .clock import ClockRules
from .skills import SkillRules
from .hidden import HiddenInfo
from .realtime import RealTimeRules
from .labs import LabRules
from .final_attack import draw_boss, final_attack_steps
from .legend import DEFAULT_TILES, parse_tiles
from .ranged import action_table as ranged_table
from .research import incompatible_table
from .tiles import TileRules
from .turnend import TurnEndRules
from .wounds import WoundRules
from . import divided, drifting, morbo, pvp, resolution, scenarios, smoke, special_rooms, spy, walls
from .pvp import PvpRules
from .scenarios import ScenarioRules
from .spy import SpyRules

NK = CR.NK
from .flow import *  # noqa: F401,F403  (phase and queue codes, rule constants; re-exported)

_FIELDS = (
    "turn", "lead", "ph", "cur", "ret", "in_rt", "steps", "terminal", "truncated", "won", "final", "queue",
    "card", "rot", "doors", "trapside", "door", "barrier", "breach", "cubes", "explored", "searched", "sp_uses",
    "labcells", "labvert", "labs_used", "cre", "flat", "pool", "bar_pool", "bosses", "boss_seen",
    "antidote_cell", "antidote_holder", "antidote_out", "exit_cells", "exit_open", "act_exit",
    "room_deck", "room_discard", "event_deck", "event_pile", "event", "wound_deck", "wound_discard",
    "clue_deck", "clues", "boss_deck", "tok_pool", "door_pool", "breach_pool", "bullet_pool",
    "pos", "alive", "exited", "exit_turn", "stock", "reserve", "bullets", "tok", "t_door", "t_breach", "t_bar",
    "wounds", "disp", "net", "adren", "dodged", "countered", "combat_cell", "flee_free", "passed", "res",
    "gained", "infected_dead", "exit_order", "roll", "rollres", "succ", "dmg", "trap_card", "clue_pending",
    "expl", "expl_by", "armed", "slow_red", "majors", "retired", "team", "team_succ", "rt_dmg", "rt_actor",
    "sl_rem", "sl_moved", "sl_bonus", "sl_done", "sl_pick", "sl_side", "sl_events", "opts", "opt_kind", "pl_queue",
    "pl_kind", "pl_player", "wpend", "sl_enter", "pl_ord", "pl_move", "pl_enter", "flip", "dsel",
    "room_out", "room_known", "clue_known", "event_known", "wound_known", "boss_gone", "net_left", "ranged",
    "smoke", "smoke_pool", "smoked", "resol", "resol_pool", "resol_roll")


class VirusLabGame(Game):
    """Virus for 1-4 Heroes, with 1-2 Boss players up to 6 seats ("No Real Time"). Config: docs/rules/virus_lab.md."""

    env_id = "virus_lab_v0"
    min_players, max_players, default_players = 1, 4, 2    # 5-6 only with Boss players (boss_players.py)
    cooperative = True          # every seat shares one result (core.Game.cooperative; team tournaments)
    DEFAULTS = {
        "difficulty": 2,            # 1-2-3: creature movement 1-2-3, Hero HP 8-7-6, Bosses 0-1-2
        "p_positive": 0.5,          # probability that one rolled element lands positive (on one red square)
        "auto_slow_phase": True,    # the Lead player's Slow-phase choices resolved by the documented default
        "auto_display_choices": False,  # True: the Rooms display cards flipped / discarded by the default (display.py)
        "table_rows": 9,            # the table: rows into the table from the Starting Room's edge
        "table_cols": 11,           # the table's width in room spaces (Starting Room in the middle)
        "max_steps": 20000,         # truncation: decisions over the whole game
        "data_dir": "",             # another component directory with the same files ('' = built in)
        # readings of ambiguous passages (docs/rules/virus_lab.md, Assumptions): the default is the most literal
        "counter_attack": "per_group",  # the counter-attack owed "for each turn": per group stood against / per turn
        "shields": "damage_points",     # Shields negate every Damage point / only the Creatures' attacks
        "flat_bosses": "removed",       # a Boss group lying flat twice is removed / stays
        "breach_explore_cube": True,    # the Breach placed while exploring costs its Action cube / is free
        # advanced elements (docs/rules/virus_lab.md, "Advanced elements"); off = the base game
        "legend": False,                # Legend tiles: each Creature type linked to a room colour (legend.py)
        "legend_tiles": DEFAULT_TILES,  # the groups for red, yellow, blue, green: "minion+leader+...", ...
        "advanced_combat": "off",       # Advanced Combat: "ranged" (ranged.py), "divided" (divided.py), "full" (both)
        "final_attack": False,          # Additional Final Attack at the start of the Slow phase (final_attack.py)
        "walls": False,                 # Walls System: Barriers and bars bought singly (walls.py)
        "smoke_bombs": False,           # Special contents: Smoke bombs (smoke.py)
        "resolution_tokens": False,     # Special contents: Resolution tokens (resolution.py)
        "morbo": False,                 # Special contents: the Morbo wound card (morbo.py)
        "teleport_rooms": False,        # Special contents: the 4 Teleport room cards (teleport.py)
        "drifting_rooms": False,        # Special contents: the 2 Drifting room cards (drifting.py)
        "multicolored_rooms": False,    # Special contents: the 2 Multicolored room cards (any colour: special_rooms.py)
        "spy": False,                   # Spy Mode: a secret Spy among the Heroes, Clues declared (spy.py)
        "spy_verify": "unique",         # the verification: the cards shown single out the room / the room meets them
        "pvp": False,                   # Advanced Combat: Player vs Player, "only for Spy mode variant" (pvp.py)
        "scenario": "none",             # Scenarios: "reboot", "save_the_child", "captive" (scenarios.py)
        "auto_child": True,             # Save the Child: the Lead player's moves of the Child by the default (child.py)
        # advanced elements, part 2 (issue 16): the clock, Skills, Campaign; each off by default
        "real_time": False,         # True: the Real Time phase against a simulated countdown (clock.py)
        "rt_countdown": 0,          # seconds of a Real Time phase; 0 = data/realtime.yaml by difficulty and Heroes
        "rt_costs": "",             # seconds per action, overriding data/realtime.yaml: "move=3,explore=8,..."
        "skills": "none",           # the Skills expansion: "none" / "draft" (Method 1) / "auction" (Method 2)
        "campaign": False,          # True: one game of a campaign (campaign.py: campaign stats, Skills, XP)
        "campaign_games": 0,        # N > 0: a whole campaign of N games is one episode (campaign.CampaignState)
        "boss_players": 0,          # PLAY AS BOSS: 1-2 of the seats (the last ones) play as Boss (boss_players.py)
        "infected_boss": False,     # True: an infected dead Hero becomes a Boss player at the next Slow phase
        "boss_win": "killer",       # who wins by the last Hero's death: "killer" (literal) / "all_bosses"
        # a campaign with Spy and Boss players (campaign.py, assumptions C1-C4)
        "campaign_boss_from": "escalation",  # campaign_games: the Boss seats join by the ladder / play from game 1
        "spy_xp": "zero",           # the Spy's XP when the Heroes win: "zero" (literal) / "no_bonus"
        "boss_xp": "none",          # a Boss player's XP: "none" (literal) / "win" (3 XP when his side wins)
        "campaign_infected": "keep",  # a Hero turned Boss keeps his record (literal) / "reset" (a new Hero)
    }
    CHOICES = {"counter_attack": ("per_group", "per_turn"), "shields": ("damage_points", "creature_attacks"),
               "flat_bosses": ("removed", "stay"), "advanced_combat": ("off", "ranged", "divided", "full"),
               "skills": skills.METHODS, "spy_verify": ("unique", "holds"), "scenario": scenarios.NAMES,
               "boss_win": boss_players.BOSS_WIN, "campaign_boss_from": campaign.BOSS_FROM,
               "spy_xp": campaign.SPY_XP, "boss_xp": campaign.BOSS_XP, "campaign_infected": campaign.INFECTED}
    BOUNDS = {"rt_countdown": (0, 3600), "campaign_games": (0, 20), "boss_players": (0, 2)}

    def __init__(self, num_players: int | None = None, **config):
        boss_players.allow_seats(self, num_players, config)      # 5-6 seats: Heroes plus Boss players
        super().__init__(num_players, **config)

    def _validate_config(self):
        c = self.config
        if c["difficulty"] not in (1, 2, 3):
            raise ValueError(f"config key 'difficulty' must be 1, 2 or 3, got {c['difficulty']}")
        if not 0.0 < c["p_positive"] < 1.0:
            raise ValueError(f"config key 'p_positive' must be in (0, 1), got {c['p_positive']}")
        if not c["auto_slow_phase"] and 2 * c["table_rows"] * c["table_cols"] > MAX_OPTS:
            raise ValueError(f"config key 'auto_slow_phase': False needs table_rows x table_cols <= {MAX_OPTS // 2}")
        if not 5 <= c["table_rows"] <= 15:
            raise ValueError(f"config key 'table_rows' must be 5..15, got {c['table_rows']}")
        if not 7 <= c["table_cols"] <= 21 or c["table_cols"] % 2 == 0:
            raise ValueError(f"config key 'table_cols' must be odd, 7..21, got {c['table_cols']}")
        self.legend = parse_tiles(c["legend_tiles"]) if c["legend"] else None
        if c["max_steps"] < 1:
            raise ValueError(f"config key 'max_steps' must be >= 1, got {c['max_steps']}")
        try:
            self.comp = load_components(c["data_dir"] or None)
        except ValueError as e:
            raise ValueError(f"config key 'data_dir': {e}") from None
        self.level = c["difficulty"]
        boss_players.configure(self)
        clock.configure(self)
        campaign.configure(self)
        skills.configure(self)
        spy.configure(self)
        scenarios.configure(self)
        geo = Geometry(c["table_rows"], c["table_cols"])
        sr, sc = geo.rc(geo.start_cell)
        for i, ex in enumerate(self.comp.event_exit):
            for dr, dc in ex:
                if geo.cell(sr + dr, sc + dc) < 0:
                    raise ValueError(f"config key 'table_rows'/'table_cols': event card {i} puts an Exit "
                                     f"Control Room off the table at {(dr, dc)}")
        self.geo = geo

    def _build(self):
        comp = self.comp
        self.actions = TABLE
        self.num_actions = NUM_ACTIONS
        self.ranged = self.config["advanced_combat"] in ("ranged", "full")
        self.divided = self.config["advanced_combat"] in ("divided", "full")
        self.smoke = bool(self.config["smoke_bombs"])
        self.resolution = bool(self.config["resolution_tokens"])
        special_rooms.configure(self)
        if (self.ranged or self.smoke or self.resolution or self.spy or self.boss_on or self.divided or self.teleport
                or self.drifting):                       # the advanced elements' actions, last
            (self.actions, self.ranged_base, self.ranged_dmax, self.smoke_base, self.resol_base, self.spy_base,
             self.pvp_base, self.boss_base, self.take_base, self.teleport_base, self.drift_base) = ranged_table(
                self.geo, self.ranged, self.smoke, self.resolution, self.spy, self.pvp, self.boss_on, self.divided,
                self.teleport, self.drifting)
            self.num_actions = len(self.actions)
            if self.clock:                              # the countdown prices the added actions too
                self.rt_cost = clock.action_costs(self.actions, self.rt_seconds)
        self.level = self.config["difficulty"]
        self.hp = HP_BY_LEVEL[self.level]
        self.p_pos = self.config["p_positive"]
        self.auto_disp = bool(self.config["auto_display_choices"])
        self.per_turn_counter = self.config["counter_attack"] == "per_turn"
        self.shield_all = self.config["shields"] == "damage_points"
        self.flat_bosses_removed = self.config["flat_bosses"] == "removed"
        self.breach_cube = 1 if self.config["breach_explore_cube"] else 0
        self.final_attack = bool(self.config["final_attack"])
        self.walls = bool(self.config["walls"])
        self.morbo = bool(self.config["morbo"])
        self.num_wound_cards = comp.num_wounds + (1 if self.morbo else 0)
        self.incompatible = incompatible_table(comp)
        # rotated doorway masks and lab corners of every card (rooms, then START_CARD, EXIT_CARD)
        doors = comp.room_doors            # rooms, START_CARD, EXIT_CARD, SCEN_CARD, the special rooms
        self.rot_doors = [[rotate(m, r) for r in range(4)] for m in doors]
        self.colour_of = self._colour_of
        # state fields of the advanced elements switched on (absent otherwise: the base game's dicts unchanged)
        self.extra_fields = (clock.FIELDS if self.clock else ()) + (skills.FIELDS if self.skills else ()) + (
            campaign.FIELDS if self.campaign else ()) + (spy.FIELDS if self.spy else ()) + (
            pvp.FIELDS if self.pvp else ()) + (scenarios.FIELDS if self.scenario else ()) + (
            boss_players.FIELDS if self.boss_on else ()) + (divided.FIELDS if self.divided else ()) + (
            drifting.FIELDS if self.drifting else ())
        if self.boss_on:
            self.cooperative = False        # sides: Heroes against Boss players (boss_players.sides)
        self._inner = {}
        self.layout = campaign.whole_layout(self) if self.config["campaign_games"] else encoding.layout(self)
        self.observation_shape = self.layout.shape
        self.observation_high = 1.0

    def _colour_of(self, card):
        if not self.comp.is_room(card):
            return -1
        return self.comp.room_colour[card] if self.comp.room_colour[card] >= 0 else ANY_COLOUR

    # -- setup ------------------------------------------------------------------------------
    def inner_game(self, difficulty, extras=()):
        return campaign.inner_game(self, difficulty, extras)

    def new_initial_state(self, seed: int | None = None, campaign_heroes=None) -> "VirusLabState":
        """Setup: Starting Room, three connected rooms, Exit Control Rooms, decks, removals, displays. A campaign game
        (`campaign=True`) takes its Heroes as the campaign carries them (`campaign.Campaign.heroes`; None: a first
        play); a whole campaign (`campaign_games`) starts with the first Pre-Play."""
        if self.config["campaign_games"]:
            return campaign.CampaignState.start(self, seed)
        s = VirusLabState(self)
        s.rng = make_rng(seed)
        s._setup(campaign_heroes)
        s._advance()
        return s

    def _validate_dict(self, d: dict) -> None:
        if self.config["campaign_games"]:
            campaign.validate_campaign(self, d)
        else:
            validate_dict(self, d)

    def _state_from_dict(self, d: dict) -> "VirusLabState":
        if self.config["campaign_games"]:
            return campaign.CampaignState.from_dict(self, d)
        s = VirusLabState(self)
        for f in _FIELDS + self.extra_fields:
            setattr(s, f, bytearray(d[f]) if f in _BYTE_FIELDS else _copy(d[f]))
        s.rng = rng_from_dict(d["rng"])
        return s


# actions that take Advantages (flip a display card): each is legal only in its own phase
_ADV_ACTIONS = frozenset((A.REDRAW, A.ADV_CUBE, A.ADV_BULLET, A.ADV_RES))

# per-cell / per-edge small counts held in bytearrays (cheap copies, zero-copy numpy views for the encoding)
_BYTE_FIELDS = ("doors", "trapside", "door", "barrier", "breach", "cubes", "sp_uses", "cre", "flat", "expl", "armed")
# how clone() copies each field: lists of lists (copied all the way down) and lists of numbers (one slice);
# the other fields are numbers (test_vl_env checks the split on random games)
_DEEP_FIELDS = ("queue", "labs_used", "bosses", "act_exit", "tok", "t_bar", "wounds", "disp", "net", "dodged",
                "countered", "rt_dmg", "opts", "pl_queue", "sl_events", "boss_gone")
_FLAT_FIELDS = (
    "card", "rot", "explored", "searched", "labcells", "labvert", "pool", "bar_pool", "boss_seen", "exit_cells",
    "room_deck", "room_discard", "event_deck", "event_pile", "wound_deck", "wound_discard", "clue_deck", "clues",
    "boss_deck", "tok_pool", "pos", "alive", "exited", "exit_turn", "stock", "reserve", "bullets", "t_door",
    "t_breach", "adren", "combat_cell", "flee_free", "passed", "res", "gained", "infected_dead", "exit_order", "roll",
    "rollres", "dmg", "clue_pending", "expl_by", "slow_red", "majors", "retired", "team", "sl_rem", "sl_moved",
    "sl_bonus", "sl_done", "wpend", "sl_enter", "pl_enter", "flip", "dsel", "room_out", "event_known", "wound_known",
    "ranged", "smoke", "smoked", "resol", "resol_roll")


def _copy(v):
    if isinstance(v, bytearray):
        return bytearray(v)
    if isinstance(v, list):
        return [_copy(x) if isinstance(x, list) else x for x in v]
    return v


class VirusLabState(BossActionRules, BossPlayerRules, SpyRules, ScenarioRules, divided.DividedRules, HiddenInfo,
                    ClockRules, PvpRules, CampaignRules, SkillRules, RealTimeRules, AdvantageRules, EventRules,
                    CombatRules, WoundRules, TileRules,
                    TurnEndRules, LabRules, State):
    """One position of a game of Virus."""

    def __init__(self, game: VirusLabGame):
        self.game = self.g = game
        self.n = game.num_players
        self._mask = None

    # -- setup ------------------------------------------------------------------------------
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

    # -- public API ------------------------------------------------------------------------
    def current_player(self) -> int:
        return -1 if self.terminal else self.cur

    def phase(self) -> str:
        return "game over" if self.terminal else PHASES[self.ph]

    def is_terminal(self) -> bool:
        return self.terminal

    def is_truncated(self) -> bool:
        return self.truncated

    def returns(self) -> np.ndarray:
        if self.g.spy and not self.g.boss_on:
            return spy.returns(self)        # per side: the Heroes or the Spy
        if not self.terminal or self.truncated:
            return np.zeros(self.n)
        if self.g.boss_on:
            return np.array(self.boss_returns())    # per side: the Heroes, the Spy, the Boss players
        return np.full(self.n, 1.0 if self.won else -1.0)

    def scores(self) -> np.ndarray:
        if self.g.spy and self.g.boss_on:
            wins = self.winning_sides() if self.terminal else set()
            return np.array([1.0 if x in wins else 0.0 for x in self.sides()])
        if self.g.spy:
            return spy.scores(self)
        return np.full(self.n, 1.0 if (self.terminal and self.won) else 0.0)

    def info(self) -> dict:
        """`ranking` in the env's infos once the game is over ("Co-operative returns ...; ranking in infos")."""
        return {"ranking": self.ranking()} if self.terminal else {}

    def ranking(self) -> list:
        """Seats from best to worst in a won game ("Ranking players"); [] when the game is lost."""
        if self.g.spy:
            return spy.ranking(self, self._base_ranking())
        return self._base_ranking()         # labs.py

    def clone(self) -> "VirusLabState":
        s = VirusLabState.__new__(VirusLabState)
        d = s.__dict__
        d.update(self.__dict__)             # numbers, the game, the cached (read-only) mask
        for f in _BYTE_FIELDS:
            d[f] = d[f][:]
        for f in _FLAT_FIELDS:
            d[f] = d[f][:]
        for f in _DEEP_FIELDS:
            d[f] = _copy(d[f])
        for f in self.g.extra_fields:
            d[f] = _copy(d[f])
        # the Generator is rebuilt from a snapshot only when the copy meets chance (building one costs more than
        # copying the rest of the state)
        d["_rng"], d["_rng_snap"] = None, (self._rng.bit_generator.state if self._rng is not None else self._rng_snap)
        return s

    _rng = _rng_snap = None

    @property
    def rng(self):
        """The state's Generator: every chance event (core.seeding)."""
        r = self._rng
        if r is None:
            r = self._rng = rng_from_dict(self._rng_snap)
        return r

    @rng.setter
    def rng(self, r):
        self._rng = r

    def to_dict(self) -> dict:
        d = {"env_id": self.g.env_id, "num_players": self.n}
        d.update((f, _copy(getattr(self, f))) for f in _FIELDS + self.g.extra_fields)
        for f in _BYTE_FIELDS:
            d[f] = list(d[f])
        d["rng"] = rng_to_dict(self.rng)
        return d

    def view(self, p: int) -> dict:
        return encoding.view(self, p)

    def observation(self, p: int) -> np.ndarray:
        return encoding.encode(self, p)

    def render(self) -> str:
        return render.render(self)

    def action_to_string(self, a: int) -> str:
        return self.g.actions.name(a)

    # -- helpers -----------------------------------------------------------------------------
    def active(self, p):
        return self.pos[p] >= 0

    def knowledge(self, p):
        return 8 + self.tok[p][TK_BOOK] + self.stat_bonus(p, "knowledge")

    def living_heroes(self):
        return sum(1 for p in range(self.n) if self.alive[p] and not self.exited[p] and not self.retired[p])

    def _order_from_lead(self):
        return [(self.lead + i) % self.n for i in range(self.n)]

    def _draw_room(self):
        """Top room card, or -1 when "the Room deck runs out" (the game ends)."""
        if not self.room_deck:
            self._finish()
            return -1
        return self._pop_room()

    def _pop_room(self):
        c = self.room_deck.pop()
        if self.room_known > len(self.room_deck):
            self.room_known = len(self.room_deck)
        return c

    def _room_to_bottom(self, c):
        """ "return to the bottom of the deck" a Room card everybody saw."""
        self.room_deck.insert(0, c)
        self.room_known += 1

    def _move_cubes(self, p, k, cell):
        """Spend k Action cubes from p's stock onto `cell`."""
        self.stock[p] -= k
        self.cubes[cell * self.n + p] += k

    # -- flow -------------------------------------------------------------------------------
    def _advance(self):
        """Resolve automatic steps until a decision is pending or the game ends."""
        while not self.terminal and self.ph == PH_NONE:
            if not self.queue:
                self._finish()
                return
            item = self.queue.pop(0)
            self._step(item)

    def _resume(self):
        """A sub-decision finished: back to the Real Time loop or the queue."""
        self.ph = PH_NONE
        if self.ret == RET_RT and not self.terminal:
            if not self._rt_continue():
                return
        self.ret = RET_QUEUE
        self._advance()

    def _step(self, item):
        k = item[0]
        comp = self.g.comp
        if self.g.scenario and self._scenario_step(item):   # Save the Child: the Child's move (child.py) ...
            return
        if k == Q_EVENT:
            if not self.event_deck:
                self._finish()
                return
            self.event = self.event_deck.pop()
            del self.event_known[len(self.event_deck):]
            # "The Lead player draws an Event card and secretly reads it" (encoding.event_secret)
            if self.num_adv(self.lead) > 0:
                self.ph, self.cur = PH_EVENT, self.lead
            else:
                self._apply_event()
        elif k == Q_TRAP:
            self._trap_check(item[1])
        elif k == Q_EXTRA:
            x = additional_creatures(comp.event_number[self.event], self.living_heroes())
            if x and not self.g.clock:      # a rule of the "No Real Time" variant only
                # "the Lead player must place/move X additional Creatures ... ignore the room color restrictions"
                CR.place_begin(self, self.lead, [-1] * x, ignore_colour=True)
                self._place_continue()
        elif k == Q_RT:
            self._start_rt()
        elif k == Q_END_RT:
            self._end_rt()
        elif k == Q_SLOW:
            base = self.g.level
            eff = comp.event_effect[self.event] if self.event >= 0 else 0
            base += 1 if eff == EF_FRENZY else -1 if eff == EF_CALM else 0
            red, self.slow_red = self.slow_red, [0] * self.g.geo.ncells
            CR.slow_begin(self, max(0, base), red)
            self._slow_continue()
        elif k == Q_PLACE:
            # "Starting with the Lead player and proceeding in clockwise order"
            self.queue[0:0] = [[Q_PLACE_P, p] for p in self._order_from_lead()]
        elif k == Q_PLACE_P:
            p = item[1]
            cols = []
            for cell in range(self.g.geo.ncells):
                c = self.card[cell]
                if self.cubes[cell * self.n + p] and comp.is_room(c):
                    cols.append(comp.room_colour[c] if comp.room_colour[c] >= 0 else special_rooms.placing_colour(self))
            CR.place_begin(self, self._placer(p), cols)     # a Boss player may place them (boss_players.py)
            self._place_continue()
        elif k == Q_DAMAGE:
            self.ret = RET_QUEUE
            self._damage(item[1], item[2], item[3], bool(item[4]))
        elif k == Q_DEEP:
            if self.smoked:
                smoke.turn_end(self)
            # "All Heroes with 1 or more deep wounds suffer 1 additional wound"
            q = []
            for p in range(self.n):
                if self.alive[p] and (not self.exited[p] or self.exit_turn[p] == self.turn):
                    deep = [w for w in self.wounds[p] if w[2]]
                    if deep:
                        q.append([Q_WOUNDS, p, 1, 1 if any(w[1] for w in deep) else 0])
            q += morbo.wounds_step(self) if self.g.morbo else []
            self.queue[0:0] = q + [[Q_DEEP_END]]
        elif k == Q_WOUNDS:
            self.ret = RET_QUEUE
            self._take_wounds(item[1], item[2], bool(item[3]))
        elif k == Q_RT_GO:
            self._go_rt()
        elif k == Q_LATE:
            self._late_step(item[1])
        elif k == Q_SKILLS:
            self._skills_step()
        elif k == Q_BOSS:
            self._boss_step()
        elif k == Q_DEEP_END:
            if self.final or self.turn >= LAST_TURN or not any(self.active(p) for p in range(self.n)):
                self._finish()
        elif k == Q_GAIN:
            self._start_gain(item[1])
        elif k == Q_RECOVER:
            self._recover()
        elif k == Q_REFILL:
            self._refill(item[1])
        elif k == Q_RESPAWN:
            p = item[1]
            hosts = self._hosts(p)
            if not self.alive[p] and not self.exited[p] and not self.retired[p] and hosts and self.may_respawn(p):
                if len(hosts) == 1:
                    self._respawn(p, hosts[0])
                else:
                    self.ph, self.cur = PH_RESPAWN, p
        elif k == Q_FOUR:
            p = item[1]
            if self.alive[p] and self.tok[p][TK_FOUR] > 0 and self._groups():
                self.ph, self.cur = PH_FOUR, p
        elif k == Q_FINAL:
            self.queue[0:0] = final_attack_steps(self)
        elif k == Q_PVP:
            pvp.resolve(self)
        elif k == Q_NEXT:
            for p in range(self.n):
                # "For each Major Advantage spent, the player must end his game 1 turn earlier."
                if self.majors[p] and self.turn >= LAST_TURN - self.majors[p] and self.active(p):
                    self._retire(p)
            if not any(self.active(p) for p in range(self.n)):
                self._finish()
                return
            # "The player to the right of the current Lead player becomes the new Lead player"
            self.lead = (self.lead - 1) % self.n
            if self.g.boss_on:
                self._bp_turn_end()
            self.turn += 1
            self.queue = [[Q_EVENT]]
            if self.g.drifting:         # "During the Lead player sub-phase ... the new Lead player must move"
                drifting.begin(self)

    def _finish(self):
        if self.terminal:
            return
        self.terminal = True
        self.ph = PH_NONE
        q = self.antidote_out
        self.won = q >= 0 and self.alive[q] and scenarios.scenario_goal_met(self)
        self.queue = []

    # -- the mask ----------------------------------------------------------------------------
    def _compute_mask(self) -> np.ndarray:
        m = np.zeros(self.g.num_actions, dtype=bool)
        ph, p = self.ph, self.cur
        if ph == PH_ACT:
            self._mask_act(m, p)
        elif ph == PH_EVENT:
            m[A.KEEP] = True
            m[A.REDRAW] = self.num_adv(p) > 0 and len(self.event_deck) > 0
        elif ph in (PH_WOUND, PH_REFILL):
            m[A.KEEP] = m[A.REDRAW] = True      # asked only when a redraw is possible
        elif ph == PH_CLUE:
            self._mask_clue(m, p)
        elif ph == PH_TRAP:
            opts = self._trap_options(self.trap_card)
            for h, d, r in opts:
                m[trap_id(h, d, r)] = True
            m[A.KEEP] = not opts                # "If no suitable space is available, the player discards the card"
            m[A.REDRAW] = self._may_redraw_trap(p)
        elif ph == PH_ROLL:
            self._mask_roll(m, p)
        elif ph == PH_RESULT:
            rr = self.rollres
            has = self.num_adv(p) > 0
            m[A.ADV_CUBE] = has and rr[1] > 0
            m[A.ADV_BULLET] = has and rr[3] > 0
            m[A.REROLL] = rr[4 + TK_FOUR] > 0
            m[A.ACCEPT] = True
            m[A.MAJOR_CUBES] = (rr[1] > 0 or rr[3] > 0) and self._major_ok(p)
            if self.g.resolution:
                resolution.mask_fix(self, m)
        elif ph == PH_SPEND:
            self._mask_spend(m, p)
        elif ph == PH_SHIELD:
            for k in range(min(self.dmg[1], self.tok[p][TK_SHIELD], MAX_SHIELD) + 1):
                m[A.SHIELD + k] = True
        elif ph == PH_GAIN:
            self._mask_gain(m, p)
        elif ph == PH_BUY:
            for i in range(len(ITEMS)):
                m[A.BUY + i] = self._can_buy(p, i)
            m[A.BUY_DONE] = True
            if self.g.smoke:
                m[smoke.buy_id(self.g)] = smoke.can_buy(self, p)
            if self.g.resolution:
                m[self.g.resol_base] = resolution.can_buy(self, p)
        elif ph == PH_SLOW:
            m[A.OPTION:A.OPTION + len(self.opts)] = True
        elif ph == PH_FOUR:
            for i in range(len(self._groups())):
                m[A.FOUR + i] = True
            m[A.NO_FOUR] = True
        elif ph == PH_RESPAWN:
            for h in self._hosts(p):
                m[A.RESPAWN + h] = True
        elif ph == PH_DISCARD:
            for k in self._discard_open(p):
                m[A.DISCARD_SLOT + k] = True
        elif ph == PH_LATE:
            self._mask_late(m, p)
        elif ph == PH_SKILL:
            self._mask_skill(m, p)
        elif ph == PH_AGREE:
            self._mask_agree(m, p)
        elif ph == PH_DRIFT:
            drifting.mask(self, m)
        elif ph == PH_SCENARIO:
            self._mask_scenario(m, p)
        elif ph == PH_BOSS:
            self._mask_boss(m, p)
        elif ph >= PH_FLIP:                 # PH_FLIP, PH_DEATH_FLIP, PH_RESTORE: `flip display slot k`
            for k in self._display_open(p):
                m[A.FLIP + k] = True
        return m

    def _groups(self):
        """Cells holding a Creature group, in cell order (at most MAX_GROUPS)."""
        cre = self.cre
        return [c for c in range(self.g.geo.ncells) if any(cre[c * NK:(c + 1) * NK])][:MAX_GROUPS]

    # -- applying an action -----------------------------------------------------------------
    def _apply(self, a: int) -> None:
        self.steps += 1
        ph, p = self.ph, self.cur
        if a in _ADV_ACTIONS and not self.g.auto_disp and self._ask_flip(a, ph, p):
            pass
        else:
            self._dispatch(a, ph, p)
        if self.steps >= self.g.config["max_steps"] and not self.terminal:
            self.terminal = self.truncated = True
            return
        self._advance()

    def _dispatch(self, a, ph, p):
        if ph == PH_ACT:
            self._apply_act(a, p)
        elif ph == PH_EVENT:
            self._apply_event_choice(a, p)      # events.py
        elif ph == PH_CLUE:
            self._apply_clue(a, p)
        elif ph == PH_TRAP:
            self._apply_trap(a, p)
        elif ph == PH_ROLL:
            self._apply_roll(a, p)
        elif ph == PH_RESULT:
            self._apply_result(a, p)
        elif ph == PH_SPEND:
            self._apply_spend(a, p)
        elif ph == PH_SHIELD:
            k = a - A.SHIELD
            q, amount, pen, down = self.dmg
            self.tok[q][TK_SHIELD] -= k
            self.tok_pool[TK_SHIELD] += k
            self.dmg = []
            if not self._take_wounds(q, amount - k + pen, bool(down)):
                self._resume()
        elif ph == PH_WOUND:
            if not self._apply_wound_choice(a, p):
                self._resume()
        elif ph == PH_REFILL:
            if self.net_left:
                self._apply_net_choice(a, p)    # a Net card (Real Time)
            else:
                self._apply_refill_choice(a, p)
        elif ph == PH_GAIN:
            self._apply_gain(a, p)
        elif ph == PH_BUY:
            self._apply_buy(a, p)
        elif ph == PH_RESPAWN:
            self.ph = PH_NONE
            self._respawn(p, a - A.RESPAWN)       # may ask for the death penalty's flips (PH_DEATH_FLIP)
        elif ph in (PH_FLIP, PH_DEATH_FLIP):
            self._apply_flip(a - A.FLIP, p)
        elif ph == PH_RESTORE:
            self._apply_restore(a - A.FLIP, p)
        elif ph == PH_DISCARD:
            self._apply_discard_slot(a - A.DISCARD_SLOT, p)
        elif ph == PH_LATE:
            self._apply_late(a, p)
        elif ph == PH_SKILL:
            self._apply_skill(a, p)
        elif ph == PH_AGREE:
            self._apply_agree(a, p)
        elif ph == PH_DRIFT:
            drifting.apply(self, a)
        elif ph == PH_SCENARIO:
            self._apply_scenario(a, p)
        elif ph == PH_BOSS:
            self._apply_boss(a, p)
        elif ph == PH_SLOW:
            kind = self.opt_kind
            CR.apply_option(self, a - A.OPTION)
            if self.opt_kind == CR.OPT_NONE:        # else the choice asked a follow-up (2B side, entry)
                self.ph = PH_NONE
                if kind in (CR.OPT_GROUP, CR.OPT_SIDE, CR.OPT_ENTER, CR.OPT_BOSS):   # movement; else placement
                    self._slow_continue()
                else:
                    self._place_continue()
        elif ph == PH_FOUR:
            if a == A.NO_FOUR:
                self.ph = PH_NONE
            else:
                cell = self._groups()[a - A.FOUR]
                self.slow_red[cell] += 1
                self.tok[p][TK_FOUR] -= 1
                self.tok_pool[TK_FOUR] += 1
                if self.tok[p][TK_FOUR] == 0:
                    self.ph = PH_NONE

