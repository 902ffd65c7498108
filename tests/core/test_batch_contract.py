"""The contract every batched engine keeps (core/batch.py `BatchEngine`, core/batched_selfplay.py), one table row per
game that has one: Roll & Write, VIRUS! and Virus & Co.

Each game's own file (tests/<game>/test_*_batched.py) plays the batch side by side with the game's scalar engine,
the rules' reference, over thousands of games and hand-built positions. What is checked here is the same for
every game and so is written once: a slot's game depends only on its seed; scalar positions load and play on as
the scalar engine does; finished games wait with an empty mask; an illegal action raises and changes nothing; bad
seeds and a step before `reset` are refused; the self-play loop pays each learner the scalar engine's return; one
seed gives one run; MaskablePPO trains on the SB3 face.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from virus_envs import IllegalActionError
from virus_envs.roll_write.batched import RollWriteBatch
from virus_envs.roll_write.game import RollWriteGame
from virus_envs.roll_write.vector import BatchedSelfPlay as RollWriteSelfPlay, RollWriteVecEnv, RollWriteVectorEnv
from virus_envs.virus_cards.batched import VirusCardsBatch
from virus_envs.virus_cards.game import VirusCardsGame
from virus_envs.virus_cards.vector import VirusCardsSelfPlay, VirusCardsVecEnv, VirusCardsVectorEnv
from virus_envs.virus_co.batched import VirusCoBatch
from virus_envs.virus_co.game import VirusCoGame
from virus_envs.virus_co.vector import VirusCoSelfPlay, VirusCoVecEnv, VirusCoVectorEnv


@dataclass
class Case:
    batch: type
    game: type
    selfplay: type
    vector_env: type
    vec_env: type
    players: int                  # a count that is not the smallest, so that seats and tables are not trivial
    min_players: int
    short: dict                   # a config that makes games short (finished-games tests)
    load_moves: int               # random moves before a position is loaded into the batch
    bad_field: tuple              # (field, value) that the game's loader refuses, naming the field
    config: dict = field(default_factory=dict)    # a non-default config for the same-seed run


CASES = {
    "roll_write": Case(RollWriteBatch, RollWriteGame, RollWriteSelfPlay, RollWriteVectorEnv, RollWriteVecEnv,
                       3, 2, {"rounds": 1}, 60, ("rnd", 99)),
    "virus_cards": Case(VirusCardsBatch, VirusCardsGame, VirusCardsSelfPlay, VirusCardsVectorEnv, VirusCardsVecEnv,
                        4, 2, {"max_turns": 30}, 150, ("turns", -3), {"colour_rule": "card_or_organ"}),
    "virus_co": Case(VirusCoBatch, VirusCoGame, VirusCoSelfPlay, VirusCoVectorEnv, VirusCoVecEnv,
                     5, 3, {"rounds": 1}, 400, ("round", 99), {"mr_doctor": "fee_on_pass"}),
}
GAMES = pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))


@GAMES
def test_a_batched_game_depends_only_on_its_seed(case):
    """Game i of a batch replays alone: the same seed in another slot of another batch gives the same game."""
    b1 = case.batch(8, num_players=case.players, autoreset=False)
    b1.reset([5, 6, 7, 8, 123456789, 10, 11, 12])
    b2 = case.batch(2, num_players=case.players, autoreset=False)
    b2.reset([123456789, 0])
    rng = np.random.default_rng(0)
    steps = 0
    while not b1.is_terminal()[4]:
        a1 = b1.random_actions(rng)
        a2 = np.array([a1[4], b2.random_actions(rng)[1]])
        b1.step(a1)
        b2.step(a2)
        assert b1.to_dict(4) == b2.to_dict(0)
        steps += 1
    assert steps > 10


@GAMES
def test_scalar_positions_loaded_into_the_batch_play_on_identically(case):
    """`load` takes any scalar state (random mid-game positions, pending decisions included) and the batch plays
    on as the scalar engine does: states, masks, a seat's observation, and the returns at the end."""
    g = case.game(case.players)
    rng = np.random.default_rng(4)
    B = 24
    b = case.batch(B, game=g, autoreset=False)
    states = []
    for i in range(B):
        s = g.new_initial_state(seed=100 + i)
        for _ in range(int(rng.integers(0, case.load_moves))):
            if s.is_terminal():
                break
            s.apply_action(int(rng.choice(s.legal_actions())))
        b.load(i, s)
        assert b.to_dict(i) == s.to_dict()
        assert b.seeds[i] == -1                     # a loaded position has no seed of its own
        np.testing.assert_array_equal(b.legal_action_mask()[i], s.legal_action_mask())
        states.append(s)
    while not b.is_terminal().all():
        a = b.random_actions(rng)
        b.step(a)
        obs = b.observation(np.full(B, 1))
        for i, s in enumerate(states):
            if a[i] >= 0:
                s.apply_action(int(a[i]))
            assert b.to_dict(i) == s.to_dict()
            np.testing.assert_array_equal(b.legal_action_mask()[i], s.legal_action_mask())
            np.testing.assert_array_equal(obs[i], s.observation(1))
    np.testing.assert_array_equal(b.returns(), [s.returns() for s in states])
    name, value = case.bad_field
    with pytest.raises(ValueError, match=name):
        b.load(0, {**states[0].to_dict(), name: value})
    with pytest.raises(ValueError, match="slot"):
        b.load(B, states[0])


