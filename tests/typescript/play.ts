// A front end's use of the contract, typed only by what openapi-typescript generates from
// openapi.yaml (./api.d.ts, written by the test): deal and play a whole deal of every game
// against the running service, render each seat's and the spectator's view, read every
// answer by narrowing on `valid`, every refusal on `game` and `code`, every event on `game`
// and `type`. Compiled with tsc --strict, exactOptionalPropertyTypes and
// noUncheckedIndexedAccess; no `as`, no `any`, no `!`: a wrong or loose type in the spec is a
// compiler error here (tests/service/test_typescript_client.py).
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

// What the contract must refuse to compile (an unused directive is itself an error).
// @ts-expect-error a Man play takes no jokers (Daifugo's does): the game picks the fields
export const notAManPlay: Action = { game: "man", type: "play", player: "p0", cards: ["S2"], jokers: [] };
export function unread(answer: Schemas["ValidateAccepted"] | Schemas["ValidateRefused"]): string {
  // @ts-expect-error an answer is narrowed on `valid` before its refusal is read
  return answer.error.code;
}
// @ts-expect-error a view names its game: a Man view is not a Daifugo one
export const wrongView: Schemas["DaifugoView"] = { game: "man" };

const base = process.argv[2];
if (base === undefined) throw new Error("usage: node play.js <base url>");
// Each request has 30 s: a request that hangs fails the run, naming where it was.
const client = createClient<paths>({
  baseUrl: base,
  fetch: (request: Request) => fetch(request, { signal: AbortSignal.timeout(30_000) }),
});

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
      const calls = view.calls.map((c) => `${c.player}: ${c.words.en}`).join("; ");
      return `manteur ${who}: hand ${cards(view.hand)} (${view.hand_count}); round ${view.round}; ` +
        `holder ${view.holder}; stock ${view.stock_count}; calls ${calls || "-"}`;
    }
    default: {
      const unknown: never = view;
      return unknown;
    }
  }
}

function refusal(error: Refusal): string {
  if (error.code === "game_finished" || error.code === "number_out_of_range") {
    return `${error.game}: ${error.code}`;
  }
  switch (error.game) {
    case "manillen":
      if (error.code === "not_your_turn") return `manillen ${error.rule}: only ${error.details.to_act.join(",")} may act`;
      return `manillen ${error.code}`;
    case "guandan":
      if (error.code === "not_your_turn") return `guandan ${error.rule}: ${error.details.player} is not ${error.details.turn}`;
      return `guandan ${error.code}`;
    case "daifugo":
      if (error.code === "not_your_turn") return `daifugo ${error.rule}: ${error.details.player} is not ${error.details.turn}`;
      return `daifugo ${error.code}`;
    case "man":
      if (error.code === "not_your_turn") return `man ${error.rule}: ${error.details.player} is not ${error.details.turn}`;
      return `man ${error.code}`;
    case "manteur":
      if (error.code === "not_your_turn") return `manteur ${error.rule}: ${error.details.player} is not ${error.details.turn}`;
      return `manteur ${error.code}`;
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
  if (e.type === "played") return `${e.game}: ${e.player} played ${e.cards.join(" ")}`;
  if (e.type === "passed") return `${e.game}: ${e.player} passed`;
  if (e.type === "drew") return `${e.game}: ${e.player} drew ${e.count}`;
  if (e.type === "went_out") return `${e.game}: ${e.player} went out ${e.place}`;
  if (e.type === "penalized") return `${e.game}: ${e.player} penalized (${e.code}): ${e.text.en}`;
  if (e.type === "match_finished") return `${e.game}: match won by ${e.winners.join(" ")}`;
  if (e.type === "called") return `${e.game}: ${e.player} called ${e.text.en} / ${e.text.ja}`;
  if (e.game === "manillen" && e.type === "trick_won") return `manillen: ${e.player} won trick ${e.trick}`;
  if (e.game === "manteur" && e.type === "declared") return `manteur: ${e.player} declared ${e.text.en}`;
  if (e.game === "manteur" && e.type === "challenged") return `manteur: ${e.player} challenged, ${e.loser} lost`;
  return `${e.game}: ${e.type}`;
}

// `/v1/view` answers a seat's or spectator's View, or (as `referee`, with the referee key)
// the RefereeView: told apart by `viewer`.
function isRefereeView(v: Schemas["SeenView"]): v is Schemas["RefereeView"] {
  return "viewer" in v && v.viewer === "referee";
}

async function views(state: AnyState, players: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const player of [...players, null]) {
    const { data, error } = await client.POST("/v1/view", { body: { state, player } });
    if (data === undefined) throw new Error(`view: ${JSON.stringify(error)}`);
    const seen = data.view;
    if (isRefereeView(seen)) throw new Error(`the referee's view, asked for a seat: ${seen.game}`);
    lines.push(render(seen));
  }
  return lines;
}

