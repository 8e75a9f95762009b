// The matches kept in this browser, in IndexedDB: a reload, a closed tab or a flat battery resumes
// where it was, and several matches stay kept (a list, each with an id) until deleted.
//
// The match in memory (what app.js works on):
//   {id, game, players, options, key, mode: "server"|"physical", created, tags,
//    deals: [{request, answer: {state, to_act, status, seed_commitment, seat_tokens, host_token},
//             steps: [{action, state, to_act, status, score_deltas, events, seed, seed_salt, next_match,
//                      comment}]}],   // comment: the referee's note on the entry (optional)
//    pending: [action…],   // entered while the service was out of reach, sent in order
//    draft: {request, hands, table, dealer},   // a physical deal being entered
//    event: {id, round, table, token, name, deals, deal_limit, entrants, names, push, reports,
//            reporting}}   // a table of an event the service hosts (event.js)
// A round's table of a tournament event opens into the same shape: its id, its seats, its options
// and its tags (event, round, table) are the match's.
//
// What is kept (database "cardref-table"): the match's head in "matches" (everything above but
// the deals, and `deal_count`), each deal in "deals" under [match id, deal index], and which match
// is open in "meta" ("current"). A step is kept as entered — its action, who acts next, its status,
// score changes, events, the revealed seed, the next deal's match values, its comment — but not
// its state: a state is the bulk of an answer (about 2-3 k characters a Guandan step) and the
// service gives it again from the state before and the action. Kept are the states the service
// cannot give again or that the page needs without it:
//   - each deal's first state (its answer): a server-shuffled deal's seed is secret until it
//     ends, and a signed or sealed state can only come from the service's own answer, so the
//     deal cannot be dealt again — every later state is rebuilt from this one;
//   - each deal's last state: what the page resumes from, sends the queued entries with while
//     the service is out of reach, and shows the finished deal's result with;
//   - in the deal in play (the match's last), every CHECKPOINT-th step's state: an undo after a
//     reload then asks the service for at most that many steps, not for the whole deal's.
// A step's missing state is asked of the service when it is needed (undo: app.js restoreStates).
// A 30-deal Guandan match is then about 1-2 MB, where every state would be well over 10 MB.
//
// Writes: each save is one transaction (the head, the deals that may have changed — the last one
// kept before and any after it — and "current"). A write that fails (the quota, IndexedDB missing
// or refused, as in some private modes, a transaction aborted) is reported to the listeners at
// once; the match stays in memory, and the next save writes all of it again.
// Two tabs on one match would each write their own copy over the other's: only the tab that owns
// the match saves it (tabs.js, app.js keep).
const DB_NAME = "cardref-table";
const DB_VERSION = 1;
const STORED_VERSION = 2;                 // the shape above; 1 was the whole match in localStorage
const LEGACY_KEY = "cardref.table.match"; // where version 1 kept the one match
const CHECKPOINT = 16;

let db = null;            // the open database, null when this browser keeps nothing
let failure = null;       // the last storage failure (an Error or DOMException), until a save repairs it
let failures = 0;         // counts failures: a save issued before the latest one cannot repair it
let writeAll = true;      // after a failure the next save writes every deal again
const storedDeals = new Map();  // match id -> deals kept as of the last save issued
const listeners = [];
// A copy of the match as the page holds it, saved as a file when the browser keeps nothing (or
// any time): unlike a match record it has the deal in play, whose seed is still secret.
const COPY_FORMAT = "card-referee/table-match";

// fn(error | null): a storage failure, or null once everything is kept again.
export function onStorageChange(fn) { listeners.push(fn); }
export function storageFailure() { return failure; }

function failed(error) {
  failure = error || new DOMException("the write was not kept", "UnknownError");
  failures += 1;
  writeAll = true;
  storedDeals.clear();
  for (const fn of listeners) fn(failure);
}

