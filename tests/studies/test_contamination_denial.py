"""The denial study (issue 18): eligibility along real games, the arms, common random numbers, the config."""
from __future__ import annotations

import json

import numpy as np
import pytest

import virus_envs
from virus_envs import agents
from virus_envs.experiments.arena import play_from
from virus_envs.experiments.cli import main
from virus_envs.experiments.studies import contamination_denial as cd
from virus_envs.roll_write.game import RollWriteState

HYP = "hypotheses:\n  - {id: D1, statement: s}\n"


def _oracle(state):
    """The definition, written from the rules: a 'place a die' decision; a laboratory card with one die, a rival's;
    the legal placements of a die (as it is) in its free slot; and some other legal action."""
    if state.is_terminal() or state.phase() != "place a die":
        return set()
    g, p = state.game, state.current_player()
    legal = set(np.flatnonzero(state.legal_action_mask()).tolist())
    out = set()
    for k, card in enumerate(g.lab_names):
        for held, free, side in ((0, 1, "right"), (1, 0, "left")):
            j_held, j_free = 2 * k + held, 2 * k + free
            if state.lab[j_held] and not state.lab[j_free] and state.lab_own[j_held] != p:
                done = {g.actions.parse(f"place {v} on {card} {side}") for v in range(1, 7)} & legal
                if done and legal - done:
                    out.add((j_free, int(state.lab_own[j_held]), frozenset(done)))
    return out


def _eligible_states(n, seed, games=2):
    game = virus_envs.game("roll_write_v0", n)
    seen, states = 0, []
    for gi in range(games):
        s = game.new_initial_state(seed=seed + gi)
        line = [agents.make("heuristic", game) for _ in range(n)]
        for i, ag in enumerate(line):
            ag.reset(seed=seed + 10 * gi + i)

        def probe(st):
            nonlocal seen
            seen += 1
            got = {(j, q, frozenset(d)) for j, q, d in cd.deny_targets(st)}
            assert got == _oracle(st)
            if got:
                states.append(st.clone())

        play_from(s, line, before_each=probe)
    return seen, states


@pytest.mark.parametrize("n", [2, 4])
def test_eligibility_is_the_definition_and_each_arm_does_what_it_says(n):
    seen, states = _eligible_states(n, seed=40 + n)
    assert seen > 50 and states                              # decisions were probed and some were eligible
    chooser = agents.make("heuristic", states[0].game)
    for at in states:
        p = at.current_player()
        for free, q, done in cd.deny_targets(at):
            held = free ^ 1
            assert q != p and at.lab_own[held] == q and at.lab[free] == 0
            c = at.clone()
            name = cd.apply_arm(c, "complete", free, chooser)
            assert name.startswith("place ") and at.game.actions.parse(name) in done
            if c.rnd == at.rnd:                              # the card is full (unless that die ended the round)
                assert c.lab[free] and c.lab[held]
            for arm in ("refuse", "deny"):
                r = at.clone()
                moves = cd.apply_arm(r, arm, free, chooser)
                assert all(at.game.actions.parse(m) not in done for m in moves.split(", then "))
                if r.rnd == at.rnd:
                    assert r.lab[free] == 0 and r.lab[held] == at.lab[held] and r.lab_own[held] == q
                else:                                       # the round ended: the rival's lone die was contaminated
                    assert r.virus[q][-1] >= at.lab[held]
    # a 3-player game has one-slot cards: never eligible
    g3 = virus_envs.game("roll_write_v0", 3)
    s = g3.new_initial_state(seed=1)
    line = [agents.make("heuristic", g3) for _ in range(3)]
    play_from(s, line, before_each=lambda st: cd.deny_targets(st) == [] or pytest.fail("3 players eligible"))


def test_a_wildcard_refusal_does_not_complete_with_the_changed_die():
    # a position where the refusal may spend a wildcard: force the chooser to pick a wildcard first
    seen, states = _eligible_states(2, seed=7)
    at = states[0]
    free = cd.deny_targets(at)[0][0]
    g = at.game

    class WildFirst:
        reads_observation = needs_handle = mask_only = False

        def act(self, d):
            ids = np.flatnonzero(d.action_mask)
            wild = [a for a in ids if g.act_kind[a] == 1]
            return int(wild[0] if wild else ids[-1])

    if at.wild[at.current_player()] == 0:
        at.wild[at.current_player()] = 1
        at._mask = None
    r = at.clone()
    moves = cd.apply_arm(r, "refuse", free, WildFirst())
    assert moves.startswith("wildcard") and ", then place" in moves
    assert not moves.split(", then ")[1].endswith(g.target_names[4 + free])


