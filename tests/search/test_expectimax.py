"""`expectimax` (Roll & Write): spec, legality, determinism, what it may see, the chance node, and that it beats random.

Behaviour only; its strength is measured in docs/agents/strength.md.
"""
import numpy as np
import pytest

import virus_envs
from search_handles import RecordingHandle, ReplayHandle
from virus_envs import agents
from virus_envs.agents.base import Decision, decision_for
from virus_envs.agents.expectimax import roll_outcomes
from virus_envs.core.positions import choice_positions
from virus_envs.core.seeding import make_rng
from virus_envs.experiments.arena import play_game
from virus_envs.experiments.cli import main

SPECS = ["expectimax", "expectimax?depth=1&leaf=value", "expectimax?depth=1&opp=greedy",
         "expectimax?depth=2&leaf=value", "expectimax?opp=spoiler", "expectimax?opp=robust",
         "expectimax?opp=mix&goal=points"]


def _game(n=4):
    return virus_envs.game("roll_write_v0", num_players=n)


def test_specs_build_and_bad_parameters_name_the_parameter():
    g = _game()
    for spec in SPECS + ["expectimax?depth=3&leaf=heuristic&opp=heuristic&seed=4"]:
        assert agents.make(spec, g).needs_handle
    for spec, name in (("expectimax?depth=0", "depth"), ("expectimax?depth=4", "depth"), ("expectimax?depth=x", "depth"),
                       ("expectimax?leaf=points", "leaf"), ("expectimax?opp=random", "opp"), ("expectimax?iters=3", "iters"),
                       ("expectimax?goal=score", "goal"), ("expectimax?goal=1", "goal"), ("expectimax?opp=worst", "opp")):
        with pytest.raises(ValueError, match=f"'{name}'") as e:
            agents.make(spec, g)
        assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="roll_write_v0 only"):
        agents.make("expectimax", virus_envs.game("virus_cards_v0"))
    with pytest.raises(ValueError, match="no variants"):
        agents.make("expectimax:deep", g)


def test_without_the_handle_the_agent_says_so():
    g = _game()
    s = choice_positions(g, 1, 0, keep=0.3)[0]
    with pytest.raises(ValueError, match="search handle"):
        agents.make("expectimax", g).act(decision_for(s))


def test_roll_outcomes_are_the_multisets_of_the_dice_with_their_probabilities():
    # 3 dice: C(8, 3) = 56 multisets; three equal faces 1 way in 216, three different 3! = 6, a pair 3
    out = dict(roll_outcomes(3))
    assert len(out) == 56 and sum(out.values()) == pytest.approx(1.0)
    assert out[(1, 1, 1)] == pytest.approx(1 / 216) and out[(1, 2, 3)] == pytest.approx(6 / 216)
    assert out[(2, 2, 5)] == pytest.approx(3 / 216)
    assert len(roll_outcomes(6)) == 462           # C(11, 6): the 2-player game's six dice


@pytest.mark.parametrize("spec", SPECS)
def test_legal_and_the_same_seed_gives_the_same_choice(spec):
    g = _game(3)
    a1, a2 = agents.make(spec, g, seed=11), agents.make(spec, g, seed=11)
    for s in choice_positions(g, 3, 1, keep=0.3):
        x = a1.act(decision_for(s, with_handle=True))
        y = a2.act(decision_for(s, with_handle=True))
        assert s.legal_action_mask()[x] and x == y and a1.last == a2.last
        assert set(a1.last) == set(np.flatnonzero(s.legal_action_mask()).tolist())


def test_a_whole_game_replays_under_its_seed():
    g = _game(2)
    line = lambda: [agents.make("expectimax?leaf=value", g), agents.make("heuristic", g)]  # noqa: E731
    _, a1 = play_game(g, line(), seed=3, record=True)
    _, a2 = play_game(g, line(), seed=3, record=True)
    assert a1 == a2


