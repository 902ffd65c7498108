"""The Skills expansion (`skills="draft"` / `"auction"`, virus_envs/virus_lab/skills.py).

The rulebook describes both ways of assigning Skill cards (quoted in each test) but prints none of the 16 cards:
their powers are the designed `data/skills.yaml` (docs/rules/virus_lab.md, Assumptions "Skill cards"), and each
card's test states the power in the card's own words and checks it against a value computed by hand.
"""
from __future__ import annotations


import numpy as np
import pytest

from vl_helpers import TRICKER, ZOMBIE, at, check_invariants, creatures, empty_state, four, patched_data, put
from virus_envs.virus_lab.actions import A, IT_BULLET, IT_HEART
from virus_envs.virus_lab.components import TK_ADREN, TK_EXPL, TK_FOUR, TK_SHIELD
from virus_envs.virus_lab.flow import PH_SKILL, Q_REFILL
from virus_envs.virus_lab.game import PH_ACT, PH_GAIN, PH_NONE, PH_REFILL, PH_RESULT, PH_SPEND, VirusLabGame

NAMES = ("Scholar", "Athlete", "Tough", "Gunner", "Armoured", "Demolition expert", "Lucky", "Daredevil",
         "Locksmith", "Sapper", "Scout", "Marksman", "Brawler", "Scavenger", "Trader", "Evasive")


def card(g, name):
    return [c[0] for c in g.skill_cards].index(name)


def skilled(name, n=1, **cfg):
    """A 1-Hero game (the empty map of vl_helpers) whose Hero drafted the Skill card `name` and a filler card
    (Locksmith, or Sapper for Locksmith itself), in the Real Time phase."""
    s = empty_state(n, skills="draft", **cfg)
    g = s.g
    assert s.ph == PH_SKILL and s.cur == 0
    filler = "Sapper" if name == "Locksmith" else "Locksmith"
    want = [card(g, name), card(g, filler)]
    rest = [k for k in range(16) if k not in want]
    s.sk_table = want + rest[:len(s.sk_table) - 2]
    s.sk_box = sorted(rest[len(s.sk_table) - 2:])
    s._mask = None
    s.apply_action(A.OPTION + 0)
    s.apply_action(A.OPTION + 1)
    assert s.ph == PH_ACT and len(s.skills[0]) == 2
    return s


def test_sixteen_cards_designed_as_data():
    """ "Skill expansion ... contains 16 skill cards. Skill cards give players additional powers." """
    g = VirusLabGame(num_players=1, skills="draft")
    assert tuple(c[0] for c in g.skill_cards) == NAMES


# ----------------------------------------------------------------------------------- assignment
def test_method_1_draft_order():
    """ "Method 1: Place 2X+1 skill cards on the table, where X is the number of players. The Lead player takes 1
    skill, with every other player selecting a skill in clockwise order. Each player then takes a second skill
    card, beginning with the last player and returning to the Lead player in counter-clockwise order." """
    g = VirusLabGame(num_players=3, skills="draft")
    s = g.new_initial_state(seed=4)
    assert len(s.sk_table) == 7 and len(s.sk_box) == 9, "2 x 3 + 1 cards on the table"
    turns = []
    while s.ph == PH_SKILL:
        turns.append(s.cur)
        s.apply_action(int(s.legal_actions()[0]))
    assert turns == [0, 1, 2, 2, 1, 0]
    assert [len(h) for h in s.skills] == [2, 2, 2] and len(s.sk_box) == 10, "the card left goes back"
    assert s.ph == PH_ACT


def test_nothing_used_or_dodged_before_the_first_real_time_phase():
    """The Skill assignment comes before the first Real Time phase ("Before the game begins"), so every Hero's
    view there shows this turn's combat and Adrenaline counters at nothing: no Adrenaline token used, no
    Creature Dodged, no counter-attack, no free flight. (Mutation sample, seed 5: `adren` and `dodged` starting
    at 1 survived, as the first Real Time phase resets them.)"""
    for method in ("draft", "auction"):
        s = VirusLabGame(num_players=3, skills=method).new_initial_state(seed=2)
        assert s.ph == PH_SKILL
        for p in range(3):
            for hero in s.view(p)["heroes"]:
                assert hero["adrenaline_used"] == 0, (method, p, hero["seat"])
                assert hero["dodged"] == [0] * len(hero["dodged"]) and not hero["countered"], (method, hero["seat"])
                assert not hero["flee_free"] and hero["countered_in"] == []


