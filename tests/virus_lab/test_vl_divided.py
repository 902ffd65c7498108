"""Advanced Combat, "Multi-player combat: divided" (config `advanced_combat="divided"`, `"full"` with the ranged
attack): scenario tests quoting the rulebook's ADVANCED COMBAT section and its Combat FAQ.

Rolls are made with `p_positive` close to 1 (every element lands positive) or with the result set by hand; the
expected Successes and Damage points are counted by hand from the rulebook's numbers (Dogs and Zombies deal 1
Damage point, a Zombie has 2 HP: 6 Successes to kill, a Dog 1 HP: 3).
"""
from __future__ import annotations

import pytest

import virus_envs
from virus_envs.virus_lab import divided
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.game import PH_ACT, PH_AGREE, PH_RESULT, PH_ROLL, PH_SPEND
from vl_helpers import (DOG, ZOMBIE, at, check_invariants, corridor, creatures, empty_state, keep_wounds,
                        random_playout_checked)

E = 1


def _room(n=2, mode="divided", **cfg):
    """A corridor of 4-doorway rooms on row 2; every Hero in (2, 3)."""
    s = empty_state(n, advanced_combat=mode, **cfg)
    rooms = corridor(s, 2, range(1, 8))
    for p in range(n):
        at(s, p, rooms[2])
    return s, rooms


def _name(s, a):
    return s.g.actions.name(a)


def _legal(s, prefix):
    return sorted(_name(s, a) for a in s.legal_actions() if _name(s, a).startswith(prefix))


def _take(s, kind):
    return s.g.actions.parse(f"take {kind} from the other heroes")


def _roll(s, cubes, bullets):
    """Add cubes and bullets to the roll (its first Action cube is in it already) and throw it."""
    for _ in range(cubes):
        s.apply_action(A.ADD_CUBE)
    for _ in range(bullets):
        s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)


def _hurt(s):
    return [len(w) for w in s.wounds]


def _plain_wound_deck(s, k=10):
    """The next k Wound cards without the heart on the back: no deep wound in the scenario."""
    plain = [w for w in s.wound_deck if not s.g.comp.wound_heart[w]][:k]
    s.wound_deck = [w for w in s.wound_deck if w not in plain] + plain


def test_each_player_takes_an_equal_number_uneven_by_at_most_one():
    """ "each player takes an equal number of Creatures ... If Creature number is not divisible, some Heroes may
    face 1 more Creature than other Heroes, but no more than 1." 3 Creatures, 2 Heroes: 2 and 1; 7 Creatures, 3
    Heroes: 3, 2, 2; a Hero alone fights the whole room (no split)."""
    s, rooms = _room(2)
    creatures(s, rooms[2], zombie=2, dog=1)
    sh = divided.shares(s, rooms[2])
    assert sorted(sum(c) for c in sh.values()) == [1, 2]
    s3, rooms3 = _room(3)
    creatures(s3, rooms3[2], zombie=4, dog=3)
    assert sorted(sum(c) for c in divided.shares(s3, rooms3[2]).values()) == [2, 2, 3]
    at(s, 1, rooms[3])
    assert divided.shares(s, rooms[2]) is None


def test_a_normal_combat_only_against_his_own_creatures():
    """ "performs a normal combat only against his own Creatures": two Dogs (1 Damage point each), two Heroes.
    Seat 0 rolls and gets nothing: only his own Dog counter-attacks him (1 wound; 2 without the divided combat);
    seat 1, who never rolled, is counter-attacked by his own Dog when the phase ends (1 wound)."""
    for mode, first in (("divided", 1), ("off", 2)):
        s, rooms = _room(2, mode)
        creatures(s, rooms[2], dog=2)
        s.apply_action(A.ATTACK)
        s.apply_action(A.ROLL)
        s.rollres = [0, 1, 0, 0] + [0] * 12          # nothing positive: 0 Successes
        s._mask = None
        s.apply_action(A.ACCEPT)
        keep_wounds(s)
        assert _hurt(s) == [first, 0], mode
    assert s.ph == PH_ACT and s.cur == 1