def test_the_arms_are_on_common_random_numbers_and_deny_never_completes_that_round(monkeypatch):
    seen, states = _eligible_states(2, seed=11)
    at = [st for st in states if st.rnd == st.game.rounds - 2][-1]      # one round to roll after it: a short test
    free, q, _ = cd.deny_targets(at)[0]
    p = at.current_player()
    rolls, acts = [], []
    start_round = RollWriteState._start_round
    apply = RollWriteState.apply_action

    played = []                                  # the state being played out (not the search agents' copies)

    def record_roll(self):
        start_round(self)
        if played and self is played[0]:
            rolls.append((self.rnd, [r[:] for r in self.reserve]))

    def record_act(self, a):
        if played and self is played[0]:
            acts.append((self.rnd, self.current_player(), int(a)))
        return apply(self, a)

    monkeypatch.setattr(RollWriteState, "_start_round", record_roll)
    monkeypatch.setattr(RollWriteState, "apply_action", record_act)
    chooser = agents.make("heuristic", at.game)
    seen_rolls = {}
    for arm in cd.ARMS:
        start = at.clone()
        cd.apply_arm(start, arm, free, chooser)
        for k, seed in enumerate((5, 6)):
            rolls.clear()
            acts.clear()
            fallback = agents.make("heuristic", at.game)
            played[:] = [start.clone()]
            end, completed, replaced = cd.play_out(played[0], ["expectimax?depth=1"] * 2, seed, free,
                                                   deny_seat=p if arm == "deny" else None, fallback=fallback)
            assert end.is_terminal() and acts
            seen_rolls.setdefault(k, []).append([x for x in rolls if x[0] > at.rnd])
            if arm == "deny":
                assert not [a for rnd, who, a in acts if rnd == at.rnd and who == p and cd._completes(at.game, a, free)]
    for k, per_arm in seen_rolls.items():
        assert per_arm[0] and all(x == per_arm[0] for x in per_arm)     # the same dice to come in every arm
    assert seen_rolls[0][0] != seen_rolls[1][0]                          # and other dice in another rollout


def test_one_intervention_is_reproducible_and_stores_every_outcome():
    cfg = cd.StudyConfig(study="denial", hypotheses=[cd.Hypothesis(id="D1", statement="s")], rollouts=1,
                         continuation="random")
    task = {"cfg": cfg, "players": 2, "seed": 3, "game": 0}
    a, b = cd.one_intervention(task), cd.one_intervention(dict(task))
    a.pop("cpu_s"), b.pop("cpu_s")
    assert a == b
    assert set(a["arms"]) == set(cd.ARMS) and all(set(x) == set(cd.OUTCOMES) for x in a["arms"].values())
    assert a["arms"]["complete"]["completed"] == 1.0 and a["rival"] != a["seat"]
    assert a["moves"]["refuse"] == a["moves"]["deny"]                   # deny differs only later in the round


def test_the_analysis_by_hand():
    def row(seed, n, ph, win_r, win_c, rival_r, rival_c):
        arms = {"complete": dict.fromkeys(cd.OUTCOMES, 0.0), "refuse": dict.fromkeys(cd.OUTCOMES, 0.0),
                "deny": dict.fromkeys(cd.OUTCOMES, 0.0)}
        arms["refuse"].update(win=win_r, rival=rival_r)
        arms["complete"].update(win=win_c, rival=rival_c)
        return {"seed": seed, "players": n, "phase": ph, "refuse_kind": "trial", "arms": arms}

    rows = [row(1, 2, "early", 1.0, 0.0, 10, 12), row(1, 2, "late", 0.5, 0.5, 8, 12), row(1, 4, "late", 0, 1, 5, 5)]
    h = cd.Hypothesis(id="D", statement="s", players=[2], outcome="rival")
    assert [cd.in_cell(r, h) for r in rows] == [True, True, False]
    assert list(cd.effects(rows[:2], "refuse-complete", "rival")) == [-2.0, -4.0]
    assert list(cd.effects(rows[:2], "refuse-complete", "win")) == [1.0, 0.0]
    t = cd.test_hypotheses(rows, [h], 0.05)[0]
    assert t["test"]["mean"] == -3.0 and t["test"]["n"] == 2