@GAMES
def test_without_autoreset_finished_games_wait_with_an_empty_mask(case):
    b = case.batch(12, num_players=case.min_players, autoreset=False, **case.short)
    b.reset(3)
    g = b.game
    states = [g.new_initial_state(seed=3 + i) for i in range(12)]
    rng = np.random.default_rng(1)
    while not b.is_terminal().all():
        a = b.random_actions(rng)
        out = b.step(a)
        for i, s in enumerate(states):
            if a[i] >= 0:
                s.apply_action(int(a[i]))
                assert out.done[i] == s.is_terminal()
            else:
                assert not out.done[i]
    assert (b.current_player() == -1).all()
    assert not b.legal_action_mask().any()
    np.testing.assert_array_equal(b.returns(), [s.returns() for s in states])
    np.testing.assert_array_equal(b.scores(), [s.scores() for s in states])
    with pytest.raises(IllegalActionError, match="finished"):
        b.step(np.zeros(12, dtype=np.int64))
    b.step(np.full(12, -1))           # -1 is the no-move of a finished game


@GAMES
def test_an_illegal_action_raises_naming_the_game_and_changes_nothing(case):
    b = case.batch(4, num_players=case.players)
    b.reset(0)
    before = (b.S.copy(), b.RS.copy(), b.M.copy())
    a = b.random_actions(np.random.default_rng(0))
    a[2] = int(np.flatnonzero(~b.legal_action_mask()[2])[0])
    with pytest.raises(IllegalActionError, match="game 2 of the batch"):
        b.step(a)
    for x, y in zip(before, (b.S, b.RS, b.M)):
        np.testing.assert_array_equal(x, y)
    with pytest.raises(ValueError, match="shape"):
        b.step(np.zeros(3, dtype=np.int64))


@GAMES
def test_bad_seeds_and_step_before_reset(case):
    b = case.batch(3, num_players=case.min_players)
    with pytest.raises(ValueError, match="reset"):
        b.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="seeds"):
        b.reset([1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        b.reset([1, -2, 3])
    b.reset(0)
    with pytest.raises(ValueError, match="seats"):
        b.observation([0, 1, case.min_players])           # a seat the game does not have


@GAMES
def test_the_learners_reward_is_its_scalar_return(case):
    """Every action of every seat that reaches the batch is replayed in scalar states dealt from the seeds the
    batch reports: each finished game pays its learner exactly the scalar engine's return for that seat."""
    core = case.selfplay(8, num_players=case.players, seed=5)
    b = core.batch
    g = b.game
    states, ended = [], [[] for _ in range(b.B)]
    orig_reset, orig_step = b.reset, b.step

    def reset(seeds):
        orig_reset(seeds)
        states[:] = [g.new_initial_state(seed=int(x)) for x in b.seeds]

    def step(actions, partial=False):
        out = orig_step(actions, partial)
        for i, s in enumerate(states):
            if actions[i] >= 0:
                s.apply_action(int(actions[i]))
                if out.done[i]:
                    ended[i].append(s.returns())
                    states[i] = g.new_initial_state(seed=int(b.seeds[i]))
                assert b.to_dict(i) == states[i].to_dict()
        return out

    b.reset, b.step = reset, step
    core.reset()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(250):
        learner = core.learner.copy()
        mask = core.action_masks()
        _, reward, done, _ = core.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
        for i in range(b.B):
            assert len(ended[i]) == int(done[i])
            if done[i]:
                assert reward[i] == ended[i].pop()[learner[i]]
                finished += 1
    assert finished >= 8


@GAMES
def test_the_same_seed_gives_the_same_run(case):
    runs = []
    for _ in range(2):
        env = case.vector_env(16, num_players=case.players, seed=9, **case.config)
        obs, info = env.reset()
        out = [obs]
        for _ in range(60):
            obs, _, _, _, info = env.step(np.argmax(info["action_mask"], axis=1))
            out.append(obs)
        runs.append(np.stack(out))
    np.testing.assert_array_equal(*runs)
    env = case.vector_env(16, num_players=case.players, seed=10, **case.config)
    assert not np.array_equal(env.reset()[0], runs[0][0])          # and another seed another run


@GAMES
def test_maskable_ppo_trains_on_the_sb3_vecenv(case):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    venv = case.vec_env(16, num_players=case.min_players, seed=0)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0,
                                    device="cpu", policy_kwargs={"net_arch": [32]})
    model.learn(512)
    assert model.num_timesteps >= 512
    masks = sb3_contrib.common.maskable.utils.get_action_masks(venv)
    assert masks.shape == (16, venv.action_space.n)
