// A front end's use of the contract, typed only by what openapi-typescript generates from
// openapi.yaml (./api.d.ts, written by the test): deal and play a whole deal of every game
// against the running service, render each seat's and the spectator's view, read every
// answer by narrowing on `valid`, every refusal on `game` and `code`, every event on `game`
// and `type`; then a deal under signing and one under sealing (seat tokens), narrowed alike.
// At each step it draws every seat's and the spectator's table from the API's words alone
// (`to_act`, `summary`, `standings`, the deck's card names, the listed actions' `text`) in
// English and in Japanese, and picks Guandan plays by the cards a player taps.
// Requests that carry a state are typed by game (`<Game>ValidateRequest` …): the program
// narrows its state and action to one game before it posts them. Compiled with tsc --strict,
// exactOptionalPropertyTypes and noUncheckedIndexedAccess; no `as`, no `any`, no `!`: a wrong
// or loose type in the spec is a compiler error here (tests/service/test_typescript_client.py).
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Schemas = components["schemas"];
type Action = Schemas["Action"];
type Event = Schemas["Event"];
type GameId = Schemas["GameId"];
type Refusal = Schemas["Refusal"];
type Status = Schemas["Status"];
type View = Schemas["View"];
type AnyState = Schemas["State"] | Schemas["SealedState"];
type ValidateRequest = Schemas["ValidateRequest"];
type LegalActionsRequest = Schemas["LegalActionsRequest"];
type ViewRequest = Schemas["ViewRequest"];

// What the contract must refuse to compile (an unused directive is itself an error). Never
// called: the compiler is the judge.
export function refusedByTheCompiler(man: Schemas["ManState"], daifugo: Schemas["DaifugoState"],
                                     answer: Schemas["ValidateAccepted"] | Schemas["ValidateRefused"]): string {
  // @ts-expect-error a Man play takes no jokers (Daifugo's does): the game picks the fields
  const notAManPlay: Action = { game: "man", type: "play", player: "p0", cards: ["S2"], jokers: [] };
  // @ts-expect-error Daifugo's play fields in a request naming Man: the request's game types its action
  const daifugoPlayOnMan: ValidateRequest = { game: "man", state: man, action: { type: "play", player: "p0", cards: ["S2"], jokers: [] } };
  // @ts-expect-error an action type Man has not (Guandan's tribute), in a request naming Man
  const tributeOnMan: ValidateRequest = { game: "man", state: man, action: { type: "tribute", player: "p0", card: "S2" } };
  // @ts-expect-error a request names its game (the discriminator): never left to guess from the action
  const daifugoPlayOnAManState: ValidateRequest = { state: man, action: { type: "play", player: "p0", cards: ["S2"], jokers: [] } };
  // @ts-expect-error a request naming Man carries a Man state (or a sealed one), not a Daifugo state
  const daifugoStateAsMan: ValidateRequest = { game: "man", state: daifugo, action: { type: "draw", player: "p0" } };
  // @ts-expect-error legal actions of Man are asked by Man's action types only
  const tributesOfMan: LegalActionsRequest = { game: "man", state: man, player: "p0", types: ["tribute"] };
  // @ts-expect-error a view request naming Daifugo carries a Daifugo state
  const manViewAsDaifugo: ViewRequest = { game: "daifugo", state: man, player: "p0" };
  // @ts-expect-error a view names its game: a Man view is not a Daifugo one
  const wrongView: Schemas["DaifugoView"] = { game: "man" };
  // @ts-expect-error a Guandan option in a Daifugo deal: a deal's options are its game's
  const guandanOptionInDaifugo: Schemas["DaifugoDealRequest"] = { players: ["p0", "p1", "p2"], options: { level_up_1_2: 4 } };
  // @ts-expect-error a preset another game has (Guandan's "official") in a Daifugo deal
  const guandanPresetInDaifugo: Schemas["DaifugoDealRequest"] = { players: ["p0", "p1", "p2"], options: { preset: "official" } };
  // what may be left out is optional: a preset alone, or one option alone, compiles
  const presetOnly: Schemas["DaifugoDealRequest"] = { players: ["p0", "p1", "p2"], options: { preset: "seed" } };
  const oneOption: Schemas["GuandanDealRequest"] = { players: ["p0", "p1", "p2", "p3"], options: { a_fail_limit: 2 } };
  void [notAManPlay, daifugoPlayOnMan, tributeOnMan, daifugoPlayOnAManState, daifugoStateAsMan,
        tributesOfMan, manViewAsDaifugo, wrongView, daifugo, guandanOptionInDaifugo,
        guandanPresetInDaifugo, presetOnly, oneOption];
  // @ts-expect-error an answer is narrowed on `valid` before its refusal is read
  return answer.error.code;
}

