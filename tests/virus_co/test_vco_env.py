"""Conformance of virus_co_v0: PettingZoo tests, seeded random playouts with invariants, the engine contract."""
import contextlib
import io
import json
import math

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import virus_envs
from virus_envs import IllegalActionError
from virus_envs.virus_co.cards import load_catalogue

ENV = "virus_co_v0"
COUNTS = (3, 4, 5, 6)


@pytest.mark.parametrize("n", COUNTS)
def test_pettingzoo_api_seed_render(n):
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(virus_envs.env(ENV, num_players=n), num_cycles=200)
        seed_test(lambda: virus_envs.env(ENV, num_players=n), num_cycles=100)
        render_test(lambda render_mode=None: virus_envs.env(ENV, num_players=n, render_mode=render_mode))


# -- the rulebook's formulas, written out here (never the engine's tables) ---------------------------
def rule_illness(s, q):
    """"The first syringe on a virus halves its value, rounding up. The second syringe on a virus kills
    it. The value of that virus is then ZERO." (a virus's syringes: those whose `on` names it)"""
    cat = s.game.cat
    total = 0
    for v in s.vir[q]:
        k = sum(1 for x in s.syr[q] if s.on[x] == v)
        total += cat.value[v] if k == 0 else (math.ceil(cat.value[v] / 2) if k == 1 else 0)
    return total


def rule_round_scores(s):
    """The scoring of the round as the rulebook states it, from the table at the moment the round ends.

    "If a player has more than 12 illness points, or 3 syringes (including injections), he or she lands
    immediately in the INTENSIVE CARE UNIT" / "A player who lands in the INTENSIVE CARE UNIT always
    receives 13 minus points. All other players add up their remaining pills as plus points and subtract
    their current illness value from that. A player who has become a NURSE, or who has carried out a
    DIAGNOSIS, additionally receives the plus or minus points stated on the card." Card texts
    (shared/COMPONENTS.md): Nurse +2, or -4 if the patient ends in intensive care; Diagnosis right +12,
    wrong -4. Returns (the seat in intensive care or -1, the scores)."""
    n = s.game.num_players
    cat = s.game.cat
    icu = [q for q in range(n) if rule_illness(s, q) > 12 or len(s.syr[q]) >= 3]
    assert len(icu) <= 1
    icu = icu[0] if icu else -1
    out = []
    for q in range(n):
        if q == icu:
            out.append(-13)
            continue
        b, y, r = s.pills[q]
        pts = 1 * b + 2 * y + 3 * r - rule_illness(s, q)
        kinds = [cat.risk_names[cat.rtype[c]] for c in s.front[q]]
        if "Nurse" in kinds:
            pts += -4 if s.nurse[q] == icu else 2
        if "Diagnosis" in kinds:
            pts += 12 if s.diag[q] == icu else -4
        out.append(pts)
    return icu, out


def check_invariants(s, load=True):
    g = s.game
    cat = g.cat
    n = g.num_players
    # 49 pills: players, stakes, pharmacy and (surplus) box
    for c in range(3):
        tot = sum(s.pills[q][c] + s.stake[q][c] for q in range(n)) + s.pharm[c] + s.box[c]
        assert tot == cat.pill_total[c]
        assert min(min(s.pills[q][c], s.stake[q][c]) for q in range(n)) >= 0 and s.pharm[c] >= 0
    assert sum(cat.pill_total) == 49
    # cards: each card in exactly one place
    where = []
    for st in s.stacks:
        where += st
    for q in range(n):
        where += s.vir[q] + s.syr[q] + s.hand[q] + s.front[q]
    where += s.rbox + s.used
    where += [c for c in (s.circ, s.rc, s.pend) if c >= 0]
    assert sorted(where) == list(range(cat.size))
    # illness recomputed from the displays; syringes lie where the display says
    for q in range(n):
        ill = 0
        for v in s.vir[q]:
            k = sum(1 for x in s.syr[q] if s.on[x] == v)
            assert k == s.nsyr[v] and k <= 2
        ill = rule_illness(s, q)
        assert s.illness(q) == ill
        assert s.view(q)["players"][q]["illness"] == ill
        if not s.terminal:
            assert len(s.syr[q]) < 3 and ill <= 12
    if s.circ < 0:
        assert all(st == [0, 0, 0] for st in s.stake)
    # the public count of turned-over risk cards matches where they lie
    pub = [0] * len(s.pub)
    for c in s.used + [x for q in range(n) for x in s.front[q] + s.vir[q] + s.syr[q]]:
        if cat.rtype[c] >= 0:
            pub[cat.rtype[c]] += 1
    if s.pend >= 0 and cat.rtype[s.pend] >= 0:
        pub[cat.rtype[s.pend]] += 1
    assert pub == s.pub
    if load:
        g.state_from_dict(s.to_dict())   # a reachable state passes the loader's checks


