"""Package list for setuptools (the rest of the metadata is in pyproject.toml).

The repository keeps its top-level folders `agents/`, `experiments/`, `models/` and `configs/`, but
they install as `virus_envs.agents`, `virus_envs.experiments`, `virus_envs.models` and
`virus_envs.configs`: a wheel must not put generic top-level names such as `agents` into
site-packages, where they would collide with other projects. The shipped models and the default
configs are package data (pyproject.toml), so the commands work from a wheel as from the checkout.
"""
from setuptools import find_namespace_packages, setup

MAPPED = {"virus_envs.agents": "agents", "virus_envs.experiments": "experiments",
          "virus_envs.models": "models", "virus_envs.configs": "configs"}
# folders without __init__.py (a game's data/, models/<env_id>/, configs/train/) are namespace packages:
# their files are package data, and setuptools finds them without a warning
SKIP = ["*__pycache__*"]

packages = find_namespace_packages(include=["virus_envs", "virus_envs.*"], exclude=SKIP)
package_dir = {}
for name, folder in MAPPED.items():
    packages.append(name)
    package_dir[name] = folder
    for sub in find_namespace_packages(where=folder, exclude=SKIP):
        packages.append(f"{name}.{sub}")
        package_dir[f"{name}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"

setup(packages=packages, package_dir=package_dir)
