"""state_from_dict refuses a Roll & Write position no game can reach, with a ValueError naming the field.

Each case corrupts one fact of a real position (built by hand below) and names the field the
message must carry. The facts come from the rulebook (dice 1-6, the dice each player takes, the
rounds of the tracker, one virus-tube box per round, the sheet's boxes, one wildcard circled at
the start) and from the state's own bookkeeping (owners, counts).
"""
from __future__ import annotations

import copy
import json

import pytest

from rw_helpers import act, dice, new, turn_to
from virus_envs.roll_write.game import RollWriteGame


def _position():
    """Round 1 of a 2-player game (B2 + C2), four dice placed:
    seat 0's 3 then seat 1's 2 on the blue trial card (blue 3 and blue 5 crossed off), seat 0's 5
    alone on B2 left, seat 1's 4 alone on C2 left."""
    g, s = new(2)
    dice(s, 0, [1, 2, 3, 4, 5, 6])
    dice(s, 1, [2, 2, 4, 4, 6, 6])
    turn_to(s, 0)
    for a in ("place 3 on blue trial", "place 2 on blue trial", "place 5 on B2 left", "place 4 on C2 left"):
        act(s, a)
    return g, s.to_dict()


G, BASE = _position()


def test_the_position_itself_loads():
    assert G.state_from_dict(json.loads(json.dumps(BASE))).to_dict() == BASE


def _set(path, value):
    """A corruption: d[path...] = value."""
    def f(d):
        x = d
        for k in path[:-1]:
            x = x[k]
        x[path[-1]] = value
    return f


def _seq(*fs):
    def f(d):
        for g in fs:
            g(d)
    return f


