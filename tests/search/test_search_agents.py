"""The search agents (`ismcts`, `pimc`): specs, legality, determinism, what they may see, and that they beat random.

Small budgets: these tests check behaviour, not strength (strength figures are in docs/agents/strength.md).
"""
import numpy as np
import pytest

import virus_envs
from search_handles import RecordingHandle, ReplayHandle
from virus_envs import agents
from virus_envs.agents.base import Decision, decision_for
from virus_envs.core.seeding import make_rng
from virus_envs.experiments.arena import play_game
from virus_envs.core.positions import choice_positions

# (env id, players, engine config) for every game; the co-operative game at its easiest difficulty
GAMES = [("virus_cards_v0", 2, {}), ("virus_cards_v0", 4, {}), ("roll_write_v0", 2, {}), ("roll_write_v0", 3, {}),
         ("virus_co_v0", 3, {}), ("virus_lab_v0", 1, {"difficulty": 1}), ("virus_lab_v0", 2, {"difficulty": 1})]
IDS = [f"{e}-{n}p" for e, n, _ in GAMES]
# iterations small enough for the slow board game, where one iteration costs ~10x a card game's
ITERS = {"virus_lab_v0": 8}


def _spec(name, env_id, extra=""):
    k = ITERS.get(env_id, 40)
    base = f"ismcts?iters={k}" if name == "ismcts" else f"pimc?worlds=3&iters={max(2, k // 3)}"
    return base + extra


def _positions(game, count, seed):
    """States with a choice to make, from a random game (several of them if one is too short)."""
    return choice_positions(game, count, seed, keep=0.3)


# -- specs --------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id,n,cfg", GAMES, ids=IDS)
def test_specs_build_for_every_game(env_id, n, cfg):
    g = virus_envs.game(env_id, num_players=n, **cfg)
    for spec in ("ismcts", "ismcts?iters=200", "ismcts?time=0.5&c=0.7&rollout=heuristic&depth=end&tree=history&seed=3",
                 "ismcts?prior=2.5&depth=0",
                 "pimc", "pimc?worlds=4&iters=25&rollout=heuristic&depth=5"):
        ag = agents.make(spec, g)
        assert ag.needs_handle


@pytest.mark.parametrize("spec,name", [
    ("ismcts?iters=0", "iters"), ("ismcts?iters=many", "iters"), ("ismcts?iters=1.5", "iters"),
    ("ismcts?time=-1", "time"), ("ismcts?c=-0.1", "c"), ("ismcts?c=wide", "c"), ("ismcts?rollout=greedy", "rollout"),
    ("ismcts?depth=-1", "depth"), ("ismcts?prior=-1", "prior"), ("ismcts?prior=yes", "prior"), ("ismcts?depth=deep", "depth"), ("ismcts?tree=dag", "tree"),
    ("ismcts?itres=10", "itres"), ("pimc?worlds=0", "worlds"), ("pimc?tree=history", "tree"),
    ("pimc?iters=-5", "iters"),
])
def test_bad_parameters_are_one_line_errors_naming_the_parameter(spec, name):
    g = virus_envs.game("virus_cards_v0")
    with pytest.raises(ValueError, match=f"'{name}'") as e:
        agents.make(spec, g)
    assert "\n" not in str(e.value)


def test_variants_are_refused():
    g = virus_envs.game("virus_cards_v0")
    for spec in ("ismcts:fast", "pimc:big"):
        with pytest.raises(ValueError, match="no variants"):
            agents.make(spec, g)


def test_without_the_handle_the_agent_says_so():
    g = virus_envs.game("virus_cards_v0")
    s = _positions(g, 1, seed=0)[0]
    for spec in ("ismcts?iters=5", "pimc?worlds=2&iters=3"):
        with pytest.raises(ValueError, match="search handle"):
            agents.make(spec, g).act(decision_for(s))


# -- legal and deterministic -----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["ismcts", "pimc"])
@pytest.mark.parametrize("env_id,n,cfg", GAMES, ids=IDS)
def test_legal_and_the_same_seed_gives_the_same_actions(env_id, n, cfg, name):
    g = virus_envs.game(env_id, num_players=n, **cfg)
    spec = _spec(name, env_id)
    a1, a2 = agents.make(spec, g, seed=11), agents.make(spec, g, seed=11)
    for s in _positions(g, 3, seed=1):
        d = decision_for(s, with_handle=True)
        x, y = a1.act(d), a2.act(decision_for(s, with_handle=True))
        assert s.legal_action_mask()[x] and x == y
        if name == "ismcts":
            assert a1.last.visits() == a2.last.visits() and a1.last.iterations == ITERS.get(env_id, 40)