def test_method_2_auction_outbid_and_pass():
    """ "each player places 1 Action cube from his stock on a skill card of his choice or passes. If there are
    already 1 or more cubes on the card, the player must place the same quantity +1 and return the current
    cube(s) to their owner. Continue for several rounds until all players pass. Each player takes up to 2 skill
    cards where his cubes are on. Return the cubes to the player reserves." """
    g = VirusLabGame(num_players=2, skills="auction")
    s = g.new_initial_state(seed=1)
    first = s.sk_table[0]
    assert s.ph == PH_SKILL and s.cur == 0 and s.stock == [8, 8]
    s.apply_action(A.OPTION + 0)                # seat 0: 1 cube on card 0
    assert s.stock == [7, 8] and s.sk_bids[0] == [0, 1]
    assert not s.legal_action_mask()[A.OPTION + 0] or s.cur == 1
    s.apply_action(A.OPTION + 0)                # seat 1: 2 cubes; seat 0's cube comes back
    assert s.stock == [8, 6] and s.sk_bids[0] == [1, 2]
    s.apply_action(A.PASS)                      # seat 0
    assert s.ph == PH_SKILL and s.cur == 1
    s.apply_action(A.PASS)                      # seat 1: both passed in a row
    assert s.ph == PH_ACT and s.skills == [[], [first]]
    assert s.stock == [8, 6] and s.reserve[1] == 8 + 2, "the winning cubes go to the reserve"
    check_invariants(s)


def test_auction_cubes_on_three_cards_keep_two():
    """ "Each player takes up to 2 skill cards where his cubes are on": with cubes on three, he chooses two."""
    g = VirusLabGame(num_players=1, skills="auction")
    s = g.new_initial_state(seed=2)
    table = list(s.sk_table)
    for i in (0, 1, 2):
        s.apply_action(A.OPTION + i)
    assert s.stock == [5]
    assert s.ph == PH_SKILL and s.sk_mode == 3, "his cubes on all 3 cards: nothing left to place, he passes"
    m = s.legal_action_mask()
    assert [i for i in range(3) if m[A.OPTION + i]] == [0, 1, 2] and not m[A.PASS]
    s.apply_action(A.OPTION + 2)
    s.apply_action(A.OPTION + 0)
    assert s.ph == PH_ACT and s.skills == [[table[2], table[0]]] and table[1] in s.sk_box
    assert s.reserve == [8 + 3], "every cube on the cards goes to the reserve"


def test_a_bid_needs_the_cubes_in_stock():
    g = VirusLabGame(num_players=2, skills="auction")
    s = g.new_initial_state(seed=3)
    s.stock[1] = 1
    s.reserve[1] += 7
    s._mask = None
    s.apply_action(A.OPTION + 0)            # seat 0: 1 cube
    m = s.legal_action_mask()
    assert s.cur == 1 and not m[A.OPTION + 0] and m[A.OPTION + 1], "outbidding needs 2 cubes, he has 1"


# ----------------------------------------------------------------------------------- the 16 cards
def test_scholar_knowledge_plus_one():
    """Scholar: "Knowledge +1: one more room card in your Rooms display" (Knowledge 8 + 1 = 9)."""
    s = skilled("Scholar")
    assert s.knowledge(0) == 9 and s.view(0)["heroes"][0]["knowledge"] == 9
    s.disp[0] = []
    s.ph, s.queue = PH_NONE, [[Q_REFILL, 0]]
    s._advance()
    while s.ph == PH_REFILL:
        s.apply_action(A.KEEP)
    assert len(s.disp[0]) == 9


def test_athlete_stamina_plus_one():
    """Athlete: "Stamina +1: recover one more Action cube each turn" (3 + 1 = 4 cubes from the reserve)."""
    s = skilled("Athlete")
    st, res = s.stock[0], s.reserve[0]
    s._recover()
    assert s.stock[0] == st + 4 and s.reserve[0] == res - 4