// Each game's deal path takes that game's deal request: its body type refuses another game's
// option. (openapi-fetch does not check excess properties of an inline body, its issue #2329:
// a body is declared with its type before it is posted, as dealWithOptions below does.)
type DealBodyOf<P extends keyof paths> =
  paths[P] extends { post: { requestBody: { content: { "application/json": infer B } } } } ? B : never;
// @ts-expect-error a Guandan option in the body of Daifugo's deal path
export const guandanOptionOnDaifugosPath: DealBodyOf<"/v1/games/daifugo/deal"> = { players: ["p0", "p1", "p2"], options: { a_fail_limit: 3 } };
// @ts-expect-error a Daifugo option in the body of Man's deal path
export const daifugoOptionOnMansPath: DealBodyOf<"/v1/games/man/deal"> = { players: ["p0", "p1"], options: { jokers: 2 } };
export const presetOnDaifugosPath: DealBodyOf<"/v1/games/daifugo/deal"> = { players: ["p0", "p1", "p2"], options: { preset: "seed" } };

// A nullable object is that object or null: one null check narrows it (an `{} | null | X`
// union would not compile here). Never called.
export function narrowedByANullCheck(replayed: Schemas["ReplayResponse"],
                                     checked: Schemas["RecordCheckResponse"]): string {
  const stopped = replayed.stopped;
  const found = checked.discrepancy;
  return `${stopped === null ? "-" : `${stopped.index}: ${stopped.error.code}`} ` +
    `${found === null ? "consistent" : found.code}`;
}

// What an operator's dashboard reads of /readyz, typed down to the cluster's masters.
export function readiness(ready: Schemas["Ready"]): string {
  const cluster = ready.cache.cluster;
  return `${ready.status}: cache ${ready.cache.backend} (redis ${ready.cache.redis}` +
    `${cluster === undefined ? "" : `, cluster ${cluster.state}, ${cluster.masters} masters`})`;
}

const [plainBase, signedBase, sealedBase] = process.argv.slice(2);
if (plainBase === undefined || signedBase === undefined || sealedBase === undefined) {
  throw new Error("usage: node play.js <base url> <signed base url> <sealed base url>");
}
// Each request has 30 s: a request that hangs fails the run, naming where it was.
function clientOf(baseUrl: string) {
  return createClient<paths>({
    baseUrl,
    fetch: (request: Request) => fetch(request, { signal: AbortSignal.timeout(30_000) }),
  });
}
type Client = ReturnType<typeof clientOf>;

// A deterministic choice (a seeded LCG, its high bits): the same deal plays the same way
// every run.
let seed = 20240607;
function draw(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor(seed / 65536) % n;
}
function pick<T>(items: readonly T[]): T {
  const chosen = items[draw(items.length)];
  if (chosen === undefined) throw new Error("nothing to pick from");
  return chosen;
}

function cards(hand: readonly string[] | null | undefined): string {
  return hand === null || hand === undefined ? "(hidden)" : hand.join(" ");
}

function render(view: View): string {
  switch (view.game) {
    case "man": {
      const who = view.viewer ?? "spectator";
      const top = view.discard[view.discard.length - 1] ?? "-";
      return `man ${who}: hand ${cards(view.viewer === null ? null : view.hands[view.viewer])}; ` +
        `top ${top}; stock ${view.stock_count}; turn ${view.turn ?? "race"}`;
    }
    case "daifugo": {
      const who = view.viewer ?? "spectator";
      const top = view.top === null ? "clear" : `${view.top.form} ${view.top.cards.join(" ")}`;
      const counts = Object.entries(view.hand_counts).map(([p, n]) => `${p}:${n}`).join(" ");
      return `daifugo ${who}: hand ${cards(view.viewer === null ? null : view.hands[view.viewer])}; ` +
        `field ${top}; counts ${counts}; revolution ${view.revolution}`;
    }
    case "guandan": {
      const who = view.viewer ?? "spectator";
      const counts = Object.entries(view.hand_counts).map(([p, n]) => `${p}:${n ?? "?"}`).join(" ");
      const team1 = view.teams["team1"] ?? [];
      return `guandan ${who}: level ${view.level}; hand ${cards(view.viewer === null ? null : view.hands[view.viewer])}; ` +
        `counts ${counts}; team1 ${team1.join("+")}; to act ${view.to_act.join(",")}`;
    }
    case "manillen": {
      const who = view.seat ?? "spectator";
      const trick = view.trick === null ? "-" : view.trick.cards.map((c) => `${c.player}:${c.card}`).join(" ");
      const moves = view.legal_actions.map((a) => a.type).join(",");
      return `manillen ${who}: hand ${view.hand_hidden ? "(not yet)" : cards(view.hand)}; trump ${view.trump ?? "-"}; ` +
        `trick ${trick}; x${view.multiplier}; may ${moves || "-"}`;
    }
    case "manteur": {
      const who = view.viewer ?? "spectator";
      const calls = view.calls.map((c) => `${c.player}: ${c.text.en} (${c.declaration.type})`).join("; ");
      return `manteur ${who}: hand ${cards(view.hand)} (${view.hand_count}); round ${view.round}; ` +
        `holder ${view.holder}; stock ${view.stock_count}; calls ${calls || "-"}`;
    }
    default: {
      const unknown: never = view;
      return unknown;
    }
  }
}

