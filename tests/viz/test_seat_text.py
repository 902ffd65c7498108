"""`render_for(p)`: the text a person playing seat p reads (`virus-arena play`): a readable table, never a
dump of the view's dicts, and nothing p may not know."""
from __future__ import annotations

import numpy as np
import pytest

import virus_envs

from .helpers import played


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_seat_text_is_a_table_not_a_dict_dump(env_id):
    for steps in (0, 30):
        s = played(env_id, steps, seed=2)
        for p in range(s.game.num_players):
            text = s.render_for(p)
            assert "{'" not in text and "[{" not in text and "': " not in text, text[:400]
            assert f"player_{p}" in text
            assert len(text.splitlines()) >= 3


@pytest.mark.parametrize("env_id", ["roll_write_v0", "virus_co_v0", "virus_lab_v0"])
def test_seat_text_shows_nothing_hidden(env_id):
    """Drawn from view(p): the same for every determinization for p."""
    rng = np.random.default_rng(5)
    for steps in (0, 20, 80):
        s = played(env_id, steps, seed=3)
        for p in range(s.game.num_players):
            assert all(s.determinize(p, rng).render_for(p) == s.render_for(p) for _ in range(2))


def test_virus_co_text_names_only_your_own_risk_cards():
    s = played("virus_co_v0", 0, seed=1)
    cat = s.game.cat
    mine = sorted(cat.risk_names[cat.rtype[c]] for c in s.hand[0])
    assert f"your risk cards: {', '.join(mine)}" in s.render_for(0)
