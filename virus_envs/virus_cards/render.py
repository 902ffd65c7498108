"""VIRUS! as text: each body drawn as a row of organ slots, the hand of the player to act, the piles."""
from __future__ import annotations

from .cards import COLOURS, VIRUS

STATE = {0: "free", 1: "infected", 2: "vaccinated", 3: "IMMUNIZED"}


def slot_text(s, q, c) -> str:
    g = s.game
    o = s.organ[q][c]
    if o < 0:
        return "."
    a = s.att[q][c]
    if not a:
        return f"{COLOURS[c]}"
    if len(a) == 2:
        return f"{COLOURS[c]}(immunized)"
    what = "virus" if g.KIND[a[0]] == VIRUS else "medicine"
    return f"{COLOURS[c]}+{COLOURS[g.COLOUR[a[0]]]} {what}"


def table(s, seat: int | None = None) -> str:
    """The table; with `seat`, only what that seat may see (its own hand, not the one of the player to act)."""
    g = s.game
    lines = [f"VIRUS! {s.n} players, turn {s.turns}, deck {len(s.deck)}, discard {len(s.discard)}"
             + (f" (top: {g.deck.card_name(s.discard[-1])})" if s.discard else "")]
    if s.deck_public and s.deck:
        top = ", ".join(g.deck.card_name(c) for c in s.deck[:-7:-1])
        lines.append(f"deck (turned-over pile, order public), next: {top}" + (", ..." if len(s.deck) > 6 else ""))
    for q in range(s.n):
        mark = ">" if q == s.current_player() else " "
        body = "  ".join(slot_text(s, q, c) for c in range(5) if s.organ[q][c] >= 0) or "(no organs)"
        known = [] if seat is None or seat == q else [g.deck.card_name(c) for c in s.known_hand(q, seat) if c >= 0]
        cards = f"{len(s.hands[q])} cards" + (f", known: {', '.join(known)}" if known else "")
        lines.append(f"{mark} player_{q} [{cards}] healthy {s.healthy(q)}: {body}")
    if s.is_terminal():
        lines.append(f"winner: player_{s.winner}" if s.winner >= 0 else "truncated: no winner")
    else:
        who = s.turn_player if seat is None else seat
        hand = ", ".join(f"{i}:{g.deck.card_name(c)}" for i, c in enumerate(s.hands[who]))
        lines.append(f"player_{s.turn_player} to act ({s.phase()}); player_{who}'s hand: {hand}")
        if s.pending is not None:
            t, c = s.pending
            lines.append(f"transplant: first organ is player_{t}'s {COLOURS[c]}")
    return "\n".join(lines)