// A table drawn from the API's words alone, the same way for every game: the view's `to_act`,
// its `summary` (facts, seats) and `standings`, the cards by their deck names (GET /v1/games)
// and a button per listed action from its `text`. The program's own marks are punctuation
// and seat ids, the same in both languages, so a Japanese line differs from its English one
// only where the API's words do.
type Lang = "en" | "ja";
const LANGS: readonly Lang[] = ["en", "ja"];
interface Words { readonly en: string; readonly ja: string }
type Part = string | Words;
type Line = readonly Part[];

function say(line: Line, lang: Lang): string {
  const said = line.map((part) => {
    if (typeof part === "string") return part;
    if (part[lang].trim() === "") throw new Error(`an empty ${lang} text: ${JSON.stringify(part)}`);
    return part[lang];
  }).join("");
  if (said.trim() === "") throw new Error(`an empty ${lang} line: ${JSON.stringify(line)}`);
  return said;
}
function worded(line: Line): boolean {
  return line.some((part) => typeof part !== "string" && part.en !== part.ja);
}
function wordsOf(names: Record<string, string>, what: string): Words {
  const en = names["en"];
  const ja = names["ja"];
  if (en === undefined || ja === undefined) throw new Error(`${what}: not named in both languages`);
  return { en, ja };
}

// Each game's name and its cards' names, from GET /v1/games (every deck the options can make).
const gameNames = new Map<string, Words>();
const cardNames = new Map<string, Map<string, Words>>();
function learnNames(games: readonly Schemas["GameInfo"][]): void {
  for (const info of games) {
    gameNames.set(info.id, wordsOf(info.names, info.id));
    const names = new Map<string, Words>();
    for (const deck of info.deck.decks) for (const c of deck.cards) names.set(c.card, wordsOf(c.names, `${info.id} ${c.card}`));
    cardNames.set(info.id, names);
  }
}
function cardWords(game: GameId, codes: readonly string[]): Part[] {
  const parts: Part[] = [];
  for (const code of codes) {
    const name = cardNames.get(game)?.get(code);
    if (name === undefined) throw new Error(`${game}: card ${code} is not in its deck of GET /v1/games`);
    parts.push(" ", name);
  }
  return parts;
}

function tableOf(view: View, buttons: readonly Action[]): Line[] {
  const game = view.game;
  const name = gameNames.get(game);
  if (name === undefined) throw new Error(`${game}: not in GET /v1/games`);
  const lines: Line[] = [[name, " > ", view.to_act.join(" ") || "-"]];
  for (const fact of view.summary.facts) {
    lines.push([fact.label, ": ", fact.text, ...(fact.cards === null ? [] : cardWords(game, fact.cards)),
                ...(fact.seat === null ? [] : [` @${fact.seat}`])]);
  }
  for (const s of view.summary.seats) {
    lines.push([s.seat, ` #${s.cards_left ?? "?"}`, ...(s.role === null ? [] : [" ", s.role]), ...(s.team === null ? [] : [` (${s.team})`])]);
  }
  lines.push(["= ", view.standings.unit, view.standings.finished ? " ." : ""]);
  for (const entry of view.standings.entries) {
    lines.push([`  ${entry.id}${entry.seats.length > 1 ? ` (${entry.seats.join("+")})` : ""} ${entry.total}: `, entry.text]);
  }
  for (const action of buttons) {
    if (action.text === undefined) throw new Error(`${game}: a listed ${action.type} without its words`);
    lines.push(["[", action.text, "]"]);
  }
  return lines;
}

// One seat's (or the spectator's) table in both languages, each from the view fetched in that
// language: every string non-empty, each Japanese line different from its English one where
// the API's words differ. Answers the English lines, then the Japanese.
interface Drawn { en: string[]; ja: string[]; worded: number }
function drawBoth(seen: Readonly<Record<Lang, View>>, buttons: readonly Action[]): Drawn {
  const en = tableOf(seen.en, buttons);
  const ja = tableOf(seen.ja, buttons);
  if (en.length !== ja.length) throw new Error(`${seen.en.game}: ${en.length} English lines, ${ja.length} Japanese`);
  const drawn: Drawn = { en: [], ja: [], worded: 0 };
  ja.forEach((line, i) => {
    const english = en[i];
    if (english === undefined) throw new Error("a line without its English");
    const [saidEn, saidJa] = [say(english, "en"), say(line, "ja")];
    if (worded(line)) {
      if (saidEn === saidJa) throw new Error(`${seen.en.game}: the Japanese line is the English one: ${saidJa}`);
      drawn.worded += 1;
    }
    drawn.en.push(saidEn);
    drawn.ja.push(saidJa);
  });
  return drawn;
}

