// A table of an event the service hosts (docs/hosted-events.md), opened from the link the
// director's page hands each table:
//   <root>/table#event=<event id>&round=<n>&table=<t>&token=<table token>
// The token is in the fragment, which a browser never sends (no server log, no Referer holds it);
// the page takes it out of the address at once and keeps it with the match (IndexedDB), and it
// travels only in the Authorization header of the table's own requests. A referee running the
// table has given the page the referee key (the match keeps it): it goes with each push too, in
// X-Referee-Key.
//
// The event's match is set up from the event's public view (GET /v1/events/{id}): the table's
// seats in order (a substitute's id in their seat), the event's game and options, and — with the
// same deals at every table — the round's committed deals (GET .../rounds/{n}/deals, with the
// token: their commitments, and their seeds but under sealing), each dealt by naming it
// (`event_deal`, the token in X-Event-Token) and checked against its commitment. The page pushes the table's result as it goes: its whole record first (PUT
// .../tables/{t}/result), then only what each change adds (POST .../tables/{t}/record, naming the
// end the last push's answer gave).
import { call, Problem } from "./api.js";

// The link's parts, or null when the fragment is not a table's link.
export function tableLink(fragment) {
  const p = new URLSearchParams(String(fragment || "").replace(/^#/, ""));
  const id = p.get("event"), token = p.get("token");
  const round = Number(p.get("round")), table = Number(p.get("table"));
  if (!id || !token || !Number.isInteger(round) || round < 1 || !Number.isInteger(table) || table < 1) return null;
  return { id, round, table, token };
}

const path = (link) => `/v1/events/${encodeURIComponent(link.id)}`;

// The match of the linked table, ready for its first deal: {game, players, options, tags, event}.
// A table the event does not have (yet) is a Problem as the service words one (404).
export async function eventMatch(link) {
  const view = await call("GET", path(link));
  const doc = view.event;
  const rnd = (doc.rounds || [])[link.round - 1];
  const table = rnd && (rnd.tables || []).find((x) => x.number === link.table);
  if (!table) {
    throw new Problem(404, { code: "event_table_unknown",
                             detail: `${doc.name}: round ${link.round} has no table ${link.table}` });
  }
  const names = {};
  for (const e of doc.entrants || []) {
    names[e.id] = e.name;
    for (const m of e.members || []) names[m.id] = m.name;
  }
  const players = table.seats.map((s) => (s.substitute ? s.substitute.id : s.player));
  for (const s of table.seats) if (s.substitute) names[s.substitute.id] = s.substitute.name;
  // The entrants at the table, in seat order: a reported result places these (a team once).
  const entrants = [...new Set(table.seats.map((s) => s.entrant))];
  let deals = [];
  if ((rnd.deals || []).length) {
    deals = (await call("GET", `${path(link)}/rounds/${link.round}/deals`, undefined, { key: link.token })).deals;
  }
  const end = doc.system.round_end || {};
  return {
    game: doc.system.game, players, options: { ...(doc.system.options || {}) },
    tags: { event: doc.name, round: String(link.round), table: String(link.table) },
    event: { id: link.id, round: link.round, table: link.table, token: link.token, name: doc.name,
             deals, deal_limit: end.kind === "deals" ? end.deals : null, entrants,
             names: Object.fromEntries(players.concat(entrants).filter((x) => names[x]).map((x) => [x, names[x]])),
             // the event asks each seat to confirm a reported result before it is sent
             confirm: doc.system.confirmations === "seats",
             push: { status: "idle", seq: 0, hash: null }, reports: [], reporting: false },
  };
}

// The round's committed deal `k` (from 1) — its seed_commitment, and its seed and salt where the
// token may read them (not under sealing while the round is open) — or null: deals past the
// round's same deals are shuffled by the service.
export function committedDeal(event, k) {
  const d = event && Array.isArray(event.deals) ? event.deals[k - 1] : null;
  return d && d.seed_commitment ? d : null;
}

// What a deal request names to have the service deal the round's committed deal `k` with the seed
// it committed to (not a referee act: no referee key), and the header the table's token goes in:
// the Authorization header carries the referee key on that route (docs/hosted-events.md).
export function eventDeal(event, k) {
  return { event: event.id, round: event.round, deal: k };
}

// A cheap digest of what was last pushed (FNV-1a, 52 bits): to know whether a push would change
// anything and whether a retry is the same push. Not a security measure: the Idempotency-Key is
// the match's own random id and the push's number.
export function bodyHash(text) {
  let h1 = 0x811c9dc5, h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619) >>> 0;
    h2 = Math.imul(h2 ^ c, 2246822519) >>> 0;
  }
  return `${h1.toString(16)}-${(h2 & 0xfffff).toString(16)}-${text.length}`;
}