function asPromise(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
function committed(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error || new DOMException("the transaction was aborted", "AbortError"));
  });
}

export function newMatchId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

// Keep the whole match again (the referee's "try again" after a failure): the database reopened
// if it was not open.
export async function saveAgain(m) {
  await openStore();
  return saveMatch(m, { all: true });
}

// Open the database (once; again after another tab or a test closed it). False when the browser
// keeps nothing: the failure is reported.
let opening = null;
export function openStore() {
  if (db) return Promise.resolve(true);
  if (!opening) opening = openNow().finally(() => { opening = null; });
  return opening;
}
async function openNow() {
  try {
    if (!globalThis.indexedDB) throw new DOMException("this browser has no IndexedDB", "NotSupportedError");
    const req = indexedDB.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      const d = req.result;
      if (!d.objectStoreNames.contains("matches")) d.createObjectStore("matches", { keyPath: "id" });
      if (!d.objectStoreNames.contains("deals")) d.createObjectStore("deals", { keyPath: ["match", "index"] });
      if (!d.objectStoreNames.contains("meta")) d.createObjectStore("meta", { keyPath: "name" });
    };
    db = await asPromise(req);
    // another tab (or a test) deletes or upgrades the database: let it, this page reopens later
    db.onversionchange = () => { db.close(); db = null; };
    return true;
  } catch (e) {
    db = null;
    failed(e);
    return false;
  }
}

function head(m) {
  const out = { ...m, v: STORED_VERSION, deal_count: m.deals.length, updated: new Date().toISOString() };
  delete out.deals;
  return out;
}

function storedDeal(id, index, d, inPlay) {
  const last = d.steps.length - 1;
  const steps = d.steps.map((s, i) => {
    if (i === last || (inPlay && (i + 1) % CHECKPOINT === 0 && s.state)) return s;
    const { state, ...rest } = s;  // rebuilt by the service from the state before (see above)
    return rest;
  });
  return { match: id, index, request: d.request, answer: d.answer, steps };
}

const dealRange = (id, from = 0) => IDBKeyRange.bound([id, from], [id, Infinity]);

// Keep the match (its id given when it has none). Resolves true once written, false when the
// write failed (reported to the listeners); never rejects. `all`: every deal, not only those that
// may have changed since the last save.
export function saveMatch(m, { all = false } = {}) {
  if (!m.id) m.id = newMatchId();
  if (!db) return openStore().then((ok) => (ok ? saveMatch(m, { all: true }) : false));
  const repairing = writeAll || all;
  const before = failures;
  let done;
  try {
    const tx = db.transaction(["matches", "deals", "meta"], "readwrite");
    done = committed(tx);
    const n = m.deals.length;
    const known = repairing ? undefined : storedDeals.get(m.id);
    const from = known === undefined ? 0 : Math.max(0, Math.min(known, n) - 1);
    tx.objectStore("matches").put(head(m));
    const deals = tx.objectStore("deals");
    for (let i = from; i < n; i++) deals.put(storedDeal(m.id, i, m.deals[i], i === n - 1));
    if (known === undefined || known > n) deals.delete(dealRange(m.id, n));  // a deal undone
    tx.objectStore("meta").put({ name: "current", id: m.id });
    storedDeals.set(m.id, n);
    writeAll = false;
  } catch (e) {  // a put refused at once (the quota, a value that cannot be kept, a closed database)
    failed(e);
    return Promise.resolve(false);
  }
  return done.then(() => {
    if (failure && repairing && before === failures) {
      failure = null;
      for (const fn of listeners) fn(null);
    }
    return true;
  }, (e) => { failed(e); return false; });
}

function fromStored(h, deals) {
  const m = { ...h, v: 1, deals: deals.slice(0, h.deal_count).map((d) => ({
    request: d.request, answer: d.answer,
    steps: d.steps.map((s) => ("state" in s ? s : { ...s, state: null })) })) };
  delete m.deal_count; delete m.updated;
  return m;
}

