"""PLAY AS BOSS: UP TO 5-6 PLAYERS (config `boss_players`, `infected_boss`; boss_players.py, boss_actions.py).

Each test quotes the rulebook passage it shows; positions are built by hand (vl_helpers) and the expectations are
counted by hand from the passage.
"""
from __future__ import annotations

import numpy as np
import pytest

import virus_envs
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.boss_actions import NAMES
from virus_envs.virus_lab.flow import PH_BOSS, PH_NONE, PH_SLOW, Q_BOSS, Q_NEXT, Q_PLACE_P, Q_SLOW

from vl_helpers import (BOSS, DESU, DOG, MUTANT, VERDUKO, ZOMBIE, at, cell, check_invariants, corridor, creatures,
                        empty_state, four, play_random, put)


def game(n, **cfg):
    return virus_envs.game("virus_lab_v0", n, **cfg)


def menu(s, name):
    return s.g.boss_base + NAMES.index(name)


def legal(s):
    s._mask = None
    return s.legal_action_mask()


def window(s):
    """Start the Boss players' window of the Slow phase (queue step Q_BOSS), the movement after it."""
    s.ph, s.queue, s._mask = PH_NONE, [[Q_BOSS], [Q_SLOW]], None
    s.in_rt = False
    s._advance()


def boss_state(n=2, boss_players=1, **cfg):
    """No Creature on the map, the Heroes in the Starting Room, a row of red 4-doorway rooms in row 2."""
    s = empty_state(n, boss_players=boss_players, **cfg)
    return s, corridor(s, 2, range(1, 10))


def activate(s, q, room, kind=DESU, card_index=0):
    """Boss player q (to act in the window) activates the Leader of `room` with his card_index-th card."""
    assert s.ph == PH_BOSS and s.cur == q
    s.apply_action(menu(s, "boss: activate a Boss"))
    s.apply_action(A.OPTION + s.bp_opts.index([room, kind]))
    if s.bp_opts:       # the card, when he holds more than one
        s.apply_action(A.OPTION + card_index)


# -- the player count and setup -------------------------------------------------------------------------------------
def test_config_up_to_six_players_only_with_boss_players():
    """ "1 or 2 players can play as a Boss ... This allows competitive play and increases the player limit to 6." """
    with pytest.raises(ValueError, match="boss_players"):
        game(5)
    with pytest.raises(ValueError, match="num_players"):
        game(7, boss_players=2)
    with pytest.raises(ValueError, match="boss_players"):
        game(4, boss_players=3)
    with pytest.raises(ValueError, match="boss_players"):
        game(2, boss_players=2)           # no Hero left
    with pytest.raises(ValueError, match="boss_players"):
        game(6, boss_players=1)           # 5 Heroes
    for other in (dict(campaign=True), dict(spy=True), dict(scenario="reboot")):   # combined (issue 16, part 2)
        assert game(3, boss_players=1, **other).boss_on
    assert game(6, boss_players=2).num_players == 6 and game(5, boss_players=1).num_heroes == 4
    # the class keeps the base game's 1-4 (tools iterate over it with the default config); an instance with Boss
    # players takes 6 (the env's agents, OpenSpiel's players)
    assert type(game(2)).max_players == 4 and game(6, boss_players=2).max_players == 6
    assert game(2).cooperative and not game(3, boss_players=1).cooperative


@pytest.mark.parametrize("heroes,bosses,leaders", [(1, 1, 4), (1, 2, 6), (2, 1, 6), (2, 2, 8), (3, 1, 8), (4, 2, 8)])
def test_setup_leaders_by_heroes_and_boss_players(heroes, bosses, leaders):
    """ "1 Hero: Use 4 Leaders (1 per type) with 1 Boss player, or 6 Leaders (1 per type+2 randomly chosen) with 2
    Boss players. 2 Heroes: use 6 Leaders with 1 Boss player, or 8 Leaders with 2 Boss players. 3-4 Heroes: no
    variations." (The box holds 2 Leaders of each of the 4 types.)"""
    for seed in range(3):
        s = game(heroes + bosses, boss_players=bosses).new_initial_state(seed=seed)
        on_map = [sum(s.cre[c * 9 + k] for c in range(s.g.geo.ncells)) for k in range(4, 8)]
        in_game = [s.pool[k] + on_map[k - 4] for k in range(4, 8)]
        assert sum(in_game) == leaders
        assert min(in_game) >= 1          # "1 per type"
        check_invariants(s)


