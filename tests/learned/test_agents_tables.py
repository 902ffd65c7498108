"""experiments/agents_tables.py: the agents documentation's tables, printed from the stored results.

Issue 17: "Done when `docs/agents.md` is rewritten on the method above, with every table reproducible by one
command." Each table the command knows must stand on its page exactly as the command prints it, so that a page
edited by hand, or a stored file changed without its page, fails here. Errors are one line naming the file and the
field. No game is played.
"""
import json
import re
import shutil

import pytest

from virus_envs.experiments import agents_tables as at

PAGES = [at.ROOT / "docs" / "agents.md"] + sorted((at.ROOT / "docs" / "agents").glob("*.md"))


@pytest.mark.parametrize("name", sorted(at.TABLES))
def test_the_page_holds_the_commands_table(name):
    assert at.page_table(name) == at.render(name)


def test_every_page_line_naming_the_command_names_a_known_table():
    named = {m for p in PAGES for m in re.findall(r"agents_tables ([a-z0-9_]+)`", p.read_text())}
    assert named - set(at.TABLES) == set()
    assert set(at.TABLES) <= named


def test_check_names_a_table_edited_by_hand(tmp_path):
    t = at.TABLES["br_virus_cards_2p"]
    _copy(tmp_path, t.page, *t.files)
    assert at.check(tmp_path, ["br_virus_cards_2p"]) == []
    page = tmp_path / t.page
    page.write_text(page.read_text().replace("| seat 0 (500) | 0.436 [0.393, 0.480] | -0.064 |",
                                             "| seat 0 (500) | 0.437 [0.393, 0.480] | -0.063 |"))
    bad = at.check(tmp_path, ["br_virus_cards_2p"])
    assert len(bad) == 1 and bad[0].startswith("br_virus_cards_2p (docs/agents/exploitability.md), line 4")
    assert "0.437" in bad[0] and "0.436" in bad[0]


def test_a_stored_file_changed_without_its_page_fails(tmp_path):
    t = at.TABLES["br_virus_cards_2p"]
    _copy(tmp_path, t.page, *t.files)
    f = tmp_path / t.files[0]
    data = json.loads(f.read_text())
    data["by_seat"]["1"]["win_rate"] = 0.41
    f.write_text(json.dumps(data))
    assert at.render("br_virus_cards_2p", tmp_path) != at.page_table("br_virus_cards_2p", tmp_path)


def test_list_names_every_table_its_page_and_files(capsys):
    assert at.main(["--list"]) == 0
    out = capsys.readouterr().out
    for t in at.TABLES.values():
        assert f"{t.name}  ({t.page})" in out and ", ".join(t.files) in out
    assert "not stored: the Roll & Write rows: from docs/rules/roll_write.md" in out   # a typed row is named
    assert "baselines_summary" not in at.LOG_ROWS       # its Virus & Co row is stored since 2026-12-04


def test_the_two_tables_stored_from_a_log_equal_the_figures_first_typed():
    """Virus & Co's shipped model and VIRUS! 2p's kept model on the test deals were typed from a run's log; the same
    command, re-run with --out on 2026-12-04, gave the stored files: the figures the pages had, to the digit."""
    co = at.render("virus_co_4p_shipped_test")
    assert "| `heuristic` | 0.531 [0.500, 0.562] | 0.610 [0.548, 0.668] |" in co
    assert "| `random` | 0.901 [0.881, 0.918] |" in co
    vc = at.render("virus_cards_2p_prev_test")
    assert "| `heuristic:defensive` | 0.621 [0.591, 0.651] | 0.636 [0.593, 0.677] | 0.606 [0.563, 0.648] |" in vc


def test_an_unknown_table_is_one_line():
    with pytest.raises(SystemExit, match=r"^agents_tables: unknown table 'no_such' \(`python -m "
                                         r"virus_envs.experiments.agents_tables --list` shows the \d+ known\)$"):
        at.main(["no_such"])


