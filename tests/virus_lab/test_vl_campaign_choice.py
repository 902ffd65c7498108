"""Campaign mode: the way the next play is made harder, the players' choice (`campaign_escalation="choice"`, the
default) or a ladder (`"ladder"`, the user's order `campaign_ladder`); virus_envs/virus_lab/escalation.py.

"Following games. If the previous game has been won by Heroes, the next play must be increased in difficulty. You can
do that in several ways: - Increasing difficulty level. - Adding Legend Tiles. - Playing one of the three available
Scenario ... - Adding the Spy modality ... - Adding a player which plays as Boss (you can repeat this point ...) -
Adding the special Teleport-Drifting rooms and the Morbo card. - Adding the Additional Final Attack element."

Option i of the choice is the i-th way of this list, written out by hand here (not read from the engine)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from virus_envs.core import IllegalActionError
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.campaign import Campaign
from virus_envs.virus_lab.game import VirusLabGame

OPT = A.OPTION
SPECIAL = "teleport_rooms+drifting_rooms+morbo"
WAYS = ["difficulty", "final_attack", "legend", "scenario=reboot", "scenario=save_the_child", "scenario=captive",
        "spy", "boss_players=1", "boss_players=2", SPECIAL]


def won_game(g, difficulty=2, extras=()):
    """A finished game of the campaign `g` the Heroes won."""
    s = g.inner_game(difficulty, extras).new_initial_state(seed=0)
    s.terminal, s.won = True, True
    return s


def at_the_choice(g, seed=0):
    """A whole campaign after a first game the Heroes won: the Lead player's choice."""
    s = g.new_initial_state(seed=seed)
    while s.inner is None:
        s.apply_action(OPT)                     # every Hero done buying: the first game starts
    s.camp.pre = {}
    s.camp.record(won_game(g, s.camp.difficulty, s.camp.extras))
    s.inner, s._mask = None, None
    return s


def open_options(s):
    m = s.legal_action_mask()
    return [WAYS[i] for i in range(len(WAYS)) if m[OPT + i]]


# ----------------------------------------------------------------------------------- the choice
# with 2 Heroes and 2 seats reserved for Boss players every way of the list is open after the first game
ALL_OPEN = dict(num_players=4, campaign_games=4, boss_players=2)


def test_after_a_won_game_the_lead_player_chooses_among_the_ways():
    """ "If the previous game has been won by Heroes, the next play must be increased in difficulty. You can do that
    in several ways": the Lead player (seat 0, the first Lead player of every game) chooses; every way of the list
    is open at difficulty 2 with 2 Heroes and two seats for Boss players, but the second Boss player ("you can
    repeat this point") only after the first."""
    g = VirusLabGame(**ALL_OPEN)
    s = at_the_choice(g)
    assert s.phase() == "campaign: raise the difficulty" and s.current_player() == 0
    assert open_options(s) == [w for w in WAYS if w != "boss_players=2"]
    assert s.view(1)["campaign"]["ways"] == open_options(s), "the choice is open to every seat"
    flag = s.observation(1)[-1]
    assert flag == 1.0, "the observation's last float: the choice of a way under way"


def test_a_lost_game_asks_nothing():
    """Only "If the previous game has been won by Heroes": after a lost game the next Pre-Play starts with the
    purchases, the level unchanged."""
    g = VirusLabGame(num_players=1, campaign_games=3)
    s = g.new_initial_state(seed=0)
    s.apply_action(OPT)
    s.camp.pre = {}
    lost = g.inner_game(2).new_initial_state(seed=0)
    lost.terminal, lost.won = True, False
    s.camp.record(lost)
    s.inner, s._mask = None, None
    assert s.phase() == "campaign: Pre-Play" and s.camp.difficulty == 2 and s.camp.chosen == []


@pytest.mark.parametrize("way", WAYS)
def test_each_way_makes_the_next_game_harder(way):
    """Each way of the list chosen once (the second Boss player after the first): the next game is built with it."""
    g = VirusLabGame(**ALL_OPEN)
    s = at_the_choice(g)
    if way == "boss_players=2":
        s.apply_action(OPT + WAYS.index("boss_players=1"))
        while s.inner is None:
            s.apply_action(OPT)
        s.camp.pre = {}
        s.camp.record(won_game(g, 2, ["boss_players=1"]))
        s.inner, s._mask = None, None
    s.apply_action(OPT + WAYS.index(way))
    assert s.phase() == "campaign: Pre-Play", "then the purchases"
    while s.inner is None:
        s.apply_action(OPT)
    ig = s.inner.g
    expect = {
        "difficulty": lambda: ig.level == 3,                                      # "Increasing difficulty level"
        "final_attack": lambda: ig.final_attack,
        "legend": lambda: ig.legend is not None,
        "scenario=reboot": lambda: ig.config["scenario"] == "reboot",
        "scenario=save_the_child": lambda: ig.config["scenario"] == "save_the_child",
        "scenario=captive": lambda: ig.config["scenario"] == "captive",
        "spy": lambda: ig.spy,
        "boss_players=1": lambda: ig.num_players == 3 and ig.config["boss_players"] == 1,
        "boss_players=2": lambda: ig.num_players == 4 and ig.config["boss_players"] == 2,
        SPECIAL: lambda: ig.teleport and ig.drifting and ig.morbo,
    }
    assert expect[way]()
    if way != "difficulty":
        assert ig.level == 2, "one way at a time"
    assert s.camp.chosen[-1] == way and s.to_dict()["campaign"]["chosen"][-1] == way


