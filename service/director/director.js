// The director's page: create and configure an event, register and check in entrants, seat
// and print each round with its tables' links and QR codes, watch the tables (the public view,
// polled), see which tables wait for a referee's call (and clear them), enter or correct a
// result, substitute, penalise, close the round, publish. A client
// of the hosted events' API (docs/hosted-events.md); it knows no game's rules.
//
// The director token is kept in this browser's localStorage (with each table's token as its
// round started), so the director reopens the page on the laptop and finds the event; it never
// goes into a link. A table's link carries only its own table's token, in the fragment (never
// sent to a server), for that table's phone.
import { Problem, games as fetchGames, get, onLoopback, pageLink, publicView, qrCode, randomKey, request } from "./api.js";
import { initialLanguage, language, setLanguage, t } from "./i18n.js";
import { currentRound, h, namesOf, seatId, seatPerson, tid, translate, unconfirmed } from "./dom.js";
// The reported deal's form, the table page's own (served at /table/reportform.js).
import { reportedDealForm, refusalsAt } from "../table/reportform.js";

const app = document.getElementById("app");
const KEPT = "cardref.director.events";
const POLL_MS = 4000;
const TIE_BREAKS = ["opponents_points", "match_score", "first_places", "head_to_head"];

let games = [];
let ready = null;          // GET /readyz
let current = null;        // {id, name, token, tables: {"<round>/<table>": token}}
let view = null;           // the event's public view, polled
let pollTimer = null;
let shownKey = "";         // what the dynamic parts were last drawn from
let calls = [];            // the open round's calls for the referee (GET …/calls), polled with the view
let callsRead = 0;         // when they were read (Date.now()): how long each has waited since

// The director key the link `card-referee serve` prints carries in its fragment (#key=…), which
// the browser never sends to the service: read once, taken out of the address bar (so it is
// neither bookmarked nor passed on with the page's address), put in the key field, never stored.
const linkedKey = keyFromLink();
function keyFromLink() {
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (key === null) return "";
  history.replaceState(null, "", location.pathname + location.search);
  return key;
}

// ---- the events kept in this browser --------------------------------------------------------
function kept() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "{}"); } catch { return {}; }
}
function keep(entry) {
  const all = kept();
  all[entry.id] = entry;
  localStorage.setItem(KEPT, JSON.stringify(all));
}
function forget(id) {
  const all = kept();
  delete all[id];
  localStorage.setItem(KEPT, JSON.stringify(all));
}

// ---- talking to the service -------------------------------------------------------------------
function say(message, kind = "error") {
  const box = document.getElementById("notice");
  box.hidden = !message;
  box.className = `notice ${kind}`;
  box.textContent = message || "";
}

function problemText(err) {
  if (!(err instanceof Problem)) return String(err);
  if (err.status === 0) return t("unreachable");
  const fields = err.body.errors ? Object.entries(err.body.errors).map(([k, v]) => `${k}: ${[].concat(v).join(" ")}`).join("; ") : "";
  return [err.body.title, err.body.detail, fields].filter(Boolean).join(" — ");
}

// A director's change, on the version last seen: when the event moved on meanwhile (another
// tab, a table's result), the view is fetched again and the change sent once more on it. An
// answer lost on the way (no answer, or the store's 503) is asked for again with the same
// Idempotency-Key: the service answers what it did, once (a round's table tokens included).
async function change(method, path, body) {
  const key = randomKey();
  const send = () => request(method, `/v1/events/${current.id}${path}`,
                             { body, token: current.token, version: view ? view.version : undefined, idempotent: key });
  const sendAgainWhenLost = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send();
      } catch (err) {
        const lost = err instanceof Problem && (err.status === 0 || err.code === "events_unavailable");
        if (!lost || attempt >= 3) throw err;
        await new Promise((done) => setTimeout(done, 1000 * attempt));
      }
    }
  };
  try {
    let answer;
    try {
      answer = await sendAgainWhenLost();
    } catch (err) {
      if (!(err instanceof Problem) || err.code !== "version_conflict") throw err;
      await refresh();
      answer = await sendAgainWhenLost();
    }
    say("");
    await refresh();
    return answer.data;
  } catch (err) {
    say(problemText(err));
    throw err;
  }
}

async function refresh() {
  if (!current) return;
  try {
    view = await publicView(current.id);
    await readCalls();
    drawDynamic();
  } catch (err) {
    if (err instanceof Problem && err.status === 0) say(t("unreachable"));
    else say(problemText(err));
  }
}

// The tables waiting for the referee: live status beside the event (no version of it changes),
// the director's to read. A service that does not answer them leaves the last ones shown.
async function readCalls() {
  const cr = view && currentRound(view.event);
  if (!cr || cr.round.seed != null || view.published) { calls = []; return; }
  try {
    calls = (await get(`/v1/events/${current.id}/calls`, { token: current.token })).calls;
    callsRead = Date.now();
  } catch { /* the view says what is wrong, if anything */ }
}

async function clearCall(round, number) {
  try {
    await request("DELETE", `/v1/events/${current.id}/rounds/${round}/tables/${number}/call`, { token: current.token });
    calls = calls.filter((c) => !(c.round === round && c.table === number));
    shownKey = "";
    drawDynamic();
  } catch (err) { say(problemText(err)); }
}

