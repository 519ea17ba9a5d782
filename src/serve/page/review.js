// The review page: sanitize a document through /v1/sanitize, review every replacement
// (accept, reject, edit), re-check the edited text through /v1/assess, and export the
// final text with a decision log. A file in its own format (Word, OpenDocument, HTML,
// Markdown: anything but a text or a report) is uploaded, its bytes kept here, and
// exported in its format through /v1/render with the reviewed decisions as edits; the
// service keeps nothing between requests. Offsets in reports are code points; so are the
// arrays of characters here (Array.from), and the decision log's offsets into the
// original and the exported text. The document is built once per report: selecting and
// deciding touch only the replacement concerned, so moving through a long document stays
// as quick as through a short one. One replacement at a time is a Tab stop (a roving tab
// index); the keys move between them.
"use strict";

const $ = (id) => document.getElementById(id);
const REMOVAL_MARKER = "***";
const MEASURED = new Set(["corpus", "remote", "blended"]);
// The width below which the details open over the page (review.css).
const NARROW = window.matchMedia("(max-width: 800px)");

const state = {
  docId: "document",
  original: [],      // the original text, as code points
  sanitized: "",
  protect: [],
  items: [],         // one per replacement: report fields + alignment + decision
  selected: -1,
  recheck: null,     // the last re-check's result
  overBudget: [],    // the report's targets whose disclosure stays over their budget
  current: 0,        // the replacement that is the document's Tab stop
  uploaded: null,    // a file's text as read ({raw, shown}): a text box turns CRLF into LF
  file: null,        // a file in its own format ({blob, name, uploadName, shown})
};

function status(message, error) {
  const el = $("status");
  el.textContent = message;
  el.classList.toggle("error", Boolean(error));
}

function headers(json) {
  const h = json ? { "Content-Type": "application/json" } : {};
  const token = $("token").value.trim();
  if (token) h.Authorization = "Bearer " + token;
  return h;
}

// A JSON body, or a form (FormData, sent as multipart/form-data) as it is.
async function send(route, body) {
  const form = body instanceof FormData;
  const response = await fetch(route, {
    method: "POST", headers: headers(!form), body: form ? body : JSON.stringify(body),
  });
  if (!response.ok) await refusal(response);
  return response;
}

// Throws the service's error message.
async function refusal(response) {
  let value = null;
  try { value = JSON.parse(await response.text()); } catch (_) { value = null; }
  throw new Error((value && value.error) || ("HTTP " + response.status));
}

async function post(route, body) {
  const response = await send(route, body);
  const text = await response.text();
  try { return JSON.parse(text); } catch (_) { throw new Error("the service's answer is not JSON"); }
}

function protectList() {
  return $("protect").value.split("\n").map((s) => s.trim()).filter(Boolean);
}

function requestBody(text) {
  const body = { text, id: state.docId, protect: state.protect, format: "json" };
  const strategy = $("strategy").value;
  if (strategy) body.strategy = strategy;
  return body;
}

// Where each replacement sits in the sanitized text: the gap before it (which may differ
// from the original's by the article "a"/"an" agreeing with the replacement) and the
// text it became there (capitalized at a sentence start).
function align(original, sanitized, replacements) {
  const san = Array.from(sanitized);
  let o = 0;
  let s = 0;
  return replacements.map((r, i) => {
    const gapLength = r.start - o;
    const originalGap = original.slice(o, r.start).join("");
    const piece = r.replacement === null ? REMOVAL_MARKER : r.replacement;
    const pieceLength = Array.from(piece).length;
    let shift = 0;
    for (const d of [0, 1, -1, 2, -2]) {
      const at = s + gapLength + d;
      if (at < s || at + pieceLength > san.length) continue;
      if (san.slice(at, at + pieceLength).join("").toLowerCase() === piece.toLowerCase()) {
        shift = d;
        break;
      }
    }
    const at = s + gapLength + shift;
    const rendered = san.slice(at, at + pieceLength).join("") || piece;
    const item = {
      index: i,
      report: r,
      sanitizedGap: san.slice(s, at).join(""),
      originalGap,
      rendered,
      decision: { choice: "accept", by: "engine", value: rendered },
    };
    s = at + pieceLength;
    o = r.end;
    return item;
  });
}

