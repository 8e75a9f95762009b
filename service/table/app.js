// The referee's table page: set up a match, deal (server-shuffled or from the table), enter each
// action, see refusals with their rule, keep the ledger, undo, and carry the match from deal to
// deal. Everything entered is kept in the browser (IndexedDB) as it goes (store.js), and a write
// that fails is shown at once (the match stays on the page, with its export offered); entries made
// while the service is out of reach wait in a queue and are sent in order when it answers again.
// One tab of the browser owns a match at a time (tabs.js): another shows it read-only.
import { call, callWithSource, Problem, Unreachable, rulesLink, BASE } from "./api.js";
import { t, language, setLanguage, initialLanguage } from "./i18n.js";
import { resumeMatch, loadMatch, saveMatch, saveAgain, closeMatch, deleteMatch, listMatches,
         onStorageChange, storageFailure, matchCopy, fromCopy, newMatchId } from "./store.js";
import { tableLink, eventMatch, committedDeal, eventDeal, bodyHash, putResult, appendRecord, recordAppend, personName,
         CALL_REASONS, callReferee, refereeCall, cancelCall } from "./event.js";
import { reportedDealForm, refusalsAt, fieldOfPath } from "./reportform.js";
import { h, tid } from "./dom.js";
import { coordinate, owns, claim, takeOver, takingOver, announceSaved, ownedMatches, oneTabAtATime } from "./tabs.js";
import { buildRecord, recordDeals } from "./record.js";
import { cardLabel, isRed, publishedDeck, cardSort } from "./cards.js";
import { byDeck, canUndo, cardsLeft, handSizes, isFull, nextSeat, removeCard, tapCard, undoTap } from "./handentry.js";

const app = document.getElementById("app");
const appendTo = (el, ...children) => el.append(...children.filter((c) => c !== null && c !== undefined));
const net = document.getElementById("net");
let games = [];            // GET /v1/games, in the page's language
let tableSchemas = {};     // <Game>Table from the published spec: what lies face up at a physical deal
let gamesKept = false;     // `games` is the service worker's copy: the service was out of reach
let reachable = true;      // the service's last answer (false: out of reach, entries are queued)
let M = null;              // the match (saved); see store.js for its shape
// What the screen shows now (not saved: fetched again after a reload)
const ui = { seat: null, selected: [], legal: null, legalFor: null, refLegal: [], view: null, refView: null,
             refusal: null, notice: null, asking: null, picked: [], showAll: false, busy: false,
             draftSeat: null, setup: null, commenting: null, kept: [], scrollToAct: false };

// What the screen shows of one match, left behind when another opens (a new match, a kept one,
// an import): its seat chosen, cards selected, forms as filled in, sheets open.
function resetScreen() {
  Object.assign(ui, { seat: null, selected: [], legal: null, legalFor: null, refLegal: [], view: null, refView: null,
    refusal: null, notice: null, asking: null, picked: [], showAll: false, draftSeat: null, commenting: null,
    sheet: null, dealSheet: null, refForm: null, otherForm: null, refOpen: false, otherOpen: false, scrollToAct: false,
    report: null, reportForm: null, reportEdit: null });
}

function gameInfo(id = M && M.game) { return games.find((g) => g.id === id); }
function gameName(id) { const g = gameInfo(id); return g ? (g.names[language()] || g.names.en) : id; }
function currentDeal() { return M && M.deals.length ? M.deals[M.deals.length - 1] : null; }
function lastStep(d) { return d.steps.length ? d.steps[d.steps.length - 1] : null; }
function dealState(d) { const s = lastStep(d); return s ? s.state : d.answer.state; }
function dealToAct(d) { const s = lastStep(d); return s ? s.to_act : d.answer.to_act; }
function dealStatus(d) { const s = lastStep(d); return s ? s.status : d.answer.status; }
// Every change is kept, and an event's table pushes its result (once it differs from the last).
function save() { if (M) { keep(M); schedulePush(); } }
// Keep a match: only the tab that owns it writes it, and tells the other tabs it did (tabs.js):
// a tab showing it read-only would otherwise save its older copy over the owner's.
function keep(m, options) {
  if (!m || !owns(m.id)) return Promise.resolve(false);
  return saveMatch(m, options).then((ok) => { if (ok) announceSaved(m.id); return ok; });
}
// The match's host token (sealing): every deal of the match answers the same one.
function matchHostToken(before) {
  const deals = before ? M.deals.slice(0, M.deals.indexOf(before)) : M.deals;
  const d = [...deals].reverse().find((x) => x.answer && x.answer.host_token);
  return d ? d.answer.host_token : undefined;
}
// The referee key, kept for the browser tab's session (not on disk): asked once, not for every match.
const KEY_SLOT = "cardref.table.key";
function rememberKey(key) { try { if (key) sessionStorage.setItem(KEY_SLOT, key); } catch { /* kept in the match only */ } }
function rememberedKey() { try { return sessionStorage.getItem(KEY_SLOT) || ""; } catch { return ""; } }
function auth(seat) {
  const d = currentDeal();
  const tokens = d && d.answer && d.answer.seat_tokens;
  return { key: M.key || undefined, seatToken: tokens && seat ? tokens[seat] : undefined };
}

// ---- network state and the queue --------------------------------------------------------------
let retryTimer = null;
function setOnline(ok) {
  reachable = ok;
  const waiting = M && M.pending ? M.pending.length : 0;
  if (ok && !waiting) { net.hidden = true; net.textContent = ""; return; }
  net.hidden = false;
  net.textContent = ok ? `${waiting} ${t("queued")}` : `${t("offline")}${waiting ? ` · ${waiting} ${t("queued")}` : ""}`;
  net.dataset.testid = "net";
}
// A retry that finds the service still out of reach leaves the screen alone: the referee may be
// typing (a comment, an entry's cards) and a re-render every few seconds would lose it.
let retrying = false;
function scheduleRetry() {
  if (retryTimer) return;
  retryTimer = setTimeout(async () => {
    retryTimer = null; retrying = true;
    try { await flush(); } finally { retrying = false; }
  }, 3000);
}
async function flush() {
  // Opened from the service worker's copy: the games again from the service once it answers.
  if (gamesKept) { try { await loadGames(); } catch (e) { /* still out of reach */ } }
  if (!M) { setOnline(!gamesKept); if (gamesKept) scheduleRetry(); return; }  // the bar only: the set-up form stays as typed
  if (!owns(M.id)) { await refresh(); return; }  // the owner's queue, sent by the owner (tabs.js)
  if (!M.pending || !M.pending.length) { await refresh(); return; }
  while (M.pending.length) {
    const action = M.pending[0];
    let answer;
    try {
      answer = await send(action);
    } catch (e) {
      if (e instanceof Unreachable) { setOnline(false); scheduleRetry(); if (!retrying) render(); return; }
      // the service answered, with a problem: this entry cannot be sent; the rest wait for the
      // referee (undo drops them one by one)
      M.pending.shift(); save(); setOnline(true);
      return showProblem(e);
    }
    M.pending.shift();
    if (!answer.valid) { ui.refusal = { action, error: answer.error }; break; }
    record(action, answer);
  }
  save(); setOnline(true); await refresh();
}

async function send(action) {
  const d = currentDeal();
  return call("POST", "/v1/validate", { state: dealState(d), action }, auth(action.player));
}

function record(action, answer) {
  const d = currentDeal();
  learnTeams(null, answer.events || []);
  d.steps.push({ action, state: answer.state, to_act: answer.to_act, status: answer.status,
                 score_deltas: answer.score_deltas || [], events: answer.events || [],
                 seed: answer.seed, seed_salt: answer.seed_salt, next_match: answer.next_match });
}

// Enter an action: sent now, or queued when the service is out of reach (or others wait).
// `onEntered`: called once the entry is made (or queued), before the screen is drawn again.
async function enter(action, { askOnRefusal = false, onEntered = () => {} } = {}) {
  busy(true);
  try { await enterNow(action, askOnRefusal, onEntered); } finally { busy(false); }
}
async function enterNow(action, askOnRefusal, onEntered) {
  ui.refusal = null; ui.notice = null;
  if (M.pending.length) { M.pending.push(action); ui.scrollToAct = true; onEntered(); save(); setOnline(false); render(); return; }
  let answer;
  try {
    answer = await withKey(() => send(action));
  } catch (e) {
    if (e instanceof Unreachable) {
      M.pending.push(action); ui.scrollToAct = true; onEntered(); save(); setOnline(false); scheduleRetry(); render(); return;
    }
    return showProblem(e);
  }
  if (answer === undefined) return;
  setOnline(true);
  if (!answer.valid) {
    ui.refusal = { action, error: answer.error };
    if (askOnRefusal) { ui.asking = action; ui.picked = []; }  // e.g. which card came off an unseen stock
    render(); return;
  }
  record(action, answer);
  ui.selected = []; ui.asking = null; ui.picked = []; ui.scrollToAct = true;
  onEntered();
  save();
  await refresh();
}

// A referee act asks for the key (403 referee_key_required): ask, then try again once. `keep`
// takes the key given: the match's by default; an import keeps it for the match it builds (there
// may be no match open then).
async function withKey(op, keep = (key) => { M.key = key; save(); rememberKey(key); }) {
  try {
    return await op();
  } catch (e) {
    if (e instanceof Problem && e.code === "referee_key_required") {
      const key = await askKey();
      if (!key) return undefined;
      keep(key);
      return await op();
    }
    throw e;
  }
}
function askKey() {
  return new Promise((resolve) => {
    const input = h("input", { type: "password", autocomplete: "off", ...tid("key-prompt-input") });
    const box = h("section", { class: "notice", ...tid("key-prompt") },
      h("p", { text: t("key_needed") }), h("label", { text: t("key") }), input,
      h("button", { class: "primary", ...tid("key-prompt-ok"), onclick: () => { box.remove(); resolve(input.value.trim()); } }, "OK"),
      h("button", { onclick: () => { box.remove(); resolve(""); } }, "×"));
    app.prepend(box);
    input.focus();
  });
}
function showProblem(e) {
  if (e instanceof Unreachable) { setOnline(false); scheduleRetry(); render(); return; }
  ui.notice = null;
  ui.refusal = { problem: e instanceof Problem ? e.body : { detail: String(e) } };
  render();
  if (!(e instanceof Problem)) console.error(e);
}

// ---- what the screen needs from the service ---------------------------------------------------
// `data-busy` on <main> while the page waits for the service (tests and assistive tech wait on it).
let inFlight = 0;
function busy(on) {
  inFlight += on ? 1 : -1;
  if (inFlight > 0) app.dataset.busy = "1"; else delete app.dataset.busy;
}
async function refresh() {
  busy(true);
  try { await refreshNow(); } finally { busy(false); }
}
async function refreshNow() {
  const d = currentDeal();
  ui.legal = null; ui.view = null; ui.refView = null; ui.refLegal = [];
  if (!d || !d.answer) { render(); return; }
  const toAct = dealToAct(d) || [];
  if (!ui.seat || !toAct.includes(ui.seat)) ui.seat = toAct[0] || null;
  keptView(d);
  if (M.pending.length) { render(); return; }
  const state = dealState(d);
  try {
    // With the key, the referee's view shows every hand (the seat's among them): one request
    // fewer per entry; the referee's own legal actions only where the game has rulings.
    const asks = [];
    const playing = dealStatus(d) !== "finished" && ui.seat;
    if (playing) asks.push(call("POST", "/v1/legal-actions", { state, player: ui.seat }, auth(ui.seat)).then((r) => { ui.legal = r.actions; }));
    if (M.key) {
      // the referee's view may leave out which seats make a team (a seat's says): asked once a match
      if (playing && M.teams === undefined) asks.push(call("POST", "/v1/view", { state, player: ui.seat }, auth(ui.seat))
        .then((r) => { learnTeams(r.view); M.teams = M.teams || {}; }, (e) => { if (e instanceof Unreachable) throw e; M.teams = M.teams || {}; }));
      asks.push(call("POST", "/v1/view", { state, player: "referee" }, { key: M.key })
        .then((r) => { ui.refView = r.view; ui.view = r.view; }, refereeUnknown));
      if (hasRulings()) asks.push(call("POST", "/v1/legal-actions", { state, player: "referee" }, { key: M.key })
        .then((r) => { ui.refLegal = r.actions; }, refereeUnknown));
    } else {
      // a finished deal too: its view's standings are the match's after it (the glance)
      const viewer = ui.seat || M.players[0];
      asks.push(call("POST", "/v1/view", { state, player: viewer }, auth(viewer)).then((r) => { ui.view = r.view; }));
    }
    await Promise.all(asks);
    if (playing && M.key && !ui.refView) {  // a key the service does not know: the seat's own view
      ui.view = (await call("POST", "/v1/view", { state, player: ui.seat }, auth(ui.seat))).view;
    }
    learnTeams(ui.refView || ui.view);
    keepView(d);
    setOnline(true);
  } catch (e) {
    if (e instanceof Unreachable) { setOnline(false); scheduleRetry(); if (retrying) return; }
    else return showProblem(e);
  }
  render();
}

// The last view the service gave (the hands on screen) is kept with the match, so that a reload
// while the service is out of reach still shows the hands as they were at that state (a queued
// entry does not change them: the page cannot know what the service will answer).
function keepView(d) {
  const seen = { deal: M.deals.length, steps: d.steps.length, seat: ui.seat, view: ui.view, refView: ui.refView };
  if (JSON.stringify(seen) === JSON.stringify(M.seen)) return;
  M.seen = seen; save();
}
function keptView(d) {
  const seen = M.seen;
  if (!seen || seen.deal !== M.deals.length || seen.steps !== d.steps.length) return;
  if (seen.refView) { ui.refView = seen.refView; ui.view = seen.view; } else if (seen.seat === ui.seat) ui.view = seen.view;
}

