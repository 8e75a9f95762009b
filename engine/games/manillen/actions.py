"""The action vocabulary (what a client posts besides `type` and `player`)."""
from __future__ import annotations

from engine.fields import ActionType, Field

TRUMP_CHOICES = ("S", "H", "D", "C", "no_trump")

ACTIONS: tuple[ActionType, ...] = (
    ActionType("look_at_hand", "The dealer picks up their hand without calling blind no-trump "
               "(only offered when blind_no_trump is on).",
               "ディーラーが見ずノートランプを宣言せずに手札を取る（blind_no_trump が有効なときのみ）。",
               rule="A11"),
    ActionType("blind_no_trump", "The dealer calls no-trump before looking at their hand.",
               "ディーラーが手札を見る前にノートランプを宣言する。",
               rule="A11"),
    ActionType("choose_trump", "The dealer (or, after 'en face', their partner) names trumps "
               "or no-trump.",
               "ディーラー（「アン・ファス」の後はそのパートナー）が切札またはノートランプを決める。",
               {"trump": Field("enum", "a suit letter or no_trump",
                               "スートの文字、または no_trump（ノートランプ）",
                               choices=TRUMP_CHOICES)},
               rule="A9"),
    ActionType("pass_trump_choice", "'En face': the dealer lets their partner name trumps.",
               "「アン・ファス」：ディーラーが切札決めをパートナーに任せる。",
               rule="A12"),
    ActionType("double", "'Ik ga mee': the non-dealing side doubles the deal.",
               "「Ik ga mee」：ディーラーのいないチームがディールをダブルする。", rule="A14"),
    ActionType("redouble", "'Ik ga tegen': the dealer's side doubles again.",
               "「Ik ga tegen」：ディーラーのチームがさらにダブルする（リダブル）。", rule="A15"),
    ActionType("pass", "Decline to double or redouble; ends the doubling when nobody else of "
               "that side may still call.",
               "ダブルまたはリダブルを見送る。そのチームに宣言できる人が残っていなければダブルの"
               "段階が終わる。",
               rule="A14"),
    ActionType("play", "Play a card from the hand (or, with 2 players, a face-up table card).",
               "手札（2人のときはテーブルの表向きのカードも）からカードを1枚出す。",
               {"card": Field("card", "the card played", "出すカード")}, rule="A21"),
    ActionType("speak", "Manille parlée (A37): tell the partner about to play to take the "
               "trick or to leave it. Refused in manille muette and the Belgian game; not a "
               "move, so never listed in legal_actions.",
               "マニーユ・パルレ（A37）：これからカードを出すパートナーに、トリックを取るか見送るかを"
               "伝える。マニーユ・ミュエットとベルギー式では認められない。手ではないので "
               "legal_actions には載らない。",
               {"says": Field("enum", "the signal", "合図（take：取れ、leave：見送れ）",
                              choices=("take", "leave"))}, rule="A37"),
    ActionType("report_peek", "Referee report: the dealer's partner looked at their cards "
               "before trumps were named; the hand is thrown in. Posted as that partner.",
               "審判の報告：切札が決まる前にディーラーのパートナーが自分のカードを見た。手は流れる。"
               "そのパートナーとして送る。",
               rule="A8", referee_only=True),
)
