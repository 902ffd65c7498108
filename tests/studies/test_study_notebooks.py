"""The notebooks of the issue 18 studies re-draw their figures from the stored results (docs/studies/*.json)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


# figures beyond the first run's two: virus_lab re-draws the heuristic:tactician runs (1 and 2 Heroes) and the powered grid;
# a second generation re-draws how its continuation moved the first generation's estimates (study shift)
EXTRA_FIGURES = {"virus_lab": 3, "virus_cards_v2": 1, "virus_co_v2": 1}
#: stored runs a notebook reads beside its own (a confirmatory run is drawn beside the run it checks)
ALSO_READS = {"virus_cards_confirm": ["virus_cards_v2.json"], "virus_co_confirm": ["virus_co_v2.json"]}


@pytest.mark.parametrize("name", ["virus_co", "virus_cards", "virus_lab", "virus_cards_v2", "virus_co_v2",
                                  "virus_cards_confirm", "virus_co_confirm"])
def test_the_notebook_redraws_the_stored_results(tmp_path, name):
    import nbclient
    import nbformat

    stored = ROOT / "docs" / "studies" / f"{name}.json"
    assert stored.is_file()
    work = tmp_path / "notebooks"
    work.mkdir()
    (tmp_path / "docs" / "studies").mkdir(parents=True)
    for f in stored.parent.glob(f"{name}*.json"):      # the study's runs (virus_lab: the second team's too)
        shutil.copy(f, tmp_path / "docs" / "studies")
    for f in ALSO_READS.get(name, []):
        shutil.copy(stored.parent / f, tmp_path / "docs" / "studies")
    nb = nbformat.read(str(ROOT / "notebooks" / f"{name}.ipynb"), as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(work)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 2 + EXTRA_FIGURES.get(name, 0)
    assert (work / f"{name}_redrawn.png").is_file()
