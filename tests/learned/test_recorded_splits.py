"""Every model file says which deals chose it and which report it (issue 17: "New shipped models carry their
validation/test split in `virus_meta`").

Files trained since the split code carry the split `train` wrote (experiments/train_eval.py: split_meta). The
ones trained before carry a split recorded after training (experiments/record_split.py, `virus-arena
record-split`) from docs/results/splits_recorded_after_training.json: these tests hold each record to the stored
files it names (the choice on the validation deals, the test reports) and to the file's own meta, and check that
writing it left the weights and every other entry of the zip as they were.
"""
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from virus_envs.agents import model_file, ppo
from virus_envs.experiments.cli import main
from virus_envs.experiments.record_split import SPLIT_KEYS, entries_digest, record_split, weights_sha256

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
REGISTRY = ROOT / "docs" / "results" / "splits_recorded_after_training.json"
FILES = sorted(str(p.relative_to(ROOT)) for p in MODELS.glob("*/*.zip"))

#: the files as they were before their split was recorded (commit 290798d; the lab's: 56f2af4): sha256 of policy.pth, and
#: `entries_digest` (every entry but virus_model.json). Recording a split must change neither.
BEFORE = {
    "models/roll_write_v0/ppo.zip": ("185db84721a3ffd9c6a9dc8e70c8889f775ca5d363e671063649a43ffc77afee",
                                     "bc6b8780fffb76353b38df96b95bf59228574ed17016aeac44539cbc923103e5"),
    "models/virus_co_v0/ppo.zip": ("ba4397067e41845182f5b6d5c3660e04e98d88dded4a8f4d3fa839043b5138dd",
                                   "fff6e446dee45c5ef90d4ab6c13668ab96f80536136880f12f8eb651d87dc874"),
    "models/virus_cards_v0/ppo_prev.zip": ("3a9baf3028608c23d7e68cb8de40847e96a7b6391fb023ec1abc16a3de2001ba",
                                           "4c3361143a64464044ba1ae8bd66e19319dcbb815446ed71d2d5c6fbf096fa5a"),
    "models/virus_lab_v0/ppo.zip": ("6f4b9835c496a5b2c94bc5aa17b81c78bc85ece6a185bc48f376ebdb39ad6fb4",
                                    "2ff36fa8bc1fcbd577b5d6243c4158e8fd364e49712af0d788b120bd56de65b1"),
}


def _registry() -> dict:
    return json.loads(REGISTRY.read_text())["splits"]


def _meta(path) -> dict:
    return ppo.model_meta(str(ROOT / path))


def _text(rel) -> str:
    """A stored file's text with backticks dropped and whitespace collapsed (markdown wraps lines anywhere)."""
    return " ".join((ROOT / rel).read_text().replace("`", "").split())


RECORDED = sorted(_registry())


@pytest.mark.parametrize("path", FILES)
def test_every_model_file_carries_a_split(path):
    split = _meta(path).get("split")
    assert isinstance(split, dict), f"{path} carries no virus_meta['split']"
    assert set(SPLIT_KEYS) <= set(split)
    if "recorded" in split:        # written after training: from the registry, which a reader can diff
        assert path in RECORDED, f"{path}: a split recorded after training that {REGISTRY.name} does not hold"
    else:                          # written by train: every value is there
        assert all(split[k] is not None for k in SPLIT_KEYS)
        assert split["val_seed"] != split["test_seed"]


@pytest.mark.parametrize("path", RECORDED)
def test_a_recorded_split_is_the_registry_s_and_says_where_it_comes_from(path):
    split, rec = _meta(path).get("split"), _registry()[path]
    assert split == rec, (f"{path}: its split differs from {REGISTRY.name}; a retrained file carries its own "
                          f"split, and its entry there should go")
    assert split["recorded"].startswith("after training (2026-12-04), from docs/")
    assert split["note"].strip()
    for rel in [split["choice"], *split["test_report"], *(o["file"] for o in split["other_reports"])]:
        if rel is not None:
            assert (ROOT / rel).is_file(), f"{path}: names {rel}, which is not a stored file"
            assert rel.split("/")[0] == "docs"
    for rel in re.findall(r"docs/[\w/.]+\.(?:json|md)", split["recorded"]):
        assert (ROOT / rel).is_file(), rel
    if split["val_seed"] is None:       # no validation deals: nothing chose it there
        assert split["choice"] is None and split["val_games"] is None and split["val_opponents"] is None
    if split["test_seed"] is None:      # no test deals: nothing reports it there
        assert split["test_report"] == [] and split["test_games"] is None and split["test_opponents"] is None