// The report's targets left over their budget, as a reader should see them.
function overBudgetText(over) {
  return over.map((d) => "“" + d.target + "” (" + d.published_bits.toFixed(2) + " bits published against a budget of " +
    d.budget_bits.toFixed(2) + ")").join(", ");
}

function load(report, originalText) {
  state.docId = report.doc_id || "document";
  state.overBudget = (report.disclosure || []).filter((d) => !d.within_budget);
  const warning = $("budget-warning");
  warning.hidden = state.overBudget.length === 0;
  warning.textContent = state.overBudget.length === 0 ? "" :
    "Over budget: the engine could not bring " + overBudgetText(state.overBudget) +
    " within budget. The text still gives " + (state.overBudget.length === 1 ? "it" : "them") +
    " away: edit the terms that do before release.";
  state.sanitized = report.sanitized_text;
  state.original = Array.from(originalText);
  state.items = align(state.original, report.sanitized_text, report.replacements);
  state.selected = -1;
  state.current = 0;
  state.recheck = null;
  $("detail").hidden = true;
  document.body.classList.remove("detail-open");
  $("flags").textContent = "";
  showHiddenContent(report.hidden_content || []);
  $("exported").hidden = true;
  $("review").hidden = false;
  render();
  $("summary").textContent = state.items.length + " replacement" + (state.items.length === 1 ? "" : "s") +
    " · strategy " + report.strategy + " · counts from " + report.counts_from +
    (report.utility ? " · utility kept " + (report.utility.ratio * 100).toFixed(1) + "%" : "");
  status("Review each highlighted replacement, then re-check and export.");
}

// What a file held beside its text and what the release does with it (the report's
// `hidden_content`), listed above the document.
function showHiddenContent(hidden) {
  const list = $("hidden-list");
  list.textContent = "";
  for (const h of hidden) {
    const li = document.createElement("li");
    li.textContent = h.part + ": " + h.content + " — " + h.action + (h.count > 1 ? " (" + h.count + ")" : "");
    list.append(li);
  }
  $("hidden-content").hidden = hidden.length === 0;
}

// A report's original text: the replacements' originals put back where the sanitized
// text has them (for a report opened from a file, and for an uploaded file, whose text
// the service reads: the report does not carry the original). The gaps between
// replacements differ only where an article was made to agree with the replacement after
// it ("a" and "an"), which is undone; a gap that differs otherwise is refused rather than
// reviewed on a text that is not the document's.
function originalFromReport(report) {
  const san = Array.from(report.sanitized_text);
  const out = [];
  let o = 0;
  let s = 0;
  for (const [i, r] of report.replacements.entries()) {
    if (r.original === null) throw new Error("a redacted report has no originals to review");
    const gapLength = r.start - o;
    const piece = Array.from(r.replacement === null ? REMOVAL_MARKER : r.replacement);
    const found = [0, 1, -1].map((d) => s + gapLength + d).find((at) => at >= s &&
      san.slice(at, at + piece.length).join("").toLowerCase() === piece.join("").toLowerCase());
    if (found === undefined) throw new Error("replacement " + (i + 1) + " is not where the sanitized text has it");
    let gap = san.slice(s, found).join("");
    if (found - s === gapLength + 1) gap = gap.replace(/\b([aA])n(\s*)$/u, "$1$2");
    else if (found - s === gapLength - 1) gap = gap.replace(/\b([aA])(\s*)$/u, "$1n$2");
    if (Array.from(gap).length !== gapLength) throw new Error("the text before replacement " + (i + 1) + " is not the original's");
    out.push(...Array.from(gap), ...Array.from(r.original));
    s = found + piece.length;
    o = r.end;
  }
  out.push(...san.slice(s));
  return out.join("");
}

// Builds the document: each replacement a mark after the text node of its gap, both kept
// on the item so a decision changes only them.
function render() {
  const output = $("output");
  output.textContent = "";
  let o = 0;
  state.items.forEach((item) => {
    item.gapNode = document.createTextNode("");
    item.mark = document.createElement("mark");
    item.mark.dataset.index = String(item.index);
    item.mark.setAttribute("role", "button");
    output.append(item.gapNode, item.mark);
    refresh(item);
    o = item.report.end;
  });
  output.append(document.createTextNode(state.original.slice(o).join("")));
}

