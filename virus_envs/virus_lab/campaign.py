"""Virus: Campaign mode ("CAMPAIGN MODE ... It allows to link a game to the following ones, so that a player will
use the same character in an increasing difficulty games sequence").

Three pieces:
- `CampaignRules` (mixin of `game.VirusLabState`, config `campaign=True`): one game of a campaign. "Base Knowledge
  is 5 instead of 8. Base Stamina is 1 instead of 3. Hit points are 5/4/3 instead of 8/[7/6]", plus the stats the
  Hero bought; his Skill cards; the kills and Boss kills that earn XP; "If a Hero dies, the player must discard all
  Skill cards owned and take an equal number of new Skills (or up to the Skills available)".
- `Campaign`: the engine-level record carried between games (per Hero XP, stats bought, Skill cards; the
  difficulty; the results; the ways chosen to raise the difficulty) with the Pre-Play rules (purchases, the Skill
  auction), the XP of a finished game and the escalation after a won game (the players' choice, `record(game,
  way)` / `escalate`, or a ladder: escalation.py); `to_dict` / `from_dict`.
- `CampaignState`: a whole campaign as one state of `virus_lab_v0` (config `campaign_games=N`): Pre-Play
  decisions, then a game, then the next Pre-Play ..., N games; the PettingZoo env of such a game has a whole
  campaign as its episode.

With Spy Mode and Boss players (assumptions C1-C4 of docs/rules/virus_lab.md): a game's XP reads the sides
(`xp_earned`, `winning_sides`); the escalation's ways (`escalation.ladder`) have "Adding the Spy modality" and "Adding a player which plays
as Boss"; a whole campaign fixes its seats up front, the last `boss_players` reserved for the Boss players, who have
no decision before they join (`CampaignState.in_game`); its return per seat is the mean of its games' returns.

Pre-Play decisions (`slow option i`, the i-th option of the pending choice, listed in the view):
option 0 done; 1 / 2 Knowledge +1 / +2 (2 / 5 XP); 3 / 4 Stamina +1 / +2 (3 / 7 XP); 5 / 6 Hit points +1 / +2
(2 / 5 XP); 7 + k want Skill card k (4 XP for one Skill, 10 for two: the second costs 6). In a Skill auction
option x = a secret bid of x XP. After a won game (`campaign_escalation="choice"`) the Pre-Play opens with the Lead
player's choice of the way to raise the difficulty: option i = `escalation.WAYS[i]`, only the open ways legal.
"""
from __future__ import annotations

import json

import numpy as np

from ..core import ObsLayout, State, derive_seed, make_rng, rng_from_dict, rng_to_dict
from .actions import A, MAX_OPTS
from .flow import PH_GAIN, PH_NONE  # noqa: F401
from .boss_players import seat_slot
from .encoding import advanced_parts
from .skills import MAX_SKILLS, NUM_SKILLS
from . import escalation as escalation_mod
from .escalation import BOSS_STEPS, DIFFICULTY, ESCALATION, LEAD, SPY_STEP, WAYS, extra_config, ladder  # noqa: F401

STATS = ("knowledge", "stamina", "hit_points")
# "Base Knowledge is 5 instead of 8. Base Stamina is 1 instead of 3. Hit points are 5/4/3 instead of 8/4/3 (as
# printed)": the base game's 8/7/6 by difficulty (the printed 8/4/3 is a misprint, assumption 37)
BASE = {"knowledge": 5, "stamina": 1}
BASE_HP = {1: 5, 2: 4, 3: 3}
GAME_BASE = {"knowledge": 8, "stamina": 3}
GAME_HP = {1: 8, 2: 7, 3: 6}
# "Increase Knowledge: +1 point spending 2 XP, +2 points spending 5 XP. Increase Stamina: +1 point spending 3 XP,
# +2 points spending 7 XP. Increase Hit Points: +1 point spending 2 XP, +2 points spending 5 XP."
PRICE = {"knowledge": (2, 5), "stamina": (3, 7), "hit_points": (2, 5)}
SKILL_PRICE = (4, 10)        # "+1 Skill spending 4 XP, +2 Skills spending 10 XP"
START_XP = 10                # "Each Hero starts with 10 Experience Points (XP)"
START_DIFFICULTY = 2         # "Use normal Setup with Difficulty 2"
OPT_DONE, OPT_SKILL = 0, 7
TIE_ROUNDS = 3               # ASSUMPTION: "If there is a tie, repeat the bid" at most 3 times, then chance
# "the next play must be increased in difficulty. You can do that in several ways": escalation.py (the players'
# choice, config `campaign_escalation`, or a ladder)
BOSS_FROM = ("escalation", "start")
SPY_XP = ("zero", "no_bonus")           # the Spy when the Heroes win: 0 XP (literal) / the XP of the other ways
BOSS_XP = ("none", "win")               # a Boss player: no XP (literal) / 3 XP when he wins
INFECTED = ("keep", "reset")            # a Hero turned Boss keeps his record (literal) / a new Hero next game
FIELDS = ("cstats", "kills", "boss_xp", "sk_gone")


