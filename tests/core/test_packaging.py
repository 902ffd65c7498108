"""The built wheel: one top-level package (`virus_envs`), and every file the commands need outside the checkout.

The repository's folders agents/, experiments/, models/ and configs/ install as virus_envs.agents,
virus_envs.experiments, virus_envs.models and virus_envs.configs (setup.py); the games' data files,
the shipped models and the default configs are package data (pyproject.toml). The wheel is built
from a copy of the tracked files, so that nothing outside git (a local run, a stray file) counts.

The end-to-end check (a clean venv with only the wheel and the torch pin runs `virus-arena run`
from /tmp) is slow and is described in docs/contract.md ("Installing from a wheel").
"""
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAPPED = {"virus_envs": "virus_envs", "agents": "virus_envs/agents", "experiments": "virus_envs/experiments",
          "models": "virus_envs/models", "configs": "virus_envs/configs"}


def _tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [p for p in out.splitlines() if (ROOT / p).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    src = tmp_path_factory.mktemp("src")
    for p in _tracked():
        (src / p).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / p, src / p)
    dist = tmp_path_factory.mktemp("dist")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                        "-w", str(dist), str(src)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    [whl] = dist.glob("virus_envs-*.whl")
    with zipfile.ZipFile(whl) as z:
        return z.namelist(), {n: z.read(n) for n in z.namelist() if n.endswith("entry_points.txt")}


def test_the_wheel_installs_one_top_level_package(wheel):
    names, _ = wheel
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"virus_envs"}
    for generic in ("agents/", "experiments/", "models/", "configs/"):
        assert not any(n.startswith(generic) for n in names)


def test_the_wheel_holds_every_file_of_the_package_folders(wheel):
    """Code, the games' data, the shipped models and the default configs: what `virus-arena run` needs anywhere."""
    names, _ = set(wheel[0]), None
    missing = []
    for p in _tracked():
        top, _, rest = p.partition("/")
        if top in MAPPED and rest:
            target = f"{MAPPED[top]}/{rest}" if top != "virus_envs" else p
            if target not in names:
                missing.append(p)
    assert not missing, f"not in the wheel: {missing}"
    assert {"virus_envs/models/virus_cards_v0/ppo.zip", "virus_envs/configs/tournaments/default.yaml",
            "virus_envs/virus_cards/data/decks.yaml"} <= names


def test_the_wheel_declares_the_command(wheel):
    _, entry = wheel
    text = "".join(v.decode() for v in entry.values())
    assert "virus-arena = virus_envs.experiments.cli:main" in text


def test_the_installed_package_finds_its_data_from_any_directory(tmp_path):
    """Run from an empty folder: the shipped configs and models are found through the package, not the cwd."""
    code = ("from virus_envs import configs, models; import os; "
            "assert os.path.isfile(configs.path('tournaments', 'default.yaml')); "
            "print(sorted({m.env_id for m in models.available()}))")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "virus_cards_v0" in r.stdout