@pytest.mark.parametrize("level,cards", [(1, 4), (2, 5), (3, 6)])
def test_each_boss_player_draws_4_5_6_secret_cards(level, cards):
    """ "In difficulty 1-2-3 games, each Boss player draws 4-5-6 Boss cards, keeping them secret from the other
    players." """
    g = game(5, boss_players=2, difficulty=level)
    s = g.new_initial_state(seed=1)
    assert [len(h) for h in s.bp_hand] == [0, 0, 0, cards, cards]
    assert s.bp_seat == [0, 0, 0, 1, 1] and s.pos[3] == s.pos[4] == -1 and not s.disp[3]
    assert s.view(3)["boss_players"]["hand"] and not s.view(0)["boss_players"]["hand"]
    assert s.view(4)["boss_players"]["hand_sizes"] == [0, 0, 0, cards, cards]
    # what seat 0 sees does not depend on seat 3's cards: swap one of them with a card of the deck
    t = s.clone()
    t.bp_hand[3][0][0], t.boss_deck[0] = t.boss_deck[0], t.bp_hand[3][0][0]
    assert np.array_equal(s.observation(0), t.observation(0)) and s.view(0) == t.view(0)
    assert not np.array_equal(s.observation(3), t.observation(3))
    assert "Boss cards" in s.hidden_facts(0)


@pytest.mark.parametrize("level", [2, 3])
def test_setup_leaders_are_not_bosses(level):
    """ "In difficulty 2 or 3 games, Boss cards are not assigned to Leaders placed during the Setup. These Leaders
    are just normal Leaders and are not treated as bosses." (Difficulty 2-3 places 1-2 Bosses otherwise.)"""
    s = game(3, boss_players=1, difficulty=level).new_initial_state(seed=0)
    N = s.g.geo.ncells
    assert s.bosses == [] and sum(s.cre[c * 9 + BOSS] for c in range(N)) == 0
    assert sum(s.cre[c * 9 + k] for c in range(N) for k in range(4, 8)) == level - 1


def two_bosses(a, b):
    """1 Hero (seat 0), 2 Boss players: seat 1's Boss (Desu) in rooms[a], seat 2's (Mutant) in rooms[b]."""
    s, rooms = boss_state(3, 2)
    creatures(s, rooms[a], desu=1)
    creatures(s, rooms[b], mutant=1)
    window(s)
    activate(s, 1, rooms[a])
    s.apply_action(menu(s, "boss: done"))
    activate(s, 2, rooms[b], MUTANT)
    return s, rooms


# -- the Boss actions -------------------------------------------------------------------------------------------------
def test_activate_a_boss_face_up_one_at_a_time_not_in_combat():
    """ "Activate a Boss: A Boss player may transform a Leader in the game who is not involved in combat into a Boss.
    The player must take one of his Boss cards and place it face-up on the table ... Each Boss player may only have 1
    Boss in the game at a time." """
    s, rooms = boss_state()
    creatures(s, rooms[2], desu=1)
    creatures(s, rooms[4], mutant=1)
    at(s, 0, rooms[4])                    # the Mutant is in combat
    window(s)
    assert s.ph == PH_BOSS and s.cur == 1
    m = legal(s)
    assert m[menu(s, "boss: activate a Boss")] and not m[menu(s, "boss: deactivate the Boss")]
    s.apply_action(menu(s, "boss: activate a Boss"))
    assert s.bp_opts == [[rooms[2], DESU]]            # not the Mutant beside the Hero
    s.apply_action(A.OPTION)
    assert s.bp_opts == [0, 1, 2, 3, 4]               # his 5 cards, by their place in his hand
    card = s.bp_hand[1][1][0]
    s.apply_action(A.OPTION + 1)
    assert s.bosses == [[rooms[2], DESU, card]] and s.cre[rooms[2] * 9 + BOSS] == 1 and s.cre[rooms[2] * 9 + DESU] == 0
    assert len(s.bp_hand[1]) == 4 and s.bp_boss[1] == card
    assert s.view(0)["bosses"][0]["hp"] == s.g.comp.boss_hp[card]      # face up: everybody sees its stats
    assert not legal(s)[menu(s, "boss: activate a Boss")]              # 1 Boss at a time
    check_invariants(s)


