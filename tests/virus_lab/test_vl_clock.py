"""The Real Time phase against a simulated countdown (`real_time=True`, virus_envs/virus_lab/clock.py).

Each test quotes the rulebook passage it shows; the time model itself (seconds per action, the earliest clock
acts next) is the documented assumption of docs/rules/virus_lab.md ("Real Time clock").
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from vl_helpers import (at, check_invariants, creatures, empty_state, event_card, four, keep_wounds, patched_data,
                        put)
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.components import TK_ADREN
from virus_envs.virus_lab.flow import PH_LATE, PH_RESTORE, Q_EXTRA, Q_RT
from virus_envs.virus_lab.game import PH_ACT, PH_NONE, PH_RESULT, PH_ROLL, PH_SPEND, PH_WOUND, VirusLabGame

COSTS = "move=3,search=4,attack=10,adrenaline=2,pickup=2,exit=2"


def rt_state(n=1, countdown=60, costs=COSTS, **cfg):
    return empty_state(n, real_time=True, rt_countdown=countdown, rt_costs=costs, **cfg)


def restart_phase(s):
    """Start a new Real Time phase from the queue (the phase start: traps, late starts, the countdown)."""
    s.ph, s.queue, s.in_rt = PH_NONE, [[Q_RT]], False
    s._mask = None
    s._advance()


# ----------------------------------------------------------------------------------- the countdown
@pytest.mark.parametrize("level, heroes, seconds", [(1, 1, 150), (1, 4, 180), (2, 1, 120), (2, 2, 130),
                                                    (2, 4, 150), (3, 1, 90), (3, 3, 110)])
def test_countdown_by_difficulty_and_heroes(level, heroes, seconds):
    """ "The Real-Time phase lasts some seconds depending on Hero numbers and difficulty level used" (the numbers
    are the designed table of data/realtime.yaml: 150/120/90 s for 1 Hero at difficulty 1/2/3, +10 s a Hero)."""
    g = VirusLabGame(num_players=heroes, difficulty=level, real_time=True)
    s = g.new_initial_state(seed=0)
    assert s.ph == PH_ACT and s.countdown == seconds and s.clock == [0] * heroes
    g2 = VirusLabGame(num_players=heroes, difficulty=level, real_time=True, rt_countdown=45)
    assert g2.new_initial_state(seed=0).countdown == 45, "rt_countdown overrides the table"


def test_base_game_has_no_clock():
    """The default is the official "No Real Time" variant: no clock fields, the observation unchanged."""
    g = VirusLabGame(num_players=2)
    d = g.new_initial_state(seed=0).to_dict()
    assert "clock" not in d and "countdown" not in d
    assert g.observation_shape == (8293,)
    assert VirusLabGame(num_players=2, real_time=True).observation_shape == (8293 + 14,)


# ----------------------------------------------------------------------------------- simultaneous play
def test_the_earliest_clock_acts_next():
    """ "Actions are performed simultaneously by all players": the player whose clock is earliest acts next
    (ties from the Lead player), each action adding its seconds (move 3 s, search 4 s here)."""
    s = rt_state(3)
    c = put(s, 1, 5, four(s.g))
    assert s.cur == 0
    s.apply_action(A.MOVE + 2)                  # seat 0: 0 -> 3 s
    assert s.clock == [3, 0, 0] and s.cur == 1
    s.apply_action(A.MOVE + 2)                  # seat 1: 0 -> 3 s
    assert s.cur == 2
    s.apply_action(A.PASS)                      # seat 2 stops (passing is free)
    assert s.clock == [3, 3, 0] and s.cur == 0, "a tie at 3 s: from the Lead player"
    s.apply_action(A.SEARCH)                    # seat 0: 3 -> 7 s
    assert s.clock == [7, 3, 0] and s.cur == 1 and s.searched[c] == 0
    s.apply_action(A.MOVE + 0)                  # seat 1 back to the Starting Room: 3 -> 6 s
    assert s.cur == 1, "6 s is still earlier than 7 s"


def test_an_action_must_end_within_the_countdown():
    """ "When the countdown ends ... any actions not fully completed must be canceled": with 10 s and 3 s moves, a
    third move (to 9 s) is legal, a fourth is not; with less time left than the cheapest action (2 s here) the
    player is done and the phase ends."""
    s = rt_state(1, countdown=10)
    put(s, 1, 5, four(s.g))
    for d in (2, 0, 2):
        assert s.legal_action_mask()[A.MOVE + d]
        s.apply_action(A.MOVE + d)
    assert not s.in_rt, "1 s left: nothing fits, the countdown ended for him"
    s = rt_state(1, countdown=10, costs="move=4,search=4,attack=10,adrenaline=2,pickup=2,exit=2")
    put(s, 1, 5, four(s.g))
    s.apply_action(A.MOVE + 2)
    s.apply_action(A.MOVE + 0)
    m = s.legal_action_mask()
    assert s.clock == [8] and not m[A.MOVE + 2] and m[A.PASS], "2 s left: a 4 s move would not end in time"
    s.tok[0][TK_ADREN] += 1
    s.tok_pool[TK_ADREN] -= 1
    s._mask = None
    assert s.legal_action_mask()[A.ADREN], "a 2 s action still fits"


def test_combat_roll_costs_its_seconds_the_rest_is_free():
    """ "All rolls completed before the Real Time countdown ends are valid" and the FAQ "Can I still spend
    advantages ... after the time is up? Yes": the roll costs 10 s; building it, its result and the Successes
    cost nothing. An attack needs its 10 s; fleeing (a move) needs 3 s."""
    s = rt_state(1, countdown=30)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, dog=1)
    s.clock[0] = 21
    s._mask = None
    m = s.legal_action_mask()
    assert not m[A.ATTACK] and m[A.MOVE + 0], "9 s left: no roll, a flight"
    s.clock[0] = 20
    s._mask = None
    s.apply_action(A.ATTACK)
    assert s.ph == PH_ROLL and s.clock == [30]
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    assert s.ph == PH_RESULT
    s.apply_action(A.ACCEPT)
    while s.ph == PH_SPEND:
        s.apply_action(A.SPEND_DONE)
    keep_wounds(s)
    assert s.clock == [30] and not s.in_rt, "no second left: the phase ended after the roll"


def test_rolling_together_costs_each_hero_his_roll():
    """ "Each player simultaneously rolls on his own player board": attacking together costs every Hero who rolls
    his roll's seconds; a Hero without the time for it does not join."""
    s = rt_state(3, countdown=60)
    c = put(s, 1, 5, four(s.g))
    for p in range(3):
        at(s, p, c)
    creatures(s, c, zombie=1)
    s.clock = [0, 5, 55]
    s._mask = None
    assert s._partners(0) == [1], "seat 2 has 5 s left, less than a roll"
    s.apply_action(A.TOGETHER)
    assert s.clock == [10, 15, 55] and s.team == [0, 1]