CASES = [
    # lengths against num_players (2) and the table (8 trial slots, 4 laboratory slots)
    ("reserve", lambda d: d["reserve"].append([0] * 7)),
    ("reserve[1]", lambda d: d["reserve"][1].pop()),
    ("contam", lambda d: d["contam"].pop()),
    ("trial", lambda d: d["trial"].append(0)),
    ("lab_own", lambda d: d["lab_own"].pop()),
    ("grid[0]", lambda d: d["grid"][0].pop()),
    ("grid", lambda d: d["grid"].append([0, 0, 0, 0])),
    ("wused", lambda d: d["wused"].append(0)),
    ("cure", lambda d: d["cure"].append([0, 0, 0, 0])),
    ("labrow", lambda d: d["labrow"].append(0)),
    ("wild", lambda d: d["wild"].append(1)),
    ("virus", lambda d: d["virus"].append([])),
    ("cure[1]", lambda d: d["cure"][1].append(0)),
    # counts are never negative; dice show 1 to 6
    ("reserve[0][1]", _set(["reserve", 0, 1], -1)),
    ("contam[1][2]", _set(["contam", 1, 2], -1)),
    ("reserve[0][0]", _set(["reserve", 0, 0], 1)),
    ("trial[2]", _set(["trial", 2], 7)),
    ("lab[1]", _set(["lab", 1], -3)),
    ("wild[0]", _set(["wild", 0], -1)),
    ("wused[1]", _set(["wused", 1], -1)),
    ("wild_die", _set(["wild_die", ], 7)),
    # "Each player takes the 3 dice of one color" (6 with 2 players): none appears or vanishes
    ("reserve[0]", _set(["reserve", 0, 6], 2)),
    ("reserve[1]", _set(["contam", 1, 6], 1)),
    # owners: an empty slot has none, a die has a seat
    ("trial_own[2]", _set(["trial_own", 2], 0)),
    ("trial_own[0]", _set(["trial_own", 0], 2)),
    ("lab_own[0]", _set(["lab_own", 0], -1)),
    # trial cards: the second slot fills after the first; the placer crossed the box it gave
    ("trial[3]", _seq(_set(["trial", 3], 2), _set(["trial_own", 3], 1), _set(["reserve", 1, 2], 0),
                      _set(["grid", 1, 1], 1 << 2))),
    ("trial[1]", _set(["grid", 1, 0], 0)),
    # "You must ... meet the condition stated on the card": C2 "left >= right", 4 then 6
    ("lab[2]", _seq(_set(["lab", 3], 6), _set(["lab_own", 3], 0), _set(["reserve", 0, 6], 0))),
    # score sheet boxes exist: no 13 in a grid, no box 1 in the laboratory row (2..12)
    ("grid[0][2]", _set(["grid", 0, 2], 1 << 13)),
    ("grid[1][0]", _set(["grid", 1, 0], 1 | 1 << 5)),
    ("labrow[1]", _set(["labrow", 1], 1 << 1)),
    # wildcard tube: 4 boxes; one circled at the start, more only from wildcard laboratory boxes
    ("wild[0]", _seq(_set(["wild", 0], 3), _set(["wused", 0], 2))),
    ("wused[0]", _set(["wused", 0], 1)),
    ("wused[1]", _set(["wild", 1], 0)),
    ("wused[0]", _seq(_set(["wild", 0], 2), _set(["labrow", 0], 1 << 6))),     # the 6 gives no wildcard
    # virus tube: "write the total in the first free box" -- one box per round played, <= 6 dice x 6
    ("virus[0]", _set(["virus", 0], [3])),
    ("virus[1][0]", _seq(_set(["virus", 0], [0]), _set(["virus", 1], [37]), _set(["rnd"], 1))),
    # discovered cures: 0 open, 1 speed bonus, 2 crossed out; the bonus needs a complete grid
    ("cure[0][1]", _set(["cure", 0, 1], 3)),
    ("cure", _set(["cure", 1, 2], 2)),
    ("cure[0][0]", _seq(_set(["cure", 0, 0], 1), _set(["cure", 1, 0], 2))),
    # rounds: "5 rounds if you are 2 players"; the last one ends the game
    ("rnd", _set(["rnd"], 6)),
    ("rnd", _seq(_set(["rnd"], 5), _set(["virus"], [[0] * 5, [0] * 5]))),
    ("rnd", _seq(_set(["terminal"], True))),
    ("priority", _set(["priority"], 2)),
    ("starter", _set(["starter"], -1)),
    ("placed", _set(["placed"], 3)),
    ("placed", _set(["placed"], 13)),
    ("turns", _set(["turns"], -1)),
    ("turns", _set(["turns"], 2001)),
    ("truncated", _set(["truncated"], True)),
    ("truncated", _set(["truncated"], 0)),
    ("turns", _seq(_set(["terminal"], True), _set(["truncated"], True))),    # truncated at turn 4, not 2000
    ("placed", _set(["placed"], 4.0)),
    ("terminal", _set(["terminal"], 1)),
    ("prio_taken", _set(["prio_taken"], "yes")),
    # decisions waiting and the die a wildcard changed
    ("pending[0][0]", _seq(_set(["pending"], [[2, 0, 1]]), _set(["placed"], 3))),
    ("pending[0][1]", _seq(_set(["pending"], [[0, 2, 0]]), _set(["placed"], 3))),
    ("pending[0][2]", _seq(_set(["pending"], [[0, 0, 4]]), _set(["placed"], 3))),
    ("found", _set(["found"], [[0, 1]])),
    ("found[0][1]", _seq(_set(["found"], [[0, 4]]), _set(["pending"], [[0, 0, -1]]), _set(["placed"], 3))),
    ("wild_die", _set(["wild_die"], 3)),             # seat 0 holds no 3 any more
    ("wild_die", _seq(_set(["wild_die"], 2), _set(["pending"], [[0, 0, -1]]), _set(["placed"], 3))),
    ("pending", _set(["pending"], "")),
    ("pending[0]", _seq(_set(["pending"], [[0, 0, -1, 5]]), _set(["placed"], 3))),
    ("found", _set(["found"], "")),
    ("found[0]", _seq(_set(["found"], [[0, 1, 2]]), _set(["pending"], [[0, 0, -1]]), _set(["placed"], 3))),
    ("found[0][0]", _seq(_set(["found"], [[5, 1]]), _set(["pending"], [[0, 0, -1]]), _set(["placed"], 3))),
]


@pytest.mark.parametrize("field,corrupt", CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)])
def test_a_corrupted_dict_is_refused_naming_the_field(field, corrupt):
    d = copy.deepcopy(BASE)
    corrupt(d)
    with pytest.raises(ValueError) as e:
        G.state_from_dict(d)
    _says_why(str(e.value), field)


def _says_why(msg, field):
    """The one message shape: "state dict for <env>: field '<field>' <what is wrong>", the reason a phrase
    going on from the field's name (a lowercase word or a number), not empty, None or shouted."""
    head = f"state dict for roll_write_v0: field {field!r} "
    assert msg.startswith(head) and (msg[len(head)].islower() or msg[len(head)].isdigit()), msg