// How long each call has waited, redrawn every second (from the service's count when read).
function drawCallWaits() {
  for (const el of document.querySelectorAll("[data-waited]")) {
    const waited = Number(el.dataset.waited) + Math.max(0, Math.round((Date.now() - callsRead) / 1000));
    el.textContent = `${Math.floor(waited / 60)}:${String(waited % 60).padStart(2, "0")}`;
  }
}
setInterval(drawCallWaits, 1000);

function startPolling() {
  clearInterval(pollTimer);
  pollTimer = setInterval(refresh, POLL_MS);
}

// ---- the page ---------------------------------------------------------------------------------
function gameOf(id) { return games.find((g) => g.id === id); }
function gameName(id) { const g = gameOf(id); return g ? (g.names[language()] || g.names.en) : id; }

function serviceBox() {
  // /readyz's `redis` says which Redis (embedded or configured); a service that does not say
  // has one only where it was configured (its cache's `redis` is then not "not_configured").
  const redis = !ready ? null : ready.redis
    || { kind: ready.cache && ready.cache.redis !== "not_configured" ? "configured" : "none" };
  const redisText = !redis ? t("redis_unknown")
    : redis.kind === "embedded" ? `${t("redis_embedded")} ${redis.data_dir || ""}`
    : redis.kind === "configured" ? t("redis_configured") : t("redis_none");
  const address = pageLink("/");
  const shown = h("p", {}, h("strong", { text: `${t("address")}: ` }), h("a", { href: address, ...tid("address"), text: address }));
  const warning = onLoopback() ? h("p", { class: "warn", ...tid("loopback"), text: t("loopback") }) : null;
  const qr = h("div", { class: "qr", ...tid("address-qr") });
  const box = h("section", { class: "card service no-print" },
    h("h2", { text: t("service") }),
    h("p", {}, h("strong", { text: `${t("redis")}: ` }), h("span", { ...tid("redis"), text: redisText })),
    shown, warning, qr);
  if (!onLoopback()) {
    qrCode(address).then((svg) => qr.append(svg)).catch(() => {});
    return box;
  }
  // Opened on the laptop itself: the service says which of the laptop's network addresses it
  // answers at; those are what the phones open (and this page should be opened at).
  get("/director/addresses").then(({ links }) => {
    if (!links.length) return;
    shown.replaceChildren(h("strong", { text: `${t("address")}: ` }),
      ...links.map((link, k) => [k ? ", " : "", h("a", { href: `${link}director`, ...tid("address"), text: link })]).flat());
    warning.textContent = t("loopback_open_there");
    qrCode(links[0]).then((svg) => qr.append(svg)).catch(() => {});
  }).catch(() => {});
  return box;
}

function drawHome() {
  current = null; view = null; shownKey = ""; calls = [];
  clearInterval(pollTimer);
  app.replaceChildren(serviceBox(), keptList(), createForm());
}

function keptList() {
  const events = Object.values(kept());
  return h("section", { class: "card" }, h("h2", { text: t("your_events") }),
    events.length ? h("ul", { ...tid("kept") }, events.map((e) => h("li", {},
      h("button", { type: "button", ...tid(`open-${e.id}`), onclick: () => openEvent(e) }, e.name || e.id), " ",
      h("button", { type: "button", class: "small", onclick: () => { if (confirm(t("confirm_forget"))) { forget(e.id); drawHome(); } } }, t("forget")))))
      : h("p", { text: t("no_events") }));
}

function optionInput(o, chosen) {
  const set = (v) => { if (v === undefined) delete chosen[o.name]; else chosen[o.name] = v; };
  let input;
  if (o.type === "enum" || o.type === "bool") {
    const values = o.type === "bool" ? [true, false] : o.allowed;
    input = h("select", { onchange: (e) => set(e.target.value === "" ? undefined : JSON.parse(e.target.value)) },
      h("option", { value: "" }, `${t("default")} (${JSON.stringify(o.default)})`),
      values.map((v) => h("option", { value: JSON.stringify(v) }, String(v))));
  } else if (o.type === "int") {
    input = h("input", { type: "number", min: o.minimum, max: o.maximum, placeholder: `${t("default")} ${o.default ?? ""}`,
      onchange: (e) => set(e.target.value === "" ? undefined : Number(e.target.value)) });
  } else {
    input = h("input", { placeholder: JSON.stringify(o.default),
      onchange: (e) => set(e.target.value.trim() === "" ? undefined : e.target.value.trim().split(/[\s,]+/)) });
  }
  return h("label", { class: "field" }, h("span", { text: `${o.name} — ${o.description}` }), input);
}