def test_counter_attack_when_the_countdown_expires():
    """ "at least 1 Creature counter-attack must be done for each turn also if the player doesn't attack. In this
    case the counter-attack is done as soon the countdown expires": a Hero whose time ran out in a combat takes
    it."""
    s = rt_state(1, countdown=12)
    c = put(s, 1, 5, four(s.g))
    creatures(s, c, blooder=1)
    s.clock[0] = 9
    plain = [w for w in s.wound_deck if not s.g.comp.wound_heart[w]]
    s.wound_deck = [w for w in s.wound_deck if w not in plain[:3]] + plain[:3]   # no deep wound
    s._mask = None
    s.apply_action(A.MOVE + 2)          # into the Blooder's room: 9 -> 12 s, the countdown is over
    assert s.ph == PH_WOUND and not s.in_rt, "the Blooder counter-attacks at the end of the countdown"
    keep_wounds(s)
    assert len(s.wounds[0]) == 2, "a Blooder's attack: 2 Damage points"


# ----------------------------------------------------------------------------------- late starts
def test_late_start_recovers_advantages():
    """ "RECOVERING. A player may recover 1 spent Advantage by starting his Real Time phase 15 seconds later (or 2
    Advantages by starting 30 seconds later). The player must declare this intention to the other players before
    players start the Real Time phase. The player then flips 1 (or 2) room card(s) from his display face up" """
    s = rt_state(2, countdown=60)
    s.disp[0][0][1] = False                     # seat 0: one spent Advantage
    s.disp[1][2][1] = s.disp[1][5][1] = False   # seat 1: two
    restart_phase(s)
    assert s.ph == PH_LATE and s.cur == 0, "declared before the phase, from the Lead player"
    m = s.legal_action_mask()
    assert m[A.KEEP] and m[A.RECOVER] and m.sum() == 2
    s.apply_action(A.RECOVER)                   # 15 s later: his one face-down card is flipped face up
    assert all(up for _, up in s.disp[0]) and s.late[0] == 15
    assert s.ph == PH_LATE and s.cur == 1, "seat 0 has nothing more to recover"
    s.apply_action(A.RECOVER)
    assert s.ph == PH_RESTORE, "two face-down cards: he chooses which comes back"
    s.apply_action(A.FLIP + 5)
    assert s.disp[1][5][1] and not s.disp[1][2][1]
    assert s.ph == PH_LATE and s.cur == 1, "30 s for a second Advantage"
    s.apply_action(A.RECOVER)
    assert all(up for _, up in s.disp[1]) and s.late == [15, 30]
    assert s.ph == PH_ACT and s.clock == [15, 30] and s.cur == 0, "the phase starts; seat 0's clock is earliest"