@pytest.mark.parametrize("spec", ["expectimax", "expectimax?depth=2&leaf=value", "expectimax?opp=robust&goal=points"])
def test_it_knows_only_its_decision_and_the_worlds_of_the_handle(spec):
    """The true state S and T = S with another Generator (the dice to come: all that Roll & Write hides). The
    agent decides at S with the real handle; a twin (same seed) gets T's decision, whose handle has no state
    behind it and replays the worlds the first drew. Same values, same choice."""
    g = _game(4)
    for k, s in enumerate(choice_positions(g, 2, 3, keep=0.3)):
        p = s.current_player()
        t = s.clone()
        t.rng = make_rng(1000 + k)
        assert t.view(p) == s.view(p)
        ds = decision_for(s, with_handle=True)
        rec = RecordingHandle(ds.handle)
        ds.handle = rec
        first, twin = agents.make(spec, g, seed=4), agents.make(spec, g, seed=4)
        x = first.act(ds)
        dt = decision_for(t)
        dt.handle = ReplayHandle(rec.worlds)
        assert twin.act(dt) == x and twin.last == first.last
        # and the true state's own dice to come never matter: T searched with its real handle
        third = agents.make(spec, g, seed=4)
        assert third.act(decision_for(t, with_handle=True)) == x and third.last == first.last


def test_the_heuristic_inside_sees_only_the_acting_seats_decision(monkeypatch):
    g = _game(4)
    ag = agents.make("expectimax", g, seed=1)
    seen = []

    def spy(d, inner=ag.policy.act):
        seen.append(d)
        return inner(d)
    monkeypatch.setattr(ag.policy, "act", spy)
    s = choice_positions(g, 1, 5, keep=0.3)[0]
    ag.act(decision_for(s, with_handle=True))
    assert len(seen) > 10 and len({d.seat for d in seen}) > 1
    for d in seen:
        assert isinstance(d, Decision) and d.handle is None and d.view["seat"] == d.seat


def test_opp_names_the_heuristic_variant_that_models_the_other_seats_and_the_observer_stays_plain():
    """`opp=spoiler`: another seat's reply is `heuristic:spoiler`'s move, the observer's own (in the round played
    out) the plain heuristic's; shown where the two heuristics disagree."""
    g = _game(4)
    ag = agents.make("expectimax?opp=spoiler", g, seed=1)
    plain, spoiler = agents.make("heuristic", g), agents.make("heuristic:spoiler", g)
    differ = 0
    for s in choice_positions(g, 60, 2, keep=0.5):
        d = decision_for(s)
        a, b = plain.act(d), spoiler.act(d)
        if a == b:
            continue
        differ += 1
        ag.observer = (s.current_player() + 1) % 4
        assert ag._heuristic(s) == b
        ag.observer = s.current_player()
        assert ag._heuristic(s) == a
    assert differ >= 1


def test_robust_takes_the_worst_model_for_each_move_and_mix_their_mean():
    """`opp=robust`: a move is worth the least of its values under the three models of the others (the plain,
    cautious and spoiler heuristics); `opp=mix`: their mean. Each model's value is that of the agent told the
    variant (`opp=heuristic|cautious|spoiler`), which draws the same world and dice under the same seed."""
    g = _game(4)
    for goal in ("win", "points"):
        for s in choice_positions(g, 3, 6, keep=0.3):
            single = []
            for m in ("heuristic", "cautious", "spoiler"):
                ag = agents.make(f"expectimax?opp={m}&goal={goal}", g, seed=8)
                ag.act(decision_for(s, with_handle=True))
                single.append(ag.last)
            rob, mix = agents.make(f"expectimax?opp=robust&goal={goal}", g, seed=8), agents.make(f"expectimax?opp=mix&goal={goal}", g, seed=8)
            x = rob.act(decision_for(s, with_handle=True))
            mix.act(decision_for(s, with_handle=True))
            assert set(rob.last) == set(single[0])
            for a in rob.last:
                assert rob.last[a] == min(v[a] for v in single)
                assert mix.last[a] == pytest.approx(sum(v[a] for v in single) / 3)
            assert rob.last[x] == max(rob.last.values())