// Shows one replacement as its decision, flag and selection have it.
function refresh(item) {
  const accepted = item.decision.choice === "accept";
  item.gapNode.data = accepted ? item.sanitizedGap : item.originalGap;
  const mark = item.mark;
  mark.textContent = item.decision.value;
  mark.tabIndex = item.index === state.current ? 0 : -1;
  mark.className = "";
  if (item.decision.by === "reviewer") mark.classList.add(accepted ? "accepted" : item.decision.choice === "reject" ? "rejected" : "edited");
  if (item.flagged) mark.classList.add("flagged");
  if (item.index === state.selected) mark.classList.add("selected");
  mark.setAttribute("aria-label", "replacement " + (item.index + 1) + " of " + state.items.length + ": " +
    item.decision.value + (item.flagged ? " (flagged by the re-check)" : ""));
}

function origin(report) {
  if (report.role === "sensitive" || report.reasons.length === 0) return "detector finding";
  const origins = [...new Set(report.reasons.map((x) => x.origin))];
  const kind = origins.every((x) => MEASURED.has(x)) ? "measured" : origins.some((x) => MEASURED.has(x)) ? "measured and bound" : "bound";
  return kind + " (" + origins.join(", ") + ")";
}

function why(report) {
  if (report.reasons.length === 0) return "detector " + report.source;
  return report.reasons.map((x) => x.rule + ": " + x.dr_bits.toFixed(2) + " bits towards " +
    (x.sensitive === null ? "a target" : x.sensitive) + (x.together_with ? " (with " + x.together_with + ")" : "")).join("; ") +
    " · generalized by " + report.source;
}

function select(index, focus) {
  if (index < 0 || index >= state.items.length) return;
  const previous = [state.selected, state.current];
  state.selected = index;
  state.current = index;
  const item = state.items[index];
  const r = item.report;
  $("detail").hidden = false;
  document.body.classList.add("detail-open");
  $("d-index").textContent = (index + 1) + " of " + state.items.length;
  $("d-original").textContent = r.original;
  $("d-replacement").textContent = item.rendered;
  $("d-action").textContent = r.action + " (" + r.role + ")";
  $("d-why").textContent = why(r);
  $("d-origin").textContent = origin(r);
  $("d-bits").textContent = r.information.original_bits.toFixed(2) + " → " + r.information.kept_bits.toFixed(2) + " bits";
  $("d-decision").textContent = item.decision.choice + " (" + item.decision.by + ")";
  $("edit-value").value = item.decision.value;
  for (const i of new Set([...previous, index])) if (i >= 0 && i < state.items.length) refresh(state.items[i]);
  if (focus) {
    item.mark.focus({ preventScroll: true });
    // Where the details cover the bottom of the screen, the replacement is brought to
    // the middle, above them; elsewhere only into view.
    item.mark.scrollIntoView({ block: NARROW.matches ? "center" : "nearest" });
  }
}

function closeDetail() {
  $("detail").hidden = true;
  document.body.classList.remove("detail-open");
  const item = state.items[state.current];
  if (item) item.mark.focus();
}

function decide(choice, value) {
  if (state.selected < 0) return;
  const item = state.items[state.selected];
  const v = choice === "accept" ? item.rendered : choice === "reject" ? item.report.original : value;
  item.decision = { choice, by: "reviewer", value: v };
  item.flagged = false;
  state.recheck = null;
  select(state.selected, true);
  status("Replacement " + (state.selected + 1) + ": " + choice + ".");
}