def test_heuristic_playouts_and_prior_are_seeded_too():
    g = virus_envs.game("virus_co_v0", num_players=4)
    spec = "ismcts?iters=20&rollout=heuristic&depth=6&prior=1"
    a1, a2 = agents.make(spec, g, seed=5), agents.make(spec, g, seed=5)
    for s in _positions(g, 3, seed=2):
        assert a1.act(decision_for(s, with_handle=True)) == a2.act(decision_for(s, with_handle=True))
        assert a1.last.visits() == a2.last.visits()


def test_a_whole_game_replays_under_its_seed():
    g = virus_envs.game("roll_write_v0", num_players=2)
    line = lambda: [agents.make("ismcts?iters=15", g), agents.make("pimc?worlds=2&iters=6", g)]  # noqa: E731
    _, a1 = play_game(g, line(), seed=3, record=True)
    _, a2 = play_game(g, line(), seed=3, record=True)
    assert a1 == a2


# -- what the agents may see -----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["ismcts", "pimc"])
@pytest.mark.parametrize("env_id,n,cfg", GAMES, ids=IDS)
def test_two_states_with_equal_views_give_the_same_search(env_id, n, cfg, name):
    """The true state S and another state T with the same view for the deciding seat (T: S with the seat's
    hidden information resampled, and its future chance too). The agent searches S with the real handle;
    a twin agent (same seed) gets T's decision, whose handle has no state at all and replays the worlds
    the first search drew. Same statistics and choice: what the agent knows of the state is its
    Decision (equal for S and T) and the worlds of the handle."""
    g = virus_envs.game(env_id, num_players=n, **cfg)
    spec = _spec(name, env_id)
    for k, s in enumerate(_positions(g, 2, seed=3)):
        p = s.current_player()
        t = s.determinize(p, make_rng(99 + k))
        assert t.view(p) == s.view(p) and np.array_equal(t.observation(p), s.observation(p))
        ds = decision_for(s, with_handle=True)
        rec = RecordingHandle(ds.handle)
        ds.handle = rec
        first, twin = agents.make(spec, g, seed=4), agents.make(spec, g, seed=4)
        x = first.act(ds)
        dt = decision_for(t)
        dt.handle = ReplayHandle(rec.worlds)
        y = twin.act(dt)
        assert x == y
        runs = (first.last, twin.last) if name == "ismcts" else (first.last[0], twin.last[0])
        assert runs[0].visits() == runs[1].visits() and runs[0].values() == runs[1].values()


@pytest.mark.parametrize("env_id,n,cfg", GAMES, ids=IDS)
def test_future_chance_of_the_true_state_never_reaches_the_search(env_id, n, cfg):
    """Two states that differ only in their Generator (the dice and shuffles to come, hidden from every seat:
    all of Roll & Write's hidden information) give the same search with the real handle under one seed."""
    g = virus_envs.game(env_id, num_players=n, **cfg)
    for s in _positions(g, 2, seed=4):
        t = s.clone()
        t.rng = make_rng(123456)
        assert t.rng.integers(1 << 30) != s.clone().rng.integers(1 << 30)
        a1, a2 = agents.make(_spec("ismcts", env_id), g, seed=8), agents.make(_spec("ismcts", env_id), g, seed=8)
        assert a1.act(decision_for(s, with_handle=True)) == a2.act(decision_for(t, with_handle=True))
        assert a1.last.visits() == a2.last.visits() and a1.last.values() == a2.last.values()


def test_the_heuristic_inside_the_search_sees_only_the_acting_seats_decision(monkeypatch):
    """Every decision the playout heuristic and the prior get is the acting seat's own (its view, no handle)."""
    g = virus_envs.game("virus_cards_v0", num_players=3)
    ag = agents.make("ismcts?iters=10&rollout=heuristic&depth=4&prior=1", g, seed=1)
    seen = []
    for policy in (ag.playout.policy, ag.hint.policy):
        def spy(d, inner=policy.act):
            seen.append(d)
            return inner(d)
        monkeypatch.setattr(policy, "act", spy)
    s = _positions(g, 1, seed=5)[0]
    ag.act(decision_for(s, with_handle=True))
    seats = {d.seat for d in seen}
    assert len(seen) > 10 and len(seats) > 1
    for d in seen:
        assert isinstance(d, Decision) and d.handle is None and d.view["seat"] == d.seat
        assert d.view["hand_sizes"][d.seat] == len(d.view["hand"])


