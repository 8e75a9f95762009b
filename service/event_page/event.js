// The public event page (/events/<id>): standings with their tie-breaks, the current round's
// seating with "find my table", each table's result as it comes, the crosstable, the closed
// rounds' deals with their seeds (each table's whole record a link away), and a player's own page
// (#entrant=<id>). Phone first. It reads only the event's public view (GET /v1/events/<id>, no
// key), polled: it never holds a token, and the view never holds a seed before its round is
// closed nor a hand in play.
import { BASE, Problem, games as fetchGames, publicView } from "../../director/api.js";
import { initialLanguage, language, setLanguage, t } from "../../director/i18n.js";
import { currentRound, h, namesOf, seatPerson, tid, translate, unconfirmed } from "../../director/dom.js";

const app = document.getElementById("app");
const POLL_MS = 5000;
const eventId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
let games = [];
let view = null;
let shown = "";
let query = "";

function say(message) {
  const box = document.getElementById("notice");
  box.hidden = !message;
  box.className = "notice error";
  box.textContent = message || "";
}

function gameName(id) {
  const g = games.find((x) => x.id === id);
  return g ? (g.names[language()] || g.names.en) : id;
}

function chosenEntrant() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return params.get("entrant");
}

// Where an entrant sits in a round: [table, seat numbers (from 1)], or null (a bye, not seated).
function seatOf(round, entrant) {
  for (const table of round.tables) {
    const seats = table.seats.map((s, k) => (s.entrant === entrant ? k + 1 : 0)).filter(Boolean);
    if (seats.length) return { table, seats };
  }
  return null;
}

function ordinalPlace(p) { return language() === "ja" ? `${p}位` : `${p}.`; }

function tableResult(table, names) {
  const result = table.result;
  if (!result) return h("span", { class: "desc", text: t("waiting") });
  const placed = table.places ? Object.entries(table.places).sort((a, b) => a[1] - b[1])
    .map(([u, p]) => `${ordinalPlace(p)} ${names[u] || u}`).join("  ") : "";
  if (result.progress) return h("span", {}, `${result.progress.deals_finished} ${t("deals_done")}`, placed ? ` — ${placed}` : "");
  // a reported result a seat has not confirmed, where the event asks each seat to: it counts
  // (the director sees to it with the players), and the players see it is not settled
  return h("span", {}, placed || t("result_in"), unconfirmed(view.event, table)
    ? h("span", { class: "unconfirmed", ...tid(`table-unconfirmed-${table.number}`), text: ` (${t("unconfirmed")})` }) : null);
}

function draw() {
  if (!view) return;
  const ev = view.event;
  const names = namesOf(ev);
  const cr = currentRound(ev);
  const me = chosenEntrant();
  const key = `${view.version}|${language()}|${me}|${query}`;
  if (key === shown) return;
  shown = key;
  const typing = document.activeElement && document.activeElement.dataset.testid === "find";
  const rounds = ev.rounds || [];
  const status = view.published ? t("published")
    : cr ? `${t("round")} ${cr.number} ${t("of")} ${ev.system.rounds} · ${cr.round.seed == null ? t("open") : t("closed")}`
    : t("no_rounds");

  const parts = [h("section", { class: "card" },
    h("h1", { ...tid("event-name"), text: ev.name || eventId }),
    h("p", { class: "desc" }, `${gameName(ev.system.game)} · `, h("span", { ...tid("event-status"), text: status })))];

  // find my table
  const search = h("input", { type: "search", ...tid("find"), placeholder: t("find_hint"), value: query,
    oninput: (e) => { query = e.target.value; shown = ""; draw(); } });
  const found = [];
  const wanted = query.trim().toLowerCase();
  if (wanted) {
    for (const e of ev.entrants || []) {
      const hit = [e.name, ...(e.members || []).map((m) => m.name)].some((n) => n.toLowerCase().includes(wanted));
      if (!hit) continue;
      const where = cr ? seatOf(cr.round, e.id) : null;
      found.push(h("li", { ...tid(`found-${e.id}`) },
        h("a", { href: `#entrant=${encodeURIComponent(e.id)}` }, e.name), " — ",
        where ? h("strong", { text: `${t("your_table")} ${where.table.number} · ${t("seat")} ${where.seats.join(", ")}` })
          : cr && (cr.round.byes || []).includes(e.id) ? t("bye") : t("no_rounds")));
    }
  }
  parts.push(h("section", { class: "card" }, h("h2", { text: t("find_table") }), search,
    wanted ? (found.length ? h("ul", { ...tid("found") }, found) : h("p", { ...tid("found"), text: t("no_match") })) : null));

  if (me) parts.push(myPage(me, names));
  parts.push(standingsSection(names, me));
  if (cr) parts.push(seatingSection(cr, names, me));
  if (rounds.length) parts.push(crosstable(names, me));
  const closed = rounds.map((r, k) => [r, k + 1]).filter(([r]) => r.seed != null);
  if (closed.length) parts.push(seedsSection(closed));
  app.replaceChildren(...parts);
  if (typing) { search.focus(); search.setSelectionRange(query.length, query.length); }
}