def test_late_start_only_with_a_spent_advantage_and_at_most_30_seconds():
    s = rt_state(1, countdown=60)
    restart_phase(s)
    assert s.ph == PH_ACT, "no face-down card: nothing to declare"
    for k in range(3):
        s.disp[0][k][1] = False
    restart_phase(s)
    s.apply_action(A.RECOVER)
    s.apply_action(A.FLIP + 0)
    s.apply_action(A.RECOVER)
    s.apply_action(A.FLIP + 1)
    assert s.ph == PH_ACT and s.late == [30] and not s.disp[0][2][1], "2 Advantages at most (30 s)"
    s.apply_action(A.PASS)


def test_keep_starts_on_time():
    s = rt_state(1, countdown=60)
    s.disp[0][0][1] = False
    restart_phase(s)
    s.apply_action(A.KEEP)
    assert s.ph == PH_ACT and s.clock == [0] and not s.disp[0][0][1]


# ----------------------------------------------------------------------------------- No Real Time rules off
def test_no_real_time_rules_are_off_with_the_countdown():
    """ "NO REAL TIME ... Advantages: Players may pay 3 Action cubes at any time during the Real Time phase to
    recover 1 Advantage" and "Additional Creatures: After each Event phase, the Lead player must place/move X
    additional Creatures" are rules of the variant: with the countdown neither applies."""
    s = rt_state(1)
    s.disp[0][0][1] = False
    s._mask = None
    assert not s.legal_action_mask()[A.RECOVER]
    base = empty_state(1)
    base.disp[0][0][1] = False
    base._mask = None
    assert base.legal_action_mask()[A.RECOVER]
    # an Event numbered 10: X = 3 x Heroes additional Creatures in "No Real Time", none with the countdown
    for st, added in ((rt_state(1), 0), (empty_state(1), 3)):
        row = [put(st, 1, col, four(st.g, 0, col - 3)) for col in (3, 4, 5)]
        for c in row[:2]:
            creatures(st, c, zombie=1)
        st.event = event_card(st, number=10)
        before = sum(st.pool)
        st._step([Q_EXTRA])
        assert before - sum(st.pool) == added


# ----------------------------------------------------------------------------------- config, data, loader
def test_bad_config_names_the_key():
    with pytest.raises(ValueError, match="rt_costs"):
        VirusLabGame(num_players=1, real_time=True, rt_costs="walk=3")
    with pytest.raises(ValueError, match="rt_costs"):
        VirusLabGame(num_players=1, real_time=True, rt_costs="move=0")
    with pytest.raises(ValueError, match="rt_countdown"):
        VirusLabGame(num_players=1, real_time=True, rt_countdown=-1)
    with pytest.raises(ValueError, match="real_time"):
        VirusLabGame(num_players=1, real_time="yes")


