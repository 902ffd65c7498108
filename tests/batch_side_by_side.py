"""Random play in a batched engine and in its game's scalar engine side by side (tests/<game>/test_*_batched.py).

The scalar engine is the rules' reference; the batch must agree with it after every action: current players, masks,
the current player's and a random seat's observations, scores; full states (to_dict, generator included) of every
`check_every`-th game after every action and of every game at its start; at each game's end the returns, scores,
truncation, and the next seed's deal.
"""
from __future__ import annotations

import numpy as np

from virus_envs.core import pcg64


def assert_same(b, states, t, look):
    """Current player, mask, observations (current player's, seat look[i]'s) and scores of every game."""
    cp = b.current_player()
    M = b.legal_action_mask()
    obs_cur = b.observation()
    obs_any = b.observation(look)
    scores = b.scores()
    same = (np.array_equal(cp, [s.current_player() for s in states])
            and np.array_equal(M, np.stack([s.legal_action_mask() for s in states]))
            and np.array_equal(obs_cur, np.stack([s.observation(max(s.current_player(), 0)) for s in states]))
            and np.array_equal(obs_any, np.stack([s.observation(int(p)) for s, p in zip(states, look)]))
            and np.array_equal(scores, np.stack([s.scores() for s in states])))
    if not same:          # locate the mismatch game by game
        for i, s in enumerate(states):
            assert cp[i] == s.current_player(), f"current player, game {i}, step {t}"
            np.testing.assert_array_equal(M[i], s.legal_action_mask(), err_msg=f"mask, game {i}, step {t}")
            np.testing.assert_array_equal(obs_cur[i], s.observation(max(s.current_player(), 0)),
                                          err_msg=f"observation, game {i}, step {t}")
            np.testing.assert_array_equal(obs_any[i], s.observation(int(look[i])),
                                          err_msg=f"observation of seat {look[i]}, game {i}, step {t}")
            np.testing.assert_array_equal(scores[i], s.scores(), err_msg=f"scores, game {i}, step {t}")
        raise AssertionError("unreachable: the arrays differ but no game does")  # pragma: no cover


def play_side_by_side(b, games, seed, check_every, apply=None, before_step=None):
    """Reset batch `b` from `seed`, then play random actions in it and in scalar states dealt from the same seeds
    until `games` games have ended, comparing everything as it goes. `apply(s, action)` plays an action in a
    scalar state (default `s.apply_action`: a test may count what it sees there); `before_step(b, actions)` is
    called before each batched step. Returns (games ended, truncated games, decisions compared)."""
    g, B, n = b.game, b.B, b.num_players
    apply = apply or (lambda s, action: s.apply_action(action))
    b.reset(np.random.default_rng(seed).integers(0, 2**63 - 1, B))
    states = [g.new_initial_state(seed=int(s)) for s in b.seeds]
    for i, s in enumerate(states):
        assert b.to_dict(i) == s.to_dict(), f"deal of game {i}"
    rng = np.random.default_rng(seed + 1)
    ended = truncated = decisions = 0
    t = 0
    while ended < games:
        assert_same(b, states, t, rng.integers(0, n, B))
        for i in range(t % check_every, B, check_every):
            assert b.to_dict(i) == states[i].to_dict(), f"state of game {i} at step {t}"
        a = b.random_actions(rng)
        if before_step is not None:
            before_step(b, a)
        out = b.step(a)
        decisions += B
        for i, s in enumerate(states):
            apply(s, int(a[i]))
            if out.done[i]:
                assert s.is_terminal(), f"game {i} ended in the batch only, step {t}"
                np.testing.assert_array_equal(out.returns[i], s.returns())
                np.testing.assert_array_equal(out.scores[i], s.scores())
                assert out.truncated[i] == s.is_truncated()
                truncated += s.is_truncated()
                ended += 1
                # the next game in this slot: seed next_seed(s), played like new_initial_state(that seed)
                nxt = int(pcg64.next_seed(int(out.seeds[i])))
                assert b.seeds[i] == nxt
                states[i] = g.new_initial_state(seed=nxt)
                assert b.to_dict(i) == states[i].to_dict(), f"deal of the next game in slot {i}"
            else:
                assert not s.is_terminal(), f"game {i} ended in the scalar engine only, step {t}"
        t += 1
    return ended, truncated, decisions