def test_the_other_hero_is_counter_attacked_by_his_own_creatures_at_the_end():
    s, rooms = _room(2)
    _plain_wound_deck(s)
    creatures(s, rooms[2], dog=1, zombie=2)     # seat 0 (the Lead) takes 2, seat 1 takes 1
    s.apply_action(A.PASS)
    s.apply_action(A.PASS)
    keep_wounds(s)
    assert sorted(_hurt(s)) == [1, 2] and sum(_hurt(s)) == 3
    assert _hurt(s)[0] == 2, "the Lead player's share is the larger one (assumption 47)"


def test_taking_more_needs_everybody_s_agreement_and_costs_a_positive_cube():
    """ "A player can choose to take more Creatures than normal if all players involved in the combat agree. In that
    case there is a penalty to apply; each additional Creature forces the player to discard 1 positive cube on
    combat roll. For example, if there are 3 Creatures and 2 Heroes and a player takes all 3 Creatures, he suffers
    a penalty of 1 positive cube on combat roll. The other player, with zero opponents, will be considered out of
    combat and will be able to take any action" """
    s, rooms = _room(2, p_positive=0.9999)
    creatures(s, rooms[2], zombie=3)
    assert _legal(s, "take") == ["take zombie from the other heroes"]
    s.apply_action(_take(s, "zombie"))
    assert s.ph == PH_AGREE and s.cur == 1, "the other Hero is asked"
    s.apply_action(s.g.actions.parse("agree: give the creature"))
    sh = divided.shares(s, rooms[2])
    assert sh[0][ZOMBIE] == 3 and sh[1][ZOMBIE] == 0 and divided.extra(s, 0) == 1
    assert s.ph == PH_ACT and s.cur == 1
    assert not s.in_combat(1) and s.in_combat(0)
    assert s.legal_action_mask()[A.SEARCH], "out of combat: any action (Search: 'NO' in combat)"
    assert not s.legal_action_mask()[A.ATTACK]
    s.apply_action(A.PASS)
    s.apply_action(A.ATTACK)
    _roll(s, 2, 3)
    rr = s.rollres
    assert rr[0] + rr[2] == 5 and rr[0] * rr[2] == 6, "3 x 3 positive, 1 positive cube discarded: 2 x 3"


def test_a_refusal_changes_nothing_and_ends_the_requests_of_the_turn():
    s, rooms = _room(2)
    creatures(s, rooms[2], zombie=3)
    s.apply_action(_take(s, "zombie"))
    s.apply_action(s.g.actions.parse("refuse: keep the creatures"))
    assert sorted(sum(c) for c in divided.shares(s, rooms[2]).values()) == [1, 2]
    assert s.ph == PH_ACT and s.cur == 1
    s.apply_action(A.PASS)
    assert s.cur == 0 and _legal(s, "take") == []


def test_three_heroes_all_must_agree():
    s, rooms = _room(3)
    creatures(s, rooms[2], zombie=3)
    s.apply_action(_take(s, "zombie"))
    assert s.ph == PH_AGREE and s.cur == 1
    s.apply_action(s.g.actions.parse("agree: give the creature"))
    assert s.ph == PH_AGREE and s.cur == 2, "every player involved"
    s.apply_action(s.g.actions.parse("refuse: keep the creatures"))
    assert [sum(c) for q, c in sorted(divided.shares(s, rooms[2]).items())] == [1, 1, 1]