def test_the_mask_offers_only_the_ways_still_open():
    """Only the ways still available: no level above 3; "Playing one of the three available Scenario": one not yet
    played; "Adding the Spy modality" with 2 Heroes or more (Spy Mode needs them); "Adding a player which plays as
    Boss" while a seat reserved for one is free; nothing the campaign's config has on already."""
    one = VirusLabGame(num_players=1, campaign_games=4, difficulty=3)
    s = at_the_choice(one)
    assert open_options(s) == ["final_attack", "legend", "scenario=reboot", "scenario=save_the_child",
                               "scenario=captive", SPECIAL], "level 3, one Hero, no Boss seat"
    s.apply_action(OPT + WAYS.index("scenario=reboot"))
    while s.inner is None:
        s.apply_action(OPT)
    s.camp.pre = {}
    s.camp.record(won_game(one, 3, ["scenario=reboot"]))
    s.inner, s._mask = None, None
    assert open_options(s) == ["final_attack", "legend", "scenario=save_the_child", "scenario=captive", SPECIAL]
    cfg = VirusLabGame(num_players=3, campaign_games=4, spy=True, legend=True, scenario="captive", boss_players=1)
    assert open_options(at_the_choice(cfg)) == ["difficulty", "final_attack", "scenario=reboot",
                                                "scenario=save_the_child", "boss_players=1", SPECIAL]


def test_no_way_left_no_choice():
    """At level 3 with every element chosen the next play cannot be made harder: no decision, the games stay."""
    c = Campaign(1, 9, difficulty=3, ladder_steps=["legend"])
    g = VirusLabGame(num_players=1, campaign_games=9, difficulty=3)
    c.pre = {}
    c.record(won_game(g, 3), way="legend")
    assert c.pre["step"] == "buy" and c.chosen == ["legend"]
    c.pre = {}
    c.record(won_game(g, 3, ["legend"]))
    assert c.pre["step"] == "buy" and c.chosen == ["legend"] and c.ways() == []


def test_an_illegal_choice_changes_nothing():
    g = VirusLabGame(num_players=1, campaign_games=3)
    s = at_the_choice(g)
    d = s.to_dict()
    for a in (OPT + WAYS.index("spy"), OPT + len(WAYS), A.PASS):
        with pytest.raises(IllegalActionError):
            s.apply_action(a)
        assert s.to_dict() == d


def test_the_engine_level_campaign_takes_the_way_as_an_argument():
    """`Campaign.record(game, way=...)`: the way applied at once; a bad way, a way after a lost game or in a ladder
    campaign raises ValueError naming it, and nothing is recorded."""
    g = VirusLabGame(num_players=2, campaign_games=3)
    c = Campaign(2, 3)
    c.pre = {}
    c.record(won_game(g), way="spy")
    assert c.chosen == ["spy"] and c.extras == ["spy"] and c.pre["step"] == "buy"
    assert Campaign.from_dict(json.loads(json.dumps(c.to_dict()))).chosen == ["spy"]
    c.pre = {}
    before = c.to_dict()
    for bad in ("spy", "boss_players=1", "nonsense"):
        with pytest.raises(ValueError, match=bad):
            c.record(won_game(g, 2, ["spy"]), way=bad)
        assert c.to_dict() == before
    lost = won_game(g)
    lost.won = False
    with pytest.raises(ValueError, match="legend"):
        c.record(lost, way="legend")
    ladder = Campaign(2, 3, escalation="ladder")
    ladder.pre = {}
    with pytest.raises(ValueError, match="legend"):
        ladder.record(won_game(g), way="legend")
    assert ladder.results == []


