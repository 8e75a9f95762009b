// The live events' pages' own words in English and Japanese (the director's page and the
// public event page). The games' words (names, options) and the problems' come from the
// service in the chosen language (Accept-Language).
const WORDS = {
  en: {
    other: "日本語", home: "Card Referee", director_title: "Card Referee — director", event_title: "Card Referee — event",
    director_heading: "Director", service: "This service", redis: "Events kept in",
    redis_embedded: "the service's own Redis, data folder", redis_configured: "the Redis CARDREF_REDIS_URL names",
    redis_none: "no Redis: events cannot be kept (set CARDREF_REDIS_URL or run card-referee serve)",
    redis_unknown: "unknown (the service did not say)", address: "Address the phones open",
    loopback: "This page is open on the laptop's own address, which no phone reaches: open it at the address `card-referee serve` printed (http://<the laptop's LAN address>:8000/), so that links and QR codes work for phones.",
    loopback_open_there: "This page is open on the laptop's own address, which no phone reaches: phones open the address above; open this page there too (the link), so that the tables' links and QR codes work for phones.",
    your_events: "Events kept on this laptop", no_events: "None yet.", forget: "Forget",
    confirm_forget: "Forget this event on this laptop? Its director token is lost here (a director key gives a new one).",
    create: "Create an event", create_button: "Create the event", event_name: "Event name", director_key: "Director key",
    director_key_hint: "One of CARDREF_DIRECTOR_KEYS, or the one `card-referee serve` printed (its link fills it in); used to create the event, and not kept.",
    game: "Game", preset: "Preset", default: "— default —", options: "Options",
    table_size: "Seats at a table", partners: "Partners", partners_none: "none", partners_fixed: "fixed teams",
    partners_rotating: "rotating partners", rounds: "Rounds", round_end: "A round ends",
    end_deals: "Deals in a round", end_minutes: "Minutes", end_kind_deals: "after a number of deals",
    end_kind_match: "with the game's own match end", end_kind_time: "at the bell",
    at_bell: "At the bell", bell_finish_deal: "the deal in progress is played out", bell_void_deal: "the deal in progress does not count",
    event_points: "Event points by place (1st, 2nd, …)", bye_points: "Event points of a bye", bye_default: "1st place's",
    tie_breaks: "Tie-breaks (in this order)", tie_opponents_points: "Opponents' points", tie_match_score: "Match score",
    tie_first_places: "First places", tie_head_to_head: "Head to head",
    seating: "Seating", seating_swiss: "Swiss", seating_random: "Random", same_deals: "Same deals at every table (deals per round)",
    all_events: "← All events", public_page: "Public page", download: "Download the event document",
    entrants: "Entrants", entrant: "Entrant", entrant_name: "Name", members: "Members", members_hint: "names, separated by commas",
    checked_in: "checked in", not_checked_in: "not checked in", enters_round: "enters round {n}", withdrawn_from: "withdrawn from round {n}",
    register: "Register", search: "Search by name", status: "Status", check_in: "Check in", check_out: "Check out",
    withdraw: "Withdraw", confirm_withdraw: "Withdraw from the next round on:", registered: "registered",
    round: "Round", start_round: "Start the next round", print_seating: "Print the seating", close_round: "Close the round",
    publish: "Publish", published: "Published: final", open: "in play", closed: "closed", not_started: "No round seated yet.",
    confirm_close: "Close the round? Its seeds are revealed and its tables' links stop working.",
    confirm_publish: "Publish the event? It changes no more.",
    seed_commitment: "Seed commitment", byes: "Byes", table: "Table", seat: "Seat",
    waiting: "waiting for a result", deals_done: "deals done", result_in: "result in",
    table_link: "Open the table page", new_link: "New link for this table",
    enter_result: "Enter the result", correct_result: "Correct the result", result_of: "Result of",
    add_deal: "Add a deal", remove_deal: "Remove the last deal",
    result_places_only: "Places only", result_by_deal: "Each deal",
    replaces_record: "This replaces the table's match record with a reported result.",
    place: "Place", score: "Score", note: "Note", save: "Save", cancel: "Cancel",
    substitute: "Substitute (this round)", sub_name: "Substitute's name (empty: none)",
    penalty: "Penalty", kind: "Kind", points: "Points", reason: "Reason", add_penalty: "Add the penalty",
    pen_warning: "warning", pen_points: "event points off", pen_disqualification: "disqualification",
    standings: "Standings", event_points_short: "Points", played: "Played",
    time_left: "Time left on the round's clock", bell: "Time: the bell has rung",
    confirmations: "Each seat confirms a reported result (on the table's page) before it is sent",
    unconfirmed: "not confirmed by every seat",
    call_waiting: "Waiting for the referee", call_clear: "Referee came: clear the call",
    call_reason_ruling: "a question on the rules", call_reason_irregularity: "an irregularity",
    call_reason_dispute: "the players disagree", call_reason_result: "help with the result",
    unreachable: "The service does not answer: try again in a moment.",
    // the public page
    find_table: "Find my table", find_hint: "Your name", no_match: "No entrant of that name.",
    your_table: "Table", current_seating: "Seating", results: "Results", crosstable: "Crosstable",
    deals_seeds: "Deals and seeds", deal: "Deal", seed: "Seed", salt: "Salt", my_page: "My page",
    back_to_event: "← The event", event_not_found: "No such event here.", bye: "bye", of: "of",
    updated: "Updated", rank: "Rank", round_short: "R", no_rounds: "No round seated yet.",
    opponents: "Opponents", disqualified: "disqualified", penalty_points: "Penalty points",
  },
  ja: {
    other: "English", home: "Card Referee（カード審判）", director_title: "Card Referee — 大会責任者", event_title: "Card Referee — 大会",
    director_heading: "大会責任者", service: "このサービス", redis: "大会の保存先",
    redis_embedded: "サービス自身の Redis、データフォルダー", redis_configured: "CARDREF_REDIS_URL の Redis",
    redis_none: "Redis がありません: 大会を保存できません(CARDREF_REDIS_URL を設定するか card-referee serve で起動)",
    redis_unknown: "不明(サービスが答えませんでした)", address: "スマートフォンで開くアドレス",
    loopback: "このページはノートPC自身のアドレスで開かれていて、スマートフォンからは届きません: `card-referee serve` が表示したアドレス(http://<ノートPCの LAN のアドレス>:8000/)で開き直すと、リンクと QR コードがスマートフォンで使えます。",
    loopback_open_there: "このページはノートPC自身のアドレスで開かれていて、スマートフォンからは届きません: スマートフォンは上のアドレスを開きます。このページもそこで開き直すと(リンク)、卓のリンクと QR コードがスマートフォンで使えます。",
    your_events: "このノートPCにある大会", no_events: "まだありません。", forget: "削除",
    confirm_forget: "このノートPCからこの大会を削除しますか? ここにある大会責任者のトークンは失われます(大会責任者のキーで新しく発行できます)。",
    create: "大会を作る", create_button: "大会を作成", event_name: "大会名", director_key: "大会責任者のキー",
    director_key_hint: "CARDREF_DIRECTOR_KEYS のひとつ、または `card-referee serve` が表示したキー（そのリンクから開くと入力済み）。大会の作成に使い、保存しません。",
    game: "ゲーム", preset: "プリセット", default: "― 既定 ―", options: "オプション",
    table_size: "1 卓の席数", partners: "パートナー", partners_none: "なし", partners_fixed: "固定チーム",
    partners_rotating: "入れ替わるパートナー", rounds: "回戦数", round_end: "回戦の終わり",
    end_deals: "1 回戦の局数", end_minutes: "分", end_kind_deals: "局数で",
    end_kind_match: "ゲームの試合の終わりで", end_kind_time: "時間(ベル)で",
    at_bell: "ベルが鳴ったら", bell_finish_deal: "進行中の局は最後まで行う", bell_void_deal: "進行中の局は数えない",
    event_points: "順位ごとの大会ポイント(1 位、2 位、…)", bye_points: "不戦(バイ)の大会ポイント", bye_default: "1 位と同じ",
    tie_breaks: "同点時の順位決定(この順)", tie_opponents_points: "対戦相手のポイント", tie_match_score: "試合の得点差",
    tie_first_places: "1 位の回数", tie_head_to_head: "直接対決",
    seating: "組み合わせ", seating_swiss: "スイス式", seating_random: "ランダム", same_deals: "全卓で同じ配札(1 回戦の局数)",
    all_events: "← 大会の一覧", public_page: "公開ページ", download: "大会の文書をダウンロード",
    entrants: "参加者", entrant: "参加者", entrant_name: "名前", members: "メンバー", members_hint: "名前をカンマ区切りで",
    checked_in: "受付済み", not_checked_in: "未受付", enters_round: "途中参加: 第 {n} 回戦から", withdrawn_from: "棄権: 第 {n} 回戦から",
    register: "登録", search: "名前で検索", status: "状態", check_in: "受付", check_out: "受付を取り消す",
    withdraw: "棄権", confirm_withdraw: "次の回戦から棄権させますか:", registered: "人(組)が登録済み",
    round: "回戦", start_round: "次の回戦を始める", print_seating: "組み合わせを印刷", close_round: "回戦を終える",
    publish: "公開する", published: "公開済み: 確定", open: "対局中", closed: "終了", not_started: "まだ組み合わせがありません。",
    confirm_close: "この回戦を終えますか? シードが公開され、各卓のリンクは使えなくなります。",
    confirm_publish: "大会を公開しますか? 以後は変更できません。",
    seed_commitment: "シードのコミットメント", byes: "不戦(バイ)", table: "卓", seat: "席",
    waiting: "結果待ち", deals_done: "局終了", result_in: "結果あり",
    table_link: "卓ページを開く", new_link: "この卓の新しいリンク",
    enter_result: "結果を入力", correct_result: "結果を訂正", result_of: "結果:",
    add_deal: "局を追加", remove_deal: "最後の局を削除",
    result_places_only: "順位だけ", result_by_deal: "局ごと",
    replaces_record: "卓の対局記録を、報告された結果で置き換えます。",
    place: "順位", score: "得点", note: "メモ", save: "保存", cancel: "キャンセル",
    substitute: "代理(この回戦のみ)", sub_name: "代理の名前(空欄: なし)",
    penalty: "罰則", kind: "種類", points: "ポイント", reason: "理由", add_penalty: "罰則を追加",
    pen_warning: "警告", pen_points: "大会ポイントの減点", pen_disqualification: "失格",
    standings: "順位表", event_points_short: "ポイント", played: "対局数",
    time_left: "回戦の残り時間", bell: "時間です: ベルが鳴りました",
    confirmations: "申告結果は、送る前に各席が(卓のページで)確認する",
    unconfirmed: "全席の確認なし",
    call_waiting: "審判を待っています", call_clear: "審判が対応: 呼び出しを消す",
    call_reason_ruling: "ルールの質問", call_reason_irregularity: "反則・事故",
    call_reason_dispute: "プレイヤー間の意見の相違", call_reason_result: "結果の入力の手助け",
    unreachable: "サービスが応答しません: 少し待って再試行してください。",
    find_table: "自分の卓を探す", find_hint: "あなたの名前", no_match: "その名前の参加者はいません。",
    your_table: "卓", current_seating: "組み合わせ", results: "結果", crosstable: "対戦表",
    deals_seeds: "配札とシード", deal: "局", seed: "シード", salt: "ソルト", my_page: "自分のページ",
    back_to_event: "← 大会", event_not_found: "その大会はここにありません。", bye: "不戦", of: "/",
    updated: "更新", rank: "順位", round_short: "回", no_rounds: "まだ組み合わせがありません。",
    opponents: "対戦相手", disqualified: "失格", penalty_points: "罰則ポイント",
  },
};

const STORE_KEY = "cardref.events.lang";

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
export function t(key, n) {
  const word = (WORDS[current] && WORDS[current][key]) || WORDS.en[key] || key;
  return n === undefined ? word : word.replace("{n}", String(n));
}
// Every key has its Japanese (tests/events_pages check it through this).
export function missingJapanese() { return Object.keys(WORDS.en).filter((k) => !(k in WORDS.ja)); }
// The fixed words of a language (a test checks that the Japanese page shows none of English's).
export function words(lang) { return { ...WORDS[lang] }; }
