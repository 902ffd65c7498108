"""A model plays only the player counts it was trained for (issue 17): one line naming the model and its counts,
in code and in every command that takes an agent spec, even where the observation has the same size."""
from __future__ import annotations

from pathlib import Path

import pytest

from virus_envs import agents
import virus_envs
from virus_envs.experiments.cli import main

MODELS = Path(__file__).resolve().parents[2] / "models"
RW = str(MODELS / "roll_write_v0" / "ppo.zip")          # trained with 2 players (its virus_meta)
LAB = str(MODELS / "virus_lab_v0" / "ppo.zip")          # trained with 1 Hero, difficulty 1


def test_the_lab_model_is_refused_for_two_heroes_although_the_shapes_agree():
    one = virus_envs.game("virus_lab_v0", 1, difficulty=1, auto_display_choices=True)
    two = virus_envs.game("virus_lab_v0", 2, difficulty=1, auto_display_choices=True)
    assert one.observation_shape == two.observation_shape and one.num_actions == two.num_actions
    agents.make(f"ppo:{LAB}", one)
    with pytest.raises(ValueError, match=r"ppo model .*virus_lab_v0/ppo.zip was trained for virus_lab_v0 with 1 "
                                         r"player, not 2 .*--players 2"):
        agents.make(f"ppo:{LAB}", two)


def test_a_model_file_names_its_counts_and_builtin_names_what_is_shipped():
    with pytest.raises(ValueError, match=r"trained for roll_write_v0 with 2 players, not 3"):
        agents.make(f"ppo:{RW}", virus_envs.game("roll_write_v0", 3))
    with pytest.raises(ValueError, match=r"no shipped model for roll_write_v0 with 4 players; shipped for 2 players"):
        agents.make("ppo:builtin", virus_envs.game("roll_write_v0", 4))


def _one_line(exc) -> str:
    text = str(exc.value.code)
    assert "\n" not in text and "Traceback" not in text
    return text


@pytest.mark.parametrize("argv", [
    ["tournament", "--game", "roll_write_v0", "--players", "3", "--agents", f"ppo:{RW}", "random", "--games", "3"],
    ["eval", "--game", "roll_write_v0", "--players", "3", "--agent", f"ppo:{RW}", "--games", "3"],
    ["play", "--game", "roll_write_v0", "--players", "3", "--opponents", f"ppo:{RW}"],
    ["serve", "--game", "roll_write_v0", "--players", "3", "--opponents", f"ppo:{RW}"],
    ["train", "--game", "roll_write_v0", "--players", "3", "--evaluate", RW, "--games", "2"],
    ["eval", "--game", "virus_lab_v0", "--players", "2", "--agent", f"ppo:{LAB}", "--games", "1",
     "--game-config", "difficulty=1", "--game-config", "auto_display_choices=true"],
])
def test_every_command_refuses_in_one_line(argv, tmp_path, monkeypatch):
    from virus_envs.experiments import serve

    monkeypatch.setattr(serve, "create_app", lambda *a: pytest.fail("serve got past the agents' check"))
    monkeypatch.chdir(tmp_path)                        # anything a command writes stays in tmp_path
    with pytest.raises(SystemExit) as e:
        main(argv)
    text = _one_line(e)
    assert text.startswith(f"virus-arena {argv[0]}: ")
    assert "ppo.zip was trained for" in text and ("with 2 players, not 3" in text or "with 1 player, not 2" in text)


def test_run_and_train_configs_refuse_in_one_line(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"seed: 0\ngames: 2\ntournaments:\n  - game: roll_write_v0\n    players: 3\n"
                   f"    agents: [\"ppo:{RW}\", random]\n")
    with pytest.raises(SystemExit) as e:
        main(["run", "--config", str(cfg), "--out", str(tmp_path / "run")])
    assert "trained for roll_write_v0 with 2 players, not 3" in _one_line(e)
    train = tmp_path / "train.yaml"
    train.write_text(f"init_from: {RW}\nnet_arch: [256, 256]\ntotal_steps: 64\n")
    with pytest.raises(SystemExit) as e:
        main(["train", "--game", "roll_write_v0", "--players", "3", "--config", str(train), "--out",
              str(tmp_path / "o")])
    assert "init_from" in _one_line(e) and "trained with 2 players, this run has 3" in str(e.value.code)
    train.write_text("opponents: {ppo:builtin: 1.0}\ntotal_steps: 64\n")
    with pytest.raises(SystemExit) as e:
        main(["train", "--game", "roll_write_v0", "--players", "4", "--config", str(train), "--out",
              str(tmp_path / "p")])
    assert "no shipped model for roll_write_v0 with 4 players" in _one_line(e)
