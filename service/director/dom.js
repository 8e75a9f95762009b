// Small DOM helpers the live events' pages share; the element builder is every page's
// (../table/dom.js).
export { h, tid } from "../table/dom.js";

// Every element's fixed words in the page's language: `data-i18n="key"` holds the key.
export function translate(root, t) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

// Entrants by id, and each one's name (a substitute's too, where a seat has one).
export function namesOf(event) {
  const names = {};
  for (const e of event.entrants || []) {
    names[e.id] = e.name;
    for (const m of e.members || []) names[m.id] = m.name;
  }
  return names;
}

// A seat's person: the substitute sitting in, else the member (fixed teams) or the entrant.
export function seatPerson(seat, names) {
  if (seat.substitute) return seat.substitute.name;
  return names[seat.player || seat.entrant] || seat.player || seat.entrant;
}

// The round being played or last played (null before the first is seated).
export function currentRound(event) {
  const rounds = event.rounds || [];
  return rounds.length ? { number: rounds.length, round: rounds[rounds.length - 1] } : null;
}

// A seat's id: the substitute sitting in, else the player (what a confirmation names).
export function seatId(seat) {
  return seat.substitute ? seat.substitute.id : seat.player;
}

// A reported result some seat has not confirmed, where the event asks each seat to
// (docs/events.md "Confirmations": it counts all the same, and the check names it).
export function unconfirmed(event, table) {
  const reported = table.result && table.result.reported;
  if (!reported || event.system.confirmations !== "seats") return false;
  const done = new Set((reported.confirmed || []).map((c) => c.seat));
  return table.seats.some((s) => !done.has(seatId(s)));
}
