"""The registry of variants: a name on the command line -> the variant object.

A new variant is a module (or package) under ``harness/variants/`` that defines ``VARIANT``, an
instance of `harness.core.variant.Variant`, plus one line here. Modules are imported on first
use, so a command for one course never loads another's rules.
"""
import importlib
from typing import Dict, List

from ..core.variant import Variant

DEFAULT_VARIANT = "cs3243"
_MODULES: Dict[str, str] = {
    "cs3243": "harness.variants.cs3243",
    "nthu": "harness.variants.nthu",
    "congo": "harness.variants.congo",
    "gardner": "harness.variants.gardner",
}
_LOADED: Dict[str, Variant] = {}


class UnknownVariant(ValueError):
    """A variant name that is not registered; the text lists the known ones."""


def variant_names() -> List[str]:
    return list(_MODULES)


def find_variant(name: str) -> Variant:
    """The variant called `name`; UnknownVariant (one line, with the known names) otherwise."""
    if name not in _MODULES:
        raise UnknownVariant(f"unknown variant '{name}': use one of {', '.join(_MODULES)}")
    if name not in _LOADED:
        _LOADED[name] = importlib.import_module(_MODULES[name]).VARIANT
    return _LOADED[name]