def test_the_choice_round_trips_and_keeps_what_each_seat_sees():
    """The choice is public: its state dict loads back, determinize keeps every seat's view and the Lead player's
    mask; the loader refuses a choice where no way is open or in a ladder campaign."""
    g = VirusLabGame(num_players=2, campaign_games=3)
    s = at_the_choice(g)
    d = json.loads(json.dumps(s.to_dict()))
    assert g.state_from_dict(d).to_dict() == s.to_dict()
    for p in range(2):
        t = s.determinize(p, np.random.default_rng(p))
        assert t.view(p) == s.view(p) and (t.legal_action_mask() == s.legal_action_mask()).all()
    bad = json.loads(json.dumps(d))
    bad["campaign"]["chosen"] = ["difficulty", "difficulty"]
    with pytest.raises(ValueError, match="campaign.chosen"):
        g.state_from_dict(bad)
    with pytest.raises(ValueError, match="campaign"):
        VirusLabGame(num_players=2, campaign_games=3, campaign_escalation="ladder").state_from_dict(d)


def test_whole_campaign_ids_follow_the_names_whatever_the_order():
    """With 2 Heroes the largest game has the Spy's 25 declarations before the special rooms' actions; chosen first,
    the special contents make a game whose table is not a prefix of the largest one: every legal id of the whole
    campaign names an action legal in the game."""
    g = VirusLabGame(num_players=2, campaign_games=2, difficulty=3)
    s = at_the_choice(g)
    s.apply_action(OPT + WAYS.index(SPECIAL))
    while s.inner is None:
        s.apply_action(OPT)
    assert s.inner.g.teleport and not s.inner.g.spy
    inner, names = s.inner, s.inner.g.actions.names
    # every action of the game legal at once: the whole campaign offers exactly the ids of these names
    inner.legal_action_mask = lambda: np.ones(len(names), dtype=bool)
    s._mask = None
    m = s.legal_action_mask()
    assert sorted(g.actions.names[a] for a in np.flatnonzero(m)) == sorted(names)
    assert "declare clue 0" not in {g.actions.names[a] for a in np.flatnonzero(m)}
    got = []
    inner.apply_action = lambda a: got.append(names[a])
    for name in ("drift room N", "teleport to room 0", "pass"):
        s.apply_action(g.actions.names.index(name))
    assert got == ["drift room N", "teleport to room 0", "pass"], "the game receives the action of that name"


# ----------------------------------------------------------------------------------- the ladder, the user's order
def test_the_ladder_option_climbs_the_users_order():
    """`campaign_escalation="ladder"` with `campaign_ladder="legend,difficulty,scenario=captive"`: one step a won game
    in that order, no choice asked, then the games stay as they are."""
    g = VirusLabGame(num_players=1, campaign_games=9, campaign_escalation="ladder",
                     campaign_ladder="legend,difficulty,scenario=captive")
    s = g.new_initial_state(seed=0)
    c = s.camp
    seen = []
    for _ in range(4):
        c.pre = {}
        c.record(won_game(g, c.difficulty, c.extras))
        assert c.pre["step"] == "buy"
        seen.append((c.difficulty, list(c.extras)))
    assert seen == [(2, ["legend"]), (3, ["legend"]), (3, ["legend", "scenario=captive"]),
                    (3, ["legend", "scenario=captive"])]
    default = VirusLabGame(num_players=1, campaign_games=2, campaign_escalation="ladder", difficulty=1)
    assert default.order == ("difficulty", "difficulty", "final_attack", "legend", "scenario=reboot",
                             "scenario=save_the_child", "scenario=captive", SPECIAL), "the engine's ladder"


@pytest.mark.parametrize("n,cfg,step", [
    (1, dict(campaign_ladder="legend,lava"), "lava"),
    (1, dict(campaign_ladder="legend,legend"), "legend"),
    (1, dict(campaign_ladder="difficulty,difficulty"), "difficulty"),           # from 2, one level left
    (1, dict(campaign_ladder="spy"), "spy"),                                    # one Hero: no Spy Mode
    (2, dict(campaign_ladder="boss_players=1"), "boss_players=1"),              # no seat reserved for a Boss player
    (3, dict(campaign_ladder="boss_players=2,boss_players=1", boss_players=2, spy=False), "boss_players=2"),
    (2, dict(campaign_ladder="legend", legend=True), "legend"),                 # on from the start
])
def test_a_bad_campaign_ladder_names_the_key_and_the_step(n, cfg, step):
    with pytest.raises(ValueError, match=f"campaign_ladder.*{step}"):
        VirusLabGame(num_players=n + cfg.get("boss_players", 0), campaign_games=3, campaign_escalation="ladder",
                     **cfg)



