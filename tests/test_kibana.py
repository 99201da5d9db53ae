"""Kibana saved objects and ``kibana-setup``: the exact requests sent, on a mock transport."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from wikicheck.errors import InputError
from wikicheck.kibana import (
    SAVED_OBJECTS,
    KibanaError,
    load_saved_objects,
    setup_kibana,
    wait_for_kibana,
)

ROOT = Path(__file__).resolve().parents[1]


def _ok_response(objects):
    return {
        "success": True,
        "successCount": len(objects),
        "successResults": [
            {"type": o["type"], "id": o["id"], "meta": {"title": o["attributes"]["title"]}}
            for o in objects
        ],
    }


class Recorder:
    """A mock Kibana: records requests, answers the import like Kibana 9 does."""

    def __init__(self, answer=None, status=200):
        self.requests: list[httpx.Request] = []
        self.answer = answer
        self.status = status

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if request.url.path.endswith("/api/status"):
            return httpx.Response(200, json={"status": {"overall": {"level": "available"}}})
        objects = _parts(request)
        return httpx.Response(self.status, json=self.answer or _ok_response(objects))

    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self))


def _parts(request: httpx.Request) -> list[dict]:
    """The ndjson objects inside the multipart body (parsed like Kibana's form handler would)."""
    ctype = request.headers["content-type"]
    boundary = ctype.split("boundary=")[1].encode()
    body = request.content
    parts = [p for p in body.split(b"--" + boundary) if p.strip() not in (b"", b"--")]
    assert len(parts) == 1, "one file part"
    head, data = parts[0].split(b"\r\n\r\n", 1)
    assert b'name="file"' in head and b'filename="saved_objects.ndjson"' in head
    return [json.loads(line) for line in data.rstrip(b"\r\n").decode().splitlines()]


# -- the saved objects themselves -------------------------------------------------------------


def _objects():
    return {(o["type"], o["id"]): o for o in load_saved_objects()}


def test_shipped_objects_are_the_data_views_search_and_dashboard():
    objs = _objects()
    titles = {o["attributes"]["title"] for (t, _), o in objs.items() if t == "index-pattern"}
    assert titles == {"wikicheck-elements", "wikicheck-pages"}
    assert ("search", "wikicheck-evidence-search") in objs
    assert ("dashboard", "wikicheck-overview") in objs


def test_data_views_match_the_elastic_store_aliases():
    # ElasticStore names its read aliases f"{index_prefix}-{kind}" (default prefix "wikicheck").
    from wikicheck.indexer.stores.elastic import KINDS

    views = {o["attributes"]["title"] for (t, _), o in _objects().items() if t == "index-pattern"}
    assert views == {f"wikicheck-{kind}" for kind in KINDS}


def test_every_reference_resolves_inside_the_file():
    objs = _objects()
    for (type_, id_), obj in objs.items():
        for ref in obj.get("references", []):
            assert (ref["type"], ref["id"]) in objs, f"{type_}:{id_} -> {ref}"


def test_dashboard_panels_match_its_references():
    dash = _objects()[("dashboard", "wikicheck-overview")]
    panels = json.loads(dash["attributes"]["panelsJSON"])
    names = {r["name"] for r in dash["references"]}
    assert {f"{p['panelIndex']}:{p['panelRefName']}" for p in panels} == names
    assert len(panels) == 6
    for p in panels:
        assert p["gridData"]["i"] == p["panelIndex"]
        assert p["gridData"]["x"] + p["gridData"]["w"] <= 48


def _mapping_fields(name: str) -> dict[str, dict]:
    """Every field path of an es_mappings file, with its definition (subfields included)."""
    props = json.loads((ROOT / "es_mappings" / name).read_text())["mappings"]["properties"]
    out = {}
    for fname, spec in props.items():
        out[fname] = spec
        for sub, sspec in spec.get("fields", {}).items():
            out[f"{fname}.{sub}"] = sspec
    return out


def test_lens_columns_use_aggregatable_mapped_fields():
    mappings = {
        "wikicheck-elements": _mapping_fields("elements.json"),
        "wikicheck-pages": _mapping_fields("pages.json"),
    }
    seen = set()
    for (type_, id_), obj in _objects().items():
        if type_ != "lens":
            continue
        layers = obj["attributes"]["state"]["datasourceStates"]["formBased"]["layers"]
        refs = {r["name"]: r["id"] for r in obj["references"]}
        for layer_id, layer in layers.items():
            view = refs[f"indexpattern-datasource-layer-{layer_id}"]
            assert set(layer["columnOrder"]) == set(layer["columns"])
            for col in layer["columns"].values():
                field = col["sourceField"]
                if field == "___records___":
                    continue
                spec = mappings[view][field]
                assert spec["type"] in ("keyword", "integer"), f"{id_}: {field} not aggregatable"
                seen.add(field)
    assert seen == {"type", "page", "sections.keyword"}


def test_saved_search_columns_exist_in_the_elements_mapping():
    search = _objects()[("search", "wikicheck-evidence-search")]
    fields = _mapping_fields("elements.json")
    assert all(c in fields for c in search["attributes"]["columns"])
    source = json.loads(search["attributes"]["kibanaSavedObjectMeta"]["searchSourceJSON"])
    assert source["indexRefName"] == search["references"][0]["name"]


def test_index_prefix_retargets_only_the_data_views():
    objs = load_saved_objects(index_prefix="wiki2")
    views = sorted(o["attributes"]["title"] for o in objs if o["type"] == "index-pattern")
    assert views == ["wiki2-elements", "wiki2-pages"]
    assert [o["id"] for o in objs] == [o["id"] for o in load_saved_objects()]


def test_a_broken_objects_file_names_file_and_line(tmp_path):
    bad = tmp_path / "objs.ndjson"
    bad.write_text('{"id": "a", "type": "search"}\n{oops\n')
    with pytest.raises(InputError) as exc:
        load_saved_objects(bad)
    assert str(exc.value).startswith(f"{bad}:2: not a JSON saved object: ")
    bad.write_text('{"type": "search"}\n')
    with pytest.raises(InputError, match=r":1: a saved object needs 'id' and 'type'"):
        load_saved_objects(bad)


# -- the requests sent ------------------------------------------------------------------------


def test_setup_sends_one_multipart_import_with_overwrite_and_xsrf():
    kibana = Recorder()
    result = setup_kibana("http://kibana:5601/", client=kibana.client())
    assert len(kibana.requests) == 1
    req = kibana.requests[0]
    assert req.method == "POST"
    assert str(req.url) == "http://kibana:5601/api/saved_objects/_import?overwrite=true"
    assert req.headers["kbn-xsrf"] == "true"
    assert req.headers["content-type"].startswith("multipart/form-data; boundary=")
    sent = _parts(req)
    assert sent == json.loads("[" + ",".join(SAVED_OBJECTS.read_text().splitlines()) + "]")
    assert result.ok and result.success_count == 9
    assert ("dashboard", "wikicheck-overview", "wikicheck: index overview") in result.objects


def test_setup_into_a_space_uses_the_space_path():
    kibana = Recorder()
    setup_kibana("http://k:5601", space="research", client=kibana.client())
    assert kibana.requests[0].url.path == "/s/research/api/saved_objects/_import"


def test_rejected_objects_are_reported_per_object():
    answer = {
        "success": False,
        "successCount": 8,
        "successResults": [],
        "errors": [
            {
                "id": "wikicheck-overview",
                "type": "dashboard",
                "error": {
                    "type": "missing_references",
                    "references": [{"type": "lens", "id": "x"}],
                },
            }
        ],
    }
    result = setup_kibana("http://k:5601", client=Recorder(answer).client())
    assert not result.ok
    assert result.errors == ["dashboard:wikicheck-overview: missing_references (missing lens:x)"]


def test_http_error_and_unreachable_kibana_are_clear_errors():
    with pytest.raises(KibanaError) as exc:
        setup_kibana("http://k:5601", client=Recorder({"message": "no"}, status=400).client())
    assert str(exc.value).startswith("Kibana at http://k:5601 refused the import: HTTP 400 ")

    def down(request):
        raise httpx.ConnectError("Connection refused")

    client = httpx.Client(transport=httpx.MockTransport(down))
    with pytest.raises(KibanaError) as exc:
        setup_kibana("http://k:5601", client=client)
    assert str(exc.value) == (
        "cannot reach Kibana at http://k:5601 (ConnectError: Connection refused): is it "
        "running? (`docker compose up -d kibana`)"
    )


def test_wait_polls_status_until_ready():
    answers = iter([503, 503, 200])
    seen = []

    def handler(request):
        seen.append(request.url.path)
        return httpx.Response(next(answers))

    wait_for_kibana(
        "http://k:5601", client=httpx.Client(transport=httpx.MockTransport(handler)), interval=0
    )
    assert seen == ["/api/status"] * 3


def test_cli_imports_and_prints_json(monkeypatch):
    kibana = Recorder()
    import wikicheck.kibana as kib

    real = kib.setup_kibana
    monkeypatch.setattr(
        kib, "setup_kibana", lambda url, **kw: real(url, client=kibana.client(), **kw)
    )
    from wikicheck.cli.kibana import kibana_setup

    result = CliRunner().invoke(
        kibana_setup, ["--kibana", "http://k:5601", "--index-prefix", "w2", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["success_count"] == 9 and out["errors"] == []
    views = [o for o in _parts(kibana.requests[0]) if o["type"] == "index-pattern"]
    assert sorted(v["attributes"]["title"] for v in views) == ["w2-elements", "w2-pages"]