def configure(g) -> None:
    """Game set-up (`VirusLabGame._validate_config`): `g.campaign`; a campaign's Skill cards come from XP."""
    c = g.config
    if (c["campaign"] or c["campaign_games"]) and c["skills"] != "none":
        raise ValueError("config key 'skills': a campaign gains Skill cards with XP in its Pre-Play (leave 'none')")
    if c["campaign"] and c["campaign_games"]:
        raise ValueError("config key 'campaign_games': a whole campaign builds its games itself (campaign=False)")
    g.campaign = bool(c["campaign"])
    escalation_mod.configure(g)


def inner_game(g, difficulty, extras=()):
    """A game of the campaign `g` (config `campaign_games`) at a difficulty, with the escalation's elements switched
    on: the same config, `campaign=True`."""
    key = (difficulty, tuple(extras))
    inner = g._inner.get(key)
    if inner is None:
        cfg = dict(g.config, campaign=True, campaign_games=0, campaign_ladder="", difficulty=difficulty,
                   **extra_config(extras))
        # the seats reserved for Boss players (the last ones) play from the game their step is reached (or from the
        # first, `campaign_boss_from="start"`); before that the game has the Hero seats only
        if g.config["campaign_boss_from"] != "start":
            cfg["boss_players"] = extra_config(extras).get("boss_players", 0)
        inner = g._inner[key] = type(g)(num_players=g.num_heroes + cfg["boss_players"], **cfg)
    return inner


def _parts_at(game, start: int) -> list:
    """The `advanced` block's parts of `game` as (name, (begin, end)), the block starting at `start`."""
    out = []
    for name, size in advanced_parts(game):
        out.append((name, (start, start + size)))
        start += size
    return out


def whole_layout(g) -> ObsLayout:
    """A whole campaign's observation: a game's blocks, then the `campaign` block. The game's blocks are those of the
    largest game, every element of the escalation on (the `scenario` block included: zero in a game without a
    Scenario)."""
    inner = g.inner_game(START_DIFFICULTY, g.ladder)       # every element on: the largest actions and blocks
    g.inner_size = inner.layout.size
    g.inner_layout = inner.layout
    g.largest = inner
    g.skill_cards = inner.skill_cards
    g.actions, g.num_actions = inner.actions, inner.num_actions   # the elements' ids come last (`whole_ids`)
    for name in ("ranged_base", "ranged_dmax", "smoke_base", "resol_base", "spy_base", "pvp_base", "boss_base",
                 "take_base", "teleport_base", "drift_base"):
        if hasattr(inner, name):    # the elements' first ids in the whole table (the agents' `g.spy_base` ...)
            setattr(g, name, getattr(inner, name))
    if inner.spy or inner.boss_on:
        g.cooperative = False           # a seat's return is its own (`CampaignState.returns`)
    return ObsLayout(list(inner.layout.fields) + [("campaign", CB)])


def base_delta(stat, level):
    """Campaign base value minus the base game's (added to the stat)."""
    if stat == "hit_points":
        return BASE_HP[level] - GAME_HP[level]
    return BASE[stat] - GAME_BASE[stat]