const MOVING = new Set(["draw", "pass", "chombo", "end_turn"]);

async function play(game: GameId, seats: number): Promise<void> {
  const players = Array.from({ length: seats }, (_, i) => `p${i}`);
  console.error(`${game}: dealing for ${seats}`);
  const dealt = await client.POST("/v1/games/{game}/deal", {
    params: { path: { game } }, body: { players, seed: `typescript-${game}` },
  });
  if (dealt.data === undefined) throw new Error(`deal ${game}: ${JSON.stringify(dealt.error)}`);
  let state: AnyState = dealt.data.state;
  let toAct: string[] = dealt.data.to_act;
  let status: Status = dealt.data.status;
  let steps = 0;
  const refused: string[] = [];
  const told: string[] = [];
  let last: Action | undefined;
  for (const line of await views(state, players)) told.push(line);
  while (status === "in_progress") {
    if (steps > 3000) throw new Error(`${game}: not finished after ${steps} actions`);
    const legal: Action[] = [];
    for (const player of toAct) {
      const { data, error } = await client.POST("/v1/legal-actions", { body: { state, player } });
      if (data === undefined) throw new Error(`legal actions: ${JSON.stringify(error)}`);
      legal.push(...data.actions);
    }
    const moving = legal.filter((a) => !MOVING.has(a.type));
    // mostly moves that take the deal on (a random walk of draws and passes can take long)
    const chosen = pick(moving.length > 0 && draw(5) !== 0 ? moving : legal);
    const others = players.filter((p) => !toAct.includes(p));
    if (others.length > 0 && refused.length < 2) {
      // a seat out of turn: refused, with its own game's refusal
      const wrong: Action = { ...chosen, player: pick(others) };
      const { data } = await client.POST("/v1/validate", { body: { state, action: wrong } });
      if (data === undefined) throw new Error("validate answered no body");
      if (!data.valid) refused.push(refusal(data.error));
    }
    const { data, error } = await client.POST("/v1/validate", { body: { state, action: chosen } });
    if (data === undefined) throw new Error(`validate: ${JSON.stringify(error)}`);
    if (!data.valid) throw new Error(`a listed action was refused: ${refusal(data.error)}`);
    for (const e of data.events) told.push(event(e));
    for (const d of data.score_deltas) told.push(`${d.game}: ${d.target} ${d.delta > 0 ? "+" : ""}${d.delta} ${d.kind}`);
    last = chosen;
    state = data.state;
    toAct = data.to_act;
    status = data.status;
    steps += 1;
    if (steps % 10 === 0 || status === "finished") for (const line of await views(state, players)) told.push(line);
  }
  // the finished deal refuses any further action: the engine-wide refusal, named by game
  if (last === undefined) throw new Error(`${game}: no action taken`);
  const after = await client.POST("/v1/validate", { body: { state, action: last } });
  if (after.data === undefined) throw new Error("validate answered no body");
  if (after.data.valid) throw new Error(`${game}: a finished deal took an action`);
  refused.push(refusal(after.data.error));
  if (refused.length < 2) throw new Error(`${game}: refusals ${refused.join("; ")}`);
  console.log(`${game}: finished in ${steps} actions; refused: ${refused.join("; ")}`);
  for (const line of told.slice(-6)) console.log(`  ${line}`);
  const firstPlay = told.find((line) => line.startsWith(`${game}: `) && line.includes(" played "));
  if (firstPlay !== undefined) console.log(`  first play: ${firstPlay}`);
}

const listed = await client.GET("/v1/games");
if (listed.data === undefined) throw new Error("no games listed");
const played: GameId[] = [];
for (const info of listed.data.games) {
  const min = info.players["min"] ?? 2;
  const max = info.players["max"] ?? min;
  await play(info.id, min <= 4 && 4 <= max ? 4 : min);
  played.push(info.id);
}
console.log(`played: ${played.join(" ")}`);