@pytest.mark.parametrize("n,cfg", [(3, {}), (4, {}), (5, {}), (6, {}),
                                   (4, {"deck": "twelve_syringes", "mr_doctor": "fee_on_pass",
                                        "injection_on_virus": False}),
                                   (3, {"cross_to_giver": False}), (6, {"cross_to_giver": False}),
                                   (5, {"first_player": -1, "rounds": 2})])
def test_random_playouts_keep_invariants_and_score_by_the_rulebook(n, cfg):
    """Seeded random games: the invariants after every step; every round's scores recomputed from the
    table as it stood when the round ended, with the rulebook's formulas; totals and returns from those."""
    g = virus_envs.game(ENV, num_players=n, **cfg)
    last_round = {}                       # the same game, ending after the round being played
    rng = np.random.default_rng(100 + n)
    for k in range(12):
        s = g.new_initial_state(seed=k)
        totals = [0] * n
        steps = 0
        while not s.is_terminal():
            check_invariants(s, load=steps % 5 == 0)
            o = s.observation(s.current_player())
            assert o.min() >= 0.0 and o.max() <= 1.0
            json.dumps(s.view(s.current_player()))   # JSON-safe in every phase
            legal = s.legal_actions()
            assert legal, "no legal action in a non-terminal state"
            if not g.config["cross_to_giver"]:
                # Assumption 5: without the cross-marked card going straight back, `pass` never arises
                assert not s.legal_action_mask()[s.game.string_to_action("pass")]
            a = int(rng.choice(legal))
            before = s.clone()
            s.apply_action(a)
            steps += 1
            if len(s.history) > len(before.history):
                # replay the step in a game that ends with this round: its last table stays on view
                r = before.round + 1
                if r not in last_round:
                    last_round[r] = g.make(rounds=r)
                end = last_round[r].state_from_dict(before.to_dict())
                end.apply_action(a)
                assert end.is_terminal() and not end.is_truncated()
                icu, expect = rule_round_scores(end)
                assert s.history[-1] == expect and s.icu == icu
                totals = [x + y for x, y in zip(totals, expect)]
        check_invariants(s)
        assert len(s.history) == g.config["rounds"] and not s.is_truncated()
        assert list(s.scores()) == totals
        best = max(totals)
        winners = [q for q in range(n) if totals[q] == best]
        # "The player who, after three rounds, has the best total score" wins; tied best share
        assert list(s.returns()) == [1 / len(winners) if q in winners else -1 for q in range(n)]


def test_seeded_games_are_reproducible():
    g = virus_envs.game(ENV, num_players=4)

    def run(seed):
        s = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        acts = []
        while not s.is_terminal():
            a = int(rng.choice(s.legal_actions()))
            acts.append(a)
            s.apply_action(a)
        return acts, list(s.totals)

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_illegal_action_raises_and_leaves_state_unchanged():
    g = virus_envs.game(ENV, num_players=4)
    s = g.new_initial_state(1)
    rng = np.random.default_rng(0)
    for _ in range(60):
        mask = s.legal_action_mask()
        bad = int(np.flatnonzero(~mask)[0])
        before = json.dumps(s.to_dict(), sort_keys=True)
        with pytest.raises(IllegalActionError) as e:
            s.apply_action(bad)
        assert s.phase() in str(e.value)
        assert json.dumps(s.to_dict(), sort_keys=True) == before
        s.apply_action(int(rng.choice(s.legal_actions())))
    with pytest.raises(IllegalActionError):
        s.apply_action(g.num_actions)
    with pytest.raises(IllegalActionError):
        s.apply_action("keep")


@pytest.mark.parametrize("key,value", [("rounds", 0), ("max_turns", 0), ("first_player", 9), ("deck", "other"),
                                       ("mr_doctor", "sir"), ("bogus", 1), ("rounds", "3")])
def test_bad_config_names_the_key(key, value):
    with pytest.raises(ValueError, match=key):
        virus_envs.game(ENV, num_players=4, **{key: value})


def test_bad_player_count():
    for n in (2, 7):
        with pytest.raises(ValueError):
            virus_envs.game(ENV, num_players=n)


def test_bad_card_file_names_file_and_field(tmp_path):
    import yaml
    from virus_envs.virus_co.cards import DATA_FILE
    data = yaml.safe_load(open(DATA_FILE, encoding="utf-8"))
    data["viruses"][3]["value"] = 7
    p = tmp_path / "cards.yaml"
    p.write_text(yaml.safe_dump(data))
    with pytest.raises(ValueError, match=r"cards.yaml.*viruses\[3\]\.value"):
        load_catalogue("seed", str(p))
    with pytest.raises(ValueError, match="cards_file"):
        virus_envs.game(ENV, num_players=4, cards_file=str(p))
    data = yaml.safe_load(open(DATA_FILE, encoding="utf-8"))
    data["viruses"][0]["cross"] = True          # 9 cross-marked viruses
    p.write_text(yaml.safe_dump(data))
    with pytest.raises(ValueError, match="cross"):
        load_catalogue("seed", str(p))
    data = yaml.safe_load(open(DATA_FILE, encoding="utf-8"))
    data["risk_cards"][3]["count"] = 4          # 21 risk cards
    p.write_text(yaml.safe_dump(data))
    with pytest.raises(ValueError, match="risk_cards"):
        load_catalogue("seed", str(p))


