// The page's behaviour: calls the JSON API (/verify, /retrieve, /search) and draws the answers.
// Every text from the server goes into the DOM as text (textContent), never as markup; tables are
// taken from the server-rendered, escaped /view page so one renderer draws every table.
"use strict";

(function () {
  const LABEL_CLASS = { "SUPPORTS": "supports", "REFUTES": "refutes", "NOT ENOUGH INFO": "nei" };
  const TABLE_TYPES = new Set(["cell", "header_cell", "table_caption"]);
  // Evidence shown at first: the verdict and the best few fit a screen, the search below stays
  // in reach; "Show all" opens the rest (a claim can bring 30 elements, 6,000 px of cards). The
  // few are /verify's shown_evidence (the items close to the best one's relevance, at most 8, no
  // header cell alone); a retrieval-only answer shows the best FIRST_EVIDENCE.
  const FIRST_EVIDENCE = 5;
  function firstIds(result) {
    const evidence = result.evidence || [];
    if (Array.isArray(result.shown_evidence) && result.shown_evidence.length) {
      return new Set(result.shown_evidence);
    }
    return new Set(evidence.slice(0, FIRST_EVIDENCE).map((ev) => ev.id));
  }
  // A table where at least this share of the cells is evidence is drawn "mostly lit": the lit
  // cells carry a mark of their own and the table says how many, since colour alone no longer
  // tells a mostly lit table from an unlit one.
  const MOSTLY_LIT = 0.5;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function viewUrl(title, ids) {
    const url = "/view/" + encodeURIComponent(title);
    return ids && ids.length ? url + "?highlight=" + encodeURIComponent(ids.join(",")) : url;
  }

  function setStatus(node, text, kind) {
    node.textContent = text || "";
    node.className = "status" + (kind ? " " + kind : "");
  }

  // A failed response as one readable sentence: the API's {"detail": ...} or the status text.
  async function failure(response) {
    let detail = "";
    try {
      const body = await response.json();
      const said = body.detail ?? body.error ?? body.status ?? body;
      detail = typeof said === "string" ? said : JSON.stringify(said);
    } catch (err) {
      detail = response.statusText || "no explanation given";
    }
    detail = detail.replace(/(^|; )(body|query)\./g, "$1");
    const what = response.status === 503 ? "The server is not ready" :
      response.status >= 500 ? "The server failed" : "The server refused this request";
    return `${what} (${response.status}): ${detail}`;
  }

  // The server's API key (`wikicheck serve --api-key`): asked for once, when a call answers
  // 401, and kept in this tab's sessionStorage (gone when the tab closes); every call sends it as
  // "Authorization: Bearer KEY". A server without a key never answers 401, so nothing is asked.
  const KEY_ITEM = "wikicheck-api-key";

  function storedKey() {
    try {
      return sessionStorage.getItem(KEY_ITEM);
    } catch (err) {
      return null;  // storage disabled: the key is asked for again
    }
  }

  function withKey(options, key) {
    const headers = { ...((options && options.headers) || {}) };
    if (key) headers["Authorization"] = "Bearer " + key;
    return { ...(options || {}), headers };
  }

  // fetch with the key; on a 401 ask for the key (unless another call already stored a new one
  // meanwhile) and send the request once more with it.
  async function keyedFetch(url, options) {
    const sent = storedKey();
    const response = await fetch(url, withKey(options, sent));
    if (response.status !== 401) return response;
    let key = storedKey();
    if (!key || key === sent) {
      const typed = window.prompt("This server needs its API key (wikicheck serve --api-key):");
      if (!typed || !typed.trim()) return response;
      key = typed.trim();
      try {
        sessionStorage.setItem(KEY_ITEM, key);
      } catch (err) { /* kept for this one request only */ }
    }
    return fetch(url, withKey(options, key));
  }

  async function call(url, options) {
    let response;
    try {
      response = await keyedFetch(url, options);
    } catch (err) {
      return { error: `Could not reach the server: ${err.message}` };
    }
    if (!response.ok) return { error: await failure(response), status: response.status };
    return { data: await response.json() };
  }

  function postJson(url, body) {
    return call(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  // -- context lines shared by evidence and search hits ----------------------------------------

  function contextLine(item, highlightIds) {
    const line = el("div", { class: "ctx-line" },
      el("span", { class: "type", text: item.type.replace("_", " ") }),
      el("a", { class: "page-link", href: viewUrl(item.page, highlightIds || [item.id]),
                title: "open the whole page", text: item.page }));
    if (item.section_names && item.section_names.length) {
      line.append(el("span", { class: "sections", text: item.section_names.join(" › ") }));
    }
    const rows = item.row_header_texts || [], cols = item.col_header_texts || [];
    if (rows.length) line.append(el("span", { class: "row-headers", text: rows.join(" · ") }));
    else if (item.row_key) line.append(el("span", { class: "row-headers", text: item.row_key }));
    if (cols.length) line.append(el("span", { class: "col-headers", text: cols.join(" · ") }));
    line.append(el("code", { class: "id", text: item.id }));
    return line;
  }

  // -- tables drawn from the /view page ---------------------------------------------------------

  const pageCache = new Map();

  function fetchPage(title, ids) {
    const key = title + "\u0000" + ids.join(",");
    if (!pageCache.has(key)) {
      pageCache.set(key, keyedFetch(viewUrl(title, ids)).then(async (response) => {
        if (!response.ok) throw new Error(`the page view answered ${response.status}`);
        return new DOMParser().parseFromString(await response.text(), "text/html");
      }));
    }
    return pageCache.get(key);
  }

  // The table of `item` from its page's view, evidence cells marked (their rank shown), the
  // item's own cell in focus, headers of evidence half-lit and every other cell dimmed (CSS).
  async function drawTable(slot, item, pageIds, ranks, contextIds) {
    try {
      const doc = await fetchPage(item.page, pageIds);
      const table = doc.querySelector(`table[data-table="${Number(item.table)}"]`);
      if (!table) throw new Error(`table ${item.table} is not on the page`);
      const drawn = document.importNode(table, true);
      drawn.classList.add("evidence-table");
      for (const cell of drawn.querySelectorAll("[data-id]")) {
        const id = cell.dataset.id;
        if (ranks.has(id)) cell.dataset.rank = String(ranks.get(id));
        if (id === item.id) cell.classList.add("focus");
        if (contextIds.has(id) && !cell.classList.contains("hl")) cell.classList.add("ctx");
      }
      const note = markMostlyLit(drawn);
      slot.replaceChildren(...(note ? [note] : []), el("div", { class: "table-wrap" }, drawn));
    } catch (err) {
      slot.replaceChildren(el("p", { class: "warn", text: `The table could not be drawn: ${err.message}` }));
    }
  }

  // Mark `table` "mostly-lit" when most of its data cells (headers are context) are evidence;
  // returns the line saying so.
  function markMostlyLit(table) {
    const cells = table.querySelectorAll("td[data-id]").length;
    const lit = table.querySelectorAll("td.hl[data-id]").length;
    if (!cells || lit / cells < MOSTLY_LIT) return null;
    table.classList.add("mostly-lit");
    return el("p", { class: "lit-note", text: `${lit} of ${cells} data cells are evidence (marked ✓).` });
  }

  // -- verdict and evidence ---------------------------------------------------------------------

  function renderVerdict(node, result) {
    node.replaceChildren();
    node.hidden = false;
    const label = result.predicted_label;
    node.className = "verdict " + (LABEL_CLASS[label] || "");
    node.append(el("blockquote", { class: "claim", text: result.claim }));
    node.append(el("div", { class: "label", id: "verdict-label", text: label }));
    const probs = el("table", { class: "probs" });
    for (const [name, p] of Object.entries(result.probabilities || {})) {
      const meter = el("meter", { min: "0", max: "1", value: String(p) });
      probs.append(el("tr", {}, el("th", { text: name }), el("td", {}, meter),
        el("td", { class: "num", text: (100 * p).toFixed(1) + " %" })));
    }
    node.append(probs);
    // The table program executor's answer, as prediction rows carry it (wikicheck/verifier/predict.py):
    // rule (the operation), program (what it computed), rule_label, rule_applied.
    if (result.rule || result.program) {
      const applied = result.rule_applied === undefined ? "" :
        result.rule_applied ? "decided the verdict" : "overruled by the model";
      const box = el("div", { class: "program", id: "verdict-program" },
        el("span", { class: "what", text: "Table program" }));
      if (result.rule) box.append(" ", el("code", { class: "rule", text: result.rule }));
      if (result.rule_label) box.append(" ", el("span", { class: "rule-label", text: `says ${result.rule_label}` }));
      if (applied) box.append(" ", el("span", { class: "applied", text: `(${applied})` }));
      if (result.program) box.append(el("pre", { text: result.program }));
      node.append(box);
    }
  }

  function renderEvidence(list, result) {
    list.replaceChildren();
    const evidence = result.evidence || [];
    const used = new Set(result.read_evidence || result.used_evidence || []);
    const byPage = new Map();
    for (const ev of evidence) {
      if (!byPage.has(ev.page)) byPage.set(ev.page, []);
      byPage.get(ev.page).push(ev.id);
    }
    const contextIds = new Set(evidence.flatMap((ev) => ev.context || []));
    const ranks = new Map(evidence.map((ev, i) => [ev.id, i + 1]));
    const first = firstIds(result);
    // each table is drawn once, at its first item shown at first (else its first item)
    const drawAt = new Map();
    for (const pass of [true, false]) {
      evidence.forEach((ev, i) => {
        const key = ev.page + "\u0000" + ev.table;
        if (first.has(ev.id) === pass && !drawAt.has(key)) drawAt.set(key, i + 1);
      });
    }
    evidence.forEach((ev, i) => {
      const pageIds = byPage.get(ev.page);
      const li = el("li", { class: "ev " + ev.type, "data-id": ev.id },
        el("div", { class: "rank-line" },
          el("span", { class: "rank", text: `#${i + 1}` }),
          el("span", { class: "score", text: `score ${Number(ev.score).toFixed(3)}` }),
          used.has(ev.id) ? el("span", { class: "used", text: "read by the verifier" }) : null),
        contextLine(ev, pageIds));
      li.append(el("div", { class: "text", text: ev.text }));
      if (TABLE_TYPES.has(ev.type) && ev.table !== null && ev.table !== undefined) {
        const key = ev.page + "\u0000" + ev.table;
        if (drawAt.get(key) !== i + 1) {
          li.append(el("p", { class: "same-table", text: `In the table drawn at #${drawAt.get(key)}.` }));
        } else {
          const slot = el("div", { class: "table-slot", text: "Drawing the table…" });
          li.append(slot);
          drawTable(slot, ev, pageIds, ranks, contextIds);
        }
      }
      if (!first.has(ev.id)) {
        li.classList.add("more");
        li.hidden = true;
      }
      list.append(li);
    });
    if (!evidence.length) list.append(el("li", { class: "empty", text: "No evidence found in the index." }));
    const more = document.getElementById("evidence-more");
    more.replaceChildren();
    if (evidence.length > first.size) {
      const all = `Show all ${evidence.length} evidence elements`;
      const button = el("button", { type: "button", id: "show-all", class: "secondary",
                                    "aria-expanded": "false", "aria-controls": "evidence", text: all });
      button.addEventListener("click", () => {
        const open = button.getAttribute("aria-expanded") !== "true";
        for (const li of list.querySelectorAll("li.more")) li.hidden = !open;
        button.setAttribute("aria-expanded", String(open));
        button.textContent = open ? `Show the best ${first.size} only` : all;
      });
      more.append(button);
    }
  }

  // On submitting form `formId`: run(value, statusNode) with input `inputId`'s trimmed value, or
  // say `empty` in the status line when there is nothing to send.
  function onSubmit(formId, inputId, statusId, empty, run) {
    document.getElementById(formId).addEventListener("submit", (event) => {
      event.preventDefault();
      const status = document.getElementById(statusId);
      const value = document.getElementById(inputId).value.trim();
      if (value) run(value, status);
      else setStatus(status, empty, "error");
    });
  }

  let claimRequest = 0;

  async function verifyClaim(claim, status) {
    const verdict = document.getElementById("verdict");
    const list = document.getElementById("evidence");
    const mine = ++claimRequest;
    const button = document.getElementById("claim-submit");
    button.disabled = true;
    setStatus(status, "Checking the claim…", "busy");
    try {
      let answer = await postJson("/verify", { claim });
      let note = "";
      if (answer.status === 501) {  // started with --no-verifier: evidence only
        answer = await postJson("/retrieve", { claim });
        note = "This server has no verifier: evidence only.";
      }
      if (mine !== claimRequest) return;
      if (answer.error) {  // no stale verdict under the message
        setStatus(status, answer.error, "error");
        verdict.hidden = true;
        list.replaceChildren();
        document.getElementById("evidence-more").replaceChildren();
        return;
      }
      const n = answer.data.evidence.length;
      const k = firstIds(answer.data).size;
      const shown = n > k ? ` (the best ${k} shown)` : "";
      setStatus(status, note || `${n} evidence elements, best first${shown}.`, "done");
      if (answer.data.predicted_label) renderVerdict(verdict, answer.data);
      else verdict.hidden = true;
      renderEvidence(list, answer.data);
    } finally {
      if (mine === claimRequest) button.disabled = false;
    }
  }

  // -- search -----------------------------------------------------------------------------------

  async function search(q, status) {
    const hits = document.getElementById("hits");
    const params = new URLSearchParams({ q, k: "20" });
    const type = document.getElementById("type").value;
    const page = document.getElementById("page").value.trim();
    if (type) params.set("type", type);
    if (page) params.set("page", page);
    setStatus(status, "Searching…", "busy");
    const answer = await call("/search?" + params.toString());
    if (answer.error) {
      setStatus(status, answer.error, "error");
      hits.replaceChildren();
      return;
    }
    const found = answer.data.hits;
    setStatus(status, found.length ? `${found.length} hits, best first.` : "No hits.", "done");
    hits.replaceChildren(...found.map((hit) => el("li", { class: "hit " + hit.type, "data-id": hit.id },
      contextLine(hit),
      el("div", { class: "text", text: hit.text }),
      el("span", { class: "score", text: `score ${Number(hit.score).toFixed(3)}` }))));
  }

  // -- wiring -----------------------------------------------------------------------------------

  function setupHome() {
    const claim = document.getElementById("claim");
    const count = document.getElementById("claim-count");
    const max = claim.dataset.max ? Number(claim.dataset.max) : Infinity;
    claim.addEventListener("input", () => {
      count.textContent = String(claim.value.length);
      count.classList.toggle("over", claim.value.length > max);
    });
    claim.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        document.getElementById("claim-form").requestSubmit();
      }
    });
    onSubmit("claim-form", "claim", "status", "Type a claim to check first.", verifyClaim);
    onSubmit("search-form", "q", "search-status", "Type words to search for.", search);
    call("/health").then((answer) => {
      if (answer.error) setStatus(document.getElementById("status"), answer.error, "error");
    });
  }

  function setupView() {
    for (const table of document.querySelectorAll(".view table.wt")) {
      const note = markMostlyLit(table);
      if (note) table.before(note);
    }
    const first = document.querySelector(".view .hl");
    if (first) first.scrollIntoView({ block: "center" });
  }

  // With a key, a page link cannot be a plain navigation (a browser sends no Authorization
  // header with it): the view is fetched with the key and shown in this tab instead.
  async function openViewWithKey(event) {
    const link = event.target.closest && event.target.closest('a[href^="/view/"]');
    if (!link || !storedKey() || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) return;
    event.preventDefault();
    const response = await keyedFetch(link.getAttribute("href"));
    if (response.status === 401) {
      window.alert(await failure(response));
      return;
    }
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    history.pushState(null, "", link.getAttribute("href"));
    document.title = doc.title;
    document.body.replaceWith(document.importNode(doc.body, true));
    setupView();
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (document.getElementById("claim-form")) setupHome();
    setupView();
    document.addEventListener("click", openViewWithKey);
    window.addEventListener("popstate", () => window.location.reload());
  });
})();