function createForm() {
  const chosen = {};
  const field = (label, input) => h("label", { class: "field" }, h("span", { text: label }), input);
  const name = h("input", { ...tid("ev-name"), required: true });
  const key = h("input", { type: "password", ...tid("ev-key"), autocomplete: "off" });
  key.value = linkedKey;
  const game = h("select", { ...tid("ev-game") }, games.map((g) => h("option", { value: g.id }, gameName(g.id))));
  const preset = h("select", { ...tid("ev-preset") });
  const options = h("div", { class: "options" });
  const tableSize = h("input", { type: "number", ...tid("ev-table-size"), min: 2, max: 8 });
  const partners = h("select", { ...tid("ev-partners") }, ["none", "fixed", "rotating"].map((p) => h("option", { value: p }, t(`partners_${p}`))));
  const rounds = h("input", { type: "number", min: 1, max: 64, value: 3, ...tid("ev-rounds") });
  const endKind = h("select", { ...tid("ev-end") }, ["deals", "match", "time"].map((k) => h("option", { value: k }, t(`end_kind_${k}`))));
  const endDeals = h("input", { type: "number", min: 1, value: 4, ...tid("ev-end-deals") });
  const endMinutes = h("input", { type: "number", min: 1, value: 50, ...tid("ev-end-minutes") });
  const atBell = h("select", {}, ["finish_deal", "void_deal"].map((k) => h("option", { value: k }, t(`bell_${k}`))));
  const points = h("input", { ...tid("ev-points"), placeholder: "3, 2, 1, 0" });
  const byePoints = h("input", { type: "number", min: 0, placeholder: t("bye_default") });
  const ties = TIE_BREAKS.map((k) => h("input", { type: "checkbox", value: k, ...tid(`ev-tie-${k}`) }));
  const seating = h("select", { ...tid("ev-seating") }, ["swiss", "random"].map((k) => h("option", { value: k }, t(`seating_${k}`))));
  const sameDeals = h("input", { type: "number", min: 0, value: 0, ...tid("ev-same-deals") });
  const confirmations = h("input", { type: "checkbox", ...tid("ev-confirmations") });

  const drawGame = () => {
    const g = gameOf(game.value);
    preset.replaceChildren(h("option", { value: "" }, t("default")),
      Object.keys(g.presets || {}).map((p) => h("option", { value: p }, p)));
    for (const k of Object.keys(chosen)) delete chosen[k];
    options.replaceChildren(...g.options.map((o) => optionInput(o, chosen)));
    const size = Math.min(Math.max(4, g.players.min), g.players.max);
    tableSize.min = g.players.min; tableSize.max = Math.min(8, g.players.max); tableSize.value = size;
    drawPoints();
  };
  const drawPoints = () => {
    const n = Number(tableSize.value) || 4;
    points.value = Array.from({ length: n }, (_, i) => n - 1 - i).join(", ");
  };
  const drawEnd = () => {
    endDeals.parentElement.hidden = endKind.value !== "deals";
    endMinutes.parentElement.hidden = atBell.parentElement.hidden = endKind.value !== "time";
  };
  game.addEventListener("change", drawGame);
  tableSize.addEventListener("change", drawPoints);
  endKind.addEventListener("change", drawEnd);

  const submit = async (e) => {
    e.preventDefault();
    const roundEnd = endKind.value === "deals" ? { kind: "deals", deals: Number(endDeals.value) }
      : endKind.value === "time" ? { kind: "time", minutes: Number(endMinutes.value), at_bell: atBell.value }
      : { kind: "match" };
    const system = {
      game: game.value, options: { ...chosen, ...(preset.value ? { preset: preset.value } : {}) },
      table_size: Number(tableSize.value), partners: partners.value, rounds: Number(rounds.value),
      round_end: roundEnd, event_points: points.value.split(/[\s,、]+/).filter(Boolean).map(Number),
      tie_breaks: ties.filter((c) => c.checked).map((c) => c.value), seating: seating.value,
      same_deals: Number(sameDeals.value) || 0,
    };
    if (byePoints.value !== "") system.bye_points = Number(byePoints.value);
    if (confirmations.checked) system.confirmations = "seats";
    const doc = { format: "card-referee/event", format_version: 1, name: name.value.trim(), system, entrants: [] };
    try {
      const { data } = await request("POST", "/v1/events", { body: doc, token: key.value.trim(), idempotent: true });
      const entry = { id: data.id, name: doc.name, token: data.director_token, tables: {} };
      keep(entry);
      say("");
      openEvent(entry);
    } catch (err) {
      say(problemText(err));
    }
  };

  const form = h("form", { class: "card", ...tid("create"), onsubmit: submit },
    h("h2", { text: t("create") }),
    field(t("event_name"), name), field(t("director_key"), key),
    h("p", { class: "hint", text: t("director_key_hint") }),
    field(t("game"), game), field(t("preset"), preset),
    h("details", {}, h("summary", { text: t("options") }), options),
    field(t("table_size"), tableSize), field(t("partners"), partners), field(t("rounds"), rounds),
    field(t("round_end"), endKind), field(t("end_deals"), endDeals), field(t("end_minutes"), endMinutes),
    field(t("at_bell"), atBell), field(t("event_points"), points), field(t("bye_points"), byePoints),
    h("fieldset", {}, h("legend", { text: t("tie_breaks") }),
      ties.map((c) => h("label", { class: "check" }, c, t(`tie_${c.value}`)))),
    field(t("seating"), seating), field(t("same_deals"), sameDeals),
    h("label", { class: "check" }, confirmations, t("confirmations")),
    h("button", { type: "submit", ...tid("ev-create") }, t("create_button")));
  drawGame(); drawEnd();
  return form;
}

