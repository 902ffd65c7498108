"""What `VirusCardsGame.state_from_dict` checks before it builds a VIRUS! state.

Each failure is a ValueError naming the field at fault (core/validate.py's message shape). A dict
passes when it could have come from play: every card exactly once (hands, bodies, deck, discard
pile), one list per seat, an organ only in the slot of its colour with 0-2 fitting cards on it,
counters in range, and a decision that can be taken (a hand to play from, a Transplant partner, a
Contagion move).
"""
from __future__ import annotations

from ..core.validate import (check_bool, check_conserved, check_int, check_ints, check_list, fail)
from .actions import HAND
from .cards import COLOURS, MEDICINE, ORGAN, VIRUS, compatible


def validate(game, d: dict) -> None:
    env, n, deck = game.env_id, game.num_players, game.deck
    K, C = deck.kind, deck.colour
    last = deck.size - 1
    hands = check_list(env, "hands", d["hands"], n)
    for q, h in enumerate(hands):
        check_ints(env, f"hands[{q}]", h, lo=0, hi=last)
        if len(h) > HAND:
            raise fail(env, f"hands[{q}]", f"holds {len(h)} cards; a hand holds at most {HAND}")
    deck_public = check_bool(env, "deck_public", d["deck_public"])
    known = check_list(env, "hand_public", d["hand_public"], n)
    for q, k in enumerate(known):
        check_list(env, f"hand_public[{q}]", k, len(hands[q]))
        for i, x in enumerate(k):
            if check_bool(env, f"hand_public[{q}][{i}]", x) and not deck_public:
                raise fail(env, f"hand_public[{q}][{i}]", "is true, but no card was drawn from a turned-over "
                                                          "pile yet (deck_public is false)")
    organ = check_list(env, "organ", d["organ"], n)
    att = check_list(env, "att", d["att"], n)
    for q in range(n):
        check_ints(env, f"organ[{q}]", organ[q], 5, lo=-1, hi=last)
        check_list(env, f"att[{q}]", att[q], 5)
        for c in range(5):
            _check_slot(env, K, C, q, c, organ[q][c], att[q][c], last)
    check_ints(env, "deck", d["deck"], lo=0, hi=last)
    check_ints(env, "discard", d["discard"], lo=0, hi=last)
    check_conserved(env, "card", {
        "hands": [c for h in hands for c in h],
        "organ": [o for body in organ for o in body if o >= 0],
        "att": [x for body in att for a in body for x in a],
        "deck": d["deck"], "discard": d["discard"]}, {c: 1 for c in range(deck.size)})

    check_int(env, "turn_player", d["turn_player"], 0, n - 1)
    stage = check_int(env, "stage", d["stage"], 0, 2)
    turns = check_int(env, "turns", d["turns"], 0, game.config["max_turns"])
    winner = check_int(env, "winner", d["winner"], -1, n - 1)
    truncated = check_bool(env, "truncated", d["truncated"])
    if winner >= 0 and truncated:
        raise fail(env, "truncated", f"is true, but player {winner} has won (a game ends one way)")
    terminal = winner >= 0 or truncated
    if not terminal and turns >= game.config["max_turns"]:
        raise fail(env, "turns", f"is {turns}: the game stops at max_turns={game.config['max_turns']}")
    pending = d["pending"]
    if pending is not None:
        check_ints(env, "pending", pending, 2)
        check_int(env, "pending[0]", pending[0], 0, n - 1)
        check_int(env, "pending[1]", pending[1], 0, 4)
    if (pending is not None) != (stage == 1):
        raise fail(env, "pending", "must be the Transplant's first organ exactly when stage is 1 "
                                   f"(transplant: second organ); stage is {stage}, pending is {pending!r}")


def _check_slot(env, K, C, q, c, o, a, last):
    """An organ lies in the slot of its colour, carrying nothing, a virus, a medicine or two medicines
    that fit it ("the viruses only have an effect on organs ... of the same color")."""
    where = f"att[{q}][{c}]"
    check_ints(env, where, a, lo=0, hi=last)
    if o < 0:
        if a:
            raise fail(env, where, f"holds cards, but player {q} has no {COLOURS[c]} organ to lay them on")
        return
    if K[o] != ORGAN or C[o] != c:
        raise fail(env, f"organ[{q}][{c}]", f"holds card {o}, which is not a {COLOURS[c]} organ")
    kinds = [K[x] for x in a]
    if len(a) > 2 or (len(a) == 2 and kinds != [MEDICINE, MEDICINE]) or any(k not in (VIRUS, MEDICINE) for k in kinds):
        raise fail(env, where, "must be nothing, one virus, one medicine or two medicines (immunized)")
    for x in a:
        if not compatible(C[x], c):
            raise fail(env, where, f"holds card {x}, whose colour does not fit a {COLOURS[c]} organ")


def validate_position(s) -> None:
    """Checks on the loaded state: the bodies and the decision to take agree with the rules."""
    env, n = s.game.env_id, s.n
    if s.winner >= 0 and s.hcount[s.winner] < 4:
        raise fail(env, "winner", f"is player {s.winner}, whose body has {s.hcount[s.winner]} healthy organs, not 4")
    if s.winner < 0:
        for q in range(n):
            if s.hcount[q] >= 4:
                raise fail(env, "winner", f"is -1, but player {q} has 4 healthy organs: the game would be won")
    if s.is_terminal():
        return
    me = s.turn_player
    if s.stage == 0:
        hand = s.hands[me]
        if not hand:
            raise fail(env, f"hands[{me}]", "is empty at its player's decision (an empty hand is refilled "
                                            "before the turn)")
        if len(hand) < HAND and (s.deck or s.discard):
            raise fail(env, f"hands[{me}]", f"holds {len(hand)} cards at the start of its player's turn while "
                                            "cards remain to draw (\"Each player must have 3 cards\")")
    elif s.stage == 1:
        t, c = s.pending
        if s.organ[t][c] < 0 or len(s.att[t][c]) == 2 or not s._transplant_seconds(t, c):
            raise fail(env, "pending", f"names player {t}'s {COLOURS[c]} slot, which no Transplant can swap")
    elif not s._contagion_edges():
        raise fail(env, "stage", "is 2 (contagion), but no virus of the player can move")
