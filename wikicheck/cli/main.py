"""The ``wikicheck`` command line: a thin click layer over the library.

Each command lives in ``wikicheck/cli/<area>.py`` and is imported only when it runs, so
``wikicheck --help`` stays fast (no torch/spaCy import) and a command whose optional extras are
missing fails alone. Library errors (:mod:`wikicheck.errors`) become one-line click errors here.
"""

from __future__ import annotations

import importlib
import os

import click

from wikicheck import __version__

# name -> "module:attribute". Only commands that work are registered (`--help` lists these).
COMMANDS: dict[str, str] = {
    "elements": "wikicheck.cli.elements:elements",
    "quickstart": "wikicheck.cli.quickstart:quickstart",
    "convert": "wikicheck.cli.convert:convert",
    "index": "wikicheck.cli.index:index",
    "embed": "wikicheck.cli.embed:embed",
    "stats": "wikicheck.cli.index:stats",
    "search": "wikicheck.cli.index:search",
    "retrieve": "wikicheck.cli.retrieve:retrieve",
    "score": "wikicheck.cli.score:score",
    "evaluate": "wikicheck.cli.evaluate:evaluate",
    "train-verifier": "wikicheck.cli.verifier:train_verifier",
    "large-model": "wikicheck.cli.large:large_model",
    "verify": "wikicheck.cli.verifier:verify",
    "predict": "wikicheck.cli.verifier:predict",
    "serve": "wikicheck.cli.serve:serve",
    "kibana-setup": "wikicheck.cli.kibana:kibana_setup",
    "config": "wikicheck.cli.config:config",
}


class LazyGroup(click.Group):
    """A click group that imports each command's module on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)

    def invoke(self, ctx: click.Context):
        from wikicheck.cli.common import interrupts_exit_130

        # Our rich bars show progress; transformers' tqdm "Loading weights" bars (on by
        # default, honouring this variable) tore through them. Set it to 0 to see them.
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        with interrupts_exit_130():
            return super().invoke(ctx)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wikicheck")
def main() -> None:
    """Fact extraction and verification over Wikipedia sentences and tables (FEVEROUS).

    \b
    Index a dump, retrieve evidence for claims, verify them and score the result:
      wikicheck index samples/pages.jsonl
      wikicheck verify "Aare is a river in Switzerland."
      wikicheck predict samples/claims.jsonl -o pred.jsonl
      wikicheck score pred.jsonl --gold samples/claims.jsonl
    """
