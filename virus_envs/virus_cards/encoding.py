"""VIRUS! observation: one float32 vector, seat-relative (index 0 is the observer, 1 the next in turn order).

| field | shape | values |
|---|---|---|
| hand | (3, 20) | one-hot card type of each hand position (zeros if empty) |
| hand_public | (3,) | 1 where the others know that card of the hand (drawn from a turned-over pile) |
| known_hands | (n-1, 3, 20) | players +1..+n-1: one-hot card type of each hand position that everyone knows, zeros where unknown |
| bodies | (n, 5, 15) | per player and organ colour: [present, free, infected, vaccinated, immunized, colour of the virus on it (5), medicines on it by colour / 2 (5)] |
| hand_sizes | (n,) | cards in hand / 3 |
| discard | (20,) | cards of each type in the discard pile / how many the deck has |
| deck_size | (1,) | cards in the deck / deck size |
| deck_public | (1,) | 1 once the discard pile has been turned over: the deck's order is known to all |
| deck_counts | (20,) | when public: cards of each type in the deck / how many the deck has |
| deck_top | (6, 20) | when public: one-hot card type of the next 6 cards to be drawn, the top first |
| phase | (3,) | one-hot: play or discard, transplant second pick, contagion move |
| transplant_first | (n, 5) | the first organ chosen for a Transplant |
| to_act | (n,) | one-hot: who decides now |
| turn | (1,) | turns taken / max_turns |
"""
from __future__ import annotations

import numpy as np

from ..core import ObsLayout
from .cards import NUM_TYPES, VIRUS

SLOT_FEATURES = 15
DECK_TOP = 6        # cards of a public deck shown in order (the next draws)


def layout(n: int) -> ObsLayout:
    return ObsLayout([
        ("hand", (3, NUM_TYPES)), ("hand_public", 3), ("known_hands", (n - 1, 3, NUM_TYPES)),
        ("bodies", (n, 5, SLOT_FEATURES)), ("hand_sizes", n),
        ("discard", NUM_TYPES), ("deck_size", 1), ("deck_public", 1), ("deck_counts", NUM_TYPES),
        ("deck_top", (DECK_TOP, NUM_TYPES)), ("phase", 3), ("transplant_first", (n, 5)),
        ("to_act", n), ("turn", 1),
    ])


def _slot_table(kind, colour):
    """Feature row of every slot code: 0 empty; 1 free; 2+v infected by colour v; 7+m vaccinated;
    12 + 5*m1 + m2 immunized. Built once per deck."""
    rows = np.zeros((37, SLOT_FEATURES), dtype=np.float32)
    rows[1, [0, 1]] = 1
    for v in range(5):
        rows[2 + v, [0, 2, 5 + v]] = 1
        rows[7 + v, [0, 3]] = 1
        rows[7 + v, 10 + v] = 0.5
    for m1 in range(5):
        for m2 in range(5):
            r = rows[12 + 5 * m1 + m2]
            r[[0, 4]] = 1
            r[10 + m1] += 0.5
            r[10 + m2] += 0.5
    return rows


class Tables:
    """Everything encode() needs, computed once per game: row tables and integer offsets."""

    def __init__(self, game):
        d = game.deck
        L = game.layout
        self.size = L.size
        self.slot_rows = _slot_table(d.kind, d.colour)
        self.type_scale = np.array([1.0 / c if c else 0.0 for c in d.type_counts], dtype=np.float32)
        self.ctype_list = list(d.ctype)
        self.type_scale_list = self.type_scale.tolist()
        self.ctype_arr = np.array(d.ctype, dtype=np.intp)
        self.eye = np.eye(NUM_TYPES, dtype=np.float32)
        self.inv_deck = 1.0 / d.size
        self.inv_turns = 1.0 / game.config["max_turns"]
        o = {name: L.slices[name] for name, _ in L.fields}
        self.hand = o["hand"].start
        self.hand_public = o["hand_public"].start
        self.known_hands = o["known_hands"].start
        self.deck_public = o["deck_public"].start
        self.deck_counts = o["deck_counts"]
        self.deck_top = o["deck_top"].start
        self.bodies = o["bodies"]
        self.hand_sizes = o["hand_sizes"].start
        self.discard = o["discard"]
        self.deck_size = o["deck_size"].start
        # deck_size, deck_public, deck_counts, deck_top lie one after the other: one block
        self.deck_block = slice(self.deck_size, o["deck_top"].stop)
        self.deck_width = self.deck_block.stop - self.deck_block.start
        assert self.deck_public == self.deck_size + 1 and o["deck_counts"].start == self.deck_public + 1
        assert self.deck_top == o["deck_counts"].stop
        self.phase = o["phase"].start
        self.transplant_first = o["transplant_first"].start
        self.to_act = o["to_act"].start
        self.turn = o["turn"].start


