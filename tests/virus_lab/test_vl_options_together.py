"""The advanced elements of issues 15 and 16 switched on together (they were built in parallel)."""
from __future__ import annotations

import numpy as np
import pytest

import virus_envs

TOGETHER = [dict(real_time=True, smoke_bombs=True, advanced_combat="ranged", resolution_tokens=True),
            dict(real_time=True, smoke_bombs=True, advanced_combat="full", resolution_tokens=True, final_attack=True,
                 morbo=True),
            dict(skills="auction", legend=True, walls=True, final_attack=True, teleport_rooms=True, drifting_rooms=True,
                 multicolored_rooms=True, auto_slow_phase=False),
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
                 legend=True, walls=True, advanced_combat="ranged", resolution_tokens=True),
            # the divided combat, Morbo and the special rooms (built beside Spy Mode and the Scenarios)
            dict(spy=True, pvp=True, advanced_combat="full", morbo=True, real_time=True),
            dict(spy=True, morbo=True, teleport_rooms=True, drifting_rooms=True, multicolored_rooms=True),
            dict(scenario="save_the_child", drifting_rooms=True, teleport_rooms=True, auto_child=False,
                 advanced_combat="divided"),
            dict(scenario="captive", teleport_rooms=True, drifting_rooms=True, multicolored_rooms=True, morbo=True,
                 real_time=True),
            dict(campaign_games=2, scenario="reboot", drifting_rooms=True, advanced_combat="full"),
            # Boss players beside the divided combat, Morbo and the special rooms (merged last)
            dict(boss_players=1, advanced_combat="full", morbo=True, teleport_rooms=True, drifting_rooms=True,
                 multicolored_rooms=True, real_time=True)]


# Boss players with Spy Mode, the Scenarios and a campaign, Spy Mode in a campaign (issue 16, part 2): seat counts
# these need (Spy Mode: 2 Heroes or more; Boss players: 1-2 seats beyond the Heroes)
SEATED = [(4, dict(spy=True, pvp=True, boss_players=1, skills="auction", real_time=True)),
          (5, dict(spy=True, scenario="captive", boss_players=2, infected_boss=True, advanced_combat="divided")),
          (5, dict(scenario="save_the_child", boss_players=1, auto_child=False, legend=True, final_attack=True)),
          (6, dict(scenario="reboot", boss_players=2, skills="draft", smoke_bombs=True, morbo=True)),
          (3, dict(campaign=True, spy=True, pvp=True, boss_players=1, walls=True)),
          (3, dict(campaign_games=2, boss_players=1, difficulty=3, spy_xp="no_bonus", boss_xp="win")),
          (4, dict(campaign_games=2, boss_players=2, campaign_boss_from="start", infected_boss=True,
                   campaign_infected="reset", scenario="captive")),
          (3, dict(campaign_games=2, spy=True, real_time=True)),
          # the campaign's escalation: the players' choice (default) or the user's ladder (issue 16, ladder)
          (3, dict(campaign_games=2, boss_players=1, campaign_escalation="choice", difficulty=3, smoke_bombs=True)),
          (2, dict(campaign_games=2, campaign_escalation="ladder", campaign_ladder="spy,difficulty,legend",
                   advanced_combat="ranged"))]


@pytest.mark.parametrize("n,cfg", [(2, c) for c in TOGETHER] + SEATED)
def test_random_games_with_elements_of_both_parts(n, cfg):
    g = virus_envs.game("virus_lab_v0", n, **cfg)
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


def test_the_countdown_prices_the_divided_combat():
    """The distance-0 shot is a ranged attack (an attack's seconds); asking to take a Creature and the answers are
    talk between the Heroes of one fight, free like the combat's sub-decisions (assumption 35)."""
    g = virus_envs.game("virus_lab_v0", 2, real_time=True, advanced_combat="full")
    names = g.actions.names
    assert int(g.rt_cost[names.index("ranged attack here (distance 0)")]) == 10
    for name in ("take zombie from the other heroes", "agree: give the creature", "refuse: keep the creatures"):
        assert int(g.rt_cost[names.index(name)]) == 0


def test_the_countdown_prices_a_teleport_as_an_activation():
    """ "A player must spend 1 Action cube to activate a Teleport room": an activation's seconds (3 s); the drift
    of a room is the Lead player's, at the Turn End (no seconds)."""
    g = virus_envs.game("virus_lab_v0", 2, real_time=True, teleport_rooms=True, drifting_rooms=True)
    names = g.actions.names
    assert {int(g.rt_cost[names.index(f"teleport to room {i}")]) for i in range(4)} == {3}
    assert {int(g.rt_cost[names.index(f"drift room {x}")]) for x in "NESW"} == {0}


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
