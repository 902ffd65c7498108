"""virus_envs.openspiel: the four games as pyspiel games, checked with OpenSpiel's own tools."""
import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import virus_envs
import virus_envs.openspiel as vo

GT = pyspiel.GameType


def _load(name, n, **params):
    extra = "".join(f",{k}={v}" for k, v in params.items())
    return pyspiel.load_game(f"{name}(players={n}{extra})")


def _sample_chance(state, rs):
    outcomes, probs = zip(*state.chance_outcomes())
    assert abs(sum(probs) - 1.0) < 1e-9
    state.apply_action(int(rs.choice(outcomes, p=probs)))


def test_every_env_id_is_registered_under_its_name():
    names = set(pyspiel.registered_names())
    assert {s.short_name for s in vo.SPECS.values()} <= names
    assert set(vo.SPECS) == set(virus_envs.ENV_IDS)


@pytest.mark.parametrize("name,utility,information,chance", [
    ("python_virus_cards", GT.Utility.GENERAL_SUM, GT.Information.IMPERFECT_INFORMATION, GT.ChanceMode.EXPLICIT_STOCHASTIC),
    ("python_roll_write", GT.Utility.GENERAL_SUM, GT.Information.PERFECT_INFORMATION, GT.ChanceMode.EXPLICIT_STOCHASTIC),
    ("python_virus_co", GT.Utility.GENERAL_SUM, GT.Information.IMPERFECT_INFORMATION, GT.ChanceMode.EXPLICIT_STOCHASTIC),
    ("python_virus_lab", GT.Utility.IDENTICAL, GT.Information.IMPERFECT_INFORMATION, GT.ChanceMode.SAMPLED_STOCHASTIC),
])
def test_game_type(name, utility, information, chance):
    """The registered type (over every player count; a loaded game's utility: test_openspiel_checks.py)."""
    t = next(t for t in pyspiel.registered_games() if t.short_name == name)
    assert (t.utility, t.information, t.chance_mode) == (utility, information, chance)
    assert t.dynamics == GT.Dynamics.SEQUENTIAL and t.reward_model == GT.RewardModel.TERMINAL


def test_parameters_are_the_engine_config_keys():
    g = _load("python_virus_cards", 3, colour_rule="card_and_organ", max_turns=50)
    s = g.new_initial_state()
    while s.is_chance_node():
        s.apply_action(0)
    eng = s.engine_state().game
    assert eng.num_players == 3 and eng.config["colour_rule"] == "card_and_organ" and eng.config["max_turns"] == 50
    assert g.num_players() == 3 and g.num_distinct_actions() == eng.num_actions
    with pytest.raises(ValueError, match="colour_rule"):
        _load("python_virus_cards", 3, colour_rule="nonsense")
    with pytest.raises(Exception, match="players"):
        _load("python_virus_cards", 9)


def test_the_adapter_only_translates_the_engine():
    """Along a random game: legal actions, names, returns and observations are the engine's own."""
    rs = np.random.RandomState(1)
    g = _load("python_virus_co", 4)
    s = g.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            _sample_chance(s, rs)
            continue
        e = s.engine_state()
        p = s.current_player()
        assert p == e.current_player()
        assert s.legal_actions() == e.legal_actions()
        a = s.legal_actions()[rs.randint(len(s.legal_actions()))]
        assert s.action_to_string(p, a) == e.action_to_string(a)
        assert np.array_equal(np.asarray(s.observation_tensor(p)), e.observation(p).reshape(-1))
        s.apply_action(a)
    assert s.returns() == [float(x) for x in s.engine_state().returns()]
    # the engine state reached through the adapter is a valid state of the engine
    e = s.engine_state()
    d = s.clone().engine_state().to_dict() if not isinstance(e.rng, vo.adapter.ChanceTape) else None
    if d is not None:
        e.game.state_from_dict(d)


def test_dice_are_explicit_chance_nodes_with_six_equal_outcomes():
    g = _load("python_roll_write", 2)
    s = g.new_initial_state()
    assert s.is_chance_node()
    outs = s.chance_outcomes()
    assert [o for o, _ in outs] == list(range(6)) and all(abs(p - 1 / 6) < 1e-12 for _, p in outs)
    assert s.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "chance: 4 (of 1..6)"
    n = 0
    while s.is_chance_node():
        s.apply_action(5)           # every die a 6
        n += 1
    assert n == 12                  # 2 players x 6 dice ("6 per player with 2 players")
    assert s.engine_state().view(0)["sheets"][0]["reserve"] == [6] * 6


def test_the_deal_is_a_chance_node_per_card_position():
    g = _load("python_virus_cards", 2)
    s = g.new_initial_state()
    sizes = []
    while s.is_chance_node():
        sizes.append(len(s.chance_outcomes()))
        s.apply_action(0)
    deck = int(s.engine_state().game.deck.size)
    assert sizes == list(range(deck, 1, -1))     # Fisher-Yates: 68, 67, ..., 2 outcomes


