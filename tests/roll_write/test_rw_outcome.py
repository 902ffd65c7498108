"""Who wins, against oracles written from the rulebook, and dice to come that nobody may know.

The final evaluations below are worked out by hand from the sheets each scenario builds; the
oracle (`rw_oracle.rulebook_returns`) is the rulebook's "End of the Game and Scoring" written out
in the tests, not the engine's tables. Returns are checked against both.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from rw_helpers import act, cross, dice, new, sync
from rw_oracle import evaluation, rulebook_returns
from virus_envs import agents
from virus_envs.experiments.arena import play_game
from virus_envs.roll_write.game import RollWriteGame
from virus_envs.roll_write.sheet import COLOURS

ALL = list(range(1, 13))           # every grid of the shipped sheet holds the boxes 1..12


def ended(n=2, **cfg):
    """A game over after its one round, every sheet blank (no wildcard circled, nothing contaminated)."""
    g, s = new(n, rounds=1, **cfg)
    s.terminal = True
    s.rnd = 1
    s.wild = [0] * n
    s.virus = [[0] for _ in range(n)]
    sync(s)
    return g, s


# -- each part of the final evaluation decides a game ------------------------------------------
def test_speed_bonus_decides_the_winner():
    """'If no one has claimed it for this color yet, speed bonus! ... you will earn 5 additional points'
    and the others 'can no longer claim the prize for this color'."""
    g, s = ended(2)
    cross(s, 0, "blue", ALL)
    cross(s, 1, "blue", ALL)                 # completed blue too, after seat 0
    s.cure[0][0], s.cure[1][0] = 1, 2        # seat 0 marked the cure, seat 1 crossed its box out
    s.wild = [0, 1]
    sync(s)
    # seat 0: blue 12 boxes -> 12, speed bonus 5                    = 17
    # seat 1: blue 12 boxes -> 12, no bonus, one circled wildcard 3 = 15
    assert list(s.scores()) == [17, 15] and s.scores().dtype == np.float64     # game points, as floats
    assert s.winners() == [0]
    assert list(s.returns()) == [1.0, -1.0] == rulebook_returns(s.view(0))


def test_a_cure_found_on_the_games_last_placement_decides_the_winner():
    """'When you cross off every number in a disease's grid, you have discovered a cure! If no one has
    claimed it for this color yet, speed bonus!' -- found with the very last die of the game, after
    the extra cross-offs its completed row and column give ('after making all extra cross-offs')."""
    g, s = new(2, rounds=1)
    s.wild = [0, 0]
    cross(s, 0, "blue", [1, 2, 3, 4, 5, 6, 7, 8])        # 8 boxes -> 10
    cross(s, 0, "green", [1, 2, 3, 4])                   # 4 boxes -> 5: seat 0 has 15
    cross(s, 1, "red", [v for v in ALL if v != 7])       # 11 boxes -> 12: seat 1 has 12
    # the last of the round's 12 placements: seat 1's 4 on the red trial card, next to seat 0's 3
    s.starter, s.placed = 0, 11
    s.trial[2], s.trial_own[2] = 3, 0
    s.reserve[0] = [0] * 7
    s.contam[0] = [0, 0, 0, 0, 0, 5, 0]                  # seat 0's other five dice (not in a tube yet)
    dice(s, 1, [4])
    s.contam[1] = [0, 0, 0, 0, 1, 4, 0]                  # seat 1's: a 4 and four 5s
    sync(s)
    assert s.current_player() == 1
    act(s, "place 4 on red trial")                       # 3 + 4: the red 7, row 1 (icon green), column 2 (blue)
    act(s, "cross off green 1")
    act(s, "cross off blue 1")
    assert s.is_terminal() and not s.is_truncated()
    # virus tubes: seat 0 five 5s = 25, seat 1 4 + 5 + 5 + 5 + 5 = 24
    # seat 0: blue 8 -> 10, green 4 -> 5, minus 25                            = -10
    # seat 1: red 12 -> 12, speed bonus 5, green 1 and blue 1 -> 0, minus 24  = -7  (without the cure: -12)
    assert s.cure[1][1] == 1 and s.cure[0][1] == 2
    assert list(s.scores()) == [-10, -7]
    assert list(s.returns()) == [-1.0, 1.0] == rulebook_returns(s.view(0))


def test_circled_wildcards_decide_and_used_ones_score_nothing():
    """'add 3 points for each of them. Crossed-off wildcards score no points.'"""
    g, s = ended(2)
    cross(s, 0, "red", [1, 2, 3, 4])
    cross(s, 1, "red", [1, 2, 3, 4])
    s.wild, s.wused = [2, 1], [0, 3]
    sync(s)
    # seat 0: 5 + 2 circled x 3 = 11; seat 1: 5 + 1 circled x 3 (3 crossed off: 0) = 8
    assert list(s.scores()) == [11, 8]
    assert list(s.returns()) == [1.0, -1.0] == rulebook_returns(s.view(0))


def test_contamination_is_subtracted_and_decides():
    """'Contaminated samples: ... Remember that you must subtract this from your score.'"""
    g, s = ended(2)
    cross(s, 0, "yellow", [1, 2, 3, 4, 5, 6, 7, 8])
    cross(s, 1, "yellow", [1, 2, 3, 4])
    s.virus = [[7], [1]]
    sync(s)
    # seat 0: 10 - 7 = 3; seat 1: 5 - 1 = 4
    assert list(s.scores()) == [3, 4]
    assert list(s.returns()) == [-1.0, 1.0] == rulebook_returns(s.view(0))


def test_laboratory_boxes_break_a_tie_before_contamination():
    """'In the event of a tie, the player who has crossed off the most boxes in the laboratory row wins.
    If the tie persists, whoever has the lowest contaminated samples value wins.'"""
    g, s = ended(2)
    cross(s, 0, "green", [1, 2, 3, 4])
    s.wild = [1, 0]
    s.virus = [[8], [0]]                           # seat 0: 5 + 3 - 8 = 0; seat 1: 0
    s.labrow = [1 << 3 | 1 << 4 | 1 << 7, 1 << 3 | 1 << 9]
    sync(s)
    assert list(s.scores()) == [0, 0]
    assert list(s.returns()) == [1.0, -1.0] == rulebook_returns(s.view(0))   # 3 boxes beat 2, whatever the virus tube