function standingsSection(names, me) {
  const ties = view.event.system.tie_breaks || [];
  return h("section", { class: "card" }, h("h2", { text: t("standings") }), h("div", { class: "scroll" },
    h("table", { ...tid("standings") },
      h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: t("entrant") }), h("th", { text: t("event_points_short") }),
        ties.map((k) => h("th", { text: t(`tie_${k}`) })), h("th", { text: t("played") }))),
      h("tbody", {}, view.standings.map((line) => h("tr", { class: line.entrant === me ? "mine" : null },
        h("td", { text: line.rank }),
        h("td", {}, h("a", { href: `#entrant=${encodeURIComponent(line.entrant)}` }, names[line.entrant] || line.entrant),
          line.disqualified ? h("span", { class: "desc", text: ` (${t("disqualified")})` }) : null),
        h("td", { text: line.event_points }), ties.map((k) => h("td", { text: line.tie_breaks[k] })), h("td", { text: line.played })))))));
}

function seatingSection(cr, names, me) {
  return h("section", { class: "card" }, h("h2", { text: `${t("current_seating")} — ${t("round")} ${cr.number}` }),
    cr.round.byes && cr.round.byes.length ? h("p", { text: `${t("byes")}: ${cr.round.byes.map((b) => names[b] || b).join(", ")}` }) : null,
    h("div", { class: "tables", ...tid("seating") }, cr.round.tables.map((table) => h("div", {
      class: `table-card${table.seats.some((s) => s.entrant === me) ? " mine" : ""}`, ...tid(`table-${table.number}`) },
      h("h3", { text: `${t("table")} ${table.number}` }),
      h("ol", {}, table.seats.map((s) => h("li", { text: seatPerson(s, names) }))),
      h("p", { ...tid(`table-result-${table.number}`) }, tableResult(table, names))))));
}

// Rows: the entrants in standings order; columns: the rounds; each cell the table and the
// place there (or a bye).
function crosstable(names, me) {
  const rounds = view.event.rounds || [];
  return h("section", { class: "card" }, h("h2", { text: t("crosstable") }), h("div", { class: "scroll" },
    h("table", { ...tid("crosstable") },
      h("thead", {}, h("tr", {}, h("th", { text: t("entrant") }), rounds.map((_, k) => h("th", { text: `${t("round_short")}${k + 1}` })),
        h("th", { text: t("event_points_short") }))),
      h("tbody", {}, view.standings.map((line) => h("tr", { class: line.entrant === me ? "mine" : null },
        h("td", { text: names[line.entrant] || line.entrant }),
        rounds.map((r) => h("td", { text: cell(r, line.entrant) })),
        h("td", { text: line.event_points })))))));
}

function cell(round, entrant) {
  if ((round.byes || []).includes(entrant)) return t("bye");
  const where = seatOf(round, entrant);
  if (!where) return "";
  const place = where.table.places ? where.table.places[entrant] : undefined;
  return `${t("table")}${where.table.number}${place ? ` · ${ordinalPlace(place)}` : ""}`;
}

