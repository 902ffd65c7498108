"""Model files that load without running code: tensors and JSON only.

A MaskablePPO `.zip` written by stable-baselines3 keeps its spaces, schedules and policy class as
pickles (cloudpickle) in the entry `data`; `MaskablePPO.load` unpickles them, and a crafted file
runs any code it likes while loading. So `ppo:` never calls it on a file it was not told to trust.
Our own `virus-arena train` adds one JSON entry to every zip it writes, `virus_model.json`, which
says everything needed to rebuild the actor:

    {"format": "virus_envs.ppo", "format_version": 1, "algorithm": "MaskablePPO",
     "network": {"kind": "mlp", "observation_shape": [249], "num_actions": 78,
                 "actor": [256, 256], "critic": [256, 256], "activation": "Tanh", "weights": "policy.pth"},
     "virus_meta": {"env_id": "virus_cards_v0", "num_players": 2, "game_config": {}, "config": {...},
                    "command": "virus-arena train ...", "trained_steps": 1601536, ...},
     "versions": {"virus_envs": "0.1.0", "torch": "2.13.0+cpu", "stable_baselines3": "2.9.2", ...}}

The weights are read from the zip's `policy.pth` (SB3's state dict of the policy) with
`torch.load(..., weights_only=True)`: torch's restricted unpickler, which builds tensors and plain
containers and refuses any other object (torch 2.6 or later: older versions had a way around it,
CVE-2025-32434, and are refused). The network is built from the JSON, never unpickled. The
rest of the zip (SB3's `data`, the optimizer) is left as SB3 wrote it and never read, so the same
file still loads in SB3 for more training.

A zip without the entry (saved by SB3 itself, or by a `train` older than this format) is refused
with one line naming the file and what is missing; `ppo:<path>?trusted=true` (or `--trust-model`)
lets such a file of your own load through SB3, and `virus-arena upgrade-model FILE` adds the entry
to it once (that command unpickles FILE: run it on your own files only).
"""
from __future__ import annotations

import io
import json
import zipfile
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveInt

__all__ = ["ENTRY", "ModelEntry", "Network", "entry_for", "add_entry", "read_entry", "read_weights",
           "actor_layers", "UnsafeModelFile"]

#: the JSON entry our `train` writes into a model zip
ENTRY = "virus_model.json"
WEIGHTS = "policy.pth"
#: entries larger than this are refused before they are read (a zip bomb is not a model)
MAX_JSON_BYTES = 4 << 20
MAX_WEIGHTS_BYTES = 2 << 30


class UnsafeModelFile(ValueError):
    """A model file that could only be loaded by unpickling it (no `virus_model.json`)."""


