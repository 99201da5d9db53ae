"""The interactive prompt of ``wikicheck search`` (no QUERY given, on a terminal).

Plain ``input()`` with GNU readline history (kept in ``~/.wikicheck_history``): no extra
dependency. Lines starting with ``:`` change the filters, anything else is a query::

    :type cell        only cells (comma-separate several; ":type" alone clears)
    :page Aare        only elements of page "Aare" (":page" alone clears)
    :k 20             show 20 hits
    :help  :quit

Entry point: :func:`interactive_search` (the loop) over :class:`SearchSession` (the state and
commands, testable without a terminal).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wikicheck.cli.common import plural
from wikicheck.ids import EVIDENCE_TYPES

__all__ = ["SearchSession", "interactive_search", "HELP"]

HELP = """:type T[,T2]  only these element types (sentence, cell, header_cell, table_caption, item)
:page TITLE   only elements of this page        (":type" / ":page" alone clear the filter)
:k N          number of hits                     :help  this text     :quit  leave (or Ctrl-D)"""

_HISTORY = os.path.join(os.path.expanduser("~"), ".wikicheck_history")


@dataclass
class SearchSession:
    """Filters and hit count of an interactive session; ``handle`` runs one input line."""

    store: Any
    types: tuple[str, ...] = ()
    page: str | None = None
    k: int = 10
    history: list[str] = field(default_factory=list)

    def handle(self, line: str) -> tuple[str, Any]:
        """``("quit", None)``, ``("info", message)``, ``("error", message)`` or
        ``("hits", (query, hits))`` for one line of input."""
        line = line.strip()
        if not line:
            return "info", ""
        if not line.startswith(":"):
            self.history.append(line)
            return "hits", (line, self.search(line))
        cmd, _, arg = line[1:].partition(" ")
        arg = arg.strip()
        if cmd in ("q", "quit", "exit"):
            return "quit", None
        if cmd in ("h", "help", "?"):
            return "info", HELP
        if cmd == "type":
            types = tuple(t.strip() for t in arg.split(",") if t.strip())
            bad = [t for t in types if t not in EVIDENCE_TYPES]
            if bad:
                return "error", f"unknown type {bad[0]!r}: choose from {', '.join(EVIDENCE_TYPES)}"
            self.types = types
            return "info", f"types: {', '.join(types) or 'all'}"
        if cmd == "page":
            self.page = arg or None
            return "info", f"page: {self.page or 'all'}"
        if cmd == "k":
            if not arg.isdigit() or int(arg) < 1:
                return "error", f":k needs a positive number, got {arg!r}"
            self.k = int(arg)
            return "info", f"k: {self.k}"
        return "error", f"unknown command :{cmd} (try :help)"

    def search(self, query: str) -> list:
        from wikicheck.indexer.stores.base import AnyOf, Bool, Exact, Text
        from wikicheck.retriever.claim import ClaimAnalysis, content_terms
        from wikicheck.retriever.config import RetrieverConfig
        from wikicheck.retriever.elements import element_query

        filters = ([AnyOf("type", self.types)] if self.types else []) + (
            [Exact("page", self.page)] if self.page else []
        )
        if content_terms(query):
            q = element_query(ClaimAnalysis(text=query), RetrieverConfig())
        else:  # only stopwords ("The The"): search them as written rather than nothing
            q = Bool(should=(Text("text_plain", query),))
        return self.store.search(q, self.k, filters=filters)


def render_hits(query: str, hits: list, print_: Callable[[Any], None]) -> None:
    """A rich table: score, id, type, text and its context (sections > headers)."""
    from rich.table import Table

    table = Table(title=f"{query!r}: {plural(len(hits), 'hit')}", show_lines=False)
    for col, kw in (("score", {"justify": "right"}), ("id", {}), ("type", {}),
                    ("text", {"ratio": 3}), ("context", {"ratio": 1})):  # fmt: skip
        table.add_column(col, overflow="fold", **kw)
    for h in hits:
        el = h.element
        ctx = " > ".join(el.section_names)
        if el.headers_text:
            ctx = f"{ctx} [{el.headers_text}]" if ctx else f"[{el.headers_text}]"
        text = el.text if len(el.text) <= 240 else el.text[:237] + "..."
        table.add_row(f"{h.score:.2f}", el.id, el.type, text, ctx)
    print_(table)


def interactive_search(
    store: Any, *, types: tuple[str, ...] = (), page: str | None = None, k: int = 10
) -> None:
    """Prompt for queries until ``:quit`` or end of input; history persists across sessions."""
    from wikicheck.cli.common import console as literal_console

    console = literal_console()
    session = SearchSession(store, tuple(types), page, k)
    try:
        import readline

        try:
            readline.read_history_file(_HISTORY)
        except OSError:
            pass
    except ImportError:  # Windows: no history, the prompt still works
        readline = None  # type: ignore[assignment]
    console.print(
        "wikicheck search: type a query, :help for commands, Ctrl-D to leave", style="dim"
    )
    try:
        while True:
            prompt = _prompt(session)
            try:
                line = input(prompt)
            except EOFError:
                console.print()
                break
            except KeyboardInterrupt:
                console.print()
                continue
            kind, value = session.handle(line)
            if kind == "quit":
                break
            if kind == "hits":
                render_hits(*value, console.print)
            elif kind == "error":
                console.print(value, style="red")
            elif value:
                console.print(value)
    finally:
        if readline is not None:
            try:
                readline.write_history_file(_HISTORY)
            except OSError:
                pass


def _prompt(session: SearchSession) -> str:
    parts = []
    if session.types:
        parts.append(",".join(session.types))
    if session.page:
        parts.append(f"page={session.page}")
    return f"search[{' '.join(parts)}]> " if parts else "search> "