def test_deactivate_only_an_unwounded_boss():
    """ "Deactivate a Boss: A Boss player may deactivate his Boss, but only if his Boss is not wounded. The player
    takes the corresponding Boss card back into his hand. The deactivated Boss returns to its original Leader
    status." """
    s, rooms = boss_state()
    creatures(s, rooms[2], verduko=1)
    window(s)
    activate(s, 1, rooms[2], VERDUKO)
    card = s.bp_boss[1]
    s.bp_dmg[1] = 1
    assert not legal(s)[menu(s, "boss: deactivate the Boss")]
    s.bp_dmg[1] = 0
    s._mask = None
    s.apply_action(menu(s, "boss: deactivate the Boss"))
    assert s.bosses == [] and s.cre[rooms[2] * 9 + VERDUKO] == 1 and s.bp_boss[1] == -1
    assert [card, 1] in s.bp_hand[1]       # back in his hand, known to all (it was face up)
    check_invariants(s)


def test_additional_movement_costs_the_boss_one_damage():
    """ "Additional movement: Any player owning an active Boss in the game may give 1 additional movement to the Boss
    or any Creature group within the Boss's Alerted Area by taking 1 Damage with the Boss. Place a Bullet cube on the
    Boss card to mark the damage." """
    s, rooms = boss_state()
    creatures(s, rooms[2], desu=1)
    creatures(s, rooms[4], zombie=2)
    window(s)
    activate(s, 1, rooms[2])
    s.apply_action(menu(s, "boss: additional movement"))
    s.apply_action(A.OPTION + s.bp_opts.index(rooms[4]))
    s.apply_action(A.OPTION + s.bp_opts.index(1))          # east
    assert s.cre[rooms[5] * 9 + ZOMBIE] == 2 and s.cre[rooms[4] * 9 + ZOMBIE] == 0
    assert s.bp_dmg[1] == 1


def test_a_wounded_boss_is_killed_by_its_hit_points_left():
    """ "Wounded Boss: Bosses must take wounds into account, registering them with Bullet cubes on the Boss card."
    Dealing Damage costs 3 Successes per point ("Deal damage (3 Successes)")."""
    s, rooms = boss_state()
    creatures(s, rooms[2], desu=1)
    window(s)
    activate(s, 1, rooms[2])
    hp = s.g.comp.boss_hp[s.bp_boss[1]]
    s.bp_dmg[1] = 1
    at(s, 0, rooms[2])
    assert s._targets(0)[BOSS][2] == 3 * (hp - 1)


def test_healing_skips_the_turn_and_the_boss_stays():
    """ "Healing: A Boss can recover 1 Damage point if skips 1 entire turn (without doing any actions, movements, or
    combats)." "Boss miniature are never laid down during Slow phase." """
    s, rooms = boss_state()
    creatures(s, rooms[2], desu=1)
    at(s, 0, rooms[5])                       # in sight: a normal Leader would move towards him
    window(s)
    activate(s, 1, rooms[2])
    assert not legal(s)[menu(s, "boss: heal")]     # nothing to heal
    s.bp_dmg[1] = 1
    s._mask = None
    s.apply_action(menu(s, "boss: heal"))
    assert s.bp_dmg[1] == 0 and s.bp_heal[1] == 1
    assert s.ph != PH_BOSS                   # his window is over; the movement ran
    assert s.cre[rooms[2] * 9 + BOSS] == 1 and not s.flat[rooms[2]]


