"""Advanced Combat, multi-player combat: divided (config `advanced_combat="divided"`, or `"full"` with the ranged
attack).

"If more than 1 Hero is fighting in the same room, each player takes an equal number of Creatures and performs a
normal combat only against his own Creatures. If Creature number is not divisible, some Heroes may face 1 more
Creature than other Heroes, but no more than 1. A player can choose to take more Creatures than normal if all
players involved in the combat agree. In that case there is a penalty to apply; each additional Creature forces
the player to discard 1 positive cube on combat roll. ... The other player, with zero opponents, will be
considered out of combat and will be able to take any action, including a ranged attack."

The split (`shares`): when a room holds Creatures and 2 or more Heroes, its Creatures are dealt one at a time,
strongest first (Bosses, then Leaders, then the other Creatures, by kind), to its Heroes in turn order from the
Lead player (a documented default: who takes which Creature is not a rule; assumption 47). A split is stored
(`share[p] = [room, 9 counts, extra]`) only once it changes by the players' doing: a kill takes the Creature out
of its owner's share, and "take <creature> from the other Heroes" moves one Creature to the asking Hero when every
other Hero of the room agrees (`agree` / `refuse`, asked one at a time in turn order: phase PH_AGREE); a Creature
taken beyond the equal share (more than ceil(Creatures / Heroes)) adds 1 to the taker's `extra`, the positive
cubes removed from each of his combat rolls against his Creatures this turn (as the ranged attack's penalty:
`ranged.penalty`, the player's best choice). A stored split that no longer matches the room (a Hero came or left,
a Creature died otherwise than by a roll) gives way to a new deal; every split ends with the Real Time phase.

Attacking together in a divided room: the Heroes who roll together fight the union of their Creatures ("attack
the same target together"); a Hero without Creatures is out of combat and joins no such roll. A ranged attack
into a divided room (or at distance 0, `ranged attack here (distance 0)`, from a Hero with zero opponents) aims at
the whole room; a kill takes the Creature from the share of a Hero of the room holding one (turn order).
"""
from __future__ import annotations

from . import creatures as CR
from .components import CREATURE_NAMES
from .flow import PH_AGREE, PH_NONE, RET_RT

NK = CR.NK
BOSS = CR.BOSS
FIELDS = ("share", "agree", "refused")
TARGETS = CREATURE_NAMES + ("boss",)
OBS = 4 * 11 + 4 + NK + 4


def add_actions(t, ranged, dmax):
    """`take <creature> from the other heroes` (9), `agree: give the creature`, `refuse`, and with the ranged
    attack (`advanced_combat="full"`) `ranged attack here (distance 0)` and `ranged attack together <side> distance
    <k>` (k = 1 .. dmax), appended at the end of the action table (ranged.action_table)."""
    for k, name in enumerate(TARGETS):
        t.add(f"take {name} from the other heroes", ("take", k))
    t.add("agree: give the creature", ("agree",))
    t.add("refuse: keep the creatures", ("refuse",))
    if ranged:
        t.add("ranged attack here (distance 0)", ("ranged", -1, 0))
        for d in range(4):
            for k in range(1, dmax + 1):
                t.add(f"ranged attack together {'NESW'[d]} distance {k}", ("ranged", d, k, "together"))


def room_heroes(s, cell):
    return [q for q in range(s.n) if s.pos[q] == cell and s.alive[q]]


def _by_turn(s, hs):
    return sorted(hs, key=lambda q: (q - s.lead) % s.n)


def deal(s, cell, hs):
    """The default equal split: one Creature at a time, strongest first, to each Hero in turn from the Lead."""
    order = _by_turn(s, hs)
    out = {q: [0] * NK for q in hs}
    i = 0
    b = cell * NK
    for k in range(NK - 1, -1, -1):
        for _ in range(s.cre[b + k]):
            out[order[i % len(order)]][k] += 1
            i += 1
    return out


def _stored(s, cell, hs):
    st = s.share
    if not all(st[q] and st[q][0] == cell for q in hs):
        return False
    b = cell * NK
    return all(sum(st[q][1 + k] for q in hs) == s.cre[b + k] for k in range(NK))


