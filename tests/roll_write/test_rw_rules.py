"""Virus!: Roll & Write: one scenario per rule, and every worked example of the rulebook."""
from __future__ import annotations

import pytest

from virus_envs import IllegalActionError
from virus_envs.roll_write.sheet import load_lab_cards, load_sheet

from rw_helpers import act, cross, crossed, dice, lab_crossed, legal_names, new, sync, turn_to

SHEET = load_sheet()


def all_but(colour, *keep_free):
    c = ("blue", "red", "green", "yellow").index(colour)
    return [v for v in SHEET.values[c] if v not in keep_free]


# -- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,dice_n,rounds,labs", [(2, 6, 5, ("B2", "C2")), (3, 3, 7, ("A3", "B3")),
                                                  (4, 3, 8, ("B2", "C2"))])
def test_setup_dice_rounds_and_first_game_lab_cards(n, dice_n, rounds, labs):
    """'with 2 ... 6 dice'; '5 rounds if you are 2 players, 7 if ... 3, and 8 if ... 4'; First game? cards."""
    g, s = new(n)
    assert g.dice == dice_n and g.rounds == rounds and g.lab_names == labs
    assert all(sum(s.reserve[p]) == dice_n for p in range(n))
    assert s.priority == 0 and s.current_player() == 0
    assert all(s.wild[p] == 1 for p in range(n))          # one wildcard circled at the start


def test_the_dice_are_fair_six_sided_dice_rolled_each_round():
    """'Each player rolls all their dice': each die shows 1 to 6, equally likely, every round anew."""
    counts = [0] * 7
    rounds = 0
    for seed in range(60):
        g, s = new(2, seed=seed)
        while not s.is_terminal():
            if s.placed == 0 and not s.pending and not s.wild_die:
                rounds += 1
                for p in range(2):
                    for v in range(1, 7):
                        counts[v] += s.reserve[p][v]
            act(s, sorted(n for n in legal_names(s) if "contaminated" in n)[0])
    total = 12 * rounds
    assert rounds == 60 * 5 and sum(counts) == total
    # 3600 dice: each face within 5 standard deviations of 600 (sd = sqrt(3600 * 1/6 * 5/6) = 22.4)
    assert all(abs(counts[v] - total / 6) < 5 * 22.4 for v in range(1, 7)), counts
    # the rolls differ from round to round and from seed to seed
    g, a = new(2, seed=1)
    g, b = new(2, seed=2)
    assert a.reserve != b.reserve


# -- round structure ---------------------------------------------------------------------------
def test_turns_alternate_from_priority_holder_until_all_dice_placed_then_reroll():
    g, s = new(3, seed=5)
    order = []
    for _ in range(9):
        p = s.current_player()
        order.append(p)
        act(s, next(n for n in legal_names(s) if n.endswith("contaminated samples")))
    assert order == [0, 1, 2] * 3
    assert s.rnd == 1 and all(sum(s.reserve[p]) == 3 for p in range(3))   # new round: all dice rolled again
    assert [len(v) for v in s.virus] == [1, 1, 1]


def test_game_ends_after_the_last_round():
    g, s = new(2, seed=1, rounds=1)
    while not s.is_terminal():
        act(s, sorted(n for n in legal_names(s) if "contaminated" in n)[0])
    assert s.rnd == 1 and s.current_player() == -1 and not s.is_truncated()


# -- trial cards -------------------------------------------------------------------------------
def test_example_first_die_crosses_its_value_the_1_in_green():
    g, s = new(2)
    dice(s, 0, [1, 3, 3, 4, 5, 6])
    act(s, "place 1 on green trial")
    assert crossed(s, 0, "green") == [1]
    assert s.trial[4] == 1 and s.trial_own[4] == 0


def test_example_second_die_crosses_the_sum_4():
    g, s = new(2)
    dice(s, 0, [1, 2, 2, 2, 2, 2])
    dice(s, 1, [3, 5, 5, 5, 5, 5])
    act(s, "place 1 on blue trial")
    act(s, "place 3 on blue trial")      # another player's die: "regardless of who placed it"
    assert crossed(s, 1, "blue") == [4]
    assert crossed(s, 0, "blue") == [1]