def test_minion_transformation_discards_a_card_not_the_last():
    """ "Minion transformation: A Boss player may discard one of his Boss cards to transform a Creature not involved in
    combat into an available Leader of his choice. The player's last Boss card cannot be discarded in this way." """
    s, rooms = boss_state()
    creatures(s, rooms[3], dog=1)
    window(s)
    s.apply_action(menu(s, "boss: minion transformation"))
    s.apply_action(A.OPTION + s.bp_opts.index([rooms[3], DOG]))
    s.apply_action(A.OPTION + s.bp_opts.index(MUTANT))       # the Leader of his choice
    gone = s.bp_hand[1][0][0]
    s.apply_action(A.OPTION)                                 # the card discarded: the first of his hand
    assert s.cre[rooms[3] * 9 + DOG] == 0 and s.cre[rooms[3] * 9 + MUTANT] == 1
    assert len(s.bp_hand[1]) == 4 and s.boss_gone[-1][0] == gone
    s.bp_hand[1] = s.bp_hand[1][:1]
    creatures(s, rooms[6], zombie=1)
    assert not legal(s)[menu(s, "boss: minion transformation")]      # his last card
    check_invariants(s)


def test_adding_minions_two_creatures_in_the_alerted_area_one_damage():
    """ "Adding minions: A Boss player with an active Boss may add 2 Creatures of his choice within his Boss's Alerted
    Area by taking 1 Damage with the Boss." ("Alerted Area of X. The area of 4 rooms from X.")"""
    s, rooms = boss_state()
    creatures(s, rooms[2], desu=1)
    window(s)
    activate(s, 1, rooms[2])
    s.apply_action(menu(s, "boss: add minions"))
    assert s.bp_dmg[1] == 1
    assert {o[0] for o in s.bp_opts} == set(rooms[0:7])      # 4 rooms either way along the row (2 and 6 to the end)
    s.apply_action(A.OPTION + s.bp_opts.index([rooms[6], DOG]))
    s.apply_action(A.OPTION + s.bp_opts.index([rooms[5], ZOMBIE]))
    assert s.cre[rooms[6] * 9 + DOG] == 1 and s.cre[rooms[5] * 9 + ZOMBIE] == 1
    assert s.ph == PH_BOSS and s.bp_mode == 1                # back to his actions
    check_invariants(s)


# -- CREATURE MOVEMENT and PLACE NEW CREATURES ------------------------------------------------------------------------
def test_the_boss_player_moves_the_creatures_of_his_alerted_area():
    """ "CREATURE MOVEMENT. If there is at least 1 Boss in the game, the Boss player owning it moves all Creatures in
    the Boss's Alerted Area (along with his Boss) in the direction of his choice." Difficulty 2: 2 rooms."""
    s, rooms = boss_state()
    creatures(s, rooms[4], desu=1)
    creatures(s, rooms[5], zombie=1)
    creatures(s, rooms[8], dog=1)            # 4 rooms from the Boss: his too
    at(s, 0, rooms[7])
    window(s)
    activate(s, 1, rooms[4])
    s.apply_action(menu(s, "boss: done"))
    asked = []
    while s.ph == PH_SLOW:
        assert s.cur == 1                     # the Boss player, not the Lead player
        asked.append(s.sl_pick)
        s.apply_action(A.OPTION + s.opts.index(3))      # west, away from the Hero
        s.queue = [q for q in s.queue if q[0] != Q_PLACE_P]
    assert s.cre[rooms[2] * 9 + BOSS] == 1             # the Boss went 2 rooms west
    assert sum(s.cre[c * 9 + ZOMBIE] for c in rooms[:5]) == 1
    assert rooms[4] in asked and rooms[5] in asked