// ---- one event ------------------------------------------------------------------------------
async function openEvent(entry) {
  current = entry; view = null; shownKey = ""; calls = [];
  try {
    view = await publicView(entry.id);
    await readCalls();
  } catch (err) {
    say(problemText(err));
    return;
  }
  drawEvent();
  startPolling();
}

function entrantSlug(name, taken) {
  const base = name.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 24);
  let id = base && /^[a-z]/.test(base) ? base : `p${taken.size + 1}`;
  for (let k = 2; taken.has(id); k++) id = `${base && /^[a-z]/.test(base) ? base : "p"}-${k}`;
  return id;
}

function drawEvent() {
  const ev = view.event;
  const publicLink = pageLink(`/events/${current.id}`);
  const publicQr = h("div", { class: "qr", ...tid("public-qr") });
  qrCode(publicLink).then((svg) => publicQr.append(svg)).catch(() => {});

  // -- entrants: register, search
  const name = h("input", { ...tid("en-name"), required: true });
  const members = h("input", { ...tid("en-members"), placeholder: t("members_hint") });
  const checkedIn = h("input", { type: "checkbox", checked: true, ...tid("en-checked-in") });
  const addEntrant = async (e) => {
    e.preventDefault();
    const taken = new Set(Object.keys(namesOf(view.event)));
    const id = entrantSlug(name.value.trim(), taken);
    const body = { id, name: name.value.trim() };
    if (view.event.system.partners === "fixed") {
      const names = members.value.split(/[,、]/).map((s) => s.trim()).filter(Boolean);
      body.members = names.map((m, k) => ({ id: `${id}-${k + 1}`, name: m }));
    }
    if (!checkedIn.checked) body.checked_in = false;
    try { await change("POST", "/entrants", body); name.value = ""; members.value = ""; name.focus(); } catch { /* said */ }
  };
  const search = h("input", { type: "search", ...tid("en-search"), placeholder: t("search"), oninput: () => { shownKey = ""; drawDynamic(); } });

  // -- a table's result, a substitute, a penalty: forms that polling leaves alone
  const resultBox = h("form", { class: "card", id: "result-form", ...tid("result-form"), hidden: true });
  const subTable = h("input", { type: "number", min: 1, ...tid("sub-table") });
  const subSeat = h("input", { type: "number", min: 1, ...tid("sub-seat") });
  const subName = h("input", { ...tid("sub-name") });
  const substitute = async (e) => {
    e.preventDefault();
    const cr = currentRound(view.event);
    if (!cr) return;
    const taken = new Set(Object.keys(namesOf(view.event)));
    const person = subName.value.trim() ? { id: entrantSlug(`sub-${subName.value.trim()}`, taken), name: subName.value.trim() } : null;
    try {
      await change("PUT", `/rounds/${cr.number}/tables/${subTable.value}/seats/${subSeat.value}/substitute`, person);
      subName.value = "";
    } catch { /* said */ }
  };
  const penEntrant = h("select", { ...tid("pen-entrant") });
  const penKind = h("select", { ...tid("pen-kind") }, ["warning", "points", "disqualification"].map((k) => h("option", { value: k }, t(`pen_${k}`))));
  const penPoints = h("input", { type: "number", min: 1, value: 1, ...tid("pen-points") });
  const penReason = h("input", { ...tid("pen-reason") });
  const penalise = async (e) => {
    e.preventDefault();
    const body = { entrant: penEntrant.value, kind: penKind.value, reason: penReason.value.trim() };
    if (penKind.value === "points") body.points = Number(penPoints.value);
    try { await change("POST", "/penalties", body); penReason.value = ""; } catch { /* said */ }
  };
  const method = h("select", { ...tid("round-method") }, ["swiss", "random"].map((k) => h("option", { value: k, selected: k === ev.system.seating }, t(`seating_${k}`))));
  const startRound = async () => {
    try {
      const answer = await change("POST", "/rounds", { method: method.value });
      for (const table of answer.tables) current.tables[`${answer.round}/${table.number}`] = table.token;
      // the round's clock starts now (kept here: the event document holds no times)
      current.started = { ...(current.started || {}), [answer.round]: Date.now() };
      keep(current);
      shownKey = "";
      drawDynamic();
    } catch { /* said */ }
  };
  const closeRound = async () => {
    const cr = currentRound(view.event);
    if (cr && confirm(t("confirm_close"))) { try { await change("POST", `/rounds/${cr.number}/close`); } catch { /* said */ } }
  };
  const publish = async () => {
    if (confirm(t("confirm_publish"))) { try { await change("POST", "/publish"); } catch { /* said */ } }
  };
  const download = async () => {
    try {
      const { data } = await request("GET", `/v1/events/${current.id}/document`, { token: current.token });
      const a = h("a", { href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" })),
                         download: `${current.id}.event.json` });
      document.body.append(a); a.click(); a.remove();
    } catch (err) { say(problemText(err)); }
  };
  const field = (label, input) => h("label", { class: "field" }, h("span", { text: label }), input);

  app.replaceChildren(
    h("p", { class: "no-print" }, h("button", { type: "button", class: "small", ...tid("home"), onclick: drawHome }, t("all_events"))),
    h("section", { class: "card no-print" },
      h("h2", { ...tid("event-name"), text: ev.name || current.id }),
      h("p", { id: "event-status", ...tid("event-status") }),
      h("p", { id: "clock", class: "clock", ...tid("clock"), hidden: true }),
      h("p", {}, h("strong", { text: `${t("public_page")}: ` }), h("a", { href: publicLink, target: "_blank", ...tid("public-link"), text: publicLink })),
      publicQr,
      h("p", {}, h("button", { type: "button", ...tid("download"), onclick: download }, t("download")))),
    serviceBox(),
    h("section", { class: "card no-print" }, h("h2", { text: t("entrants") }),
      h("form", { class: "inline", ...tid("en-form"), onsubmit: addEntrant },
        field(t("entrant_name"), name),
        ev.system.partners === "fixed" ? field(t("members"), members) : null,
        h("label", { class: "check" }, checkedIn, t("checked_in")),
        h("button", { type: "submit", ...tid("en-add") }, t("register"))),
      search, h("div", { id: "entrants" })),
    h("section", { class: "card", id: "round-section" },
      h("h2", { class: "no-print", text: t("round") }),
      h("p", { class: "no-print" }, method, " ",
        h("button", { type: "button", ...tid("round-start"), id: "round-start", onclick: startRound }, t("start_round")), " ",
        h("button", { type: "button", ...tid("print"), onclick: () => window.print() }, t("print_seating")), " ",
        h("button", { type: "button", ...tid("round-close"), id: "round-close", onclick: closeRound }, t("close_round")), " ",
        h("button", { type: "button", ...tid("publish"), id: "publish", onclick: publish }, t("publish"))),
      h("div", { id: "seating" })),
    resultBox,
    h("section", { class: "card no-print" }, h("h2", { text: t("substitute") }),
      h("form", { class: "inline", onsubmit: substitute },
        field(t("table"), subTable), field(t("seat"), subSeat), field(t("sub_name"), subName),
        h("button", { type: "submit", ...tid("sub-save") }, t("save")))),
    h("section", { class: "card no-print" }, h("h2", { text: t("penalty") }),
      h("form", { class: "inline", onsubmit: penalise },
        field(t("entrant"), penEntrant), field(t("kind"), penKind), field(t("points"), penPoints), field(t("reason"), penReason),
        h("button", { type: "submit", ...tid("pen-add") }, t("add_penalty")))),
    h("section", { class: "card no-print" }, h("h2", { text: t("standings") }), h("div", { id: "standings" })));
  drawDynamic();
}

