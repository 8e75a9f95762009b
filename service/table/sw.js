// The table page's service worker (scope: the page, <root>/table): a reload, a reopened tab or a
// restarted browser opens the page even while the service is out of reach, with the match kept
// in the browser (IndexedDB, store.js); the page then says the service is unreachable and queues what is entered.
//
// Network first, always: while the service answers, the page and what it reads are the service's
// own (a deployed update shows at once); each answer refreshes the copy kept here. Only when
// nothing answers is the copy served, marked with OFFLINE_HEADER so that the page knows.
//
// The service fills in CACHE_VERSION (a digest of the package's and the engine's versions and of
// the page's files) and PAGE_FILES when it serves this file: a new version is a new script, which
// the browser installs, and its activation drops every older cache.
const CACHE_VERSION = "__CACHE_VERSION__";
const PAGE_FILES = __PAGE_FILES__;
const CACHE = `cardref-table-${CACHE_VERSION}`;
const OFFLINE_HEADER = "X-Card-Referee-Offline-Copy";
const ROOT = new URL("..", self.location.href).href;   // <root>/ (this file is <root>/table/sw.js)
const PAGE = `${ROOT}table`;
// What the page reads to start, besides its own files: the games (in the page's language) and
// the spec (each game's <Game>Table fields).
const GAMES = `${ROOT}v1/games`;
const STARTUP = [GAMES, `${ROOT}openapi.json`];
const LANGUAGES = ["en", "ja"];
// A network that neither answers nor fails (a captive Wi-Fi): the kept copy after this long.
const PAGE_TIMEOUT_MS = 6000;

// The games' names and descriptions are in the page's language (it asks with Accept-Language):
// kept once per language. The spec is the same in both.
function keyFor(url, lang) {
  return url === GAMES ? `${url}?table-lang=${lang || "en"}` : url;
}
function langOf(request) {
  const lang = (request.headers.get("Accept-Language") || "en").toLowerCase().split(/[-,;]/)[0];
  return LANGUAGES.includes(lang) ? lang : "en";
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const own = [PAGE, ...PAGE_FILES.map((f) => `${ROOT}table/${f}`)];
    await Promise.all(own.map(async (url) => {
      const resp = await fetch(url, { cache: "no-store" });
      if (resp.ok) await cache.put(url, resp);
    }));
    await Promise.all(STARTUP.flatMap((url) => (url === GAMES ? LANGUAGES : ["en"]).map(async (lang) => {
      const resp = await fetch(url, { cache: "no-store", headers: { "Accept-Language": lang } });
      if (resp.ok) await cache.put(keyFor(url, lang), resp);
    })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("cardref-table-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function kept(request) {
  const url = request.url.split("#")[0];
  if (request.mode === "navigate" || url === PAGE || (url.startsWith(`${PAGE}/`) && !url.endsWith("/sw.js"))) {
    return url.split("?")[0];
  }
  if (STARTUP.includes(url)) return keyFor(url, langOf(request));
  return null;   // anything else (every POST among them) goes to the network untouched
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const key = kept(request);
  if (!key) return;
  event.respondWith(networkFirst(request, key));
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const resp = await withTimeout(fetch(request), PAGE_TIMEOUT_MS);
    // A proxy's gateway error is the service out of reach, not an answer to keep.
    if (![502, 503, 504].includes(resp.status)) {
      if (resp.ok) await cache.put(key, resp.clone());
      return resp;
    }
  } catch (e) {
    // out of reach: the kept copy below
  }
  // the games in the other language rather than nothing
  const copy = (await cache.match(key)) || (key.startsWith(GAMES) ? await cache.match(keyFor(GAMES, "en")) : null);
  if (!copy) return Response.error();
  const headers = new Headers(copy.headers);
  headers.set(OFFLINE_HEADER, "1");
  return new Response(copy.body, { status: copy.status, statusText: copy.statusText, headers });
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}