// The text as it will be released and the text the re-check assesses (the protected
// targets' mentions the engine replaced put back: without them the edited text names no
// one, and nothing in it could be risky towards anyone), with the pieces both are made of:
// for each, where it lies in either text and whether it reads the same in both.
function layout() {
  const out = { final: "", recheck: "", pieces: [], spans: [], restored: [] };
  let f = 0;
  let c = 0;
  const add = (finalPiece, recheckPiece) => {
    const fl = Array.from(finalPiece).length;
    const cl = Array.from(recheckPiece).length;
    out.final += finalPiece;
    out.recheck += recheckPiece;
    const piece = { f: [f, f + fl], c: [c, c + cl], same: finalPiece === recheckPiece };
    out.pieces.push(piece);
    f += fl;
    c += cl;
    return piece;
  };
  for (const item of state.items) {
    const accepted = item.decision.choice === "accept";
    const target = accepted && item.report.role === "sensitive";
    const gap = accepted ? item.sanitizedGap : item.originalGap;
    add(gap, target ? item.originalGap : gap);
    const piece = add(item.decision.value, target ? item.report.original : item.decision.value);
    out.spans.push(piece);
    if (target) out.restored.push(piece.c);
  }
  const last = state.items.length ? state.items[state.items.length - 1].report.end : 0;
  const rest = state.original.slice(last).join("");
  add(rest, rest);
  return out;
}

// An offset into the re-checked text, as an offset into the released text: inside a piece
// that reads the same in both it moves with the piece; inside one that differs (a target
// put back) it is the piece's start, or its end for the end of a span.
function releasedOffset(pieces, offset, isEnd) {
  for (const p of pieces) {
    const inside = isEnd ? offset > p.c[0] && offset <= p.c[1] : offset >= p.c[0] && offset < p.c[1];
    if (!inside) continue;
    if (p.same) return p.f[0] + (offset - p.c[0]);
    return isEnd ? p.f[1] : p.f[0];
  }
  return pieces.length ? pieces[pieces.length - 1].f[1] : 0;
}

function finalText() {
  return layout().final;
}

// Every decision with its offsets into the original and into the exported text; the
// re-check's flags with theirs into the exported text.
function decisionLog() {
  const placed = layout();
  return {
    doc_id: state.docId,
    protect: state.protect,
    offsets: "code points: original_* into the original text, published_* and the flags' into the exported text",
    decisions: state.items.map((item, i) => ({
      replacement: item.index + 1,
      original_start: item.report.start,
      original_end: item.report.end,
      published_start: placed.spans[i].f[0],
      published_end: placed.spans[i].f[1],
      original: item.report.original,
      proposed: item.rendered,
      published: item.decision.value,
      choice: item.decision.choice,
      by: item.decision.by,
      action: item.report.action,
      role: item.report.role,
      source: item.report.source,
      reasons: item.report.reasons,
    })),
    recheck: state.recheck && {
      flagged: state.recheck.flagged.map((f) => ({
        ...f,
        start: releasedOffset(placed.pieces, f.start, false),
        end: releasedOffset(placed.pieces, f.end, true),
      })),
    },
  };
}

async function sanitize() {
  if (state.file && state.file.shown === $("doc").value) { await sanitizeFile(); return; }
  // The text was edited since the file was opened: it is sanitized as text.
  state.file = null;
  const shown = $("doc").value;
  // A file's own line endings, unless the text was edited since it was opened.
  const text = state.uploaded && state.uploaded.shown === shown ? state.uploaded.raw : shown;
  if (!text.trim()) { status("Paste or open a document first.", true); return; }
  state.protect = protectList();
  state.docId = "document";
  status("Sanitizing…");
  try {
    const report = await post("/v1/sanitize", requestBody(text));
    load(report, text);
  } catch (e) {
    status("Not sanitized: " + e.message, true);
  }
}

// The file uploaded in its own format (its name is not sent: only its extension, which
// tells formats apart); its text, as the service read it, is shown for review.
async function sanitizeFile() {
  state.protect = protectList();
  state.docId = "document";
  const body = new FormData();
  body.append("file", state.file.blob, state.file.uploadName);
  for (const person of state.protect) body.append("protect", person);
  const strategy = $("strategy").value;
  if (strategy) body.append("strategy", strategy);
  status("Sanitizing " + state.file.name + "…");
  try {
    const report = await post("/v1/sanitize", body);
    const original = originalFromReport(report);
    $("doc").value = original;
    state.file.shown = $("doc").value;
    load(report, original);
  } catch (e) {
    status("Not sanitized: " + e.message, true);
  }
}