function refusal(error: Refusal): string {
  if (error.code === "game_finished" || error.code === "number_out_of_range") {
    return `${error.game}: ${error.code}`;
  }
  // every refusal citing a rule links it: the rules page's anchor of that number
  const cited = "rule_url" in error ? ` <${error.rule_url}>` : "";
  switch (error.game) {
    case "manillen":
      if (error.code === "not_your_turn") return `manillen ${error.rule}: ${error.details.player} is not ${error.details.turn}${cited}`;
      return `manillen ${error.code}${cited}`;
    case "guandan":
      if (error.code === "not_your_turn") return `guandan ${error.rule}: ${error.details.player} is not ${error.details.turn}${cited}`;
      return `guandan ${error.code}${cited}`;
    case "daifugo":
      if (error.code === "not_your_turn") return `daifugo ${error.rule}: ${error.details.player} is not ${error.details.turn}${cited}`;
      if (error.code === "cards_duplicate") return `daifugo: ${error.details.card} twice`;
      return `daifugo ${error.code}${cited}`;
    case "man":
      if (error.code === "not_your_turn") return `man ${error.rule}: ${error.details.player} is not ${error.details.turn}${cited}`;
      // words for people are {en, ja} texts beside their codes
      if (error.code === "call_wrong") return `man: ${error.details.call_text.en}, not ${error.details.expected ?? "none"}: ${error.details.expected_text.ja}`;
      if (error.code === "cards_duplicate") return `man: ${error.details.card} twice`;
      return `man ${error.code}${cited}`;
    case "manteur":
      if (error.code === "not_your_turn") return `manteur ${error.rule}: ${error.details.player} is not ${error.details.turn}${cited}`;
      if (error.code === "declaration_same") return `manteur: ${error.details.new.en} / ${error.details.last.ja}`;
      if (error.code === "cards_duplicate") return `manteur: ${error.details.card} twice`;
      return `manteur ${error.code}${cited}`;
    default: {
      const unknown: never = error;
      return unknown;
    }
  }
}

function event(e: Event): string {
  // one vocabulary: a play is `played` with a `cards` list in every game, read without asking
  // which game it came from; game-specific fields after narrowing on the game
  if (e.type === "played" && e.game === "daifugo") return `daifugo: ${e.player} played ${e.form} ${e.cards.join(" ")}`;
  if (e.type === "played" && e.game === "guandan") return `guandan: ${e.player} played ${e.cards.join(" ")} as ${e.reading.type} ${e.reading.rank ?? "jokers"}`;
  if (e.type === "played") return `${e.game}: ${e.player} played ${e.cards.join(" ")}`;
  if (e.type === "passed") return `${e.game}: ${e.player} passed`;
  if (e.type === "drew") return `${e.game}: ${e.player} drew ${e.count}`;
  if (e.type === "went_out") return `${e.game}: ${e.player} went out ${e.place}`;
  if (e.type === "penalized") return `${e.game}: ${e.player} penalized (${e.code}): ${e.text.en}`;
  if (e.type === "match_finished") return `${e.game}: match won by ${e.winners.join(" ")}`;
  if (e.type === "called") return `${e.game}: ${e.player} called ${e.text.en} / ${e.text.ja}`;
  if (e.game === "daifugo" && e.type === "deal_finished") return `daifugo: titles ${Object.entries(e.titles).map(([p, t]) => `${p}:${t}`).join(" ")}`;
  if (e.game === "manillen" && e.type === "deal_finished") return `manillen: ${e.sides.map((side) => `${side.id} ${side.points}`).join(", ")}`;
  if (e.game === "manillen" && e.type === "trick_won") return `manillen: ${e.player} won trick ${e.trick}`;
  if (e.game === "manteur" && e.type === "declared") return `manteur: ${e.player} declared ${e.text.en} (${e.declaration.type} ${e.declaration.ranks.join(",")})`;
  if (e.game === "manteur" && e.type === "challenged") return `manteur: ${e.player} challenged, ${e.loser} lost${e.proof === null ? "" : ` (${e.proof.cards.join(" ")})`}`;
  return `${e.game}: ${e.type}`;
}

// `/v1/view` answers a seat's or spectator's View, or (as `referee`, with the referee key)
// the RefereeView: told apart by `viewer`.
function isRefereeView(v: Schemas["SeenView"]): v is Schemas["RefereeView"] {
  return "viewer" in v && v.viewer === "referee";
}

function mismatch(game: GameId, state: AnyState): Error {
  return new Error(`a ${game} request with a state of ${typeof state === "string" ? "a sealed game" : state.game}`);
}

