"""Virus: the Rooms display choices and their documented defaults, as pure functions.

Three rules let a player choose cards of his own Rooms display:
- "When a player takes an Advantage he flips a face-up card of his Rooms display" (which card: his choice);
- "Players may discard from their Rooms display any group of cards with the same number of doorways ...":
  when more face-up cards match the group than it takes, which ones go is his choice;
- Death: "Flip 6 room cards face down on the player's Rooms display" (which six: his choice);
- Recovering an Advantage ("flips 1 ... room card(s) from his display face up") and the Major Advantage
  "restore 3 used room cards on the Rooms display by flipping them face up" (which face-down cards).

With `auto_display_choices=True` the engine takes these defaults (the behaviour of the first version);
with `False` (the default) each is a decision of that player (`flip display slot k`,
`discard display slot k`; a restore is `flip display slot k` on a face-down card). The functions below
are the defaults; the engine's auto mode calls them, and an agent can call them on its view: `display_from_view(view["heroes"][p]["display"], comp)` gives the
`[(card id, face up), ...]` list they take, and `default_display_action(view, comp)` the action id of the
default for the pending choice (`view["display_choice"]`), exactly what the auto mode does.
"""
from __future__ import annotations

__all__ = ["default_display_action", "display_from_view", "default_flip_slot", "default_discard_slots",
           "default_death_flip_slot", "default_restore_slot", "flip_candidates", "discard_candidates"]


def display_from_view(view_display, comp):
    """The view's `[[room name, face up], ...]` as `[(card id, face up), ...]` (ids are accepted as well)."""
    ids = {name: i for i, name in enumerate(comp.room_name)}
    return [(c if isinstance(c, int) else ids[c], bool(up)) for c, up in view_display]


def flip_candidates(display, limit=None):
    """Slots an Advantage may flip: the face-up cards (of the first `limit` slots: a refill redraw
    cannot flip the card it returns, the last one)."""
    n = len(display) if limit is None else limit
    return [i for i in range(n) if display[i][1]]


def default_flip_slot(display, comp, limit=None):
    """The documented default of an Advantage's flip: a plain room (no lab symbol, no special room) of the
    most plentiful face-up shape (ties between shapes: the higher shape index; between cards: the last
    slot), else the last card of that shape. -1 when no card is face up."""
    n = len(display) if limit is None else limit
    shape = comp.room_shape
    cnt = [0] * 5
    for i in range(n):
        c, up = display[i]
        if up:
            cnt[shape[c]] += 1
    if not any(cnt):
        return -1
    best = max(range(5), key=lambda s_: (cnt[s_], s_))
    choice = -1
    for i in range(n - 1, -1, -1):
        c, up = display[i]
        if up and shape[c] == best:
            if comp.room_lab[c] < 0 and comp.room_special[c] == 0:
                return i
            if choice < 0:
                choice = i
    return choice


def discard_candidates(display, comp, shape, colour=-1, selected=()):
    """Face-up slots of a display group: `shape` (index in components.SHAPES) and, for a `cash` group,
    `colour` (-1: any colour, a `discard` group); the slots already `selected` excluded."""
    sh, col = comp.room_shape, comp.room_colour
    return [i for i, (c, up) in enumerate(display)
            if up and sh[c] == shape and (colour < 0 or col[c] in (colour, -1)) and i not in selected]


def default_discard_slots(display, comp, shape, colour=-1, k=2, selected=()):
    """The documented default of a display-group discard: plain rooms first, then special rooms, then
    Research Labs, each by slot order. Returns the `k - len(selected)` slots it adds to `selected`, in that
    priority order (with `selected=()`, the k slots the default discards)."""
    cand = discard_candidates(display, comp, shape, colour, selected)
    cand.sort(key=lambda i: (comp.room_lab[display[i][0]] >= 0, comp.room_special[display[i][0]] > 0, i))
    return cand[:max(0, k - len(selected))]


def default_death_flip_slot(display):
    """The documented default of the death penalty's flips: the lowest face-up slot (so the first six
    cards of the new display go face down). -1 when none is face up."""
    for i, (_, up) in enumerate(display):
        if up:
            return i
    return -1


def default_restore_slot(display):
    """The documented default of a restore (recover an Advantage, Major Advantage "restore 3 used room
    cards"): the lowest face-down slot. -1 when none is face down."""
    for i, (_, up) in enumerate(display):
        if not up:
            return i
    return -1


def default_display_action(view, comp):
    """The action id the documented default takes for the pending display choice of `view` (a
    `VirusLabState.view(p)` dict whose `display_choice` is not None): `flip display slot k` (flip, death
    flip, restore) or `discard display slot k`. Choosing it at every such decision reproduces the
    `auto_display_choices=True` game exactly."""
    from .actions import A
    dc = view["display_choice"]
    display = display_from_view(view["heroes"][dc["seat"]]["display"], comp)
    kind = dc["kind"]
    if kind == "discard":
        chosen = dc["chosen"]
        k = default_discard_slots(display, comp, dc["shape"], dc["colour"], len(chosen) + dc["left"], chosen)[0]
        return A.DISCARD_SLOT + k
    if kind == "flip":
        # the slots open to it end before a refill's returned card; face-down slots do not change the default
        k = default_flip_slot(display, comp, limit=max(dc["slots"]) + 1)
    elif kind == "death flip":
        k = default_death_flip_slot(display)
    else:
        k = default_restore_slot(display)
    return A.FLIP + k
