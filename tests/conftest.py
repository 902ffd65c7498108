"""Shared test settings: every test module may be run alone or under xdist."""
import warnings

warnings.filterwarnings("ignore", module="pettingzoo")


import pytest


@pytest.fixture(autouse=True, scope="session")
def _scratch_files_in_pytest_tmp(tmp_path_factory):
    """What the code under test writes to the system's temp folder goes to pytest's own, which pytest prunes, so a
    suite run leaves nothing in /tmp: SB3's `learn()` without a logger of ours makes a folder /tmp/SB3-<date> per
    model (the tests that call MaskablePPO/PPO/DQN directly, as the README does: `SB3_LOGDIR`), and the notebooks
    the tests execute (their kernels inherit `TMPDIR`), the study's per-process sheet files and any `tempfile`
    call of this process use the temp folder (`TMPDIR`, `tempfile.tempdir`)."""
    import os
    import tempfile

    saved = {k: os.environ.get(k) for k in ("SB3_LOGDIR", "TMPDIR")}
    saved_tempdir = tempfile.tempdir
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3_logs"))
    os.environ["TMPDIR"] = tempfile.tempdir = str(tmp_path_factory.mktemp("tmp"))
    yield
    tempfile.tempdir = saved_tempdir
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
