"""The checks OpenSpiel applies to games, run on ours: every player count, every game parameter.

`open_spiel.python.tests.games_sim_test` (random simulation with clone, pickle and pyspiel
serialization checks), `open_spiel.integration_tests.api_test` (the partial-tree API checks) and
`sampled_stochastic_games_test` (a pickled game goes on with the same sequence of games) ship in
the `open-spiel` wheel; these tests call them on our games.
"""
import pickle
import unittest

import numpy as np
import pyspiel
import pytest
from open_spiel.integration_tests import api_test
from open_spiel.python import test_utils
from open_spiel.python.tests import games_sim_test

import virus_envs
import virus_envs.openspiel as vo

GT = pyspiel.GameType
ALL_COUNTS = [(spec.short_name, n) for spec in vo.SPECS.values()
              for n in range(spec.game_class.min_players, spec.game_class.max_players + 1)]


def _load(name, n):
    # short games where the config allows it, so that every player count fits in the suite's time
    small = {"python_virus_co": {"rounds": 1}, "python_virus_lab": {"max_steps": 300}}
    return pyspiel.load_game(name, {"players": n, **small.get(name, {})})


@pytest.mark.parametrize("name,n", ALL_COUNTS)
def test_openspiel_games_sim_test(name, n):
    """OpenSpiel's own random-simulation test (games_sim_test.sim_game) on every player count.

    pyspiel's native serialization replays the history, which holds every chance outcome only where
    chance is explicit; a sampled-stochastic Python game cannot give pyspiel its RNG state
    (GetRNGState is not overridable from Python), so there the pickle round trip is checked alone."""
    g = _load(name, n)
    explicit = g.get_type().chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    games_sim_test.GamesSimTest().sim_game(g, check_pyspiel_serialization=explicit)


@pytest.mark.parametrize("name,n", ALL_COUNTS)
def test_pyspiel_random_sim_test(name, n):
    g = _load(name, n)
    explicit = g.get_type().chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(g, num_sims=1, serialize=explicit, verbose=False)


def _random_game_states(game, seed, limit=60):
    """States along one random game, the set-up's chance nodes left out (OpenSpiel's sample stays near the root)."""
    rs = np.random.RandomState(seed)
    s = game.new_initial_state()
    out = []
    while not s.is_terminal() and len(out) < limit:
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            s.apply_action(int(rs.choice(s.legal_actions())))
        if s.engine_state() is not None and rs.random_sample() < 0.3:
            out.append(s.clone())
    while not s.is_terminal():                   # and the end of the game
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            s.apply_action(int(rs.choice(s.legal_actions())))
    return out + [s]


def _run_api_tests(game, name, states=None):
    attrs = {"game": game, "game_name": name}
    if states is not None:
        attrs["setUpClass"] = classmethod(lambda cls: (setattr(cls, "some_states", states),
                                                       setattr(cls, "game_type", cls.game.get_type())))
    cls = type(f"Api_{name}", (api_test.EnforceAPIOnPartialTreeBase,), attrs)
    result = unittest.TextTestRunner(stream=open("/dev/null", "w"), verbosity=0).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(cls))
    problems = [f"{t.id()}: {err.strip().splitlines()[-1]}" for t, err in result.failures + result.errors]
    assert result.testsRun == 5 and not problems, problems


@pytest.mark.parametrize("name,n", [("python_virus_cards", 2), ("python_virus_cards", 5), ("python_roll_write", 3),
                                    ("python_virus_co", 4), ("python_virus_lab", 2)])
def test_openspiel_api_test_partial_tree(name, n):
    """OpenSpiel's api_test checks, on OpenSpiel's own sample of states and on states of random games."""
    g = _load(name, n)
    _run_api_tests(g, name)
    _run_api_tests(g, name, _random_game_states(g, seed=n))


def test_private_and_public_observers():
    """The engine gives a seat's whole view, not its public and private parts apart: such observers are
    unsupported (None) where something is private; in Roll & Write everything is public."""
    from open_spiel.python.observation import make_observation
    private_only = pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                              private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
    public_only = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                             private_info=pyspiel.PrivateInfoType.NONE)
    cards = pyspiel.load_game("python_virus_cards")
    assert make_observation(cards, private_only) is None and make_observation(cards, public_only) is None
    rw = pyspiel.load_game("python_roll_write")
    s = _random_game_states(rw, seed=0)[0]
    assert make_observation(rw, private_only).string_from(s, 0) == ""
    assert make_observation(rw, public_only).string_from(s, 0) == s.observation_string(0)


