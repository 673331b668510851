"""The packages to install, found rather than listed: every folder with an
``__init__.py`` under each folder that pyproject.toml's ``package-dir`` maps into the
``unosim`` namespace (studies/ -> unosim.studies, so a new studies/NAME/ is
unosim.studies.NAME). Everything else about the package is in pyproject.toml."""

import tomllib
from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent


def packages() -> list[str]:
    """Each mapped package and the packages below its folder, a folder mapped on its
    own (simulate/ is unosim.simulate, not unosim.unosim.simulate) counted once."""
    with open(HERE / "pyproject.toml", "rb") as f:
        package_dir = tomllib.load(f)["tool"]["setuptools"]["package-dir"]
    found = set(package_dir)
    for name, folder in package_dir.items():
        found |= {f"{name}.{sub}" for sub in find_packages(str(HERE / folder))}
    return sorted(found)


setup(packages=packages())
