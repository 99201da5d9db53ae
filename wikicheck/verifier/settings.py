"""Verifier settings (``[verifier]`` in a settings file, ``--set verifier.KEY=VALUE``).

How a checkpoint is loaded and run: which model, how many labels, the token window, where and
on how many threads, int8 or not, and the table program executor. ``verify``, ``predict`` and
``serve`` take them (as flags generated from this model, or from a settings file), and a
recipe's ``[verifier]`` table is this section plus what only a recipe asks for
(:mod:`wikicheck.evaluation.recipe_schema`).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import Field

from wikicheck.common.settings import Count, Flag, Name, OptionalFlag, Section, check, is_int

__all__ = ["VerifierSettings"]

Labels = Annotated[int, check(lambda v: is_int(v) and v in (2, 3), "must be 2 or 3")]


def _f(default: Any, help: str) -> Any:
    return Field(default, description=help)


class VerifierSettings(Section):
    """How the verifier is loaded and run (:meth:`wikicheck.verifier.model.Verifier.load`)."""

    key: ClassVar[str] = "verifier"

    model: Name = _f(
        "",
        "Checkpoint folder, Hugging Face hub id, or large (MPNet-base with adapters); "
        "empty: the shipped model.",
    )
    labels: Labels = _f(3, "3, or 2: SUPPORTS vs REFUTES only.")
    max_length: Count = _f(0, "Model window in tokens (0: the model's own).")
    device: Name = _f("auto", "torch device: auto (CUDA if present), cpu, cuda:1 ...")
    threads: Count = _f(0, "torch CPU threads (0: torch's default).")
    quantize: Flag = _f(False, "CPU: dynamic int8 weights (faster, a little less accurate).")
    table_executor: OptionalFlag = _f(
        None,
        "Run the table program executor (unset: if the model was calibrated for it).",
    )

    def load_kwargs(self) -> dict[str, Any]:
        """The arguments of ``Verifier.load`` (0 and "" mean the model's own choice)."""
        return {
            "device": self.device,
            "max_length": self.max_length or None,
            "threads": self.threads or None,
            "quantize": self.quantize,
        }