def shares(s, cell):
    """{Hero: Creatures per kind} of the divided combat in `cell`, or None (fewer than 2 Heroes, no Creatures)."""
    if cell < 0 or not CR.has_creatures(s, cell):
        return None
    hs = room_heroes(s, cell)
    if len(hs) < 2:
        return None
    if _stored(s, cell, hs):
        return {q: s.share[q][1:1 + NK] for q in hs}
    return deal(s, cell, hs)


def extra(s, p):
    """Positive cubes p discards on each of his rolls: the Creatures he took beyond the equal share."""
    cell = s.pos[p]
    if s.share[p] and CR.has_creatures(s, cell):
        hs = room_heroes(s, cell)
        if len(hs) >= 2 and _stored(s, cell, hs):
            return s.share[p][1 + NK]
    return 0


def materialize(s, cell):
    """Store the room's split before the players change it."""
    sh = shares(s, cell)
    if sh is None:
        return None
    for q, cnt in sh.items():
        if not (s.share[q] and s.share[q][0] == cell and s.share[q][1:1 + NK] == cnt):
            s.share[q] = [cell] + list(cnt) + [0]
    return sh


def penalty(s, res):
    """ "each additional Creature forces the player to discard 1 positive cube on combat roll" """
    k = extra(s, s.cur)
    if k:
        from .ranged import penalty as remove
        remove(res, k - 1)          # removes k cubes (the ranged penalty removes distance + 1)