@pytest.mark.parametrize("name", ["python_virus_lab"])
def test_openspiel_sampled_stochastic_games_test(name):
    """OpenSpiel's test of sampled games: a pickled game goes on with the same sequence of games."""
    game = pyspiel.load_game(name, {"rng_seed": 0, "max_steps": 200})
    for seed in range(2):
        test_utils.random_playout(game.new_initial_state(), seed)
        copy = pickle.loads(pickle.dumps(game))
        a = test_utils.random_playout(game.new_initial_state(), seed)
        b = test_utils.random_playout(copy.new_initial_state(), seed)
        assert str(a) == str(b)


def test_rng_seed_seeds_the_sequence_of_games():
    a = pyspiel.load_game("python_virus_lab", {"rng_seed": 5})
    b = pyspiel.load_game("python_virus_lab", {"rng_seed": 5})
    first = [str(test_utils.random_playout(a.new_initial_state(), k)) for k in range(2)]
    assert first == [str(test_utils.random_playout(b.new_initial_state(), k)) for k in range(2)]
    assert first[0] != str(test_utils.random_playout(a.new_initial_state(), 0))   # the sequence moves on


@pytest.mark.parametrize("name,n", ALL_COUNTS)
def test_every_player_count_loads(name, n):
    g = pyspiel.load_game(f"{name}(players={n})")
    s = g.new_initial_state()
    assert g.num_players() == n and g.get_parameters()["players"] == n
    while s.is_chance_node():
        s.apply_action(0)
    assert s.engine_state().game.num_players == n and len(s.returns()) == n


# A value other than the default for every config key of every game, written out by hand. A key naming
# a file or folder gets a missing path: the engine's error, naming the key, shows the value reached it.
OTHER_VALUES = {
    "virus_cards_v0": {"deck": "seed_text", "max_turns": 77, "first_player": 1, "medicine_on_any_body": True,
                       "virus_on_own_body": True, "colour_rule": "card_and_organ"},
    "virus_co_v0": {"deck": "twelve_syringes", "rounds": 2, "first_player": 2, "max_turns": 99,
                    "mr_doctor": "fee_on_pass", "injection_on_virus": False, "cross_to_giver": False},
    "roll_write_v0": {"lab_cards": "A2,D2", "rounds": 3, "first_player": 1, "max_turns": 321,
                      "wildcard_then_contaminate": False},
    "virus_lab_v0": {"difficulty": 3, "p_positive": 0.25, "auto_slow_phase": False, "auto_display_choices": True,
                     "table_rows": 11, "table_cols": 13, "max_steps": 1234, "counter_attack": "per_turn",
                     "shields": "creature_attacks", "flat_bosses": "stay", "breach_explore_cube": False,
                     # the advanced elements (issues 15 and 16)
                     "legend": True, "legend_tiles": "dog+mutant,zombie+desu,blooder+verduko,tricker+executioner",
                     "advanced_combat": "ranged", "final_attack": True, "walls": True, "smoke_bombs": True,
                     "resolution_tokens": True, "real_time": True, "rt_countdown": 100, "rt_costs": "move=2",
                     "skills": "draft", "campaign": True, "campaign_games": 2, "morbo": True,
                     "teleport_rooms": True, "drifting_rooms": True, "multicolored_rooms": True,
                     "scenario": "reboot", "auto_child": False, "spy": True, "spy_verify": "holds", "pvp": True,
                     "boss_players": 1, "infected_boss": True, "boss_win": "all_bosses",
                     "campaign_boss_from": "start", "spy_xp": "no_bonus", "boss_xp": "win",
                     "campaign_infected": "reset", "campaign_escalation": "ladder", "campaign_ladder": "legend"},
}
# keys whose other value needs another key set with it ("Player vs Player (only for Spy mode variant)")
COMPANIONS = {"virus_lab_v0": {"pvp": {"spy": True},
                               "campaign_ladder": {"campaign_games": 2, "campaign_escalation": "ladder"}}}
