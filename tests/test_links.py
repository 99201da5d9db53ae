"""``[[target|anchor]]`` resolves whatever the anchor holds (property-tested), and no link is left
raw in the sample's elements."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st

from wikicheck.cli import main
from wikicheck.indexer.extract import resolve_links

PAGES = Path(__file__).resolve().parents[1] / "samples" / "pages.jsonl"

#: Text with no "[[" in it (single brackets, pipes and IPA allowed), not ending in "[".
plain = st.text(alphabet=st.sampled_from("ab ()|:[]ˈaːrə_-.,"), max_size=12).filter(
    lambda s: "[[" not in s and "]]" not in s and not s.endswith("[") and not s.startswith("]")
)
target = st.text(alphabet=st.sampled_from("AbC_ z()'-1"), min_size=1, max_size=10).filter(
    lambda s: s.replace("_", " ").strip()
)
#: What an anchor shows: plain words, optionally in one pair of brackets (IPA, [citation]).
shown = st.builds(
    lambda words, bracketed: f"[{words}]" if bracketed else words,
    st.text(alphabet=st.sampled_from("abc ˈaːrə.,()"), min_size=1, max_size=10),
    st.booleans(),
)


@given(before=plain, t=target, anchor=shown, after=plain)
@example(before="The Aare (German: ", t="Standard_German", anchor="[ˈaːrə]", after=") or Aar")
def test_a_link_shows_its_anchor_whatever_it_holds(before, t, anchor, after):
    # The dump's form of a bracketed anchor: its "]" and the link's "]]" run together.
    written = f"[[{t}|{anchor[:-1] if anchor.startswith('[') else anchor}]]"
    text, targets = resolve_links(before + written + after)
    assert text == before + anchor + after
    assert targets == [t.replace("_", " ").strip()]


@given(before=plain, t=target, anchor=shown, after=plain)
def test_a_bracketed_anchor_with_its_own_close_reads_the_same(before, t, anchor, after):
    text, targets = resolve_links(f"{before}[[{t}|{anchor}]]{after}")
    assert text == before + anchor + after and len(targets) == 1


@given(outer=target, inner=target, words=shown, around=plain)
def test_a_link_inside_an_anchor_resolves_too(outer, inner, words, around):
    text, targets = resolve_links(f"{around}[[{outer}|see [[{inner}|{words}]]]]")
    assert text == f"{around}see {words}"
    assert sorted(targets) == sorted(
        [outer.replace("_", " ").strip(), inner.replace("_", " ").strip()]
    )


@given(parts=st.lists(st.tuples(plain, target, shown), max_size=4), tail=plain)
def test_no_link_is_left_raw_and_resolving_again_changes_nothing(parts, tail):
    text = "".join(f"{p}[[{t}|{a}]]" for p, t, a in parts) + tail
    resolved, targets = resolve_links(text)
    assert "[[" not in resolved
    assert len(targets) == len(parts)
    assert resolve_links(resolved) == (resolved, [])


@given(st.text(max_size=40))
def test_any_text_resolves_without_error(text):
    resolved, targets = resolve_links(text)
    assert isinstance(resolved, str) and all(isinstance(t, str) for t in targets)
    if "[[" not in text:
        assert (resolved, targets) == (text, [])


def test_not_a_link_stays_as_written():
    assert resolve_links("a [[b c") == ("a [[b c", [])
    assert resolve_links("x [[ [[A|b]]") == ("x [[ b", ["A"])


@pytest.mark.slow
def test_the_sample_elements_hold_no_raw_link():
    result = CliRunner().invoke(main, ["elements", str(PAGES)])
    assert result.exit_code == 0, result.output
    rows = [orjson.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) > 1000
    raw = [r["id"] for r in rows if "[[" in (r.get("text") or "")]
    assert raw == []
    (aare,) = [r for r in rows if r["id"] == "Aare_sentence_2"]
    assert aare["text"].startswith("The Aare (German: [ˈaːrə]) or Aar (German: [aːɐ̯] (listen))")