def test_contention_nearest_boss_then_turn_order_from_the_lead():
    """ "If there are two Boss players contending for the same Creature group's movement, the player owning the Boss
    nearest to this Creature group moves them. In case of a tie, Creature groups are moved by the Boss player nearest
    in turn order to the Lead player." """
    from virus_envs.virus_lab.boss_players import controller
    s, rooms = two_bosses(1, 7)
    assert controller(s, rooms[3]) == 1 and controller(s, rooms[5]) == 2
    s.lead = 0
    assert controller(s, rooms[4]) == 1      # 3 rooms from each: seat 1 comes first from the Lead (seat 0)
    s.lead = 2
    assert controller(s, rooms[4]) == 2
    assert controller(s, rooms[0]) == 1


def test_boss_moved_creatures_explore():
    """ "Important! Creatures moved by Boss players may explore, moving into unexplored areas. Draw the first card in
    the Room deck and place it on the chosen unexplored space. If the card is not compatible, draw another card until
    you find one that fits. Incompatible cards must be reshuffled with the Room deck." """
    from virus_envs.virus_lab.boss_players import explore
    s, rooms = boss_state()
    below = cell(s, 3, 4)
    assert s.card[below] < 0
    # on top of the deck a card with one doorway (north after no turn? it must open towards the room above)
    size = len(s.room_deck)
    assert explore(s, rooms[3], 2)           # south of row 2, column 4
    c = s.card[below]
    assert c >= 0 and (s.doors[below] >> 0) & 1          # its doorway faces the room it was entered from
    assert len(s.room_deck) == size - 1                    # the misfits went back
    creatures(s, rooms[3], desu=1)
    window(s)
    activate(s, 1, rooms[3])
    assert legal(s)[menu(s, "boss: additional movement")]


def test_a_boss_in_a_room_with_cubes_places_the_creatures_instead():
    """ "PLACE NEW CREATURES. For each active Boss in a room containing any Action cubes, the Boss player owning this
    Boss places Creatures instead of the player(s) owning these Action cubes." """
    s, rooms = boss_state()
    creatures(s, rooms[2], desu=1)
    window(s)
    activate(s, 1, rooms[2])
    s.cubes[rooms[2] * s.n + 0] = 1
    s.cubes[rooms[6] * s.n + 0] = 1
    s.stock[0] -= 2
    assert s._placer(0) == 1
    s.ph, s.queue = PH_NONE, [[Q_PLACE_P, 0], [Q_NEXT]]
    s._advance()
    assert s.ph == PH_SLOW and s.cur == 1 and s.pl_player == 1      # his choice


# -- Bosses killed, the deck, the infected Hero ----------------------------------------------------------------------
def test_killed_boss_card_discarded_and_a_new_card_at_turn_end():
    """ "When a Boss is killed, the corresponding Boss card is discarded. When a Boss player loses his last Boss card,
    he draws 1 Boss card at turn end ... If the Boss deck runs out, shuffle all discarded Boss cards and make a new
    deck." """
    s, rooms = boss_state()
    creatures(s, rooms[2], desu=1)
    window(s)
    s.boss_deck.extend(c for c, _ in s.bp_hand[1][1:])
    s.bp_hand[1] = s.bp_hand[1][:1]
    activate(s, 1, rooms[2])
    card = s.bp_boss[1]
    s._remove_boss(0)                          # killed
    assert s.boss_gone == [[card, 1]] and s.bp_boss[1] == -1 and s.bp_hand[1] == []
    s.boss_gone.extend([c, 0] for c in s.boss_deck)
    s.boss_deck = []
    s._bp_turn_end()
    # the 15 cards: 1 in his hand, the rest the new deck (the Irreducible Boss is discarded when drawn without the
    # Additional Final Attack, final_attack.draw_boss)
    assert len(s.bp_hand[1]) == 1 and len(s.boss_deck) + len(s.boss_gone) == 14 and len(s.boss_deck) >= 13


