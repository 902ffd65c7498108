"""Build a VIRUS! position from text, for tests, docs and debugging.

    players: 2
    turn: 0                      # seat to act (default 0)
    hand 0: red virus, transplant, multi medicine
    body 0: red, green+green virus, blue+blue medicine+multi medicine
    body 1: yellow, multi+red virus
    deck: red organ, latex glove   # top first; the remaining cards follow, in id order
    discard: blue virus            # bottom first

A body lists organs by colour, each followed by the cards on it (`+<colour> virus`,
`+<colour> medicine`). Card names are the card types of `cards.TYPE_NAMES`. Cards not named
anywhere go below the named deck cards, so every card of the deck is somewhere; a seat without a
`hand p:` line is dealt 3 of them (write `hand p:` with nothing after it for an empty hand).
"""
from __future__ import annotations

from .actions import HAND
from .cards import COLOURS, TYPE_NAMES
from .game import VirusCardsGame, VirusCardsState


def _type(name: str) -> int:
    name = " ".join(name.strip().lower().replace("_", " ").split())
    if name in COLOURS:
        name += " organ"
    if name not in TYPE_NAMES:
        raise ValueError(f"unknown card {name!r}; known: {TYPE_NAMES}")
    return TYPE_NAMES.index(name)


def from_text(text: str, seed: int = 0, **config) -> VirusCardsState:
    """A state laid out as `text` describes (see the module docstring)."""
    lines = [ln.split("#", 1)[0].strip() for ln in text.strip().splitlines()]
    lines = [ln for ln in lines if ln]
    fields = {}
    for ln in lines:
        key, sep, val = ln.partition(":")
        if not sep:
            raise ValueError(f"scenario line without ':': {ln!r}")
        fields[key.strip()] = val.strip()
    n = int(fields.get("players", 2))
    g = VirusCardsGame(num_players=n, **config)
    s = g.new_initial_state(seed=seed)
    free = {}
    for card in range(g.deck.size):
        free.setdefault(g.CTYPE[card], []).append(card)

    def take(name):
        t = _type(name)
        if not free.get(t):
            raise ValueError(f"no {TYPE_NAMES[t]} left in the deck for the scenario")
        return free[t].pop(0)

    s.hands = [[] for _ in range(n)]
    s.organ = [[-1] * 5 for _ in range(n)]
    s.att = [[[] for _ in range(5)] for _ in range(n)]
    for p in range(n):
        for name in filter(None, (x.strip() for x in fields.get(f"hand {p}", "").split(","))):
            s.hands[p].append(take(name))
        for organ_text in filter(None, (x.strip() for x in fields.get(f"body {p}", "").split(","))):
            parts = [x.strip() for x in organ_text.split("+")]
            o = take(parts[0])
            c = g.COLOUR[o]
            if s.organ[p][c] >= 0:
                raise ValueError(f"body {p} has two {COLOURS[c]} organs")
            s.organ[p][c] = o
            s.att[p][c] = [take(x) for x in parts[1:]]
    s.discard = [take(x) for x in fields.get("discard", "").split(",") if x.strip()]
    top = [take(x) for x in fields.get("deck", "").split(",") if x.strip()]
    rest = [c for t in sorted(free) for c in free[t]]
    for p in range(n):  # a hand the text does not give is dealt from the undescribed cards
        if f"hand {p}" not in fields:
            s.hands[p], rest = rest[-HAND:], rest[:-HAND]
    s.deck = rest + top[::-1]
    s.turn_player = int(fields.get("turn", 0))
    s.stage, s.pending, s.winner, s.truncated = 0, None, -1, False
    s.code = [[0] * 5 for _ in range(n)]
    s.hcount = [0] * n
    s._recount()
    s._mask = None
    return s


def body_text(s: VirusCardsState, p: int) -> str:
    """The body of seat p in the scenario syntax (inverse of the 'body p:' line)."""
    g = s.game
    out = []
    for c in range(5):
        if s.organ[p][c] >= 0:
            out.append("+".join([COLOURS[c]] + [g.deck.card_name(x) for x in s.att[p][c]]))
    return ", ".join(out)