// The reviewed decisions as edits over the original text (code points), as /v1/render
// takes them: each replacement whose published text differs from the original, from the
// start of an article made to agree with it. With every replacement accepted they are
// the engine's own edits, so the file is the one `format=file` answers.
function fileEdits() {
  const edits = [];
  let o = 0;
  for (const item of state.items) {
    const r = item.report;
    const published = Array.from(item.decision.choice === "accept" ? item.sanitizedGap : item.originalGap);
    const gap = Array.from(item.originalGap);
    let p = 0;
    while (p < gap.length && p < published.length && gap[p] === published[p]) p++;
    if (p === gap.length && p === published.length) {
      if (item.decision.value !== item.report.original) edits.push({ start: r.start, end: r.end, text: item.decision.value });
    } else {
      while (p > 0 && /\p{L}/u.test(gap[p - 1])) p--;
      edits.push({ start: o + p, end: r.end, text: published.slice(p).join("") + item.decision.value });
    }
    o = r.end;
  }
  return edits;
}

// The edited text assessed again (see `layout`). Whatever the engine would now replace is
// flagged: a rejected or edited replacement that became risky, or a new one.
async function recheck() {
  const placed = layout();
  const text = placed.recheck;
  const restored = placed.restored;
  const spans = placed.spans.map((p) => p.c);
  status("Re-checking the edited text…");
  try {
    const answer = await post("/v1/assess", requestBody(text));
    const overlaps = (r, [start, end]) => r.start < end && start < r.end;
    const flagged = answer.replacements
      .filter((r) => !restored.some((span) => overlaps(r, span)))
      .map((r) => ({
        start: r.start, end: r.end, term: r.original, engine_would_publish: r.replacement,
        role: r.role, source: r.source,
      }));
    state.items.forEach((item, i) => {
      item.flagged = item.decision.by === "reviewer" && item.decision.choice !== "accept" &&
        flagged.some((f) => overlaps(f, spans[i]));
    });
    state.recheck = { flagged };
    const list = document.createElement("ul");
    for (const f of flagged) {
      const li = document.createElement("li");
      li.className = "flag";
      li.textContent = "“" + f.term + "” is risky: the engine would publish " +
        (f.engine_would_publish === null ? "nothing" : "“" + f.engine_would_publish + "”") + " (" + f.source + ")";
      list.append(li);
    }
    const flags = $("flags");
    flags.textContent = "";
    const heading = document.createElement("p");
    heading.id = "recheck-result";
    heading.textContent = flagged.length === 0 ? "Re-check: nothing in the edited text is risky." :
      "Re-check: " + flagged.length + " term" + (flagged.length === 1 ? " is" : "s are") + " risky in the edited text.";
    flags.append(heading, list);
    state.items.forEach(refresh);
    status("Re-checked.");
  } catch (e) {
    status("Re-check failed (nothing was assessed): " + e.message, true);
  }
}

// The file written in its own format with the reviewed decisions, offered for download
// as `released.EXT` (the extension of the service's fixed name for its format).
async function exportFile() {
  const link = $("download-file");
  link.hidden = true;
  const body = new FormData();
  body.append("file", state.file.blob, state.file.uploadName);
  body.append("edits", JSON.stringify(fileEdits()));
  try {
    const response = await send("/v1/render", body);
    const named = /filename="[^".]*(\.[A-Za-z0-9]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const blob = await response.blob();
    if (link.href) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(blob);
    link.download = "released" + (named ? named[1] : "");
    link.textContent = "Download the released file (" + link.download + ")";
    link.hidden = false;
    return true;
  } catch (e) {
    status("The file was not written (nothing to download): " + e.message, true);
    return false;
  }
}

async function exportAll() {
  const text = finalText();
  const log = JSON.stringify(decisionLog(), null, 2);
  $("final-text").textContent = text;
  $("decision-log").textContent = log;
  $("download-text").href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  $("download-log").href = URL.createObjectURL(new Blob([log], { type: "application/json" }));
  $("exported").hidden = false;
  // What is still risky is said again where the text leaves the page.
  const risks = [];
  if (state.overBudget.length) risks.push("over budget: " + overBudgetText(state.overBudget));
  if (!state.recheck) risks.push("not re-checked since the last change");
  else if (state.recheck.flagged.length) {
    risks.push(state.recheck.flagged.length + " term" + (state.recheck.flagged.length === 1 ? "" : "s") +
      " flagged by the re-check: " + state.recheck.flagged.map((f) => "“" + f.term + "”").join(", "));
  }
  const warning = $("export-warning");
  warning.hidden = risks.length === 0;
  warning.textContent = risks.length === 0 ? "" : "Still risky — " + risks.join("; ") + ".";
  $("download-file").hidden = true;
  if (state.file && !(await exportFile())) return;
  status(risks.length === 0 ? "Exported." : "Exported, still risky: review the warning before release.");
}