def test_action_names_round_trip():
    for n in COUNTS:
        g = virus_envs.game(ENV, num_players=n)
        assert len(set(g.actions.names)) == g.num_actions
        for a in range(g.num_actions):
            assert g.string_to_action(g.action_to_string(a)) == a


def _play(g, seed, steps):
    s = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(int(rng.choice(s.legal_actions())))
    return s


def test_to_dict_round_trip_and_clone_independence():
    g = virus_envs.game(ENV, num_players=5)
    for seed in range(6):
        s = _play(g, seed, 37 * seed + 11)
        d = json.loads(json.dumps(s.to_dict()))
        s2 = g.state_from_dict(d)
        assert json.dumps(s2.to_dict(), sort_keys=True) == json.dumps(s.to_dict(), sort_keys=True)
        if not s.is_terminal():
            assert np.array_equal(s2.legal_action_mask(), s.legal_action_mask())
            before = json.dumps(s.to_dict(), sort_keys=True)
            c = s.clone()
            c.apply_action(c.legal_actions()[0])
            assert json.dumps(s.to_dict(), sort_keys=True) == before
            # the same future from the restored state (the rng round-trips too)
            rng1, rng2 = np.random.default_rng(9), np.random.default_rng(9)
            while not s.is_terminal():
                s.apply_action(int(rng1.choice(s.legal_actions())))
                s2.apply_action(int(rng2.choice(s2.legal_actions())))
            assert s.totals == s2.totals


def test_clones_draw_the_same_future_deals_independently():
    g = virus_envs.game(ENV, num_players=4)
    s = _play(g, 5, 40)
    c1, c2 = s.clone(), s.clone()
    ref = json.dumps(s.to_dict(), sort_keys=True)

    def finish(x):
        r = np.random.default_rng(1)
        while not x.is_terminal():
            x.apply_action(int(r.choice(x.legal_actions())))
        return x.totals, x.history

    out1 = finish(c1)                      # c1 crosses round ends: it draws from its Generator
    assert json.dumps(s.to_dict(), sort_keys=True) == ref
    assert finish(c2) == out1 == finish(s)


def test_view_hides_hands_and_face_down_risk_card_and_determinize_resamples():
    g = virus_envs.game(ENV, num_players=4)
    rng = np.random.default_rng(0)
    seen_rc = 0
    for seed in range(40):
        s = _play(g, seed, int(rng.integers(1, 120)))
        if s.is_terminal():
            continue
        p = s.current_player()
        v = s.view(p)
        json.dumps(v)
        text = json.dumps(v)
        # no hidden risk card is named anywhere in the view: other hands, the unseen box, and the
        # face-down circulating card unless p issued it (single cards are named by their type, copies
        # "Plague 2 #1" ...; a card lies in one place only, so its exact name is never public)
        hidden = [c for q in range(4) if q != p for c in s.hand[q]] + list(s.rbox)
        if s.rc >= 0 and s.issuer != p:
            hidden.append(s.rc)
        for c in hidden:
            assert json.dumps(g.cat.name[c]) not in text, g.cat.name[c]
        if s.rc >= 0 and s.issuer != p:
            seen_rc += 1
            assert v["risk_card"]["card"] is None
        assert "rbox" not in text
        changed = False
        for k in range(5):
            d = s.determinize(p, np.random.default_rng(k))
            assert d.view(p) == v
            assert np.array_equal(d.observation(p), s.observation(p))
            assert np.array_equal(d.legal_action_mask(), s.legal_action_mask())
            assert d.hand[p] == s.hand[p]
            assert [len(h) for h in d.hand] == [len(h) for h in s.hand]
            assert [st[-1:] for st in d.stacks] == [st[-1:] for st in s.stacks]
            changed |= d.hand != s.hand or d.stacks != s.stacks
            check_invariants(d)
        assert changed
    assert seen_rc > 0   # the face-down risk card was met by a non-issuer


def test_observation_shape_range_and_seat_relative():
    g = virus_envs.game(ENV, num_players=4)
    s = _play(g, 2, 30)
    for p in range(4):
        o = s.observation(p)
        assert o.shape == g.observation_shape and o.dtype == np.float32
        assert o.min() >= 0 and o.max() <= g.observation_high
    lay = g.layout
    o0 = lay.unpack(s.observation(0))
    o1 = lay.unpack(s.observation(1))
    assert np.array_equal(o0["pills"][1], o1["pills"][0])     # the observer comes first


def test_render_is_a_readable_table():
    g = virus_envs.game(ENV, num_players=3)
    s = _play(g, 1, 25)
    text = str(s)
    assert "pharmacy" in text and "seat" in text and text == s.render()
