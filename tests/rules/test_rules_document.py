"""Every engine rule that changes what is legal or what happens is stated in the rules document
models read (``rules_md/rules.<locale>.md``), in every language.

``STATED`` maps each ruling of RULES.md (R-1 … R-18) and each further rule the engine applies to
the scenario tests that prove the engine does it and to the sentence of each language's rules
document that states it.  A ruling added to RULES.md without a row here fails the test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.paths import RULES_MD_DIR
from harness.views.names import LOCALES
from harness.views.rules_doc import render_rules_md

ROOT = Path(__file__).resolve().parents[2]

# (what, engine scenario tests, {locale: sentence of the rules document})
STATED: list[tuple[str, list[str], dict[str, str]]] = [
    (
        "R-1",
        ["tests/rules/test_rulings_r1_r5.py::test_r1_deck_suits_and_ranks"],
        {
            "en": "The deck has exactly 80 cards: 21 ♥ and 12 ♠ of rank 2–9",
            "ru": "В колоде ровно 80 карт: 21 карта ♥ и 12 карт ♠ от 2 до 9",
            "zh": "牌堆恰好有 80 张牌：21 张 ♥，以及 12 张点数 2–9 的 ♠",
            "ja": "山札はちょうど80枚：♥が21枚、ランク2〜9の♠が12枚",
            "ar": "في المجموعة 80 بطاقة بالضبط: 21 بطاقة ♥ و12 بطاقة ♠ من 2 إلى 9",
        },
    ),
    (
        "R-2",
        ["tests/rules/test_rulings_r1_r5.py::test_r2_old_classic_no_marshal_hand_adjustment"],
        {
            "en": "Old Classic has no hand adjustment: the Marshal, too, starts with as many cards "
            "as ♥.",
            "ru": "В Старой классике рука не поправляется: Маршал тоже начинает с картами по "
            "числу ♥.",
            "zh": "老经典没有手牌调整：警长也以与 ♥ 相同数量的手牌开局。",
            "ja": "オールドクラシックには手札の調整がない：保安官も♥と同じ枚数の手札で始まる。",
            "ar": "لا تعديل لليد في الكلاسيكي القديم: يبدأ المارشال أيضًا بعدد بطاقات يساوي ♥.",
        },
    ),
    (
        "R-3",
        ["tests/rules/test_rulings_r1_r5.py::test_r3_double_agent_raiders_team_knows_each_other"],
        {
            "en": "The Raiders and the Double Agent know each other.",
            "ru": "Агент и Налётчики знают друг друга.",
            "zh": "劫匪们和双面特工彼此认识。",
            "ja": "襲撃者たちと二重スパイは互いを知っている。",
            "ar": "المغاوير والعميل المزدوج يعرفون بعضهم بعضًا.",
        },
    ),
    (
        "R-4",
        [
            "tests/rules/test_rulings_r1_r5.py::test_r4_high_noon_flask_not_legal_on_own_turn",
            "tests/rules/test_rulings_r1_r5.py::test_r4_high_noon_saloon_not_legal",
            "tests/rules/test_rulings_r1_r5.py::test_r4_high_noon_bonesetter_heal_not_legal",
        ],
        {
            "en": "healing does nothing — Flask, Saloon and Bonesetter's ability cannot be played.",
            "ru": "лечения нет — Флягу, Салун и умение Костоправа сыграть нельзя.",
            "zh": "治疗全部失效——酒壶、酒馆和接骨师的技能都不能使用。",
            "ja": "回復はできない——ひょうたん、酒場、骨接ぎ師の能力は使えない。",
            "ar": "ولا يفيد العلاج — لا يمكن لعب القربة ولا الحانة ولا قدرة المجبِّر.",
        },
    ),
    (
        "R-5, the decision timer and the autopilot",
        [
            "tests/rules/test_rulings_r1_r5.py::test_r5_play_phase_ends_turn",
            "tests/rules/test_rulings_r1_r5.py::test_r5_forced_discard_most_recently_received",
            "tests/rules/test_rulings_r1_r5.py::test_r5_upgrade_first_in_canonical_order",
            "tests/agents/test_model_games.py::test_autopilot_fallback_applies_the_rule_bots_choice",
        ],
        {
            "en": "Every decision has a time limit (the table's timer). If you do not answer in "
            "time, or your answer cannot be read, the seat's fallback decides for you: the "
            "simplest move (in the play phase end the turn; in any response take the hit; when "
            "discarding, discard the most recently received cards; in a draw-phase choice draw "
            "from the deck; for an upgrade the first listed: Marksmanship, Toughness, Instinct; "
            "otherwise the first option) or, at tables set so, the rule bot's move (autopilot).",
            "ru": "На каждое решение есть время (таймер стола). Не ответил вовремя или ответ не "
            "удалось прочесть — за тебя решает замена: самый простой ход (в розыгрыше — конец "
            "хода; в любом ответе — принять удар; при сбросе — сбросить последние полученные "
            "карты; в выборе добора — добор из колоды; в улучшении — первое по списку: Меткость, "
            "Закалка, Чутьё; иначе — первый вариант) или, если так настроен стол, ход бота "
            "(автопилот).",
            "zh": "每个决定都有时间限制（牌桌的计时器）。如果你没有按时回答，或者你的回答无法读取，"
            "就由替补替你决定：最简单的一步（出牌阶段结束回合；任何应对中承受命中；弃牌时弃掉最近"
            "得到的牌；摸牌阶段的选择从牌堆摸牌；强化选列表中的第一项：神射、坚韧、直觉；其他情况"
            "选第一个选项），或者在这样设置的牌桌上，由规则机器人替你行动（托管）。",
            "ja": "どの決定にも制限時間がある（卓のタイマー）。時間内に答えないか、答えが読み取れ"
            "ないと、代わりの手が選ばれる：いちばん簡単な手（プレイフェイズならターン終了、どの対応"
            "でも命中を受ける、捨てるときは最後に受け取ったカードを捨てる、ドローの選択なら山札から"
            "引く、アップグレードは一覧の最初——狙撃手の腕、頑丈さ、勘の順——、それ以外は最初の選択肢）"
            "、またはそう設定された卓ではルールボットの手（オートパイロット）。",
            "ar": "لكل قرار مهلة (مؤقت الطاولة). إن لم تجب في الوقت أو تعذّرت قراءة جوابك، يقرّر "
            "البديل عنك: أبسط حركة (في مرحلة اللعب إنهاء الدور؛ وفي أي رد تقبّل الإصابة؛ وعند "
            "التخلص رمي آخر البطاقات التي وصلتك؛ وفي خيار السحب السحب من المجموعة؛ وفي التحسين "
            "أول ما في القائمة: الرماية ثم الصلابة ثم الحدس؛ وإلا فالخيار الأول)، أو حركة روبوت "
            "القواعد (الطيار الآلي) على الطاولات المضبوطة على ذلك.",
        },
    ),
    (
        "R-6",
        ["tests/rules/test_rulings_r6_r8.py::test_r6_may_still_play_the_card"],
        {
            "en": "A player may still play a card whose effect his character has built in (to "
            "keep it from others); it adds nothing.",
            "ru": "Карту, которая у персонажа уже встроена, всё равно можно сыграть (чтобы она не "
            "досталась другим); она ничего не добавляет.",
            "zh": "角色已自带某件装备时，玩家仍可打出同名卡牌（不让别人拿到）；它不增加任何效果。",
            "ja": "キャラクターに内蔵されている装備と同じカードもプレイできる（他人に渡さないため）"
            "が、何も加わらない。",
            "ar": "يجوز للاعب أن يلعب بطاقة لدى شخصيته مثلها مدمجًا (ليمنعها عن غيره)؛ لكنها لا "
            "تضيف شيئًا.",
        },
    ),
    (
        "R-7",
        ["tests/rules/test_rulings_r6_r8.py::test_r7_both_ricochets_in_one_decision"],
        {
            "en": "a successful Cover check counts as one; Ricochets are discarded together; a "
            "Flask (when allowed) cancels on its own.",
            "ru": "удачное Укрытие — одна; Рикошеты сбрасываются вместе; Фляга (когда можно) "
            "отменяет удар сама.",
            "zh": "一次成功的掩体判定算一次；跳弹一起弃掉；酒壶（允许时）单独就能取消。",
            "ja": "遮蔽物の判定の成功は1回分。跳弾はまとめて捨てる。ひょうたん（使えるとき）はそれ"
            "だけで無効にする。",
            "ar": "نجاح فحص الساتر يُحسب واحدًا؛ ويُتخلَّص من بطاقات الارتداد معًا؛ والقربة (حين "
            "يُسمح بها) تلغي وحدها.",
        },
    ),
    (
        "R-8",
        [
            "tests/rules/test_rulings_r6_r8.py::test_r8_flask_not_legal_at_full_hp",
            "tests/rules/test_rulings_r6_r8.py::test_r8_old_classic_flask_not_legal_with_two_alive",
        ],
        {
            "en": "Flask on your own turn heals 1 ♥ and cannot be played at full ♥. In Old "
            "Classic, Flask cannot be played at all while only 2 players are alive (it would heal "
            "nothing).",
            "ru": "Фляга в свой ход лечит 1 ♥, и при полном ♥ её сыграть нельзя. В Старой "
            "классике, пока живы только двое, Флягу сыграть нельзя вовсе (она ничего не лечит).",
            "zh": "酒壶在你自己的回合回复 1 ♥，满 ♥ 时不能打出。在老经典中，只剩 2 名玩家存活时完全"
            "不能打出酒壶（它什么也不回复）。",
            "ja": "ひょうたんは自分のターンに♥を1回復し、♥が満タンのときはプレイできない。オールド"
            "クラシックでは生存者が2人だけのとき、ひょうたんはまったくプレイできない（何も回復しない）。",
            "ar": "القربة في دورك تعيد 1 ♥ ولا يجوز لعبها و♥ لديك كاملة. وفي الكلاسيكي القديم لا "
            "يجوز لعب القربة أبدًا ما دام لاعبان فقط حيَّين (فهي لا تعالج شيئًا).",
        },
    ),
    (
        "R-9",
        ["tests/rules/test_rulings_r9.py::test_r9_order_reveal_scavenger_vulture_then_glory"],
        {
            "en": "At 0 ♥ a player is eliminated, in this order: the role is revealed;",
            "ru": "При 0 ♥ игрок выбывает, по порядку: роль открывается;",
            "zh": "♥ 降到 0 时玩家被淘汰，依次：公开身份；",
            "ja": "♥が0になったプレイヤーは脱落する。順に：役職が公開される。",
            "ar": "عند 0 ♥ يُقصى اللاعب، بهذا الترتيب: يُكشف دوره؛",
        },
    ),
    (
        "R-10, R-18",
        [
            "tests/rules/test_characters_gains.py::test_stone_leopard_eliminated_draws_nothing",
            "tests/rules/test_characters_gains.py::test_collector_eliminated_takes_nothing",
            "tests/rules/test_characters_gains.py::test_stone_leopard_draws_after_dynamite",
            "tests/rules/test_further_rulings.py::test_r18_stone_leopard_lethal_dynamite_draws_nothing",
        ],
        {
            "en": "After-hit abilities (Stone Leopard's draw, Collector's steal) happen only if "
            "the player survives the hit: a hit that brings Stone Leopard to 0 ♥ (Dynamite "
            "included) draws him nothing. A Dynamite explosion he survives is one hit: he draws 1 "
            "card, or 2 if he is at ♥ ≤ 2 after it.",
            "ru": "Способности после удара (добор Каменного Барса, кража Данника) срабатывают, "
            "только если игрок пережил удар: удар, доводящий Каменного Барса до 0 ♥ (и Динамит), "
            "не даёт ему карт. Пережитый взрыв Динамита — один удар: он берёт 1 карту или 2, если "
            "после него у него ♥ ≤ 2.",
            "zh": "受击后的技能（石豹的摸牌、收税人的抢牌）只有在玩家挺过这次命中时才会发动：让石豹"
            "降到 0 ♥ 的命中（包括炸药）不会让他摸牌。他挺过的一次炸药爆炸算一次命中：他摸 1 张牌，"
            "若爆炸后 ♥ ≤ 2 则摸 2 张。",
            "ja": "命中後の能力（石のヒョウのドロー、取り立て屋の奪取）は、その命中を生き延びたとき"
            "だけ起こる：石のヒョウを♥0にする命中（ダイナマイトも）では何も引かない。生き延びた"
            "ダイナマイトの爆発は1回の命中で、1枚引き、爆発後に♥が2以下なら2枚引く。",
            "ar": "قدرات ما بعد الإصابة (سحب الفهد الحجري، وأخذ الجابي) لا تعمل إلا إذا نجا اللاعب "
            "من الإصابة: الإصابة التي تُنزل الفهد الحجري إلى 0 ♥ (والديناميت أيضًا) لا يسحب بعدها "
            "شيئًا. وانفجار ديناميت ينجو منه إصابة واحدة: يسحب بطاقة واحدة، أو بطاقتين إن صارت ♥ "
            "لديه 2 أو أقل بعده.",
        },
    ),
    (
        "R-11",
        [
            "tests/rules/test_characters_combat.py::test_lucky_jail_second_try_frees",
            "tests/rules/test_characters_combat.py::test_lucky_cover_two_tries",
        ],
        {
            "en": "Lucky reveals two cards for a Jail or Dynamite check and flips two coins for "
            "Cover; one success is enough.",
            "ru": "Счастливчик открывает две карты на проверке Тюрьмы или Динамита и бросает две "
            "монеты за Укрытие; хватит одной удачи.",
            "zh": "幸运儿 在监狱或炸药判定时翻开两张牌，在掩体判定时抛两次硬币；成功一次即可。",
            "ja": "ラッキー は牢屋とダイナマイトの判定でカードを2枚めくり、遮蔽物ではコインを2回投げる。"
            "1回成功すればよい。",
            "ar": "المحظوظ يكشف بطاقتين في فحص السجن أو الديناميت ويرمي عملتين للساتر؛ ويكفيه نجاح "
            "واحد.",
        },
    ),
    (
        "R-12",
        [
            "tests/rules/test_further_rulings.py::test_r12_three_eyes_with_instinct_looks_at_four_keeps_two",
            "tests/rules/test_further_rulings.py::test_r12_grip_with_instinct_looks_at_two_deck_cards_for_one",
            "tests/rules/test_further_rulings.py::test_r12_red_suit_with_instinct_shows_the_second_card_kept",
        ],
        {
            "en": "Three Eyes with Instinct looks at 4 cards and keeps 2. Grip or Vulture Jr. "
            "with Instinct, after taking the first card elsewhere, look at 2 deck cards and keep "
            "1. Red Suit's shown card is the second card kept.",
            "ru": "Три Глаза с Чутьём смотрит 4 карты и берёт 2. Хват или Стервятник-младший с "
            "Чутьём, взяв первую карту не из колоды, смотрят 2 карты колоды и берут 1. Показанная "
            "карта Красной Масти — вторая взятая.",
            "zh": "三只眼有直觉时查看 4 张牌并留下 2 张。握枪手或秃鹫小弟有直觉时，从别处拿到第一张"
            "牌后，查看牌堆的 2 张牌并留下 1 张。红花色展示的牌是留下的第二张牌。",
            "ja": "三つ目が勘を持つと4枚を見て2枚を取る。グリップやハゲタカJr.が勘を持つと、最初の"
            "1枚を別の場所から取ったあと、山札の2枚を見て1枚を取る。赤いスーツが見せるカードは、"
            "取った2枚目のカード。",
            "ar": "ذو العيون الثلاث مع الحدس ينظر إلى 4 بطاقات ويحتفظ باثنتين. والقبضة أو النسر "
            "الصغير مع الحدس، بعد أخذ البطاقة الأولى من مكان آخر، ينظران إلى بطاقتين من المجموعة "
            "ويحتفظان بواحدة. والبطاقة التي تكشفها البدلة الحمراء هي ثانية البطاقتين المحتفظ بهما.",
        },
    ),
    (
        "R-13",
        ["tests/rules/test_rulings_r9.py::test_r9_bounty_instinct_already_held_star_still_moves"],
        {
            "en": "Bounty: the eliminator cannot take an Instinct ★ if he already has Instinct, "
            "unless the victim has no other kind of ★; then the ★ moves to him without a second "
            "Instinct effect.",
            "ru": "Награда за голову: выбивший не может забрать звезду Чутья, если Чутьё у него уже "
            "есть, — кроме случая, когда других звёзд у выбывшего нет; тогда звезда переходит к "
            "нему без второго эффекта Чутья.",
            "zh": "悬赏：淘汰者如果已有直觉，就不能夺走直觉星，除非被淘汰者没有别的星；这时这颗星转给"
            "他，但没有第二次直觉效果。",
            "ja": "賞金首：倒した人がすでに勘を持っていれば勘の★は奪えない。ただし脱落者にほかの種類"
            "の★がなければ、その★は2度目の勘の効果なしで移る。",
            "ar": "المكافأة على الرأس: لا يأخذ المُقصي نجمة الحدس إن كان الحدس لديه، إلا إذا لم يكن "
            "لدى المُقصى نوع آخر من ★؛ فتنتقل النجمة إليه دون أثر ثانٍ للحدس.",
        },
    ),
    (
        "R-14",
        [
            "tests/rules/test_turn.py::test_marshal_eliminates_last_deputy_penalty_glory_and_last_bullet"
        ],
        {
            "en": "A Marshal who eliminates the last Deputy pays the penalty and still gains both "
            "the glory ★ and the Last Bullet ★.",
            "ru": "Маршал, выбивший последнего Помощника, платит штраф и всё равно получает обе ★: "
            "за славу и за Последний патрон.",
            "zh": "淘汰最后一名副手的警长要受惩罚，但仍获得荣耀和最后一发子弹的两颗 ★。",
            "ja": "最後の保安官補を倒した保安官は罰を受け、それでも栄光の★と最後の1発の★の両方を得る。",
            "ar": "المارشال الذي يقصي آخر نائب يدفع العقوبة وينال مع ذلك ★ المجد و★ الرصاصة "
            "الأخيرة كلتيهما.",
        },
    ),
    (
        "R-15",
        [
            "tests/rules/test_cards_blue.py::test_jail_old_classic_failure_skips_whole_turn",
            "tests/rules/test_further_rulings.py::test_r15_old_classic_failed_jail_skips_the_end_of_turn_discard",
        ],
        {
            "en": "In Old Classic a failed Jail check skips the whole turn, the end-of-turn "
            "discard included.",
            "ru": "В Старой классике проваленная проверка Тюрьмы пропускает весь ход, включая сброс "
            "в конце хода.",
            "zh": "在老经典中，监狱判定失败会跳过整个回合，包括回合结束时的弃牌。",
            "ja": "オールドクラシックでは、牢屋の判定に失敗すると、ターン終了時の捨て札も含めて"
            "ターン全体が飛ばされる。",
            "ar": "في الكلاسيكي القديم يُسقط فشل فحص السجن الدور كله، بما في ذلك التخلص في نهاية "
            "الدور.",
        },
    ),
    (
        "R-16",
        [
            "tests/rules/test_characters_gains.py::test_scavenger_takes_hand_and_in_play_of_eliminated"
        ],
        {
            "en": "a living Scavenger takes the victim's hand, in-play cards and weapon",
            "ru": "живой Падальщик забирает руку, выложенные карты и оружие выбывшего",
            "zh": "存活的拾荒者拿走被淘汰者的手牌、场上的牌和武器",
            "ja": "生きている拾い屋が脱落者の手札、場のカード、武器を手に入れ",
            "ar": "يأخذ النبّاش الحي يد المُقصى وبطاقاته في اللعب وسلاحه",
        },
    ),
    (
        "R-17",
        ["tests/agents/test_transcript.py::test_history_passes_the_redeal_no_leak_test"],
        {
            "en": "The event feed is public history: you see it from the start of the game.",
            "ru": "Лента событий — открытая история: ты видишь её с начала партии.",
            "zh": "事件记录是公开的历史：你从对局开始起就能看到它。",
            "ja": "出来事の記録は公開の履歴で、試合の始めから見られる。",
            "ar": "سجل الأحداث تاريخ علني: تراه منذ بداية اللعبة.",
        },
    ),
    (
        "Instinct: the draw phase only, never twice (RULES.md §7)",
        [
            "tests/rules/test_further_rulings.py::test_instinct_only_in_the_draw_phase_not_for_wagon_caravan_bazaar",
            "tests/rules/test_turn.py::test_instinct_cannot_be_chosen_twice",
        ],
        {
            "en": "Instinct works only in your draw phase (look at 3 cards, keep 2, put 1 back on "
            "top), not for Wagon, Caravan or Bazaar draws. A player who has Instinct cannot take "
            "it again.",
            "ru": "Чутьё действует только в фазе добора (смотришь 3 карты, берёшь 2, 1 кладёшь "
            "обратно наверх), а не при доборе Обоза, Каравана или Базара. Игрок с Чутьём не может "
            "взять его второй раз.",
            "zh": "直觉只在你的摸牌阶段生效（查看 3 张，留下 2 张，把 1 张放回牌堆顶），马车、商队或"
            "集市的摸牌不适用。已有直觉的玩家不能再选直觉。",
            "ja": "勘が効くのは自分のドローフェイズだけ（3枚を見て2枚を取り、1枚を山札の上に戻す）で、"
            "幌馬車、キャラバン、バザールで引くときには効かない。勘を持っているプレイヤーは勘をもう"
            "一度選べない。",
            "ar": "لا يعمل الحدس إلا في مرحلة السحب في دورك (تنظر إلى 3 بطاقات وتحتفظ باثنتين وتعيد "
            "واحدة إلى أعلى المجموعة)، لا في سحب العربة أو القافلة أو البازار. ومن لديه الحدس لا "
            "يمكنه أن يختاره مرة ثانية.",
        },
    ),
    (
        "Wagon, Caravan and Bazaar never draw themselves back (RULES.md §3)",
        ["tests/rules/test_cards_draw_pile.py::test_draw_cards_never_draw_themselves_back"],
        {
            "en": "A Wagon, Caravan or Bazaar is not in the discard pile while it resolves, so it "
            "never draws itself back.",
            "ru": "Обоз, Караван и Базар, пока разыгрываются, ещё не в сбросе, поэтому никогда не "
            "добирают сами себя.",
            "zh": "马车、商队和集市在结算时还不在弃牌堆里，所以永远不会把自己摸回来。",
            "ja": "幌馬車、キャラバン、バザールは解決中はまだ捨て札にないので、自分自身を引き戻す"
            "ことはない。",
            "ar": "العربة والقافلة والبازار ليست في كومة التخلص أثناء تنفيذها، فلا تسحب نفسها أبدًا.",
        },
    ),
    (
        "The end-of-turn discard is the player's choice (RULES.md §3.4)",
        ["tests/rules/test_turn.py::test_hand_limit_discard_to_current_hp"],
        {
            "en": "then discard down to your current ♥ if your hand is bigger; you choose which "
            "cards to discard.",
            "ru": "если карт в руке больше, чем ♥, — сбрось лишние на выбор.",
            "zh": "如果手牌多于你当前的 ♥，弃到与 ♥ 相等（弃哪些牌由你选择）。",
            "ja": "手札が今の♥より多ければ、♥の数まで捨てる（どれを捨てるかは自分で選ぶ）。",
            "ar": "ثم تخلّص من البطاقات حتى يساوي عددها ♥ الحالية إن كانت يدك أكبر، وأنت من يختار "
            "البطاقات.",
        },
    ),
    (
        "Eliminated players watch (RULES.md §7)",
        ["tests/engine/test_conformance.py::test_eliminated_players_never_act"],
        {
            "en": "Eliminated players stay at the table as spectators: they see the public table "
            "and make no more decisions.",
            "ru": "Выбывшие остаются за столом зрителями: видят открытый стол и больше не "
            "принимают решений.",
            "zh": "被淘汰的玩家作为旁观者留在牌桌旁：他们看到公开的牌桌，不再做任何决定。",
            "ja": "脱落したプレイヤーは観戦者として卓に残る：公開された卓を見るが、もう決定はしない。",
            "ar": "يبقى المُقصَون على الطاولة متفرّجين: يرون الطاولة العلنية ولا يتخذون أي قرار بعد "
            "ذلك.",
        },
    ),
]


def _flat(text: str, locale: str) -> str:
    """The document's running text: line breaks inside a paragraph or list item are a space
    (none in Chinese and Japanese), emphasis marks dropped."""
    joiner = "" if locale in ("zh", "ja") else " "
    text = re.sub(r"\n[ \t]+(?=\S)", joiner, text)
    text = re.sub(r"(?<=\S)\n(?=[^\s#|\-\d])", joiner, text)
    return re.sub(r"[ \t]+", " ", text.replace("**", ""))


def test_every_ruling_of_rules_md_has_a_row() -> None:
    """RULES.md's rulings (R-1 … R-n) are all mapped to the document's sentences."""
    spec = (ROOT / "RULES.md").read_text(encoding="utf-8")
    rulings = {f"R-{n}" for n in re.findall(r"\*\*(?:Ruling )?R-(\d+)\*\*", spec)}
    assert len(rulings) >= 18
    mapped = {r for what, _, _ in STATED for r in re.findall(r"R-\d+", what.split(" (")[0])}
    assert rulings <= mapped, sorted(rulings - mapped)


@pytest.mark.parametrize(("what", "engine_tests", "_"), STATED, ids=[r[0] for r in STATED])
def test_the_engine_rule_has_scenario_tests(what: str, engine_tests: list[str], _: dict) -> None:
    """Each row names scenario tests that exist, so the sentence states what the engine does."""
    assert engine_tests
    for ref in engine_tests:
        path, name = ref.split("::")
        source = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(rf"^def {re.escape(name)}\(", source, re.M), ref


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("what", "_", "sentences"), STATED, ids=[r[0] for r in STATED])
def test_the_rules_document_states_it(
    what: str, _: list[str], sentences: dict, locale: str
) -> None:
    """The generated rules document of every language holds the row's sentence; the committed
    ``rules_md`` file is that document (``bangarena rules build --check``)."""
    assert set(sentences) == set(LOCALES)
    text = render_rules_md(locale)
    assert (RULES_MD_DIR / f"rules.{locale}.md").read_text(encoding="utf-8") == text
    assert _flat(sentences[locale], locale) in _flat(text, locale), (what, locale)