// What polling redraws: the status line, the entrants, the seating, the standings, once the
// event changed. The forms the director types in are outside them: never redrawn under the
// fingers.
function drawDynamic() {
  if (!current || !view || !document.getElementById("seating")) return;
  const search = document.querySelector('[data-testid="en-search"]');
  const waiting = calls.map((c) => `${c.round}.${c.table}.${c.called_at}`).join(",");
  const key = `${view.version}|${search ? search.value : ""}|${language()}|${waiting}`;
  if (key === shownKey) return;
  shownKey = key;
  const ev = view.event;
  const names = namesOf(ev);
  const cr = currentRound(ev);
  const open = cr && cr.round.seed == null;
  const total = ev.system.rounds;

  document.getElementById("event-status").textContent = view.published ? t("published")
    : `${gameName(ev.system.game)} · ${cr ? `${t("round")} ${cr.number} / ${total} · ${open ? t("open") : t("closed")}` : t("not_started")}`;
  drawClock();
  document.getElementById("round-start").disabled = Boolean(open) || view.published || (cr && cr.number >= total);
  document.getElementById("round-close").disabled = !open || view.published;
  document.getElementById("publish").disabled = Boolean(open) || !cr || view.published;

  // entrants
  const wanted = search ? search.value.trim().toLowerCase() : "";
  const rows = (ev.entrants || []).filter((e) => !wanted || [e.name, e.id, ...(e.members || []).map((m) => m.name)].some((s) => s.toLowerCase().includes(wanted)));
  document.getElementById("entrants").replaceChildren(h("table", { ...tid("entrants") },
    h("thead", {}, h("tr", {}, h("th", { text: t("entrant") }), h("th", { text: t("status") }), h("th", {}))),
    h("tbody", {}, rows.map((e) => {
      const status = e.withdrawn_round ? t("withdrawn_from", e.withdrawn_round)
        : e.checked_in === false ? t("not_checked_in")
        : (e.entered_round || 1) > 1 ? t("enters_round", e.entered_round) : t("checked_in");
      return h("tr", { ...tid(`entrant-${e.id}`) },
        h("td", {}, e.name, e.members ? h("span", { class: "desc", text: ` (${e.members.map((m) => m.name).join(", ")})` }) : null),
        h("td", { text: status }),
        h("td", {}, e.withdrawn_round || view.published ? null : [
          h("button", { type: "button", class: "small", ...tid(`checkin-${e.id}`),
            onclick: () => change("POST", `/entrants/${encodeURIComponent(e.id)}/check-in`, { checked_in: e.checked_in === false }).catch(() => {}) },
            e.checked_in === false ? t("check_in") : t("check_out")), " ",
          h("button", { type: "button", class: "small", ...tid(`withdraw-${e.id}`),
            onclick: () => { if (confirm(`${t("confirm_withdraw")} ${e.name}`)) change("POST", `/entrants/${encodeURIComponent(e.id)}/withdraw`).catch(() => {}); } },
            t("withdraw"))]));
    }))), h("p", { class: "desc", text: `${(ev.entrants || []).length} ${t("registered")}` }));

  // the penalty's entrants (kept as chosen when the list is the same)
  const pen = document.querySelector('[data-testid="pen-entrant"]');
  const ids = (ev.entrants || []).map((e) => e.id).join("|");
  if (pen.dataset.ids !== ids) {
    const chosen = pen.value;
    pen.replaceChildren(...(ev.entrants || []).map((e) => h("option", { value: e.id, selected: e.id === chosen }, e.name)));
    pen.dataset.ids = ids;
  }

  // the seating
  const seating = document.getElementById("seating");
  if (!cr) { seating.replaceChildren(h("p", { text: t("not_started") })); drawStandings(names); return; }
  seating.replaceChildren(
    h("h2", { class: "print-only", text: `${ev.name} — ${t("round")} ${cr.number}` }),
    h("p", { class: "desc", text: `${t("seed_commitment")}: ${cr.round.seed_commitment}` }),
    cr.round.byes && cr.round.byes.length ? h("p", { ...tid("byes"), text: `${t("byes")}: ${cr.round.byes.map((b) => names[b] || b).join(", ")}` }) : null,
    h("div", { class: "tables" }, cr.round.tables.map((table) => tableCard(cr.number, table, names, open))));
  drawCallWaits();
  drawStandings(names);
}

