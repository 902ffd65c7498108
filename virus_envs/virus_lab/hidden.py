"""Virus: what each seat knows, and `determinize` (resample everything else).

Public, kept: everything on the table; the top card of the Room deck ("with the 'normal room' side face up");
the back (red heart or not) of the top Wound card and of every Wound card drawn since (each was on top of the
deck once); the cards returned to the bottom of a deck in everybody's sight (Room and Clue cards, Wound cards
with their back, and their face when they were face up), which stay there; the cards of a dead Hero's wounds
(checked when he dies) and every wound at the end of the game; Boss cards once met.
Known to one seat only: the Event the Lead player "draws ... and secretly reads", and the Event cards a Lead
returned to the bottom of the deck.
Hidden from everybody, resampled: the order of the decks under what is known, the Room cards removed at setup
with 1-3 Heroes, the faces of face-down wounds (within their known backs), unrevealed Boss cards (the deck, the
Bosses on the map, those that left it unmet, the other Boss players' hands), future chance (core).

A mixin of `game.VirusLabState`; docs/rules/virus_lab.md "Hidden information" lists the components by name.
"""
from __future__ import annotations


def _arrangements(a, b):
    """a!/(a-b)!: the ways to put b of a distinct cards in b places (1 when b = 0)."""
    out = 1
    for i in range(b):
        out *= a - i
    return out


