"""Campaign mode (`campaign=True`: one game of a campaign; `campaign_games=N`: a whole campaign as one episode;
virus_envs/virus_lab/campaign.py). Each test quotes the rulebook's "CAMPAIGN MODE" passage it shows."""
from __future__ import annotations

import json

import numpy as np
import pytest

from vl_helpers import at, check_invariants, creatures, empty_state, four, keep_wounds, put
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.campaign import Campaign
from virus_envs.virus_lab.game import PH_SPEND, VirusLabGame

OPT = A.OPTION
K1, K2, S1, S2, H1, H2 = 1, 2, 3, 4, 5, 6


def skill(k):
    return OPT + 7 + k


def campaign_state(n=2, games=2, seed=0, **cfg):
    g = VirusLabGame(num_players=n, campaign_games=games, **cfg)
    return g, g.new_initial_state(seed=seed)


# ----------------------------------------------------------------------------------- one campaign game
def test_first_play_setup():
    """ "First play Setup. Use normal Setup with Difficulty 2, but applying these modifications: Base Knowledge is
    5 instead of 8. Base Stamina is 1 instead of 3. Hit points are 5/4/3 instead of 8/4/3 (as printed). Starting
    Skills are 0." (8/4/3 read as the base game's 8/7/6; difficulty 2: 4 Hit points.)"""
    g = VirusLabGame(num_players=2, campaign=True)
    s = g.new_initial_state(seed=0)
    assert g.level == 2
    for p in range(2):
        assert (s.knowledge(p), s.stamina(p), s.hp_of(p)) == (5, 1, 4)
        assert len(s.disp[p]) == 5 and s.skills[p] == []
    assert [VirusLabGame(num_players=1, campaign=True, difficulty=d).new_initial_state(seed=0).hp_of(0)
            for d in (1, 2, 3)] == [5, 4, 3]
    st, res = s.stock[0], s.reserve[0]
    s._recover()
    assert s.stock[0] == st + 1 and s.reserve[0] == res - 1, "Stamina 1"


def test_campaign_heroes_carry_their_stats_and_skills():
    """ "Base starting Stats above, can be permanently modified before each game spending XP": a Hero with
    Knowledge +2, Stamina +1, Hit points +1 and the Skill cards Tough and Gunner."""
    g = VirusLabGame(num_players=1, campaign=True)
    names = [c[0] for c in g.skill_cards]
    hero = {"xp": 0, "knowledge": 2, "stamina": 1, "hit_points": 1,
            "skills": [names.index("Tough"), names.index("Gunner")]}
    s = g.new_initial_state(seed=1, campaign_heroes=[hero])
    assert (s.knowledge(0), s.stamina(0), s.hp_of(0)) == (7, 2, 4 + 1 + 1)
    assert len(s.disp[0]) == 7 and s.bullets[0] == 8 + 4
    check_invariants(s)


def test_kills_and_boss_kills_earn_xp():
    """ "1 XP every 4 killed creatures ... 1 XP every killed Boss. All Heroes, which are in combat in the same room
    of Boss when the Boss dies, gain 1 [XP]. 2 XP for surviving at game's end. 1 XP if not infected and survived at
    game's end. 3 XP if Heroes win the play." """
    s = empty_state(2, campaign=True)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    at(s, 1, c)
    creatures(s, c, dog=1)
    s.ph, s.cur, s.succ = PH_SPEND, 0, 3
    s._mask = None
    s.apply_action(A.KILL + 1)              # seat 0 kills the Dog
    keep_wounds(s)
    assert s.kills == [1, 0]
    s.kills = [9, 3]
    s.boss_xp = [1, 1]
    s.terminal, s.won = True, True
    s.alive = [True, False]
    s.wounds[0] = []
    # seat 0: 9 // 4 = 2, Boss 1, survived 2, not infected 1, won 3 -> 9; seat 1 (dead): 0 + 1 + 3 -> 4
    assert [s.xp_earned(0), s.xp_earned(1)] == [9, 4]


