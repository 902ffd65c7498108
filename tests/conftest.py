"""Shared test settings: every test module may be run alone or under xdist."""
import warnings

warnings.filterwarnings("ignore", module="pettingzoo")


import pytest


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_pytest_tmp(tmp_path_factory):
    """SB3's `learn()` without a logger of ours makes an empty folder /tmp/SB3-<date> per model (the tests that
    call MaskablePPO/PPO/DQN directly, as the README does): point SB3 at pytest's own temp folder instead, which
    pytest prunes, so a suite run leaves nothing in /tmp."""
    import os

    old = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3_logs"))
    yield
    if old is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = old