// Time left on the round's clock (a round that ends at the bell), from when this laptop
// started it; redrawn every second.
function drawClock() {
  const clock = document.getElementById("clock");
  if (!clock || !view) return;
  const ev = view.event;
  const cr = currentRound(ev);
  const end = ev.system.round_end;
  const started = current && current.started && cr ? current.started[cr.number] : undefined;
  if (!cr || cr.round.seed != null || end.kind !== "time" || !started) { clock.hidden = true; return; }
  const left = Math.round((started + end.minutes * 60000 - Date.now()) / 1000);
  const mmss = (n) => `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
  clock.hidden = false;
  clock.textContent = left > 0 ? `${t("time_left")}: ${mmss(left)}` : t("bell");
  clock.classList.toggle("warn", left <= 300);
}
setInterval(drawClock, 1000);

function tableStatus(table, names) {
  const result = table.result;
  if (!result) return t("waiting");
  if (result.progress) return `${result.progress.deals_finished} ${t("deals_done")}`;
  const said = table.places ? `${t("result_in")}: ${Object.entries(table.places).sort((a, b) => a[1] - b[1]).map(([u, p]) => `${p}. ${names[u] || u}`).join("  ")}`
    : t("result_in");
  return unconfirmed(view.event, table) ? `${said} (${t("unconfirmed")})` : said;
}

// Whether the table's result is a match record: the public view shows it reduced, as its
// progress while the round is open and as its summary once closed.
function hasRecord(table) {
  return Boolean(table.result && (table.result.progress || table.result.summary));
}

function tableCard(round, table, names, open) {
  const token = current.tables[`${round}/${table.number}`];
  const card = h("div", { class: "table-card", ...tid(`table-${table.number}`) },
    h("h3", { text: `${t("table")} ${table.number}` }),
    h("ol", {}, table.seats.map((s) => h("li", { text: seatPerson(s, names) }))),
    h("p", { class: "status no-print", ...tid(`table-status-${table.number}`), text: tableStatus(table, names) }));
  const call = open ? calls.find((c) => c.round === round && c.table === table.number) : null;
  if (call) {
    card.classList.add("calling");
    card.append(h("p", { class: "call no-print", role: "status", ...tid(`table-call-${table.number}`) },
      `${t("call_waiting")}${call.reason ? ` (${t(`call_reason_${call.reason}`)})` : ""}: `,
      h("span", { ...tid(`table-call-waited-${table.number}`), "data-waited": String(call.waiting_seconds) }), " ",
      h("button", { type: "button", class: "small", ...tid(`table-call-clear-${table.number}`),
        onclick: () => clearCall(round, table.number) }, t("call_clear"))));
  }
  if (open && token) {
    const link = pageLink(`/table#event=${current.id}&round=${round}&table=${table.number}&token=${token}`);
    const qr = h("div", { class: "qr", ...tid(`table-qr-${table.number}`) });
    qrCode(link).then((svg) => qr.append(svg)).catch(() => {});
    card.append(h("p", { class: "link" }, h("a", { href: link, target: "_blank", rel: "noopener", ...tid(`table-link-${table.number}`) }, t("table_link"))), qr);
  } else if (open) {
    card.append(h("button", { type: "button", class: "small no-print", ...tid(`table-token-${table.number}`), onclick: () => newTableToken(round, table.number) }, t("new_link")));
  }
  if (!view.published) {
    card.append(h("button", { type: "button", class: "small no-print", ...tid(`result-${table.number}`), onclick: () => openResult(round, table, names) },
      table.result ? t("correct_result") : t("enter_result")));
  }
  return card;
}

