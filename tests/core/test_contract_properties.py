"""The engine contract, checked the same way for every env id and player count, on random positions.

Positions come from seeded random playouts (hypothesis draws the seed and how far to play), so a
failure shrinks to a short game and replays exactly. What is checked:

- `to_dict` / `state_from_dict` round-trip, and every reachable state passes the loader's checks
  (conservation of cards, pills and tokens; lengths; ranges);
- an illegal action raises IllegalActionError and leaves `to_dict()` unchanged;
- `determinize(p)` from both sides:
  (a) it changes nothing seat p can see: `view(p)`, `observation(p)` and, when p acts, the mask;
  (b) it does resample what p cannot see: over repeated samples each component listed by
      `hidden_facts(p)` (the components that view(p) leaves open) takes more than one value;
- `state_from_dict` refuses a dict from another game or player count, a missing or unknown field
  and a broken `rng`, with a ValueError naming the field.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import virus_envs
from virus_envs import IllegalActionError
from virus_envs.core.positions import random_position

PLAYERS = {"virus_cards_v0": (2, 3, 4, 6), "roll_write_v0": (2, 3, 4), "virus_co_v0": (3, 4, 6),
           "virus_lab_v0": (1, 2, 4)}
CASES = [(e, n) for e in virus_envs.ENV_IDS for n in PLAYERS[e]]

#: games whose docs/rules/<game>.md has no "Hidden information" table yet (issue 12); only the
#: doc <-> hidden_facts check is skipped for these
PENDING: set[str] = set()
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"

SAMPLES = 24          # determinizations per position and seat
PROPS = settings(max_examples=6, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

_GAMES: dict = {}


def _game(env_id, n):
    key = (env_id, n)
    if key not in _GAMES:
        _GAMES[key] = virus_envs.game(env_id, num_players=n)
    return _GAMES[key]


def _position(env_id, n, seed, steps):
    """A state reached by `steps` random legal actions (fewer if the game ends first)."""
    return random_position(_game(env_id, n), seed, steps)


def _canon(x) -> str:
    return json.dumps(x, sort_keys=True, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o))


positions = st.tuples(st.integers(0, 2**31 - 1), st.integers(0, 300))


@pytest.mark.parametrize("env_id,n", CASES)
@PROPS
@given(pos=positions)
def test_round_trip_and_loader_accepts_every_reachable_state(env_id, n, pos):
    s = _position(env_id, n, *pos)
    d = s.to_dict()
    d2 = json.loads(json.dumps(d))               # JSON-safe
    t = s.game.state_from_dict(d2)
    assert _canon(t.to_dict()) == _canon(d)
    if not s.is_terminal():
        assert np.array_equal(t.legal_action_mask(), s.legal_action_mask())
        a = s.legal_actions()[0]
        s.apply_action(a)
        t.apply_action(a)
        assert _canon(t.to_dict()) == _canon(s.to_dict())


@pytest.mark.parametrize("env_id,n", CASES)
@PROPS
@given(pos=positions)
def test_illegal_action_leaves_state_unchanged(env_id, n, pos):
    s = _position(env_id, n, *pos)
    before = _canon(s.to_dict())
    if s.is_terminal():
        bad = [0]
    else:
        bad = np.flatnonzero(~s.legal_action_mask())[:5].tolist() + [s.game.num_actions, -1]
    for a in bad:
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(a)
        assert str(e.value)
        assert _canon(s.to_dict()) == before


@pytest.mark.parametrize("env_id,n", CASES)
@PROPS
@given(pos=positions)
def test_determinize_keeps_what_the_seat_sees(env_id, n, pos):
    s = _position(env_id, n, *pos)
    before = _canon(s.to_dict())
    rng = np.random.default_rng(pos[0])
    acting = -1 if s.is_terminal() else s.current_player()
    for p in range(n):
        view, obs = _canon(s.view(p)), s.observation(p)
        for _ in range(3):
            t = s.determinize(p, rng)
            assert _canon(t.view(p)) == view, f"determinize({p}) changed view({p})"
            assert np.array_equal(t.observation(p), obs), f"determinize({p}) changed observation({p})"
            if p == acting:
                assert np.array_equal(t.legal_action_mask(), s.legal_action_mask()), \
                    f"determinize({p}) changed the mask of the acting seat {p}: hidden facts shape the mask"
            # a determinized state is a state of the game: it passes the loader's checks
            s.game.state_from_dict(json.loads(json.dumps(t.to_dict())))
    assert _canon(s.to_dict()) == before, "determinize changed the state it was called on"


@pytest.mark.parametrize("env_id,n", CASES)
@PROPS
@given(pos=positions)
def test_determinize_resamples_what_the_seat_cannot_see(env_id, n, pos):
    s = _position(env_id, n, *pos)
    rng = np.random.default_rng(pos[0] + 1)
    for p in range(n):
        names = set(s.hidden_facts(p))
        assert "future chance" in names
        seen: dict[str, set] = {k: set() for k in names}
        for _ in range(SAMPLES):
            facts = s.determinize(p, rng).hidden_facts(p)
            assert set(facts) == names, f"hidden_facts({p}) names differ after determinize"
            for k, v in facts.items():
                seen[k].add(_canon(v))
        stuck = sorted(k for k, vals in seen.items() if len(vals) < 2)
        assert not stuck, f"determinize({p}) never resampled {stuck} over {SAMPLES} samples"


@pytest.mark.parametrize("env_id,n", CASES)
def test_determinize_depends_only_on_the_generator_it_is_given(env_id, n):
    """A search replays its samples: equal Generators give equal determinizations, future chance
    included (the copy's next draws); another Generator gives another future."""
    for seed, steps in ((3, 0), (5, 25), (8, 90)):
        s = _position(env_id, n, seed, steps)
        for p in range(n):
            a, b = (s.determinize(p, np.random.default_rng(100 + p)) for _ in range(2))
            assert _canon(a.to_dict()) == _canon(b.to_dict())
            c = s.determinize(p, np.random.default_rng(200 + p))
            assert _canon(a.to_dict()["rng"]) != _canon(c.to_dict()["rng"])


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_determinize_refuses_a_seat_that_is_not_at_the_table(env_id):
    n = PLAYERS[env_id][0]
    s = _position(env_id, n, 1, 10)
    rng = np.random.default_rng(0)
    for bad in (-1, n, n + 3, True, 1.0, "0", None):
        with pytest.raises(ValueError, match=rf"determinize: seat must be in 0\.\.{n - 1}, got {re.escape(repr(bad))}"):
            s.determinize(bad, rng)
    s.determinize(np.int64(n - 1), rng)          # a numpy integer is a seat


@pytest.mark.parametrize("env_id,n", CASES)
def test_loader_names_the_field_at_fault(env_id, n):
    g = _game(env_id, n)
    d = _position(env_id, n, 7, 30).to_dict()

    def refuses(bad, field):
        with pytest.raises(ValueError, match=repr(field).replace("[", r"\[")):
            g.state_from_dict(bad)

    refuses({**d, "env_id": "virus_other_v0"}, "env_id")
    refuses({**d, "num_players": n + 1}, "num_players")
    for k in d:
        if k not in ("env_id", "num_players"):
            refuses({kk: v for kk, v in d.items() if kk != k}, k)
    refuses({**d, "surprise": 1}, "surprise")
    refuses({**d, "rng": {"bit_generator": "PCG64"}}, "rng")
    refuses({**d, "rng": "abc"}, "rng")
    with pytest.raises(ValueError, match="expected a dict"):
        g.state_from_dict([1, 2])
    other = PLAYERS[env_id][0] if PLAYERS[env_id][0] != n else PLAYERS[env_id][1]
    refuses(_position(env_id, other, 7, 5).to_dict(), "num_players")


def _doc_hidden_names(env_id) -> set[str]:
    """First-column names (in backticks) of the table under '## Hidden information' in the game's rules doc."""
    text = (DOCS / f"{env_id.rsplit('_v', 1)[0]}.md").read_text()
    m = re.search(r"^## Hidden information\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"docs/rules for {env_id} has no '## Hidden information' section"
    return set(re.findall(r"^\|\s*`([^`]+)`", m.group(1), re.M))


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_hidden_facts_are_the_components_the_docs_name(env_id):
    """Every component the rules doc lists as hidden shows up in hidden_facts at some position, and
    hidden_facts names nothing the doc does not list."""
    if env_id in PENDING:
        pytest.skip(f"{env_id}: 'Hidden information' table pending (issue 12)")
    documented = _doc_hidden_names(env_id)
    assert "future chance" in documented
    found: set[str] = set()
    for n in PLAYERS[env_id]:
        for seed in range(12):
            for steps in (0, 5, 20, 60, 150, 400):
                s = _position(env_id, n, seed, steps)
                for p in range(n):
                    names = set(s.hidden_facts(p))
                    assert names <= documented, f"hidden_facts names {sorted(names - documented)} the doc does not list"
                    found |= names
    assert found == documented, f"documented hidden components never found open: {sorted(documented - found)}"