PEND = [_set(["pending"], [[0, 0, -1]]), _set(["placed"], 3)]   # an extra cross-off pending after the 4th die

# The message says why, each written out in full (what a reader who loads a broken file sees).
WHY = [
    (_set(["truncated"], True), "field 'truncated' is true but 'terminal' is false"),
    (_set(["reserve", 0, 0], 1), "field 'reserve[0][0]' must be 0: dice show 1 to 6"),
    (_set(["trial_own", 2], 0),
     "field 'trial_own[2]' is 0 for a slot holding 0: an empty slot has owner -1, a die has its owner's seat"),
    (_seq(_set(["trial", 3], 2), _set(["trial_own", 3], 1), _set(["reserve", 1, 2], 0), _set(["grid", 1, 1], 1 << 2)),
     "field 'trial[3]' holds a die while the first slot of its card is empty"),
    # seat 1's 2 beside seat 0's 3 on the blue card: the sum, blue 5, is crossed off seat 1's grid
    (_set(["grid", 1, 0], 0), "field 'trial[1]' holds the die of seat 1, whose grid lacks the box 5 that die crossed off"),
    (_set(["pending"], [[0, 0, -1]]),
     "field 'placed' is 4, but 4 dice have left the reserves this round (one placement still being resolved)"),
    # the grids in the sheet's order: blue, red, green, yellow (boxes 1-12; no 13)
    *[(_set(["grid", 0, c], 1 << 13), f"field 'grid[0][{c}]' crosses off a box the {colour} grid does not have")
      for c, colour in enumerate(("blue", "red", "green", "yellow"))],
    # counts are never negative: the bound itself is the reason, before any later check could trip
    (_set(["grid", 0, 0], -1), "field 'grid[0][0]' must be in 0..inf, got -1"),
    (_set(["labrow", 0], -1), "field 'labrow[0]' must be in 0..inf, got -1"),
    (_set(["wild", 1], -1), "field 'wild[1]' must be in 0..inf, got -1"),
    (_set(["wused", 1], -1), "field 'wused[1]' must be in 0..inf, got -1"),
    # C2 "left >= right": seat 0's 6 beside seat 1's 4
    (_seq(_set(["lab", 3], 6), _set(["lab_own", 3], 0), _set(["reserve", 0, 6], 0)),
     "field 'lab[2]' and lab[3] hold 4 (left) and 6 (right), which do not meet the condition of card C2"),
    (_set(["labrow", 1], 1 << 1), "field 'labrow[1]' crosses off a box the laboratory row does not have"),
    (_set(["cure", 1, 2], 2), "field 'cure' colour 2: marks [0, 2]; a cure is open for all, or marked by its "
                              "finders and crossed out for the others"),
    (_seq(_set(["cure", 0, 0], 1), _set(["cure", 1, 0], 2)),
     "field 'cure[0][0]' marks a speed bonus for a grid that is not complete"),
    (_set(["found"], [[0, 1]]),
     "field 'found' lists cures while no decision is pending: they are claimed when the placement is resolved"),
    (_seq(_set(["wild_die"], 2), *PEND), "field 'wild_die' is set while an extra cross-off or circle is pending"),
]


@pytest.mark.parametrize("corrupt, why", WHY, ids=[w[1].split("'")[1] for w in WHY])
def test_the_message_says_why(corrupt, why):
    d = copy.deepcopy(BASE)
    corrupt(d)
    with pytest.raises(ValueError) as e:
        G.state_from_dict(d)
    assert str(e.value) == "state dict for roll_write_v0: " + why