# ====================================================================================== one game of a campaign
class CampaignRules:
    """The rules of one campaign game (config `campaign=True`)."""

    def _campaign_bonus(self, p, stat):
        return base_delta(stat, self.g.level) + self.cstats[p][STATS.index(stat)]

    def _setup_campaign(self, heroes):
        """The Heroes as the campaign carries them (None: a first play, nothing bought)."""
        n = self.n
        self.cstats = [[0, 0, 0] for _ in range(n)]
        self.kills, self.boss_xp, self.sk_gone = [0] * n, [0] * n, []
        for p, h in enumerate((heroes or [])[:self.g.num_heroes]):     # a Boss player's seat has no Hero
            self.cstats[p] = [h["knowledge"], h["stamina"], h["hit_points"]]

    def _campaign_skills(self, heroes):
        """ "Starting Skills are 0"; later games: the Skill cards each Hero owns (their items from the reserve)."""
        self.sk_table, self.sk_bids = [], []
        owned = set()
        for p, h in enumerate((heroes or [])[:self.g.num_heroes]):
            for k in h["skills"]:
                self.skills[p].append(k)
                self._grant(p, k)
                owned.add(k)
        self.sk_box = [k for k in range(NUM_SKILLS) if k not in owned]

    def _die(self, p):
        super()._die(p)
        if not self.g.campaign or not self.skills[p]:
            return
        # "If a Hero dies, the player must discard all Skill cards owned and take an equal number of new Skills (or
        # up to the Skills available). Discarded Skills will be available again in the following play."
        k = len(self.skills[p])
        self.sk_gone.extend(self.skills[p])
        self.skills[p] = []
        for _ in range(min(k, len(self.sk_box))):
            c = self.sk_box.pop(int(self.rng.integers(len(self.sk_box))))
            self.skills[p].append(c)

    def _apply_spend(self, a, p):
        if self.g.campaign and A.KILL <= a < A.KILL + 9:
            if a - A.KILL == 8:
                self._boss_died(self.pos[p])
            else:
                # "Each player keeps killed creature miniatures near their own player board"
                self.kills[p] += 1
        super()._apply_spend(a, p)

    def _boss_died(self, cell):
        """ "All Heroes, which are in combat in the same room of Boss when the Boss dies, gain 1 [XP]" """
        for h in range(self.n):
            if self.pos[h] == cell and self.alive[h]:
                self.boss_xp[h] += 1

    def explode(self, cell):
        if not self.g.campaign:
            return super().explode(cell)
        placer = self.expl_by[cell]
        b = cell * 9
        before = sum(self.cre[b:b + 8])
        bosses = sum(1 for rec in self.bosses if rec[0] == cell)
        out = super().explode(cell)
        if placer >= 0:
            self.kills[placer] += before - sum(self.cre[b:b + 8])
        for _ in range(bosses - sum(1 for rec in self.bosses if rec[0] == cell)):
            self._boss_died(cell)
        return out

    def xp_earned(self, p):
        """XP of a finished game: "1 XP every 4 killed creatures", "1 XP every killed Boss", "2 XP for surviving
        at game's end", "1 XP if not infected and survived", "3 XP if Heroes win the play"; read by the sides
        (`State.sides()`): "Adding the Spy modality. Note: in this case the spy player gain XP in the same ways of
        other players but can gain the final 3 XP only if he/she wins, otherwise gets 0 XP if Heroes win." (config
        `spy_xp`); "Hero can gain XP by": a Boss player earns none (config `boss_xp`), a Hero turned Boss keeps the
        XP of his kills as a Hero (assumptions C1-C3)."""
        alive = self.alive[p] and not self.truncated
        ways = (self.kills[p] // 4 + self.boss_xp[p] + (2 if alive else 0)
                + (1 if alive and not self._infected(p) else 0))
        sides, wins = self.sides(), winning_sides(self)
        side = sides[p] if sides else "heroes"
        cfg = self.g.config
        if self.g.boss_on and self.bp_seat[p]:
            hero = ways if p < self.g.num_heroes else 0         # an infected Hero's kills before he turned Boss
            return hero + (3 if cfg["boss_xp"] == "win" and side in wins else 0)
        if side == "spy":
            if "spy" in wins:
                return ways + 3
            if "heroes" in wins:
                return 0 if cfg["spy_xp"] == "zero" else ways
            return ways
        return ways + (3 if "heroes" in wins else 0)


def winning_sides(s) -> set:
    """The sides that won a finished game: "heroes" for the normal victory (Spy Mode: when the Spy did not win),
    "spy", a Boss player's side (`boss_players.BossPlayerRules.winning_sides`)."""
    if s.g.boss_on:
        return s.winning_sides()
    if s.g.spy:
        from .spy import winner
        return {winner(s)} - {None}
    return {"heroes"} if s.won else set()


# ====================================================================================== carried between games
def new_hero():
    return {"xp": START_XP, "knowledge": 0, "stamina": 0, "hit_points": 0, "skills": []}


