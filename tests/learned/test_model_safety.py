"""Model files load without running code (issue 22): tensors and JSON only, never a pickle.

A zip saved by stable-baselines3 keeps pickles in its `data` entry; `MaskablePPO.load` unpickles them.
The crafted files below carry a pickle whose `__reduce__` calls `os.system("touch <marker>")`: the
control test shows SB3's load really runs it, the others that `ppo:` never does.
"""
import base64
import io
import json
import os
import pickle
import zipfile
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
import torch

import virus_envs
from virus_envs import agents, models
from virus_envs.agents import model_file, ppo
from virus_envs.agents.base import decision_for
from virus_envs.experiments.cli import main
from virus_envs.experiments.train import save_model

torch.set_num_threads(1)
MODELS = Path(__file__).resolve().parents[2] / "models"
#: every shipped file, "<env_id>/<name>.zip" (VIRUS! ships one per player count: ppo.zip, ppo_4p.zip; a retrained
#: model's predecessor is kept beside it: ppo_prev.zip, ppo_4p_prev.zip)
SHIPPED = sorted(str(p.relative_to(MODELS)) for p in MODELS.glob("*/*.zip"))


class Boom:
    """Unpickling this runs a shell command: the payload of a hostile model file."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture(autouse=True)
def _fresh_cache():
    ppo._CACHE.clear()
    yield
    ppo._CACHE.clear()


def _no_unpickling():
    """Every pickle loader of the standard library and cloudpickle raises (torch's weights-only loader is its own)."""
    import cloudpickle

    def refuse(*a, **k):
        raise AssertionError("something tried to unpickle")

    class Refuse:
        def __init__(self, *a, **k):
            refuse()

    return [mock.patch.object(pickle, "loads", refuse), mock.patch.object(pickle, "load", refuse),
            mock.patch.object(pickle, "Unpickler", Refuse), mock.patch.object(cloudpickle, "loads", refuse),
            mock.patch.object(cloudpickle, "load", refuse)]


def _sb3_model(arch=(16, 16)):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from virus_envs.agents.sb3_env import SelfPlayEnv

    return MaskablePPO("MlpPolicy", DummyVecEnv([lambda: SelfPlayEnv("virus_cards_v0")]), seed=0, device="cpu",
                       policy_kwargs={"net_arch": list(arch)})


def _replace(path, name, data: bytes):
    """Rewrite one entry of a zip (the others as they were)."""
    with zipfile.ZipFile(path) as z:
        entries = {i.filename: z.read(i.filename) for i in z.infolist()}
    entries[name] = data
    with zipfile.ZipFile(path, "w") as z:
        for k, v in entries.items():
            z.writestr(k, v)


def _poison_data(path, marker):
    """The attack of issue 22: SB3's `data` JSON whose serialized observation_space is a hostile pickle."""
    with zipfile.ZipFile(path) as z:
        data = json.loads(z.read("data"))
    data["observation_space"][":serialized:"] = base64.b64encode(pickle.dumps(Boom(marker))).decode()
    _replace(path, "data", json.dumps(data).encode())


@pytest.fixture(scope="module")
def sb3_zip(tmp_path_factory):
    """A model zip as SB3's own `save` writes it: no virus_model.json."""
    path = tmp_path_factory.mktemp("sb3") / "own.zip"
    _sb3_model().save(str(path))
    return path


# -- the shipped models ----------------------------------------------------------------------------
@pytest.mark.parametrize("shipped", SHIPPED)
def test_every_shipped_model_loads_with_unpickling_disabled(shipped):
    env_id = shipped.split("/")[0]
    count = ppo.model_meta(str(MODELS / shipped))["num_players"]
    patches = _no_unpickling()
    for p in patches:
        p.start()
    try:
        kept = shipped.split("/")[1] in ("ppo_prev.zip", "ppo_4p_prev.zip")
        tag = "prev" if kept else ""                     # a kept previous model (of its count): ppo:builtin_prev
        agent = models.load(env_id, count, tag=tag)      # ppo:builtin's file at its count, through load_model
        assert Path(agent.path) == MODELS / shipped
        assert agent.model is None                       # no SB3 object was built
        st = agent.game.new_initial_state(seed=0)
        d = decision_for(st)
        assert d.action_mask[agent.act(d)]
        from sb3_contrib import MaskablePPO
        with pytest.raises(AssertionError, match="unpickle"):   # the patch bites: SB3's own load needs pickle
            MaskablePPO.load(str(MODELS / shipped), device="cpu")
    finally:
        for p in reversed(patches):
            p.stop()


@pytest.mark.parametrize("shipped", SHIPPED)
def test_shipped_model_is_the_network_sb3_loads(shipped):
    """The re-saved files keep their weights: the safe actor equals SB3's, and so do its choices."""
    from sb3_contrib import MaskablePPO

    env_id = shipped.split("/")[0]
    path = str(MODELS / shipped)
    sb3 = MaskablePPO.load(path, device="cpu", custom_objects={"learning_rate": 0.0, "lr_schedule": lambda _: 0.0,
                                                                "clip_range": lambda _: 0.0})
    safe = ppo.load_model(path).policy
    ref = ppo.NumpyPolicy.from_sb3(sb3.policy)
    assert safe.activation == ref.activation and len(safe.layers) == len(ref.layers)
    for (w, b), (w2, b2) in zip(safe.layers, ref.layers):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    meta = ppo.model_meta(path)
    game = virus_envs.game(env_id, meta["num_players"], **meta.get("game_config", {}))
    rng = np.random.default_rng(1)
    st, checked = game.new_initial_state(seed=5), 0
    while not st.is_terminal() and checked < 60:
        d = decision_for(st)
        a, _ = sb3.predict(d.observation, action_masks=np.array(d.action_mask), deterministic=True)
        assert safe.act(d.observation, d.action_mask) == int(a)
        legal = np.flatnonzero(d.action_mask)
        st.apply_action(int(legal[rng.integers(len(legal))]))
        checked += 1
    assert checked >= 20


# -- hostile files -----------------------------------------------------------------------------------
def test_crafted_zip_is_refused_and_runs_nothing(sb3_zip, tmp_path):
    evil, marker = tmp_path / "evil.zip", tmp_path / "pwned"
    evil.write_bytes(sb3_zip.read_bytes())
    _poison_data(evil, marker)
    game = virus_envs.game("virus_cards_v0")
    with pytest.raises(ValueError) as e:
        agents.make(f"ppo:{evil}", game)
    msg = str(e.value)
    assert str(evil) in msg and "virus_model.json" in msg and "unpickle" in msg and "\n" not in msg
    assert ppo.model_meta(str(evil)) == {}            # reading the metadata parses JSON only
    with pytest.raises(SystemExit) as e:                # the command of the issue
        main(["eval", "--game", "virus_cards_v0", "--agent", f"ppo:{evil}", "--games", "2"])
    assert "refused" in str(e.value) and "\n" not in str(e.value)
    assert not marker.exists()


def test_control_sb3_load_of_the_crafted_zip_does_run_its_code(sb3_zip, tmp_path):
    """The crafted file is a real attack: trusting it (SB3's load) runs the payload. Hence the refusal above."""
    evil, marker = tmp_path / "evil.zip", tmp_path / "pwned"
    evil.write_bytes(sb3_zip.read_bytes())
    _poison_data(evil, marker)
    with pytest.raises(ValueError):                     # the payload returns an int, not a space: SB3 fails after
        agents.make(f"ppo:{evil}?trusted=true", virus_envs.game("virus_cards_v0"))
    assert marker.exists()


def test_a_file_with_the_entry_never_reads_its_pickles(tmp_path):
    """Our format with a poisoned `data` beside it: loads (from policy.pth and the JSON) and runs nothing."""
    path, marker = tmp_path / "m.zip", tmp_path / "pwned"
    save_model(_sb3_model(), path)
    _poison_data(path, marker)
    agent = agents.make(f"ppo:{path}", virus_envs.game("virus_cards_v0"))
    d = decision_for(agent.game.new_initial_state(seed=1))
    assert d.action_mask[agent.act(d)] and not marker.exists()


def test_weights_that_hold_an_object_are_refused(tmp_path):
    path, marker = tmp_path / "m.zip", tmp_path / "pwned"
    model = _sb3_model()
    save_model(model, path)
    buf = io.BytesIO()
    torch.save({**model.policy.state_dict(), "extra": Boom(marker)}, buf)
    _replace(path, "policy.pth", buf.getvalue())
    with pytest.raises(ValueError, match=r"refused: entry 'policy.pth' holds more than tensors") as e:
        ppo.load_model(path)
    assert str(path) in str(e.value) and "\n" not in str(e.value) and not marker.exists()


def test_a_bad_entry_is_named(tmp_path):
    path = tmp_path / "m.zip"
    save_model(_sb3_model(arch=(16, 16)), path)
    entry = json.loads(zipfile.ZipFile(path).read("virus_model.json"))
    entry["network"]["actor"] = [16, 32]                                 # not the tensors' shapes
    _replace(path, "virus_model.json", json.dumps(entry).encode())
    with pytest.raises(ValueError, match=r"tensor 'mlp_extractor.policy_net.2' is \(16, 16\).*says \(32, 16\)"):
        ppo.load_model(path)
    entry["network"]["activation"] = "GELU"
    _replace(path, "virus_model.json", json.dumps(entry).encode())
    with pytest.raises(ValueError, match=r"entry 'virus_model.json': key 'network.activation' must be one of"):
        ppo.load_model(path)
    _replace(path, "virus_model.json", b"{not json")
    with pytest.raises(ValueError, match="entry 'virus_model.json' is not JSON"):
        ppo.load_model(path)


# -- the user's own files -----------------------------------------------------------------------------
def test_trusted_loads_your_own_sb3_zip(sb3_zip):
    from sb3_contrib import MaskablePPO

    game = virus_envs.game("virus_cards_v0")
    with pytest.raises(model_file.UnsafeModelFile, match="no 'virus_model.json' entry"):
        ppo.load_model(sb3_zip)
    with pytest.raises(ValueError, match="no 'virus_model.json' entry"):
        agents.make(f"ppo:{sb3_zip}", game)
    agent = agents.make(f"ppo:{sb3_zip}?trusted=true", game)
    assert agent.model is not None                       # loaded by SB3
    with ppo.trust_models():                             # what --trust-model does
        assert agents.make(f"ppo:{sb3_zip}", game).policy is agent.policy
    with pytest.raises(ValueError, match="no 'virus_model.json' entry"):      # and only within the block
        agents.make(f"ppo:{sb3_zip}", game)
    ref = MaskablePPO.load(str(sb3_zip), device="cpu")
    d = decision_for(game.new_initial_state(seed=3))
    assert agent.act(d) == int(ref.predict(d.observation, action_masks=np.array(d.action_mask),
                                           deterministic=True)[0])


def test_trust_model_flag_of_the_command_line(sb3_zip, capsys):
    with pytest.raises(SystemExit, match="trusted=true"):
        main(["eval", "--game", "virus_cards_v0", "--agent", f"ppo:{sb3_zip}", "--games", "2"])
    assert main(["eval", "--game", "virus_cards_v0", "--agent", f"ppo:{sb3_zip}", "--games", "2",
                 "--trust-model"]) == 0
    assert "win rate" in capsys.readouterr().out
    assert not ppo.trusting()


def test_upgrade_model_adds_the_entry_to_your_own_file(sb3_zip, tmp_path):
    out = tmp_path / "up.zip"
    assert main(["upgrade-model", str(sb3_zip), "-o", str(out)]) == 0
    entry = model_file.read_entry(str(out))
    safe, trusted = ppo.load_model(out), ppo.load_model(sb3_zip, trusted=True)
    width = len(virus_envs.game("virus_cards_v0").new_initial_state(seed=0).observation(0))   # what SB3 was fed
    assert entry.network.actor == [16, 16] and entry.network.observation_shape == [width]
    assert safe.model is None
    x = np.random.default_rng(0).random(width)
    assert np.array_equal(safe.policy.logits(x), trusted.policy.logits(x))
    with pytest.raises(SystemExit, match="already has its virus_model.json"):
        main(["upgrade-model", str(out)])


def test_save_model_writes_what_loads_safely(tmp_path):
    """What `train` saves (save_model): the JSON entry with the network, the meta and the versions."""
    model = _sb3_model(arch=(24, 8))
    model.virus_meta = {"env_id": "virus_cards_v0", "num_players": 2, "game_config": {}}
    save_model(model, tmp_path / "m.zip", optimizer=False)
    entry = model_file.read_entry(str(tmp_path / "m.zip"))
    assert (entry.network.actor, entry.network.critic, entry.network.num_actions) == ([24, 8], [24, 8], 78)
    assert entry.network.activation == "Tanh" and entry.virus_meta["env_id"] == "virus_cards_v0"
    assert {"torch", "stable_baselines3", "sb3_contrib", "virus_envs"} <= set(entry.versions)
    loaded = ppo.load_model(tmp_path / "m.zip")
    assert loaded.model is None and loaded.meta["num_players"] == 2
    sd = ppo.policy_state_dict(tmp_path / "m.zip")      # init_from: the whole policy, critic included
    model.policy.load_state_dict(sd)


def test_a_torch_whose_weights_only_loader_had_a_hole_is_refused(tmp_path):
    """torch before 2.6 could be made to run code even with weights_only=True (CVE-2025-32434)."""
    path = tmp_path / "m.zip"
    save_model(_sb3_model(), path)
    with mock.patch.object(torch, "__version__", "2.5.1"):
        with pytest.raises(ValueError, match="needs torch 2.6 or later.*CVE-2025-32434"):
            ppo.load_model(path)
    assert ppo.load_model(path).model is None
