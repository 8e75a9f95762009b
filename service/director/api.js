// The public API, as any client uses it, for the live events' pages. The director's page is
// served at <root>/director, the public page at <root>/events/<id>: the API is at <root>.
import { language } from "./i18n.js";

export const BASE = location.pathname.replace(/\/(director|events\/[^/]*)\/?$/, "");

// The service answered with a problem (application/problem+json) or not at all (status 0).
export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || (status ? `HTTP ${status}` : "unreachable"));
    this.status = status; this.body = body || {}; this.code = this.body.code;
  }
}

// A random Idempotency-Key: crypto.randomUUID needs a secure context, and a venue's laptop
// is reached over plain http on the LAN.
export function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// {data, etag}. `token` goes in Authorization; `version` in If-Match; a change carries an
// Idempotency-Key (`idempotent`: true for a new one, or the key of the change sent again) so
// that a retry of a lost answer is recognised.
export async function request(method, path, { body, token, version, idempotent } = {}) {
  const headers = { "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (version !== undefined && version !== null) headers["If-Match"] = `"${version}"`;
  if (idempotent) headers["Idempotency-Key"] = idempotent === true ? randomKey() : idempotent;
  let resp;
  try {
    resp = await fetch(BASE + path, { method, headers, cache: "no-store",
                                      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Problem(0, { detail: String(e) });
  }
  const type = resp.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await resp.json() : await resp.text();
  if (!resp.ok) throw new Problem(resp.status, typeof data === "object" ? data : { detail: data });
  return { data, etag: (resp.headers.get("ETag") || "").replace(/"/g, "") };
}

export async function get(path, options) { return (await request("GET", path, options)).data; }

// The event's public view: the document as anyone may see it, each table's places, standings.
export function publicView(eventId) { return get(`/v1/events/${encodeURIComponent(eventId)}`); }

// The games, names and words in the page's language.
export async function games() { return (await get("/v1/games")).games; }

// A QR code (SVG, drawn by the service) for a link to one of the service's pages, as an
// element. The link goes in the body: a table's link carries its token.
export async function qrCode(link) {
  const resp = await fetch(BASE + "/director/qr", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: link }) });
  if (!resp.ok) throw new Problem(resp.status, await resp.json().catch(() => ({})));
  const svg = new DOMParser().parseFromString(await resp.text(), "image/svg+xml").documentElement;
  return document.importNode(svg, true);
}

// The address of a page of this service as a phone opens it.
export function pageLink(path) { return location.origin + BASE + path; }

// Whether this page was opened on the laptop's own loopback address, which no phone reaches.
export function onLoopback() {
  return ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
}
