// One tab owns a match at a time (docs/table-page.md "Two tabs on one match"). Every tab of this
// browser keeps its matches in the same IndexedDB (store.js) but holds its own copy in memory: two
// tabs on one match would each save theirs over the other's (an entry made in one lost when the
// other saves) and both push to the service. So a tab that opens a match asks for a Web Lock named
// after the match's id, without waiting (`ifAvailable`), and holds it for as long as the match is
// open in it; a tab closing (or reloading, or crashing) lets it go by itself. A tab that does not
// get it shows the match read-only and follows the owner through a BroadcastChannel:
//   {type: "saved", id}  the owner kept the match (after every save): read it again;
//   {type: "take", id}   a read-only tab asks to own it ("Take over here"): the owner saves,
//                        lets the lock go and turns read-only; the asking tab, which queued its
//                        own request for the lock first, gets it then (or takes it, from an
//                        owner that does not answer: STEAL_AFTER_MS).
// An event table's link opened in two tabs at once makes one match: one tab at a time finds the
// table's match or makes it (oneTabAtATime).
// A browser without Web Locks or BroadcastChannel (an old one) coordinates nothing: every tab
// owns what it opens, as before this module.
const CHANNEL = "cardref.table.tabs";
const LOCK_PREFIX = "cardref.table.match.";
const lockName = (id) => `${LOCK_PREFIX}${id}`;

export const coordinated = Boolean(globalThis.navigator && navigator.locks && typeof navigator.locks.request === "function"
                                   && typeof globalThis.BroadcastChannel === "function");

let channel = null;
let held = null;       // {id, release, mine}: the match this tab owns, how to let it go, its request
let following = null;  // the id of the match this tab shows read-only
let asking = null;     // {id, abort}: "Take over here" waiting for the owner to let go
let claims = Promise.resolve();  // claims one after the other: a lock never left held by a race
let hooks = { saved() {}, yielding: async () => {}, lost() {} };

// `saved(id)`: the owner kept the match followed here; `yielding(id)`: another tab takes over
// the match owned here (resolves once it is kept); `lost(id)`: this tab shows it read-only now.
export function coordinate(given) {
  hooks = { ...hooks, ...given };
  if (!coordinated || channel) return;
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (ev) => heard(ev.data || {});
}

// This tab owns match `id` (always true without coordination, and for no match at all).
export function owns(id) {
  return !coordinated || !id || Boolean(held && held.id === id);
}
// A "Take over here" is waiting for the owner.
export function takingOver(id) { return Boolean(asking && asking.id === id); }

// Open match `id` in this tab (null: none): the match open before is let go, and this tab owns
// `id` when no other tab does. Resolves whether it owns it.
export function claim(id) {
  const next = claims.then(() => claimNow(id));
  claims = next.catch(() => false);
  return next;
}
async function claimNow(id) {
  if (held && held.id === id) return true;
  letGo();
  following = null;
  if (!coordinated || !id) return true;
  const got = await lock(id, { ifAvailable: true });
  if (!got) following = id;
  return got;
}

// The lock on `id`, held from its grant until letGo (or the tab's end). Resolves false when it
// is not granted (held by another tab, with `ifAvailable`; aborted; refused). `taking`: a
// take-over's request, which this tab no longer wants once it has moved on (another match
// opened, the request aborted).
function lock(id, options, taking = false) {
  const mine = {};
  return new Promise((resolve) => {
    navigator.locks.request(lockName(id), options, (granted) => {
      if (!granted || (taking && (following !== id || (options.signal && options.signal.aborted)))) {
        resolve(false); return undefined;
      }
      return new Promise((release) => { held = { id, release, mine }; following = null; resolve(true); });
    }).then(() => {}, () => {
      resolve(false);
      // taken from this tab (a take-over that this tab did not answer, hung or frozen in the
      // background): read-only from now on
      if (held && held.mine === mine) { held = null; following = id; hooks.lost(id); }
    });
  });
}

function letGo() {
  if (asking) { asking.abort(); asking = null; }
  if (held) { held.release(); held = null; }
}

// "Take over here": ask the owner to let go, and own the match once it has. Resolves true then
// (false when another match was opened here meanwhile). An owner that does not let go within
// STEAL_AFTER_MS (a page hung, a tab frozen in the background) has the lock taken from it: it
// had its time to finish, and it keeps every entry as it is made.
export const STEAL_AFTER_MS = 8000;
export function takeOver(id) {
  if (!coordinated || owns(id)) return Promise.resolve(true);
  if (asking && asking.id === id) return asking.done;
  const control = new AbortController();
  const done = (async () => {
    const late = new Promise((resolve) => { setTimeout(() => resolve(null), STEAL_AFTER_MS); });
    let got = await Promise.race([lock(id, { signal: control.signal }, true), late]);
    if (got === null) {  // not let go in time
      if (owns(id)) got = true;
      else if (following !== id) got = false;
      else { control.abort(); got = await lock(id, { steal: true }, true); }
    }
    if (asking && asking.id === id) asking = null;
    return got;
  })();
  asking = { id, abort: () => control.abort(), done };
  // after the request: it is queued before the owner can let go
  channel.postMessage({ type: "take", id });
  return done;
}

// `fn` run while no other tab of this browser runs one under the same `name` (at once without
// coordination): resolves what it resolves.
export function oneTabAtATime(name, fn) {
  if (!coordinated) return fn();
  return navigator.locks.request(`cardref.table.${name}`, () => fn());
}

// The ids of the matches a tab of this browser owns now (none known without coordination).
export async function ownedMatches() {
  if (!coordinated || typeof navigator.locks.query !== "function") return new Set();
  try {
    const { held: locks = [] } = await navigator.locks.query();
    return new Set(locks.map((x) => x.name).filter((n) => n && n.startsWith(LOCK_PREFIX)).map((n) => n.slice(LOCK_PREFIX.length)));
  } catch (e) {
    return new Set();
  }
}

// Said to the other tabs after every save of the match owned here.
export function announceSaved(id) {
  if (channel && held && held.id === id) channel.postMessage({ type: "saved", id });
}

async function heard(msg) {
  if (msg.type === "saved" && msg.id && msg.id === following) hooks.saved(msg.id);
  if (msg.type === "take" && held && held.id === msg.id) {
    const id = msg.id;
    try { await hooks.yielding(id); } catch (e) { console.error(e); }
    if (!held || held.id !== id) return;
    held.release(); held = null;
    following = id;
    hooks.lost(id);
  }
}