// A key the service does not take (422 player_unknown for "referee"): no referee seat, not an error.
function refereeUnknown(e) { if (!(e instanceof Problem)) throw e; }
function hasRulings() {
  return gameInfo().actions.some((a) => a.referee_only && !["warning", "penalty", "withdraw"].includes(a.type));
}

// ---- screens -----------------------------------------------------------------------------------
function render() {
  drawScreen();
  if (M && !owns(M.id)) readOnlyScreen();
}
function drawScreen() {
  document.getElementById("lang").textContent = t("other");
  document.querySelector(".home").textContent = t("home");
  storageBanner(storageFailure());
  app.replaceChildren();
  if (!games.length) { app.append(h("p", { text: "…" })); return; }
  if (!M) return renderSetup();
  if (M.event && M.event.reporting) return renderReport();
  if (ui.dealSheet) return renderDealSheet();
  const d = currentDeal();
  if (!d && !M.draft && M.event) return renderEventStart();
  if (M.draft || !d) return renderDealEntry();
  renderPlay(d);
  if (ui.scrollToAct) scrollToAct();
}

// After an entry the referee looks for who acts now: the seat to act and its hand (or the deal's
// result) are brought into view, wherever the entry was made (a phone's referee form is far below).
function scrollToAct() {
  const q = (id) => app.querySelector(`[data-testid="${id}"]`);
  const target = q("acting") || q("result");
  if (!target) return;
  ui.scrollToAct = false;
  // the table at a glance too, where it fits on the screen with the hand (a phone held upright)
  const top = q("glance"), hand = q("hand") || target;
  const fits = top && hand.getBoundingClientRect().bottom - top.getBoundingClientRect().top <= window.innerHeight;
  (fits ? top : target).scrollIntoView({ block: "start" });
}