def test_tough_hit_points_plus_one():
    """Tough: "Hit points +1" (difficulty 2: 7 + 1 = 8 wounds kill the Hero)."""
    s = skilled("Tough", difficulty=2)
    for _ in range(7):
        s._wound(0, True)
    assert s.alive[0]
    s._wound(0, True)
    assert not s.alive[0]


def test_gunner_four_bullets():
    """Gunner: "Take 4 Bullet cubes from the game reserve when you take this card" (8 + 4 = 12)."""
    s = skilled("Gunner")
    assert s.bullets[0] == 12
    check_invariants(s)


@pytest.mark.parametrize("name, token, amount", [("Armoured", TK_SHIELD, 2), ("Demolition expert", TK_EXPL, 2),
                                                 ("Lucky", TK_FOUR, 1), ("Daredevil", TK_ADREN, 1)])
def test_starting_tokens(name, token, amount):
    """Armoured (2 Shield tokens), Demolition expert (2 Explosive tokens), Lucky (1 Four-leaf token), Daredevil (1
    Adrenaline token): "Take ... from the game reserve when you take this card"."""
    s = skilled(name)
    assert s.tok[0][token] == amount
    check_invariants(s)


def test_locksmith_and_sapper_tiles():
    """Locksmith: "Take 1 Door tile"; Sapper: "Take 1 Breach tile" (from the game reserve)."""
    s = skilled("Locksmith")
    assert s.t_door[0] == 1 and s.t_breach[0] == 1, "with the filler Sapper"
    s = skilled("Sapper")
    assert s.t_breach[0] == 1 and s.t_door[0] == 1, "with the filler Locksmith"
    check_invariants(s)


def test_scout_searches_for_two_cubes():
    """Scout: "Search costs you 2 Action cubes instead of 3"."""
    s = skilled("Scout")
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    s.stock[0], s.reserve[0] = 2, s.reserve[0] + s.stock[0] - 2
    s._mask = None
    assert s.legal_action_mask()[A.SEARCH]
    s.apply_action(A.SEARCH)
    assert s.stock[0] == 0 and s.cubes[c] == 2 and s.searched[c] == 0


@pytest.mark.parametrize("name, pos, neg", [("Marksman", 2, 3), ("Brawler", 0, 1)])
def test_marksman_and_brawler_turn_one_element_positive(name, pos, neg):
    """Marksman: "In each of your combat rolls, 1 negative Bullet cube lands positive"; Brawler: the same for 1
    negative Action cube. Every element lands negative here (p_positive = 0.001 and a fixed seed)."""
    s = skilled(name, p_positive=0.001)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, zombie=1)
    s.apply_action(A.ATTACK)
    s.apply_action(A.ADD_CUBE)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    assert s.ph == PH_RESULT
    total = {0: 2, 2: 2}[pos]       # 2 Action cubes, 2 bullets in the roll
    assert s.rollres[pos] == 1 and s.rollres[neg] == total - 1


def test_scavenger_three_more_resources():
    """Scavenger: "Gain 3 more resources at each Turn End (within the 30 a turn)"."""
    s = skilled("Scavenger")
    s._start_gain(0)
    assert s.ph == PH_GAIN and s.res[0] == 3 and s.gained[0] == 3
    s.ph = PH_NONE
    c = put(s, 1, 5, four(s.g))
    s.explored[c] = 0
    s.searched[c] = 0
    s._start_gain(0)                    # 1 room x (1 + 2) points = 3, + 3
    assert s.res[0] == 6


def test_trader_buys_for_one_less():
    """Trader: "Each item you buy costs 1 resource less (at least 1)": a Heart 8 -> 7, a Bullet 2 -> 1."""
    s = skilled("Trader")
    assert s._price(0, IT_HEART) == 7 and s._price(0, IT_BULLET) == 1
    s.res[0] = 8
    s.ph, s.cur = 10, 0                 # PH_BUY
    s._mask = None
    s.apply_action(A.BUY + IT_HEART)
    assert s.res[0] == 1 and s.tok[0][1] == 1


