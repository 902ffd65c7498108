"""Virus: the Skills expansion (config `skills`: "none" by default, "draft" = Method 1, "auction" = Method 2).

"Skill expansion ... contains 16 skill cards. Skill cards give players additional powers ... Powers are described
on Skill cards." The rulebook prints no card, so the 16 powers are designed as data (`data/skills.yaml`,
docs/rules/virus_lab.md, Assumptions "Skill cards"); each changes one rule of the base game through a small hook:
a stat (`knowledge` in game.py, `stamina`, `hp_of`), a starting item taken from the game reserve, the Search cost
(`search_cubes`), prices (`_price`), the combat roll (`_throw`), Dodge costs (`_targets`), Turn End resources
(`_start_gain`).

Skill assignment, before the first Real Time phase (PH_SKILL; `slow option i` = the i-th Skill card on the table,
`pass` = pass in the auction):
- "Method 1: Place 2X+1 skill cards on the table, where X is the number of players. The Lead player takes 1 skill,
  with every other player selecting a skill in clockwise order. Each player then takes a second skill card,
  beginning with the last player and returning to the Lead player in counter-clockwise order."
- "Method 2: Place 2X+1 skill cards on the table ... Beginning with the Lead player and going in clockwise order,
  each player places 1 Action cube from his stock on a skill card of his choice or passes. If there are already 1
  or more cubes on the card, the player must place the same quantity +1 and return the current cube(s) to their
  owner. Continue for several rounds until all players pass. Each player takes up to 2 skill cards where his cubes
  are on. Return the cubes to the player reserves."

A mixin of `game.VirusLabState` (before the rule mixins whose hooks it extends); its fields exist only with
skills on (`FIELDS`, `game.extra_fields`).
"""
from __future__ import annotations

import os

from ..core.data import load_yaml
from ..core.validate import check_int, check_ints, check_list, fail
from .actions import A
from .boss_players import seat_slot
from .components import DATA_DIR, TOKENS
from .flow import *  # noqa: F401,F403  (phase and queue codes)

POWERS = ("knowledge", "stamina", "hit_points", "start_bullets", "start_token", "start_tile", "search_cubes",
          "roll_bullet", "roll_cube", "turn_resources", "discount", "dodge")
TILES = ("door", "breach")
METHODS = ("none", "draft", "auction")
NUM_SKILLS = 16
MAX_SKILLS = 2                  # "Each player then takes a second skill card"; "up to 2 skill cards"
FIELDS = ("skills", "sk_table", "sk_bids", "sk_order", "sk_mode", "sk_passes", "sk_box", "sk_keep")
SK_NONE, SK_DRAFT, SK_AUCTION, SK_KEEP = range(4)
MODE_NAMES = ("", "draft", "auction", "keep")
SKILL_F = 4 + NUM_SKILLS * 10


def load_skills(data_dir: str | None):
    """The 16 Skill cards: tuples (name, power, amount, extra, text) with extra the token index or tile name."""
    path = os.path.join(data_dir or DATA_DIR, "skills.yaml")
    if not os.path.exists(path):
        path = os.path.join(DATA_DIR, "skills.yaml")
    name = os.path.basename(path)

    def bad(field, msg):
        return ValueError(f"{name}: field {field!r}: {msg}")

    rows = load_yaml(path).get("skills")
    if not isinstance(rows, list) or len(rows) != NUM_SKILLS:
        raise bad("skills", f"must list the {NUM_SKILLS} Skill cards")
    out, ids = [], set()
    for k, r in enumerate(rows):
        f = f"skills[{k}]"
        if not isinstance(r, dict) or not isinstance(r.get("id"), str) or r["id"] in ids:
            raise bad(f + ".id", "missing or repeated")
        ids.add(r["id"])
        if r.get("power") not in POWERS:
            raise bad(f + ".power", f"must be one of {POWERS}, got {r.get('power')!r}")
        amt = r.get("amount")
        if isinstance(amt, bool) or not isinstance(amt, int) or not 1 <= amt <= 8:
            raise bad(f + ".amount", f"must be an int 1..8, got {amt!r}")
        extra = None
        if r["power"] == "start_token":
            if r.get("token") not in TOKENS:
                raise bad(f + ".token", f"must be one of {TOKENS}")
            extra = TOKENS.index(r["token"])
        elif r["power"] == "start_tile":
            if r.get("tile") not in TILES:
                raise bad(f + ".tile", f"must be one of {TILES}")
            extra = r["tile"]
        elif r["power"] == "search_cubes" and amt > 3:
            raise bad(f + ".amount", "a Search costs at most its 3 Action cubes")
        out.append((str(r.get("name", r["id"])), r["power"], amt, extra, str(r.get("text", ""))))
    return tuple(out)