// The requests a front end makes of one state, typed by its game: the state narrowed to that
// game's (or left sealed: a sealed state is opaque, and `game` names it), an action only that
// game's. `game` is the deal's.
interface Requests {
  validate(action: Action): ValidateRequest;
  legal(player: string): LegalActionsRequest;
  view(player: string | null): ViewRequest;
}
function requests(game: GameId, state: AnyState): Requests {
  const notOf = (action: Action) => new Error(`a ${action.game ?? "game-less"} action posted to ${game}`);
  switch (game) {
    case "man": {
      if (typeof state !== "string" && state.game !== game) throw mismatch(game, state);
      return {
        validate: (action) => { if (action.game !== game) throw notOf(action); return { game, state, action }; },
        legal: (player) => ({ game, state, player }),
        view: (player) => ({ game, state, player }),
      };
    }
    case "daifugo": {
      if (typeof state !== "string" && state.game !== game) throw mismatch(game, state);
      return {
        validate: (action) => { if (action.game !== game) throw notOf(action); return { game, state, action }; },
        legal: (player) => ({ game, state, player }),
        view: (player) => ({ game, state, player }),
      };
    }
    case "guandan": {
      if (typeof state !== "string" && state.game !== game) throw mismatch(game, state);
      return {
        validate: (action) => { if (action.game !== game) throw notOf(action); return { game, state, action }; },
        legal: (player) => ({ game, state, player }),
        view: (player) => ({ game, state, player }),
      };
    }
    case "manillen": {
      if (typeof state !== "string" && state.game !== game) throw mismatch(game, state);
      return {
        validate: (action) => { if (action.game !== game) throw notOf(action); return { game, state, action }; },
        legal: (player) => ({ game, state, player }),
        view: (player) => ({ game, state, player }),
      };
    }
    case "manteur": {
      if (typeof state !== "string" && state.game !== game) throw mismatch(game, state);
      return {
        validate: (action) => { if (action.game !== game) throw notOf(action); return { game, state, action }; },
        legal: (player) => ({ game, state, player }),
        view: (player) => ({ game, state, player }),
      };
    }
    default: {
      const unknown: never = game;
      throw new Error(`no game ${String(unknown)}`);
    }
  }
}

// A table in one trust mode: its client, and under sealing each seat's token (X-Seat-Token)
// for the requests made as that seat.
interface Table {
  mode: "plain" | "signed" | "sealed";
  client: Client;
  tokens: Record<string, string>;
}
function asSeat(table: Table, player: string | null): { headers: Record<string, string> } {
  const token = player === null ? undefined : table.tokens[player];
  return { headers: token === undefined ? {} : { "X-Seat-Token": token } };
}

// Each viewer's view fetched in English and in Japanese (Accept-Language; the answer's
// Content-Language says which), rendered from its game's view type and drawn as a table.
interface Seen { lines: string[]; views: Map<string, View>; drawn: Map<string | null, Drawn> }
async function viewIn(table: Table, game: GameId, state: AnyState, player: string | null, lang: Lang): Promise<View> {
  const { data, error, response } = await table.client.POST("/v1/view", {
    body: requests(game, state).view(player), headers: { ...asSeat(table, player).headers, "Accept-Language": lang },
  });
  if (data === undefined) throw new Error(`view: ${JSON.stringify(error)}`);
  if (response.headers.get("Content-Language") !== lang) throw new Error(`a view asked in ${lang} answered in ${response.headers.get("Content-Language")}`);
  const seen = data.view;
  if (isRefereeView(seen)) throw new Error(`the referee's view, asked for a seat: ${seen.game}`);
  if (seen.game !== game) throw new Error(`a ${seen.game} view of a ${game} deal`);
  return seen;
}
async function views(table: Table, game: GameId, state: AnyState, viewers: readonly (string | null)[],
                     buttons: ReadonlyMap<string, readonly Action[]>): Promise<Seen> {
  const fetched = await Promise.all(viewers.map(async (player) => {
    const [en, ja] = await Promise.all(LANGS.map((lang) => viewIn(table, game, state, player, lang)));
    if (en === undefined || ja === undefined) throw new Error("a view in each language");
    return { player, en, ja };
  }));
  const seen: Seen = { lines: [], views: new Map(), drawn: new Map() };
  for (const { player, en, ja } of fetched) {
    seen.lines.push(render(en));
    if (player !== null) seen.views.set(player, en);
    seen.drawn.set(player, drawBoth({ en, ja }, player === null ? [] : buttons.get(player) ?? []));
  }
  return seen;
}