def test_distance_zero_ranged_attack_of_a_hero_without_opponents():
    """ "The other player, with zero opponents, will be considered out of combat and will be able to take any
    action, including a ranged attack"; "if the distance is 0 (same room) the penalty is 1 cube. Note: Distance 0
    only happens when a player is not directly involved in combat because he is protected by another player";
    FAQ "What does 'Distance 0' mean? ... This occurs when the Creatures in your room have all been assigned to
    other players." 3 x 3 positive less 1 cube: 2 x 3 = 6 Successes kill a Zombie; no counter-attack."""
    s, rooms = _room(2, "full", p_positive=0.9999)
    creatures(s, rooms[2], zombie=1)
    assert _legal(s, "ranged attack here") == [], "seat 0 (the Zombie's) is in combat"
    s.apply_action(A.PASS)
    assert s.cur == 1 and not s.in_combat(1)
    assert _legal(s, "ranged attack here") == ["ranged attack here (distance 0)"]
    s.apply_action(s.g.actions.parse("ranged attack here (distance 0)"))
    assert s.ph == PH_ROLL
    _roll(s, 2, 3)
    assert s.ph == PH_RESULT
    s.apply_action(A.ACCEPT)
    assert s.succ == 6 and s.ph == PH_SPEND
    s.apply_action(A.KILL + ZOMBIE)
    assert s.cre[rooms[2] * 9 + ZOMBIE] == 0 and _hurt(s) == [0, 0] and s.ph == PH_ACT
    check_invariants(s)


def test_a_hero_without_opponents_leaves_without_fleeing():
    """Out of combat, leaving the room is no flight ("The player may flee from combat ...": he is in none)."""
    s, rooms = _room(2)
    creatures(s, rooms[2], dog=1)
    s.apply_action(A.PASS)
    s.apply_action(A.MOVE + E)
    assert _hurt(s) == [0, 0] and s.pos[1] == rooms[3]


def test_a_hero_who_comes_in_takes_his_share():
    s, rooms = _room(2)
    at(s, 1, rooms[3])
    creatures(s, rooms[2], zombie=2)
    assert divided.shares(s, rooms[2]) is None and s.in_combat(0)
    s.apply_action(A.PASS)
    s.apply_action(A.MOVE + 3)            # west, into the fight
    assert [sum(c) for q, c in sorted(divided.shares(s, rooms[2]).items())] == [1, 1]


def test_attacking_together_fights_the_union_of_their_creatures():
    """ "If they all still have to roll, players can attack the same target together": in a divided room the
    Heroes who roll together fight all their Creatures; 1 + 1 Dogs: Successes 4 + 3 - 1 = 6 kill both (3 each)."""
    s, rooms = _room(2)
    creatures(s, rooms[2], dog=2)
    s.apply_action(A.TOGETHER)
    for succ in ([2, 0, 2, 0], [3, 0, 1, 0]):
        s.apply_action(A.ROLL)
        s.rollres = succ + [0] * 12
        s._mask = None
        s.apply_action(A.ACCEPT)
    assert s.ph == PH_SPEND and s.succ == 6
    s.apply_action(A.KILL + DOG)
    s.apply_action(A.KILL + DOG)
    assert s.cre[rooms[2] * 9 + DOG] == 0


def test_faq_a_roll_needs_a_positive_action_cube_and_a_positive_bullet():
    """FAQ: "Does my roll have to result in at least 1 positive action cube and 1 positive bullet cube? Otherwise my
    Success result will be zero? YES." 1 positive Action cube, 0 of 2 bullets positive: 0 Successes."""
    s, rooms = _room(1)
    creatures(s, rooms[2], dog=1)
    s.apply_action(A.ATTACK)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    s.rollres = [1, 0, 0, 2] + [0] * 12
    s._mask = None
    s.apply_action(A.ACCEPT)
    assert s.succ == 0