@pytest.mark.parametrize("path", RECORDED)
def test_recording_the_split_left_the_weights_and_every_other_entry_as_they_were(path):
    policy, rest = BEFORE[path]
    assert weights_sha256(str(ROOT / path)) == policy == _meta(path)["split"]["weights_sha256"]
    assert entries_digest(str(ROOT / path)) == rest
    with zipfile.ZipFile(ROOT / path) as z:            # the JSON entry is the one that changed, and it is last
        assert z.namelist()[-1] == model_file.ENTRY


@pytest.mark.parametrize("path", RECORDED)
def test_a_recorded_split_agrees_with_the_model_s_own_meta(path):
    meta = _meta(path)
    split = meta["split"]
    assert split["train_seed"] == meta["seed"] == meta["config"]["seed"]
    assert f"--seed {meta['seed']} " in meta["command"] + " "
    # the first method: its own evaluations while it trained were on cfg.seed + 7_000_003 (experiments/train.py at
    # its git_commit), it shipped a final.zip or a bc.zip, and the split's val_seed (where there is one) is that seed
    assert split["training_eval_seed"] == meta["config"]["seed"] + 7_000_003
    assert split["val_seed"] in (None, split["training_eval_seed"])
    assert "val_seed" not in meta["config"] and "test_seed" not in meta["config"]     # trained before the split code


@pytest.mark.parametrize("path", [p for p in RECORDED if _registry()[p]["choice"]])
def test_a_recorded_split_agrees_with_its_choice_on_the_validation_deals(path):
    meta = _meta(path)
    split = meta["split"]
    choice = json.loads((ROOT / split["choice"]).read_text())
    assert choice["val_seed"] == split["val_seed"] and choice["test_seed_never_used"] == split["test_seed"]
    me = choice["models"][split["choice_model"]]
    assert me["git_commit"] == meta["git_commit"] and me["file_now"] == path
    assert split["chosen"] == (choice["decision"]["ships"] == split["choice_model"])
    deciding = choice["results"][f"{split['choice_model']}_2000"]
    assert deciding["games_per_opponent"] == split["val_games"] == 2000
    assert [r["opponent"] for r in deciding["rows"]] == split["val_opponents"]
    assert all(r["games"] == split["val_games"] for r in deciding["rows"])
    assert deciding["command"].endswith(f"--games {split['val_games']} --seed {split['val_seed']}")


@pytest.mark.parametrize("path", [p for p in RECORDED if _registry()[p]["test_report"]])
def test_a_recorded_split_agrees_with_its_test_reports(path):
    split = _meta(path)["split"]
    if split["test_opponents"] == ["team"]:     # a co-operative model: its whole team on the test deals, beside others
        data = json.loads((ROOT / split["test_report"][0]).read_text())
        mine = [r for r in data["rows"] if r["team"] == f"ppo:{path}" and r["seed"] == split["test_seed"]]
        assert len(mine) == 1 and mine[0]["games"] == split["test_games"] and mine[0]["split"] == "test", mine
        assert data["test_seed"] == split["test_seed"] and data["val_seed"] == split["val_seed"]
        assert [r["games"] for r in data["rows"] if r["team"] == f"ppo:{path}" and r["seed"] == split["val_seed"]] \
            == [split["val_games"]]
        return
    # the first report holds test_games against test_opponents, by the command that played them
    command = (f"--evaluate {path} " + " ".join(f"--opponent {o}" for o in split["test_opponents"])
               + f" --games {split['test_games']} --seed {split['test_seed']}")
    assert command in _text(split["test_report"][0]), f"{split['test_report'][0]} has no `{command}`"
    for rel in split["test_report"]:
        if rel.endswith(".json"):
            data = json.loads((ROOT / rel).read_text())
            assert int(data.get("test_seed", data.get("seed"))) == split["test_seed"], rel
            for cell in data.get("cells", []):
                assert cell["seed"] == split["test_seed"], rel
        else:
            assert str(split["test_seed"]) in _text(rel)