def test_clone_is_independent_and_cheap_to_pickle():
    g = _load("python_virus_cards", 3)
    s = g.new_initial_state()
    rs = np.random.RandomState(0)
    while s.is_chance_node():
        _sample_chance(s, rs)
    t = s.clone()
    t.apply_action(t.legal_actions()[0])
    assert len(t.history()) == len(s.history()) + 1
    u = pickle.loads(pickle.dumps(s))
    assert u.observation_string(0) == s.observation_string(0) and u.history() == s.history()


@pytest.mark.parametrize("name", ["python_virus_cards", "python_virus_lab"])
def test_pickle_keeps_mid_game_and_resampled_states(name):
    """A sampled game's draws are not in its history, and a resampled state starts mid-game: both
    come back equal from pickle (a replay of the history from a new initial state would not)."""
    g = _load(name, 2)
    rs = np.random.RandomState(4)
    s = g.new_initial_state()
    for _ in range(300):
        if s.is_terminal():
            break
        if s.is_chance_node():
            _sample_chance(s, rs)
        else:
            s.apply_action(s.legal_actions()[rs.randint(len(s.legal_actions()))])
    while s.is_chance_node() or s.is_terminal():
        s = g.new_initial_state() if s.is_terminal() else s
        if s.is_chance_node():
            _sample_chance(s, rs)
    r = s.resample_from_infostate(s.current_player(), rs.random_sample)
    r.apply_action(r.legal_actions()[0])
    for t in (s, r):
        u = pickle.loads(pickle.dumps(t))
        assert str(u) == str(t) and u.history() == t.history()
        assert all(u.observation_string(p) == t.observation_string(p) for p in range(2))


@pytest.mark.parametrize("name,n", [("python_virus_cards", 3), ("python_virus_co", 3), ("python_virus_lab", 2)])
def test_resample_from_infostate_keeps_what_the_player_sees(name, n):
    g = _load(name, n)
    rs = np.random.RandomState(2)
    s = g.new_initial_state()
    for _ in range(40):
        if s.is_terminal():
            break
        if s.is_chance_node():
            _sample_chance(s, rs)
            continue
        p = s.current_player()
        for _ in range(3):
            r = s.resample_from_infostate(p, rs.random_sample)
            assert r.observation_string(p) == s.observation_string(p)
            assert r.legal_actions() == s.legal_actions()
        s.apply_action(s.legal_actions()[rs.randint(len(s.legal_actions()))])


def _play(state, bots, rs):
    while not state.is_terminal():
        if state.is_chance_node():
            _sample_chance(state, rs)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def test_openspiel_ismcts_bot_runs_unchanged():
    g = _load("python_virus_cards", 2)
    rs = np.random.RandomState(0)
    ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game=g, evaluator=ev, uct_c=2.0, max_simulations=5, random_state=rs,
                           use_observation_string=True)
    r = _play(g.new_initial_state(), [bot, vo.AgentBot(g, 1, "random", seed=1)], rs)
    assert sorted(r) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiel_mcts_bot_runs_on_the_perfect_information_game():
    g = _load("python_roll_write", 2)
    rs = np.random.RandomState(0)
    bot = mcts.MCTSBot(g, 2.0, 5, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    s = g.new_initial_state()
    while s.is_chance_node():
        _sample_chance(s, rs)
    assert s.information_state_string(0) == " ".join(map(str, s.history()))
    a = bot.step(s)
    assert a in s.legal_actions()


@pytest.mark.parametrize("name,n", [("python_virus_cards", 2), ("python_roll_write", 2), ("python_virus_co", 3)])
def test_evaluate_bots_seats_our_heuristic_against_uniform_random(name, n):
    g = _load(name, n)
    rs = np.random.RandomState(3)
    total = np.zeros(n)
    for k in range(4):
        bots = [vo.AgentBot(g, 0, "heuristic", seed=k)] + [pyspiel.make_uniform_random_bot(p, k) for p in range(1, n)]
        total += evaluate_bots.evaluate_bots(g.new_initial_state(), bots, rs)
    assert total.shape == (n,)


def test_agent_bot_refuses_another_seat():
    g = _load("python_virus_cards", 2)
    s = g.new_initial_state()
    while s.is_chance_node():
        s.apply_action(0)
    other = 1 - s.current_player()
    with pytest.raises(ValueError, match="seat"):
        vo.AgentBot(g, other, "random").step(s)


def test_no_perfect_recall_observer_for_imperfect_information():
    g = _load("python_virus_cards", 2)
    with pytest.raises(ValueError, match="perfect-recall"):
        g.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    obs = g.make_py_observer()
    s = g.new_initial_state()
    while s.is_chance_node():
        s.apply_action(0)
    obs.set_from(s, 0)
    assert obs.tensor.shape == (int(np.prod(s.engine_state().game.observation_shape)),)
    assert obs.string_from(s, 0) == s.observation_string(0)