def test_a_boss_killed_in_combat_gives_xp_to_every_hero_in_its_room():
    g = VirusLabGame(num_players=2, campaign=True)
    s = g.new_initial_state(seed=0)
    s.bosses = s.bosses[:1]
    b = s.bosses[0]
    at(s, 0, b[0])
    at(s, 1, b[0])
    s.ph, s.cur, s.succ = PH_SPEND, 0, 3 * g.comp.boss_hp[b[2]]
    s._mask = None
    s.apply_action(A.KILL + 8)
    assert s.boss_xp == [1, 1] and s.kills == [0, 0]


def test_explosion_kills_count_for_the_placer():
    """ "Each player keeps killed creature miniatures near their own player board": Explosives kill for the Hero
    who placed them."""
    s = empty_state(1, campaign=True)
    c = put(s, 1, 5, four(s.g))
    creatures(s, c, dog=2)
    s.expl[c], s.expl_by[c], s.armed[c] = 2, 0, 1
    s.tok_pool[5] -= 2
    s.explode(c)
    assert s.kills == [2]


def test_a_dead_hero_swaps_his_skills():
    """ "If a Hero dies, the player must discard all Skill cards owned and take an equal number of new Skills (or
    up to the Skills available). Discarded Skills will be available again in the following play." """
    g = VirusLabGame(num_players=1, campaign=True)
    hero = {"xp": 0, "knowledge": 0, "stamina": 0, "hit_points": 0, "skills": [3, 9]}
    s = g.new_initial_state(seed=2, campaign_heroes=[hero])
    for _ in range(s.hp_of(0)):
        s._wound(0, True)
    assert not s.alive[0] and len(s.skills[0]) == 2 and not set(s.skills[0]) & {3, 9}
    assert s.sk_gone == [3, 9] and not set(s.sk_box) & {3, 9}
    c = Campaign(1, 3)
    c.pre = {}
    s.terminal = True
    c.record(s)
    assert c.heroes[0]["skills"] == s.skills[0], "he keeps the new cards; the discarded are free again"


# ----------------------------------------------------------------------------------- Pre-Play
def test_preplay_prices_and_limits():
    """ "Each Hero starts with 10 Experience Points (XP)." "Increase Knowledge: +1 point spending 2 XP, +2 points
    spending 5 XP. Increase Stamina: +1 point spending 3 XP, +2 points spending 7 XP. Increase Hit Points: +1 point
    spending 2 XP, +2 points spending 5 XP. Gain a Skill: +1 Skill spending 4 XP, +2 Skills spending 10 XP."
    "a player cannot gain more than 2 points in each stat, or more than 2 Skills per game" """
    g, s = campaign_state(1, games=1)
    assert s.phase() == "campaign: Pre-Play" and s.camp.heroes[0]["xp"] == 10
    s.apply_action(OPT + K2)                # 5 XP
    m = s.legal_action_mask()
    assert not m[OPT + K1] and not m[OPT + K2], "Knowledge bought this Pre-Play"
    assert m[OPT + S1] and not m[OPT + S2], "5 XP left: Stamina +1 (3) yes, +2 (7) no"
    s.apply_action(skill(0))                # 4 XP: 1 left
    m = s.legal_action_mask()
    assert not m[skill(1)] and not m[OPT + H1], "1 XP: nothing more"
    s.apply_action(OPT)                     # done: the game starts
    assert s.inner is not None and s.camp.heroes[0] == {"xp": 1, "knowledge": 2, "stamina": 0, "hit_points": 0,
                                                         "skills": [0]}
    assert s.inner.knowledge(0) == 5 + 2 + 1, "base 5, +2 bought, card 0 is Scholar (+1)"
    g, s = campaign_state(1, games=1)
    s.apply_action(skill(4))
    s.apply_action(skill(5))                # 4 + 6 = 10 XP for two
    assert not s.legal_action_mask()[skill(6)], "2 Skills a Pre-Play"
    s.apply_action(OPT)
    assert s.camp.heroes[0]["xp"] == 0 and s.camp.heroes[0]["skills"] == [4, 5]