def test_full_trial_card_takes_no_die_and_box_must_be_crossable():
    g, s = new(2)
    dice(s, 0, [1, 2, 6, 6, 6, 6])
    dice(s, 1, [1, 3, 5, 5, 5, 5])
    cross(s, 1, "red", [1])
    sync(s)
    act(s, "place 1 on blue trial")
    assert "place 1 on red trial" not in legal_names(s)          # seat 1's red 1 is already crossed
    assert "place 3 on blue trial" in legal_names(s)
    cross(s, 1, "blue", [4])
    assert "place 3 on blue trial" not in legal_names(s)         # 1+3 = 4 already crossed
    act(s, "place 5 on blue trial")                             # 1+5 = 6
    act(s, "place 2 on red trial")
    assert not any(n.endswith("blue trial") for n in legal_names(s))   # both slots occupied
    with pytest.raises(IllegalActionError):
        act(s, "place 1 on blue trial")


def test_example_completed_green_column_gives_a_red_extra_cross_off():
    """'by crossing off the 10 in your green zone you complete a column ... the icon ... is red'."""
    g, s = new(2)
    # green column 3 holds 10, 4, 11: cross 4 and 11, then make the 10 with 4 + 6
    cross(s, 0, "green", [4, 11])
    dice(s, 0, [6, 6, 6, 6, 6, 6])
    dice(s, 1, [4, 1, 1, 1, 1, 1])
    turn_to(s, 1)
    act(s, "place 4 on green trial")          # seat 1 crosses its own green 4
    act(s, "place 6 on green trial")          # seat 0: 4 + 6 = 10
    assert crossed(s, 0, "green") == [4, 10, 11]
    assert s.current_player() == 0 and s.phase() == "extra cross-off"
    names = legal_names(s)
    assert names == {f"cross off red {v}" for v in range(1, 13)}
    act(s, "cross off red 12")
    assert crossed(s, 0, "red") == [12]
    assert s.phase() == "place a die" and s.current_player() == 1


def test_row_and_column_at_once_give_both_bonuses_and_chains_continue():
    g, s = new(2)
    # blue: row 1 = 1 6 8 11 (icon red), column 1 = 1 4 9 (icon green). Cross all but the 1.
    cross(s, 0, "blue", [6, 8, 11, 4, 9])
    # red row 2 = 6 11 1 9 (icon blue): leave only 9 free so the red extra cross-off chains on
    cross(s, 0, "red", [6, 11, 1])
    dice(s, 0, [1, 2, 2, 2, 2, 2])
    act(s, "place 1 on blue trial")
    assert s.pending == [(0, 0, 1), (0, 0, 2)]        # red (row icon) then green (column icon)
    act(s, "cross off red 9")                          # completes red row 2 -> blue extra cross-off, first
    assert s.pending[0] == (0, 0, 0)
    act(s, "cross off blue 2")
    act(s, "cross off green 5")
    assert not s.pending and s.current_player() == 1
    assert crossed(s, 0, "blue") == [1, 2, 4, 6, 8, 9, 11]


def test_extra_cross_off_in_a_full_grid_is_lost():
    g, s = new(2)
    cross(s, 0, "red", SHEET.values[1])
    cross(s, 0, "blue", [6, 8, 11])
    dice(s, 0, [1, 2, 2, 2, 2, 2])
    act(s, "place 1 on blue trial")                   # completes blue row 1 (icon red): red is full
    assert not s.pending and s.current_player() == 1


# -- laboratory cards --------------------------------------------------------------------------
def test_example_a3_die_of_2_crosses_the_3():
    """'by placing your die with a value of 2, you cross off the 3 - 2+1 - in your laboratory row'."""
    g, s = new(3)
    dice(s, 0, [2, 3, 5])
    assert "place 3 on A3" not in legal_names(s)      # "The value of the die must be even"
    act(s, "place 2 on A3")
    assert lab_crossed(s, 0) == [3]
    assert s.lab == [2, 0]


