"""notebooks/quickstart.ipynb runs from a copy in an empty folder (nothing may lead back to the repository)."""
import os
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_quickstart_notebook_runs_from_a_copy(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    copy = tmp_path / "quickstart.ipynb"
    shutil.copy(os.path.join(ROOT, "notebooks", "quickstart.ipynb"), copy)
    nb = nbformat.read(str(copy), as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "final rewards" in text and "refused: illegal action" in text
    assert "heuristic" in text and "win" in text                        # the tournament's table
    assert any("image/png" in o.get("data", {}) for o in outputs)       # its picture
    assert "ppo:builtin vs heuristic: win rate" in text or "pip install 'virus_envs[rl]'" in text