# each range checked at both ends: one step past an end is refused (naming the field), the end itself loads
EDGES = [
    ("priority", _set(["priority"], -1)), (None, _set(["priority"], 1)),
    ("starter", _set(["starter"], 2)), (None, _set(["starter"], 1)),
    ("rnd", _set(["rnd"], -1)), (None, _seq(_set(["rnd"], 1), _set(["virus"], [[36], [0]]))),
    ("virus[0][0]", _seq(_set(["rnd"], 1), _set(["virus"], [[-1], [0]]))),
    (None, _set(["turns"], 0)), (None, _set(["turns"], 2000)),
    ("wild_die", _set(["wild_die"], -1)),
    ("reserve[0][6]", _set(["reserve", 0, 6], 7)), ("contam[1][1]", _set(["contam", 1, 1], 7)),
    ("trial[0]", _set(["trial", 0], -1)), ("lab[0]", _set(["lab", 0], 7)),
    # the blue card's first die a 6 (seat 0 crossed blue 6), seat 1's 2 beside it (blue 8)
    (None, _seq(_set(["trial", 0], 6), _set(["reserve", 0, 6], 0), _set(["reserve", 0, 3], 1),
                _set(["grid", 0, 0], 1 << 6), _set(["grid", 1, 0], 1 << 8))),
    ("trial_own[0]", _set(["trial_own", 0], -2)), ("lab_own[2]", _set(["lab_own", 2], 2)),
    ("grid[0][0]", _set(["grid", 0, 0], -1)), ("labrow[0]", _set(["labrow", 0], -1)),
    ("cure[0][0]", _set(["cure", 0, 0], -1)),
    ("wild[1]", _set(["wild", 1], -1)),
    (None, _seq(_set(["wild", 0], 0), _set(["wused", 0], 1))),
    ("placed", _seq(_set(["placed"], -1), _set(["pending"], [[0, 0, -1]]), _set(["reserve"], [[0, 1, 1, 1, 1, 1, 1],
                                                                                           [0, 1, 1, 1, 1, 1, 1]]),
                    _set(["trial"], [0] * 8), _set(["trial_own"], [-1] * 8), _set(["lab"], [0] * 4),
                    _set(["lab_own"], [-1] * 4), _set(["grid"], [[0] * 4, [0] * 4]))),
    # pending decisions: [seat, 0 = extra cross-off or 1 = circle, colour 0-3 or -1 = any (0 for a circle)]
    ("pending[0][0]", _seq(*PEND, _set(["pending"], [[-1, 0, -1]]))),
    (None, _seq(*PEND, _set(["pending"], [[1, 0, -1]]))),
    ("pending[0][1]", _seq(*PEND, _set(["pending"], [[0, -1, 0]]))),
    (None, _seq(*PEND, _set(["pending"], [[0, 1, 0]]))),
    ("pending[0][2]", _seq(*PEND, _set(["pending"], [[0, 0, -2]]))),
    (None, _seq(*PEND, _set(["pending"], [[0, 0, 3]]))),
    (None, _seq(*PEND, _set(["pending"], [[0, 0, 0]]))),
    ("pending[0][2]", _seq(*PEND, _set(["pending"], [[0, 1, -1]]))),
    ("pending[0][2]", _seq(*PEND, _set(["pending"], [[0, 1, 1]]))),
    # cures found during the placement being resolved: [seat, colour]
    (None, _seq(*PEND, _set(["found"], [[1, 0]]))), (None, _seq(*PEND, _set(["found"], [[0, 3]]))),
    ("found[0][0]", _seq(*PEND, _set(["found"], [[-1, 0]]))),
    ("found[0][0]", _seq(*PEND, _set(["found"], [[2, 0]]))),
    ("found[0][1]", _seq(*PEND, _set(["found"], [[0, -1]]))),
]


@pytest.mark.parametrize("field,corrupt", EDGES, ids=[f"{i}-{c[0]}" for i, c in enumerate(EDGES)])
def test_each_range_is_checked_at_both_ends(field, corrupt):
    d = copy.deepcopy(BASE)
    corrupt(d)
    if field is None:
        G.state_from_dict(d)
        return
    with pytest.raises(ValueError) as e:
        G.state_from_dict(d)
    _says_why(str(e.value), field)


def test_every_reachable_kind_of_position_loads():
    """Not too strict: a pending extra cross-off, a changed die and the end of a game all load."""
    g, s = new(2, rounds=1)
    dice(s, 0, [6, 6, 6, 6, 6, 6])
    turn_to(s, 0)
    act(s, "wildcard 6->2")
    assert s.wild_die == 2
    g.state_from_dict(s.to_dict())
    act(s, "place 2 on B2 left")
    dice(s, 1, [1, 1, 1, 1, 1, 1])
    act(s, "place 1 on B2 right")                     # 2 + 1: the 3 for both, no advantage
    while not s.is_terminal():
        if s.pending:
            g.state_from_dict(s.to_dict())
        act(s, sorted(s.action_to_string(a) for a in s.legal_actions())[-1])
    g.state_from_dict(s.to_dict())


