// The match as a match record (docs/records.md, format 1): what the referee exports, what the
// service's records/check replays, what the page imports to resume.
function canonical(value) {
  // Object keys sorted, no whitespace: the record's digest is over this (its numbers are integers).
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

async function sha256(text) {
  if (!(globalThis.crypto && crypto.subtle)) return null;  // not a secure context: no digest
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// A deal of the page's match as the record writes it: the deal's own fields (a server deal only
// once it is over and its seed revealed), the actions as entered, the result when over.
function recordDeal(d) {
  const last = d.steps.length ? d.steps[d.steps.length - 1] : null;
  const finished = last ? last.status === "finished" : d.answer.status === "finished";
  const deal = {};
  for (const k of ["deck", "hands", "table", "dealer", "seed", "seed_salt"]) if (d.request[k] !== undefined) deal[k] = d.request[k];
  if (!d.request.hands && !d.request.deck && !d.request.seed) {
    if (!(last && last.seed)) return null;  // still secret: the seed is revealed when the deal ends
    deal.seed = last.seed;
    if (last.seed_salt) deal.seed_salt = last.seed_salt;
    if (d.answer.seed_commitment) deal.seed_commitment = d.answer.seed_commitment;
  } else if (d.request.seed && d.answer.seed_commitment) {
    // a seed the table was given (an event's same deals): no secret, written while in play
    deal.seed_commitment = d.answer.seed_commitment;
  }
  const totals = {};
  const actions = d.steps.map((s) => {
    // as the table entered it: the fields that judge it, not a button's words
    const { text: _words, ...action } = s.action;
    const entry = { action };
    if (s.score_deltas.length) {
      entry.score_deltas = s.score_deltas.map((x) => ({ target: x.target, kind: x.kind, delta: x.delta }));
      for (const x of s.score_deltas) totals[x.target] = (totals[x.target] || 0) + x.delta;
    }
    if (s.comment) entry.comment = s.comment;
    return entry;
  });
  const out = { deal, actions };
  if (finished) out.result = { status: "finished", totals };
  return out;
}

export async function buildRecord(m, game) {
  const deals = [];
  for (const d of m.deals) { const r = recordDeal(d); if (!r) break; deals.push(r); }
  const totals = {};
  for (const d of deals) for (const [k, v] of Object.entries((d.result || {}).totals || {})) totals[k] = (totals[k] || 0) + v;
  const record = { format: "card-referee/match-record", format_version: 1, game: m.game, players: m.players,
                   options: m.options || {}, tags: { ...(m.tags || {}), date: (m.created || new Date().toISOString()).slice(0, 10) },
                   match: m.deals.length && m.deals[0].request.match ? m.deals[0].request.match : null, deals };
  if (deals.every((d) => d.result)) record.totals = totals;
  const digest = await sha256(canonical(record));
  if (digest) record.digest = `sha256:${digest}`;
  return record;
}

// (deal request fields, actions, their comments) of each deal of a record, in order.
export function recordDeals(record) {
  return record.deals.map((d) => {
    const deal = { ...d.deal };
    delete deal.seed_commitment;  // checked by records/check; a replay draws its commitment again
    return [deal, d.actions.map((a) => a.action), d.actions.map((a) => a.comment || null)];
  });
}
