"""The advanced elements of issues 15 and 16 switched on together (they were built in parallel)."""
from __future__ import annotations

import numpy as np
import pytest

import virus_envs

TOGETHER = [dict(real_time=True, smoke_bombs=True, advanced_combat="ranged", resolution_tokens=True),
            dict(skills="auction", legend=True, walls=True, final_attack=True),
            dict(campaign=True, legend=True, walls=True, final_attack=True, resolution_tokens=True),
            dict(campaign_games=2, smoke_bombs=True),
            dict(spy=True, pvp=True, real_time=True, smoke_bombs=True, advanced_combat="ranged", legend=True),
            dict(scenario="reboot", real_time=True, advanced_combat="ranged", walls=True),
            dict(scenario="save_the_child", legend=True, final_attack=True, auto_slow_phase=False, auto_child=False),
            dict(scenario="captive", skills="draft", smoke_bombs=True, resolution_tokens=True),
            dict(scenario="captive", campaign=True), dict(campaign_games=2, scenario="save_the_child"),
            dict(spy=True, pvp=True, scenario="reboot"), dict(spy=True, scenario="captive", real_time=True),
            dict(spy=True, scenario="save_the_child", auto_child=False),
            dict(boss_players=1, infected_boss=True, real_time=True, smoke_bombs=True, final_attack=True,
                 legend=True, walls=True, advanced_combat="ranged", resolution_tokens=True)]


@pytest.mark.parametrize("cfg", TOGETHER)
def test_random_games_with_elements_of_both_parts(cfg):
    g = virus_envs.game("virus_lab_v0", 2, **cfg)
    rng = np.random.default_rng(1)
    for seed in range(2):
        s = g.new_initial_state(seed=seed)
        while not s.is_terminal():
            s.apply_action(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
            if rng.random() < 0.02:
                assert g.state_from_dict(s.to_dict()).to_dict() == s.to_dict()
                s.observation(s.current_player() if s.current_player() >= 0 else 0)


def test_the_countdown_prices_the_added_actions():
    """A ranged attack takes a player as long as an attack (an attack is "choose the cubes ... and roll them");
    throwing a Smoke bomb as long as activating a room (assumption of the clock: data/realtime.yaml)."""
    g = virus_envs.game("virus_lab_v0", 1, real_time=True, smoke_bombs=True, advanced_combat="ranged")
    names = g.actions.names
    ranged = [i for i, n in enumerate(names) if n.startswith("ranged attack")]
    smoke = names.index("use smoke bomb")
    assert len(g.rt_cost) == g.num_actions == len(names)
    assert {int(g.rt_cost[i]) for i in ranged} == {10}           # attack: 10 s in the shipped realtime.yaml
    assert int(g.rt_cost[smoke]) == 3                             # activate: 3 s
    assert int(g.rt_cost[names.index("buy smoke bomb")]) == 0     # bought at turn end, not in Real Time


@pytest.mark.parametrize("cfg", [{}, dict(smoke_bombs=True), dict(smoke_bombs=True, real_time=True)])
def test_no_search_in_combat_whatever_the_options(cfg):
    """ACTION COSTS TABLE: "Search | 3 actions/room | NO" (in combat). A merge of the Smoke-bomb mask once
    offered Search beside Creatures when Smoke bombs were off."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from vl_helpers import at, corridor, creatures, empty_state

    from virus_envs.virus_lab.actions import A

    s = empty_state(1, **cfg)
    rooms = corridor(s, 2, range(1, 5))
    at(s, 0, rooms[1])
    s._mask = None
    assert s.legal_action_mask()[A.SEARCH]
    creatures(s, rooms[1], dog=1)
    s._mask = None
    assert not s.legal_action_mask()[A.SEARCH]


def test_the_countdown_and_the_scenario_decisions():
    """Reboot with `real_time=True`: opening the exit in the Real Time phase asks the Lead player's two counts of
    the Room Positioning Method (no seconds: placing the Scenario room is no Real Time action), then the phase goes
    on; deactivating the Computer Room is `activate room` (3 s in the shipped realtime.yaml)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from vl_helpers import at, empty_state

    from virus_envs.virus_lab.actions import A

    s = empty_state(1, scenario="reboot", real_time=True)
    at(s, 0, s.exit_cells[0])
    s.apply_action(A.ACTIVATE)
    assert s.phase().startswith("scenario") and s.clock == [3]
    s.apply_action(A.OPTION)
    s.apply_action(A.OPTION)
    assert s.sc_cell >= 0 and s.phase() == "real time phase" and s.clock == [3]
    assert int(s.g.rt_cost[A.ACTIVATE]) == 3 and int(s.g.rt_cost[A.OPTION]) == 0