# -- stronger than random --------------------------------------------------------------------------
@pytest.mark.parametrize("env_id,n,cfg", [c for c in GAMES if c[0] != "virus_lab_v0"], ids=IDS[:5])
def test_ismcts_beats_random(env_id, n, cfg):
    """ismcts?iters=40 in one seat against random in the others, 2 deals in every seat rotation.

    The heuristic alone wins 99% of 2-player VIRUS!, 100% of 2-player Roll & Write and 78% of
    4-player Virus & Co against random (docs/rules); a search that wins at least 3 of 4 games (2p),
    or more than twice its 1/N share (3-4p), is far above random, which wins 1/N."""
    g = virus_envs.game(env_id, num_players=n, **cfg)
    wins = 0.0
    games = 0
    for deal in range(2):
        for seat in range(n):
            line = [agents.make("random", g) for _ in range(n)]
            line[seat] = agents.make("ismcts?iters=40", g)
            st, _ = play_game(g, line, seed=1000 + deal)
            r = st.returns()
            wins += float(r[seat] == r.max() and r[seat] > 0)
            games += 1
    assert wins / games > (0.7 if n == 2 else 2.0 / n), (wins, games)


def test_ismcts_beats_random_in_the_cooperative_game():
    """Virus (1 Hero, difficulty 1): random teams win 0 of 1000 deals (docs/agents/baselines.md, "Summary") and hardly get anywhere,
    so "beats random" is read on the team's progress towards the win (`agents.shaping.virus_lab_progress`: exit
    open, labs used, Clues, Antidote) over the same six deals: never behind random on a deal, ahead in total.
    (Two deals were used before the rules of issue 12; under them ismcts?iters=3 made no progress on deal 1,
    while it reaches 1.5-2.5 on others.)"""
    from virus_envs.agents.shaping import virus_lab_progress
    g = virus_envs.game("virus_lab_v0", num_players=1, difficulty=1)
    total = {"ismcts?iters=3": 0.0, "random": 0.0}
    for deal in range(6):
        done = {}
        for spec in total:
            st, _ = play_game(g, [agents.make(spec, g)], seed=deal)
            done[spec] = (st.returns()[0], virus_lab_progress(st, 0))
            total[spec] += done[spec][1]
        assert done["random"][0] < 0
        assert done["ismcts?iters=3"] >= done["random"], (deal, done)
    assert total["ismcts?iters=3"] > total["random"], total


def test_the_roll_write_leaf_value_is_the_smoothed_points_of_the_sheets_in_the_view():
    """docs/agents/search.md: research points interpolated between the steps of the table (0 / 5 / 10 / 12 points at
    0 / 4 / 8 / 11 boxes), 5 per speed bonus, 3 per circled wildcard, minus the virus tube and this round's
    contaminated dice; then 2 P - 1 with P a softmax over seats at temperature 3. Computed here from the
    public view (the code reads the world's fields)."""
    import math
    from virus_envs.agents.leaf_values import leaf_values, roll_write_points

    smooth = [0, 1.25, 2.5, 3.75, 5, 6.25, 7.5, 8.75, 10, 10.67, 11.33, 12, 12]     # 0..12 boxes, rounded to 0.01
    for n in (2, 4):
        g = virus_envs.game("roll_write_v0", num_players=n)
        value = leaf_values(g)
        for s in _positions(g, 6, seed=n):
            x = [sum(smooth[len(b)] for b in q["grids"].values()) + 5 * list(q["cures"].values()).count("speed bonus")
                 + 3 * q["wildcards"] - sum(q["virus_tube"]) - sum(q["contaminated"]) for q in s.view(0)["sheets"]]
            e = [math.exp(v / 3.0) for v in x]
            assert value(s) == pytest.approx([2 * v / sum(e) - 1 for v in e])
            assert roll_write_points(g)(s) == pytest.approx(x, abs=0.01)     # the points alone (expectimax goal=points)