#: is the organ of a slot code healthy (present and not infected)
HEALTHY = [0, 1] + [0] * 5 + [1] * 30


def slot_code(kind, colour, organ_card, att) -> int:
    if organ_card < 0:
        return 0
    if not att:
        return 1
    if len(att) == 2:
        return 12 + 5 * colour[att[0]] + colour[att[1]]
    return (2 if kind[att[0]] == VIRUS else 7) + colour[att[0]]


def discard_counts(s, T) -> np.ndarray:
    """Cards of each type in the discard pile / how many the deck has. The pile only grows until it is
    flipped into the deck (then a new list starts), so counts are kept per pile object and topped up
    with the new cards."""
    pile = s.discard
    cache = s._discard_cache
    if cache is None or cache[0] is not pile or cache[1] > len(pile):
        counts = np.zeros(NUM_TYPES, dtype=np.float32)
        done = 0
    else:
        _, done, counts = cache
    if done < len(pile):
        ctype, scale = T.ctype_list, T.type_scale_list
        for c in pile[done:]:
            counts[ctype[c]] += scale[ctype[c]]
        s._discard_cache = (pile, len(pile), counts)
    return counts


def public_deck(s, T) -> np.ndarray:
    """The fields deck_size, deck_public, deck_counts and deck_top (contiguous in the layout) of a deck
    turned over from the pile, one row per number of cards left. Such a deck only loses cards from its
    top (the end of the list), so the rows are built once per deck object: row L is the deck of its
    first L cards, the next to be drawn being card L-1."""
    deck = s.deck
    cache = s._deck_cache
    if cache is None or cache[0] is not deck or len(cache[1]) <= len(deck):
        L0 = len(deck)
        onehot = T.eye[T.ctype_arr[deck]] if deck else np.zeros((0, NUM_TYPES), dtype=np.float32)
        rows = np.zeros((L0 + 1, T.deck_width), dtype=np.float32)
        rows[:, 0] = np.arange(L0 + 1) * T.inv_deck
        rows[:, 1] = 1.0
        np.cumsum(onehot * T.type_scale, axis=0, out=rows[1:, 2:2 + NUM_TYPES])
        for k in range(min(DECK_TOP, L0)):     # row L, k-th next card: deck[L-1-k]
            top = rows[k + 1:, 2 + NUM_TYPES * (k + 1):2 + NUM_TYPES * (k + 2)]
            top[:] = onehot[:L0 - k]
        cache = s._deck_cache = (deck, rows)
    return cache[1]


def encode(s, p: int) -> np.ndarray:
    g = s.game
    T = g.enc
    n = s.n
    ctype = g.CTYPE
    v = np.zeros(T.size, dtype=np.float32)
    hands = s.hands
    pub = s.pub                 # cards drawn from a turned-over pile: every seat saw which went where
    base, i = T.hand, T.hand_public
    for card in hands[p]:
        v[base + ctype[card]] = 1.0
        if pub >> card & 1:
            v[i] = 1.0
        base += NUM_TYPES
        i += 1
    if pub:
        base = T.known_hands
        for r in range(1, n):
            b = base
            for card in hands[(p + r) % n]:
                if pub >> card & 1:
                    v[b + ctype[card]] = 1.0
                b += NUM_TYPES
            base += 3 * NUM_TYPES
    code = s.code
    T.slot_rows.take([x for r in range(n) for x in code[(p + r) % n]], axis=0,
                     out=v[T.bodies].reshape(n * 5, SLOT_FEATURES))
    v[T.hand_sizes:T.hand_sizes + n] = [len(hands[(p + r) % n]) * (1.0 / 3.0) for r in range(n)]
    if s.discard:
        v[T.discard] = discard_counts(s, T)
    if s.deck_public:
        # "simply flip over the discard pile": everyone saw its order, so the deck's is public
        v[T.deck_block] = public_deck(s, T)[len(s.deck)]
    else:
        v[T.deck_size] = len(s.deck) * T.inv_deck
    if not (s.winner >= 0 or s.truncated):
        v[T.phase + s.stage] = 1.0
        v[T.to_act + (s.turn_player - p) % n] = 1.0
    if s.pending is not None:
        t, c = s.pending
        v[T.transplant_first + ((t - p) % n) * 5 + c] = 1.0
    v[T.turn] = min(1.0, s.turns * T.inv_turns)
    return v