class Network(BaseModel):
    """The policy network: SB3's MlpPolicy with a flatten extractor and separate actor and critic MLPs."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["mlp"]
    observation_shape: Annotated[list[PositiveInt], Field(min_length=1)]
    num_actions: PositiveInt
    actor: list[PositiveInt]
    """hidden layer sizes of the actor (`mlp_extractor.policy_net`), then `action_net`"""
    critic: list[PositiveInt]
    """hidden layer sizes of the critic (`mlp_extractor.value_net`), then `value_net`"""
    activation: Literal["Tanh", "ReLU"]
    weights: Literal["policy.pth"]


class ModelEntry(BaseModel):
    """`virus_model.json`: what a model file is, read without unpickling anything."""

    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal["virus_envs.ppo"]
    format_version: Literal[1]
    algorithm: Literal["MaskablePPO"]
    network: Network
    virus_meta: dict[str, Any] = Field(default_factory=dict)
    versions: dict[str, str] = Field(default_factory=dict)


def _versions() -> dict:
    import platform
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in ("virus_envs", "torch", "stable_baselines3", "sb3_contrib", "numpy", "gymnasium"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def entry_for(policy, meta: dict | None = None) -> dict:
    """The `virus_model.json` of an SB3 MaskableActorCriticPolicy (and the model's `virus_meta`)."""
    import torch.nn as nn

    ext = policy.features_extractor
    if type(ext).__name__ != "FlattenExtractor":
        raise ValueError(f"only the MLP policy with a flatten extractor can be saved, got {type(ext).__name__}")
    actor = [m.out_features for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    critic = [m.out_features for m in policy.mlp_extractor.value_net if isinstance(m, nn.Linear)]
    entry = {
        "format": "virus_envs.ppo", "format_version": 1, "algorithm": "MaskablePPO",
        "network": {"kind": "mlp", "observation_shape": [int(x) for x in policy.observation_space.shape],
                    "num_actions": int(policy.action_space.n), "actor": actor, "critic": critic,
                    "activation": policy.activation_fn.__name__, "weights": WEIGHTS},
        "virus_meta": json.loads(json.dumps(meta or {}, default=str)),
        "versions": _versions(),
    }
    ModelEntry.model_validate(entry)             # what we write, we can read
    return entry


def add_entry(path, entry: dict) -> None:
    """Write (or replace) `virus_model.json` in the zip at path; the other entries are kept byte for byte.

    Keys keep the order they were given in: a training config's `opponents` are drawn in their order, so a
    model's `virus_meta["config"]` retrains it only if that order survives (sorted keys lost it)."""
    path = str(path)
    with zipfile.ZipFile(path) as z:
        has = ENTRY in z.namelist()
    if not has:
        with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:
            z.writestr(ENTRY, json.dumps(entry, indent=1))
        return
    import os
    import tempfile

    fd, tmp = tempfile.mkstemp(suffix=".zip", dir=os.path.dirname(os.path.abspath(path)))
    os.close(fd)
    try:
        with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                if info.filename != ENTRY:
                    dst.writestr(info, src.read(info.filename))
            dst.writestr(ENTRY, json.dumps(entry, indent=1))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _open(path: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except FileNotFoundError:
        raise ValueError(f"ppo model file not found: {path}") from None
    except (OSError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path}: not a model file (not a zip: {e})") from None


def _read(z: zipfile.ZipFile, name: str, path: str, limit: int) -> bytes:
    info = z.getinfo(name)
    if info.file_size > limit:
        raise ValueError(f"{path}: entry {name!r} is {info.file_size:,} bytes, more than a model's {limit:,}")
    try:
        return z.read(name)
    except (OSError, zipfile.BadZipFile, RuntimeError) as e:
        raise ValueError(f"{path}: entry {name!r} cannot be read ({e})") from None


def read_entry(path: str) -> ModelEntry:
    """The file's `virus_model.json`, checked; `UnsafeModelFile` when the file has none, ValueError naming
    the file and the field for a bad one."""
    from virus_envs.experiments import configfile

    with _open(path) as z:
        if ENTRY not in z.namelist():
            raise UnsafeModelFile(
                f"{path}: refused: no '{ENTRY}' entry (a zip saved by stable-baselines3 itself or by an older "
                f"virus-arena train), and loading it otherwise would unpickle code from the file; if the file is "
                f"your own, load it with ppo:{path}?trusted=true (or --trust-model), or add the entry once with "
                f"`virus-arena upgrade-model {path}`")
        raw = _read(z, ENTRY, path, MAX_JSON_BYTES)
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ValueError(f"{path}: entry '{ENTRY}' is not JSON") from None
    return configfile.validate(ModelEntry, data, f"{path}: entry '{ENTRY}'")


def read_weights(path: str, entry: ModelEntry) -> dict:
    """The policy's state dict (name -> torch tensor) from the zip's `policy.pth`, with torch's
    weights-only unpickler: anything but tensors and plain containers is refused (ValueError)."""
    import pickle

    try:
        import torch
    except ImportError:
        raise ValueError(f"loading the model {path} needs torch: pip install 'virus_envs[rl]'") from None
    if _version(torch.__version__) < (2, 6):
        raise ValueError(f"loading the model {path} safely needs torch 2.6 or later: torch {torch.__version__}'s "
                         f"weights-only loader can be made to run code (CVE-2025-32434)")
    name = entry.network.weights
    with _open(path) as z:
        if name not in z.namelist():
            raise ValueError(f"{path}: entry {name!r} (the network's weights) is missing")
        raw = _read(z, name, path, MAX_WEIGHTS_BYTES)
    try:
        sd = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, ValueError, TypeError, AttributeError, EOFError, KeyError,
            ImportError, zipfile.BadZipFile) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise ValueError(f"{path}: refused: entry {name!r} holds more than tensors, or is damaged "
                         f"({type(e).__name__}: {first[:200]})") from None
    if not isinstance(sd, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in sd.items()):
        raise ValueError(f"{path}: entry {name!r} is not a state dict (names to tensors)")
    return sd


def _version(text: str) -> tuple:
    """'2.13.0+cpu' -> (2, 13)."""
    parts = []
    for p in text.split("+")[0].split(".")[:2]:
        digits = "".join(ch for ch in p if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def actor_layers(path: str, entry: ModelEntry, sd: dict) -> list:
    """[(W (in, out) float32, b)] of the actor, each checked against the entry's network; ValueError naming
    the file and the tensor."""
    import numpy as np
    import torch

    net = entry.network
    size = int(np.prod(net.observation_shape))
    names = [f"mlp_extractor.policy_net.{2 * i}" for i in range(len(net.actor))] + ["action_net"]
    outs = list(net.actor) + [net.num_actions]
    layers = []
    for name, out in zip(names, outs):
        w, b = sd.get(f"{name}.weight"), sd.get(f"{name}.bias")
        if w is None or b is None:
            raise ValueError(f"{path}: entry {net.weights!r} has no tensor '{name}.weight'/'{name}.bias' that "
                             f"'network.actor' {net.actor} asks for")
        if tuple(w.shape) != (out, size) or tuple(b.shape) != (out,):
            raise ValueError(f"{path}: tensor '{name}' is {tuple(w.shape)}, the network of '{ENTRY}' says "
                             f"({out}, {size})")
        w = w.detach().to(dtype=torch.float32).numpy().T.copy()
        b = b.detach().to(dtype=torch.float32).numpy().copy()
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ValueError(f"{path}: tensor '{name}' holds NaN or infinite weights")
        layers.append((w, b))
        size = out
    extra = sorted(k for k in sd if k.startswith("mlp_extractor.policy_net.")
                   and k.rsplit(".", 1)[0] not in names)
    if extra:
        raise ValueError(f"{path}: tensor {extra[0]!r} is not in the network of '{ENTRY}' (actor {net.actor})")
    return layers
