// The review page: sanitize a document through /v1/sanitize, review every replacement
// (accept, reject, edit), re-check the edited text through /v1/assess, and export the
// final text with a decision log. Offsets in reports are code points; so are the
// arrays of characters here (Array.from).
"use strict";

const $ = (id) => document.getElementById(id);
const REMOVAL_MARKER = "***";
const MEASURED = new Set(["corpus", "remote", "blended"]);

const state = {
  docId: "document",
  original: [],      // the original text, as code points
  sanitized: "",
  protect: [],
  items: [],         // one per replacement: report fields + alignment + decision
  selected: -1,
  recheck: null,     // the last re-check's result
  overBudget: [],    // the report's targets whose disclosure stays over their budget
};

function status(message, error) {
  const el = $("status");
  el.textContent = message;
  el.classList.toggle("error", Boolean(error));
}

function headers() {
  const h = { "Content-Type": "application/json" };
  const token = $("token").value.trim();
  if (token) h.Authorization = "Bearer " + token;
  return h;
}

async function post(route, body) {
  const response = await fetch(route, { method: "POST", headers: headers(), body: JSON.stringify(body) });
  const text = await response.text();
  let value;
  try { value = JSON.parse(text); } catch (_) { value = null; }
  if (!response.ok) {
    throw new Error((value && value.error) || ("HTTP " + response.status));
  }
  return value;
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
  state.recheck = null;
  $("flags").textContent = "";
  $("exported").hidden = true;
  $("review").hidden = false;
  render();
  $("summary").textContent = state.items.length + " replacement" + (state.items.length === 1 ? "" : "s") +
    " · strategy " + report.strategy + " · counts from " + report.counts_from +
    (report.utility ? " · utility kept " + (report.utility.ratio * 100).toFixed(1) + "%" : "");
  status("Review each highlighted replacement, then re-check and export.");
}

// A report's original text: the replacements' originals put back where the sanitized
// text has them (for a report opened from a file, which does not carry the original).
function originalFromReport(report) {
  const san = Array.from(report.sanitized_text);
  const out = [];
  let o = 0;
  let s = 0;
  for (const r of report.replacements) {
    if (r.original === null) throw new Error("a redacted report has no originals to review");
    const gapLength = r.start - o;
    out.push(...san.slice(s, s + gapLength));
    const piece = r.replacement === null ? REMOVAL_MARKER : r.replacement;
    s += gapLength + Array.from(piece).length;
    out.push(...Array.from(r.original));
    o = r.end;
  }
  out.push(...san.slice(s));
  return out.join("");
}