def test_an_infected_dead_hero_becomes_a_boss_player():
    """ "If there are still other surviving players in the game, during the following Slow phase control the dead
    Hero's face-down Wound cards: If he was infected ..., the Hero becomes a Boss." "Setup, if infected Hero dies.
    Player draws 2 Boss cards and immediately places one of them on his character." """
    s, rooms = boss_state(2, 0, infected_boss=True)
    at(s, 0, rooms[3])
    at(s, 1, rooms[6])
    comp = s.g.comp
    infected = next(c for c in s.wound_deck if comp.wound_infection[c])
    s.wound_deck.remove(infected)
    s.wounds[0] = [[infected, True, False]]
    s._die(0)
    assert not s.may_respawn(0)
    window(s)
    assert s.ph == PH_BOSS and s.cur == 0 and len(s.bp_opts) == 2      # which of his 2 cards goes on his character
    s.apply_action(A.OPTION + 1)
    assert s.bp_seat[0] == 1 and len(s.bp_hand[0]) == 1
    assert s.cre[rooms[3] * 9 + BOSS] == 1 and s.bosses[0][0] == rooms[3]
    assert s.sides() == ["boss", "heroes"]
    check_invariants(s)


# -- the aim ---------------------------------------------------------------------------------------------------------
def test_the_boss_player_who_kills_the_last_hero_wins():
    """ "Aim of the game for a Boss player. The Boss player who kills the last Hero in the game wins." """
    s, rooms = two_bosses(1, 8)
    at(s, 0, rooms[7])                       # nearer seat 2's Boss
    s._die(0)
    s._finish()
    assert s.sides() == ["heroes", "boss 1", "boss 2"]
    assert list(s.returns()) == [-1, -1, 1]


def test_returns_when_the_heroes_win_and_when_nobody_kills_the_last_hero():
    s, rooms = boss_state(2, 1)
    s.antidote_out = 0
    s._finish()
    assert list(s.returns()) == [1, -1]      # "At least 1 Hero must exit the map with the Antidote"
    s, rooms = boss_state(2, 1)
    s._finish()
    assert list(s.returns()) == [-1, -1]     # nobody reached his aim



def test_the_last_hero_killed_after_the_antidote_left_is_still_the_heroes_win():
    """ "At least 1 Hero must exit the map with the Antidote before the last turn expires. This gives all players the
    win" (the Heroes' side), and "The Boss player who kills the last Hero in the game wins" only when the Heroes did not
    (assumption B3: "also when the last Hero on the map was killed after the Antidote left"). Hero 0 has exited with
    the Antidote; Hero 1, the last on the map, dies in the Alerted Area of Boss player 2's Boss: +1, +1, -1."""
    s, rooms = boss_state(3, 1)
    creatures(s, rooms[1], desu=1)
    window(s)
    activate(s, 2, rooms[1])
    cell0 = s.pos[0]
    s.pos[0], s.exited[0], s.exit_order, s.antidote_out = -1, True, [0], 0
    s._leave(0, cell0)
    at(s, 1, rooms[2])
    s._die(1)
    assert s.bp_win == 2, "the Boss player's Boss killed the last Hero on the map"
    s._finish()
    assert s.won and s.sides() == ["heroes", "heroes", "boss"]
    assert list(s.returns()) == [1, 1, -1]

def test_all_bosses_reading_shares_the_win():
    s, rooms = boss_state(3, 2, boss_win="all_bosses")
    creatures(s, rooms[1], desu=1)
    window(s)
    activate(s, 1, rooms[1])
    at(s, 0, rooms[2])
    s._die(0)
    s._finish()
    assert s.sides() == ["heroes", "boss", "boss"] and list(s.returns()) == [-1, 1, 1]


def test_boss_players_are_never_lead():
    s = game(4, boss_players=2).new_initial_state(seed=0)
    for _ in range(6):
        s.lead = (s.lead - 1) % s.n
        s._bp_turn_end()
        assert s.lead in (0, 1)


@pytest.mark.parametrize("n,b,cfg", [(5, 1, {}), (6, 2, dict(difficulty=3)), (3, 0, dict(infected_boss=True)),
                                      (2, 1, dict(real_time=True))])