def test_goal_points_values_a_move_by_the_observers_own_points_and_the_last_round_by_its_final_score():
    """`goal=points`: the leaf is the observer's smoothed points (no softmax over seats), in the game's last
    round its final score: the values of the last round's moves are whole numbers of points, and at least one
    of them differs from the winner-takes-all values (which are in [-1, 1])."""
    g = _game(4)
    s = g.new_initial_state(seed=5)
    while s.rnd < g.rounds - 1 or not s.legal_action_mask().sum() > 2:
        s.apply_action(int(np.flatnonzero(s.legal_action_mask())[-1]))
    assert not s.is_terminal() and s.rnd == g.rounds - 1
    pts, win = agents.make("expectimax?goal=points", g, seed=2), agents.make("expectimax", g, seed=2)
    pts.act(decision_for(s, with_handle=True))
    win.act(decision_for(s, with_handle=True))
    assert all(v == int(v) for v in pts.last.values())
    assert all(-1 <= v <= 1 for v in win.last.values())
    assert any(abs(v) > 1 for v in pts.last.values())


def test_the_chance_node_takes_every_roll_of_the_observers_dice_and_one_draw_of_the_others():
    """At the round's last placement, depth 2 looks past the roll: the rest of the search is run once per
    multiset of the observer's three dice (56), with one fixed draw for the other seats."""
    g = _game(4)
    s = g.new_initial_state(seed=2)
    while not (s.placed == 11 and not s.pending):       # the round's twelfth and last placement
        s.apply_action(int(np.flatnonzero(s.legal_action_mask())[0]))
    o = s.current_player()
    ag = agents.make("expectimax?depth=2&leaf=value", g, seed=3)
    seen = []
    orig = type(ag)._after

    def spy(self, c, d, r0):
        if d == 1 and c.rnd == s.rnd + 1:
            seen.append([tuple(v for v in range(1, 7) for _ in range(c.reserve[q][v])) for q in range(4)])
        return orig(self, c, d, r0)
    type(ag)._after = spy
    try:
        ag.act(decision_for(s, with_handle=True))
    finally:
        type(ag)._after = orig
    assert seen and len(seen) % 56 == 0
    assert {r[o] for r in seen} == {c for c, _ in roll_outcomes(3)}
    others = {tuple(r[q] for q in range(4) if q != o) for r in seen}
    assert len(others) == 1


def test_expectimax_beats_random():
    """One deal, the agent in each of the four seats against random: the heuristic alone wins every 2-player game
    against random (docs/rules); winning at least 3 of 4 four-player games is far above random's 1/4."""
    g = _game(4)
    wins = 0
    for seat in range(4):
        line = [agents.make("random", g) for _ in range(4)]
        line[seat] = agents.make("expectimax?leaf=value", g)
        st, _ = play_game(g, line, seed=77)
        r = st.returns()
        wins += int(r[seat] == r.max() and r[seat] > 0)
    assert wins >= 3, wins


def test_eval_command_with_expectimax(tmp_path):
    out = tmp_path / "e.json"
    main(["eval", "--game", "roll_write_v0", "--players", "4", "--agent", "expectimax?leaf=value",
          "--opponent", "heuristic", "--games", "4", "--seed", "1", "--out", str(out)])
    import json
    row = json.loads(out.read_text())
    assert row["games"] == 4 and row["agent"] == "expectimax?leaf=value"


def test_tournament_and_play_seat_expectimax(tmp_path):
    import io
    import json
    from virus_envs.experiments.play import play_session
    from virus_envs.experiments.tournament import TournamentConfig, run_tournament

    c = TournamentConfig(game="roll_write_v0", players=3, agents=["expectimax?leaf=value", "heuristic"], games=3, seed=4)
    run_tournament(c, str(tmp_path / "t"), workers=1, echo=lambda *_: None, progress=False)
    games = [json.loads(line) for line in open(tmp_path / "t" / "games.jsonl")]
    assert len(games) == 3 and all("expectimax?leaf=value" in g["seats"] for g in games)
    rec = play_session("roll_write_v0", 3, 2, ["expectimax?leaf=value", "heuristic"], 5, {}, inp=io.StringIO("0\n" * 400),
                       out=io.StringIO())
    assert rec["complete"] and rec["seats"] == ["expectimax?leaf=value", "heuristic", "human"]
