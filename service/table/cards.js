// Cards as the service writes them (S10, HA, BJ) and as a referee reads them (♠10, ♥A, Joker).
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_ORDER = "SHDC";

export function cardLabel(c) {
  if (c === "BJ") return "🃏B";
  if (c === "RJ") return "🃏R";
  const s = String(c);
  return (SUITS[s[0]] || s[0]) + s.slice(1);
}
export function isRed(c) { return c === "RJ" || c[0] === "H" || c[0] === "D"; }
function rankIndex(c) { const i = RANKS.indexOf(String(c).slice(1)); return i < 0 ? 99 : i; }
export function cardSort(a, b) {
  const sa = SUIT_ORDER.indexOf(a[0]), sb = SUIT_ORDER.indexOf(b[0]);
  const ja = a.endsWith("J") && a.length === 2 && (a[0] === "B" || a[0] === "R");
  const jb = b.endsWith("J") && b.length === 2 && (b[0] === "B" || b[0] === "R");
  if (ja !== jb) return ja ? 1 : -1;
  if (sa !== sb) return sa - sb;
  return rankIndex(a) - rankIndex(b);
}

// Which cards a deal of this game is dealt from, with their copies: the deck GET /v1/games
// publishes (`deck`) for the options in force (each entry of `deck.decks` names the values of the
// options that change the deck; the others do not matter). The picker shows what is left of it
// and offers no card more often than the deck holds it (the service checks the deal again and
// names any card given twice). Empty when the service publishes no deck for these options.
export function publishedDeck(game, options) {
  const deck = new Map();
  const published = game && game.deck;
  if (!published) return deck;
  const found = published.decks.find((d) => Object.entries(d.options).every(([k, v]) => options[k] === v));
  for (const c of found ? found.cards : []) deck.set(c.card, c.copies);
  return deck;
}