def test_random_games_keep_the_invariants(n, b, cfg):
    g = game(n, boss_players=b, **cfg)
    s, _ = play_random(g, 3, check=True)
    assert s.is_terminal() and len(s.sides()) == n


@pytest.mark.parametrize("n,b,cfg", [(5, 1, {}), (6, 2, dict(auto_slow_phase=False)), (3, 0, dict(infected_boss=True)),
                                      (2, 1, dict(real_time=True))])
def test_the_heuristic_plays_both_sides_legally(n, b, cfg):
    """The team heuristic with Boss seats: its Heroes keep playing, its Boss side (agents/virus_lab_boss.py) acts."""
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    from virus_envs.experiments.arena import play_game
    g = game(n, boss_players=b, **cfg)
    acted = 0
    for seed in range(2):
        st, _ = play_game(g, [VirusLabHeuristic(g) for _ in range(n)], seed=seed)
        assert st.is_terminal() and not st.is_truncated() and len(st.returns()) == n
        acted += len(st.boss_gone) + len(st.bosses) + sum(st.bp_boss[q] >= 0 for q in range(n))
    if b:
        assert acted > 0                  # it activated Bosses


def test_the_boss_heuristic_moves_creatures_towards_the_heroes():
    """Its documented policy: every group it moves goes towards the nearest Hero."""
    from virus_envs.agents.base import decision_for
    from virus_envs.agents.virus_lab_heuristic import VirusLabHeuristic
    s, rooms = boss_state()
    creatures(s, rooms[4], desu=1)
    at(s, 0, rooms[8])
    window(s)
    bot = VirusLabHeuristic(s.g)
    s.apply_action(bot.act(decision_for(s)))          # activate
    while s.ph == PH_BOSS:
        s.apply_action(bot.act(decision_for(s)))
    assert s.ph == PH_SLOW and s.opt_kind == 9 and s.cur == 1
    s.apply_action(bot.act(decision_for(s)))
    assert s.opts or s.ph != PH_SLOW
    assert s.cre[rooms[5] * 9 + BOSS] + s.cre[rooms[6] * 9 + BOSS] == 1


def test_heroes_wound_a_boss_players_boss_point_by_point():
    """ "Wounded Boss: Bosses must take wounds into account, registering them with Bullet cubes on the Boss card";
    "Deal damage (3 Successes). For each 3 Successes spent, the Hero deals 1 Damage point" (assumption: a Boss
    player's Boss keeps the Heroes' Damage points too, unlike the Creatures)."""
    from virus_envs.virus_lab.flow import PH_SPEND
    s, rooms = boss_state()
    creatures(s, rooms[2], desu=1)
    window(s)
    activate(s, 1, rooms[2])
    hp = s.g.comp.boss_hp[s.bp_boss[1]]
    at(s, 0, rooms[2])
    s.ph, s.cur, s.succ, s.queue = PH_SPEND, 0, 3, [[Q_NEXT]]
    s.in_rt, s.ret = True, 1
    wound = menu(s, "wound boss (1 Damage point)")
    assert legal(s)[wound] and (hp > 1)
    assert not legal(s)[A.KILL + BOSS] or hp == 1
    s.apply_action(wound)
    assert s.bp_dmg[1] == 1 and s.succ == 0
    assert s._targets(0)[BOSS][2] == 3 * (hp - 1)      # its kill now costs the Hit points left


def test_real_time_boss_players_act_in_the_slow_phase_only():
    """ "During the game, the boss player acts during the Slow phase." With the countdown (real_time=True) a Boss
    seat has no clock, declares no late start and never acts in the Real Time phase."""
    from virus_envs.virus_lab.flow import PH_ACT, PH_LATE
    g = game(3, boss_players=1, real_time=True)
    rng = np.random.default_rng(5)
    for seed in range(3):
        s = g.new_initial_state(seed=seed)
        phases = set()
        while not s.is_terminal():
            if s.current_player() == 2:
                phases.add(s.ph)
                assert s.ph not in (PH_ACT, PH_LATE)
            s.apply_action(int(rng.choice(np.flatnonzero(s.legal_action_mask()))))
        assert PH_BOSS in phases
    assert s.num_heroes() == 2          # the countdown by "Hero numbers"