// Guandan's "tap cards, see the plays they make": the acting seat picks cards of its hand
// (one card and every other of its rank), asks /v1/legal-actions for the plays of exactly
// those (`cards`, sent reversed and in lower case: any order, any notation), checks every
// answered action names exactly them, and plays one of them. When the picked cards make no
// play it asks again with the cards of a listed play. Once per deal it narrows a non-empty
// answer further by `combinations`.
type GuandanPlay = Schemas["GuandanPlayAction"];
type Combination = NonNullable<Schemas["GuandanLegalActionsRequest"]["combinations"]>[number];
const picked = { byCards: 0, byCombination: 0 };

function rankOf(card: string): string {
  return card === "BJ" || card === "RJ" ? card : card.slice(1);
}
function sameCards(a: readonly string[], b: readonly string[]): boolean {
  return [...a].sort().join(" ") === [...b].sort().join(" ");
}
async function guandanPlays(table: Table, state: AnyState, player: string, cards: readonly string[],
                            combination?: Combination): Promise<GuandanPlay[]> {
  if (typeof state !== "string" && state.game !== "guandan") throw mismatch("guandan", state);
  const body: Schemas["GuandanLegalActionsRequest"] = {
    game: "guandan", state, player, cards: [...cards].reverse().map((c) => c.toLowerCase()),
    ...(combination === undefined ? {} : { combinations: [combination] }),
  };
  const { data, error } = await table.client.POST("/v1/legal-actions", { body, ...asSeat(table, player) });
  if (data === undefined) throw new Error(`guandan picked cards: ${JSON.stringify(error)}`);
  const plays: GuandanPlay[] = [];
  for (const action of data.actions) {
    const named = "cards" in action ? action.cards : "card" in action ? [action.card] : [];
    if (!sameCards(named, cards)) {
      throw new Error(`guandan: asked the plays of ${cards.join(" ")}, answered a ${action.type} of ${named.join(" ") || "no card"}`);
    }
    if (action.game === "guandan" && action.type === "play") plays.push(action);
  }
  return plays;
}
async function pickGuandanPlay(table: Table, state: AnyState, chosen: Action, seen: View | undefined): Promise<Action> {
  if (chosen.game !== "guandan" || chosen.type !== "play") return chosen;
  const hand = seen?.game === "guandan" ? seen.hands[chosen.player] : undefined;
  if (hand === undefined || hand === null || hand.length === 0) throw new Error(`guandan: ${chosen.player} plays without a hand in its view`);
  const first = pick(hand);
  let cards = hand.filter((c) => rankOf(c) === rankOf(first));
  let plays = await guandanPlays(table, state, chosen.player, cards);
  picked.byCards += 1;
  if (plays.length === 0) {
    cards = chosen.cards;
    plays = await guandanPlays(table, state, chosen.player, cards);
    picked.byCards += 1;
    if (!plays.some((p) => JSON.stringify(p) === JSON.stringify(chosen))) {
      throw new Error(`guandan: the plays of ${cards.join(" ")} leave out the listed ${chosen.text?.en ?? "play"}`);
    }
  }
  const play = pick(plays);
  if (play.reading === undefined) throw new Error(`guandan: a listed play without its reading: ${play.cards.join(" ")}`);
  if (picked.byCombination === 0) {
    const kind = play.reading.type;
    const narrowed = await guandanPlays(table, state, chosen.player, cards, kind);
    const expected = plays.filter((p) => p.reading?.type === kind).length;
    if (narrowed.length !== expected || narrowed.some((p) => p.reading?.type !== kind)) {
      throw new Error(`guandan: ${narrowed.length} plays of ${cards.join(" ")} as ${kind}, not the ${expected} listed`);
    }
    picked.byCombination += 1;
  }
  return play;
}

const MOVING = new Set(["draw", "pass", "chombo", "end_turn"]);