def test_evasive_dodges_for_one_success_less():
    """Evasive: "Each Dodge costs you 1 Success less (at least 1)": a Tricker 2 -> 1, a Zombie stays 1."""
    s = skilled("Evasive")
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, tricker=1, zombie=1)
    s.ph, s.cur, s.succ = PH_SPEND, 0, 1
    s._mask = None
    m = s.legal_action_mask()
    assert m[A.DODGE + TRICKER] and m[A.DODGE + ZOMBIE]
    base = empty_state(1)
    base.pos[0] = c
    creatures(base, c, tricker=1)
    base.ph, base.cur, base.succ = PH_SPEND, 0, 1
    base._mask = None
    assert not base.legal_action_mask()[A.DODGE + TRICKER], "without the card a Tricker needs 2"


# ----------------------------------------------------------------------------------- config, data, play
def test_bad_config_and_data(tmp_path):
    with pytest.raises(ValueError, match="skills"):
        VirusLabGame(num_players=1, skills="random")
    patched_data(tmp_path, "skills.yaml", "power: dodge", "power: flying")
    with pytest.raises(ValueError, match=r"data_dir.*skills.yaml.*skills\[15\].power"):
        VirusLabGame(num_players=1, skills="draft", data_dir=str(tmp_path))


def test_view_observation_and_loader():
    g = VirusLabGame(num_players=2, skills="auction")
    s = g.new_initial_state(seed=5)
    s.apply_action(A.OPTION + 3)
    v = s.view(1)["skills"]
    assert v["step"] == "auction" and v["bids"][3] == [0, 1] and v["table"][3] is not None
    blk = s.observation(1)[g.layout.slices["skills"]]
    k = s.sk_table[3]
    assert blk[1] == 1 and blk[3] == 1, "auction; seat 1 to act"
    assert blk[4 + 10 * k] == 1 and blk[4 + 10 * k + 5] == pytest.approx(1 / 8) and blk[4 + 10 * k + 6 + 1] == 1
    d = s.to_dict()
    assert g.state_from_dict(d).to_dict() == d
    with pytest.raises(ValueError, match="sk_box"):
        g.state_from_dict(dict(d, sk_box=d["sk_box"][1:]))
    with pytest.raises(ValueError, match="stock"):
        g.state_from_dict(dict(d, sk_bids=[[0, 2]] + d["sk_bids"][1:]))
    assert "skills" not in VirusLabGame(num_players=2).new_initial_state(seed=0).to_dict()


@pytest.mark.parametrize("method", ["draft", "auction"])
def test_random_playouts_keep_the_invariants(method):
    for n in (1, 3):
        g = VirusLabGame(num_players=n, skills=method)
        s = g.new_initial_state(seed=n)
        rng = np.random.default_rng(n)
        k = 0
        while not s.is_terminal():
            s.apply_action(int(rng.choice(s.legal_actions())))
            k += 1
            if k % 5 == 0:
                check_invariants(s)
                assert g.state_from_dict(s.to_dict()).to_dict() == s.to_dict()
        assert all(len(h) <= 2 for h in s.skills)


@pytest.mark.parametrize("method", ["draft", "auction"])
def test_heuristic_team_takes_skills_and_plays_legally(method):
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    from virus_envs.experiments.arena import play_game
    for n in (1, 2, 4):
        g = VirusLabGame(num_players=n, difficulty=1, skills=method)
        st, _ = play_game(g, [VirusLabHeuristic(g) for _ in range(n)], seed=n)
        assert st.is_terminal() and not st.is_truncated()
        assert all(len(h) >= 1 for h in st.skills), "every Hero got a Skill card"


def test_cli_with_skills_and_the_countdown(tmp_path):
    import json

    from virus_envs.experiments.cli import main
    out = tmp_path / "e.json"
    main(["eval", "--game", "virus_lab_v0", "--players", "2", "--game-config", "skills=auction", "--game-config",
          "real_time=true", "--agent", "heuristic", "--games", "2", "--out", str(out)])
    assert json.loads(out.read_text())
