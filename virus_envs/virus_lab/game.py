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
mixins in `setup.py` (the setup), `steps.py` (the turn's queue of steps), `events.py`, `combat.py`, `wounds.py`,
`tiles.py`, `turnend.py`, `labs.py` and the advanced elements' modules; `flow.py` holds the phase and queue-step
codes. The rule map to code and
tests, the assumptions and what is not yet implemented: docs/rules/virus_lab.md.
"""
from __future__ import annotations

import numpy as np

from ..core import Game, State, make_rng, rng_from_dict, rng_to_dict
from . import boss_players, campaign, campaign_checks, clock, creatures as CR, skills
from . import encoding, render
from .actions import A, ITEMS, MAX_GROUPS, MAX_OPTS, MAX_SHIELD, NUM_ACTIONS, TABLE, trap_id
from .advantages import AdvantageRules
from .boss_actions import BossActionRules
from .boss_players import BossPlayerRules
from .board import Geometry, rotate
from .components import ANY_COLOUR, TK_BOOK, TK_FOUR, TK_SHIELD, load_components
from .checks import validate_dict
from .combat import CombatRules
from .events import EventRules
from .campaign import CampaignRules
from .clock import ClockRules
from .skills import SkillRules
from .hidden import HiddenInfo
from .realtime import RealTimeRules
from .labs import LabRules
from .legend import DEFAULT_TILES, parse_tiles
from .ranged import action_table as ranged_table
from .research import incompatible_table
from .tiles import TileRules
from .turnend import TurnEndRules
from .wounds import WoundRules
from . import divided, drifting, pvp, resolution, scenarios, smoke, special_rooms, spy
from .pvp import PvpRules
from .scenarios import ScenarioRules
from .setup import SetupRules
from .spy import SpyRules
from .steps import StepRules

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
        "campaign_escalation": "choice",  # after a won game: the Lead player chooses the way (literal) / "ladder"
        "campaign_ladder": "",      # with "ladder": the order of its steps, comma-separated ("" = the engine's)
    }
    CHOICES = {"counter_attack": ("per_group", "per_turn"), "shields": ("damage_points", "creature_attacks"),
               "flat_bosses": ("removed", "stay"), "advanced_combat": ("off", "ranged", "divided", "full"),
               "skills": skills.METHODS, "spy_verify": ("unique", "holds"), "scenario": scenarios.NAMES,
               "boss_win": boss_players.BOSS_WIN, "campaign_boss_from": campaign.BOSS_FROM,
               "spy_xp": campaign.SPY_XP, "boss_xp": campaign.BOSS_XP, "campaign_infected": campaign.INFECTED,
               "campaign_escalation": campaign.escalation_mod.MODES}
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
            campaign_checks.validate_campaign(self, d)
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


class VirusLabState(SetupRules, StepRules, BossActionRules, BossPlayerRules, SpyRules, ScenarioRules,
                    divided.DividedRules, HiddenInfo, ClockRules, PvpRules, CampaignRules, SkillRules, RealTimeRules,
                    AdvantageRules, EventRules, CombatRules, WoundRules, TileRules, TurnEndRules, LabRules, State):
    """One position of a game of Virus: the setup (`setup.py`), the turn's queue of steps (`steps.py`), the public
    API, the mask and the action dispatch here; the rule families in their mixins."""

    def __init__(self, game: VirusLabGame):
        self.game = self.g = game
        self.n = game.num_players
        self._mask = None

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