// PUT the table's result ({record} or {reported}). The Idempotency-Key names this push: the
// same key is sent again only with the same body, so a push whose answer was lost counts once.
// `refereeKey`: the key of the referee running the table, when the page holds one: with states
// signed or sealed, a record that adds a referee act (a penalty, a chombo, a deal entered from the
// cards) is taken only with it (docs/hosted-events.md).
export function putResult(event, body, idempotencyKey, refereeKey) {
  return call("PUT", `${path(event)}/rounds/${event.round}/tables/${event.table}/result`, body,
              { key: event.token, refereeKey: refereeKey || undefined, idempotencyKey });
}

// Calling the referee: the table's call (POST; the answer says when), whether it still waits (GET:
// {call} or {call: null} once the director cleared it) and the table cancelling it (DELETE).
export const CALL_REASONS = ["ruling", "irregularity", "dispute", "result"];
const callPath = (event) => `${path(event)}/rounds/${event.round}/tables/${event.table}/call`;
export function callReferee(event, reason) {
  return call("POST", callPath(event), reason ? { reason } : undefined, { key: event.token });
}
export function refereeCall(event) { return call("GET", callPath(event), undefined, { key: event.token }); }
export function cancelCall(event) { return call("DELETE", callPath(event), undefined, { key: event.token }); }

// POST what the record adds to the table's stored record, from the end `append.base` names (the
// referee key, when the page holds one, as with putResult).
export function appendRecord(event, append, idempotencyKey, refereeKey) {
  return call("POST", `${path(event)}/rounds/${event.round}/tables/${event.table}/record`, append,
              { key: event.token, refereeKey: refereeKey || undefined, idempotencyKey });
}

// What `record` adds to `pushed` (the record the service has, ending at `base`) as an append:
// the last deal's new actions and result, new deals, the new totals and digest. Null when the
// record is not `pushed` grown (an earlier action, deal or header changed, a result taken back):
// then the whole record is pushed.
export function recordAppend(pushed, record, base) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const header = (r) => Object.fromEntries(Object.entries(r).filter(([k]) => !["deals", "totals", "digest"].includes(k)));
  const k = pushed.deals.length - 1;
  if (record.deals.length <= k || !same(header(pushed), header(record))) return null;
  for (let i = 0; i < k; i++) if (!same(pushed.deals[i], record.deals[i])) return null;
  const was = pushed.deals[k], now = record.deals[k];
  if (!same(was.deal, now.deal) || now.actions.length < was.actions.length) return null;
  for (let i = 0; i < was.actions.length; i++) if (!same(was.actions[i], now.actions[i])) return null;
  if (was.result && !now.result) return null;
  const out = { base, actions: now.actions.slice(was.actions.length), deals: record.deals.slice(k + 1) };
  if (now.result && !same(now.result, was.result)) out.result = now.result;
  if (record.totals) out.totals = record.totals;
  if (record.digest) out.digest = record.digest;
  return out;
}

// The seat id or entrant id as the event names it.
export function personName(event, id) {
  return (event && event.names && event.names[id]) || id;
}
