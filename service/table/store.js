// The match, saved in the browser as it goes: a reload, a closed tab or a flat battery resumes
// where it was. Shape (version 1):
//   {v, game, players, options, key, mode: "server"|"physical", created, tags,
//    deals: [{request, answer: {state, to_act, status, seed_commitment, seat_tokens, host_token},
//             steps: [{action, state, to_act, status, score_deltas, events, seed, seed_salt, next_match,
//                      comment}]}],   // comment: the referee's note on the entry (optional)
//    pending: [action…],   // entered while the service was out of reach, sent in order
//    draft: {request, hands, table, dealer}}   // a physical deal being entered
const KEY = "cardref.table.match";

export function loadMatch() {
  try {
    const m = JSON.parse(localStorage.getItem(KEY) || "null");
    return m && m.v === 1 ? m : null;
  } catch {
    return null;
  }
}
export function saveMatch(m) { localStorage.setItem(KEY, JSON.stringify(m)); }
export function clearMatch() { localStorage.removeItem(KEY); }