async function newTableToken(round, number) {
  try {
    const { data } = await request("POST", `/v1/events/${current.id}/rounds/${round}/tables/${number}/token`,
                                   { token: current.token, idempotent: true });
    current.tables[`${round}/${number}`] = data.token;
    keep(current);
    shownKey = "";
    await refresh();
  } catch (err) { say(problemText(err)); }
}

// The result as the table reports it. Where the game publishes its reported deal (GET
// /v1/games `reported_deal`), each deal in the game's own terms, from forms built on that
// description (the table page's reportform.js), scored by the service; a refusal is shown at the
// deal's field it names. Otherwise each entrant's place (and score): no game's words needed.
function openResult(round, table, names, placesOnly = false) {
  const described = (gameOf(view.event.system.game) || {}).reported_deal;
  const reportedPlaces = table.result && table.result.reported && !table.result.reported.deals;
  if (described && !placesOnly && !reportedPlaces) { openDealsResult(round, table, names, described); return; }
  const box = document.getElementById("result-form");
  const entrants = [...new Set(table.seats.map((s) => s.entrant))];
  const reported = table.result && table.result.reported;
  const places = entrants.map((u, k) => h("input", { type: "number", min: 1, max: entrants.length, required: true, ...tid(`place-${u}`),
    value: reported ? reported.places[u] : (table.places ? table.places[u] : "") }));
  const scores = entrants.map((u) => h("input", { type: "number", ...tid(`score-${u}`), value: reported && reported.scores ? reported.scores[u] : "" }));
  const note = h("input", { ...tid("result-note"), value: reported ? reported.note || "" : "" });
  const signed = confirmationsField(table, names);
  box.onsubmit = async (e) => {
    e.preventDefault();
    const result = { places: Object.fromEntries(entrants.map((u, k) => [u, Number(places[k].value)])) };
    if (scores.some((s) => s.value !== "")) result.scores = Object.fromEntries(entrants.map((u, k) => [u, Number(scores[k].value || 0)]));
    if (note.value.trim()) result.note = note.value.trim();
    if (signed) signed.add(result);
    try {
      await change("PUT", `/rounds/${round}/tables/${table.number}/result`, { reported: result });
      box.hidden = true;
    } catch { /* said */ }
  };
  box.replaceChildren(h("h2", { text: `${t("result_of")} ${t("table")} ${table.number} (${t("round")} ${round})` }),
    hasRecord(table) ? h("p", { class: "warn", text: t("replaces_record") }) : null,
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { text: t("entrant") }), h("th", { text: t("place") }), h("th", { text: t("score") }))),
      h("tbody", {}, entrants.map((u, k) => h("tr", {}, h("td", { text: names[u] || u }), h("td", {}, places[k]), h("td", {}, scores[k]))))),
    h("label", { class: "field" }, h("span", { text: t("note") }), note),
    signed ? signed.element : null,
    h("p", {}, h("button", { type: "submit", ...tid("result-save") }, t("save")), " ",
      h("button", { type: "button", onclick: () => { box.hidden = true; } }, t("cancel")),
      described ? [" ", h("button", { type: "button", class: "small", ...tid("result-by-deal"),
        onclick: () => openDealsResult(round, table, names, described) }, t("result_by_deal"))] : null));
  box.hidden = false;
  places[0].focus();
}

function openDealsResult(round, table, names, described) {
  const box = document.getElementById("result-form");
  const seats = table.seats.map((s) => (s.substitute ? s.substitute.id : s.player));
  const seatNames = Object.fromEntries(table.seats.map((s) => [s.substitute ? s.substitute.id : s.player, seatPerson(s, names)]));
  const reported = table.result && table.result.reported;
  const forms = [];
  const list = h("ol", { ...tid("result-deals") });
  const addDeal = (value) => {
    const form = reportedDealForm(h, described, { seats, names: seatNames, value, lang: language() });
    forms.push(form);
    list.append(h("li", { ...tid(`result-deal-${forms.length - 1}`) }, form.element));
  };
  for (const deal of (reported && reported.deals) || [{}]) addDeal(deal);
  const note = h("input", { ...tid("result-note"), value: reported ? reported.note || "" : "" });
  const signed = confirmationsField(table, names);
  box.onsubmit = async (e) => {
    e.preventDefault();
    const result = { deals: forms.map((f) => f.read()) };
    if (note.value.trim()) result.note = note.value.trim();
    if (signed) signed.add(result);
    forms.forEach((f) => f.showRefusals({}));
    try {
      await change("PUT", `/rounds/${round}/tables/${table.number}/result`, { reported: result });
      box.hidden = true;
    } catch (err) {  // said; a refusal naming a deal's field is shown there too
      if (err instanceof Problem) forms.forEach((f, k) => f.showRefusals(refusalsAt(err.body, k)));
    }
  };
  box.replaceChildren(h("h2", { text: `${t("result_of")} ${t("table")} ${table.number} (${t("round")} ${round})` }),
    hasRecord(table) ? h("p", { class: "warn", text: t("replaces_record") }) : null,
    list,
    h("p", {}, h("button", { type: "button", class: "small", ...tid("result-add-deal"), onclick: () => addDeal({}) }, t("add_deal")), " ",
      h("button", { type: "button", class: "small", ...tid("result-remove-deal"),
        onclick: () => { if (forms.length > 1) { forms.pop(); list.lastElementChild.remove(); } } }, t("remove_deal"))),
    h("label", { class: "field" }, h("span", { text: t("note") }), note),
    signed ? signed.element : null,
    h("p", {}, h("button", { type: "submit", ...tid("result-save") }, t("save")), " ",
      h("button", { type: "button", onclick: () => { box.hidden = true; } }, t("cancel")), " ",
      h("button", { type: "button", class: "small", ...tid("result-places-only"),
        onclick: () => openResult(round, table, names, true) }, t("result_places_only"))));
  box.hidden = false;
}