def test_determinize_keeps_a_pending_card_choice_playable():
    """A Boss player choosing among his secret cards: another seat's determinized copy resamples the cards, and the
    choice (places in his hand) stays legal and playable."""
    s, rooms = boss_state(3, 1)
    creatures(s, rooms[2], desu=1)
    window(s)
    s.apply_action(menu(s, "boss: activate a Boss"))
    s.apply_action(A.OPTION)
    assert s.ph == PH_BOSS and s.bp_mode == 3
    for seed in range(5):
        d = s.determinize(0, np.random.default_rng(seed))
        assert np.array_equal(d.legal_action_mask(), s.legal_action_mask())
        d.apply_action(A.OPTION + 4)
        assert d.bp_boss[2] == d.bosses[0][2]
        check_invariants(d)


@pytest.mark.parametrize("field,value,name", [("bp_seat", [0, 0], "bp_seat|bp_hand"), ("bp_boss", [3, -1], "bp_boss"),
                                             ("bp_box", [0, 0, 0, 5], "bp_box"), ("bp_win", 7, "bp_win"),
                                             ("bp_opts", [[1, 2]], "bp_opts")])
def test_the_loader_names_the_boss_field_at_fault(field, value, name):
    s = game(2, boss_players=1).new_initial_state(seed=0)
    d = s.to_dict()
    d[field] = value
    with pytest.raises(ValueError, match=name):
        s.g.state_from_dict(d)
    d = s.to_dict()
    d["bp_hand"][1].append(list(d["bp_hand"][1][0]))     # a card twice
    with pytest.raises(ValueError, match="Boss card"):
        s.g.state_from_dict(d)


@pytest.mark.parametrize("method", ["draft", "auction"])
def test_skills_go_to_the_heroes_only(method):
    """Skills expansion: "Place 2X+1 skill cards on the table, where X is the number of players": the Skill cards
    are Hero powers, so X counts the Heroes and the Boss players take none (assumption B4)."""
    g = game(5, boss_players=2, skills=method)
    s, _ = play_random(g, 7, check=True)
    assert len(s.sk_table) == 2 * 3 + 1
    assert s.skills[3] == s.skills[4] == []


def test_the_env_plays_six_agents_and_pays_each_side():
    """The PettingZoo env with 6 agents (4 Heroes, 2 Boss players): the final rewards are the returns per side."""
    env = virus_envs.env("virus_lab_v0", num_players=6, boss_players=2)
    env.reset(seed=2)
    assert len(env.possible_agents) == 6 and not env.unwrapped.game.cooperative
    rng = np.random.default_rng(2)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        total[agent] += rew
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    st = env.unwrapped.state
    assert [total[a] for a in env.possible_agents] == list(st.returns())
    assert len(st.sides()) == 6 and st.sides()[:4] == ["heroes"] * 4


def test_a_boss_player_with_nothing_to_do_is_not_asked():
    """No Leader to activate, no Creature to transform, no Boss: the only action would be `boss: done`."""
    s, rooms = boss_state()
    window(s)
    assert s.ph != PH_BOSS and s.bp_todo == []
    s, rooms = boss_state()
    creatures(s, rooms[3], zombie=1)          # a minion to transform: he is asked
    window(s)
    assert s.ph == PH_BOSS and s.cur == 1


def test_two_boss_players_eligible_to_place_the_nearest_in_turn_order_places():
    """ "If two Boss players are eligible to place Creatures for the same Hero player, the Boss player nearest in turn
    order to the Lead player will place them." """
    s, rooms = two_bosses(1, 7)
    s.cubes[rooms[1] * s.n + 0] = s.cubes[rooms[7] * s.n + 0] = 1
    s.stock[0] -= 2
    s.lead = 0
    assert s._placer(0) == 1
    s.lead = 2
    assert s._placer(0) == 2