def test_skill_auction_secret_bids():
    """ "If more than a player wants to gain the same Skill, make an auction: each player makes a secret bid with XP
    ... If there is a tie, repeat the bid. Only the winning player pays the XP bidded." """
    g, s = campaign_state(2, games=1)
    s.apply_action(skill(7))                # seat 0 wants card 7 (4 XP)
    s.apply_action(OPT)
    assert s.view(1)["campaign"]["wants"][0] == [7], "wishes are declared openly"
    s.apply_action(skill(7))                # seat 1 too
    s.apply_action(OPT)
    assert s.phase() == "campaign: Skill auction, secret bid" and s.current_player() == 0
    m = s.legal_action_mask()
    assert m[OPT + 6] and not m[OPT + 7], "10 - 4 = 6 XP to bid"
    s.apply_action(OPT + 2)                 # seat 0 bids 2
    v1 = s.view(1)["campaign"]
    assert v1["my_bid"] is None and v1["bid_placed"] == [0], "seat 1 sees that seat 0 bid, not how much"
    assert "campaign bids" in s.hidden_facts(1) and "campaign bids" not in s.hidden_facts(0)
    seen = {json.dumps(s.determinize(1, np.random.default_rng(i)).camp.pre["bids"]) for i in range(12)}
    assert len(seen) > 1, "determinize(1) resamples seat 0's secret bid"
    s.apply_action(OPT + 2)                 # seat 1 bids 2: a tie, bid again
    assert s.phase() == "campaign: Skill auction, secret bid" and s.camp.pre["ties"] == 1
    s.apply_action(OPT + 1)
    s.apply_action(OPT + 3)                 # seat 1 wins with 3
    assert s.inner is not None
    h0, h1 = s.camp.heroes
    assert h1["skills"] == [7] and h1["xp"] == 10 - 4 - 3, "the winner pays the price and his bid"
    assert h0["skills"] == [] and h0["xp"] == 10, "the loser pays nothing"


# ----------------------------------------------------------------------------------- between games
def test_difficulty_rises_after_a_won_game():
    """ "If the previous game has been won by Heroes, the next play must be increased in difficulty" (the ladder,
    `campaign_escalation="ladder"`: the level first, up to 3; the players' choice: test_vl_campaign_choice.py)."""
    c = Campaign(1, 4, escalation="ladder")
    c.pre = {}
    g = VirusLabGame(num_players=1, campaign=True)
    s = g.new_initial_state(seed=0)
    s.terminal, s.won = True, False
    c.record(s)
    assert c.difficulty == 2 and c.pre, "lost: same level, next Pre-Play"
    c.pre = {}
    s.won = True
    c.record(s)
    assert c.difficulty == 3
    c.pre = {}
    c.record(s)
    assert c.difficulty == 3 and c.results == [False, True, True]
    # a living, uninfected Hero with no kill: lost 2 + 1 = 3 XP, won 2 + 1 + 3 = 6 XP; "XP can be stored"
    assert c.xp_log == [[3], [6], [6]] and c.heroes[0]["xp"] == 10 + 3 + 6 + 6


def test_a_way_not_open_is_refused_by_name_and_changes_nothing():
    """Escalating by a way that is not open (here the Final Attack a second time; then a made-up name) raises a
    ValueError naming the way and the open ones, and the campaign is as before. (Seed-9 mutation sample: `escalate` 2,
    the message replaced by None, survived.)"""
    c = Campaign(1, 4, escalation="ladder")
    c.escalate("final_attack")
    before = json.dumps(c.to_dict(), sort_keys=True)
    for way in ("final_attack", "teleport"):
        with pytest.raises(ValueError, match=f"way '{way}' is not open .*'legend'"):
            c.escalate(way)
        assert json.dumps(c.to_dict(), sort_keys=True) == before