@pytest.mark.parametrize("path", RECORDED)
def test_the_other_reports_of_a_recorded_split_are_where_it_says(path):
    """The tables on other deals (the first method's seed 2026): a page's quoted heading, a JSON's named rows."""
    for other in _meta(path)["split"]["other_reports"]:
        quoted = re.findall(r"'([^']+)'", other["what"])
        assert quoted, other
        if other["file"].endswith(".md"):
            page = _text(other["file"])
            assert all(q in page for q in quoted) and any(f"seed {other['seed']}" in q for q in quoted), quoted
        else:
            rows = {r["name"]: r for r in json.loads((ROOT / other["file"]).read_text()) if "name" in r}
            for name in quoted:
                assert rows[name]["seed"] == other["seed"], name


def test_the_first_method_s_files_carry_their_history():
    """The values a reader looks for, file by file (docs/results/*_choice.json and the pages' tables)."""
    rw, co, vc = (_meta(p)["split"] for p in ("models/roll_write_v0/ppo.zip", "models/virus_co_v0/ppo.zip",
                                               "models/virus_cards_v0/ppo_prev.zip"))
    for s in (rw, co, vc):
        assert (s["train_seed"], s["val_seed"], s["test_seed"], s["chosen_at_training_on_seed"]) == (0, 7_000_003,
                                                                                                    9_000_011, 2026)
    assert (rw["chosen"], co["chosen"], vc["chosen"]) == (True, True, False)     # vc: kept, lost the choice
    assert rw["test_report"][0] == "docs/results/roll_write_shipped_test.json"
    assert "heuristic:spoiler" in rw["test_opponents"] and "heuristic:bold" in co["test_opponents"]


# -- the tool ---------------------------------------------------------------------------------------------------
@pytest.fixture
def bare(tmp_path):
    """A copy of the Virus & Co model with its split taken out again (as it was before 2026-12-04)."""
    path = tmp_path / "co.zip"
    shutil.copyfile(MODELS / "virus_co_v0" / "ppo.zip", path)
    entry = model_file.read_entry(str(path)).model_dump()
    entry["virus_meta"].pop("split")
    model_file.add_entry(path, entry)
    return path


def _splits_file(tmp_path, model, **changes):
    rec = dict(_registry()["models/virus_co_v0/ppo.zip"], **changes)
    for k in [k for k, v in changes.items() if v is ...]:
        del rec[k]
    path = tmp_path / "splits.json"
    path.write_text(json.dumps({"about": "test", "splits": {str(model): rec}}))
    return str(path)


def _fails(argv, match):
    with pytest.raises(SystemExit) as e:
        main(argv)
    msg = str(e.value)
    assert "\n" not in msg and re.search(match, msg), msg


def test_record_split_writes_the_split_and_nothing_else(bare, tmp_path, capsys):
    before = entries_digest(str(bare))
    assert main(["record-split", _splits_file(tmp_path, bare), str(bare), "--root", str(ROOT)]) == 0
    assert "split recorded after training (train_seed 0, val_seed 7000003, test_seed 9000011)" in capsys.readouterr().out
    assert entries_digest(str(bare)) == before
    assert ppo.model_meta(str(bare))["split"] == _registry()["models/virus_co_v0/ppo.zip"]
    loaded = ppo.load_model(bare)                     # still loads the safe way
    assert loaded.model is None and loaded.meta["split"]["chosen"] is True
    # a second time: refused, unless --replace
    _fails(["record-split", _splits_file(tmp_path, bare), str(bare), "--root", str(ROOT)],
           r"already has a split recorded after training .*give --replace")
    assert main(["record-split", _splits_file(tmp_path, bare, note="again"), str(bare), "--root", str(ROOT),
                 "--replace"]) == 0
    assert ppo.model_meta(str(bare))["split"]["note"] == "again" and entries_digest(str(bare)) == before


def test_record_split_never_overwrites_a_split_written_at_training_time(tmp_path):
    path = tmp_path / "vc.zip"
    shutil.copyfile(MODELS / "virus_cards_v0" / "ppo.zip", path)       # seed 2's split, written by train
    was = ppo.model_meta(str(path))["split"]
    _fails(["record-split", _splits_file(tmp_path, path), str(path), "--root", str(ROOT), "--replace"],
           r"vc.zip: refused: it carries a split written at training time")
    assert ppo.model_meta(str(path))["split"] == was