PATH_KEYS = {"virus_cards_v0": ["deck_file"], "virus_co_v0": ["cards_file"],
             "roll_write_v0": ["sheet_file", "lab_cards_file"], "virus_lab_v0": ["data_dir"]}


@pytest.mark.parametrize("env_id", sorted(vo.SPECS))
def test_every_config_key_is_a_game_parameter(env_id):
    spec = vo.SPECS[env_id]
    defaults = virus_envs.game_class(env_id).DEFAULTS
    assert set(OTHER_VALUES[env_id]) | set(PATH_KEYS[env_id]) == set(defaults)    # the table covers every key
    params = pyspiel.load_game(spec.short_name).get_parameters()
    assert {k: params[k] for k in defaults} == dict(defaults)
    n = virus_envs.game_class(env_id).max_players
    for key, value in OTHER_VALUES[env_id].items():
        assert value != defaults[key]
        g = pyspiel.load_game(spec.short_name, {"players": n, **COMPANIONS.get(env_id, {}).get(key, {}), key: value})
        assert g.get_parameters()[key] == value
        assert g.shared.engine.config[key] == value and g.shared.engine.num_players == n, key
    for key in PATH_KEYS[env_id]:
        with pytest.raises(ValueError, match=f"'{key}'.*/no/such/place"):
            pyspiel.load_game(spec.short_name, {key: "/no/such/place"})


def test_a_bad_parameter_value_names_the_key():
    with pytest.raises(ValueError, match="colour_rule"):
        pyspiel.load_game("python_virus_cards", {"colour_rule": "nonsense"})
    with pytest.raises(ValueError, match="difficulty"):
        pyspiel.load_game("python_virus_lab", {"difficulty": 7})


@pytest.mark.parametrize("name,n,utility", [
    ("python_virus_cards", 2, GT.Utility.ZERO_SUM), ("python_virus_cards", 3, GT.Utility.GENERAL_SUM),
    ("python_virus_cards", 6, GT.Utility.GENERAL_SUM), ("python_roll_write", 2, GT.Utility.GENERAL_SUM),
    ("python_virus_co", 3, GT.Utility.GENERAL_SUM), ("python_virus_lab", 1, GT.Utility.IDENTICAL),
    ("python_virus_lab", 4, GT.Utility.IDENTICAL)])
def test_utility_per_player_count(name, n, utility):
    """VIRUS!: "+1 the winner, -1 the others" sums to 0 with two players only; Roll & Write and Virus & Co
    share a tie (1/2 each for two tied players: the sum is not constant); the board game is co-operative."""
    g = pyspiel.load_game(name, {"players": n})
    assert g.get_type().utility == utility
    if utility == GT.Utility.ZERO_SUM:
        assert g.utility_sum() == 0.0


def test_a_config_that_splits_the_table_into_sides_is_general_sum(monkeypatch):
    """A game of sides (the board game's Spy Mode or Boss players; docs/contract.md "Games of sides") is not
    co-operative: the loaded game's type follows the engine instance, not the class."""
    from virus_envs.openspiel.adapter import game_type
    from virus_envs.virus_lab.game import VirusLabGame

    spec = type(pyspiel.load_game("python_virus_lab")).spec
    assert game_type(spec, 2).utility == GT.Utility.IDENTICAL
    assert game_type(spec, 2, cooperative=False).utility == GT.Utility.GENERAL_SUM
    real_init = VirusLabGame.__init__

    def init(self, *a, **kw):
        real_init(self, *a, **kw)
        self.cooperative = False

    monkeypatch.setattr(VirusLabGame, "__init__", init)
    assert pyspiel.load_game("python_virus_lab", {"players": 2}).get_type().utility == GT.Utility.GENERAL_SUM


def test_returns_match_the_declared_utility():
    """Over random games: VIRUS! 2p returns sum to 0; the co-operative game's returns are all equal."""
    for name, n, check in [("python_virus_cards", 2, lambda r: sum(r) == 0.0),
                           ("python_virus_lab", 3, lambda r: len(set(r)) == 1)]:
        g = _load(name, n)
        for seed in range(3):
            s = _random_game_states(g, seed, limit=0)[-1]
            assert s.is_terminal() and check(s.returns()), (name, s.returns())