def test_example_both_players_cross_11():
    """'By placing the die showing 5, both players must cross off the box for 11'."""
    g, s = new(2)
    dice(s, 0, [6, 1, 1, 1, 1, 1])
    dice(s, 1, [5, 2, 2, 2, 2, 2])
    act(s, "place 6 on C2 left")
    assert lab_crossed(s, 0) == []                     # "you do not cross off any box. You must wait"
    act(s, "place 5 on C2 right")
    assert lab_crossed(s, 0) == [11] and lab_crossed(s, 1) == [11]
    # box 11 carries a wildcard: the completer circles first, then the first placer (not on turn)
    assert s.current_player() == 1 and s.phase() == "circle a wildcard"
    act(s, "circle a wildcard")
    assert s.current_player() == 0 and s.phase() == "circle a wildcard"
    act(s, "circle a wildcard")
    assert s.wild == [2, 2] and s.current_player() == 0 and s.phase() == "place a die"


@pytest.mark.parametrize("card,left,right,ok", [
    ("A2", 3, 3, True), ("A2", 3, 4, False),
    ("B2", 3, 4, True), ("B2", 4, 2, False), ("B2", 5, 3, False),
    ("C2", 5, 5, True), ("C2", 6, 2, True), ("C2", 2, 6, False),
    ("D2", 1, 2, True), ("D2", 4, 4, False)])
def test_two_slot_card_conditions(card, left, right, ok):
    other = {"A2": "B2", "B2": "C2", "C2": "D2", "D2": "A2"}[card]
    g, s = new(4, lab_cards=f"{card},{other}")
    dice(s, 0, [left, 1, 1])
    dice(s, 1, [right, 1, 1])
    act(s, f"place {left} on {card} left")
    assert (f"place {right} on {card} right" in legal_names(s)) == ok
    if ok:
        act(s, f"place {right} on {card} right")
        assert lab_crossed(s, 1) == [left + right]


def test_first_die_may_go_in_either_slot_and_c2_reads_left_and_right():
    g, s = new(2)
    dice(s, 0, [2, 1, 1, 1, 1, 1])
    dice(s, 1, [6, 1, 1, 1, 1, 1])
    act(s, "place 2 on C2 right")
    assert "place 6 on C2 left" in legal_names(s)     # 6 >= 2
    dice(s, 1, [1, 1, 1, 1, 1, 1])
    assert "place 1 on C2 left" not in legal_names(s)  # 1 < 2


@pytest.mark.parametrize("card,die,result", [
    ("A3", 2, 3), ("A3", 6, 7), ("A3", 3, 0), ("B3", 4, 8), ("B3", 6, 12), ("B3", 5, 0),
    ("C3", 1, 3), ("C3", 5, 7), ("C3", 2, 0), ("D3", 5, 10), ("D3", 1, 2), ("D3", 4, 0)])
def test_one_slot_cards_condition_and_transformation(card, die, result):
    other = {"A3": "B3", "B3": "C3", "C3": "D3", "D3": "A3"}[card]
    g, s = new(3, lab_cards=f"{card}+{other}")
    dice(s, 0, [die, die, die])
    if result == 0:
        assert f"place {die} on {card}" not in legal_names(s)
    else:
        act(s, f"place {die} on {card}")
        assert lab_crossed(s, 0) == [result]


def test_lab_completer_must_be_able_to_cross_first_placer_crosses_nothing_if_unable():
    g, s = new(2)
    dice(s, 0, [3, 1, 1, 1, 1, 1])
    dice(s, 1, [4, 4, 1, 1, 1, 1])
    s.labrow[0] |= 1 << 7          # the first placer already has the 7
    s.labrow[1] |= 1 << 8
    sync(s)
    act(s, "place 3 on B2 left")
    assert "place 4 on B2 right" in legal_names(s)
    act(s, "place 4 on B2 right")
    assert lab_crossed(s, 1) == [7, 8] and lab_crossed(s, 0) == [7]
    # completer unable: seat 0 (with 7 crossed) cannot complete 3 + 4 on C2 ... build it
    g, s = new(2)
    dice(s, 0, [4, 3, 1, 1, 1, 1])
    dice(s, 1, [3, 1, 1, 1, 1, 1])
    s.labrow[1] |= 1 << 7
    sync(s)
    act(s, "place 4 on C2 left")
    assert "place 3 on C2 right" not in legal_names(s)
    assert "place 1 on C2 right" in legal_names(s)


