// Entering a deal from the table card by card (the draft of store.js: {hands, sizes, taps, …}).
// Pure functions over the draft, so that the page re-renders once per tap and nothing else moves:
// - `sizes`: each seat's hand size, read from a sample deal of the service (the page knows no
//   game's rules); null when unknown (the counts then show without "/size" and nothing is
//   filled or moved by itself);
// - `taps`: the cards entered, in order ({seat, card}, `auto` for those filled by themselves), so
//   that an undo takes back the last card tapped (and the hand it forced, if any).

// Cards in the deck's own order (a Map card -> copies, in the order the picker lays it out); a
// card the deck lacks goes last, in the order given.
export function byDeck(cards, deck) {
  const place = new Map([...deck.keys()].map((c, i) => [c, i]));
  const at = (c) => (place.has(c) ? place.get(c) : place.size);
  return cards.map((c, i) => [c, i]).sort((a, b) => at(a[0]) - at(b[0]) || a[1] - b[1]).map(([c]) => c);
}

// How many copies of each card are still to be dealt (deck minus every hand).
export function cardsLeft(deck, hands) {
  const left = new Map(deck);
  for (const cards of Object.values(hands)) for (const c of cards) if (left.has(c)) left.set(c, left.get(c) - 1);
  return left;
}

function need(draft, seat) {
  return draft.sizes && Number.isInteger(draft.sizes[seat]) ? draft.sizes[seat] - draft.hands[seat].length : null;
}
export function isFull(draft, seat) { const n = need(draft, seat); return n !== null && n <= 0; }

// The seat to enter next after `seat`: itself while its hand is not full, else the next seat in
// seat order whose hand is not full (itself again when every hand is).
export function nextSeat(draft, players, seat) {
  if (!isFull(draft, seat)) return seat;
  const i = players.indexOf(seat);
  for (let k = 1; k <= players.length; k++) {
    const p = players[(i + k) % players.length];
    if (!isFull(draft, p)) return p;
  }
  return seat;
}

// The last hand is forced when every other hand is full and the cards still to be dealt are
// exactly the cards it lacks: they are put there by themselves (in deck order). Not forced when
// cards remain for the table or a stock (Man's, Manillen's leftover): nothing is filled then.
function fillForced(draft, players, deck) {
  if (!draft.sizes) return null;
  const open = players.filter((p) => !isFull(draft, p));
  if (open.length !== 1) return null;
  const seat = open[0];
  const lacking = need(draft, seat);
  if (lacking === null) return null;
  const left = [];
  for (const [c, n] of cardsLeft(deck, draft.hands)) for (let k = 0; k < n; k++) left.push(c);
  if (left.length !== lacking) return null;
  for (const c of left) { draft.hands[seat].push(c); draft.taps.push({ seat, card: c, auto: true }); }
  return seat;
}

// A card tapped for `seat`: into its hand, then the last hand filled if it is now forced. Answers
// the seat to show next (the same one until its hand is full).
export function tapCard(draft, players, deck, seat, card) {
  draft.taps = draft.taps || [];
  draft.hands[seat].push(card);
  draft.taps.push({ seat, card });
  fillForced(draft, players, deck);
  return nextSeat(draft, players, seat);
}

function takeBack(draft, { seat, card }) {
  const hand = draft.hands[seat] || [];
  const i = hand.lastIndexOf(card);
  if (i >= 0) hand.splice(i, 1);
}

// Undo the last card tapped, with the hand it filled by itself: answers the seat it was tapped
// for (shown again), or null when there is nothing to undo.
export function undoTap(draft) {
  const taps = draft.taps || [];
  while (taps.length && taps[taps.length - 1].auto) takeBack(draft, taps.pop());
  const last = taps.pop();
  if (!last) return null;
  takeBack(draft, last);
  return last.seat;
}
export function canUndo(draft) { return Boolean(draft.taps && draft.taps.some((x) => !x.auto)); }

// A card taken out of a hand by hand (its × in the list): its tap goes with it.
export function removeCard(draft, seat, index) {
  const [card] = draft.hands[seat].splice(index, 1);
  const taps = draft.taps || [];
  for (let i = taps.length - 1; i >= 0; i--) {
    if (taps[i].seat === seat && taps[i].card === card) { taps.splice(i, 1); break; }
  }
}

// Each seat's hand size as a deal of the service gives them (the referee view, or each seat's own
// view): {seat: n}, or null when a view shows no hands.
export function handSizes(views, players) {
  const sizes = {};
  for (const p of players) {
    const v = views[p];
    const hand = v && v.hands && v.hands[p];
    if (!Array.isArray(hand)) return null;
    sizes[p] = hand.length;
  }
  return sizes;
}
