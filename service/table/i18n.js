// The page's own words in English and Japanese. The rules' words (option descriptions, refusals,
// events) come from the service in the chosen language (Accept-Language).
const WORDS = {
  en: {
    home: "Card Referee", other: "日本語", setup: "Set up a match", game: "Game",
    preset: "Preset", default: "— default —", options: "Options", seats: "Seats",
    seat_count: "Number of seats", seat: "Seat", key: "Referee key",
    key_hint: "Only when the service asks for one (signed or sealed states).",
    deal_mode: "Deal", deal_server: "Server shuffles (seeded, with a commitment)",
    deal_physical: "Cards on the table (enter each hand)", start: "Start the match",
    dealer: "Dealer", commitment: "Seed commitment — announce it before play:",
    enter_hands: "Enter the cards dealt", cards_left: "left", deck_left: "Cards not yet dealt", table_fields: "On the table",
    undo_card: "Undo last card", dealing_sheet: "Dealing sheet", back_to_play: "Back to the deal",
    dealing_sheet_hint: "One slip per seat: print, cut along the dashed lines and lay each seat's cards out from its slip. Every slip carries the deal's seed commitment.",
    seed_commitment: "Seed commitment", cards_n: "cards", on_the_table: "Not in a hand", joker_BJ: "Black Joker", joker_RJ: "Red Joker",
    deal_button: "Deal", hand_of: "Hand of", to_act: "To act", legal: "Legal actions",
    select_hint: "Tap the cards played, then their play.", no_play: "These cards make no play listed: tap more, or clear.",
    other_action: "Enter what the player did (even if the rules refuse it)",
    action_type: "Action", send: "Enter", refused: "Refused", rule: "Rule",
    referee: "Referee", warning: "Warning", penalty: "Penalty", points: "Points",
    reason: "Reason", ruling: "Rulings", undo: "Undo last entry", entries: "Entries",
    finished: "The deal is over", deltas: "Score changes", totals: "Running totals",
    next_deal: "Next deal", new_match: "New match", sheet: "Match score",
    sheet_service: "Printable score sheet", export: "Export record",
    import: "Import a record", print: "Print", offline: "Service unreachable — entries kept",
    queued: "waiting to be sent", retry: "Retry now", which_cards: "Which card(s)?",
    which_hint: "The stock is unknown here: tap the card(s) in the order drawn or turned.",
    deal_n: "Deal", match_over: "The match is over", no_actions: "No action matches.",
    more: "more…", clear: "Clear", deal_of: "Deal", none: "none", key_needed:
    "The service asks for the referee key.", resume: "Resumed", check: "Record check",
    confirm_new: "Start a new match? The current one stays kept in this browser (Matches kept here, on the set-up page).",
    confirm_new_unkept: "Start a new match? This browser could not keep the current one: only an exported record keeps it.",
    storage_failed: "Not saved in this browser.",
    storage_hint: "Everything entered stays on this page while it is open: export the record or save a copy of the match now (or free some space and try again).",
    storage_retry: "Try again", save_copy: "Save a copy of the match", kept: "Matches kept here", open: "Open", delete: "Delete", deals: "deals",
    confirm_delete: "Delete this match from this browser? Only an exported record keeps it then.",
    seed: "Seed", salt: "Salt", events: "What happened", error: "Error", chosen: "Chosen",
    imported: "Record imported", tags: "Event, table, referee (for the record)",
    tag_event: "Event", tag_site: "Site", tag_round: "Round", tag_table: "Table", tag_referee: "Referee", back: "Back to the last deal", status: "Status", match_so_far: "Match so far",
    offline_hint: "The service is unreachable: enter what the player did below; it is sent when the service answers.",
    comment: "Comment", comment_save: "Keep",
    winner: "Winner", standing: "Final standing",
    referee_mode: "Referee mode: a rule broken is recorded with its sanction, not refused",
    match_so_far_import: "A match entered part-way: open its record or saved copy; the next deal goes on from it (game, seats, options and the match's values). Nothing chosen: a new match.",
    match_so_far_json: "Or the match's values as JSON (advanced)",
    waiting_hint: "An entry is waiting to be sent: these actions come back once the service says who acts next.",
    match_so_far_hint: "A match entered part-way: the game's match values as JSON (levels, points, the last finish…); a referee act. Empty: a new match.",
    round_n: "round", table_n: "table",
    push_idle: "Result not sent yet", push_waiting: "Result waiting to be sent", push_sent: "Result sent ✓",
    push_refused: "Result refused — the match stays kept here, export it",
    report_results: "Report results instead", report_play: "Enter the deals instead",
    report_confirm: "Report this table's results deal by deal (places, without the moves)? The deals entered stay kept here.",
    report_title: "Reported results", report_after: "After deal", report_sent: "Reported",
    report_hint: "Where each entrant stands now, after this deal (places 1…n, equal places for a tie); scores if the table keeps them.",
    report_places_missing: "Give every entrant a place.", place: "Place", score: "Score",
    round_deals_played: "The round's deals are all played: the result is sent to the director.",
  },
  ja: {
    home: "Card Referee（カード審判）", other: "English", setup: "試合の準備", game: "ゲーム",
    preset: "プリセット", default: "― 既定 ―", options: "オプション", seats: "席",
    seat_count: "席の数", seat: "席", key: "審判キー",
    key_hint: "サービスが求めるときだけ(署名・封印された状態)。",
    deal_mode: "配り", deal_server: "サーバーが切る(シード付き、コミットメントあり)",
    deal_physical: "卓の札を入力する(各席の手札)", start: "試合を始める",
    dealer: "親", commitment: "シードのコミットメント ― 対局前に告げてください:",
    enter_hands: "配られた札を入力", cards_left: "残り", deck_left: "まだ配られていない札", table_fields: "卓上",
    undo_card: "直前の札を取り消す", dealing_sheet: "配札表", back_to_play: "局に戻る",
    dealing_sheet_hint: "席ごとに 1 枚の配札票です: 印刷して点線で切り分け、各席の札を票のとおりに並べてください。どの票にもこの局のシードのコミットメントが入っています。",
    seed_commitment: "シードのコミットメント", cards_n: "枚", on_the_table: "手札以外", joker_BJ: "黒ジョーカー", joker_RJ: "赤ジョーカー",
    deal_button: "配る", hand_of: "手札:", to_act: "手番", legal: "合法な行動",
    select_hint: "出された札をタップし、その出し方をタップしてください。", no_play: "この札で出せる手はありません: 札を足すか、クリアしてください。",
    other_action: "プレイヤーのしたことを入力(ルール違反でも)",
    action_type: "行動", send: "入力", refused: "却下", rule: "ルール",
    referee: "審判", warning: "警告", penalty: "罰則", points: "点数",
    reason: "理由", ruling: "裁定", undo: "直前の入力を取り消す", entries: "入力の記録",
    finished: "この局は終わりました", deltas: "点数の増減", totals: "累計",
    next_deal: "次の局", new_match: "新しい試合", sheet: "試合の得点",
    sheet_service: "印刷用スコアシート", export: "記録を書き出す",
    import: "記録を読み込む", print: "印刷", offline: "サービスに接続できません ― 入力は保持しています",
    queued: "件が送信待ち", retry: "今すぐ再試行", which_cards: "どの札ですか?",
    which_hint: "山札の順は不明です: 引いた(めくった)順に札をタップしてください。",
    deal_n: "第", match_over: "試合は終わりました", no_actions: "該当する行動はありません。",
    more: "ほか…", clear: "クリア", deal_of: "局", none: "なし",
    key_needed: "サービスが審判キーを求めています。", resume: "再開しました", check: "記録の検査",
    confirm_new: "新しい試合を始めますか? 現在の試合はこのブラウザに保存されたままです(準備画面の「保存した試合」)。",
    confirm_new_unkept: "新しい試合を始めますか? このブラウザは現在の試合を保存できませんでした: 書き出した記録にだけ残ります。",
    storage_failed: "このブラウザに保存できませんでした。",
    storage_hint: "入力はこのページを開いている間は失われません: 今すぐ記録を書き出すか試合のコピーを保存してください(または空き容量を作って再試行)。",
    storage_retry: "再試行", save_copy: "試合のコピーを保存", kept: "保存した試合", open: "開く", delete: "削除", deals: "局",
    confirm_delete: "この試合をこのブラウザから削除しますか? 書き出した記録にだけ残ります。",
    seed: "シード", salt: "ソルト", events: "出来事", error: "エラー", chosen: "選択",
    imported: "記録を読み込みました", tags: "大会・卓・審判(記録用)",
    tag_event: "大会", tag_site: "会場", tag_round: "回戦", tag_table: "卓", tag_referee: "審判", back: "前の局に戻る", status: "状態", match_so_far: "途中からの試合",
    offline_hint: "サービスに接続できません: プレイヤーのしたことを下で入力してください。接続が戻ると送信します。",
    comment: "コメント", comment_save: "保存",
    winner: "勝者", standing: "最終順位",
    referee_mode: "審判モード: ルール違反を却下せず、罰則とともに記録します",
    match_so_far_import: "途中から入力する試合: その記録か保存したコピーを開くと、次の局がそこから続きます(ゲーム・席・オプション・試合の値)。選ばなければ新しい試合です。",
    match_so_far_json: "または試合の値を JSON で(上級者向け)",
    waiting_hint: "送信待ちの入力があります: サービスが次の手番を答えると、これらの行動がまた選べます。",
    match_so_far_hint: "途中から入力する試合: ゲームの試合の値を JSON で(レベル、点数、前局の順位など)。審判の行為です。空欄: 新しい試合。",
    round_n: "回戦", table_n: "卓",
    push_idle: "結果はまだ送っていません", push_waiting: "結果は送信待ちです", push_sent: "結果を送りました ✓",
    push_refused: "結果は受け付けられませんでした ― 試合はここに保存されています。書き出してください",
    report_results: "結果の報告に切り替える", report_play: "局の入力に戻る",
    report_confirm: "この卓の結果を局ごとに報告しますか(順位のみ、行動は入力しません)? 入力済みの局はここに残ります。",
    report_title: "結果の報告", report_after: "局の後:", report_sent: "報告済み",
    report_hint: "この局の後の各参加者の順位(1…n、同点は同順位)。卓で点数を付けていれば点数も。",
    report_places_missing: "全員の順位を入れてください。", place: "順位", score: "点数",
    round_deals_played: "この回戦の局はすべて終わりました: 結果はディレクターに送られます。",
  },
};

const STORE_KEY = "cardref.table.lang";

export function initialLanguage() {
  const saved = localStorage.getItem(STORE_KEY);
  if (saved === "en" || saved === "ja") return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of langs) {
    const base = String(l).toLowerCase().split("-")[0];
    if (base === "ja" || base === "en") return base;
  }
  return "en";
}

let current = "en";
export function setLanguage(lang) {
  current = lang;
  localStorage.setItem(STORE_KEY, lang);
  document.documentElement.lang = lang;
}
export function language() { return current; }
export function t(key) { return (WORDS[current] && WORDS[current][key]) || WORDS.en[key] || key; }