async function play(table: Table, game: GameId, seats: number): Promise<void> {
  const { client } = table;
  const label = table.mode === "plain" ? game : `${game} (${table.mode})`;
  const players = Array.from({ length: seats }, (_, i) => `p${i}`);
  console.error(`${label}: dealing for ${seats}`);
  const dealt = await client.POST("/v1/games/{game}/deal", {
    // a chosen seed is a referee act under signing or sealing: the server draws one there
    params: { path: { game } }, body: table.mode === "plain" ? { players, seed: `typescript-${game}` } : { players },
  });
  if (dealt.data === undefined) throw new Error(`deal ${game}: ${JSON.stringify(dealt.error)}`);
  if ((table.mode === "sealed") !== (typeof dealt.data.state === "string")) {
    throw new Error(`${label}: a ${typeof dealt.data.state} state`);
  }
  table.tokens = dealt.data.seat_tokens ?? {};
  let state: AnyState = dealt.data.state;
  let toAct: string[] = dealt.data.to_act;
  let status: Status = dealt.data.status;
  let steps = 0;
  const refused: string[] = [];
  const told: string[] = [];
  let last: Action | undefined;
  const tables = { drawn: 0, worded: 0 };
  const drawn = (seen: Seen): void => {
    for (const one of seen.drawn.values()) { tables.drawn += 1; tables.worded += one.worded; }
  };
  while (status === "in_progress") {
    if (steps > 3000) throw new Error(`${label}: not finished after ${steps} actions`);
    const asked = requests(game, state);
    const legal: Action[] = [];
    const buttons = new Map<string, Action[]>();
    for (const player of toAct) {
      const { data, error } = await client.POST("/v1/legal-actions", { body: asked.legal(player), ...asSeat(table, player) });
      if (data === undefined) throw new Error(`legal actions: ${JSON.stringify(error)}`);
      legal.push(...data.actions);
      buttons.set(player, data.actions);
    }
    // every step, every seat's table (those that may act with their buttons) and the
    // spectator's; under signing and sealing (the same tables, other trust modes) those of
    // the seats that may act, and everyone's every tenth step
    const everyone = table.mode === "plain" || steps % 10 === 0;
    const seen = await views(table, game, state, everyone ? [...players, null] : toAct, buttons);
    drawn(seen);
    if (steps % 10 === 0) told.push(...seen.lines);
    if (steps === 0) {
      const first = seen.drawn.get(toAct[0] ?? "");
      if (first !== undefined) for (const lang of LANGS) console.log(`${label}: buttons ${lang}: ${first[lang].filter((line) => line.startsWith("[")).slice(0, 4).join(" ")}`);
    }
    const moving = legal.filter((a) => !MOVING.has(a.type));
    // mostly moves that take the deal on (a random walk of draws and passes can take long)
    const listedChoice = pick(moving.length > 0 && draw(5) !== 0 ? moving : legal);
    const chosen = await pickGuandanPlay(table, state, listedChoice, seen.views.get(listedChoice.player));
    const others = players.filter((p) => !toAct.includes(p));
    if (others.length > 0 && refused.length < 2) {
      // a seat out of turn: refused, with its own game's refusal
      const wrong: Action = { ...chosen, player: pick(others) };
      const { data } = await client.POST("/v1/validate", { body: asked.validate(wrong), ...asSeat(table, wrong.player) });
      if (data === undefined) throw new Error("validate answered no body");
      if (!data.valid) refused.push(refusal(data.error));
    }
    const { data, error } = await client.POST("/v1/validate", { body: asked.validate(chosen), ...asSeat(table, chosen.player) });
    if (data === undefined) throw new Error(`validate: ${JSON.stringify(error)}`);
    if (!data.valid) throw new Error(`a listed action was refused: ${refusal(data.error)}`);
    for (const e of data.events) told.push(event(e));
    for (const d of data.score_deltas) told.push(`${d.game}: ${d.target} ${d.delta > 0 ? "+" : ""}${d.delta} ${d.kind}${d.text === undefined ? "" : ` (${d.text.en})`}`);
    // sealed: the acting seat's view of the next state comes with the answer
    if (table.mode === "sealed") {
      if (data.view === undefined) throw new Error(`${label}: a sealed answer without the seat's view`);
      if (steps % 10 === 0) told.push(render(data.view));
    }
    last = chosen;
    state = data.state;
    toAct = data.to_act;
    status = data.status;
    steps += 1;
  }
  const final = await views(table, game, state, [...players, null], new Map());
  drawn(final);
  told.push(...final.lines);
  // the finished deal refuses any further action: the engine-wide refusal, named by game
  if (last === undefined) throw new Error(`${label}: no action taken`);
  const after = await client.POST("/v1/validate", { body: requests(game, state).validate(last), ...asSeat(table, last.player) });
  if (after.data === undefined) throw new Error("validate answered no body");
  if (after.data.valid) throw new Error(`${label}: a finished deal took an action`);
  refused.push(refusal(after.data.error));
  if (refused.length < 2) throw new Error(`${label}: refusals ${refused.join("; ")}`);
  console.log(`${label}: finished in ${steps} actions; refused: ${refused.join("; ")}`);
  for (const line of told.slice(-6)) console.log(`  ${line}`);
  const firstPlay = told.find((line) => line.startsWith(`${game}: `) && line.includes(" played "));
  if (firstPlay !== undefined) console.log(`  first play: ${firstPlay}`);
  if (tables.worded === 0) throw new Error(`${label}: no Japanese word in ${tables.drawn} tables`);
  console.log(`${label}: ${tables.drawn} tables drawn in en and ja, ${tables.worded} lines worded apart`);
  const last0 = final.drawn.get(players[0] ?? "");
  if (last0 !== undefined) for (const lang of LANGS) console.log(`  table ${lang}: ${last0[lang].join(" | ")}`);
}