def configure(g) -> None:
    c = g.config
    g.skill_method = METHODS.index(c["skills"])
    g.skills = g.skill_method > 0 or g.campaign      # "This variant [Campaign] requires the Skills expansion"
    if not g.skills:
        return
    try:
        g.skill_cards = load_skills(c["data_dir"] or None)
    except ValueError as e:
        raise ValueError(f"config key 'data_dir': {e}") from None


class SkillRules:
    """Skill cards: their assignment before the game and their powers."""

    # -- powers ------------------------------------------------------------------------------------
    def _power(self, p, power):
        """Sum of the amounts of p's Skill cards with this power (0 without skills)."""
        if not self.g.skills:
            return 0
        cards = self.g.skill_cards
        return sum(cards[k][2] for k in self.skills[p] if cards[k][1] == power)

    def stat_bonus(self, p, stat):
        """Knowledge, Stamina or Hit points added to p's base value ("knowledge", "stamina", "hit_points")."""
        b = self._power(p, stat)
        return b + self._campaign_bonus(p, stat) if self.g.campaign else b

    def hp_of(self, p):
        return self.g.hp + self.stat_bonus(p, "hit_points")

    def stamina(self, p):
        return super().stamina(p) + self.stat_bonus(p, "stamina")

    def search_cubes(self, p):
        x = self._power(p, "search_cubes")
        return min(x, super().search_cubes(p)) if x else super().search_cubes(p)

    def _price(self, p, i):
        d = self._power(p, "discount")
        return max(1, super()._price(p, i) - d) if d else super()._price(p, i)

    def _throw(self):
        super()._throw()
        p = self.cur
        rr = self.rollres
        for pos, neg, power in ((2, 3, "roll_bullet"), (0, 1, "roll_cube")):
            k = min(self._power(p, power), rr[neg])
            rr[pos] += k
            rr[neg] -= k

    def _targets(self, p):
        out = super()._targets(p)
        d = self._power(p, "dodge")
        if d:
            out = [(cnt, max(1, dc - d) if dc else dc, kc) for cnt, dc, kc in out]
        return out

    def _start_gain(self, p):
        super()._start_gain(p)
        x = self._power(p, "turn_resources")
        if x and self.ph == PH_GAIN and self.cur == p:
            self.gained[p] += x
            self.res[p] = min(RES_CAP, self.res[p] + x)

    def _grant(self, p, k):
        """A starting item of Skill card k, taken from the game reserve (as much as it holds)."""
        _, power, amt, extra, _ = self.g.skill_cards[k]
        if power == "start_bullets":
            x = min(amt, self.bullet_pool)
            self.bullets[p] += x
            self.bullet_pool -= x
        elif power == "start_token":
            x = min(amt, self.tok_pool[extra])
            self.tok[p][extra] += x
            self.tok_pool[extra] -= x
        elif power == "start_tile" and extra == "door":
            x = min(amt, self.door_pool)
            self.t_door[p] += x
            self.door_pool -= x
        elif power == "start_tile":
            x = min(amt, self.breach_pool)
            self.t_breach[p] += x
            self.breach_pool -= x

    def _respawn(self, p, h):
        # "Reset the player's tokens, rooms and cubes as they were at setup, but with the following penalties: Take
        # just 5 bullet cubes": the Skill cards' starting tokens and tiles come back, not their bullets
        super()._respawn(p, h)
        if self.g.skills:
            for k in self.skills[p]:
                if self.g.skill_cards[k][1] != "start_bullets":
                    self._grant(p, k)

    def _take_skill(self, p, i):
        k = self.sk_table[i]
        self.sk_table[i] = -1
        self.skills[p].append(k)
        self._grant(p, k)

    # -- assignment ------------------------------------------------------------------------------------
    def _setup_skills(self, campaign_heroes=None):
        """ "Place 2X+1 skill cards on the table, where X is the number of players" (from the shuffled cards); in a
        campaign game, the Skill cards the Heroes own (campaign.py)."""
        self.skills = [[] for _ in range(self.n)]
        self.sk_mode, self.sk_passes, self.sk_keep, self.sk_order = SK_NONE, 0, [], []
        self.sk_table, self.sk_bids, self.sk_box = [], [], []
        if self.g.campaign:
            self._setup_campaign(campaign_heroes)
            self._campaign_skills(campaign_heroes)
            return
        cards = list(range(NUM_SKILLS))
        self.rng.shuffle(cards)
        k = min(2 * self.g.num_heroes + 1, NUM_SKILLS)     # X: the Heroes (Boss players hold no Skill, boss_players.py)
        self.sk_table, self.sk_box = cards[:k], sorted(cards[k:])
        self.sk_bids = [[-1, 0] for _ in range(k)]

    def _skills_step(self):
        order = [p for p in self._order_from_lead() if p < self.g.num_heroes]     # Boss players take no Skill
        if self.g.skill_method == SK_DRAFT:
            self.sk_mode = SK_DRAFT
            self.sk_order = order + order[::-1]
        else:
            self.sk_mode = SK_AUCTION
            self.cur = self.lead
        self._skill_next(first=True)

    def _can_bid(self, p, i):
        o, c = self.sk_bids[i]
        return self.sk_table[i] >= 0 and o != p and self.stock[p] >= c + 1

    def _skill_next(self, first=False):
        """Ask the next player, or finish the assignment."""
        if self.sk_mode == SK_DRAFT:
            while self.sk_order and not any(k >= 0 for k in self.sk_table):
                self.sk_order.pop(0)
            if self.sk_order:
                self.ph, self.cur = PH_SKILL, self.sk_order[0]
                return
        elif self.sk_mode == SK_AUCTION:
            p = self.cur if first else (self.cur + 1) % self.n
            while self.sk_passes < self.n:
                if any(self._can_bid(p, i) for i in range(len(self.sk_table))):
                    self.ph, self.cur = PH_SKILL, p
                    return
                self.sk_passes += 1             # nothing he can place: he passes
                p = (p + 1) % self.n
            self._auction_end()
            if self.sk_mode == SK_KEEP:
                return
        elif self.sk_mode == SK_KEEP:
            while self.sk_keep:
                p = self.sk_keep[0]
                mine = [i for i, (o, _) in enumerate(self.sk_bids) if o == p and self.sk_table[i] >= 0]
                if len(self.skills[p]) < MAX_SKILLS and len(mine) > MAX_SKILLS - len(self.skills[p]):
                    self.ph, self.cur = PH_SKILL, p
                    return
                if len(self.skills[p]) < MAX_SKILLS:
                    for i in mine:
                        self._take_skill(p, i)
                self.sk_keep.pop(0)
            self._return_bids()
        # the cards nobody took go back to the box
        self.sk_box = sorted(self.sk_box + [k for k in self.sk_table if k >= 0])
        self.sk_table = [-1] * len(self.sk_table)
        self.sk_mode, self.sk_order = SK_NONE, []
        self.ph = PH_NONE

    def _auction_end(self):
        """ "Each player takes up to 2 skill cards where his cubes are on" (his choice when on more)."""
        self.sk_mode = SK_KEEP
        self.sk_keep = [p for p in self._order_from_lead() if any(o == p for o, _ in self.sk_bids)]
        self._skill_next()

    def _return_bids(self):
        """ "Return the cubes to the player reserves." """
        for b in self.sk_bids:
            if b[0] >= 0:
                self.reserve[b[0]] += b[1]
            b[0], b[1] = -1, 0

    def _mask_skill(self, m, p):
        if self.sk_mode == SK_DRAFT:
            for i, k in enumerate(self.sk_table):
                m[A.OPTION + i] = k >= 0
        elif self.sk_mode == SK_AUCTION:
            m[A.PASS] = True
            for i in range(len(self.sk_table)):
                m[A.OPTION + i] = self._can_bid(p, i)
        else:
            for i, (o, _) in enumerate(self.sk_bids):
                m[A.OPTION + i] = o == p and self.sk_table[i] >= 0

    def _apply_skill(self, a, p):
        self.ph = PH_NONE
        if self.sk_mode == SK_DRAFT:
            self._take_skill(p, a - A.OPTION)
            self.sk_order.pop(0)
        elif self.sk_mode == SK_AUCTION:
            if a == A.PASS:
                self.sk_passes += 1
            else:
                # "places 1 Action cube ... If there are already 1 or more cubes on the card, the player must place
                # the same quantity +1 and return the current cube(s) to their owner"
                b = self.sk_bids[a - A.OPTION]
                if b[0] >= 0:
                    self.stock[b[0]] += b[1]
                self.stock[p] -= b[1] + 1
                b[0], b[1] = p, b[1] + 1
                self.sk_passes = 0
        else:
            self._take_skill(p, a - A.OPTION)
        self._skill_next()

    def bid_cubes(self, p):
        """Action cubes p has on Skill cards (in the auction)."""
        return sum(c for o, c in self.sk_bids if o == p) if self.g.skills else 0


