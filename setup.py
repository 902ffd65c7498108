"""Package list for setuptools (the rest of the metadata is in pyproject.toml).

The repository keeps its top-level folders `agents/` and `experiments/`, but they install as
`virus_envs.agents` and `virus_envs.experiments`: a wheel must not put generic top-level
names such as `agents` into site-packages, where they would collide with other projects.
"""
from setuptools import find_packages, setup

MAPPED = {"virus_envs.agents": "agents", "virus_envs.experiments": "experiments"}

packages = find_packages(include=["virus_envs", "virus_envs.*"])
package_dir = {}
for name, folder in MAPPED.items():
    packages.append(name)
    package_dir[name] = folder
    for sub in find_packages(where=folder):
        packages.append(f"{name}.{sub}")
        package_dir[f"{name}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"

setup(packages=packages, package_dir=package_dir)