def test_first_placer_unable_to_cross_gets_no_advantage_either():
    """'If you placed first and ... you cannot cross off the resulting box, you cross off nothing':
    with the box already crossed, its advantage (6: extra cross-off) is not earned a second time."""
    g, s = new(2)
    dice(s, 0, [5, 1, 1, 1, 1, 1])
    dice(s, 1, [1, 2, 2, 2, 2, 2])
    s.labrow[0] |= 1 << 6          # the first placer already has the 6
    sync(s)
    act(s, "place 5 on C2 left")
    act(s, "place 1 on C2 right")  # 5 + 1 = 6: the completer crosses it and earns its extra cross-off
    assert lab_crossed(s, 1) == [6] and lab_crossed(s, 0) == [6]
    assert s.pending == [(1, 0, -1)]
    act(s, "cross off blue 7")
    assert not s.pending and s.current_player() == 0 and s.phase() == "place a die"


def test_same_player_may_complete_its_own_card_and_crosses_once():
    g, s = new(2)
    dice(s, 0, [3, 4, 1, 1, 1, 1])
    dice(s, 1, [1, 1, 1, 1, 1, 1])
    act(s, "place 3 on B2 left")
    act(s, "place 1 on contaminated samples")
    act(s, "place 4 on B2 right")
    assert lab_crossed(s, 0) == [7] and not s.pending


def test_full_lab_card_takes_no_die():
    g, s = new(3)
    dice(s, 0, [2, 3, 5])
    dice(s, 1, [2, 4, 6])
    act(s, "place 2 on A3")
    assert "place 2 on A3" not in legal_names(s)


# -- laboratory row advantages ------------------------------------------------------------------
def test_lab_extra_cross_off_any_colour_is_the_first_placers_action_off_turn():
    g, s = new(2)
    dice(s, 0, [5, 1, 1, 1, 1, 1])
    dice(s, 1, [1, 1, 1, 1, 1, 1])
    act(s, "place 5 on C2 left")
    act(s, "place 1 on C2 right")         # 5 + 1 = 6: extra cross-off for both (sheet box 6)
    assert s.current_player() == 1 and s.phase() == "extra cross-off"
    assert len(legal_names(s)) == 48      # any free box in any of the four diseases
    act(s, "cross off yellow 12")
    assert s.current_player() == 0 and s.phase() == "extra cross-off"    # seat 0, not on turn
    act(s, "cross off blue 7")
    assert crossed(s, 1, "yellow") == [12] and crossed(s, 0, "blue") == [7]
    assert s.phase() == "place a die" and s.current_player() == 0


def test_wildcard_box_circles_and_a_full_tube_circles_nothing():
    g, s = new(3)
    dice(s, 0, [4, 4, 4])
    act(s, "place 4 on A3")                # 4 + 1 = 5: wildcard box
    assert s.phase() == "circle a wildcard"
    act(s, "circle a wildcard")
    assert s.wild[0] == 2
    g, s = new(3)
    s.wild[0], s.wused[0] = 2, 2           # tube of 4 boxes: no empty box left
    dice(s, 0, [4, 4, 4])
    act(s, "place 4 on A3")
    assert not s.pending and s.current_player() == 1


# -- wildcards --------------------------------------------------------------------------------
def test_wildcard_changes_a_die_before_placing_it():
    """'you cross off a circled box to change your die from a value of 1 to a 5'."""
    g, s = new(2)
    dice(s, 0, [1, 2, 2, 2, 2, 2])
    assert "wildcard 1->5" in legal_names(s) and "wildcard 3->5" not in legal_names(s)
    act(s, "wildcard 1->5")
    assert s.wild[0] == 0 and s.wused[0] == 1 and s.phase() == "place the changed die"
    assert all(n.startswith("place 5 ") for n in legal_names(s))
    act(s, "place 5 on red trial")
    assert crossed(s, 0, "red") == [5] and s.reserve[0][1] == 0 and s.current_player() == 1
    # no circled wildcard left: no wildcard action
    dice(s, 1, [1, 1, 1, 1, 1, 1])
    act(s, "place 1 on contaminated samples")
    assert not any(n.startswith("wildcard") for n in legal_names(s))