function renderSetup() {
  const s = ui.setup || (ui.setup = { game: games[0].id, preset: "", options: {}, seats: null, mode: "server", key: rememberedKey() });
  const g = gameInfo(s.game);
  if (!s.seats) {
    const n = Math.max(g.players.min, Math.min(4, g.players.max));
    s.seats = Array.from({ length: n }, (_, i) => `p${i + 1}`);
  }
  const gameSel = h("select", { id: "game", ...tid("game"), onchange: (e) => { ui.setup = { ...s, game: e.target.value, preset: "", options: {}, seats: null }; render(); } },
    games.map((x) => h("option", { value: x.id, selected: x.id === s.game }, x.names[language()] || x.names.en)));
  const presetSel = h("select", { id: "preset", ...tid("preset"), onchange: (e) => { s.preset = e.target.value; } },
    h("option", { value: "" }, t("default")),
    Object.keys(g.presets).map((p) => h("option", { value: p, selected: p === s.preset }, p)));
  const optionInputs = g.options.map((o) => optionInput(o, s.options));
  const count = h("input", { type: "number", min: g.players.min, max: g.players.max, value: s.seats.length, ...tid("seat-count"),
    onchange: (e) => {
      const n = Math.max(g.players.min, Math.min(g.players.max, Number(e.target.value) || g.players.min));
      s.seats = Array.from({ length: n }, (_, i) => s.seats[i] || `p${i + 1}`); render();
    } });
  const seatInputs = s.seats.map((name, i) => h("input", { value: name, ...tid(`seat-${i}`), "aria-label": `${t("seat")} ${i + 1}`,
    oninput: (e) => { s.seats[i] = e.target.value.trim(); } }));
  const mode = (m, label) => h("label", { class: "row" }, h("input", { type: "radio", name: "mode", value: m, checked: s.mode === m, ...tid(`mode-${m}`),
    onchange: () => { s.mode = m; } }), label);
  const key = h("input", { type: "password", autocomplete: "off", value: s.key, ...tid("key"), oninput: (e) => { s.key = e.target.value.trim(); } });
  // The referee mode (the game's `violations: referee`, GET /v1/games): a switch at the top, as
  // well as its place among the options.
  const refMode = g.options.find((o) => o.name === "violations" && Array.isArray(o.allowed) && o.allowed.includes("referee"));
  const refSwitch = refMode ? h("label", { class: "row switch" }, h("input", { type: "checkbox", ...tid("referee-mode"),
    checked: s.options.violations === "referee",
    onchange: (e) => { if (e.target.checked) s.options.violations = "referee"; else delete s.options.violations; render(); } }),
  h("span", {}, t("referee_mode"), h("span", { class: "desc", text: refMode.description }))) : null;
  appendTo(app,
    h("h1", { text: t("setup") }), refusalBox(),
    h("section", {}, h("label", { for: "game", text: t("game") }), gameSel,
      h("p", {}, h("a", { href: rulesLink(`${g.id} `).replace(/#$/, ""), target: "_blank", rel: "noopener" }, `${t("rule")}: ${gameName(g.id)}`)),
      refSwitch, h("label", { for: "preset", text: t("preset") }), presetSel),
    h("details", { class: "card-box" }, h("summary", { text: t("options") }), optionInputs,
      h("label", {}, t("match_so_far"), h("span", { class: "desc", text: t("match_so_far_import") })),
      h("input", { type: "file", accept: "application/json,.json", ...tid("match-import"), onchange: (e) => matchSoFar(e.target.files[0]) }),
      s.matchFrom ? h("p", { class: "notice", ...tid("match-loaded"), text: s.matchFrom }) : null,
      h("label", {}, t("match_so_far_json"), h("span", { class: "desc", text: t("match_so_far_hint") })),
      h("textarea", { rows: 3, ...tid("match-values"), placeholder: "{\"levels\": {\"team1\": \"5\", \"team2\": \"3\"}}",
        onchange: (e) => { s.match = e.target.value.trim(); } }, s.match || "")),
    h("section", {}, h("h2", { text: t("seats") }), h("label", { text: t("seat_count") }), count, seatInputs),
    h("details", { class: "card-box" }, h("summary", { text: t("tags") }),
      ["event", "site", "round", "table", "referee"].map((tag) => h("div", {}, h("label", { text: t(`tag_${tag}`) }),
        h("input", { value: (s.tags || {})[tag] || "", ...tid(`tag-${tag}`),
          oninput: (e) => { s.tags = { ...(s.tags || {}), [tag]: e.target.value.trim() }; } })))),
    h("section", {}, h("h2", { text: t("deal_mode") }), mode("server", t("deal_server")), mode("physical", t("deal_physical")),
      h("label", { text: t("key") }, h("span", { class: "desc", text: t("key_hint") })), key),
    h("button", { class: "primary", ...tid("start"), onclick: startMatch }, t("start")),
    importControl(), keptMatches());
}

// "Match so far" from the match's record or copy: the game, seats and options as it had them, and
// the match's values after its last finished deal (a record's deals replayed by the service, as
// an import does) — the next deal of this match starts from them.
async function matchSoFar(file) {
  const s = ui.setup;
  if (!file) return;
  let data;
  try { data = JSON.parse(await file.text()); } catch (e) {
    ui.refusal = { problem: { code: "match", detail: `${t("match_so_far")}: ${e.message}` } }; render(); return;
  }
  const copy = fromCopy(data);
  let match = null, deals = 0;
  const source = copy || data;
  if (!gameInfo(source.game) || !Array.isArray(source.players)) {
    ui.refusal = { problem: { code: "match", detail: `${t("match_so_far")}: ${file.name}` } }; render(); return;
  }
  if (copy) {
    for (const d of copy.deals) { const last = lastStep(d); if (last && last.status === "finished") { match = last.next_match; deals += 1; } }
  } else {
    busy(true);
    try {
      for (const [request, actions] of recordDeals(data)) {
        const deal = { game: data.game, players: data.players, options: data.options || {}, ...request };
        if (match) deal.match = match;
        const answer = await withKey(() => call("POST", "/v1/replay", { deal, actions }, { key: s.key || undefined }),
                                     (given) => { s.key = given; rememberKey(given); });
        if (answer === undefined) return;
        if (answer.stopped || answer.status !== "finished") break;
        match = answer.next_match; deals += 1;
      }
    } catch (e) { return showProblem(e); } finally { busy(false); }
  }
  ui.refusal = null;
  Object.assign(s, { game: source.game, seats: [...source.players], options: { ...(source.options || {}) },
                     match: match ? JSON.stringify(match) : "", matchFrom: `${file.name}: ${deals} ${t("deals")}` });
  s.preset = s.options.preset || ""; delete s.options.preset;
  render();
}

function optionInput(o, chosen) {
  const label = h("label", {}, o.name, h("span", { class: "desc", text: `${o.description}${o.rule ? ` (${o.rule})` : ""}` }));
  let input;
  const set = (v) => { if (v === undefined) delete chosen[o.name]; else chosen[o.name] = v; };
  if (o.type === "enum" || o.type === "bool") {
    const values = o.type === "bool" ? [true, false] : o.allowed;
    input = h("select", { ...tid(`option-${o.name}`), onchange: (e) => set(e.target.value === "" ? undefined : JSON.parse(e.target.value)) },
      h("option", { value: "" }, `${t("default")} (${JSON.stringify(o.default)})`),
      values.map((v) => h("option", { value: JSON.stringify(v), selected: chosen[o.name] === v }, String(v))));
  } else if (o.type === "int") {
    input = h("input", { type: "number", min: o.minimum, max: o.maximum, placeholder: `${t("default")} ${o.default ?? ""}`, ...tid(`option-${o.name}`),
      value: chosen[o.name] ?? "", onchange: (e) => set(e.target.value === "" ? undefined : Number(e.target.value)) });
  } else {
    input = h("input", { placeholder: JSON.stringify(o.default), ...tid(`option-${o.name}`), value: chosen[o.name] ? chosen[o.name].join(" ") : "",
      onchange: (e) => set(e.target.value.trim() === "" ? undefined : e.target.value.trim().split(/[\s,]+/)) });
  }
  return h("div", {}, label, input);
}

async function startMatch() {
  const s = ui.setup;
  const options = { ...s.options };
  if (s.preset) options.preset = s.preset;
  let match = null;
  if (s.match) {
    try { match = JSON.parse(s.match); } catch (e) {
      ui.refusal = { problem: { code: "match", detail: `${t("match_so_far")}: ${e.message}` } }; render(); return;
    }
  }
  // the record's tags (docs/records.md): what the score sheet prints at its head
  const tags = Object.fromEntries(Object.entries(s.tags || {}).filter(([, v]) => v));
  rememberKey(s.key);
  await openMatch({ v: 1, id: newMatchId(), game: s.game, players: s.seats.filter(Boolean), options, key: s.key || "",
                    mode: s.mode, deals: [], pending: [], created: new Date().toISOString(), tags });
  resetScreen();
  await newDeal(match);
}

// A deal of the match: dealt at once by the server, or from the cards on the table (entered first).
async function newDeal(match) {
  const request = { players: M.players, options: M.options };
  if (match) request.match = match;
  const k = M.deals.length + 1, same = M.event ? committedDeal(M.event, k) : null;
  // An event's same deal: named, so the service deals it from the seed the round committed to
  // (its own, not the referee's: no key asked); the seed, where the token may read it, goes in
  // the record as the deal is played. From the cards (physical), the seed is the referee's.
  if (same && M.mode !== "physical") request.event_deal = eventDeal(M.event, k);
  if (same && same.seed) Object.assign(request, { seed: same.seed, seed_salt: same.seed_salt });
  if (same && (request.event_deal || same.seed)) request.seed_commitment = same.seed_commitment;  // checked
  if (M.mode === "physical") {
    M.draft = { request, hands: Object.fromEntries(M.players.map((p) => [p, []])), table: {}, dealer: "" };
    ui.draftSeat = M.players[0];
    save(); render(); return;
  }
  await dealWith(request);
}

async function dealWith(request) {
  ui.refusal = null;
  let answer;
  try {
    const { seed_commitment: _committed, ...sent } = request;  // what the round committed to: checked below
    if (sent.event_deal) { delete sent.seed; delete sent.seed_salt; }  // the service's, by name
    answer = await withKey(() => call("POST", `/v1/games/${M.game}/deal`, sent,
                                      { key: M.key || undefined, hostToken: request.match ? matchHostToken() : undefined,
                                        eventToken: sent.event_deal ? M.event.token : undefined }));
  } catch (e) {
    if (!M.deals.length && !M.draft && !M.event) openMatch(null);  // an event's table stays: its link opened it
    return showProblem(e);
  }
  if (answer === undefined) return;
  if (request.seed_commitment !== undefined) {
    // an event's same deal: dealt from the seed the round committed to, or not at all
    const committed = request.seed_commitment;
    delete request.seed_commitment;
    if (answer.seed_commitment !== committed) {
      return showProblem(new Problem(409, { code: "commitment_mismatch",
        detail: `${t("commitment")} ${answer.seed_commitment} ≠ ${committed}` }));
    }
  }
  M.deals.push({ request, answer, steps: [] });
  delete M.draft;
  ui.seat = null; ui.selected = []; ui.scrollToAct = true;  // the new deal's table, not the set-up's foot
  save();
  await refresh();
}

// ---- the physical deal: hands seat by seat, what lies on the table ------------------------------
function renderDealEntry() {
  const dr = M.draft;
  const deck = publishedDeck(gameInfo(), effectiveOptions());
  if (dr.sizes === undefined) probeHandSizes();
  const seat = ui.draftSeat || M.players[0];
  appendTo(app, h("h1", { text: `${gameName(M.game)} · ${t("enter_hands")} (${i18nDeal(M.deals.length + 1)})` }),
    refusalBox(),
    handEntrySection(dr, deck, seat),
    tableFieldsSection(dr),
    h("section", {}, h("label", { text: t("dealer") }),
      h("select", { ...tid("dealer"), onchange: (e) => { dr.dealer = e.target.value; save(); probeHandSizes(); } },
        h("option", { value: "" }, t("default")), M.players.map((p) => h("option", { value: p, selected: dr.dealer === p }, p)))),
    h("button", { class: "primary", ...tid("deal-physical"), onclick: () => {
      const request = { ...dr.request, hands: dr.hands };
      const table = Object.fromEntries(Object.entries(dr.table).filter(([, v]) => v !== "" && v !== undefined && !(Array.isArray(v) && !v.length)));
      if (Object.keys(table).length) request.table = table;
      if (dr.dealer) request.dealer = dr.dealer;
      dealWith(request);
    } }, t("deal_button")),
    M.deals.length ? h("button", { ...tid("draft-cancel"), onclick: () => { delete M.draft; save(); refresh(); } }, t("back")) : null,
    h("button", { class: "danger", onclick: abandonMatch }, t("new_match")));
}

// The card picker and what it fills. Everything a finger taps (the seats, the undo, the deck's
// cards) keeps its size and place from tap to tap: the seats and the counts are cells of a fixed
// grid, a card used up stays where it was (disabled), and the hands as entered are listed below
// the picker, where their growing moves nothing that is tapped.
function handEntrySection(dr, deck, seat) {
  const left = cardsLeft(deck, dr.hands);
  const count = (p) => `${dr.hands[p].length}${dr.sizes && Number.isInteger(dr.sizes[p]) ? `/${dr.sizes[p]}` : ""}`;
  const undecided = [...left.values()].reduce((a, b) => a + Math.max(b, 0), 0);
  const tabs = h("div", { class: "entry-tabs", ...tid("draft-seats") }, M.players.map((p) => h("button", {
    class: `entry-tab${p === seat ? " primary" : ""}${isFull(dr, p) ? " full" : ""}`, "aria-pressed": p === seat ? "true" : "false",
    ...tid(`draft-seat-${p}`), onclick: () => { ui.draftSeat = p; render(); } },
  h("span", { class: "entry-name", text: p }), h("span", { class: "entry-count", ...tid(`draft-count-${p}`), text: count(p) }))));
  const bar = h("div", { class: "entry-bar" },
    h("button", { class: "small", ...tid("draft-undo"), disabled: !canUndo(dr),
      onclick: () => { const s = undoTap(dr); if (s) ui.draftSeat = s; save(); render(); } }, `↶ ${t("undo_card")}`),
    h("span", { class: "entry-status", ...tid("draft-status"), text: `${seat}: ${count(seat)} · ${t("cards_left")} ${undecided}` }));
  const grid = h("div", { class: "cards picker", ...tid("deck-picker") }, [...deck.keys()].map((card) => {
    const n = left.get(card);
    return h("button", { class: `card ${isRed(card) ? "red" : "black"}`, disabled: n <= 0, ...tid(`pick-${card}`), "aria-label": card,
      onclick: () => { if (left.get(card) > 0) { ui.draftSeat = tapCard(dr, M.players, deck, seat, card); save(); render(); } } },
    cardLabel(card), h("span", { class: "left", text: `${t("cards_left")} ${n}` }));
  }));
  const hands = M.players.map((p) => h("div", { class: `entry-hand${p === seat ? " current" : ""}` },
    h("h2", { text: `${t("hand_of")} ${p} (${count(p)})` }),
    h("div", { class: "cards", ...tid(`draft-hand-${p}`) }, byDeck(dr.hands[p], deck).map((c) =>
      h("button", { class: `card ${isRed(c) ? "red" : "black"}`, title: "×", "aria-label": `× ${c}`,
        onclick: () => { removeCard(dr, p, dr.hands[p].lastIndexOf(c)); save(); render(); } }, cardLabel(c), " ×")))));
  return h("section", { ...tid("hand-entry") }, tabs, bar, grid, h("div", { class: "entry-hands" }, hands));
}

// Each seat's hand size, for the counts (n/27), the move to the next seat and the last hand
// filled by itself: the page knows no game's rules, so the service deals a sample deal with the
// same seats, options, match and dealer (never shown, never used), and its views give the sizes.
// Refused (a referee act without the key): counts only, nothing moves by itself. Out of reach:
// asked again at the next render. The screen is drawn again only when the sizes change.
let probing = null;
async function probeHandSizes() {
  const dr = M.draft;
  if (!dr || probing === dr) return;
  probing = dr;
  busy(true);
  let sizes = dr.sizes;
  try {
    const request = { ...dr.request };
    if (dr.dealer) request.dealer = dr.dealer;
    const answer = await call("POST", `/v1/games/${M.game}/deal`, request,
                              { key: M.key || undefined, hostToken: request.match ? matchHostToken() : undefined });
    const views = {};
    if (M.key) {
      const r = await call("POST", "/v1/view", { state: answer.state, player: "referee" }, { key: M.key }).catch(refereeUnknown);
      if (r) for (const p of M.players) views[p] = r.view;
    }
    if (!Object.keys(views).length) {
      await Promise.all(M.players.map(async (p) => {
        const seatToken = answer.seat_tokens ? answer.seat_tokens[p] : undefined;
        views[p] = (await call("POST", "/v1/view", { state: answer.state, player: p }, { seatToken })).view;
      }));
    }
    sizes = handSizes(views, M.players);
  } catch (e) {
    if (e instanceof Problem) sizes = null;
    else if (!(e instanceof Unreachable)) console.error(e);
  } finally {
    probing = null;
    busy(false);
  }
  if (M && M.draft === dr && JSON.stringify(sizes) !== JSON.stringify(dr.sizes)) {
    dr.sizes = sizes;
    const seat = ui.draftSeat || M.players[0];
    if (sizes) ui.draftSeat = nextSeat(dr, M.players, seat);
    save(); render();
  }
}

// ---- the dealing sheet: a server-shuffled deal laid out at a physical table -------------------
// One slip per seat, cut out and handed to whoever lays that seat's cards out: the seat, the deal,
// its cards in the deck's order, and the seed commitment announced before play (the seed opens it
// when the deal ends). The hands are the referee's view of the deal as dealt (the key).
async function openDealSheet() {
  const d = currentDeal();
  ui.refusal = null;
  if (!M.key) {
    const key = await askKey();
    if (!key) return;
    M.key = key; save(); rememberKey(key);
  }
  busy(true);
  try {
    const r = await call("POST", "/v1/view", { state: d.answer.state, player: "referee" }, { key: M.key });
    ui.dealSheet = { deal: M.deals.length, view: r.view, commitment: d.answer.seed_commitment };
  } catch (e) {
    return showProblem(e);
  } finally { busy(false); }
  render();
}

function renderDealSheet() {
  const s = ui.dealSheet;
  const deck = publishedDeck(gameInfo(), effectiveOptions());
  const where = ["event", "round", "table"].filter((k) => M.tags && M.tags[k]).map((k) => `${t(`tag_${k}`)} ${M.tags[k]}`);
  const title = [gameName(M.game), i18nDeal(s.deal), ...where].join(" · ");
  const hands = s.view.hands && typeof s.view.hands === "object" ? s.view.hands : {};
  const slips = M.players.filter((p) => Array.isArray(hands[p]))
    .map((p) => dealSlip(`slip-${p}`, title, `${t("seat")} ${p}`, [[null, byDeck(hands[p], deck)]], s.commitment));
  // what is not in a hand (a stock, cards turned face up), in the order the service keeps it
  const rest = Object.entries(s.view).filter(([k, v]) => k !== "hands" && Array.isArray(v) && v.length && v.every(isCardCode));
  if (rest.length) slips.push(dealSlip("slip-table", title, t("on_the_table"), rest, s.commitment));
  appendTo(app,
    h("div", { class: "row noprint" },
      h("button", { class: "primary", ...tid("dealing-sheet-print"), onclick: () => window.print() }, t("print")),
      h("button", { ...tid("dealing-sheet-close"), onclick: () => { ui.dealSheet = null; render(); } }, t("back_to_play"))),
    h("h1", { class: "noprint", text: `${t("dealing_sheet")} · ${title}` }),
    h("p", { class: "hint noprint", text: t("dealing_sheet_hint") }),
    h("div", { class: "slips", ...tid("dealing-sheet") }, slips));
}

function dealSlip(id, title, who, groups, commitment) {
  return h("article", { class: "slip", ...tid(id) },
    h("div", { class: "slip-head" }, h("strong", { text: who }), h("span", { text: title })),
    groups.map(([name, cards]) => h("div", {},
      h("div", { class: "slip-count", text: `${name ? `${name}: ` : ""}${cards.length} ${t("cards_n")}` }),
      h("div", { class: "slip-cards" }, cards.map((c) => h("span", { class: `slip-card ${isRed(c) ? "red" : "black"}`, "data-card": c, text: cardName(c) }))))),
    h("div", { class: "slip-foot" }, `${t("seed_commitment")}: `, h("span", { class: "mono", ...tid(`${id}-commitment`), text: commitment || "" })));
}
const CARD_CODE = /^([SHDC]([2-9]|10|[JQKA])|BJ|RJ)$/;
function isCardCode(v) { return typeof v === "string" && CARD_CODE.test(v); }
// A card on paper: its name in the game's published deck (GET /v1/games `deck`, in the page's
// language) where the service gives one; else the suit's symbol and the rank (as Japanese tables
// write them too), a joker in words.
function cardName(c) {
  const published = (gameInfo() || {}).deck;
  for (const d of published && Array.isArray(published.decks) ? published.decks : []) {
    const found = (d.cards || []).find((x) => x.card === c);
    if (found && found.names) return found.names[language()] || found.names.en;
  }
  return c === "BJ" || c === "RJ" ? t(`joker_${c}`) : cardLabel(c);
}

// Cards in the order the game's deck is laid out (GET /v1/games: its own rank order); a card the
// deck lacks after the others, by suit and rank.
function inDeckOrder(cards, deck = publishedDeck(gameInfo(), effectiveOptions())) {
  const place = new Map([...deck.keys()].map((c, i) => [c, i]));
  const at = (c) => (place.has(c) ? place.get(c) : place.size);
  return [...cards].sort((a, b) => at(a) - at(b) || cardSort(a, b));
}

function effectiveOptions() {
  const g = gameInfo();
  const out = Object.fromEntries(g.options.map((o) => [o.name, o.default]));
  if (M.options.preset && g.presets[M.options.preset]) Object.assign(out, g.presets[M.options.preset]);
  for (const [k, v] of Object.entries(M.options)) if (k !== "preset") out[k] = v;
  return out;
}

// The game's `table` fields (its <Game>Table in the published spec): cards as text, seats chosen.
function tableFieldsSection(dr) {
  const schema = tableSchemas[M.game];
  if (!schema || !schema.properties) return null;
  const rows = Object.entries(schema.properties).map(([name, p]) => {
    const label = h("label", {}, name, h("span", { class: "desc", text: p.description || "" }));
    let input;
    if (p.type === "array") {
      input = h("input", { ...tid(`table-${name}`), value: (dr.table[name] || []).join(" "), placeholder: "S10 H7 …",
        onchange: (e) => { dr.table[name] = e.target.value.trim() ? e.target.value.trim().split(/[\s,]+/) : []; save(); } });
    } else if (p.type === "object") {
      input = h("textarea", { ...tid(`table-${name}`), rows: 3, placeholder: '{"p1": ["S7", …]}',
        onchange: (e) => { try { dr.table[name] = e.target.value.trim() ? JSON.parse(e.target.value) : undefined; } catch { dr.table[name] = undefined; } save(); } },
        dr.table[name] ? JSON.stringify(dr.table[name]) : "");
    } else if (p.pattern) {
      input = h("input", { ...tid(`table-${name}`), value: dr.table[name] || "", placeholder: "S10",
        onchange: (e) => { dr.table[name] = e.target.value.trim(); save(); } });
    } else {
      input = h("select", { ...tid(`table-${name}`), onchange: (e) => { dr.table[name] = e.target.value; save(); } },
        h("option", { value: "" }, "—"), M.players.map((s) => h("option", { value: s, selected: dr.table[name] === s }, s)));
    }
    return h("div", {}, label, input);
  });
  return h("section", {}, h("h2", { text: t("table_fields") }), rows);
}

// ---- play ---------------------------------------------------------------------------------------
function renderPlay(d) {
  const status = dealStatus(d);
  const toAct = dealToAct(d) || [];
  const header = h("section", { class: "top" },
    eventLine(),
    h("h1", { ...tid("title") }, `${gameName(M.game)} · ${i18nDeal(M.deals.length)}`),
    glance(toAct),
    d.answer.seed_commitment ? h("p", { class: "commitment" }, t("commitment"), " ", h("span", { class: "mono", ...tid("commitment") }, d.answer.seed_commitment)) : null,
    d.answer.seed_commitment && !d.request.hands && !d.request.deck
      ? h("button", { class: "small noprint", ...tid("dealing-sheet-open"), onclick: openDealSheet }, t("dealing_sheet")) : null);
  const over = matchFinish(d);
  appendTo(app, header, refusalBox(), noticeBox(), over ? matchOverBanner(over) : null);
  if (M.pending.length) {
    app.append(h("section", { class: "refusal", ...tid("queue") }, h("p", {}, `${M.pending.length} ${t("queued")}: `,
      M.pending.map((a) => actionLabel(a)).join(" · ")), h("button", { onclick: flush, ...tid("retry") }, t("retry"))));
  }
  const cols = h("div", { class: "cols" });
  const main = h("div", {});
  const side = h("div", {});
  cols.append(main, side);
  app.append(cols);
  if (status === "finished") main.append(resultSection(d));
  else main.append(actingSection(d, toAct));
  appendTo(side, refereeSection(d), entriesSection(d), matchSection());
  appendTo(app, sheetFrame());  // below both columns: the page's width, not the side column's
}

// The table at a glance: what lies on the table and who played it, the trump or level and its wild
// card, locks, a revolution, draws or doubling pending (the view's `summary.facts`), each seat's
// cards left and role (`summary.seats`), and the match standing (`standings`) — all in the
// service's words, in the page's language: the page knows no rule of any game.
function words(w) { return w && typeof w === "object" ? (w[language()] || w.en || "") : w ? String(w) : ""; }
function cardChips(cards) {
  return h("span", { class: "chips" }, cards.map((c) => h("span", { class: `chip ${isRed(c) ? "red" : "black"}`, "data-card": c }, cardName(c))));
}
function glance(toAct) {
  const view = ui.refView || ui.view;
  const summary = view && view.summary && typeof view.summary === "object" ? view.summary : null;
  const standings = view && view.standings && typeof view.standings === "object" ? view.standings : null;
  const seatLine = new Map(((summary && summary.seats) || []).map((x) => [x.seat, x]));
  const facts = (summary && Array.isArray(summary.facts) ? summary.facts : []).map((f) => h("li", { ...tid(`fact-${f.key}`) },
    h("span", { class: "fact-label" }, `${words(f.label)}: `), h("span", { class: "fact-text" }, words(f.text)),
    Array.isArray(f.cards) && f.cards.length ? cardChips(f.cards) : null));
  const seats = h("div", { class: "seat-lines", ...tid("seats") }, M.players.map((p) => {
    const line = seatLine.get(p) || {};
    const left = typeof line.cards_left === "number" ? line.cards_left
      : ui.refView && ui.refView.hands && Array.isArray(ui.refView.hands[p]) ? ui.refView.hands[p].length : null;
    return h("span", { class: `seat${toAct.includes(p) ? " to-act" : ""}`, ...tid(`seat-${p}`) },
      h("span", { class: "seat-name" }, M.event ? seatWithName(p) : p),
      left !== null ? h("span", { class: "seat-left", ...tid(`seat-left-${p}`) }, language() === "ja" ? `${left}${t("cards_n")}` : `${left} ${t("cards_n")}`) : null,
      line.role ? h("span", { class: "seat-role" }, words(line.role)) : null);
  }));
  const entries = standings && Array.isArray(standings.entries) ? standings.entries : [];
  return h("div", { class: "glance", ...tid("glance") },
    facts.length ? h("ul", { class: "facts", ...tid("facts") }, facts) : null,
    seats,
    entries.length ? h("ul", { class: "standings", ...tid("standings") }, entries.map((e) => h("li", { ...tid(`standing-${e.id}`) },
      words(e.text) || `${targetName(e.id)}: ${e.total}`))) : null);
}

function actingSection(d, toAct) {
  const box = h("section", { ...tid("acting") });
  if (toAct.length > 1) box.append(h("div", { class: "row" }, toAct.map((p) => h("button", { class: p === ui.seat ? "primary" : "", ...tid(`act-seat-${p}`),
    onclick: () => { ui.seat = p; ui.selected = []; refresh(); } }, p))));
  box.append(h("h2", { ...tid("to-act") }, `${t("to_act")}: ${ui.seat || "—"}`));
  if (ui.asking) { box.append(askCards()); return box; }
  // An entry waiting to be sent: who acts after it is the service's answer, not yet known, so the
  // seat's actions (listed for the state before it) are not offered again — a second tap would
  // queue an entry the rules refuse. What a player did can still be entered (the form below).
  const waiting = M.pending.length > 0;
  const listed = ui.legal || [];
  const hand = seatHand(ui.view, ui.seat);
  // One tap per act: what carries no cards (pass, draw, end the turn, no doubling …) is a fixed
  // button in one place, above the hand, in every game; the bar keeps its height when empty so
  // the hand below never moves.
  box.append(actBar(listed.filter((a) => !actionCards(a).length), waiting));
  if (hand.length) {
    box.append(h("div", { class: "cards", ...tid("hand") }, inDeckOrder(hand).map((c, i) => {
      const on = selectedCount(c) > 0 && countBefore(hand, c, i) < selectedCount(c);
      return h("button", { class: `card ${isRed(c) ? "red" : "black"}`, "aria-pressed": on ? "true" : "false", "aria-label": c, ...tid(`hand-${c}`),
        disabled: waiting, onclick: () => { toggle(c, on); render(); } }, cardLabel(c));
    })));
  }
  if (ui.legal === null) {
    // Out of reach (a reload while the service is down): no legal actions to offer, but what the
    // player did can still be entered, and waits in the queue.
    if (!reachable || M.pending.length) appendTo(box, h("p", { class: "hint", ...tid("offline-hint"), text: t("offline_hint") }), otherActionForm(false));
    else box.append(h("p", { text: "…" }));
    return box;
  }
  box.append(playsFor(listed, waiting));
  appendTo(box, waiting ? h("p", { class: "hint", ...tid("waiting-hint"), text: t("waiting_hint") }) : null,
    allActions(listed, waiting), otherActionForm(false));
  return box;
}

// A seat's hand in a view: among every seat's `hands` (the referee's view, a game that shows
// them), else the view's `hand` when the view says it is that seat's (its viewer's, or the
// hand its holder holds).
function seatHand(view, seat) {
  if (!view || !seat) return [];
  if (view.hands && Array.isArray(view.hands[seat])) return view.hands[seat];
  const own = view.viewer === seat || view.seat === seat || view.player === seat || view.holder === seat;
  return own && Array.isArray(view.hand) ? view.hand : [];
}

// The acts without cards, in the bar above the hand: each a button, one tap to enter. An action
// type listed in many variants (a declaration among dozens) is one list to choose from instead,
// headed by the words its variants share, entered as soon as one is chosen.
const BAR_BUTTONS = 8;
function actBar(bare, waiting) {
  const types = new Map();
  for (const a of bare) types.set(a.type, [...(types.get(a.type) || []), a]);
  const bar = h("div", { class: "actbar", ...tid("act-bar") });
  let i = 0;
  for (const [type, group] of types) {
    if (group.length <= BAR_BUTTONS) {
      for (const a of group) bar.append(h("button", { class: "legal act", ...tid(`bar-${i++}`), "data-type": a.type, "data-cards": 0,
        disabled: waiting, onclick: () => choose(a) }, actionLabel(a, false)));
      continue;
    }
    const labels = group.map((a) => actionLabel(a, false));
    bar.append(h("select", { class: "act-choice", ...tid(`bar-choice-${type}`), "data-type": type, disabled: waiting,
        "aria-label": sharedWords(labels), onchange: (e) => { const a = group[Number(e.target.value)]; if (a) choose(a); } },
      h("option", { value: "", selected: true }, sharedWords(labels)),
      labels.map((w, j) => h("option", { value: String(j) }, w))));
  }
  return bar;
}
// The words every label shares, at its start (English: "Declare …") or else at its end
// (Japanese: "…を宣言する"), to head a list of them.
function sharedWords(labels) {
  const common = (xs) => xs.reduce((p, x) => { let k = 0; while (k < p.length && p[k] === x[k]) k++; return p.slice(0, k); });
  const start = common(labels).replace(/\s*\S*$/, "").trim();
  if (start) return `${start} …`;
  const end = [...common(labels.map((x) => [...x].reverse().join("")))].reverse().join("");
  return end.trim() ? `… ${end.trim()}` : "…";
}

// The plays the tapped cards make: those whose cards are exactly the cards tapped (as many of
// each). One reading is one big button, one tap to send; where the same cards read several ways
// (a wild card, a joker) each reading is a button of its own.
function playsFor(listed, waiting) {
  const box = h("div", { class: "plays", ...tid("plays") });
  if (!ui.selected.length) {
    if (listed.some((a) => actionCards(a).length)) box.append(h("p", { class: "hint", text: t("select_hint") }));
    return box;
  }
  const plays = listed.filter((a) => sameCards(actionCards(a), ui.selected));
  box.append(h("div", { class: "row chosen" }, cardChips(ui.selected),
    h("button", { class: "small", ...tid("clear-cards"), onclick: () => { ui.selected = []; render(); } }, t("clear"))));
  if (!plays.length) box.append(h("p", { class: "hint", ...tid("no-play"), text: t("no_play") }));
  plays.forEach((a, i) => box.append(h("button", { class: "legal primary big", ...tid(`play-${i}`), "data-type": a.type,
    "data-cards": actionCards(a).length, disabled: waiting, onclick: () => choose(a) }, actionLabel(a, false))));
  return box;
}
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

// Every listed action, collapsed: what the bar and the plays leave out (rare actions, a play
// whose cards are not in the hand shown); narrowed by the cards tapped like the plays.
function allActions(listed, waiting) {
  const matching = listed.filter((a) => coversSelection(a));
  const shown = ui.showAll ? matching : matching.slice(0, 40);
  return h("details", { class: "card-box all-actions", open: ui.allOpen || undefined, ...tid("all-actions"),
      ontoggle: (e) => { ui.allOpen = e.target.open; } },
    h("summary", { text: `${t("legal")} (${matching.length})` }),
    h("div", { class: "actions", ...tid("legal-actions") }, shown.length ? shown.map((a, i) => h("button", { ...tid(`legal-${i}`), class: "legal",
      "data-type": a.type, "data-cards": actionCards(a).length, disabled: waiting, onclick: () => choose(a) }, actionLabel(a, false))) : h("p", { text: t("no_actions") })),
    matching.length > shown.length ? h("button", { class: "small", onclick: () => { ui.showAll = true; render(); } }, `${matching.length - shown.length} ${t("more")}`) : null);
}

function selectedCount(c) { return ui.selected.filter((x) => x === c).length; }
function countBefore(hand, c, i) { return inDeckOrder(hand).slice(0, i).filter((x) => x === c).length; }
function toggle(c, on) {
  if (on) ui.selected.splice(ui.selected.lastIndexOf(c), 1);
  else ui.selected.push(c);
}
function actionCards(a) { return Array.isArray(a.cards) ? a.cards : typeof a.card === "string" ? [a.card] : []; }
function coversSelection(a) {
  if (!ui.selected.length) return true;
  const pool = [...actionCards(a)];
  for (const c of ui.selected) { const i = pool.indexOf(c); if (i < 0) return false; pool.splice(i, 1); }
  return true;
}

// A listed action that may leave cards for the table to fill in (a draw from a stock nobody has
// seen, a round's cards dealt by hand): its type declares `cards` but the listed action has none.
function mayNeedCards(a) {
  const type = (gameInfo().actions || []).find((x) => x.type === a.type);
  return Boolean(type && type.fields && type.fields.cards && type.fields.cards.type === "cards" && !Array.isArray(a.cards));
}
async function choose(a) {
  // Sent as listed first: where the service knows the cards it takes them itself (and refuses
  // named ones); where it does not, its refusal says so and the page asks which cards.
  await enter({ ...a }, { askOnRefusal: mayNeedCards(a) });
}

function askCards() {
  const a = ui.asking;
  const deck = publishedDeck(gameInfo(), effectiveOptions());
  const known = ui.refView && Array.isArray(ui.refView.stock) ? ui.refView.stock : null;
  const pool = new Map();
  if (known) for (const c of known) pool.set(c, (pool.get(c) || 0) + 1);
  else for (const [c, n] of deck) pool.set(c, n);
  // in the deck's own order (the game's, as GET /v1/games lays it out); a card it lacks last
  const grid = h("div", { class: "cards", ...tid("draw-picker") }, inDeckOrder([...pool.keys()], deck).map((c) => {
    const left = pool.get(c) - ui.picked.filter((x) => x === c).length;
    return h("button", { class: `card ${isRed(c) ? "red" : "black"}`, disabled: left <= 0, ...tid(`drawn-${c}`), "aria-label": c,
      onclick: () => { ui.picked.push(c); render(); } }, cardLabel(c));
  }));
  return h("div", { class: "notice", ...tid("ask-cards") }, h("h2", { text: `${actionLabel(a)} — ${t("which_cards")}` }),
    h("p", { class: "hint", text: t("which_hint") }),
    h("div", { class: "cards" }, ui.picked.map((c, i) => h("button", { class: "card", onclick: () => { ui.picked.splice(i, 1); render(); } }, cardLabel(c), " ×"))),
    grid,
    h("button", { class: "primary", ...tid("ask-send"), onclick: () => enter({ ...a, cards: [...ui.picked] }) }, t("send")),
    h("button", { ...tid("ask-as-listed"), onclick: () => enter({ ...a }) }, `${t("send")}: ${actionLabel(a)}`),
    h("button", { class: "small", onclick: () => { ui.asking = null; render(); } }, "×"));
}

// Anything a player did, legal or not, as fields of the game's action types (GET /v1/games): the
// service says what rule it breaks, and in referee mode (violations) records the sanction.
function otherActionForm(referee) {
  const g = gameInfo();
  const types = g.actions.filter((a) => a.referee_only === referee);
  if (!types.length) return null;
  // Blank until an action type is chosen, and blank again after each entry made with it: a
  // stray tap on its button enters nothing (a second penalty, say).
  const formKey = referee ? "refForm" : "otherForm";
  const form = ui[formKey] || (ui[formKey] = { type: "", values: {} });
  const type = types.find((x) => x.type === form.type) || null;
  const fields = type ? Object.entries(type.fields || {}).map(([name, f]) => fieldInput(name, f, form.values, referee)) : [];
  const send = async () => {
    if (!type) return;
    const action = { type: type.type, game: g.id };
    if (!referee || (type.fields && "player" in (type.fields)) || true) action.player = form.values.player || ui.seat || M.players[0];
    for (const [name, f] of Object.entries(type.fields || {})) {
      let v = form.values[name];
      if (f.type === "cards" && (v === undefined || v === "")) v = ui.selected.length ? [...ui.selected] : undefined;
      if (f.type === "card" && (v === undefined || v === "") && ui.selected.length) v = ui.selected[0];
      if (v !== undefined && v !== "") action[name] = v;
    }
    await enter(action, { onEntered: () => { ui[formKey] = null; } });
  };
  const seatField = h("select", { ...tid(referee ? "ref-player" : "other-player"), onchange: (e) => { form.values.player = e.target.value; } },
    M.players.map((p) => h("option", { value: p, selected: (form.values.player || (referee ? M.players[0] : ui.seat)) === p }, p)));
  if (!form.values.player && referee) form.values.player = M.players[0];
  const openKey = referee ? "refOpen" : "otherOpen";  // stays open across re-renders
  return h("details", { class: "card-box", open: ui[openKey] || undefined, ...tid(referee ? "referee-form" : "other-form"),
      ontoggle: (e) => { ui[openKey] = e.target.open; } },
    h("summary", { text: referee ? `${t("warning")} / ${t("penalty")} / ${t("ruling")}` : t("other_action") }),
    h("label", { text: t("action_type") }),
    h("select", { ...tid(referee ? "ref-type" : "other-type"), onchange: (e) => { form.type = e.target.value; form.values = { player: form.values.player }; render(); } },
      h("option", { value: "", selected: !type }, "—"),
      types.map((x) => h("option", { value: x.type, selected: type && x.type === type.type }, x.type))),
    type ? h("span", { class: "desc", text: `${type.description}${type.rule ? ` (${type.rule})` : ""}` }) : null,
    h("label", { text: t("seat") }), seatField, fields,
    h("div", { class: "row" },
      h("button", { class: referee ? "danger" : "primary", ...tid(referee ? "ref-send" : "other-send"), disabled: !type, onclick: send }, t("send")),
      referee ? undoButton("ref-undo") : null));
}

function fieldInput(name, f, values, referee) {
  const label = h("label", {}, name, h("span", { class: "desc", text: f.description || "" }));
  let input;
  const set = (v) => { values[name] = v; };
  if (f.type === "cards" || f.type === "card") {
    input = h("input", { ...tid(`field-${name}`), placeholder: ui.selected.join(" ") || "S10 H7", value: values[name] ? [].concat(values[name]).join(" ") : "",
      onchange: (e) => { const v = e.target.value.trim(); set(v ? (f.type === "cards" ? v.split(/[\s,]+/) : v) : undefined); } });
  } else if (f.type === "enum" || f.type === "suit") {
    const allowed = f.allowed || ["S", "H", "D", "C"];
    input = h("select", { ...tid(`field-${name}`), onchange: (e) => set(e.target.value || undefined) },
      h("option", { value: "" }, "—"), allowed.map((v) => h("option", { value: v, selected: values[name] === v }, v)));
  } else if (f.type === "player") {
    input = h("select", { ...tid(`field-${name}`), onchange: (e) => set(e.target.value || undefined) },
      h("option", { value: "" }, "—"), M.players.map((p) => h("option", { value: p, selected: values[name] === p }, p)));
  } else if (f.type === "int") {
    input = h("input", { type: "number", min: f.minimum, ...tid(`field-${name}`), value: values[name] ?? "",
      onchange: (e) => set(e.target.value === "" ? undefined : Number(e.target.value)) });
  } else if (f.type === "bool") {
    input = h("select", { ...tid(`field-${name}`), onchange: (e) => set(e.target.value === "" ? undefined : e.target.value === "true") },
      h("option", { value: "" }, "—"), h("option", { value: "true" }, "true"), h("option", { value: "false" }, "false"));
  } else {
    input = h("input", { ...tid(`field-${name}`), value: values[name] ?? "", onchange: (e) => set(e.target.value.trim() || undefined) });
  }
  return h("div", {}, label, input);
}

function refereeSection(d) {
  const box = h("section", { ...tid("referee") }, h("h2", { text: t("referee") }));
  if (dealStatus(d) !== "finished") {
    const rulings = ui.refLegal.filter((a) => !["warning", "penalty", "withdraw"].includes(a.type));
    if (rulings.length) box.append(h("div", { class: "actions" }, rulings.map((a, i) => h("button", { class: "danger", ...tid(`ruling-${i}`), onclick: () => enter(a) }, actionLabel(a)))));
    appendTo(box, otherActionForm(true));
  }
  box.append(undoButton("undo"));
  return box;
}
function undoButton(id) {
  const d = currentDeal();
  return h("button", { class: "danger", ...tid(id), disabled: !d.steps.length && !M.pending.length && M.deals.length < 2, onclick: undo }, t("undo"));
}

function entriesSection(d) {
  // each entry in the service's words where it gave them (the listed action's `text`, the
  // events' `text`), in the page's language; its type stays on the line for tools
  const items = d.steps.map((s, i) => h("li", { ...tid(`entry-${i}`), "data-type": s.action.type },
    actionLabel(s.action, true),
    s.score_deltas.length ? h("span", { class: "hint" }, " · ", s.score_deltas.map((x) => `${targetName(x.target)} ${signed(x.delta)}`).join(", ")) : null,
    h("button", { class: "small pencil noprint", ...tid(`comment-${i}`), title: t("comment"), "aria-label": `${t("comment")} ${i + 1}`,
      onclick: () => { ui.commenting = i; render(); } }, "✎"),
    s.events.some((e) => eventWords(e)) ? h("div", { class: "hint" }, s.events.map(eventWords).filter(Boolean).join(" · ")) : null,
    s.comment && ui.commenting !== i ? h("div", { class: "comment", ...tid(`entry-comment-${i}`), text: s.comment }) : null,
    ui.commenting === i ? commentEditor(s) : null));
  return h("details", { class: "card-box", open: true }, h("summary", { text: `${t("entries")} (${d.steps.length})` }),
    h("ol", { class: "log", ...tid("entries"), reversed: true }, items.reverse()));
}

// The referee's note on an entry (free text, any language): kept with the match and written in
// the record as that action entry's `comment`.
const COMMENT_MAX = 200;
function commentEditor(step) {
  const input = h("input", { value: step.comment || "", maxlength: COMMENT_MAX, ...tid("comment-input"), "aria-label": t("comment"),
    onkeydown: (e) => { if (e.key === "Enter") keep(); } });
  const keep = () => {
    const text = input.value.trim().slice(0, COMMENT_MAX);
    if (text) step.comment = text; else delete step.comment;
    ui.commenting = null; save(); render();
  };
  setTimeout(() => input.focus(), 0);
  return h("div", { class: "row comment-edit" }, h("div", {}, input),
    h("button", { class: "primary", ...tid("comment-save"), onclick: keep }, t("comment_save")),
    h("button", { class: "small", onclick: () => { ui.commenting = null; render(); } }, "×"));
}

function resultSection(d) {
  const totals = dealTotals(d);
  const last = lastStep(d);
  const roundDone = roundDealsPlayed();
  const next = last && !matchFinish(d) && !roundDone && last.next_match;
  const reasons = {};
  for (const st of d.steps) for (const x of st.score_deltas) {
    // the change in the service's words where it gives them, else its reason as recorded
    const why = x.text && typeof x.text === "object" ? words(x.text) : x.reason;
    if (why) (reasons[x.target] = reasons[x.target] || new Set()).add(why);
  }
  return h("section", { ...tid("result") }, h("h2", { text: t("finished") }),
    h("ul", { class: "result-lines", ...tid("result-lines") }, (last ? last.events : []).map(eventWords).filter(Boolean).map((w) => h("li", { text: w }))),
    h("h2", { text: t("deltas") }),
    h("ul", { ...tid("deal-deltas") }, Object.entries(totals).map(([k, v]) => h("li", {},
      h("strong", { text: `${targetName(k)}: ${signed(v)}` }),
      reasons[k] ? h("span", { class: "hint", text: ` — ${[...reasons[k]].slice(0, 3).join("; ")}` }) : null))),
    last && last.seed ? h("p", { class: "mono" }, `${t("seed")}: ${last.seed} · ${t("salt")}: ${last.seed_salt || ""}`) : null,
    next ? h("button", { class: "primary", ...tid("next-deal"), onclick: () => newDeal(next) }, t("next_deal")) : null,
    roundDone ? h("p", { class: "notice", ...tid("round-deals-played"), text: t("round_deals_played") }) : null);
}

// How the match ended, when this deal ended it: the deal's `match_finished` event (a game whose
// deal still answers the match's values says so there), else {} when the finished deal answers
// no next_match; null while the match goes on.
function matchFinish(d) {
  if (!d || dealStatus(d) !== "finished") return null;
  const ev = d.steps.flatMap((s) => s.events || []).find((e) => e.type === "match_finished");
  if (ev) return ev;
  const last = lastStep(d);
  return last && !last.next_match ? {} : null;
}

// A score's target in words: a seat as named, a team as its seats where an answer said which
// (the view's `teams`, a match_finished event's winners), else its id.
function targetName(k) {
  const seats = M.players.includes(k) ? null : (M.teams || {})[k];
  return Array.isArray(seats) && seats.length ? seats.join(" & ") : k;
}
function learnTeams(view, events = []) {
  const teams = { ...(M.teams || {}) };
  if (view && view.teams && typeof view.teams === "object" && !Array.isArray(view.teams)) {
    for (const [k, v] of Object.entries(view.teams)) if (Array.isArray(v)) teams[k] = v;
  }
  for (const e of events) if (typeof e.team === "string" && Array.isArray(e.winners) && e.winners.length) teams[e.team] = e.winners;
  if (JSON.stringify(teams) !== JSON.stringify(M.teams || {})) M.teams = teams;
}
function signed(v) { return `${v > 0 ? "+" : ""}${v}`; }

// The match is over: said above the deal, with who won and the final standing, best first (the
// event's totals where it gives them, else the sheet's running totals).
function matchOverBanner(ev) {
  const winners = Array.isArray(ev.winners) ? ev.winners : ev.winner ? [ev.winner] : ev.team ? [targetName(ev.team)] : [];
  const totals = ev.totals && typeof ev.totals === "object" ? ev.totals : matchTotals();
  const standing = Object.entries(totals).sort((a, b) => b[1] - a[1]);
  return h("section", { class: "notice", ...tid("match-over") }, h("h2", { text: t("match_over") }),
    winners.length ? h("p", { ...tid("match-winner") }, h("strong", { text: `${t("winner")}: ${winners.map(targetName).join(", ")}` })) : null,
    ev.text && typeof ev.text === "object" ? h("p", { text: ev.text[language()] || ev.text.en }) : null,
    standing.length ? h("ol", { class: "standing", ...tid("standing") }, standing.map(([k, v]) => h("li", { text: `${targetName(k)}: ${signed(v)}` }))) : null);
}
function matchTotals() {
  const out = {};
  for (const d of M.deals) for (const [k, v] of Object.entries(dealTotals(d))) out[k] = (out[k] || 0) + v;
  return out;
}

function dealTotals(d) {
  const totals = {};
  for (const s of d.steps) for (const x of s.score_deltas) totals[x.target] = (totals[x.target] || 0) + x.delta;
  return totals;
}

function matchSection() {
  const targets = [...M.players];
  const rows = M.deals.map((d, i) => ({ i, totals: dealTotals(d) }));
  for (const r of rows) for (const k of Object.keys(r.totals)) if (!targets.includes(k)) targets.push(k);
  const running = {};
  const body = rows.map((r) => h("tr", {}, h("td", {}, `${i18nDeal(r.i + 1)}`), targets.map((k) => {
    running[k] = (running[k] || 0) + (r.totals[k] || 0);
    return h("td", {}, `${r.totals[k] ? (r.totals[k] > 0 ? "+" : "") + r.totals[k] : "·"}`);
  })));
  const foot = h("tr", {}, h("th", { text: t("totals") }), targets.map((k) => h("th", { ...tid(`total-${k}`) }, String(running[k] || 0))));
  return h("section", { ...tid("sheet") }, h("h2", { text: t("sheet") }),
    h("div", { class: "scroll" }, h("table", { class: "sheet" }, h("thead", {}, h("tr", {}, h("th", {}, ""), targets.map((k) => h("th", {}, targetName(k))))),
      h("tbody", {}, body), h("tfoot", {}, foot))),
    h("div", { class: "row noprint" },
      h("button", { ...tid("export"), onclick: exportRecord }, t("export")),
      h("button", { ...tid("sheet-service"), onclick: serviceSheet }, t("sheet_service")),
      h("button", { onclick: () => window.print() }, t("print")),
      h("button", { class: "danger", ...tid("new-match"), onclick: abandonMatch }, t("new_match"))),
    importControl());
}
function i18nDeal(n) { return language() === "ja" ? `第${n}局` : `${t("deal_n")} ${n}`; }

function refusalBox() {
  const r = ui.refusal;
  if (!r) return null;
  if (r.problem) {
    const errs = r.problem.errors ? Object.entries(r.problem.errors).map(([k, v]) => `${k}: ${[].concat(v).join(" ")}`) : [];
    return h("section", { class: "refusal", ...tid("problem") }, h("strong", { text: `${t("error")} ${r.problem.code || ""}` }),
      h("p", { text: r.problem.detail || r.problem.title || "" }), errs.length ? h("ul", {}, errs.map((e) => h("li", { text: e }))) : null);
  }
  const e = r.error || {};
  return h("section", { class: "refusal", ...tid("refusal") },
    h("strong", { text: `${t("refused")}: ${actionLabel(r.action)}` }),
    h("p", { ...tid("refusal-message"), text: e.message || e.code || "" }),
    e.rule ? h("p", {}, `${t("rule")} `, h("a", { href: rulesLink(e.rule), target: "_blank", rel: "noopener", ...tid("refusal-rule") }, e.rule)) : null);
}
function noticeBox() { return ui.notice ? h("section", { class: "notice", ...tid("notice"), text: ui.notice }) : null; }

// A value of an action or event as a referee reads it: cards as cards, a reading as its words.
function formatValue(v) {
  if (typeof v === "string") return /^([SHDC]([2-9]|10|[JQKA])|BJ|RJ)$/.test(v) ? cardLabel(v) : v;
  if (Array.isArray(v)) return v.map(formatValue).join(" ");
  if (v && typeof v === "object") return Object.entries(v).filter(([, x]) => x !== null && !(Array.isArray(x) && !x.length))
    .map(([k, x]) => (k === "type" ? formatValue(x) : `${k} ${formatValue(x)}`)).join(" ");
  return String(v);
}

function actionLabel(a, withSeat = true, words = true) {
  if (!a) return "";
  // a listed action says itself what its button says (`text`, in both languages); the log of
  // entries keeps the record's terms (type and fields), as an imported record has them
  if (words && a.text && typeof a.text === "object" && (a.text[language()] || a.text.en)) {
    const words = a.text[language()] || a.text.en;
    return a.player && withSeat ? `${words} (${a.player})` : words;
  }
  const parts = [a.type];
  if (a.player && withSeat) parts.push(`(${a.player})`);
  for (const [k, v] of Object.entries(a)) {
    if (["type", "player", "game", "text"].includes(k)) continue;
    if (k === "cards" || k === "card") parts.push(formatValue(v));
    else parts.push(`${k}: ${formatValue(v)}`);
  }
  return parts.join(" ");
}
// An event as a line a referee reads out: its own words (`text`, which the service gives every
// event), else — an event without words, e.g. from a record an older service answered — the
// event's name with who it concerns (seats by name, teams as their seats) and its values in
// short, never a dump of its fields.
function eventWords(e) {
  const who = e.player ? targetName(e.player) : typeof e.team === "string" ? targetName(e.team) : "";
  if (e.text && typeof e.text === "object") {
    const words = e.text[language()] || e.text.en;
    return who && !words.includes(who) ? `${who}: ${words}` : words;
  }
  // no words: its terms are English, so another language leaves it out (the entry itself is in
  // its words, and the table at a glance says the rest)
  if (language() !== "en") return "";
  const named = (v) => (typeof v === "string" && (M.players.includes(v) || (M.teams || {})[v]) ? targetName(v) : formatValue(v));
  const value = (v) => {
    if (Array.isArray(v)) return v.map(named).join(" ");
    if (v && typeof v === "object") return Object.entries(v).map(([k, x]) => `${targetName(k)} ${typeof x === "number" ? signed(x) : formatValue(x)}`).join(", ");
    return named(v);
  };
  const rest = Object.entries(e).filter(([k, v]) => !["type", "game", "player", "team", "text"].includes(k) && v !== null && v !== undefined && !(Array.isArray(v) && !v.length))
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${value(v)}`);
  const what = e.type.replace(/_/g, " ");
  return `${who ? `${who}: ` : ""}${what}${rest.length ? ` (${rest.join(", ")})` : ""}`;
}

// ---- undo, new match, records -------------------------------------------------------------------
// Undo the referee's last entry (a typo, not a player's move): the previous state is kept, so
// undoing is taking it back; an entry still queued is simply dropped.
async function undo() {
  ui.refusal = null; ui.asking = null; ui.commenting = null;
  if (M.pending.length) { M.pending.pop(); save(); setOnline(true); render(); return; }
  const d = currentDeal();
  if (d && d.steps.length) {
    const back = d.steps.length - 2;  // the step undoing goes back to
    if (back >= 0 && !d.steps[back].state) {
      busy(true);
      try { await restoreStates(d, back); } catch (e) { return showProblem(e); } finally { busy(false); }
    }
    d.steps.pop();
  } else if (d && M.deals.length > 1) {
    M.deals.pop();   // the deal just dealt goes back: the previous one ends as it did
  }
  save();
  await refresh();
}

// The states of a deal's steps up to `upTo` where the page has none (the browser keeps a deal's
// first and last states only, store.js; a record imported gives the last only): the service
// gives them again, each from the state before and the step's action, from the last state kept.
// Through /v1/validate with the deal's own tokens, so a signed or sealed state stays in its deal.
async function restoreStates(d, upTo) {
  let from = upTo;
  while (from >= 0 && !d.steps[from].state) from -= 1;
  let state = from >= 0 ? d.steps[from].state : d.answer.state;
  for (let i = from + 1; i <= upTo; i++) {
    const action = d.steps[i].action;
    const answer = await call("POST", "/v1/validate", { state, action }, auth(action.player));
    if (!answer.valid) throw new Problem(409, { code: answer.error.code, detail: answer.error.message });
    state = answer.state;
    d.steps[i].state = state;
  }
}

// A new match: the one open stays kept in this browser (listed on the set-up page) — unless the
// browser could not keep it, when only an exported record keeps it.
async function abandonMatch() {
  if (M && M.deals.length && !window.confirm(t(storageFailure() ? "confirm_new_unkept" : "confirm_new"))) return;
  // a match another tab owns stays that tab's open one
  if (!storageFailure() && owns(M && M.id)) await closeMatch();
  await openMatch(null); ui.setup = null; resetScreen();
  await listKept();
  render();
}

// The matches kept in this browser, on the set-up page: open one again, or forget it — unless
// another tab has it open (tabs.js): that tab would write it again, without its earlier deals.
async function listKept() {
  ui.kept = await listMatches();
  ui.keptOpen = await ownedMatches();
}
function keptMatches() {
  if (!ui.kept.length) return null;
  const open = ui.keptOpen || new Set();
  const label = (k) => [gameName(k.game), (k.created || "").slice(0, 10), k.tags.event, k.tags.round, k.tags.table,
                        k.players.join(" · "), `${k.deals} ${t("deals")}`, open.has(k.id) ? t("open_elsewhere") : ""]
    .filter(Boolean).join(" — ");
  return h("section", { ...tid("kept-matches") }, h("h2", { text: t("kept") }),
    h("ul", { class: "kept" }, ui.kept.map((k, i) => h("li", { ...tid(`kept-${i}`) }, h("span", { text: label(k) }), " ",
      h("button", { class: "small", ...tid(`kept-open-${i}`), onclick: () => openKept(k.id) }, t("open")),
      h("button", { class: "small danger", ...tid(`kept-delete-${i}`), disabled: open.has(k.id), onclick: async () => {
        if (!window.confirm(t("confirm_delete"))) return;
        await deleteMatch(k.id); await listKept(); render();
      } }, t("delete"))))));
}

async function openKept(id) {
  const m = await loadMatch(id);
  if (!m) { await listKept(); render(); return; }
  await openMatch(m); resetScreen(); ui.notice = t("resume");
  save();  // the open match again
  if (M.pending.length) await flush(); else await refresh();
}

// A write the browser refused: said at once, above everything, with the match's export at hand.
function storageBanner(error) {
  const bar = document.getElementById("storage");
  if (!error) { bar.hidden = true; bar.replaceChildren(); return; }
  bar.hidden = false;
  bar.replaceChildren(h("strong", { text: t("storage_failed") }), " ",
    h("span", { text: t("storage_hint") }), " ",
    h("span", { class: "mono", ...tid("storage-error") }, `${error.name || "Error"}: ${error.message || ""}`),
    h("div", { class: "row" },
      M ? h("button", { class: "primary", ...tid("storage-export"), onclick: exportRecord }, t("export")) : null,
      M ? h("button", { ...tid("storage-copy"), onclick: saveCopy }, t("save_copy")) : null,
      M ? h("button", { ...tid("storage-retry"), onclick: () => {
        if (owns(M.id)) saveAgain(M).then((ok) => { if (ok) announceSaved(M.id); });
      } }, t("storage_retry")) : null));
}

function download(name, value, testid) {
  const blob = new Blob([JSON.stringify(value, null, 1)], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: name, ...tid(testid) });
  document.body.append(a); a.click(); a.remove();
}

// The match as the page holds it, as a file the page imports again (store.js matchCopy): what
// keeps a deal still in play when the browser cannot, since the record leaves it out.
function saveCopy() {
  const copy = matchCopy(M);
  download(`${M.game}-match-${(M.created || "").slice(0, 10)}-copy.json`, copy, "copy-link");
  window.__lastCopy = copy;  // what was downloaded, for the page's own tests and the console
}

async function exportRecord() {
  const record = await buildRecord(M, gameInfo());
  download(`${M.game}-match-${(M.created || "").slice(0, 10)}.json`, record, "export-link");
  window.__lastRecord = record;  // what was downloaded, for the page's own tests and the console
  try {
    const check = await call("POST", "/v1/records/check", record);
    ui.notice = `${t("check")}: ${check.consistent ? "✓" : `✗ ${check.discrepancy ? check.discrepancy.message : ""}`}`;
  } catch (e) {
    ui.notice = null;  // out of reach: the download is the record all the same
  }
  render();
}

// The record's score sheet as the service writes it (POST /v1/records/sheet, HTML): the record is
// checked there first, and the sheet says whether it is consistent.
async function serviceSheet() {
  const record = await buildRecord(M, gameInfo());
  let resp;
  try {
    resp = await fetch(`${BASE}/v1/records/sheet?format=html&lang=${language()}`, { method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": language() }, body: JSON.stringify(record) });
  } catch (e) { return showProblem(new Unreachable(String(e))); }
  if (!resp.ok) return showProblem(new Problem(resp.status, await resp.json().catch(() => ({ detail: `HTTP ${resp.status}` }))));
  ui.sheet = { html: await resp.text(), consistent: resp.headers.get("Card-Referee-Consistent") };
  render();
}

function sheetFrame() {
  if (!ui.sheet) return null;
  // styled by its class: the page's Content-Security-Policy refuses inline style attributes
  const frame = h("iframe", { title: t("sheet"), ...tid("sheet-frame"), sandbox: "allow-same-origin allow-modals",
                              class: "sheet-frame" });
  frame.srcdoc = ui.sheet.html;
  return h("section", { ...tid("service-sheet"), "data-consistent": ui.sheet.consistent || "" },
    h("div", { class: "row noprint" },
      h("button", { onclick: () => frame.contentWindow.print() }, t("print")),
      h("button", { class: "small", onclick: () => { ui.sheet = null; render(); } }, "×")),
    frame);
}

function importControl() {
  const input = h("input", { type: "file", accept: "application/json,.json", ...tid("import-file"), onchange: async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const data = JSON.parse(await file.text());
    const copy = fromCopy(data);
    if (copy) await openCopy(copy); else await importRecord(data);
  } });
  return h("details", { class: "card-box noprint" }, h("summary", { text: t("import") }), input);
}

// Resume from a copy of the match (saveCopy): as it was, under its own id, with the key at hand.
async function openCopy(m) {
  if (!gameInfo(m.game)) { ui.refusal = { problem: { code: "game_unknown", detail: m.game } }; render(); return; }
  await openMatch({ ...m, key: (M && M.key) || (ui.setup && ui.setup.key) || "" });
  resetScreen(); ui.notice = t("imported");
  save();
  if (M.pending.length) await flush(); else await refresh();
}

// Resume from a match record: each deal replayed through /v1/replay with the previous deal's
// next_match, as the record's checker does.
async function importRecord(record) {
  ui.refusal = null;
  let key = (M && M.key) || (ui.setup && ui.setup.key) || "";
  const built = { v: 1, game: record.game, players: record.players, options: record.options || {}, key,
                  mode: record.deals.some((x) => x.deal.hands) ? "physical" : "server", deals: [], pending: [],
                  created: new Date().toISOString(), tags: record.tags || {} };
  let match = record.match || null;
  let hostToken;  // the match's, from the first replayed deal's answer (sealing)
  try {
    for (const [request, actions, comments] of recordDeals(record)) {
      const req = { players: record.players, options: built.options, ...request };
      if (match) req.match = match;
      const deal = { game: record.game, ...req };
      const answer = await withKey(() => call("POST", "/v1/replay", { deal, actions },
                                              { key: key || undefined, hostToken: req.match ? hostToken : undefined }),
                                   (given) => { key = given; });
      if (answer === undefined) return;
      if (answer.stopped) { ui.refusal = { action: answer.stopped.action, error: answer.stopped.error }; render(); return; }
      const steps = answer.steps.map((s, i) => ({ action: s.action, state: null, to_act: s.to_act, status: s.status,
        score_deltas: s.score_deltas || [], events: s.events || [], ...(comments[i] ? { comment: comments[i] } : {}) }));
      // the deal's own answer: only its state matters once steps follow (each step has its to_act)
      const answerDeal = { state: answer.initial_state, to_act: [], status: "in_progress",
                           seed_commitment: answer.seed_commitment, seat_tokens: answer.seat_tokens,
                           host_token: answer.host_token };
      hostToken = answer.host_token || hostToken;
      if (steps.length) {
        const last = steps[steps.length - 1];
        last.state = answer.state; last.next_match = answer.next_match; last.seed = answer.seed; last.seed_salt = answer.seed_salt;
      } else { answerDeal.to_act = answer.to_act; answerDeal.status = answer.status; }
      built.deals.push({ request: req, answer: answerDeal, steps });
      match = answer.next_match;
    }
  } catch (e) { return showProblem(e); }
  built.key = key;
  await openMatch(built); resetScreen(); save();
  ui.notice = t("imported");
  await refresh();
}

// ---- a table of a hosted event (event.js) ---------------------------------------------------------
// Opened from the table's link: the match kept for that table resumes (the link's token replaces
// the one kept: a table's new token), else the event's public view sets it up and it is dealt.
const sameTable = (e, link) => e && e.id === link.id && e.round === link.round && e.table === link.table;
async function openEventTable(link) {
  if (M && sameTable(M.event, link)) {  // open already: only its token, if new
    M.event.token = link.token;
    save();
    if (M.pending.length) await flush(); else await refresh();
    return;
  }
  // One tab at a time finds the table's match or makes it (tabs.js): the link opened twice at
  // once makes one match, which the second tab finds and follows.
  const opened = await oneTabAtATime(`event.${link.id}.${link.round}.${link.table}`, () => keptOrNewTable(link));
  if (opened === "kept") {
    resetScreen(); ui.notice = t("resume");
    save();
    if (M.pending.length) await flush(); else await refresh();
  } else if (opened === "new") {
    resetScreen();
    await newDeal(null);
  }
}
// The table's match open here, as kept ("kept") or new from the event's public view ("new",
// kept at once); null when the service could not give it (said, or tried again later).
async function keptOrNewTable(link) {
  const kept = (await listMatches()).find((k) => sameTable(k.event, link));
  const m = kept ? await loadMatch(kept.id) : null;
  if (m) {
    m.event.token = link.token;
    await openMatch(m);
    return "kept";
  }
  let made;
  busy(true);
  try {
    made = await eventMatch(link);
  } catch (e) {
    if (e instanceof Unreachable) {  // the link waits in this page until the service answers
      setOnline(false); render();
      setTimeout(() => openEventTable(link), 3000);
      return null;
    }
    showProblem(e);
    return null;
  } finally { busy(false); }
  await openMatch({ v: 1, id: newMatchId(), ...made, key: rememberedKey(), mode: "server", deals: [], pending: [],
                    created: new Date().toISOString() });
  await keep(M);
  return "new";
}

// "Event X · round n · table t", the result's push state, and the switch to reported results.
function eventLine() {
  if (!M.event) return null;
  const e = M.event;
  return h("div", { class: "event-line", ...tid("event-table") },
    h("strong", { ...tid("event-title") }, eventTitle()), " ", pushStatus(), " ", callBox(),
    h("button", { class: "small noprint", ...tid(e.reporting ? "report-off" : "report-on"), onclick: () => {
      if (!e.reporting && !window.confirm(t("report_confirm"))) return;
      e.reporting = !e.reporting; save(); render();
    } }, t(e.reporting ? "report_play" : "report_results")));
}
function eventTitle() {
  const e = M.event;
  return language() === "ja" ? `${t("tag_event")} ${e.name} · 第${e.round}回戦 · ${e.table}卓`
    : `${t("tag_event")} ${e.name} · ${t("round_n")} ${e.round} · ${t("table_n")} ${e.table}`;
}
function seatWithName(p) {
  const name = personName(M.event, p);
  return name === p ? p : `${name} (${p})`;
}

function pushStatus() {
  const p = M.event.push || {};
  // entries still in the queue are not in the record the director has: its result waits too
  const state = M.pending.length ? "waiting" : awaitingConfirmation(M) ? "confirming"
    : p.status === "sent" || p.status === "refused" ? p.status : p.status === "waiting" ? "waiting" : "idle";
  const words = state === "refused" ? `${t("push_refused")}: ${(p.problem && (p.problem.detail || p.problem.code)) || ""}`
    : t(`push_${state}`);
  return h("span", { class: `push push-${state}`, role: "status", ...tid("push"), "data-state": state,
                     "data-code": (state === "refused" && p.problem && p.problem.code) || "" }, words);
}
// The push state changes while the referee may be typing: only its own line is drawn again.
function pushBar() {
  const old = app.querySelector('[data-testid="push"]');
  if (old && M && M.event) old.replaceWith(pushStatus());
}

// The result pushed: the match record so far (or the last reported result), after every change
// that changes it. One push in flight; a change meanwhile pushes again after it. Each push
// makes the table's result the record as it stands, so a queue of them is its latest: while the
// service is out of reach only the latest waits, and is sent when it answers. A push's
// Idempotency-Key is the match's id and the push's number, kept with the match: a push sent
// again (its answer lost, a reload) carries the same key and body, and the service counts it
// once. The first push is the whole record; each later one only what the record adds to the
// one the service answered last (its `end`, kept in memory: after a reload the whole record
// again), and the whole record when the service's record no longer ends there
// (record_base_mismatch: a push lost, the director's correction, another device).
// While a push is due or in flight the page is busy (data-busy): what waits on the page waits
// for the director to have what is on the screen.
let pushTimer = null, pushLoop = null, pushAgain = false, pushRetry = null;
let pushed = null;  // {match, key, record}: the record the service has from this page, and its end
function schedulePush() {
  if (!M || !M.event || pushTimer || !owns(M.id)) return;  // only the tab owning the match pushes
  busy(true);
  pushTimer = setTimeout(async () => {
    pushTimer = null;
    try { await pushResult(); } finally { busy(false); }
  }, 0);
}
function pushResult() {
  if (pushLoop) { pushAgain = true; return pushLoop; }
  pushLoop = pushNow().finally(() => { pushLoop = null; });
  return pushLoop;
}
async function resultBody(m) {
  const e = m.event;
  if (e.reporting) {
    const reported = reportedNow(m);
    if (!reported || !e.confirm) return reported ? { reported } : null;
    if (awaitingConfirmation(m)) return null;  // sent once every seat confirmed it
    return { reported: { ...reported, confirmed: m.players.map((seat) => ({ seat, via: "table" })) } };
  }
  if (!gameInfo(m.game)) return null;
  const record = await buildRecord(m, gameInfo(m.game));
  return record.deals.length ? { record } : null;
}
async function pushNow() {
  do {
    pushAgain = false;
    const m = M;
    if (!m || !m.event || !m.event.token || !owns(m.id)) return;
    const body = await resultBody(m);
    if (!body) continue;
    const p = m.event.push || (m.event.push = { seq: 0 });
    const hash = bodyHash(JSON.stringify(body));
    if (p.hash === hash && p.status === "sent") continue;
    if (p.hash !== hash) { p.seq = (p.seq || 0) + 1; p.hash = hash; }  // a new push; the same one keeps its key
    p.status = "waiting"; keep(m); pushBar();
    try {
      const base = body.record && pushed && pushed.match === m.id ? pushed : null;
      const append = base && recordAppend(base.record, body.record, base.key);
      let answer = null;
      if (append) {
        try {
          answer = await appendRecord(m.event, append, `${m.id}.${p.seq}.append`, m.key);
        } catch (e) {
          if (!(e instanceof Problem && e.code === "record_base_mismatch")) throw e;
          pushed = null;  // the service's record ends elsewhere: the whole record, below
        }
      }
      if (!answer) answer = await putResult(m.event, body, `${m.id}.${p.seq}`, m.key);
      pushed = body.record && answer.end ? { match: m.id, key: answer.end.key, record: body.record } : null;
      Object.assign(p, { status: "sent", version: answer.version, problem: null });
      if (m === M && reportingDeals(m)) { keep(m); render(); continue; }  // a refusal shown goes
    } catch (e) {
      if (e instanceof Unreachable || (e instanceof Problem && e.status === 503)) {
        keep(m); pushBar();
        if (!pushRetry) pushRetry = setTimeout(() => { pushRetry = null; pushResult(); }, 3000);
        return;
      }
      if (e instanceof Problem && e.code === "idempotency_key_reused") {
        // this push's number was sent with another record (another tab of this match): a new one
        p.hash = null; pushAgain = true; continue;
      }
      // refused (a revoked token, the round closed, a record the service does not take): said,
      // and the match stays here, its export at hand
      p.status = "refused";
      p.problem = e instanceof Problem ? { code: e.code || "", detail: e.message, status: e.status, errors: e.body.errors || null }
        : { detail: String(e) };
      if (m === M && reportingDeals(m)) { keep(m); render(); continue; }  // shown at the field it names
    }
    keep(m); pushBar();
  } while (pushAgain);
}

// The reported result as the table sends it, before its confirmations (null: nothing reported).
function reportedNow(m) {
  const e = m.event;
  if (!e || !e.reporting) return null;
  if (reportingDeals(m)) {
    const deals = dealReports(e).map((r) => r.report);
    return deals.length ? { deals } : null;
  }
  const last = e.reports.filter((r) => r.reported).pop();
  return last ? last.reported : null;
}

// ---- each seat's confirmation (docs/events.md "Confirmations") ---------------------------------
// Where the event asks for them, each seat taps to confirm the reported result as it stands; the
// confirmations are kept with the digest of the result they confirm, so a result changed (a deal
// added or corrected) has none until the seats confirm it again. It is sent only then.
function confirmedSeats(m, reported) {
  const c = m.event.confirmation;
  return c && reported && c.hash === bodyHash(JSON.stringify(reported)) ? c.seats : [];
}
function awaitingConfirmation(m) {
  const reported = m && m.event && m.event.confirm ? reportedNow(m) : null;
  return Boolean(reported) && m.players.some((s) => !confirmedSeats(m, reported).includes(s));
}
function confirmBox() {
  const e = M.event;
  const reported = e.confirm ? reportedNow(M) : null;
  if (!reported) return null;
  const hash = bodyHash(JSON.stringify(reported));
  const done = confirmedSeats(M, reported);
  const all = M.players.every((s) => done.includes(s));
  return h("section", { class: "confirm-box", ...tid("confirm-box"), "data-state": all ? "confirmed" : "waiting" },
    h("h2", { text: t("confirm_title") }),
    h("p", { class: "hint", text: t(all ? "confirm_done" : "confirm_hint") }),
    h("div", { class: "row" }, M.players.map((seat) => {
      const yes = done.includes(seat);
      return h("button", { class: yes ? "small confirmed" : "small", "aria-pressed": String(yes), disabled: all,
                           ...tid(`confirm-${seat}`), onclick: () => {
        e.confirmation = { hash, seats: yes ? done.filter((s) => s !== seat) : [...done, seat] };
        save(); render();
      } }, `${yes ? "✓ " : ""}${seatWithName(seat)}`);
    })));
}

// ---- calling the referee (an event's table) ------------------------------------------------------
// The call waits until the director clears it (the referee came) or the table cancels it; while it
// waits the page asks every few seconds whether it still does.
const CALL_POLL_MS = 4000;
let callTimer = null;
function callBox() {
  const e = M.event;
  if (e.call) {
    watchCall();
    const at = new Date(e.call.called_at);
    const when = Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
    return h("span", { class: "referee-call waiting", role: "status", ...tid("referee-call"), "data-state": "waiting" },
      `${t("call_waiting")} ${when}`.trim(), " ",
      h("button", { class: "small noprint", ...tid("call-cancel"), onclick: cancelRefereeCall }, t("call_cancel")));
  }
  const reason = h("select", { class: "noprint", ...tid("call-reason"), "aria-label": t("call_reason") },
    h("option", { value: "" }, t("call_reason_none")), CALL_REASONS.map((r) => h("option", { value: r }, t(`call_reason_${r}`))));
  return h("span", { class: "referee-call noprint", ...tid("referee-call"), "data-state": "none" }, reason, " ",
    h("button", { class: "small", ...tid("call-referee"), onclick: () => callTheReferee(reason.value || null) }, t("call_referee")));
}
function callBar() {
  const old = app.querySelector('[data-testid="referee-call"]');
  if (!old || !M || !M.event) return;
  const box = callBox();
  if (!owns(M.id)) for (const el of box.querySelectorAll("button, select")) el.disabled = true;
  old.replaceWith(box);
}
async function callTheReferee(reason) {
  const m = M;
  try {
    m.event.call = await callReferee(m.event, reason);
    keep(m);
    if (m === M) callBar();
  } catch (err) { showProblem(err); }
}
async function cancelRefereeCall() {
  const m = M;
  try {
    await cancelCall(m.event);
    m.event.call = null;
    keep(m);
    if (m === M) callBar();
  } catch (err) { showProblem(err); }
}
function watchCall() {
  if (callTimer) return;
  callTimer = setInterval(async () => {
    const m = M;
    if (!m || !m.event || !m.event.call) { clearInterval(callTimer); callTimer = null; return; }
    let waiting = m.event.call;
    try {
      waiting = (await refereeCall(m.event)).call;
    } catch (err) {
      // the round closed (its token revoked): its call ended with it; unreachable: asked again
      if (err instanceof Problem && [403, 404, 409].includes(err.status)) waiting = null;
    }
    if (!waiting) { m.event.call = null; keep(m); if (m === M) callBar(); }
  }, CALL_POLL_MS);
}

// An event's table with no deal yet (the first deal could not be dealt): deal it.
function renderEventStart() {
  appendTo(app, h("section", { class: "top" }, eventLine(), h("h1", { ...tid("title") }, gameName(M.game))),
    refusalBox(), noticeBox(),
    h("button", { class: "primary", ...tid("event-deal"), onclick: () => newDeal(null) }, t("deal_button")));
}

// A table without a referee reports its result deal by deal (docs/events.md "Reported
// results"). Where the game publishes its reported deal (GET /v1/games `reported_deal`), each
// deal's outcome in the game's own terms, from a form built on that description
// (reportform.js), the whole list sent each time and scored by the service; a refusal names
// the deal and the field, and that deal's form opens again with the message at the field.
// Otherwise the places (and scores) of the entrants as the match stands after each deal.
function renderReport() {
  if (reportedDeal(M.game) && !M.event.placesOnly) return renderDealReport();
  const e = M.event;
  const n = e.entrants.length;
  const placed = e.reports.filter((r) => r.reported);
  const form = ui.report || (ui.report = { places: {}, scores: {} });
  const dealNo = placed.length + 1;
  const rows = e.entrants.map((x) => h("div", { class: "row report-row" },
    h("span", { class: "seat-name", text: seatWithName(x) }),
    h("label", {}, t("place"), h("select", { ...tid(`report-place-${x}`), onchange: (ev) => { form.places[x] = Number(ev.target.value) || undefined; } },
      h("option", { value: "" }, "—"),
      Array.from({ length: n }, (_, i) => h("option", { value: String(i + 1), selected: form.places[x] === i + 1 }, String(i + 1))))),
    h("label", {}, t("score"), h("input", { type: "number", ...tid(`report-score-${x}`), value: form.scores[x] ?? "",
      onchange: (ev) => { form.scores[x] = ev.target.value === "" ? undefined : Number(ev.target.value); } }))));
  const send = () => {
    const places = Object.fromEntries(e.entrants.map((x) => [x, form.places[x]]));
    if (Object.values(places).some((v) => !Number.isInteger(v))) {
      ui.refusal = { problem: { code: "places_missing", detail: t("report_places_missing") } }; render(); return;
    }
    const scored = e.entrants.filter((x) => Number.isInteger(form.scores[x]));
    const reported = { places, note: `${t("report_after")} ${dealNo}` };
    if (scored.length === n) reported.scores = Object.fromEntries(scored.map((x) => [x, form.scores[x]]));
    e.reports.push({ deal: dealNo, reported, at: new Date().toISOString() });
    ui.refusal = null; ui.report = { places: { ...places }, scores: { ...form.scores } };
    save(); render();
  };
  const reports = placed.map((r, i) => h("li", { ...tid(`report-${i}`) }, `${i18nDeal(r.deal)}: `,
    Object.entries(r.reported.places).sort((a, b) => a[1] - b[1]).map(([x, place]) =>
      `${place}. ${personName(e, x)}${r.reported.scores ? ` (${r.reported.scores[x]})` : ""}`).join(" · ")));
  appendTo(app, h("section", { class: "top" }, eventLine(), h("h1", { ...tid("title") }, `${gameName(M.game)} · ${t("report_title")}`)),
    refusalBox(), noticeBox(),
    h("section", { ...tid("report-form") }, h("h2", { text: `${t("report_after")} ${dealNo}` }),
      h("p", { class: "hint", text: t("report_hint") }), rows,
      h("button", { class: "primary", ...tid("report-send"), onclick: send }, t("send")),
      reportedDeal(M.game) ? reportModeSwitch(false) : null),
    confirmBox(),
    reports.length ? h("section", {}, h("h2", { text: t("report_sent") }), h("ol", { ...tid("reports") }, reports.reverse())) : null,
    h("button", { class: "danger", ...tid("new-match"), onclick: abandonMatch }, t("new_match")));
}

// A game that publishes its reported deal may still report places only (a table that kept no
// account of its deals): the switch between the two, the table's choice kept with the match.
function reportModeSwitch(byDeal) {
  return h("button", { class: "small noprint", ...tid(byDeal ? "report-places-only" : "report-by-deal"), onclick: () => {
    M.event.placesOnly = byDeal; ui.reportForm = null; ui.reportEdit = null; save(); render();
  } }, t(byDeal ? "report_places_only" : "report_by_deal"));
}

// The match's table reports each deal in the game's terms (not its places).
function reportingDeals(m) { return Boolean(m.event && m.event.reporting && !m.event.placesOnly && reportedDeal(m.game)); }

function reportedDeal(game) {
  const g = gameInfo(game);
  return (g && g.reported_deal) || null;
}
// The deals reported so far (a table that reported places before keeps them apart).
function dealReports(e) { return e.reports.filter((r) => r.report); }

// The deal the service refused (its index), with the messages by field, or null.
function refusedDeal(e) {
  const p = e.push || {};
  if (p.status !== "refused" || !p.problem || !p.problem.errors) return null;
  const at = Object.keys(p.problem.errors).map(fieldOfPath).find((x) => x && x.deal < dealReports(e).length);
  return at ? { index: at.deal, byField: refusalsAt(p.problem, at.deal) } : null;
}

function renderDealReport() {
  const e = M.event;
  const reports = dealReports(e);
  const refused = refusedDeal(e);
  const index = refused ? refused.index : (ui.reportEdit ?? reports.length);
  const key = `${index}:${refused ? e.push.seq : ""}:${language()}`;  // the words: GET /v1/games in the page's language
  if (!ui.reportForm || ui.reportForm.key !== key) {
    const form = reportedDealForm(h, reportedDeal(M.game), { seats: M.players, names: e.names || {}, lang: language(),
      value: reports[index] ? reports[index].report : {}, testid: tid });
    ui.reportForm = { key, form };
  }
  const { form } = ui.reportForm;
  form.showRefusals(refused ? refused.byField : {});
  const send = () => {
    const report = form.read();
    if (reports[index]) Object.assign(reports[index], { report, at: new Date().toISOString() });
    else e.reports.push({ deal: index + 1, report, at: new Date().toISOString() });
    ui.reportForm = null; ui.reportEdit = null; ui.refusal = null;
    if (e.push && e.push.status === "refused") e.push.status = "waiting";  // sent again at once
    save(); render();
  };
  const line = (r) => Object.entries(r.report).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.map((x) => (Array.isArray(x) ? `[${x.join(" ")}]` : personName(e, x))).join(", ")
    : v && typeof v === "object" ? Object.entries(v).map(([s, n]) => `${s} ${n}`).join(", ") : (typeof v === "string" ? personName(e, v) : v)}`).join(" · ");
  const sent = reports.map((r, i) => h("li", { ...tid(`report-${i}`) }, `${i18nDeal(r.deal)}: ${line(r)} `,
    h("button", { class: "small noprint", ...tid(`report-edit-${i}`), onclick: () => { ui.reportEdit = i; ui.reportForm = null; render(); } }, t("report_correct"))));
  appendTo(app, h("section", { class: "top" }, eventLine(), h("h1", { ...tid("title") }, `${gameName(M.game)} · ${t("report_title")}`)),
    refusalBox(), noticeBox(),
    h("section", { ...tid("report-form"), "data-deal": String(index + 1) }, h("h2", { text: i18nDeal(index + 1) }),
      h("p", { class: "hint", text: t("report_deal_hint") }), form.element,
      h("button", { class: "primary", ...tid("report-send"), onclick: send }, t("send")), reportModeSwitch(true)),
    confirmBox(),
    sent.length ? h("section", {}, h("h2", { text: t("report_sent") }), h("ol", { ...tid("reports") }, sent)) : null,
    h("button", { class: "danger", ...tid("new-match"), onclick: abandonMatch }, t("new_match")));
}

// The round's deals are all played (its `round_end` counts deals): no next deal is offered.
function roundDealsPlayed() {
  const limit = M.event && M.event.deal_limit;
  return Boolean(limit && M.deals.length >= limit);
}

// ---- two tabs on one match (tabs.js) ------------------------------------------------------------
// The match shown here from now on (null: none). This tab owns it unless another tab of this
// browser does; then the match is the one that tab keeps (IndexedDB), shown read-only.
async function openMatch(m) {
  if (m && !m.id) m.id = newMatchId();
  M = m;
  pushed = null;  // the record the service has from this tab: another match's, or older
  if (await claim(m ? m.id : null)) return;
  const kept = await loadMatch(m.id);
  if (kept && M === m) M = kept;
}

// The owner kept the match shown here read-only: read it again and show it. One reading at a
// time; saves meanwhile read it once more after.
let followLoop = null, followAgain = false;
function follow(id) {
  if (followLoop) { followAgain = true; return followLoop; }
  followLoop = (async () => {
    do {
      followAgain = false;
      if (!M || M.id !== id || owns(id)) return;
      const m = await loadMatch(id);
      if (!m || !M || M.id !== id || owns(id)) return;
      const moved = position(m) !== position(M);
      M = m;
      // the service is asked again only when the play moved on (most saves are a push's state,
      // a comment, the view the owner was shown)
      if (moved) await refresh(); else render();
    } while (followAgain);
  })().finally(() => { followLoop = null; });
  return followLoop;
}

// Where the play stands: what the screen asks the service about.
function position(m) {
  const d = m.deals.length ? m.deals[m.deals.length - 1] : null;
  const last = d && d.steps.length ? d.steps[d.steps.length - 1].action : null;
  return JSON.stringify([m.deals.length, d && d.steps.length, last, m.pending.length, Boolean(m.draft), Boolean(m.key),
                         Boolean(m.event && m.event.reporting)]);
}

// Another tab takes the match over: what is under way here ends first (an entry being sent, a
// push), at most a few seconds, then the match is kept as it stands; tabs.js lets it go then.
// (A background tab's timers are slowed down: the wait is counted by the clock.)
async function yieldMatch(id) {
  const until = Date.now() + 5000;
  while (inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  if (M && M.id === id && owns(id)) await saveMatch(M);  // not if taken meanwhile (tabs.js STEAL_AFTER_MS)
}

// "Take over here": once the owner has let go, the match as it kept it is this tab's; what it
// still had to send (its queue, its push) is sent from here.
async function takeOverHere() {
  const id = M.id;
  const granted = takeOver(id);
  render();  // the notice says the other tab is asked
  if (!(await granted) || !M || M.id !== id) return;
  const m = await loadMatch(id);
  if (m) M = m;
  pushed = null;
  ui.notice = null;
  if (M.pending.length) await flush(); else await refresh();
  schedulePush();
}

// A match another tab owns: shown as it keeps it, nothing here changes it (every control off but
// the export, the service's sheet and a new match); a notice says so, with "Take over here".
const READ_ONLY_OK = ["new-match", "export", "sheet-service"];
function readOnlyScreen() {
  for (const el of app.querySelectorAll("button, input, select, textarea")) {
    if (!READ_ONLY_OK.includes(el.dataset.testid)) el.disabled = true;
  }
  const asked = takingOver(M.id);
  app.prepend(h("section", { class: "notice read-only", role: "status", ...tid("read-only") },
    h("strong", { text: t("read_only") }), " ", h("span", { text: t(asked ? "taking_over" : "read_only_hint") }), " ",
    h("button", { class: "primary", ...tid("take-over"), disabled: asked, onclick: takeOverHere }, t("take_over"))));
}

// ---- start -------------------------------------------------------------------------------------
async function loadGames() {
  const [list, spec] = await Promise.all([callWithSource("GET", "/v1/games"),
    tableSchemas.loaded ? null : call("GET", "/openapi.json").catch(() => null)]);
  games = list.data.games;
  gamesKept = list.kept;
  if (spec && spec.components) {
    tableSchemas = { loaded: true };
    for (const g of games) {
      const name = g.id.charAt(0).toUpperCase() + g.id.slice(1) + "Table";
      if (spec.components.schemas[name]) tableSchemas[g.id] = spec.components.schemas[name];
    }
  }
}

document.getElementById("lang").addEventListener("click", async () => {
  setLanguage(language() === "ja" ? "en" : "ja");
  try { await loadGames(); } catch (e) { /* keep the words already here */ }
  await refresh();
});

async function start() {
  setLanguage(initialLanguage());
  onStorageChange(storageBanner);
  // An event table's link: its token leaves the address at once (history, a bookmark, a shared
  // screen never show it); it is kept with the match.
  const link = tableLink(location.hash);
  if (link) history.replaceState(null, "", location.pathname + location.search);
  coordinate({ saved: follow, yielding: yieldMatch, lost: (id) => { if (M && M.id === id) { ui.notice = null; render(); } } });
  await openMatch(await resumeMatch());
  await listKept();
  if (M) ui.notice = t("resume");
  registerServiceWorker();
  for (;;) {
    try { await loadGames(); setOnline(!gamesKept); break; } catch (e) {
      if (!(e instanceof Unreachable)) { showProblem(e); return; }
      setOnline(false);
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
  if (link) await openEventTable(link);
  else if (M && M.pending.length) await flush();
  else await refresh();
  if (gamesKept) scheduleRetry();
  schedulePush();  // a push still owed from before a reload
  window.addEventListener("online", () => { flush(); schedulePush(); });
  // A table's link opened while the page is open (the same address but for its fragment: the
  // browser does not load the page again).
  window.addEventListener("hashchange", () => {
    const next = tableLink(location.hash);
    if (!next) return;
    history.replaceState(null, "", location.pathname + location.search);
    openEventTable(next);
  });
}

// The service worker (sw.js) keeps the page and what it reads to start, so that a reload while
// the service is out of reach still opens the match saved here. Scope: the page itself.
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;  // not a secure context (plain http off localhost)
  navigator.serviceWorker.register(`${BASE}/table/sw.js`, { scope: `${BASE}/table` })
    .catch((e) => console.warn("no offline copy of the page:", e));
}
start();