def test_escalation_after_difficulty_three():
    """ "the next play must be increased in difficulty. You can do that in several ways: Increasing difficulty
    level. Adding Legend Tiles. ... Adding the Additional Final Attack element.": on the engine's ladder
    (`campaign_escalation="ladder"`), at difficulty 3 the next won game adds the Additional Final Attack, the one
    after Legend tiles, then the Scenarios, then the special contents; the games are built with them."""
    g = VirusLabGame(num_players=1, campaign_games=5, difficulty=3)
    c = Campaign(1, 5, difficulty=3, escalation="ladder")
    c.pre = {}
    s = g.inner_game(3).new_initial_state(seed=0)
    s.terminal, s.won = True, True
    c.record(s)
    assert (c.difficulty, c.extras) == (3, ["final_attack"])
    c.pre = {}
    c.record(s)
    assert c.extras == ["final_attack", "legend"]
    for _ in range(3):                  # the three Scenarios (test_escalation_by_scenarios)
        c.pre = {}
        c.record(s)
    assert c.extras[-1] == "scenario=captive"
    c.pre = {}
    c.record(s)
    # "Adding the special Teleport-Drifting rooms and the Morbo card": one step, three config keys, after the
    # Scenarios as in the rulebook's list
    assert c.extras == ["final_attack", "legend", "scenario=reboot", "scenario=save_the_child", "scenario=captive",
                        "teleport_rooms+drifting_rooms+morbo"]
    c.pre = {}
    c.record(s)
    assert len(c.extras) == 6, "nothing more on the ladder"
    inner = g.inner_game(c.difficulty, c.extras)
    assert inner.final_attack and inner.legend is not None and inner.campaign
    assert inner.teleport and inner.drifting and inner.morbo