class Campaign:
    """The record a campaign carries from game to game, and its Pre-Play rules.

    heroes[p]: XP, the stats bought (Knowledge, Stamina, Hit points above the campaign base) and the Skill cards
    owned (a record per seat; a seat reserved for a Boss player, the last `boss_seats`, has no Hero: its record
    only counts the XP of `boss_xp="win"`); difficulty of the next game; the escalation: `escalation` ("choice": the
    players choose each time, "ladder": the fixed `order`), the steps the campaign can take (`ladder`) and the ways
    chosen after each won game, in order (`chosen`, "difficulty" included; `extras`: the elements switched on);
    results (True = the Heroes won); per game each seat's XP and return (0 for a seat not yet in play); `pre`: the
    Pre-Play under way (its first step "raise": the Lead player's choice of the way)."""

    def __init__(self, num_players: int, games: int, difficulty: int = START_DIFFICULTY, boss_seats: int = 0,
                 ladder_steps=None, escalation: str = "choice", order=None):
        if escalation not in escalation_mod.MODES:
            raise ValueError(f"Campaign escalation must be one of {escalation_mod.MODES}, got {escalation!r}")
        self.n, self.games, self.difficulty, self.boss_seats = num_players, games, difficulty, boss_seats
        self.ladder = list(ladder(num_players - boss_seats, boss_seats) if ladder_steps is None else ladder_steps)
        self.escalation = escalation
        self.order = [] if escalation == "choice" else list(
            escalation_mod.default_order(difficulty, self.ladder) if order is None else order)
        self.chosen: list = []          # the ways taken after the won games, in order
        self.heroes = [new_hero() for _ in range(num_players)]
        self.results: list = []
        self.xp_log: list = []
        self.returns_log: list = []
        self.pre: dict = {}
        self.start_preplay()

    @property
    def num_heroes(self) -> int:
        return self.n - self.boss_seats

    @property
    def extras(self) -> list:
        """The escalation elements switched on (the ways chosen but the level), in the order chosen."""
        return [w for w in self.chosen if w != DIFFICULTY]

    # -- serialisation ----------------------------------------------------------------------------------
    KEYS = ("n", "games", "difficulty", "boss_seats", "ladder", "escalation", "order", "chosen", "heroes", "results",
            "xp_log", "returns_log", "pre")

    def to_dict(self) -> dict:
        return json.loads(json.dumps({k: getattr(self, k) for k in self.KEYS}))

    @classmethod
    def from_dict(cls, d: dict) -> "Campaign":
        c = cls.__new__(cls)
        d = json.loads(json.dumps(d))
        for k in cls.KEYS:
            setattr(c, k, d[k])
        return c

    # -- "the next play must be increased in difficulty" ----------------------------------------------------
    def ways(self) -> list[str]:
        """The ways the players may choose now (`escalation.open_ways`)."""
        return escalation_mod.open_ways(self.difficulty, self.ladder, self.chosen)

    def escalate(self, way: str) -> None:
        """Make the next play harder by `way` (one of `ways()`; ValueError naming it otherwise, nothing changed)."""
        if way not in self.ways():
            raise ValueError(f"campaign escalation: way {way!r} is not open (open: {self.ways()})")
        if way == DIFFICULTY:
            self.difficulty += 1
        self.chosen.append(way)

    @property
    def over(self) -> bool:
        return len(self.results) >= self.games

    # -- Pre-Play ------------------------------------------------------------------------------------------
    def start_preplay(self, raise_first: bool = False):
        """ "Base starting Stats above, can be permanently modified before each game spending XP." With
        `raise_first` the Pre-Play opens with the Lead player's choice of the way to raise the difficulty."""
        n = self.n
        self.pre = {"step": "raise" if raise_first else "buy", "seat": LEAD if raise_first else 0, "bought": [[0, 0, 0] for _ in range(n)], "spent": [0] * n,
                    "wants": [[] for _ in range(n)], "contest": -1, "bidders": [], "bids": {}, "ties": 0}

    def owned(self):
        return {k for h in self.heroes for k in h["skills"]}

    def options(self, p) -> list[bool]:
        """Legal Pre-Play options of seat p (index = option number)."""
        pre, h = self.pre, self.heroes[p]
        xp = h["xp"] - pre["spent"][p]
        if pre["step"] == "raise":              # option i = escalation.WAYS[i]
            open_ = self.ways()
            return [w in open_ for w in WAYS]
        if pre["step"] == "bid":
            return [x <= xp for x in range(min(xp, MAX_OPTS - 1) + 1)]
        out = [True]
        for i, st in enumerate(STATS):
            # "a player cannot gain more than 2 points in each stat ... in a single Pre-Play": one purchase a stat
            free = pre["bought"][p][i] == 0
            out += [free and xp >= PRICE[st][0], free and xp >= PRICE[st][1]]
        wants = pre["wants"][p]
        cost = SKILL_PRICE[0] if not wants else SKILL_PRICE[1] - SKILL_PRICE[0]
        room = len(wants) < 2 and len(h["skills"]) + len(wants) < NUM_SKILLS and xp >= cost
        taken = self.owned()
        out += [room and k not in taken and k not in wants for k in range(NUM_SKILLS)]
        return out

    def cost_of(self, p, option):
        if 1 <= option < OPT_SKILL:
            return PRICE[STATS[(option - 1) // 2]][(option - 1) % 2]
        return SKILL_PRICE[0] if not self.pre["wants"][p] else SKILL_PRICE[1] - SKILL_PRICE[0]

    def choose(self, p, option, rng) -> None:
        """Apply seat p's Pre-Play option (legal per `options`)."""
        pre = self.pre
        if pre["step"] == "raise":
            self.escalate(WAYS[option])
            pre.update(step="buy", seat=0)
            return
        if pre["step"] == "bid":
            pre["bids"][str(p)] = option
            if len(pre["bids"]) == len(pre["bidders"]):
                self._settle(rng)
            return
        if option == OPT_DONE:
            pre["seat"] += 1
            if pre["seat"] >= self.num_heroes:        # the Boss players' seats have no Hero to improve
                self._next_contest(rng)
            return
        pre["spent"][p] += self.cost_of(p, option)
        if option < OPT_SKILL:
            i = (option - 1) // 2
            pre["bought"][p][i] = 1 + (option - 1) % 2
        else:
            pre["wants"][p].append(option - OPT_SKILL)

    def to_act(self) -> int:
        pre = self.pre
        if pre["step"] == "bid":
            return next(q for q in pre["bidders"] if str(q) not in pre["bids"])
        return pre["seat"]

    def _next_contest(self, rng):
        """ "If more than a player wants to gain the same Skill, make an auction: each player makes a secret bid
        with XP". Uncontested wishes are granted; contested Skills are auctioned one by one (card order)."""
        pre = self.pre
        want = {}
        for q in range(self.n):
            for k in pre["wants"][q]:
                want.setdefault(k, []).append(q)
        contested = sorted(k for k, qs in want.items() if len(qs) > 1 and k > pre["contest"])
        if contested:
            k = contested[0]
            pre.update(step="bid", contest=k, bidders=want[k], bids={}, ties=0)
            return
        for k, qs in want.items():
            if len(qs) == 1 and k not in self.owned():
                self.heroes[qs[0]]["skills"].append(k)
        self._end_preplay()

    def _settle(self, rng):
        """ "If there is a tie, repeat the bid. Only the winning player pays the XP bidded." The losers do not
        gain the Skill and get back its price."""
        pre = self.pre
        bids = {int(q): x for q, x in pre["bids"].items()}
        top = max(bids.values())
        best = [q for q in pre["bidders"] if bids[q] == top]
        if len(best) > 1 and pre["ties"] < TIE_ROUNDS:
            pre.update(bidders=best, bids={}, ties=pre["ties"] + 1)
            return
        win = best[int(rng.integers(len(best)))] if len(best) > 1 else best[0]
        k = pre["contest"]
        pre["spent"][win] += top
        self.heroes[win]["skills"].append(k)
        for q in range(self.n):
            if q != win and k in pre["wants"][q]:
                i = pre["wants"][q].index(k)
                pre["spent"][q] -= SKILL_PRICE[0] if i == 0 else SKILL_PRICE[1] - SKILL_PRICE[0]
                pre["wants"][q].remove(k)
        pre["wants"][win].remove(k)
        pre.update(step="buy", seat=self.num_heroes, bidders=[], bids={}, ties=0)
        self._next_contest(rng)

    def _end_preplay(self):
        pre = self.pre
        for q, h in enumerate(self.heroes):
            h["xp"] -= pre["spent"][q]
            for i, st in enumerate(STATS):
                h[st] += pre["bought"][q][i]
        self.pre = {}

    # -- after a game ----------------------------------------------------------------------------------------
    def record(self, st, way: str | None = None) -> None:
        """XP earned, the Skill cards each Hero ends with; "If the previous game has been won by Heroes, the next
        play must be increased in difficulty. You can do that in several ways": with `escalation="ladder"` the next
        step of `order`; with `"choice"` the `way` given (one of `ways()`), or, None, the next Pre-Play opens with
        the Lead player's choice (`pre["step"] == "raise"`; none when no way is open, or after the last game).
        A seat not in the game `st` (a Boss player not yet joined) earns nothing, returns 0. A bad `way` raises
        ValueError before anything is recorded."""
        heroes_won = "heroes" in winning_sides(st)
        if way is not None:
            if self.escalation != "choice":
                raise ValueError(f"campaign escalation: way {way!r} given, but the campaign climbs its ladder")
            if not heroes_won:
                raise ValueError(f"campaign escalation: way {way!r} given after a game the Heroes did not win")
            if way not in self.ways():
                raise ValueError(f"campaign escalation: way {way!r} is not open (open: {self.ways()})")
        m = st.n
        earned = [st.xp_earned(p) for p in range(m)] + [0] * (self.n - m)
        ret = [float(x) for x in st.returns()] + [0.0] * (self.n - m)
        for p, h in enumerate(self.heroes):
            h["xp"] += earned[p]
            if p < m:
                h["skills"] = list(st.skills[p])
            if (p < m and st.g.boss_on and st.bp_seat[p] and p < st.g.num_heroes
                    and st.g.config["campaign_infected"] == "reset"):
                self.heroes[p] = new_hero()     # the infected Hero is lost: a new character next game (C3)
        self.xp_log.append(earned)
        self.returns_log.append(ret)
        self.results.append(heroes_won)
        ask = False
        if heroes_won:
            if self.escalation == "ladder":
                rung = escalation_mod.next_rung(self.order, self.chosen)
                if rung is not None:
                    self.escalate(rung)
            elif way is not None:
                self.escalate(way)
            else:
                ask = not self.over and bool(self.ways())
        if not self.over:
            self.start_preplay(raise_first=ask)


# ====================================================================================== a campaign as one state
CB = 2 + 3 + 3 + 1 + 4 * 44 + NUM_SKILLS + 1 + len(ESCALATION) + 1


def whole_ids(g, ig):
    """The ids of the game `ig` of the whole campaign `g` in the whole campaign's table (that of its largest game):
    each id goes to the id of its name (the ways can switch elements on in any order, so a game's elements need
    not be a prefix of the largest table). (inner -> whole array, whole -> inner array with -1 for an id the game
    has not, True when the game's table is a prefix.)"""
    ids = getattr(ig, "_whole_ids", None)
    if ids is None:
        pos = {name: i for i, name in enumerate(g.actions.names)}
        to_whole = np.array([pos[name] for name in ig.actions.names], dtype=np.int64)
        to_inner = np.full(g.num_actions, -1, dtype=np.int64)
        to_inner[to_whole] = np.arange(len(to_whole))
        ids = ig._whole_ids = (to_whole, to_inner, bool(np.array_equal(to_whole, np.arange(len(to_whole)))))
    return ids


class CampaignState(State):
    """A whole campaign (config `campaign_games=N`): Pre-Play, game, Pre-Play, ... N games."""

    def __init__(self, game, camp: Campaign, inner, rng):
        self.game = self.g = game
        self.n = game.num_players
        self.camp, self.inner, self.rng = camp, inner, rng
        self._mask = None
        self.truncated = False

    @classmethod
    def start(cls, game, seed):
        """A new campaign: its first Pre-Play."""
        b = game.config["boss_players"] if game.config["campaign_boss_from"] != "start" else 0
        c = Campaign(game.num_players, game.config["campaign_games"], game.config["difficulty"], b, game.ladder,
                     game.escalation, game.order)
        return cls(game, c, None, make_rng(seed))

    @classmethod
    def from_dict(cls, game, d):
        c = Campaign.from_dict(d["campaign"])
        inner = game.inner_game(c.difficulty, c.extras).state_from_dict(d["inner"]) if d["inner"] is not None \
            else None
        s = cls(game, c, inner, rng_from_dict(d["rng"]))
        s.truncated = bool(d["truncated"])
        return s

    # -- flow --------------------------------------------------------------------------------------------
    def _start_game(self):
        g = self.g.inner_game(self.camp.difficulty, self.camp.extras)
        self.inner = g.new_initial_state(seed=derive_seed(self.rng), campaign_heroes=self.camp.heroes[:g.num_heroes])

    def in_game(self, p) -> bool:
        """Seat p plays the game under way (a seat reserved for a Boss player who has not joined yet does not: it
        has no decision, and sees only the campaign record)."""
        return self.inner is not None and p < self.inner.n

    def current_player(self) -> int:
        if self.is_terminal():
            return -1
        return self.inner.current_player() if self.inner is not None else self.camp.to_act()

    def phase(self) -> str:
        if self.is_terminal():
            return "game over"
        if self.inner is not None:
            return self.inner.phase()
        return {"bid": "campaign: Skill auction, secret bid",
                "raise": "campaign: raise the difficulty"}.get(self.camp.pre["step"], "campaign: Pre-Play")

    def is_terminal(self) -> bool:
        return self.truncated or self.camp.over

    def is_truncated(self) -> bool:
        return self.truncated

    def _compute_mask(self) -> np.ndarray:
        m = np.zeros(self.game.num_actions, dtype=bool)
        if self.inner is not None:
            im = self.inner.legal_action_mask()
            to_whole, _, prefix = whole_ids(self.g, self.inner.g)
            if prefix:
                m[:len(im)] = im
            else:
                m[to_whole] = im
            return m
        ok = self.camp.options(self.camp.to_act())
        m[A.OPTION:A.OPTION + len(ok)] = ok
        return m

    def _apply(self, a: int) -> None:
        if self.inner is None:
            self.camp.choose(self.camp.to_act(), a - A.OPTION, self.rng)
            if not self.camp.pre:
                self._start_game()
            return
        self.inner.apply_action(int(whole_ids(self.g, self.inner.g)[1][a]))
        if self.inner.is_terminal():
            if self.inner.is_truncated():
                self.truncated = True
                return
            self.camp.record(self.inner)
            self.inner = None

    def returns(self) -> np.ndarray:
        """At the end of the campaign, each seat's mean return over the games (0 for a game it was not in): without
        Spy and Boss players 2 x (games won / games) - 1 to every seat."""
        if not self.is_terminal() or self.truncated:
            return np.zeros(self.n)
        return np.array(self.camp.returns_log, dtype=float).sum(axis=0) / len(self.camp.results)

    def scores(self) -> np.ndarray:
        """Games each seat's side won (without Spy and Boss players: the games won, for every seat)."""
        return np.array([float(sum(1 for r in self.camp.returns_log if r[p] > 0)) for p in range(self.n)])

    def info(self) -> dict:
        out = self.inner.info() if self.inner is not None else {}
        return dict(out, campaign={"games": len(self.camp.results), "won": sum(self.camp.results)})

    # -- what a seat sees --------------------------------------------------------------------------------------
    def _camp_view(self, p):
        c, pre = self.camp, self.camp.pre
        out = {"games": c.games, "played": len(c.results), "results": list(c.results), "difficulty": c.difficulty,
               "escalation": list(c.extras), "chosen": list(c.chosen),
               # the Lead player's choice (option i = escalation.WAYS[i]): the ways open
               "ways": c.ways() if pre and pre["step"] == "raise" else [],
               "heroes": json.loads(json.dumps(c.heroes)), "xp_log": json.loads(json.dumps(c.xp_log)),
               "step": pre.get("step", "game") if pre else "game"}
        if pre:
            out.update(bought=json.loads(json.dumps(pre["bought"])), spent=list(pre["spent"]),
                       wants=json.loads(json.dumps(pre["wants"])), contest=pre["contest"],
                       bidders=list(pre["bidders"]),
                       # the bids are secret until settled: only p's own, and who has bid
                       my_bid=pre["bids"].get(str(p)), bid_placed=sorted(int(q) for q in pre["bids"]))
        return out

    def view(self, p: int) -> dict:
        base = self.inner.view(p) if self.in_game(p) else {
            "seat": p, "phase": self.phase(), "to_act": self.current_player(), "in_game": False}
        return dict(base, campaign=self._camp_view(p))

    def observation(self, p: int) -> np.ndarray:
        g = self.g
        v = np.zeros(g.observation_shape, dtype=np.float32)
        k = g.inner_size
        if self.in_game(p):
            # each block of the game at its place in the largest game's layout (a game without the escalation's
            # special contents has a shorter `advanced` block, the same prefix)
            obs, full = self.inner.observation(p), g.inner_layout.slices
            for name, sl in self.inner.g.layout.slices.items():
                if name == "advanced":  # its parts by name too: a config may have some special rooms on already
                    dst = dict(_parts_at(g.largest, full[name].start))
                    for part, (a, b) in _parts_at(self.inner.g, sl.start):
                        v[dst[part][0]:dst[part][0] + b - a] = obs[a:b]
                else:
                    v[full[name].start:full[name].start + sl.stop - sl.start] = obs[sl]
        o = v[k:]
        c, pre, n = self.camp, self.camp.pre, self.n
        o[0], o[1] = len(c.results) / max(1, c.games), c.games / 10
        o[2 + c.difficulty - 1] = 1
        step = pre["step"] if pre else "game"
        if step != "raise":         # the raise step has its own flag, after the escalation's
            o[5 + ("game", "buy", "bid").index(step)] = 1
        o[8] = self.current_player() == p
        for q in range(n):
            if seat_slot(self, q, p) < 0:
                continue                # a Boss player's seat: no Hero record (his XP is in the view)
            j = 9 + 44 * seat_slot(self, q, p)
            h = c.heroes[q]
            o[j:j + 4] = [h["xp"] / 30, h["knowledge"] / 6, h["stamina"] / 6, h["hit_points"] / 6]
            for s_ in h["skills"]:
                o[j + 4 + s_] = 1
            if pre:
                for s_ in pre["wants"][q]:
                    o[j + 20 + s_] = 1
                o[j + 36:j + 39] = [x / 2 for x in pre["bought"][q]]
                o[j + 39] = len(pre["wants"][q]) / 2
                o[j + 40] = str(q) in pre["bids"]
                o[j + 41] = pre["spent"][q] / 30
        j = 9 + 4 * 44
        if pre and pre["contest"] >= 0 and pre["step"] == "bid":
            o[j + pre["contest"]] = 1
        if pre and str(p) in pre["bids"]:
            o[j + NUM_SKILLS] = pre["bids"][str(p)] / 30
        for e in c.extras:
            o[j + NUM_SKILLS + 1 + ESCALATION.index(e)] = 1
        o[j + NUM_SKILLS + 1 + len(ESCALATION)] = bool(pre) and pre["step"] == "raise"
        np.clip(v, 0.0, 1.0, out=v)
        return v

    def render_for(self, p: int) -> str:
        if self.in_game(p):
            return self.inner.render_for(p)
        # the record only (the game's full text, hidden cards included, is not for a seat)
        return f"{self.render().splitlines()[0]}\n{self.phase()}\n{json.dumps(self._camp_view(p))}"

    def picture(self, p: int | None = None) -> str:
        """The table of the game under way (a Pre-Play, or a seat not yet in play, has no table: a text card of the
        campaign record)."""
        if self.inner is not None and (p is None or self.in_game(p)):
            return self.inner.picture(p)
        text = self.render().splitlines()[0].replace("&", "and").replace("<", "(")
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="40">'
                f'<text x="8" y="24" font-family="sans-serif" font-size="14">{text}</text></svg>')

    def render(self) -> str:
        c = self.camp
        head = (f"Campaign: game {len(c.results) + (1 if self.inner is not None else 0)}/{c.games}, difficulty "
                f"{c.difficulty}, won {sum(c.results)}; XP {[h['xp'] for h in c.heroes]}")
        return head + ("\n" + self.inner.render() if self.inner is not None else f"\n{self.phase()}")

    # -- information sets --------------------------------------------------------------------------------------
    def _bids_hidden(self, p):
        pre = self.camp.pre
        return [q for q in map(int, pre.get("bids", {})) if q != p]

    def hidden_facts(self, p: int) -> dict:
        if self.inner is not None:
            return self.inner.hidden_facts(self._watcher(p))
        out = super().hidden_facts(p)
        hid = self._bids_hidden(p)
        if hid and any(self.camp.heroes[q]["xp"] - self.camp.pre["spent"][q] > 0 for q in hid):
            out["campaign bids"] = {str(q): self.camp.pre["bids"][str(q)] for q in hid}
        return out

    def _watcher(self, p):
        """The game seat whose information a seat determinizes with: its own; for a seat not yet in play (which
        sees none of the game and never decides in it) the first seat's, a subset of what it leaves open."""
        return p if self.in_game(p) else 0

    def _determinize(self, p, rng):
        s = self.clone()
        if s.inner is not None:
            s.inner = self.inner.determinize(self._watcher(p), rng)
            return s
        # the other bidders' secret bids: any amount they could have bid
        pre = s.camp.pre
        for q in self._bids_hidden(p):
            top = min(s.camp.heroes[q]["xp"] - pre["spent"][q], MAX_OPTS - 1)
            pre["bids"][str(q)] = int(rng.integers(top + 1))
        return s

    def _set_rng(self, rng) -> None:
        self.rng = rng
        if self.inner is not None:
            self.inner._set_rng(make_rng(derive_seed(rng)))

    def clone(self) -> "CampaignState":
        s = CampaignState(self.g, Campaign.from_dict(self.camp.to_dict()),
                          self.inner.clone() if self.inner is not None else None,
                          rng_from_dict(rng_to_dict(self.rng)))
        s.truncated = self.truncated
        return s

    def to_dict(self) -> dict:
        return {"env_id": self.g.env_id, "num_players": self.n, "campaign": self.camp.to_dict(),
                "inner": self.inner.to_dict() if self.inner is not None else None,
                "truncated": self.truncated, "rng": rng_to_dict(self.rng)}


__all__ = ["Campaign", "CampaignRules", "CampaignState", "MAX_SKILLS"]