def test_a_changed_die_no_card_takes_is_refused_when_it_may_not_be_contaminated():
    """With wildcard_then_contaminate=False a changed die must go on a trial or laboratory card; a
    dict where none takes it would leave the seat without a legal action."""
    g, s = new(2, wildcard_then_contaminate=False)
    dice(s, 0, [6, 6, 6, 6, 6, 6])
    turn_to(s, 0)
    act(s, "wildcard 6->1")
    d = s.to_dict()
    g.state_from_dict(d)                                  # the 1 can go on any trial card
    # seat 0's four grids and laboratory row complete (its cures marked); seat 1 has a 2 alone on B2 and
    # on C2: no trial card and no laboratory slot takes seat 0's 1
    d["grid"][0] = [sum(1 << v for v in range(1, 13))] * 4
    d["cure"] = [[1, 1, 1, 1], [2, 2, 2, 2]]
    d["labrow"][0] = sum(1 << v for v in range(2, 13))
    d["lab"], d["lab_own"] = [2, 0, 2, 0], [1, -1, 1, -1]
    d["reserve"][1] = [0, 0, 0, 0, 0, 0, 4]
    d["placed"], d["prio_taken"], d["priority"] = 2, True, 1
    with pytest.raises(ValueError) as e:
        g.state_from_dict(d)
    assert str(e.value) == ("state dict for roll_write_v0: field 'wild_die' is 1: with wildcard_then_contaminate=False "
                            "the changed die must go on a trial or laboratory card, and none takes it")
    RollWriteGame(num_players=2).state_from_dict(d)       # the default lets the 1 be contaminated


def test_a_one_slot_laboratory_card_holds_a_die_that_meets_its_condition():
    """3 players: 'A3 - The value of the die must be even.'"""
    g, s = new(3)
    dice(s, 0, [2, 3, 5])
    turn_to(s, 0)
    act(s, "place 2 on A3")
    d = s.to_dict()
    g.state_from_dict(d)
    d["lab"][0], d["reserve"][0][2], d["reserve"][0][3] = 3, 1, 0     # the die on A3 shows 3 instead
    with pytest.raises(ValueError) as e:
        g.state_from_dict(d)
    assert str(e.value) == "state dict for roll_write_v0: field 'lab[0]' holds 3, which does not meet the condition of card A3"


# The wildcard tube (4 boxes): "you start the game with one wildcard already circled"; a laboratory box
# with the wildcard advantage lets you "circle an empty box in your wildcard tube" (this sheet: boxes 5, 8, 11).
def test_a_full_wildcard_tube_loads_and_one_circle_more_than_earned_does_not():
    d = copy.deepcopy(BASE)
    d["labrow"][0] = 1 << 5 | 1 << 8 | 1 << 11        # the three wildcard boxes: 1 + 3 = 4 circles, the whole tube
    d["wild"][0] = 4
    G.state_from_dict(d)
    d["wild"][0], d["wused"][0] = 2, 2                 # two used, two still circled: 4 in all
    G.state_from_dict(d)
    d = copy.deepcopy(BASE)
    d["labrow"][0] = 1 << 5                            # one wildcard box: at most 1 + 1 = 2 circles
    d["wild"][0] = 2
    G.state_from_dict(d)
    d["wild"][0] = 3
    with pytest.raises(ValueError) as e:
        G.state_from_dict(d)
    assert str(e.value) == ("state dict for roll_write_v0: field 'wused[0]' 0 used and 3 still circled: "
                            "seat 0 started with 1 and earned 1")


# "All other players must immediately cross off that same box": a cure is open for all, or marked by its
# finders (several, when they complete it on the same turn) and crossed out for the others.
def test_a_cure_found_by_every_seat_at_once_loads_and_one_crossed_out_by_all_does_not():
    d = copy.deepcopy(BASE)
    full = sum(1 << v for v in range(1, 13))           # a complete grid: boxes 1-12
    d["grid"][0][0] = d["grid"][1][0] = full
    d["cure"] = [[1, 0, 0, 0], [1, 0, 0, 0]]           # both completed blue: both take the speed bonus
    G.state_from_dict(d)
    d["cure"] = [[1, 0, 0, 0], [2, 0, 0, 0]]           # seat 0 found it, seat 1 crossed it out
    G.state_from_dict(d)
    d["cure"] = [[2, 0, 0, 0], [2, 0, 0, 0]]           # crossed out by all: nobody found it
    with pytest.raises(ValueError) as e:
        G.state_from_dict(d)
    assert str(e.value) == ("state dict for roll_write_v0: field 'cure' colour 0: marks [2]; a cure is open for "
                            "all, or marked by its finders and crossed out for the others")