def test_a_whole_campaign_keeps_its_spaces_when_the_special_contents_come_in():
    """The whole campaign's actions and observation are those of its largest game (every escalation element on):
    a game without the special contents uses a prefix of the ids and leaves their blocks at zero."""
    g = VirusLabGame(num_players=2, campaign_games=2)
    # two Heroes: the ladder has "Adding the Spy modality" (25 `declare clue` ids) before the special contents (8)
    steps = ("final_attack", "legend", "spy", "teleport_rooms+drifting_rooms+morbo")
    small, spy, large = g.inner_game(2), g.inner_game(2, steps[:3]), g.inner_game(2, steps)
    assert g.num_actions == large.num_actions == spy.num_actions + 8 == small.num_actions + 25 + 8
    assert large.actions.names[:small.num_actions] == small.actions.names
    assert large.actions.names[:spy.num_actions] == spy.actions.names
    s = g.new_initial_state(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        m = s.legal_action_mask()
        assert m.shape == (g.num_actions,) and s.observation(0).shape == g.observation_shape
        s.apply_action(int(rng.choice(np.flatnonzero(m))))


def test_escalation_by_scenarios():
    """ "Playing one of the three available Scenario (or a your customized Scenario!)": after the Additional Final
    Attack and Legend tiles, each won game plays the next Scenario in the rulebook's order (Reboot, Save the Child,
    The Captive; one Scenario a game, so each replaces the one before); then the special contents, and the ladder
    ends."""
    g = VirusLabGame(num_players=1, campaign_games=8, difficulty=3)
    c = Campaign(1, 8, difficulty=3, escalation="ladder")
    s = g.inner_game(3).new_initial_state(seed=0)
    s.terminal, s.won = True, True
    for _ in range(3):
        c.pre = {}
        c.record(s)
    assert c.extras[-1] == "scenario=reboot"
    inner = g.inner_game(c.difficulty, c.extras)
    assert inner.config["scenario"] == "reboot" and inner.final_attack and inner.legend is not None
    for _ in range(2):
        c.pre = {}
        c.record(s)
    assert g.inner_game(c.difficulty, c.extras).config["scenario"] == "captive"
    c.pre = {}
    c.record(s)
    # then "Adding the special Teleport-Drifting rooms and the Morbo card", with The Captive still on
    assert c.extras[-1] == "teleport_rooms+drifting_rooms+morbo"
    inner = g.inner_game(c.difficulty, c.extras)
    assert inner.config["scenario"] == "captive" and inner.teleport and inner.drifting and inner.morbo
    c.pre = {}
    c.record(s)
    assert len(c.extras) == 6, "nothing more on the ladder"


def test_campaign_to_dict_from_dict():
    c = Campaign(3, 2)
    c.choose(0, 5, np.random.default_rng(0))
    d = c.to_dict()
    assert Campaign.from_dict(d).to_dict() == d
    assert json.loads(json.dumps(d)) == d


def test_full_short_campaign_played_by_the_heuristic():
    """A whole campaign of 2 games as one episode: Pre-Play, game, XP, Pre-Play, game; the heuristic team plays every
    decision from the mask; the XP each Hero ends with is 10 - what he spent + what each game earned."""
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    g = VirusLabGame(num_players=2, campaign_games=2)
    s = g.new_initial_state(seed=11)
    team = [VirusLabHeuristic(g) for _ in range(2)]
    from virus_envs.agents.base import Decision
    spent = [0, 0]
    games = 0
    while not s.is_terminal():
        p = s.current_player()
        before = [h["xp"] for h in s.camp.heroes]
        was_pre = s.inner is None
        a = team[p].act(Decision(seat=p, phase=s.phase(), view=s.view(p), observation=None,
                                 action_mask=s.legal_action_mask(), game=g))
        s.apply_action(a)
        if was_pre and s.inner is not None:
            games += 1
            spent = [x + b - h["xp"] for x, b, h in zip(spent, before, s.camp.heroes)]
    assert games == 2 and len(s.camp.results) == 2
    earned = [sum(row[p] for row in s.camp.xp_log) for p in range(2)]
    assert [h["xp"] for h in s.camp.heroes] == [10 - spent[p] + earned[p] for p in range(2)]
    assert s.returns().tolist() == [2 * sum(s.camp.results) / 2 - 1] * 2
    d = s.to_dict()
    assert g.state_from_dict(json.loads(json.dumps(d))).to_dict() == d


# ----------------------------------------------------------------------------------- config, env, CLI
def test_bad_config_names_the_key():
    with pytest.raises(ValueError, match="skills"):
        VirusLabGame(num_players=1, campaign=True, skills="draft")
    with pytest.raises(ValueError, match="campaign_games"):
        VirusLabGame(num_players=1, campaign=True, campaign_games=2)
    with pytest.raises(ValueError, match="campaign_games"):
        VirusLabGame(num_players=1, campaign_games=99)


def test_loader_checks_the_campaign_record():
    g, s = campaign_state(2, games=2)
    d = s.to_dict()
    bad = json.loads(json.dumps(d))
    bad["campaign"]["heroes"][0]["skills"] = [3]
    bad["campaign"]["heroes"][1]["skills"] = [3]
    with pytest.raises(ValueError, match="owned twice"):
        g.state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["campaign"]["difficulty"] = 4
    with pytest.raises(ValueError, match="campaign.difficulty"):
        g.state_from_dict(bad)


def test_pettingzoo_env_episode_is_a_whole_campaign():
    import warnings

    import virus_envs
    from pettingzoo.test import api_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(virus_envs.env("virus_lab_v0", num_players=2, campaign_games=2), num_cycles=200)
    env = virus_envs.env("virus_lab_v0", num_players=1, campaign_games=2)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 2


def test_cli_plays_whole_campaigns(tmp_path):
    from virus_envs.experiments.cli import main
    out = tmp_path / "e.json"
    main(["eval", "--game", "virus_lab_v0", "--players", "1", "--game-config", "campaign_games=2", "--agent",
          "heuristic", "--games", "2", "--out", str(out)])
    assert json.loads(out.read_text())


def test_heuristic_bids_legally_in_a_skill_auction():
    from virus_envs.agents.base import Decision
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    g, s = campaign_state(2, games=1)
    for _ in range(2):
        s.apply_action(skill(3))
        s.apply_action(OPT)
    bot = VirusLabHeuristic(g)
    while s.inner is None:
        p = s.current_player()
        a = bot.act(Decision(seat=p, phase=s.phase(), view=s.view(p), observation=None,
                             action_mask=s.legal_action_mask(), game=g))
        assert s.legal_action_mask()[a]
        s.apply_action(a)
    assert sorted(len(h["skills"]) for h in s.camp.heroes) == [0, 1]