def test_bad_data_file_names_file_and_field(tmp_path):
    patched_data(tmp_path, "realtime.yaml", "  move: 3", "  move: 0")
    with pytest.raises(ValueError, match=r"data_dir.*realtime.yaml.*seconds.move"):
        VirusLabGame(num_players=1, real_time=True, data_dir=str(tmp_path))
    os.remove(tmp_path / "realtime.yaml")
    g = VirusLabGame(num_players=1, real_time=True, data_dir=str(tmp_path))
    assert g.new_initial_state(seed=0).countdown == 120, "no realtime.yaml there: the built-in one"


def test_round_trip_and_loader():
    s = rt_state(2)
    s.apply_action(A.PASS)
    g = s.g
    d = s.to_dict()
    s2 = g.state_from_dict(d)
    assert s2.to_dict() == d and s2.clock == s.clock and s2.countdown == s.countdown
    bad = dict(d, late=[20, 0])
    with pytest.raises(ValueError, match="late"):
        g.state_from_dict(bad)
    with pytest.raises(ValueError, match="clock"):
        g.state_from_dict(dict(d, clock=[0]))
    base = VirusLabGame(num_players=2)
    with pytest.raises(ValueError):
        base.state_from_dict(d)


def test_view_and_observation_show_the_clock():
    s = rt_state(2, countdown=60)
    put(s, 1, 5, four(s.g))
    s.apply_action(A.MOVE + 2)
    v = s.view(1)
    assert v["clock"] == {"countdown": 60, "used": [3, 0], "left": [57, 60], "late_start": [0, 0]}
    o = s.observation(1)
    blk = o[s.g.layout.slices["clock"]]
    assert blk[0] == pytest.approx(60 / 300)
    assert blk[2:5] == pytest.approx([0, 1, 0]), "the observer first"
    assert blk[5:8] == pytest.approx([3 / 60, 57 / 60, 0])


# ----------------------------------------------------------------------------------- play
@pytest.mark.parametrize("n, level", [(1, 1), (2, 2), (3, 3), (4, 2)])
def test_random_playouts_keep_the_invariants_and_the_countdown(n, level):
    g = VirusLabGame(num_players=n, difficulty=level, real_time=True)
    for seed in range(2):
        s = g.new_initial_state(seed=seed)
        rng = np.random.default_rng(seed)
        k = 0
        while not s.is_terminal():
            s.apply_action(int(rng.choice(s.legal_actions())))
            k += 1
            assert all(0 <= c <= s.countdown for c in s.clock), "no action ends after the countdown"
            assert all(x in (0, 15, 30) for x in s.late)
            if k % 7 == 0:
                check_invariants(s)
                assert g.state_from_dict(s.to_dict()).to_dict() == s.to_dict()


@pytest.mark.parametrize("n", [1, 2, 4])
def test_heuristic_team_plays_the_countdown_legally(n):
    """The team heuristic against the clock: every action from the mask (play_game applies it; an illegal one
    raises), whole games, late starts declared when the display has spent Advantages."""
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    from virus_envs.experiments.arena import play_game
    g = VirusLabGame(num_players=n, difficulty=1, real_time=True)
    for seed in range(3):
        st, _ = play_game(g, [VirusLabHeuristic(g) for _ in range(n)], seed=seed)
        assert st.is_terminal() and not st.is_truncated()


def test_cli_plays_the_countdown(tmp_path, capsys):
    """`virus-arena eval ... --game-config real_time=true`: a team of heuristics against the clock; a bad key
    is a one-line message and a non-zero exit."""
    import json

    from virus_envs.experiments.cli import main
    out = tmp_path / "e.json"
    main(["eval", "--game", "virus_lab_v0", "--players", "1", "--game-config", "real_time=true", "--game-config",
          "rt_countdown=60", "--agent", "heuristic", "--games", "2", "--out", str(out)])
    assert json.loads(out.read_text())
    with pytest.raises(SystemExit) as e:
        main(["eval", "--game", "virus_lab_v0", "--players", "1", "--game-config", "real_time=true",
              "--game-config", "rt_costs=walk=3", "--games", "1"])
    assert e.value.code not in (0, None) and "rt_costs" in str(e.value.code), "SystemExit(message): exit status 1"
