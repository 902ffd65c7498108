"""Pictures of the table (issue 19): `render_mode="rgb_array"`, `State.picture(p)`, golden images.

Golden images: tests/viz/golden/<env id>.png is the full-table picture of the position stored beside it
(<env id>.json, a `to_dict()`). After a deliberate change of a picture, regenerate them with

    VIRUS_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/viz/test_pictures.py -k golden

and look at the new PNGs before committing them.
"""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import virus_envs
from virus_envs.core.picture import rasterize, save_png

from .helpers import PLAYERS, played

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")
# positions: far enough into a game that bodies, sheets, displays and the map have something on them
STEPS = {"virus_cards_v0": 40, "roll_write_v0": 30, "virus_co_v0": 60, "virus_lab_v0": 120}


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_rgb_array_is_an_image_of_the_table(env_id):
    env = virus_envs.env(env_id, render_mode="rgb_array")
    env.reset(seed=3)
    img = env.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] >= 300 and img.shape[1] >= 600
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 20       # a drawing, not a blank page
    for _ in range(5):
        a = env.agent_selection
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert a is not None
    assert env.render().dtype == np.uint8


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_pictures_are_valid_svg_for_every_seat(env_id):
    s = played(env_id, STEPS[env_id])
    for p in [None, *range(s.game.num_players)]:
        svg = s.picture(p)
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg") and float(root.get("width")) > 0
        who = "full table" if p is None else f"seen by player_{p}"
        assert who in svg


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_bad_seat_is_refused(env_id):
    s = virus_envs.game(env_id).new_initial_state(seed=0)
    for bad in (-1, s.game.num_players, True, "0"):
        with pytest.raises(ValueError, match="seat"):
            s.picture(bad)


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_a_seat_picture_shows_nothing_hidden(env_id):
    """Two states that p cannot tell apart (determinizations for p) give p the same picture, at many moments
    of a game; the full table does show what was resampled (so the check can fail)."""
    rng = np.random.default_rng(11)
    full_differs = 0
    for steps in (0, 7, 25, 60, 140):
        s = played(env_id, steps, seed=4)
        for p in range(s.game.num_players):
            mine = s.picture(p)
            for _ in range(2):
                d = s.determinize(p, rng)
                assert d.picture(p) == mine, f"{env_id}: player_{p}'s picture depends on hidden facts (after {steps})"
                full_differs += d.picture(None) != s.picture(None)
    if env_id in ("virus_cards_v0", "virus_co_v0"):     # hidden hands exist from the deal on
        assert full_differs > 0


def test_hidden_hands_are_face_down_in_a_seat_picture():
    """VIRUS!: the seat's own hand is face up, the others' face down (a card back per card)."""
    s = played("virus_cards_v0", 0)
    g = s.game
    svg0 = s.picture(0)
    full = s.picture(None)
    assert svg0.count(">?</text>") == 3 * (g.num_players - 1)     # the backs of the other hands
    assert full.count(">?</text>") == 0


def _position(env_id):
    path = os.path.join(GOLDEN, f"{env_id}.json")
    g = virus_envs.game(env_id, num_players=PLAYERS[env_id])
    if os.environ.get("VIRUS_UPDATE_GOLDEN") or not os.path.exists(path):
        if not os.environ.get("VIRUS_UPDATE_GOLDEN"):
            pytest.fail(f"{path} missing: run VIRUS_UPDATE_GOLDEN=1 pytest tests/viz/test_pictures.py -k golden")
        s = played(env_id, STEPS[env_id], seed=1)
        with open(path, "w") as f:
            json.dump(s.to_dict(), f)
    with open(path) as f:
        return g.state_from_dict(json.load(f))


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_golden_image(env_id):
    """The full-table picture of a stored position matches the committed PNG (small font-rendering differences allowed)."""
    from PIL import Image

    s = _position(env_id)
    img = rasterize(s.picture())
    png = os.path.join(GOLDEN, f"{env_id}.png")
    if os.environ.get("VIRUS_UPDATE_GOLDEN"):
        save_png(img, png)
    gold = np.asarray(Image.open(png).convert("RGB"))
    assert img.shape == gold.shape, f"{env_id}: picture size {img.shape} != golden {gold.shape}"
    diff = np.abs(img.astype(np.int16) - gold.astype(np.int16)).max(axis=2)
    changed = float((diff > 64).mean())
    assert changed < 0.005 and float(diff.mean()) < 2.0, \
        f"{env_id}: {changed:.2%} of the pixels differ from {png} (mean {diff.mean():.2f}); if the change is " \
        "intended, regenerate (see this file's docstring)"