@pytest.mark.parametrize("changes, match", [
    (dict(val_sed=1), r"unknown key 'val_sed'; known: "),
    (dict(val_games=...), r"key 'val_games' is missing \(a recorded split has every key of split_meta"),
    (dict(val_seed="7000003"), r"key 'val_seed' must be an integer, got '7000003'"),
    (dict(recorded="2026-12-04"), r"key 'recorded' must begin with 'after training'"),
    (dict(train_seed=1), r"key 'train_seed' is 1, but the model's own virus_meta says seed 0"),
    (dict(choice="docs/results/nope.json"), r"key 'choice' names docs/results/nope.json, which is not a stored file"),
    (dict(test_report=["docs/results/crossplay_virus_co_4p.json", "docs/nope.md"]),
     r"key 'test_report\[1\]' names docs/nope.md, which is not a stored file"),
    (dict(choice_model="retrained"), r"key 'choice_model' is 'retrained', trained on c2b3b5e .* trained on 1820cfb"),
    (dict(chosen=False), r"key 'chosen' is false, but docs/results/virus_co_choice.json ships 'previous'"),
    (dict(val_seed=7_000_004), r"key 'val_seed' is 7000004, the choice .* was made on val_seed 7000003"),
    (dict(test_report=["docs/results/virus_lab_tactician_eval.json"]),
     r"key 'test_report\[0\]' names .*virus_lab_tactician_eval.json, played on seed 77, not test_seed 9000011"),
    (dict(weights_sha256="0" * 64), r"key 'weights_sha256' is 000000000000\.\.\., the file's policy.pth is ba43"),
    (dict(other_reports=[{"file": "docs/agents/virus_co.md", "seed": 2026}]), r"key 'other_reports\[0\].what' is missing"),
    (dict(note=""), r"key 'note' "),
])
def test_record_split_names_a_bad_key_in_one_line_and_writes_nothing(bare, tmp_path, changes, match):
    before = model_file.read_entry(str(bare)).model_dump()
    _fails(["record-split", _splits_file(tmp_path, bare, **changes), str(bare), "--root", str(ROOT)],
           rf"splits\.json: splits\[.*co\.zip'\]: {match}")
    assert model_file.read_entry(str(bare)).model_dump() == before


def test_record_split_errors_for_files(bare, tmp_path):
    splits = _splits_file(tmp_path, bare)
    _fails(["record-split", str(tmp_path / "none.json"), str(bare)], r"split file not found: .*none.json")
    (tmp_path / "bad.json").write_text("{")
    _fails(["record-split", str(tmp_path / "bad.json"), str(bare)], r"bad.json: not a JSON file")
    (tmp_path / "flat.json").write_text(json.dumps({str(bare): {}}))
    _fails(["record-split", str(tmp_path / "flat.json"), str(bare)], r"flat.json: must be a mapping .*\"splits\"")
    _fails(["record-split", splits, str(tmp_path / "other.zip")], r"splits.json has no split for .*other.zip \(it has: ")
    (tmp_path / "gone.json").write_text(json.dumps({"splits": {str(tmp_path / "gone.zip"): {}}}))
    _fails(["record-split", str(tmp_path / "gone.json")], r"ppo model file not found: .*gone.zip")
    unsafe = tmp_path / "sb3.zip"                     # a zip as SB3 saves it: no virus_model.json to rewrite
    with zipfile.ZipFile(bare) as src, zipfile.ZipFile(unsafe, "w") as dst:
        for info in src.infolist():
            if info.filename != model_file.ENTRY:
                dst.writestr(info, src.read(info.filename))
    (tmp_path / "u.json").write_text(json.dumps({"splits": {str(unsafe): _registry()["models/virus_co_v0/ppo.zip"]}}))
    _fails(["record-split", str(tmp_path / "u.json"), "--root", str(ROOT)], r"sb3.zip: refused: no 'virus_model.json'")


def test_record_split_as_a_function_returns_what_it_wrote(bare):
    rec = {k: v for k, v in _registry()["models/virus_co_v0/ppo.zip"].items() if k != "weights_sha256"}
    written = record_split(str(bare), rec, root=str(ROOT))
    assert written["weights_sha256"] == BEFORE["models/virus_co_v0/ppo.zip"][0]      # filled in from the file
    assert list(written)[:len(SPLIT_KEYS)] == list(SPLIT_KEYS)                        # split_meta's keys first
