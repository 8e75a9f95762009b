// The public API, as any client uses it. The page is served at <root>/table: the API is at <root>.
import { language } from "./i18n.js";

export const BASE = location.pathname.replace(/\/table\/?$/, "");

// The service could not be reached (no answer at all): what was entered is kept and sent later.
export class Unreachable extends Error {}
// The service answered with a problem (4xx/5xx, application/problem+json).
export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `HTTP ${status}`);
    this.status = status; this.body = body || {};
    this.code = this.body.code;
  }
}

// The page's service worker (sw.js) answers a GET with the copy it kept when the service is out
// of reach, marked with this header.
const OFFLINE_COPY = "X-Card-Referee-Offline-Copy";

export async function call(method, path, body, auth = {}) {
  return (await callWithSource(method, path, body, auth)).data;
}

// {data, kept}: `kept` when the answer is the service worker's copy (the service is out of reach).
// hostToken: under sealing, a match's next deal from its next_match is its host's (the
// `host_token` a deal of the match answered) or the referee's (the key). `key` is any bearer
// credential (the referee key, an event's table token); refereeKey: the referee key beside an
// event table's token (X-Referee-Key: a pushed record's referee acts need it when states are
// signed or sealed); idempotencyKey: a change sent again with the same key counts once (hosted
// events); eventToken: an event table's token dealing one of the round's committed deals
// (X-Event-Token, beside the referee key in Authorization).
export async function callWithSource(method, path, body, { key, seatToken, hostToken, refereeKey, idempotencyKey, eventToken } = {}) {
  const headers = { "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers["Authorization"] = `Bearer ${key}`;
  if (seatToken) headers["X-Seat-Token"] = seatToken;
  if (hostToken) headers["X-Host-Token"] = hostToken;
  if (refereeKey) headers["X-Referee-Key"] = refereeKey;
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  if (eventToken) headers["X-Event-Token"] = eventToken;
  let resp;
  try {
    resp = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
                                      cache: "no-store" });
  } catch (e) {
    throw new Unreachable(String(e));
  }
  // A proxy's gateway error means the service itself is out of reach.
  if ([502, 503, 504].includes(resp.status) && !(resp.headers.get("Content-Type") || "").includes("problem")) {
    throw new Unreachable(`HTTP ${resp.status}`);
  }
  const type = resp.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await resp.json() : await resp.text();
  if (!resp.ok) throw new Problem(resp.status, typeof data === "object" ? data : { detail: data });
  return { data, kept: resp.headers.get(OFFLINE_COPY) === "1" };
}

export function rulesLink(rule) {
  // "<game> D9" -> the rules page's anchor (service/pages.py gives each rule its number as id)
  const [game, ...rest] = String(rule).split(" ");
  const number = rest.join(" ");
  return `${BASE}/v1/games/${encodeURIComponent(game)}/rules.${language()}.html#${encodeURIComponent(number)}`;
}