def _last_die_of_the_game(**cfg):
    """2 players, 1 round: seat 0 places the round's 12th and last die, a 6; one wildcard each."""
    g, s = new(2, rounds=1, **cfg)
    s.starter, s.placed = 1, 11
    dice(s, 0, [6])
    dice(s, 1, [])
    s.virus = [[], []]
    sync(s)
    assert s.current_player() == 0
    return g, s


def test_a_wildcard_may_change_a_die_before_it_goes_to_the_contaminated_samples_card():
    """The audit's question (issue 18): may a wildcard turn a 6 into a 1 before contaminating it?
    'On your turn, before placing a die, you may cross off a wildcard you previously circled to change
    the value of one of your dice before placing it.' and 'If you cannot (or do not want to) place a die
    on a trial or laboratory card, you must place it on the contaminated samples card.' -- the rulebook
    calls contaminating a die placing it, and the wildcard sentence limits neither the value nor where
    the die goes; 'Add up the values of all the dice of your color on the contaminated samples card'
    counts the value the die shows. Default (the literal reading): allowed, for a net gain of 2 points."""
    g, s = _last_die_of_the_game()
    keep = s.clone()
    act(keep, "place 6 on contaminated samples")          # contaminate the 6, keep the wildcard
    assert keep.is_terminal() and keep.virus[0] == [6]
    assert keep.scores()[0] == 3 - 6                        # "3 points for each wildcard you have circled"
    act(s, "wildcard 6->1")
    assert "place 1 on contaminated samples" in legal_names(s)
    act(s, "place 1 on contaminated samples")
    assert s.is_terminal() and s.virus[0] == [1] and s.wild[0] == 0 and s.wused[0] == 1
    assert s.scores()[0] == 0 - 1                           # "Crossed-off wildcards score no points"
    assert s.scores()[0] - keep.scores()[0] == 2


def test_other_reading_a_changed_die_must_go_on_a_trial_or_laboratory_card():
    """Config `wildcard_then_contaminate=False` reads 'There are 2 types of cards where you can place a
    die: trial cards and laboratory cards' as the only placements a wildcard serves: the changed die
    may not go to the contaminated samples card, so a wildcard is offered only for a value some trial
    or laboratory slot takes."""
    g, s = _last_die_of_the_game(wildcard_then_contaminate=False)
    act(s, "wildcard 6->1")
    names = legal_names(s)
    assert "place 1 on contaminated samples" not in names and "place 1 on blue trial" in names
    # every trial card full and both laboratory cards taken: no value can be placed, no wildcard offered
    g, s = _last_die_of_the_game(wildcard_then_contaminate=False)
    s.trial, s.trial_own = [1] * 8, [1] * 8
    s.lab, s.lab_own = [2, 1, 2, 1], [1] * 4
    sync(s)
    assert legal_names(s) == {"place 6 on contaminated samples"}
    g, s = _last_die_of_the_game()                          # the default offers the wildcard still
    s.trial, s.trial_own = [1] * 8, [1] * 8
    s.lab, s.lab_own = [2, 1, 2, 1], [1] * 4
    sync(s)
    assert "wildcard 6->1" in legal_names(s)


def test_circled_unused_wildcards_score_three_each():
    g, s = new(2)
    s.wild = [3, 1]
    s.wused = [0, 1]
    sync(s)
    assert list(s.scores()) == [9.0, 3.0]


# -- priority access ------------------------------------------------------------------------
def test_first_lab_placement_takes_priority_and_starts_next_round():
    g, s = new(2, seed=3, rounds=2)
    dice(s, 0, [1, 1, 1, 1, 1, 1])
    dice(s, 1, [2, 2, 2, 2, 2, 2])
    act(s, "place 1 on contaminated samples")
    act(s, "place 2 on C2 left")
    assert s.priority == 1 and s.prio_taken
    act(s, "place 1 on C2 right")          # seat 0 places on a lab later: priority stays with 1
    assert s.priority == 1
    while s.rnd == 0:
        act(s, sorted(n for n in legal_names(s) if "contaminated" in n)[0])
    assert s.current_player() == 1 and s.starter == 1