const plain: Table = { mode: "plain", client: clientOf(plainBase), tokens: {} };
const listed = await plain.client.GET("/v1/games");
if (listed.data === undefined) throw new Error("no games listed");
learnNames(listed.data.games);
const played: GameId[] = [];
for (const info of listed.data.games) {
  const min = info.players["min"] ?? 2;
  const max = info.players["max"] ?? min;
  const declares = info.actions.map((a) => a.type).join(",");
  console.error(`${info.id}: actions ${declares}; options ${info.options.map((o) => o.name).join(",")}`);
  await play(plain, info.id, min <= 4 && 4 <= max ? 4 : min);
  played.push(info.id);
}
console.log(`played: ${played.join(" ")}`);
if (picked.byCards === 0 || picked.byCombination === 0) throw new Error("no Guandan play picked by its cards");
console.log(`guandan plays picked: ${picked.byCards} asked by cards, ${picked.byCombination} by combinations`);

// Deals at each game's own path with a preset and options of that game's own schema (the
// generator's default settings: an option left out is optional): the state's resolved options
// show the preset's values and the options stated beside it.
function optionsOf(game: GameId, state: AnyState): Record<string, unknown> {
  if (typeof state === "string" || state.game !== game) throw new Error(`a ${game} deal answered another state`);
  return { ...state.options };
}
function expectOptions(label: string, resolved: Record<string, unknown>, expected: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(expected)) {
    if (resolved[name] !== value) throw new Error(`${label}: option ${name} is ${String(resolved[name])}, not ${String(value)}`);
  }
  console.log(`${label}: options ${Object.entries(expected).map(([k, v]) => `${k}=${String(v)}`).join(" ")}`);
}
async function dealWithOptions(client: Client): Promise<void> {
  const three = ["p0", "p1", "p2"];
  const four = ["p0", "p1", "p2", "p3"];
  const manDeal: Schemas["ManDealRequest"] = { players: three, options: { preset: "referee", let_pass: "reopens" } };
  const man = await client.POST("/v1/games/man/deal", { body: manDeal });
  if (man.data === undefined) throw new Error(`man deal: ${JSON.stringify(man.error)}`);
  expectOptions("man preset referee", optionsOf("man", man.data.state), { calls: "declared", violations: "chombo", let_pass: "reopens" });
  const seedDeal: Schemas["DaifugoDealRequest"] = { players: four, options: { preset: "seed" } };
  const seedOnly = await client.POST("/v1/games/daifugo/deal", { body: seedDeal });
  if (seedOnly.data === undefined) throw new Error(`daifugo deal: ${JSON.stringify(seedOnly.error)}`);
  expectOptions("daifugo preset seed", optionsOf("daifugo", seedOnly.data.state), { stairs: "off", jokers: 1 });
  const daifugoDeal: Schemas["DaifugoDealRequest"] = { players: four, options: { preset: "seed_full", jokers: 2, eight_cut: false } };
  const daifugo = await client.POST("/v1/games/daifugo/deal", { body: daifugoDeal });
  if (daifugo.data === undefined) throw new Error(`daifugo deal: ${JSON.stringify(daifugo.error)}`);
  expectOptions("daifugo preset seed_full", optionsOf("daifugo", daifugo.data.state), { stairs: "seed", jokers: 2, eight_cut: false });
  const guandanDeal: Schemas["GuandanDealRequest"] = { players: four, options: { preset: "official", level_up_1_2: 4 } };
  const guandan = await client.POST("/v1/games/guandan/deal", { body: guandanDeal });
  if (guandan.data === undefined) throw new Error(`guandan deal: ${JSON.stringify(guandan.error)}`);
  expectOptions("guandan preset official", optionsOf("guandan", guandan.data.state), { a_fail_limit: 0, level_up_1_2: 4 });
  const manillenDeal: Schemas["ManillenDealRequest"] = { players: four, options: { preset: "tournament", first_dealer: "first_player" } };
  const manillen = await client.POST("/v1/games/manillen/deal", { body: manillenDeal });
  if (manillen.data === undefined) throw new Error(`manillen deal: ${JSON.stringify(manillen.error)}`);
  expectOptions("manillen preset tournament", optionsOf("manillen", manillen.data.state), { booms_to_win: 2, first_dealer: "first_player" });
  const manteurDeal: Schemas["ManteurDealRequest"] = { players: three, options: { preset: "piquet", jokers: 0 } };
  const manteur = await client.POST("/v1/games/manteur/deal", { body: manteurDeal });
  if (manteur.data === undefined) throw new Error(`manteur deal: ${JSON.stringify(manteur.error)}`);
  expectOptions("manteur preset piquet", optionsOf("manteur", manteur.data.state), { deck: "piquet32", jokers: 0 });
}
await dealWithOptions(plain.client);
// the same narrowing on signed answers (states carry their signature) and on sealed ones
// (opaque states, typed by the request's `game`; each seat's requests with its token)
await play({ mode: "signed", client: clientOf(signedBase), tokens: {} }, "daifugo", 4);
await play({ mode: "sealed", client: clientOf(sealedBase), tokens: {} }, "daifugo", 4);