def test_a_bad_campaign_ladder_lists_the_steps_the_user_may_write():
    """A bad config raises ValueError naming the key; for an unknown step it lists the known ones (the rulebook's
    ways, written out by hand in `WAYS` above), so the user can correct the line. For a step this campaign cannot
    take it lists the campaign's steps, "none" when there is no step left (a bare list of steps given directly: with
    the game's config at least two Scenarios are always open)."""
    with pytest.raises(ValueError) as e:
        VirusLabGame(num_players=1, campaign_games=3, campaign_escalation="ladder", campaign_ladder="legend,lava")
    assert str(e.value) == f"config key 'campaign_ladder': unknown step 'lava' (known: {', '.join(WAYS)})"
    with pytest.raises(ValueError) as e:
        VirusLabGame(num_players=1, campaign_games=3, campaign_escalation="ladder", campaign_ladder="spy")
    assert "(its steps: final_attack, legend, scenario=reboot, scenario=save_the_child, scenario=captive, " \
        f"{SPECIAL})" in str(e.value), "one Hero: no Spy step, no Boss player seat"
    from virus_envs.virus_lab.escalation import parse_order
    with pytest.raises(ValueError) as e:
        parse_order("legend", 3, ())
    assert str(e.value).endswith("is not a way this campaign can take (its steps: none)")

def test_campaign_ladder_needs_the_ladder_and_escalation_its_values():
    with pytest.raises(ValueError, match="campaign_ladder"):
        VirusLabGame(num_players=1, campaign_games=3, campaign_ladder="legend")          # with "choice"
    with pytest.raises(ValueError, match="campaign_ladder"):
        VirusLabGame(num_players=1, campaign_escalation="ladder", campaign_ladder="legend")   # no campaign
    with pytest.raises(ValueError, match="campaign_escalation"):
        VirusLabGame(num_players=1, campaign_games=3, campaign_escalation="vote")


# ----------------------------------------------------------------------------------- a whole campaign with choices
def test_a_short_campaign_with_choices_played_by_the_heuristic():
    """Three games, one Hero, the heuristic team on every decision. After each game it is taken as a win of the
    Heroes (its state dict rewritten: the result, the return, the choice opened), so each following play is made
    harder by the Lead player's choice: the heuristic's rule takes the first way open in the engine's ladder order,
    the level from 2 to 3, then the Additional Final Attack."""
    from virus_envs.agents.base import Decision
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    g = VirusLabGame(num_players=1, campaign_games=3)
    bot = VirusLabHeuristic(g)
    s = g.new_initial_state(seed=5)
    levels, extras, choices = [], [], 0
    while not s.is_terminal():
        in_game = s.inner is not None
        if s.phase() == "campaign: raise the difficulty":
            choices += 1
        a = bot.act(Decision(seat=0, phase=s.phase(), view=s.view(0), observation=None,
                             action_mask=s.legal_action_mask(), game=g))
        s.apply_action(a)
        if s.inner is not None and not in_game:
            levels.append(s.inner.g.level)
            extras.append(list(s.camp.extras))
        if in_game and s.inner is None and not s.is_terminal() and not s.camp.results[-1]:
            d = s.to_dict()
            c = d["campaign"]
            c["results"][-1], c["returns_log"][-1] = True, [1.0]
            c["pre"]["step"] = "raise"
            s = g.state_from_dict(d)
    assert choices == 2 and levels == [2, 3, 3] and extras == [[], [], ["final_attack"]]
    assert s.camp.chosen == ["difficulty", "final_attack"]
    d = s.to_dict()
    assert g.state_from_dict(json.loads(json.dumps(d))).to_dict() == d


def test_a_game_without_some_special_rooms_sees_each_part_at_its_own_place():
    """A campaign whose config has the Teleport rooms on but not the Morbo card: its first game lacks the Morbo part
    that the largest game (after "Adding the special Teleport-Drifting rooms and the Morbo card") has before the
    Teleport part. The whole campaign's observation places each part of the game's `advanced` block by name: the
    Teleport numbers go to the Teleport place, the Morbo place stays empty."""
    from virus_envs.virus_lab.encoding import advanced_parts
    g = VirusLabGame(num_players=1, campaign_games=2, teleport_rooms=True)
    s = g.new_initial_state(seed=0)
    while s.inner is None:
        s.apply_action(OPT)
    ig, big = s.inner.g, g.largest
    assert ig.teleport and not ig.morbo and big.morbo and big.teleport
    n = ig.layout.size
    marks = (np.arange(1, n + 1) / (n + 1)).astype(np.float32)     # every number tells its place (all in (0, 1))
    s.inner.observation = lambda p: marks.copy()
    v = s.observation(0)

    def part(game, start, name):
        for nm, size in advanced_parts(game):
            if nm == name:
                return start, start + size
            start += size
    a, b = part(ig, ig.layout.slices["advanced"].start, "teleport")
    c, d = part(big, g.inner_layout.slices["advanced"].start, "teleport")
    assert v[c:d].tolist() == marks[a:b].tolist()
    m0, m1 = part(big, g.inner_layout.slices["advanced"].start, "morbo")
    assert not v[m0:m1].any()