def test_priority_stays_when_nobody_uses_a_lab():
    g, s = new(2, seed=3, rounds=2, first_player=1)
    assert s.current_player() == 1
    while s.rnd == 0:
        act(s, sorted(n for n in legal_names(s) if "contaminated" in n)[0])
    assert s.priority == 1 and s.current_player() == 1


# -- contaminated samples -------------------------------------------------------------------
def test_contamination_by_choice_and_the_round_total_in_the_virus_tube():
    g, s = new(2, rounds=1)
    dice(s, 0, [6, 6, 1, 1, 1, 1])
    dice(s, 1, [2, 2, 2, 2, 2, 2])
    assert "place 6 on red trial" in legal_names(s)
    act(s, "place 6 on contaminated samples")                  # "or do not want to"
    while not s.is_terminal():
        act(s, sorted(n for n in legal_names(s) if "contaminated" in n)[0])
    assert s.virus == [[6 + 6 + 4], [12]]
    assert list(s.scores()) == [3 - 16, 3 - 12]


def test_forced_contamination_is_the_only_move_when_nothing_can_be_crossed():
    g, s = new(2)
    s.grid[0] = [SHEET.full[c] for c in range(4)]
    s.labrow[0] = SHEET.lab_full
    s.wild[0] = 0
    dice(s, 0, [3, 3, 3, 3, 3, 3])
    dice(s, 1, [2, 2, 2, 2, 2, 2])
    s.lab[0], s.lab_own[0] = 2, 1                              # B2 left: seat 1's 2 (2+3 = 5 crossed)
    sync(s)
    # a first die on an empty double card needs no crossable box yet
    assert legal_names(s) == {"place 3 on contaminated samples", "place 3 on C2 left", "place 3 on C2 right"}
    s.lab[2], s.lab_own[2] = 6, 1                              # C2 left: 6 (6+3 = 9 crossed)
    sync(s)
    assert legal_names(s) == {"place 3 on contaminated samples"}
    s.wild[0] = 1
    sync(s)
    assert "wildcard 3->1" in legal_names(s)                   # a wildcard is always allowed when circled


def test_lone_die_in_double_slot_goes_to_contaminated_at_round_end():
    g, s = new(2, rounds=1)
    dice(s, 0, [5, 1, 1, 1, 1, 1])
    dice(s, 1, [1, 1, 1, 1, 1, 1])
    act(s, "place 5 on B2 left")
    while not s.is_terminal():
        act(s, sorted(n for n in legal_names(s) if "contaminated" in n)[0])
    assert s.virus[0] == [5 + 5] and s.virus[1] == [6]
    assert s.lab == [0, 0, 0, 0]


@pytest.mark.parametrize("dice0,dice1,moves,virus,lab,lab_own", [
    # a lone die on B2 left and one on C2 right: both go to the contaminated samples card
    ([5, 1, 1, 1, 1, 1], [3, 1, 1, 1, 1, 1], ["place 5 on B2 left", "place 3 on C2 right"],
     [5 + 5, 3 + 5], [0, 0, 0, 0], [-1, -1, -1, -1]),
    # a lone die on B2 right; C2 completed (5 >= 2): only the lone 4 is contaminated
    ([4, 2, 1, 1, 1, 1], [5, 1, 1, 1, 1, 1], ["place 4 on B2 right", "place 5 on C2 left", "place 2 on C2 right"],
     [4 + 4, 5], [0, 0, 5, 2], [-1, -1, 1, 0]),
    # B2 completed (3 odd, 4 even); a lone 6 on C2 left is contaminated
    ([3, 1, 1, 1, 1, 1], [4, 6, 1, 1, 1, 1], ["place 3 on B2 left", "place 4 on B2 right",
                                              "place 1 on contaminated samples", "place 6 on C2 left"],
     [5, 6 + 4], [3, 4, 0, 0], [0, 1, -1, -1]),
])
def test_only_dice_left_alone_on_a_double_card_are_contaminated_at_round_end(dice0, dice1, moves, virus, lab, lab_own):
    """'Do the same with dice that were left alone in a double laboratory slot': every card, either
    slot; a completed card's dice stay where they are. (Every other die here is a 1, contaminated.)"""
    g, s = new(2, rounds=1)
    dice(s, 0, dice0)
    dice(s, 1, dice1)
    for m in moves:
        act(s, m)
    while not s.is_terminal():
        act(s, "place 1 on contaminated samples")
    assert [v[0] for v in s.virus] == virus
    assert s.lab == lab and s.lab_own == lab_own
    g.state_from_dict(s.to_dict())                       # the position after the game is one the loader accepts