# -- observation, view, loader ---------------------------------------------------------------------------
def encode(s, p, out) -> None:
    """The `skills` block: the assignment step (draft, auction, keep) and its seat relative; per Skill card id: on
    the table, held by relative seat (4), cubes on it / 8, their owner by relative seat (4)."""
    n = s.n
    if s.sk_mode and not s.terminal:
        out[s.sk_mode - 1] = 1
        out[3] = s.cur == p
    base = 4
    for i, k in enumerate(s.sk_table):
        if k >= 0:
            j = base + 10 * k
            out[j] = 1
            o, c = s.sk_bids[i]
            if o >= 0 and seat_slot(s, o, p) >= 0:
                out[j + 5] = c / 8
                out[j + 6 + seat_slot(s, o, p)] = 1
    for q in range(n):
        for k in s.skills[q]:
            if seat_slot(s, q, p) >= 0:
                out[base + 10 * k + 1 + seat_slot(s, q, p)] = 1


def view(s) -> dict:
    cards = s.g.skill_cards
    return {"method": METHODS[s.g.skill_method], "step": MODE_NAMES[s.sk_mode],
            "held": [[cards[k][0] for k in s.skills[q]] for q in range(s.n)],
            "table": [cards[k][0] if k >= 0 else None for k in s.sk_table],
            "bids": [list(b) for b in s.sk_bids], "texts": {c[0]: c[4] for c in cards}}