// Where the event asks each seat to confirm a reported result: a box per seat the director
// ticks for each seat that confirmed it off the table's page (signed the score sheet), and one
// for every seat, sent as `via: "director"` (only the director's token may say so). A result
// saved as it stands keeps the confirmations it has (the seats' own taps); a changed one has
// only the seats ticked now, as the table's page asks again for a changed result.
function confirmationsField(table, names) {
  if (view.event.system.confirmations !== "seats") return null;
  const stored = table.result && table.result.reported;
  const had = new Map(((stored && stored.confirmed) || []).map((c) => [c.seat, c.via]));
  const seats = table.seats.map((s) => ({ id: seatId(s), name: seatPerson(s, names) }));
  const boxes = seats.map((s) => h("input", { type: "checkbox", ...tid(`result-signed-${s.id}`) }));
  const every = h("input", { type: "checkbox", ...tid("result-signed-all"),
    onchange: () => { for (const b of boxes) b.checked = every.checked; } });
  for (const b of boxes) b.onchange = () => { every.checked = boxes.every((x) => x.checked); };
  const element = h("fieldset", { ...tid("result-confirmations") }, h("legend", { text: t("signed_title") }),
    h("p", { class: "desc", text: t("signed_hint") }),
    h("label", { class: "check" }, every, t("signed_all")),
    seats.map((s, k) => h("label", { class: "check" }, boxes[k], s.name,
      had.has(s.id) ? h("span", { class: "desc", ...tid(`result-signed-had-${s.id}`), text: ` (${t(`confirmed_via_${had.get(s.id)}`)})` }) : null)));
  const add = (result) => {
    const same = Boolean(stored) && sameResult(result, stored);
    const confirmed = [];
    seats.forEach((s, k) => {
      if (same && had.has(s.id)) confirmed.push({ seat: s.id, via: had.get(s.id) });
      else if (boxes[k].checked) confirmed.push({ seat: s.id, via: "director" });
    });
    if (confirmed.length) result.confirmed = confirmed;
  };
  return { element, add };
}

// Whether two reported results say the same (their confirmations apart): keys in any order, a
// field left out the same as empty.
function sameResult(a, b) {
  const canonical = (v) => {
    if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
    if (v && typeof v === "object") {
      return `{${Object.keys(v).filter((k) => k !== "confirmed" && v[k] != null && v[k] !== "").sort()
        .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
    }
    return JSON.stringify(v);
  };
  return canonical(a) === canonical(b);
}

function drawStandings(names) {
  const ties = view.event.system.tie_breaks || [];
  document.getElementById("standings").replaceChildren(h("table", { ...tid("standings") },
    h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: t("entrant") }), h("th", { text: t("event_points_short") }),
      ties.map((k) => h("th", { text: t(`tie_${k}`) })), h("th", { text: t("played") }))),
    h("tbody", {}, view.standings.map((line) => h("tr", {},
      h("td", { text: line.rank }), h("td", { text: names[line.entrant] || line.entrant }), h("td", { text: line.event_points }),
      ties.map((k) => h("td", { text: line.tie_breaks[k] })), h("td", { text: line.played }))))));
}

// ---- start ----------------------------------------------------------------------------------
async function start() {
  setLanguage(initialLanguage());
  const switchButton = document.getElementById("lang");
  const drawChrome = () => { translate(document, t); switchButton.textContent = t("other"); document.title = t("director_title"); };
  switchButton.addEventListener("click", async () => {
    setLanguage(language() === "en" ? "ja" : "en");
    drawChrome();
    games = await fetchGames().catch(() => games);
    if (current) { shownKey = ""; drawEvent(); } else drawHome();
  });
  drawChrome();
  try {
    [games, ready] = await Promise.all([fetchGames(), get("/readyz").catch(() => null)]);
  } catch (err) {
    say(problemText(err));
    return;
  }
  drawHome();
}

start();