def test_faq_successes_spent_in_one_room():
    """FAQ: "If I have some additional Successes to spend, may I use them against other Creatures in another room?
    NO. All Successes obtained in a single roll must be spent against targets all in the same room." A shot at the
    Dog next door with Successes to spare offers no kill of the Zombie two rooms away."""
    s, rooms = _room(1, "full", p_positive=0.9999)
    creatures(s, rooms[3], dog=1)
    creatures(s, rooms[4], zombie=1)
    s.bullets[0] += 6
    s.bullet_pool -= 6
    s.apply_action(s.g.actions.parse("ranged attack E distance 1"))
    _roll(s, 5, 8)
    s.apply_action(A.ACCEPT)
    assert s.succ >= 9
    m = s.legal_action_mask()
    assert m[A.KILL + DOG] and not m[A.KILL + ZOMBIE]


def test_sizes_and_names():
    g = virus_envs.game("virus_lab_v0", 2, advanced_combat="divided")
    base = virus_envs.game("virus_lab_v0", 2)
    assert g.num_actions == base.num_actions + 11
    assert g.observation_shape[0] == base.observation_shape[0] + 61
    full = virus_envs.game("virus_lab_v0", 2, advanced_combat="full")
    ranged = virus_envs.game("virus_lab_v0", 2, advanced_combat="ranged")
    assert full.num_actions == ranged.num_actions + 12 + 4 * 10
    assert full.actions.names[ranged.num_actions + 11] == "ranged attack here (distance 0)"
    assert full.actions.names[-1] == "ranged attack together W distance 10"
    assert full.actions.names[:ranged.num_actions] == ranged.actions.names


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_keep_the_invariants(n):
    random_playout_checked(virus_envs.game("virus_lab_v0", n, advanced_combat="full", difficulty=3), n)


def test_bad_share_is_refused():
    g = virus_envs.game("virus_lab_v0", 2, advanced_combat="divided")
    s = g.new_initial_state(seed=0)
    d = s.to_dict()
    d["share"] = [[3, 99], []]
    with pytest.raises(ValueError, match="share"):
        s.g.state_from_dict(d)
    d = s.to_dict()
    d["agree"] = [0, 0, 1]
    with pytest.raises(ValueError, match="agree"):
        s.g.state_from_dict(d)


def test_faq_players_may_attack_together_with_ranged_attacks():
    """FAQ: "May players attack "Together" using ranged attacks? YES." With the rulebook's multi-player combat
    ("Each player simultaneously rolls on his own player board, these Successes are added together, then a 1 point
    penalty is subtracted from the total"), each shooter removing his own distance penalty ("1 positive cube ...
    plus one additional positive cube for each room of distance"). Seat 0 at distance 1 and seat 1 at distance 2,
    each 3 x 3 positive: (2 x 2) + (1 x 2) - 1 = 5 Successes kill the Dog (3); no counter-attack."""
    s, rooms = _room(2, "full", p_positive=0.9999)
    at(s, 1, rooms[1])
    creatures(s, rooms[3], dog=1)
    assert _legal(s, "ranged attack together") == ["ranged attack together E distance 1"]
    s.apply_action(s.g.actions.parse("ranged attack together E distance 1"))
    assert s.team == [0, 1] and s.ranged == [rooms[3], 1]
    for p, k in ((0, 1), (1, 2)):
        assert s.ph == PH_ROLL and s.cur == p and s.ranged[1] == k
        _roll(s, 2, 3)
        s.apply_action(A.ACCEPT)
    assert s.ph == PH_SPEND and s.cur == 0 and s.succ == 4 + 2 - 1
    s.apply_action(A.KILL + DOG)
    assert _hurt(s) == [0, 0] and s.team == [] and s.ranged == [] and s.ph == PH_ACT and s.cur == 1


def test_ranged_together_needs_a_partner_with_a_sight_line():
    s, rooms = _room(2, "full")
    at(s, 1, rooms[6])
    creatures(s, rooms[3], zombie=1)
    creatures(s, rooms[6], dog=1)          # seat 1 is in combat
    assert _legal(s, "ranged attack together") == []
    assert "ranged attack E distance 1" in _legal(s, "ranged attack")