def test_the_virus_tube_gets_the_sum_of_the_contaminated_dice_values():
    """'Add up the values of all the dice of your color on the contaminated samples card and write the
    total in the first free box of the virus tube'."""
    g, s = new(2, rounds=2)
    dice(s, 0, [1, 2, 3, 4, 5, 6])
    dice(s, 1, [3, 3, 4, 4, 6, 6])
    while s.rnd == 0:
        p = s.current_player()
        v = next(v for v in range(1, 7) if s.reserve[p][v])
        act(s, f"place {v} on contaminated samples")
    assert s.virus == [[1 + 2 + 3 + 4 + 5 + 6], [3 + 3 + 4 + 4 + 6 + 6]]


def test_a_lone_lab_die_still_took_priority_access():
    """Assumption 12: the first die on a laboratory card takes priority even if it ends contaminated."""
    g, s = new(2, rounds=2)
    dice(s, 0, [1, 1, 1, 1, 1, 1])
    dice(s, 1, [5, 1, 1, 1, 1, 1])
    act(s, "place 1 on contaminated samples")
    act(s, "place 5 on B2 left")
    while s.rnd == 0:
        act(s, sorted(n for n in legal_names(s) if "contaminated" in n)[0])
    assert s.virus[1] == [5 + 5] and s.priority == 1 and s.current_player() == 1


# -- cures ------------------------------------------------------------------------------------
def test_first_cure_gets_speed_bonus_others_cross_it_out():
    g, s = new(3)
    cross(s, 0, "yellow", all_but("yellow", 4))
    cross(s, 1, "yellow", all_but("yellow", 6))
    dice(s, 0, [4, 4, 4])
    dice(s, 1, [2, 2, 2])
    act(s, "place 4 on yellow trial")
    # the 4 completes yellow row 1 (icon blue) and column 1 (icon red): extra cross-offs first
    assert s.pending == [(0, 0, 0), (0, 0, 1)] and s.cure[0][3] == 0
    act(s, "cross off blue 1")
    act(s, "cross off red 1")
    assert [s.cure[p][3] for p in range(3)] == [1, 2, 2]
    assert s.scores()[0] == 12 + 5 + 3
    act(s, "place 2 on yellow trial")                          # 4 + 2 = 6 completes seat 1's yellow
    while s.pending:
        act(s, sorted(legal_names(s))[0])
    assert crossed(s, 1, "yellow") == list(range(1, 13))
    assert [s.cure[p][3] for p in range(3)] == [1, 2, 2]       # "can no longer claim the prize"
    assert s.scores()[1] == 12 + 3


def test_a_claimed_cure_shows_on_every_sheet_in_every_seats_observation():
    """'Mark the corresponding box in the discovered cures area of your sheet ... All other players must
    immediately cross off that same box on their score sheets.' Observation field `cures` (n, 4, 2):
    per sheet (observer first, then clockwise) and colour: [speed bonus marked, box crossed out]."""
    g, s = new(3)
    cross(s, 0, "green", all_but("green", 5))
    dice(s, 0, [5, 1, 1])
    act(s, "place 5 on green trial")
    while s.pending:
        act(s, sorted(legal_names(s))[0])
    assert [s.cure[p][2] for p in range(3)] == [1, 2, 2]
    sl = g.layout.slices["cures"]
    for observer in range(3):
        cures = s.observation(observer)[sl].reshape(3, 4, 2)
        for rel in range(3):
            seat = (observer + rel) % 3
            expected = [[0, 0]] * 4
            expected[2] = [1, 0] if seat == 0 else [0, 1]          # green: marked by seat 0, crossed out by the others
            assert cures[rel].tolist() == expected, (observer, seat)
        assert [sh["cures"]["green"] for sh in s.view(observer)["sheets"]] == ["speed bonus", "crossed out", "crossed out"]