def _config(tmp_path, text):
    p = tmp_path / "c.yaml"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("text, key", [
    ("study: denial\nplayers: [2]\ngames: {2: 3}\n", "hypotheses"),
    ("study: denial\nplayers: [2, 3]\ngames: {2: 3, 3: 3}\n" + HYP, "players"),
    ("study: denial\nplayers: [2, 4]\ngames: {2: 3}\n" + HYP, "games"),
    ("study: denial\nplayers: [2]\ngames: {2: 3}\nrolouts: 2\n" + HYP, "rolouts"),
    ("study: denial\nplayers: [2]\ngames: {2: 3}\nhypotheses:\n  - {id: D1, statement: s, contrast: deny-x}\n",
     "contrast"),
    ("study: denial\nplayers: [2]\ngames: {2: 3}\nhypotheses:\n  - {id: D1, statement: s, players: [4]}\n", "players"),
    ("study: denial\nplayers: [2]\ngames: {2: 3}\nhypotheses:\n  - {id: D1, statement: s, outcome: lab}\n",
     "outcome"),
    ("study: denial\nplayers: [2]\ngames: {2: 0}\n" + HYP, "games"),
])
def test_config_mistakes_are_named(tmp_path, text, key):
    with pytest.raises(ValueError, match=key) as e:
        cd.load_config(_config(tmp_path, text))
    assert "\n" not in str(e.value)


def test_the_shipped_config_loads_and_is_handed_over_by_contamination_v2():
    from virus_envs import configs

    path = configs.path("studies", "contamination_denial.yaml")
    cfg = cd.load_config(path)
    assert cd.is_denial_config(path) and not cd.is_denial_config(configs.path("studies", "contamination_v3.yaml"))
    assert cfg.seeds == [101, 202, 303] and cfg.continuation == "expectimax?depth=1" and cfg.rollouts == 2
    assert [h.id for h in cfg.hypotheses] == ["D1", "D2", "D3", "D4", "D5", "D6"]


def test_a_tiny_run_through_contamination_v2_writes_the_page_json_figure_and_lines(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    start, end = cd.markers("tiny")
    (docs / "tiny.md").write_text(f"intro\n{start}\nold\n{end}\nend\n")
    cfg = _config(tmp_path, "study: denial\nname: tiny\nplayers: [2]\nseeds: [1, 2]\ngames: {2: 2}\nrollouts: 1\n"
                            f"continuation: random\nout: {tmp_path / 'o'}\ndocs: {docs}\n" + HYP)
    assert main(["study", "contamination-v2", "--config", cfg]) in (0, None)
    res = json.loads((docs / "tiny.json").read_text())
    assert set(res["by_seed"]) == {"1", "2"} and res["interventions"] >= 3
    assert (docs / "tiny.png").stat().st_size > 1000
    assert (docs / "tiny_interventions.jsonl").read_text() == (tmp_path / "o" / "interventions.jsonl").read_text()
    text = (docs / "tiny.md").read_text()
    assert "old" not in text and "| D1: s | refuse-complete (win) |" in text and text.endswith("end\n")
    # --resume plays nothing more and gives the same tests
    assert main(["study", "contamination-denial", "--config", cfg, "--resume"]) in (0, None)
    again = json.loads((docs / "tiny.json").read_text())
    assert again["by_seed"] == res["by_seed"]


def test_a_refusal_that_ends_the_round_is_a_denial_and_nothing_later_counts():
    """Found in review: when the refusing die is the round's last, the round clears the card (the rival's die
    goes to the contaminated samples card), so the card was NOT completed in the intervention's round, and the
    deny arm's rule must not reach into the next round. Along real games, at such points, `completed` is False
    and the deny arm replaces no move; a `complete` arm always reads completed."""
    import numpy as np

    import virus_envs
    from virus_envs import agents
    from virus_envs.experiments.arena import play_from
    from virus_envs.experiments.studies import contamination_denial as cd

    found = 0
    for seed in range(40):
        game = virus_envs.game(cd.GAME, 2)
        state = game.new_initial_state(seed=seed)
        line = [agents.make("heuristic", game) for _ in range(2)]
        for i, ag in enumerate(line):
            ag.reset(seed=seed * 3 + i)
        points = []
        play_from(state, line, before_each=lambda st: points.append(st.clone()) if cd.deny_targets(st) else None)
        for at in points:
            free, q, done = cd.deny_targets(at)[0]
            ch = agents.make("heuristic", game)
            ch.reset(seed=1)
            s = at.clone()
            cd.apply_arm(s, "refuse", free, ch)
            if s.is_terminal() or s.rnd == at.rnd:
                continue
            found += 1
            _, completed, replaced = cd.play_out(s.clone(), ["heuristic", "heuristic"], 7, free, deny_seat=None,
                                                 round_=int(at.rnd))
            assert completed is False
            _, completed, replaced = cd.play_out(s.clone(), ["heuristic", "heuristic"], 7, free,
                                                 deny_seat=at.current_player(), fallback=ch, round_=int(at.rnd))
            assert completed is False and replaced == 0
            c = at.clone()
            cd.apply_arm(c, "complete", free, ch)
            assert cd.play_out(c, ["heuristic", "heuristic"], 7, free, round_=int(at.rnd), completed=True)[1] is True
        if found >= 3:
            break
    assert found >= 3