def validate(g, d) -> None:
    env, n = g.env_id, g.num_players
    seen = []
    for q, held in enumerate(check_list(env, "skills", d["skills"], n)):
        check_ints(env, f"skills[{q}]", held, None, 0, NUM_SKILLS - 1)
        if len(held) > MAX_SKILLS and not g.campaign:     # a campaign's Heroes gain up to 2 a game
            raise fail(env, f"skills[{q}]", f"at most {MAX_SKILLS} Skill cards, got {len(held)}")
        seen += held
    table = check_ints(env, "sk_table", d["sk_table"], None, -1, NUM_SKILLS - 1)
    box = check_ints(env, "sk_box", d["sk_box"], None, 0, NUM_SKILLS - 1)
    gone = check_ints(env, "sk_gone", d["sk_gone"], None, 0, NUM_SKILLS - 1) if g.campaign else []
    cards = seen + [k for k in table if k >= 0] + box + gone
    if sorted(cards) != list(range(NUM_SKILLS)):
        raise fail(env, "sk_box", "held + table + box is not each of the 16 Skill cards once")
    bids = check_list(env, "sk_bids", d["sk_bids"], len(table))
    for i, b in enumerate(bids):
        check_ints(env, f"sk_bids[{i}]", b, 2, -1)
        if b[0] >= n or (b[0] < 0) != (b[1] == 0):
            raise fail(env, f"sk_bids[{i}]", f"is not [owner, cubes]: {b!r}")
    check_ints(env, "sk_order", d["sk_order"], None, 0, n - 1)
    check_int(env, "sk_mode", d["sk_mode"], 0, 3)
    check_int(env, "sk_passes", d["sk_passes"], 0, n)
    check_ints(env, "sk_keep", d["sk_keep"], None, 0, n - 1)