$("sanitize").addEventListener("click", sanitize);
$("recheck").addEventListener("click", recheck);
$("export").addEventListener("click", exportAll);
$("accept").addEventListener("click", () => decide("accept"));
$("reject").addEventListener("click", () => decide("reject"));
$("edit").addEventListener("click", () => decide("edit", $("edit-value").value));
$("close-detail").addEventListener("click", closeDetail);
$("edit-value").addEventListener("keydown", (e) => {
  if (e.key === "Enter") { e.preventDefault(); decide("edit", $("edit-value").value); }
  if (e.key === "Escape") {
    e.preventDefault();
    const item = state.items[state.selected];
    if (item) { $("edit-value").value = item.decision.value; item.mark.focus(); }
  }
});
$("output").addEventListener("click", (e) => {
  const mark = e.target.closest("mark");
  if (mark) select(Number(mark.dataset.index), true);
});
$("output").addEventListener("keydown", (e) => {
  const mark = e.target.closest("mark");
  if (!mark || e.ctrlKey || e.metaKey || e.altKey) return;
  const index = Number(mark.dataset.index);
  const next = () => select(Math.min(index + 1, state.items.length - 1), true);
  const previous = () => select(Math.max(index - 1, 0), true);
  const keys = {
    Enter: () => select(index, true), " ": () => select(index, true),
    a: () => { select(index, false); decide("accept"); },
    r: () => { select(index, false); decide("reject"); },
    e: () => { select(index, false); $("edit-value").focus(); },
    n: next, ArrowRight: next, ArrowDown: next,
    p: previous, ArrowLeft: previous, ArrowUp: previous,
    Home: () => select(0, true), End: () => select(state.items.length - 1, true),
    Escape: closeDetail,
  };
  if (keys[e.key]) { e.preventDefault(); e.stopPropagation(); keys[e.key](); }
});
// Re-check and export from anywhere in the review but a text field.
document.addEventListener("keydown", (e) => {
  if ($("review").hidden || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest("input, textarea, select")) return;
  const keys = { c: recheck, x: exportAll };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
$("upload").addEventListener("change", async () => {
  const file = $("upload").files[0];
  if (!file) return;
  state.uploaded = null;
  state.file = null;
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.name);
  if (extension && !/^(txt|text|json)$/i.test(extension[1])) {
    // Read by the service in its own format; kept here for the export.
    state.file = { blob: file, name: file.name, uploadName: "document." + extension[1].toLowerCase(), shown: "" };
    $("doc").value = "";
    status("Opened " + file.name + ": name the persons to protect and press Sanitize; its text is read by the service.");
    return;
  }
  const text = await file.text();
  let report = null;
  if (/\.json$/i.test(file.name)) {
    try { report = JSON.parse(text); } catch (e) { status(file.name + ": not JSON: " + e.message, true); return; }
  }
  if (report && typeof report.sanitized_text === "string" && Array.isArray(report.replacements)) {
    try {
      const original = originalFromReport(report);
      $("doc").value = original;
      state.uploaded = { raw: original, shown: $("doc").value };
      // Whom the report protected: without them a re-check would protect no one and
      // find nothing risky.
      state.protect = (report.disclosure || []).filter((d) => d.protected).map((d) => d.target);
      $("protect").value = state.protect.join("\n");
      load(report, original);
      status("Opened the report " + file.name + ".");
    } catch (e) {
      status(file.name + ": " + e.message, true);
    }
  } else if (report) {
    status(file.name + ": not a sanitize --format json report (no sanitized_text or replacements)", true);
  } else {
    $("doc").value = text;
    state.uploaded = { raw: text, shown: $("doc").value };
    status("Opened " + file.name + ": name the persons to protect and press Sanitize.");
  }
});