function seedsSection(closed) {
  return h("section", { class: "card" }, h("h2", { text: t("deals_seeds") }), h("div", { class: "scroll", ...tid("seeds") },
    closed.map(([r, n]) => h("div", {},
      h("h3", { text: `${t("round")} ${n}` }),
      h("p", { class: "desc" }, `${t("seed")}: `, h("code", { text: r.seed }), ` · ${t("salt")}: `, h("code", { text: r.seed_salt || "" }),
        ` · ${t("seed_commitment")}: `, h("code", { text: r.seed_commitment })),
      (r.deals || []).length ? h("ol", {}, r.deals.map((d) => h("li", {}, `${t("deal")}: `, h("code", { text: d.seed || "" }), " ", h("code", { class: "desc", text: d.seed_commitment })))) : null,
      // each table's deals as the view sums its record up; the whole record (every action) a link away
      r.tables.filter((tb) => tb.result && tb.result.summary).map((tb) => h("p", { class: "desc" }, `${t("table")} ${tb.number}: `,
        (tb.result.summary.deals || []).map((d, k) => h("span", {}, `${t("deal")} ${k + 1} `, h("code", { text: (d.deal && d.deal.seed) || "—" }), " ")),
        h("a", { href: recordLink(n, tb.number), ...tid(`record-${n}-${tb.number}`) }, t("match_record"))))))));
}

// A closed round's table's whole match record (JSON: check it with POST /v1/records/check).
function recordLink(round, table) {
  return `${BASE}/v1/events/${encodeURIComponent(eventId)}/rounds/${round}/tables/${table}/record`;
}

function myPage(me, names) {
  const ev = view.event;
  const entrant = (ev.entrants || []).find((e) => e.id === me);
  if (!entrant) return h("section", { class: "card", ...tid("my-page") }, h("p", { text: t("no_match") }));
  const line = view.standings.find((l) => l.entrant === me);
  const cr = currentRound(ev);
  const where = cr ? seatOf(cr.round, me) : null;
  return h("section", { class: "card mine", ...tid("my-page") },
    h("p", {}, h("a", { href: "#", onclick: (e) => { e.preventDefault(); history.replaceState(null, "", location.pathname); shown = ""; draw(); } }, t("back_to_event"))),
    h("h2", { text: entrant.name }),
    line ? h("p", { text: `${t("rank")} ${line.rank} · ${line.event_points} ${t("event_points_short")}` }) : null,
    where ? h("p", { ...tid("my-table") }, h("strong", { text: `${t("round")} ${cr.number}: ${t("your_table")} ${where.table.number} · ${t("seat")} ${where.seats.join(", ")}` }),
      h("br"), `${t("opponents")}: ${where.table.seats.filter((s) => s.entrant !== me).map((s) => seatPerson(s, names)).join(", ")}`) : null,
    h("ol", {}, (ev.rounds || []).map((r, k) => h("li", { text: `${t("round")} ${k + 1}: ${cell(r, me) || "—"}` }))));
}

async function refresh() {
  try {
    view = await publicView(eventId);
    say("");
    draw();
  } catch (err) {
    if (err instanceof Problem && err.status === 404) { say(t("event_not_found")); return; }
    say(err instanceof Problem && err.status === 0 ? t("unreachable") : String(err.message || err));
  }
}

async function start() {
  setLanguage(initialLanguage());
  const switchButton = document.getElementById("lang");
  const chrome = () => { translate(document, t); switchButton.textContent = t("other"); document.title = t("event_title"); };
  switchButton.addEventListener("click", async () => {
    setLanguage(language() === "en" ? "ja" : "en");
    chrome();
    games = await fetchGames().catch(() => games);
    shown = ""; draw();
  });
  chrome();
  window.addEventListener("hashchange", () => { shown = ""; draw(); window.scrollTo(0, 0); });
  games = await fetchGames().catch(() => []);
  await refresh();
  setInterval(refresh, POLL_MS);
}

start();