def test_simultaneous_cures_on_one_lab_completion_both_get_the_bonus():
    """'If, upon completing a laboratory card, two players discover the same cure at the same time
    (after making all extra cross-offs), both of them get the speed bonus for that color.'"""
    g, s = new(2)
    for p in (0, 1):
        cross(s, p, "red", all_but("red", 10))
    dice(s, 0, [5, 1, 1, 1, 1, 1])
    dice(s, 1, [1, 2, 2, 2, 2, 2])
    act(s, "place 5 on C2 left")
    act(s, "place 1 on C2 right")                 # 6: extra cross-off box for both
    act(s, "cross off red 10")                    # seat 1 completes red ... no bonus yet
    while s.pending and s.current_player() == 1:
        act(s, sorted(legal_names(s))[0])
    assert s.cure[1][1] == 0                      # not claimed before the other player's cross-offs
    assert s.current_player() == 0
    act(s, "cross off red 10")
    while s.pending:
        act(s, sorted(legal_names(s))[0])
    assert s.cure[0][1] == 1 and s.cure[1][1] == 1


# -- scoring ------------------------------------------------------------------------------------
@pytest.mark.parametrize("boxes,points", [(0, 0), (3, 0), (4, 5), (7, 5), (8, 10), (10, 10), (11, 12), (12, 12)])
def test_research_points_table(boxes, points):
    g, s = new(2)
    s.wild = [0, 0]
    cross(s, 0, "green", list(SHEET.values[2][:boxes]))
    assert s.scores()[0] == points


def test_final_score_adds_speed_bonus_wildcards_and_subtracts_virus_tube():
    g, s = new(2)
    cross(s, 0, "blue", SHEET.values[0])
    cross(s, 0, "red", [1, 2, 3, 4, 5])
    s.cure[0][0] = 1
    s.wild[0] = 2
    s.virus[0] = [3, 0, 7]
    sync(s)
    assert s.scores()[0] == 12 + 5 + 5 + 6 - 10


def test_tie_breaks_lab_boxes_then_contamination_then_shared():
    g, s = new(3, rounds=1)
    s.terminal = True
    s.wild = [1, 1, 1]
    s.virus = [[0], [0], [0]]
    s.labrow = [1 << 3 | 1 << 4, 1 << 3, 1 << 5 | 1 << 7]
    sync(s)
    assert list(s.scores()) == [3.0, 3.0, 3.0]
    assert list(s.returns()) == [0.5, -1.0, 0.5]               # most laboratory boxes: seats 0 and 2 share
    s.labrow = [1 << 3, 1 << 4, 1 << 5]
    s.wild = [2, 0, 1]
    s.virus = [[6], [0], [3]]                                  # points 0, 0, 0
    sync(s)
    assert list(s.scores()) == [0.0, 0.0, 0.0]
    assert list(s.returns()) == [-1.0, 1.0, -1.0]              # lowest contamination
    s.wild = [0, 0, 0]
    s.virus = [[0], [0], [0]]
    sync(s)
    assert list(s.returns()) == pytest.approx([1 / 3, 1 / 3, 1 / 3])   # "share the victory"


def test_tie_break_lowest_contamination():
    g, s = new(2, rounds=1)
    s.terminal = True
    s.wild = [0, 2]                 # 0 - 0 and 6 - 6: both score 0
    s.virus = [[0], [6]]
    sync(s)
    s.labrow = [1 << 3, 1 << 4]
    assert s.winners() == [0] and list(s.returns()) == [1.0, -1.0]


def test_truncation_by_max_turns_returns_zero():
    g, s = new(2, max_turns=5)
    for _ in range(5):
        act(s, sorted(n for n in legal_names(s) if "contaminated" in n)[0])
    assert s.is_terminal() and s.is_truncated() and list(s.returns()) == [0.0, 0.0]