// The match kept under `id` (null: none), its deals in order.
export async function loadMatch(id) {
  if (!(await openStore())) return null;
  const tx = db.transaction(["matches", "deals"], "readonly");
  const [h, deals] = await Promise.all([asPromise(tx.objectStore("matches").get(id)),
                                        asPromise(tx.objectStore("deals").getAll(dealRange(id)))]);
  if (!h) return null;
  storedDeals.set(id, h.deal_count);
  return fromStored(h, deals);
}

// The match open when the page was last used (null: none). A match kept by the page's first
// version (the whole of it in localStorage) moves into IndexedDB here, once written there.
export async function resumeMatch() {
  let legacy = null;
  try {
    const m = JSON.parse(localStorage.getItem(LEGACY_KEY) || "null");
    legacy = m && m.v === 1 ? m : null;
  } catch { legacy = null; }
  if (!(await openStore())) return legacy;
  if (legacy) {
    legacy.id = legacy.id || newMatchId();
    if (await saveMatch(legacy, { all: true })) localStorage.removeItem(LEGACY_KEY);
    return legacy;
  }
  try {
    return await currentMatch();
  } catch (e) {
    failed(e);
    return null;
  }
}

// The match open, as kept (null: none).
export async function currentMatch() {
  if (!(await openStore())) return null;
  const current = await asPromise(db.transaction("meta", "readonly").objectStore("meta").get("current"));
  return current && current.id ? loadMatch(current.id) : null;
}

// The kept matches, the latest used first: {id, game, players, created, updated, tags, deals}.
export async function listMatches() {
  if (!db) return [];
  try {
    const heads = await asPromise(db.transaction("matches", "readonly").objectStore("matches").getAll());
    return heads.map((h) => ({ id: h.id, game: h.game, players: h.players, created: h.created,
                               updated: h.updated, tags: h.tags || {}, deals: h.deal_count,
                               event: h.event ? { id: h.event.id, round: h.event.round, table: h.event.table } : null }))
      .sort((a, b) => String(b.updated).localeCompare(String(a.updated)));
  } catch (e) {
    return [];
  }
}

// No match open (a new one is being set up): the current one stays kept.
export function closeMatch() {
  if (!db) return Promise.resolve(false);
  try {
    const tx = db.transaction("meta", "readwrite");
    tx.objectStore("meta").delete("current");
    return committed(tx).then(() => true, () => false);
  } catch (e) {
    return Promise.resolve(false);
  }
}

// Forget a kept match and its deals.
export async function deleteMatch(id) {
  if (!db) return false;
  try {
    const tx = db.transaction(["matches", "deals", "meta"], "readwrite");
    const done = committed(tx);
    tx.objectStore("matches").delete(id);
    tx.objectStore("deals").delete(dealRange(id));
    const meta = tx.objectStore("meta");
    const current = await asPromise(meta.get("current"));
    if (current && current.id === id) meta.delete("current");
    await done;
    storedDeals.delete(id);
    return true;
  } catch (e) {
    return false;
  }
}

// The match as a file of its own: every state the page holds, the seats' tokens (sealed states:
// to go on playing them), but not the referee key, which the page asks for again when needed.
// An event's table token is left out too: a file is carried around, and the table's link opens
// the match again with its token.
export function matchCopy(m) {
  const match = { ...m, key: "" };
  if (m.event) match.event = { ...m.event, token: "" };
  return { format: COPY_FORMAT, format_version: 1, match };
}

// The match of a file matchCopy wrote (null: not such a file).
export function fromCopy(data) {
  if (!data || data.format !== COPY_FORMAT || data.format_version !== 1) return null;
  const m = data.match;
  if (!m || typeof m.game !== "string" || !Array.isArray(m.players) || !Array.isArray(m.deals)) return null;
  return { ...m, pending: Array.isArray(m.pending) ? m.pending : [] };
}