function render() {
  const output = $("output");
  output.textContent = "";
  let o = 0;
  state.items.forEach((item) => {
    const r = item.report;
    const gap = item.decision.choice === "accept" ? item.sanitizedGap : item.originalGap;
    output.append(document.createTextNode(gap));
    const mark = document.createElement("mark");
    mark.tabIndex = 0;
    mark.dataset.index = String(item.index);
    mark.textContent = item.decision.value;
    if (item.decision.by === "reviewer") mark.classList.add(item.decision.choice === "accept" ? "accepted" : item.decision.choice === "reject" ? "rejected" : "edited");
    if (item.flagged) mark.classList.add("flagged");
    if (item.index === state.selected) mark.classList.add("selected");
    mark.setAttribute("role", "button");
    mark.setAttribute("aria-label", "replacement " + (item.index + 1) + ": " + item.decision.value);
    output.append(mark);
    o = r.end;
  });
  output.append(document.createTextNode(state.original.slice(o).join("")));
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
  state.selected = index;
  const item = state.items[index];
  const r = item.report;
  $("detail").hidden = false;
  $("d-index").textContent = (index + 1) + " of " + state.items.length;
  $("d-original").textContent = r.original;
  $("d-replacement").textContent = item.rendered;
  $("d-action").textContent = r.action + " (" + r.role + ")";
  $("d-why").textContent = why(r);
  $("d-origin").textContent = origin(r);
  $("d-bits").textContent = r.information.original_bits.toFixed(2) + " → " + r.information.kept_bits.toFixed(2) + " bits";
  $("d-decision").textContent = item.decision.choice + " (" + item.decision.by + ")";
  $("edit-value").value = item.decision.value;
  render();
  if (focus) {
    const mark = document.querySelector('mark[data-index="' + index + '"]');
    if (mark) mark.focus();
  }
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

function finalText() {
  let out = "";
  for (const item of state.items) {
    out += item.decision.choice === "accept" ? item.sanitizedGap : item.originalGap;
    out += item.decision.value;
  }
  const last = state.items.length ? state.items[state.items.length - 1].report.end : 0;
  return out + state.original.slice(last).join("");
}

function decisionLog() {
  return {
    doc_id: state.docId,
    protect: state.protect,
    decisions: state.items.map((item) => ({
      replacement: item.index + 1,
      start: item.report.start,
      end: item.report.end,
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
    recheck: state.recheck,
  };
}

async function sanitize() {
  const text = $("doc").value;
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

// The final text assessed again, with the mentions of the protected targets the engine
// replaced put back (the engine replaces them again): without them the edited text names
// no one, and nothing in it could be risky towards anyone. Whatever else the engine would
// now replace is flagged: a rejected or edited replacement that became risky, or a new one.
async function recheck() {
  let text = "";
  const restored = [];
  const spans = [];
  const length = () => Array.from(text).length;
  for (const item of state.items) {
    const accepted = item.decision.choice === "accept";
    const target = accepted && item.report.role === "sensitive";
    text += accepted && !target ? item.sanitizedGap : item.originalGap;
    const start = length();
    text += target ? item.report.original : item.decision.value;
    spans.push([start, length()]);
    if (target) restored.push([start, length()]);
  }
  const last = state.items.length ? state.items[state.items.length - 1].report.end : 0;
  text += state.original.slice(last).join("");
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
    render();
    status("Re-checked.");
  } catch (e) {
    status("Re-check failed (nothing was assessed): " + e.message, true);
  }
}

function exportAll() {
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
  status(risks.length === 0 ? "Exported." : "Exported, still risky: review the warning before release.");
}

$("sanitize").addEventListener("click", sanitize);
$("recheck").addEventListener("click", recheck);
$("export").addEventListener("click", exportAll);
$("accept").addEventListener("click", () => decide("accept"));
$("reject").addEventListener("click", () => decide("reject"));
$("edit").addEventListener("click", () => decide("edit", $("edit-value").value));
$("edit-value").addEventListener("keydown", (e) => {
  if (e.key === "Enter") { e.preventDefault(); decide("edit", $("edit-value").value); }
});
$("output").addEventListener("click", (e) => {
  const mark = e.target.closest("mark");
  if (mark) select(Number(mark.dataset.index), true);
});
$("output").addEventListener("keydown", (e) => {
  const mark = e.target.closest("mark");
  if (!mark) return;
  const index = Number(mark.dataset.index);
  const keys = {
    Enter: () => select(index, true), " ": () => select(index, true),
    a: () => { select(index, false); decide("accept"); },
    r: () => { select(index, false); decide("reject"); },
    e: () => { select(index, false); $("edit-value").focus(); },
    n: () => select(Math.min(index + 1, state.items.length - 1), true),
    p: () => select(Math.max(index - 1, 0), true),
  };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
$("upload").addEventListener("change", async () => {
  const file = $("upload").files[0];
  if (!file) return;
  const text = await file.text();
  let report = null;
  if (/\.json$/i.test(file.name)) {
    try { report = JSON.parse(text); } catch (e) { status(file.name + ": not JSON: " + e.message, true); return; }
  }
  if (report && typeof report.sanitized_text === "string" && Array.isArray(report.replacements)) {
    try {
      const original = originalFromReport(report);
      $("doc").value = original;
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
    status("Opened " + file.name + ": name the persons to protect and press Sanitize.");
  }
});