class DividedRules:
    """The divided multi-player combat: who fights which Creatures of a room."""

    def _facing(self, p, cell):
        """Creatures per kind p fights in `cell` (with his partners when they attack together)."""
        b = cell * NK
        if not self.g.divided or self.ranged:
            return self.cre[b:b + NK]
        sh = shares(self, cell)
        if sh is None or p not in sh:
            return self.cre[b:b + NK]
        team = self.team if self.team and p in self.team else [p]
        return [sum(sh[q][k] for q in team if q in sh) for k in range(NK)]

    def _facing_bosses(self, p, cell):
        """Indices in `bosses` of the Bosses p fights in `cell`: a Hero's Bosses are the next ones of the room's
        list, Heroes taken by seat."""
        bl = [i for i, rec in enumerate(self.bosses) if rec[0] == cell]
        if not self.g.divided or self.ranged or len(bl) == 0:
            return bl
        sh = shares(self, cell)
        if sh is None or p not in sh:
            return bl
        team = self.team if self.team and p in self.team else [p]
        out, off = [], 0
        for q in sorted(sh):
            if q in team:
                out += bl[off:off + sh[q][BOSS]]
            off += sh[q][BOSS]
        return out

    def in_combat(self, p):
        """ "The other player, with zero opponents, will be considered out of combat" """
        c = self.pos[p]
        if c < 0 or not CR.has_creatures(self, c):
            return False
        if self.g.divided:
            sh = shares(self, c)
            if sh is not None and p in sh:
                return any(sh[p])
        return True

    def _start_rt(self):
        super()._start_rt()
        if self.g.divided:          # every split ends with the Real Time phase
            self.share = [[] for _ in range(self.n)]
            self.agree = []
            self.refused = [False] * self.n

    def _on_kill(self, p, cell, k, boss_i=-1):
        """A Creature of kind k (Boss: index boss_i of `bosses`) of `cell` is about to die: out of its owner's
        share."""
        if not self.g.divided:
            return
        sh = materialize(self, cell)
        if sh is None:
            return
        hs = sorted(sh)
        if k == BOSS:
            bl = [i for i, rec in enumerate(self.bosses) if rec[0] == cell]
            pos, off = bl.index(boss_i), 0
            for q in hs:
                if off <= pos < off + sh[q][BOSS]:
                    self.share[q][1 + BOSS] -= 1
                    return
                off += sh[q][BOSS]
            return
        fighters = hs if self.ranged else (self.team if self.team and p in self.team else [p])
        cands = [q for q in _by_turn(self, hs) if q in fighters and sh[q][k] > 0] or \
                [q for q in _by_turn(self, hs) if sh[q][k] > 0]
        own = [q for q in cands if sh[q][k] > self.dodged[q][k]]
        self.share[(own or cands)[0]][1 + k] -= 1

    # -- taking more Creatures, with everybody's agreement -------------------------------------------------
    def _mask_take(self, m, p):
        g = self.g
        cell = self.pos[p]
        if self.refused[p] or cell in self.smoked or self._countered_here(p):
            return
        sh = shares(self, cell)
        if sh is None:
            return
        for k in range(NK):
            if any(sh[q][k] > self.dodged[q][k] for q in sh if q != p):
                m[g.take_base + k] = True

    def _take_request(self, a, p):
        """ "A player can choose to take more Creatures than normal if all players involved in the combat agree":
        the other Heroes of the room are asked one at a time, in turn order."""
        k = self.g.actions.payloads[a][1]
        others = [q for q in _by_turn(self, room_heroes(self, self.pos[p])) if q != p]
        self.agree = [p, k] + others
        self.ph, self.cur = PH_AGREE, others[0]
        return True

    def _mask_agree(self, m, p):
        m[self.g.take_base + NK] = m[self.g.take_base + NK + 1] = True

    def _apply_agree(self, a, p):
        taker, k = self.agree[0], self.agree[1]
        if a == self.g.take_base + NK:           # agree
            del self.agree[2]
            if len(self.agree) > 2:
                self.cur = self.agree[2]
                return
            cell = self.pos[taker]
            sh = materialize(self, cell)
            donor = next(q for q in _by_turn(self, sh) if q != taker and sh[q][k] > self.dodged[q][k])
            self.share[donor][1 + k] -= 1
            self.share[taker][1 + k] += 1
            total, hs = sum(self.cre[cell * NK:(cell + 1) * NK]), len(sh)
            if sum(self.share[taker][1:1 + NK]) > -(-total // hs):
                self.share[taker][1 + NK] += 1      # "each additional Creature ... 1 positive cube"
        else:
            self.refused[taker] = True               # no second request this turn
        self.agree = []
        self.ph = PH_NONE
        self.ret = RET_RT
        self._resume()


def view(s):
    return {"divided_shares": [list(s.share[q]) for q in range(s.n)], "divided_request": list(s.agree),
            "divided_refused": list(s.refused)}


def encode(s, p, out):
    """Per relative seat: the Creatures he fights per kind / 7, his penalty cubes / 7, out of combat with zero
    opponents; the pending request: the asking Hero (relative seat), the kind; who was refused this turn."""
    from .boss_players import seat_slot     # the Hero slot (0-3) of a seat, Boss players' seats (5-6) left out
    n = s.n
    rooms = {s.pos[q] for q in range(n) if s.pos[q] >= 0}
    for cell in rooms:
        sh = shares(s, cell)
        if sh is None:
            continue
        for q, cnt in sh.items():
            r = seat_slot(s, q, p)
            if r < 0:
                continue
            for k in range(NK):
                out[r * 11 + k] = cnt[k] / 7
            out[r * 11 + 9] = extra(s, q) / 7
            out[r * 11 + 10] = 0.0 if any(cnt) else 1.0
    i = 44
    if s.agree and seat_slot(s, s.agree[0], p) >= 0:
        out[i + seat_slot(s, s.agree[0], p)] = 1
        out[i + 4 + s.agree[1]] = 1
    for q in range(n):
        if seat_slot(s, q, p) >= 0:
            out[i + 4 + NK + seat_slot(s, q, p)] = 1 if s.refused[q] else 0


def validate(g, d):
    """`share`, `agree`, `refused` of a state dict (`checks.validate_dict`)."""
    from ..core.validate import check_ints, check_list, fail
    env, n, N = g.env_id, g.num_players, g.geo.ncells
    sh = check_list(env, "share", d["share"], n)
    for q, x in enumerate(sh):
        v = check_ints(env, "share", x, None, 0)
        if v and (len(v) != 2 + NK or v[0] >= N or max(v[1:]) > 7):
            raise fail(env, "share", f"seat {q}: must be [] or [room, 9 Creature counts, extra cubes]")
    ag = check_ints(env, "agree", d["agree"], None, 0)
    if ag and (len(ag) < 3 or ag[0] >= n or ag[1] >= NK or any(q >= n or q == ag[0] for q in ag[2:])):
        raise fail(env, "agree", "must be [] or [taker, kind, seats still to ask...]")
    if bool(ag) != (d["ph"] == PH_AGREE):
        raise fail(env, "agree", "a request is pending exactly while the phase asks for an agreement")
    check_list(env, "refused", d["refused"], n)
    if any(not isinstance(x, bool) for x in d["refused"]):
        raise fail(env, "refused", "must hold booleans")
