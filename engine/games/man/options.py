"""Options: every **[default]** of the rules page as a named option, plus the two modes of 8.4
and 6.2, how the start card is turned (2.3), and the match's end (7.2). Presets bundle them."""
from __future__ import annotations

from engine.fields import Field, Option

OPTIONS = (
    Option("violations", Field("enum", "reject: refuse an illegal action and keep the state "
                               "(front ends); chombo: apply the chombo penalty and end the game "
                               "(referee tools)",
                               "reject: 不正な行動を拒否し、状態はそのまま(フロントエンド向け)。"
                               "chombo: チョンボの罰則を適用してゲームを終える(審判ツール向け)",
                               choices=("reject", "chombo")), "reject", "8.4"),
    Option("calls", Field("enum", "automatic: the service makes each end-of-turn call; declared: "
                          "every turn-ending action carries the spoken call, checked",
                          "automatic: 手番終了時のコールはサービスが行う。declared: 手番を終える"
                          "行動ごとに発声したコールを添え、その正否を確かめる",
                          choices=("automatic", "declared")), "automatic", "6.2"),
    Option("no_opening_match", Field("enum", "flip_again: the dealer turns more cards until "
                                     "someone can match; dealer_left_starts: the player left of "
                                     "the dealer takes the first turn on the start card",
                                     "flip_again: 誰かが合わせられるまで親が台札をめくり続ける。"
                                     "dealer_left_starts: 親の左隣のプレイヤーがその台札で最初の"
                                     "手番を行う",
                                     choices=("flip_again", "dealer_left_starts")),
           "flip_again", "2.5"),
    Option("multi_card_effects", Field("enum", "per_card: two 2s draw 4, two As skip two, two Js "
                                       "reverse twice; once: a group acts as one card",
                                       "per_card: 効果は1枚ごと(2を2枚で4枚ドロー、Aを2枚で2人"
                                       "飛ばし、Jを2枚で2回リバース)。once: 同時に出した組は1枚"
                                       "として効果を持つ",
                                       choices=("per_card", "once")), "per_card", "3.2"),
    Option("penalty_draw_ends_turn", Field("bool", "drawing a pending draw ends the turn",
                                           "掛かっているドローを引いたら手番が終わる"),
           True, "3.8"),
    Option("stock_exhausted", Field("enum", "reshuffle: the discard pile under the top card "
                                    "becomes the stock; draw_game: the game ends drawn",
                                    "reshuffle: 一番上のカードを除く捨て札を山札にする。"
                                    "draw_game: ゲームは引き分けで終わる",
                                    choices=("reshuffle", "draw_game")), "reshuffle", "3.9"),
    Option("man_window", Field("enum", "next_action: a card can be manned until the next action "
                               "that is not a man call (a draw reopens it for the drawer); "
                               "until_covered: while it lies on top, until the next card covers "
                               "it",
                               "next_action: まんのコール以外の次の行動まで、そのカードにまん"
                               "できる(山札から引くと、引いた人には再びまんの機会が開く)。"
                               "until_covered: 一番上にある間、次のカードが重なるまでまんできる",
                               choices=("next_action", "until_covered")),
           "next_action", "5.3"),
    Option("let_pass", Field("enum", "blocked (the original rules): a number a player let pass "
                             "reopens for them only when another player plays it or their own "
                             "hand changes; "
                             "reopens: any new card of that number reopens it",
                             "blocked(元ルール): 見逃した数字は、他のプレイヤーがその数字を"
                             "出すか自分の手札が変わったときにだけ、再びまんできる。reopens: "
                             "その数字の新しいカードが出れば再びまんできる",
                             choices=("blocked", "reopens")), "blocked", "5.3"),
    Option("dealer_after_no_winner", Field("enum", "who deals after a chombo or a drawn game: "
                                           "same: the same dealer; left: the player left of "
                                           "the dealer",
                                           "チョンボや引き分けの後に配る人。same: 同じ親。"
                                           "left: 親の左隣のプレイヤー",
                                           choices=("same", "left")), "same", "7.1"),
    Option("match_games", Field("int", "the match ends after this many games (a tie for the "
                                "lead plays on); null: no limit",
                                "このゲーム数で対戦を終える(首位が同点なら続ける)。null: 制限なし",
                                nullable=True, minimum=1),
           None, "7.2"),
    Option("match_target", Field("int", "the match ends when a running total reaches this (a "
                                 "tie for the lead plays on); null: no target",
                                 "累計点がこの点数に達したら対戦を終える(首位が同点なら続ける)。"
                                 "null: 目標点なし", nullable=True, minimum=1), None, "7.2"),
    Option("start_card", Field("enum", "in_deal: the deal turns effect start cards over by "
                               "itself; by_dealer: the dealer turns each next card with `flip`, "
                               "so a play on an effect start card can happen (a chombo, 2.6)",
                               "in_deal: 台札が効果カードならディールの中でめくり直す。"
                               "by_dealer: 親が `flip` で1枚ずつめくる(効果カードの台札に出す"
                               "チョンボが起こりうる、2.6)",
                               choices=("in_deal", "by_dealer")), "in_deal", "2.3"),
)

PRESETS = {
    "standard": {},
    "referee": {"violations": "chombo", "calls": "declared", "start_card": "by_dealer"},
}

DEFAULTS = {o.name: o.default for o in OPTIONS}