def _copy(root, *rels):
    for rel in rels:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(at.ROOT / rel, root / rel)


def _edit(root, rel, fn):
    data = json.loads((root / rel).read_text())
    fn(data)
    (root / rel).write_text(json.dumps(data))


@pytest.mark.parametrize("name, rel, change, message", [
    ("br_virus_cards_2p", "docs/results/best_response_virus_cards_2p.json", None,
     "docs/results/best_response_virus_cards_2p.json: not found"),
    ("br_virus_cards_2p", "docs/results/best_response_virus_cards_2p.json", "{not json",
     r"docs/results/best_response_virus_cards_2p.json: not JSON \(.*line 1\)"),
    ("br_virus_cards_2p", "docs/results/best_response_virus_cards_2p.json", lambda d: d.pop("margin_ci95"),
     "docs/results/best_response_virus_cards_2p.json: field 'margin_ci95' missing"),
    ("virus_cards_2p_seeds_runs", "docs/results/virus_cards_seeds.json", lambda d: d["runs"][1].pop("val_games"),
     r"docs/results/virus_cards_seeds.json: field 'runs\[1\].val_games' missing"),
    ("crossplay_virus_cards_2p_tests", "docs/results/crossplay_virus_cards_2p.json",
     lambda d: d["cells"][3]["by_seat"].clear() or d["cells"][3].pop("wins"),
     r"docs/results/crossplay_virus_cards_2p.json: field 'cells\[3\].wins' missing"),
    ("league_curve", "docs/results/league_roll_write_2p.json", lambda d: d["league_run"]["validation_curve"][2].pop(
        "heuristic"), r"docs/results/league_roll_write_2p.json: field 'league_run.validation_curve\[2\].heuristic' "
                      r"missing"),
    ("br_virus_cards_2p", "docs/results/best_response_virus_cards_2p.json",
     lambda d: d.update(win_rate="high"), r"docs/results/best_response_virus_cards_2p.json: a field holds a value "
                                          r"of the wrong kind"),
    ("strength_co4_ppo", "docs/results/search_strength.json",
     lambda d: next(r for r in d if r["name"] == "ppo_co4").update(name="renamed"),
     "docs/results/search_strength.json: no row named 'ppo_co4'"),
    ("strength_rw2_expectimax", "docs/results/search_strength.json",
     lambda d: next(r for r in d if r["name"] == "s1_rw2_expectimax_d1").pop("agent_cpu_per_decision"),
     "docs/results/search_strength.json: row s1_rw2_expectimax_d1 has no 'cpu'"),
    ("virus_cards_2p_seeds_runs", "docs/results/virus_cards_seeds.json", lambda d: d.update(shipped_seed=0),
     r"docs/results/virus_cards_seeds.json: field 'shipped_seed' is 0, but the median by validation is seed 2"),
])
def test_a_missing_or_bad_stored_file_is_one_line_naming_file_and_field(tmp_path, name, rel, change, message):
    _copy(tmp_path, *at.TABLES[name].files)
    if change is None:
        (tmp_path / rel).unlink()
    elif isinstance(change, str):
        (tmp_path / rel).write_text(change)
    else:
        _edit(tmp_path, rel, change)
    with pytest.raises(SystemExit) as e:
        at.main([name, "--root", str(tmp_path)])
    text = str(e.value)
    assert "\n" not in text and re.match(f"agents_tables: {message}", text), text


def test_a_page_without_the_commands_line_is_named(tmp_path):
    t = at.TABLES["league_q1"]
    _copy(tmp_path, t.page)
    page = tmp_path / t.page
    page.write_text(page.read_text().replace(f"`{at.COMMAND} league_q1`", "`something else`"))
    with pytest.raises(at.TableError, match=r"docs/agents/exploitability.md: 0 lines name `python -m "
                                            r"virus_envs.experiments.agents_tables league_q1`"):
        at.page_table("league_q1", tmp_path)