def test_three_seats_two_share_after_both_tie_breaks():
    """'If there is still a tie, the committee decides to award the scholarship to all tied players,
    who share the victory.'"""
    g, s = ended(3)
    s.wild = [1, 1, 2]
    s.virus = [[2], [2], [5]]                      # 3 - 2 = 1, 1, 6 - 5 = 1
    s.labrow = [1 << 3, 1 << 5, 1 << 4]
    sync(s)
    assert list(s.scores()) == [1, 1, 1]
    assert list(s.returns()) == [0.5, 0.5, -1.0] == rulebook_returns(s.view(2))   # seat 2 loses on contamination


@pytest.mark.parametrize("n", [2, 3, 4])
def test_played_games_end_with_the_rulebook_winners(n):
    """On finished games of the heuristic (and its variants) against itself, the returns are those of
    the oracle above, read from the public sheets."""
    g = RollWriteGame(num_players=n)
    specs = ("heuristic", "heuristic:spoiler", "heuristic:cautious")
    bonuses = 0
    for k in range(16):
        line = [agents.make(specs[(p + k) % 3], g, seed=k) for p in range(n)]
        s, _ = play_game(g, line, seed=1000 + k)
        view = s.view(0)
        assert list(s.returns()) == pytest.approx(rulebook_returns(view))
        assert list(s.scores()) == [evaluation(sh) for sh in view["sheets"]]
        assert [sh["score"] for sh in view["sheets"]] == [evaluation(sh) for sh in view["sheets"]]
        bonuses += sum(1 for sh in view["sheets"] for c in COLOURS if sh["cures"][c] == "speed bonus")
    if n == 2:
        assert bonuses >= 1       # the sample does hold speed bonuses (they are rarer with more players)


# -- the dice to come: "Dice are only rolled once per round!" and nobody knows the next roll -----
def _last_placement_of_round(seed):
    """Round 1 of a 2-player game, every die but the last one contaminated (the next roll comes next)."""
    g, s = new(2, seed=seed)
    while s.placed < g.per_round - 1:
        act(s, sorted(x for x in {s.action_to_string(a) for a in s.legal_actions()} if "contaminated" in x)[0])
    return g, s


def test_determinize_does_not_know_the_next_roll():
    g, s = _last_placement_of_round(3)
    before = json.dumps(s.to_dict(), sort_keys=True)
    last = next(a for a in s.legal_actions() if "contaminated" in s.action_to_string(a))
    truth = s.clone()
    truth.apply_action(last)
    assert truth.rnd == 1
    true_roll = truth.reserve
    rolls = []
    sampler = np.random.default_rng(0)
    for k in range(8):
        for p in (0, 1):
            t = s.determinize(p, sampler)
            t.apply_action(last)
            rolls.append(json.dumps(t.reserve))
    # 12 dice: a sample repeating the true roll by chance is very unlikely (< 1 in 10^4 per sample)
    assert rolls.count(json.dumps(true_roll)) <= 1, "determinize knows the dice to come"
    assert len(set(rolls)) >= 15, "determinize draws the same future every time"
    # the state asked is untouched (its own dice to come stay its own)
    assert json.dumps(s.to_dict(), sort_keys=True) == before
    s.apply_action(last)
    assert s.reserve == true_roll


def test_determinize_is_reproducible_from_the_samplers_generator():
    g, s = _last_placement_of_round(4)
    a = s.determinize(0, np.random.default_rng(9))
    b = s.determinize(0, np.random.default_rng(9))
    assert json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)