class HiddenInfo:
    """Who knows which card: the view's public deck knowledge, `_determinize` and `hidden_facts`."""

    # -- what is known ------------------------------------------------------------------------
    def event_secret(self, p):
        """The Event drawn this turn is still in the Lead player's hand and p is not the Lead."""
        return self.event >= 0 and p != self.lead and (not self.event_pile or self.event_pile[-1] != self.event)

    def wounds_revealed(self, q):
        """ "Wound cards are checked at game end or when the player dies" """
        return self.terminal or not self.alive[q]

    def _room_slots(self):
        """Room deck places nobody knows: under the public top card, above the cards returned to the bottom."""
        return range(self.room_known, len(self.room_deck) - 1)

    def _event_slots(self, p):
        known = self.event_known
        return [i for i in range(len(self.event_deck)) if not (i < len(known) and known[i] == p)]

    def _wound_slots(self):
        """Places of Wound cards whose face nobody knows, as (where, index, heart back or None):
        ('deck', i) a place in the deck, ('hand', q, j) a face-down wound of a living Hero."""
        comp = self.g.comp
        deck, known = self.wound_deck, self.wound_known
        out = []
        for i, c in enumerate(deck):
            if i < len(known):
                if not known[i]:                    # face unknown, back seen
                    out.append((("deck", i), comp.wound_heart[c]))
            elif i == len(deck) - 1:                # the top card's back is public
                out.append((("deck", i), comp.wound_heart[c]))
            else:
                out.append((("deck", i), None))
        for q in range(self.n):
            if self.wounds_revealed(q):
                continue
            for j, w in enumerate(self.wounds[q]):
                if w[1] and w[0] >= 0:
                    out.append((("hand", q, j), comp.wound_heart[w[0]]))
        return out

    def _wound_card(self, where):
        return self.wound_deck[where[1]] if where[0] == "deck" else self.wounds[where[1]][where[2]][0]

    def _hidden_bosses(self):
        """Indices of the Bosses on the map nobody has met, and of the Bosses gone unmet."""
        return ([i for i in range(len(self.bosses)) if i not in self.boss_seen],
                [i for i, b in enumerate(self.boss_gone) if not b[1]])

    def _hidden_hands(self, p):
        """(seat, index) of the Boss cards in the other Boss players' hands that p cannot know ("keeping them secret
        from the other players"; a card taken back face up by a deactivation is known)."""
        if not self.g.boss_on:
            return []
        return [(q, j) for q in range(self.n) if q != p for j, c in enumerate(self.bp_hand[q]) if not c[1]]

    # -- determinize ---------------------------------------------------------------------------
    def _determinize(self, p: int, rng):
        """A copy with every card p cannot know resampled, what p knows kept (module docstring)."""
        s = self.clone()
        comp = self.g.comp
        # Room deck and the cards removed at setup
        slots = s._room_slots()
        if len(slots):
            pool = [s.room_deck[i] for i in slots] + s.room_out
            rng.shuffle(pool)
            for i, c in zip(slots, pool):
                s.room_deck[i] = c
            s.room_out = sorted(pool[len(slots):])
        # Event deck, and the Event being read when p is not the Lead
        slots = s._event_slots(p)
        secret = s.event_secret(p)
        pool = [s.event_deck[i] for i in slots] + ([s.event] if secret else [])
        rng.shuffle(pool)
        for i, c in zip(slots, pool):
            s.event_deck[i] = c
        if secret:
            s.event = pool[-1]
        # Clue deck under nothing known but the cards returned to its bottom
        rest = s.clue_deck[s.clue_known:]
        rng.shuffle(rest)
        s.clue_deck[s.clue_known:] = rest
        # Wound cards: faces resampled within their known backs
        places = s._wound_slots()
        pool = [s._wound_card(w) for w, _ in places]
        rng.shuffle(pool)
        hearts = [c for c in pool if comp.wound_heart[c]]
        plain = [c for c in pool if not comp.wound_heart[c]]
        chosen = []
        for _, back in places:
            chosen.append(None if back is None else hearts.pop() if back else plain.pop())
        free = hearts + plain
        rng.shuffle(free)
        for (w, _), c in zip(places, chosen):
            c = free.pop() if c is None else c
            if w[0] == "deck":
                s.wound_deck[w[1]] = c
            else:
                s.wounds[w[1]][w[2]][0] = c
        # Boss cards nobody has seen
        on_map, gone = s._hidden_bosses()
        hands = s._hidden_hands(p)
        pool = s.boss_deck + [s.bosses[i][2] for i in on_map] + [s.boss_gone[i][0] for i in gone] + [
            s.bp_hand[q][j][0] for q, j in hands]
        rng.shuffle(pool)
        nd = len(s.boss_deck)
        s.boss_deck = pool[:nd]
        for k, i in enumerate(on_map):
            s.bosses[i][2] = pool[nd + k]
        for k, i in enumerate(gone):
            s.boss_gone[i][0] = pool[nd + len(on_map) + k]
        for k, (q, j) in enumerate(hands):
            s.bp_hand[q][j][0] = pool[nd + len(on_map) + len(gone) + k]
        return s

    # -- hidden facts --------------------------------------------------------------------------
    def hidden_facts(self, p: int) -> dict:
        """The components of docs/rules/virus_lab.md "Hidden information" that view(p) leaves open."""
        facts = super().hidden_facts(p)
        comp = self.g.comp
        slots = self._room_slots()
        if len(slots) and len(slots) + len(self.room_out) >= 2:
            facts["room deck"] = [self.room_deck[i] for i in slots] + [-1] + sorted(self.room_out)
        slots = self._event_slots(p)
        cards = [self.event_deck[i] for i in slots] + ([self.event] if self.event_secret(p) else [])
        if len(cards) >= 2:
            facts["event deck"] = cards
        if len(self.clue_deck) - self.clue_known >= 2:
            facts["clue deck"] = self.clue_deck[self.clue_known:]
        places = self._wound_slots()
        cards = [self._wound_card(w) for w, _ in places]
        h = sum(1 for c in cards if comp.wound_heart[c])
        hs = sum(1 for _, b in places if b is not None and b)
        ns = sum(1 for _, b in places if b is not None and not b)
        free = len(places) - hs - ns
        if _arrangements(h, hs) * _arrangements(len(cards) - h, ns) * _arrangements(free, free) > 1:
            facts["wound cards"] = cards
        on_map, gone = self._hidden_bosses()
        cards = self.boss_deck + [self.bosses[i][2] for i in on_map] + [self.boss_gone[i][0] for i in gone] + [
            self.bp_hand[q][j][0] for q, j in self._hidden_hands(p)]
        if len(cards) >= 2:
            facts["Boss cards"] = cards
        return facts
