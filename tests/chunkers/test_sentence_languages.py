# ruff: noqa: RUF001, RUF003
# (Sentences of other scripts, some of whose letters look Latin.)
"""``SentenceChunker(language=...)``: the language rules pinned by examples of
our own, and the invariants (lossless, delta invariance, linear work) in every
language.  The fast paths are checked against the rules in every language in
``tests/chunkers/test_sentence_fast_paths.py``."""

from __future__ import annotations

import itertools
import re

import pytest
from helpers.chunking import check_stream, sliced, stream
from helpers.cost import MAX_DOUBLING, MAX_WORK_PER_CHAR, CountingPattern, Work, stream_work
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import ChunkStream, SentenceChunker
from guardrails_ai.chunkwise.chunkers.sentence import scanner as scanning
from guardrails_ai.chunkwise.chunkers.sentence.languages import LANGUAGES, SCRIPT_TYPED

ALL = ["auto", *LANGUAGES]

# (language, text, sentences): each rule in a few sentences of our own.
EXAMPLES = [
    # Full-width decimal points (any language): a "．" or "｡" between digits.
    ("auto", "温度は２４．５度でした。明日は雨。", ["温度は２４．５度でした。", "明日は雨。"]),
    ("auto", "価格は３．２９％です。次へ。", ["価格は３．２９％です。", "次へ。"]),
    ("auto", "Build ７｡１ ships today. Next.", ["Build ７｡１ ships today.", "Next."]),
    ("auto", "Version ３．２ is out.", ["Version ３．２ is out."]),
    # ... and between Latin letters: a name written in full-width forms.
    ("auto", "Mail ｊｏ＠ｅｘ．ｃｏｍ now. Next.", ["Mail ｊｏ＠ｅｘ．ｃｏｍ now.", "Next."]),
    ("ja", "ｗｗｗ．ｅｘａｍｐｌｅ．ｊｐ．次へ。", ["ｗｗｗ．ｅｘａｍｐｌｅ．ｊｐ．", "次へ。"]),
    ("auto", "It was late．Then we left．", ["It was late．", "Then we left．"]),
    # ... and after a full-width capital opening the chunk (a label) or one
    # of dotted initials; another capital before it makes it a full stop.
    ("ja", "Ｑ．何ですか？Ａ．本です。", ["Ｑ．何ですか？", "Ａ．本です。"]),
    ("auto", "彼はＮ．Ｙ．に住んでいる。仕事は忙しい。",
     ["彼はＮ．Ｙ．に住んでいる。", "仕事は忙しい。"]),
    ("ja", "これはＡＢＣ．次へ。", ["これはＡＢＣ．", "次へ。"]),
    # ... and after one or two digits opening the chunk (a list marker), not more.
    ("zh", "步骤如下。１．准备材料。１２．开始做。",
     ["步骤如下。", "１．准备材料。", "１２．开始做。"]),
    ("ja", "1．準備する\n2． 実行する", ["1．準備する", "2． 実行する"]),
    # ... or one or two Chinese numerals opening the chunk, not after other text.
    ("zh", "一．准备材料。\n十二．开始做。", ["一．准备材料。", "十二．开始做。"]),
    ("ja", "一．概要\n二．手順", ["一．概要", "二．手順"]),
    ("zh", "答案是一．然后继续。", ["答案是一．", "然后继续。"]),
    ("zh", "２０２４．新年快乐。我有３．", ["２０２４．", "新年快乐。", "我有３．"]),
    # ... before a capital too after "@" and a domain, and invisible characters
    # around the dot are read past; the ideographic full stop goes on in a domain only.
    ("auto", "Mail ＪＯ＠ＥＸ．ＣＯＭ now. Next.", ["Mail ＪＯ＠ＥＸ．ＣＯＭ now.", "Next."]),
    ("auto", "Mail ｊｏ＠ｅｘ．\u200bｃｏｍ now.", ["Mail ｊｏ＠ｅｘ．\u200bｃｏｍ now."]),
    # (a joiner or a variation selector too, which a CJK run reads as a closer)
    ("auto", "Mail ｊｏ＠ｅｘ．\u200dｃｏｍ now.", ["Mail ｊｏ＠ｅｘ．\u200dｃｏｍ now."]),
    ("auto", "Host 192．168．\ufe0f10.20 now.", ["Host 192．168．\ufe0f10.20 now."]),
    ("auto", "Mail jo@example。com now。Next one", ["Mail jo@example。com now。", "Next one"]),
    ("auto", "Mail jo@example.com。Thanks a lot.", ["Mail jo@example.com。", "Thanks a lot."]),
    # ... every dot of a domain written with ideographic full stops, the first
    # one only before a capital; a full-width dot in a local part before a
    # capital; ideographic full stops joining three groups of digits or more
    # (an IPv4 address, a phone number), not two.
    ("auto", "Mail jo@mail。example。co。uk now.", ["Mail jo@mail。example。co。uk now."]),
    ("auto", "Mail jo@example。com。Thanks", ["Mail jo@example。com。", "Thanks"]),
    ("auto", "Mail Jo．Ann@Example．COM now.", ["Mail Jo．Ann@Example．COM now."]),
    ("auto", "Mail Jo｡Ann@example.com now.", ["Mail Jo｡Ann@example.com now."]),
    # ... and an ideographic full stop in a local part, before the "@" arrives.
    ("auto", "Mail taro。yamada@example。co。jp now.", ["Mail taro。yamada@example。co。jp now."]),
    ("auto", "Mail Jo。Ann@example.com now。Next one",
     ["Mail Jo。Ann@example.com now。", "Next one"]),
    ("zh", "我用Python。numpy很好。", ["我用Python。", "numpy很好。"]),
    ("auto", "Mail jo@ex\u200b\u200b．COM now.", ["Mail jo@ex\u200b\u200b．COM now."]),
    ("auto", "Tel 415。555。0123 now.", ["Tel 415。555。0123 now."]),
    ("auto", "Server 192。168。10。20 is up.", ["Server 192。168。10。20 is up."]),
    ("auto", "Server 192.168。10.20 is up.", ["Server 192.168。10.20 is up."]),
    ("auto", "Tel 415。555.0123 now.", ["Tel 415。555.0123 now."]),
    ("zh", "第1章。2023年完成。", ["第1章。", "2023年完成。"]),
    # A period glued to a capital inside an address's local part, in other scripts.
    ("ru", "Пишите на иван.Петров@почта.рф сегодня.", ["Пишите на иван.Петров@почта.рф сегодня."]),
    ("el", "Γράψτε στο γιαννης.Παπας@example.gr.", ["Γράψτε στο γιαννης.Παπας@example.gr."]),
    ("kk", "Бұл ғасыр.XVIII ғасыр.", ["Бұл ғасыр.", "XVIII ғасыр."]),
    ("auto", "OK．Then．次へ。", ["OK．", "Then．", "次へ。"]),
    ("zh", "版本３。２。完成。", ["版本３。", "２。", "完成。"]),
    ("zh", "我喜欢Python。Python很好。", ["我喜欢Python。", "Python很好。"]),
    ("ja", "終わり．次の文。", ["終わり．", "次の文。"]),
    # A terminator right after the closers of a CJK run: the later one ends the sentence.
    ("zh", "他说：“走。”。然后走了！”！好。", ["他说：“走。”。", "然后走了！”！", "好。"]),
    ("ja", "会議は終わった（予定通り。）。次へ。", ["会議は終わった（予定通り。）。", "次へ。"]),
    # CJK titles and quotations closed before a particle.
    ("zh", "我读完了《活着！》这本书。很好看。", ["我读完了《活着！》这本书。", "很好看。"]),
    ("ja", "彼は「はい。」と答えた。それで終わり。",
     ["彼は「はい。」と答えた。", "それで終わり。"]),
    ("ja", "「行こう！」「うん。」", ["「行こう！」", "「うん。」"]),
    # ... and so is one in double quotation marks, curly or straight.
    ("ja", "彼は“行く。”と言った。次へ。", ["彼は“行く。”と言った。", "次へ。"]),
    ("ja", '彼は"行く。"と言った。“来て。”そして去った。',
     ['彼は"行く。"と言った。', "“来て。”", "そして去った。"]),
    # ... and so is a parenthetical closed after a terminator (a definition in legal text).
    ("ja", "主な債務者（以下「債務者」という。）は、次の者です。以上。",
     ["主な債務者（以下「債務者」という。）は、次の者です。", "以上。"]),
    ("ja", "彼は来た（と思う。）そして帰った。", ["彼は来た（と思う。）", "そして帰った。"]),
    # ... before a particle only: a conjunction or adverb after it opens a sentence.
    ("ja", "「はい。」って言った。「はい。」は短い。",
     ["「はい。」って言った。", "「はい。」は短い。"]),
    ("ja", "「行くよ。」しかし誰も来なかった。", ["「行くよ。」", "しかし誰も来なかった。"]),
    ("ja", "彼は言った。「来て。」そして去った。",
     ["彼は言った。", "「来て。」", "そして去った。"]),
    ("ja", "『待って！』まもなく雨が降った。", ["『待って！』", "まもなく雨が降った。"]),
    # An initial after German "an" (to) is no answer letter ("is B. Paris").
    ("de", "Schreib an B. Müller. Er antwortet.", ["Schreib an B. Müller.", "Er antwortet."]),
    ("auto", "Schreib an B. Müller. Er antwortet.", ["Schreib an B. Müller.", "Er antwortet."]),
    # Ordinals: always in German, Danish and Slovak; before a month everywhere.
    ("de", "Er wurde 2. Sieger im Rennen. Toll.", ["Er wurde 2. Sieger im Rennen.", "Toll."]),
    ("auto", "Wir treffen uns am 3. März in Bonn. Danach essen wir.",
     ["Wir treffen uns am 3. März in Bonn.", "Danach essen wir."]),
    ("sk", "Stretneme sa 5. Mája v Trnave. Príď.", ["Stretneme sa 5. Mája v Trnave.", "Príď."]),
    ("en", "We won 2. Others lost.", ["We won 2.", "Others lost."]),
    # German and Danish closing quotes after the terminator.
    ("de", "Sie rief: „Komm sofort.“ Dann ging sie.",
     ["Sie rief: „Komm sofort.“", "Dann ging sie."]),
    ("da", "Han sagde: »Kom nu.« Hun kom.", ["Han sagde: »Kom nu.«", "Hun kom."]),
    # Abbreviations and sentence starters of each language.
    ("de", "Ich kaufe Obst, z. B. Äpfel und Birnen. Fertig.",
     ["Ich kaufe Obst, z. B. Äpfel und Birnen.", "Fertig."]),
    ("de", "Wir nehmen Brot bzw. Kuchen mit.", ["Wir nehmen Brot bzw. Kuchen mit."]),
    # Prepositions written short govern the noun after them: no sentence ends
    # there (as after "inkl.", "zzgl.").
    ("de", "Ich melde mich bzgl. Ihrer Frage. Der Preis gilt exkl. Versand. Er stieg ggü. Mai.",
     ["Ich melde mich bzgl. Ihrer Frage.", "Der Preis gilt exkl. Versand.",
      "Er stieg ggü. Mai."]),
    ("auto", "Ich melde mich bzgl. Ihrer Frage. Gut.",
     ["Ich melde mich bzgl. Ihrer Frage.", "Gut."]),
    ("da", "Vi handlede hos Jensen & Co. Det var billigt.",
     ["Vi handlede hos Jensen & Co.", "Det var billigt."]),
    ("da", "Mødet er kl. 10 i morgen.", ["Mødet er kl. 10 i morgen."]),
    ("da", "Lejen er 900 kr. om ugen, inkl. vand. Det passer.",
     ["Lejen er 900 kr. om ugen, inkl. vand.", "Det passer."]),
    ("da", "Billetten koster 50 kr. Den er billig.",
     ["Billetten koster 50 kr.", "Den er billig."]),
    ("da", "Vi talte mht. budgettet i går.", ["Vi talte mht. budgettet i går."]),
    ("sk", "Obec má asi 12 tis. ľudí. Je malá.", ["Obec má asi 12 tis. ľudí.", "Je malá."]),
    ("sk", "Kúpili sme ovocie, napr. Jablká a hrušky. Hotovo.",
     ["Kúpili sme ovocie, napr. Jablká a hrušky.", "Hotovo."]),
    ("kk", "Бүгін проф. Асанов келді. Ол қуанды.", ["Бүгін проф. Асанов келді.", "Ол қуанды."]),
    ("ru", "Вчера приехал проф. Иванов. Мы рады.", ["Вчера приехал проф. Иванов.", "Мы рады."]),
    ("es", "Saludé a la Srta. Gómez en la puerta. Luego entré.",
     ["Saludé a la Srta. Gómez en la puerta.", "Luego entré."]),
    ("it", "Ho parlato con l'Avv. Rossi ieri. Era stanco.",
     ["Ho parlato con l'Avv. Rossi ieri.", "Era stanco."]),
    ("pt", "Falei com a Sra. Lima hoje. Ela riu.", ["Falei com a Sra. Lima hoje.", "Ela riu."]),
    ("nl", "Bel dhr. Jansen morgen. Hij wacht.", ["Bel dhr. Jansen morgen.", "Hij wacht."]),
    ("pl", "Przyszedł dr Nowak, tzw. Szef zespołu. Dobrze.",
     ["Przyszedł dr Nowak, tzw. Szef zespołu.", "Dobrze."]),
    ("fr", "Nous avons vu Mme. Leroy hier. Elle va bien.",
     ["Nous avons vu Mme. Leroy hier.", "Elle va bien."]),
    ("bg", "Дойде д-р Петров. Всички се зарадваха.", ["Дойде д-р Петров.", "Всички се зарадваха."]),
    ("el", "Ήρθε ο κ. Παπάς. Όλοι χάρηκαν.", ["Ήρθε ο κ. Παπάς.", "Όλοι χάρηκαν."]),
    # Terminators of other scripts (every language), and those a language types in ASCII.
    ("auto", "Նա եկավ։ Մենք ուրախ ենք։", ["Նա եկավ։", "Մենք ուրախ ենք։"]),
    ("hy", "Ես տուն եմ գնում: Դու ինչ ես անում:", ["Ես տուն եմ գնում:", "Դու ինչ ես անում:"]),
    # ... and in "auto", right after a letter of the script (and closers) only.
    ("auto", "Ես տուն եմ գնում: Դու ինչ ես անում:", ["Ես տուն եմ գնում:", "Դու ինչ ես անում:"]),
    ("auto", "Նա ասաց «Այո»: Հետո գնաց:", ["Նա ասաց «Այո»:", "Հետո գնաց:"]),
    ("auto", "Πού είσαι; Σε περιμένω.", ["Πού είσαι;", "Σε περιμένω."]),
    ("auto", "Ratio 3: Then 4; Then five.", ["Ratio 3: Then 4; Then five."]),
    ("auto", "Word Ես: Then α; Next.", ["Word Ես:", "Then α;", "Next."]),
    ("auto", "Ναι;; Όχι; ; Ίσως", ["Ναι;; Όχι;", "; Ίσως"]),
    ("auto", "मैं घर जा रहा हूँ। तुम कहाँ हो?", ["मैं घर जा रहा हूँ।", "तुम कहाँ हो?"]),
    ("hi", "वह आया॥ हम खुश हैं।", ["वह आया॥", "हम खुश हैं।"]),
    ("ar", "هل ستأتي غدا؟ سأنتظرك هناك.", ["هل ستأتي غدا؟", "سأنتظرك هناك."]),
    ("auto", "Really‼ Yes.", ["Really‼", "Yes."]),
    ("el", "Πού είσαι; Σε περιμένω.", ["Πού είσαι;", "Σε περιμένω."]),
    ("auto", "Note this; Then go.", ["Note this; Then go."]),
    # Burmese, Ethiopic, Devanagari, Arabic and Armenian text may set no space
    # after a terminator: between two characters above U+00FF it ends one.
    ("auto", "ဒီနေ့ မိုးရွာတယ်။မနက်ဖြန် နေသာမယ်။", ["ဒီနေ့ မိုးရွာတယ်။", "မနက်ဖြန် နေသာမယ်။"]),
    ("am", "ዛሬ ዝናብ ዘነበ።ነገ ፀሐይ ትወጣለች፧አዎ።", ["ዛሬ ዝናብ ዘነበ።", "ነገ ፀሐይ ትወጣለች፧", "አዎ።"]),
    ("hi", "मैं घर गया।वह बाज़ार गई।", ["मैं घर गया।", "वह बाज़ार गई।"]),
    ("ur", "میں گھر گیا۔وہ بازار گئی؟", ["میں گھر گیا۔", "وہ بازار گئی؟"]),
    ("auto", "Նա եկավ։Մենք գնացինք։", ["Նա եկավ։", "Մենք գնացինք։"]),
    # Not before or after a character of ASCII or Latin-1, nor after another
    # terminator ("hy" reads every ":" as its full stop).
    ("auto", "Գին։100 դրամ, Ok։Yes", ["Գին։100 դրամ, Ok։Yes"]),
    ("hy", "Տես https://example.am և std::vector-ը։", ["Տես https://example.am և std::vector-ը։"]),
    ("hi", "क्या?।नहीं", ["क्या?।नहीं"]),
    # (A danda before a digit frames a verse's number.)
    ("hi", "श्लोक पढ़ो॥१॥ फिर सोचो।", ["श्लोक पढ़ो॥१॥", "फिर सोचो।"]),
    # Inline lists: the chunk ends before the next marker of the same form.
    ("auto", "1. Wash the cups 2. Dry them 3. Put them away",
     ["1. Wash the cups", "2. Dry them", "3. Put them away"]),
    ("auto", "1.) Red paint. 2.) Blue paint.", ["1.) Red paint.", "2.) Blue paint."]),
    ("auto", "a.) Red b.) Green", ["a.) Red", "b.) Green"]),
    ("auto", "• 4. Buy milk • 5. Buy bread", ["• 4. Buy milk", "• 5. Buy bread"]),
    ("auto", "⁃7. Call Sam ⁃8. Call Kim", ["⁃7. Call Sam", "⁃8. Call Kim"]),
    ("auto", "1. Start here 3. Then there", ["1. Start here 3.", "Then there"]),
    ("auto", "We counted 1. Then 2. Then more.", ["We counted 1.", "Then 2.", "Then more."]),
    # Elisions, labels before numbers, dashes before a lower-case word.
    ("auto", '"He wrote that the rest [...]" (Hale 12). Then we left.',
     ['"He wrote that the rest [...]" (Hale 12).', "Then we left."]),
    ("auto", "Ask for N°. 42 at the desk. Thanks.", ["Ask for N°. 42 at the desk.", "Thanks."]),
    ("auto", "Wait! - she called after him. He stopped.",
     ["Wait! - she called after him.", "He stopped."]),
    ("auto", "Wait! — Then he stopped.", ["Wait!", "— Then he stopped."]),
    # A number after a label and a period counts, and is no ordinal.
    ("de", "Er schläft in Zimmer Nr. 5. Morgen fährt er.",
     ["Er schläft in Zimmer Nr. 5.", "Morgen fährt er."]),
    ("da", "Vi bor i nr. 7. Det er et rødt hus.", ["Vi bor i nr. 7.", "Det er et rødt hus."]),
    ("sk", "Pozri si tabuľku č. 2. Je v prílohe.", ["Pozri si tabuľku č. 2.", "Je v prílohe."]),
    ("de", "Das steht auf S. 12. Lies es.", ["Das steht auf S. 12.", "Lies es."]),
    ("de", "Wir sahen uns am 12. Juni.", ["Wir sahen uns am 12. Juni."]),
    ("de", "Der Kurs ist am Di. 4. März. Komm mit.", ["Der Kurs ist am Di. 4. März.", "Komm mit."]),
    # Dates written with periods and spaces, where ordinals are written so.
    ("de", "Sie kam am 3. 10. 1990 an. Alle jubelten.",
     ["Sie kam am 3. 10. 1990 an.", "Alle jubelten."]),
    ("sk", "Dňa 7. 9. sme odišli. Bolo teplo.", ["Dňa 7. 9. sme odišli.", "Bolo teplo."]),
    ("da", "Det skete 1. 5. 2022. Vi husker det.", ["Det skete 1. 5. 2022.", "Vi husker det."]),
    ("es", "Viajó a EE. UU. con su hija. Volvió feliz.",
     ["Viajó a EE. UU. con su hija.", "Volvió feliz."]),
    # ... and so are the other Spanish plurals written spaced, each letter
    # doubled, in every language: one word, which ends before a capital.
    ("es", "Habla con RR. HH. mañana. Los JJ. OO. Empiezan hoy.",
     ["Habla con RR. HH. mañana.", "Los JJ. OO.", "Empiezan hoy."]),
    ("auto", "Se mudó a EE. UU. en 2019. Las FF. AA. desfilaron.",
     ["Se mudó a EE. UU. en 2019.", "Las FF. AA. desfilaron."]),
    ("auto", "Volvió de EE. UU. Ahora vive aquí.", ["Volvió de EE. UU.", "Ahora vive aquí."]),
    ("en", "She studied EE. The rest was easy.", ["She studied EE.", "The rest was easy."]),
    # Times written spaced (Spanish style): "p. m." is one time, never a list item.
    ("es", "Cenamos a las 9 p. m. con mis tíos.", ["Cenamos a las 9 p. m. con mis tíos."]),
    ("auto", "Salimos a las 7 a. m. y volvimos tarde.",
     ["Salimos a las 7 a. m. y volvimos tarde."]),
    ("es", "Cerramos a las 8 p. m. Mañana abrimos.",
     ["Cerramos a las 8 p. m.", "Mañana abrimos."]),
    # A dotted abbreviation written spaced is looked up as one; in upper case,
    # only a PREFIX ("z. B."): other pairs of capitals are initials.
    ("ru", "Купили хлеб, сыр и т. д. Потом ушли.", ["Купили хлеб, сыр и т. д.", "Потом ушли."]),
    ("de", "Nimm Obst, z. B. Die Birnen dort.", ["Nimm Obst, z. B. Die Birnen dort."]),
    ("en", "A. B. Cole wrote it. He left.", ["A. B. Cole wrote it.", "He left."]),
    ("da", "Vi købte øl m. m. Det var sjovt.", ["Vi købte øl m. m.", "Det var sjovt."]),
    ("ru", "Это было в XIX в. Тогда жили иначе.", ["Это было в XIX в.", "Тогда жили иначе."]),
    ("fr", "Il a 30 ans env. Il vit seul.", ["Il a 30 ans env.", "Il vit seul."]),
    ("pl", "Zob. s. 4 w raporcie.", ["Zob. s. 4 w raporcie."]),
    ("it", "Nel sec. XVIII il porto crebbe.", ["Nel sec. XVIII il porto crebbe."]),
    ("pt", "A Profa. Ana chegou no séc. XXI.", ["A Profa. Ana chegou no séc. XXI."]),
    ("da", "Vi ses i morgen, dvs. lørdag.", ["Vi ses i morgen, dvs. lørdag."]),
    # A lower-case letter after a number is a unit; a word after an elision is
    # read without it; abbreviations of law texts and amounts.
    ("ru", "Билет стоил 300 р. Недорого.", ["Билет стоил 300 р.", "Недорого."]),
    ("en", "Add 20 g. Stir well.", ["Add 20 g.", "Stir well."]),
    ("kk", "Ол 2001 ж. Астанаға келді.", ["Ол 2001 ж. Астанаға келді."]),
    ("pl", "W 2004 r. Polska weszła do Unii.", ["W 2004 r. Polska weszła do Unii."]),
    ("fr", "Lisez l'art. 9 du règlement.", ["Lisez l'art. 9 du règlement."]),
    ("it", "Leggi l'art. 7 del contratto.", ["Leggi l'art. 7 del contratto."]),
    ("de", "Das ist gem. § 4 zulässig.", ["Das ist gem. § 4 zulässig."]),
    ("pl", "Zebrali 3 tys. zł na cel.", ["Zebrali 3 tys. zł na cel."]),
    ("da", "Det kostede 2 mio. kr. i alt.", ["Det kostede 2 mio. kr. i alt."]),
    # An abbreviation that ends a compound (German "-str." for "-straße").
    ("de", "Wir wohnen in der Lindenstr. 8 im Hof. Klingeln!",
     ["Wir wohnen in der Lindenstr. 8 im Hof.", "Klingeln!"]),
    ("auto", "Das Büro ist in der Marktstr. 3 oben. Danke.",
     ["Das Büro ist in der Marktstr. 3 oben.", "Danke."]),
    ("de", "Wir bogen in die Lindenstr. Dann hielten wir.",
     ["Wir bogen in die Lindenstr.", "Dann hielten wir."]),
    ("de", "Sie wohnt in der Parkstr. 14. Komm vorbei.",
     ["Sie wohnt in der Parkstr. 14.", "Komm vorbei."]),
    # Dotted forms in any script.
    ("mr", "हे इ.स. १८५७ मध्ये घडले. नंतर शांतता आली.",
     ["हे इ.स. १८५७ मध्ये घडले.", "नंतर शांतता आली."]),
    # The second half of a spaced abbreviation ("p. ej.") is no plain word.
    ("auto", "Trae fruta, p. ej. uvas o peras.", ["Trae fruta, p. ej. uvas o peras."]),
    ("fr", "Prends des fruits, p. ex. des poires.", ["Prends des fruits, p. ex. des poires."]),
    ("pt", "Leve frutas, p. ex. uvas.", ["Leve frutas, p. ex. uvas."]),
    ("it", "Porta frutta, ad es. uva e pere.", ["Porta frutta, ad es. uva e pere."]),
    ("sk", "Pozdravil som p. Kováča. Usmial sa.", ["Pozdravil som p. Kováča.", "Usmial sa."]),
    ("mr", "डॉ. जोशी उद्या येतील. त्यांना भेटा.", ["डॉ. जोशी उद्या येतील.", "त्यांना भेटा."]),
    ("hi", "डॉ. वर्मा कल आएँगे। उनसे मिलो।", ["डॉ. वर्मा कल आएँगे।", "उनसे मिलो।"]),
    # Languages whose only rule is their script's terminators (and English's tables).
    ("am", "ዛሬ ወደ ገበያ ሄደ። ለምን ዘገየህ፧ ዋጋው 2.5 ብር ነው።",
     ["ዛሬ ወደ ገበያ ሄደ።", "ለምን ዘገየህ፧", "ዋጋው 2.5 ብር ነው።"]),
    ("fa", "قیمت ۲٫۵ تومان است. نسخهٔ 3.11 آمد؟ بله!",
     ["قیمت ۲٫۵ تومان است.", "نسخهٔ 3.11 آمد؟", "بله!"]),
    ("ur", "آج موسم اچھا ہے۔ Python 3.12 آ گیا ہے۔ واقعی؟",
     ["آج موسم اچھا ہے۔", "Python 3.12 آ گیا ہے۔", "واقعی؟"]),
    ("my", "ဒီနေ့ ရာသီဥတု ကောင်းတယ်။ ဈေးနှုန်း 3.5 ဒေါ်လာ ဖြစ်တယ်။",
     ["ဒီနေ့ ရာသီဥတု ကောင်းတယ်။", "ဈေးနှုန်း 3.5 ဒေါ်လာ ဖြစ်တယ်။"]),
    # A named language drops the English abbreviations that are its own words
    # (Danish "det", "maj"), and only English takes a word missing from the
    # tables for a plain word before a lower-case one.
    ("da", "Jeg ved det. Peter kom. Vi ses i maj. Mette kommer.",
     ["Jeg ved det.", "Peter kom.", "Vi ses i maj.", "Mette kommer."]),
    ("it", "Vedi pag. 12 e segg. per i dettagli.", ["Vedi pag. 12 e segg. per i dettagli."]),
    ("sk", "Stretneme sa o 10. hod. ráno. Príď.", ["Stretneme sa o 10. hod. ráno.", "Príď."]),
    ("en", "Use npm. npm is great.", ["Use npm.", "npm is great."]),
    # Abbreviations of addresses, firms, amounts and references; a day number
    # before a month's abbreviation is an ordinal in every language.
    ("ru", "Он живёт на просп. Мира. Там тихо.", ["Он живёт на просп. Мира.", "Там тихо."]),
    ("de", "Die Fa. Keller liefert. Gut so.", ["Die Fa. Keller liefert.", "Gut so."]),
    ("auto", "Er kam am 3. Okt. nach Hause. Wir freuten uns.",
     ["Er kam am 3. Okt. nach Hause.", "Wir freuten uns."]),
    ("da", "Vi har æbler, pærer mm. på lager. Firmaet voksede ift. sidste år.",
     ["Vi har æbler, pærer mm. på lager.", "Firmaet voksede ift. sidste år."]),
    ("es", "Lea la pág. 20 y sigs. Gracias. Abrimos a las 10 hs. Llegue antes.",
     ["Lea la pág. 20 y sigs.", "Gracias.", "Abrimos a las 10 hs.", "Llegue antes."]),
    ("nl", "Hij woont aan de Hoofdstr. 4. Hij is aardig.",
     ["Hij woont aan de Hoofdstr. 4.", "Hij is aardig."]),
    ("sk", "Stretli sme sa na ul. Dlhej pri škole.", ["Stretli sme sa na ul. Dlhej pri škole."]),
    ("pt", "Custa aprox. 5 reais. É barato.", ["Custa aprox. 5 reais.", "É barato."]),
    # References to a section or chapter before its number.
    ("es", "Consulta la secc. 4.2 del manual. Luego sigue.",
     ["Consulta la secc. 4.2 del manual.", "Luego sigue."]),
    ("ru", "Смотрите разд. 4.2 инструкции. Потом продолжайте.",
     ["Смотрите разд. 4.2 инструкции.", "Потом продолжайте."]),
    ("nl", "Lees hfst. 4 van het boek. Daarna verder.",
     ["Lees hfst. 4 van het boek.", "Daarna verder."]),
    ("auto", "Consulta la secc. 4.2 y el разд. 5 ahora.",
     ["Consulta la secc. 4.2 y el разд. 5 ahora."]),
    # Titles, places and years before a name: "г." (year or town) ends only
    # before a starter; a hyphenated title is its last part; "auto" takes no
    # month name for another language's abbreviation.
    ("it", "Egr. Dott. Bianchi, ecco il testo. Mons. Verdi è uscito.",
     ["Egr. Dott. Bianchi, ecco il testo.", "Mons. Verdi è uscito."]),
    ("ru", "Это было в 1990 г. Потом всё изменилось. Он живёт в г. Твери.",
     ["Это было в 1990 г.", "Потом всё изменилось.", "Он живёт в г. Твери."]),
    ("ru", "Пришёл тов. Иванов. Он опоздал.", ["Пришёл тов. Иванов.", "Он опоздал."]),
    ("es", "El Excmo. Sr. Alcalde llegó. Todos aplaudieron.",
     ["El Excmo. Sr. Alcalde llegó.", "Todos aplaudieron."]),
    ("da", "Han bor i Skt. Petersborg. Det er koldt.",
     ["Han bor i Skt. Petersborg.", "Det er koldt."]),
    ("de", "Herr Dipl.-Ing. Schulz plant das Haus. Es war 50 v. Chr. in Rom.",
     ["Herr Dipl.-Ing. Schulz plant das Haus.", "Es war 50 v. Chr. in Rom."]),
    ("auto", "Wir treffen uns am Mo. 5. Mai. Bis dann.",
     ["Wir treffen uns am Mo. 5. Mai.", "Bis dann."]),
    # An abbreviation joined to another by an en dash or a slash (a range or
    # a choice) is read by its last part, as after a hyphen; a title there
    # ends a sentence before a sentence starter.
    ("de", "Die Praxis hat Mo.\u2013Fr. 8\u201318 Uhr offen. Sa./So. 10 Uhr ist Notdienst.",
     ["Die Praxis hat Mo.\u2013Fr. 8\u201318 Uhr offen.", "Sa./So. 10 Uhr ist Notdienst."]),
    ("auto", "Sie hat Mo.\u2013Fr. 8 Uhr Dienst. Wir sind Mo.-Fr. Am Wochenende frei.",
     ["Sie hat Mo.\u2013Fr. 8 Uhr Dienst.", "Wir sind Mo.-Fr.", "Am Wochenende frei."]),
    ("de", "Die 1.\u20134. Klasse turnt zuerst. Frau Dr.\u2011Ing. Kern leitet es.",
     ["Die 1.\u20134. Klasse turnt zuerst.", "Frau Dr.\u2011Ing. Kern leitet es."]),
    ("es", "La tienda abre lun.\u2013sáb. 10 h. Cierra dom.",
     ["La tienda abre lun.\u2013sáb. 10 h.", "Cierra dom."]),
    ("en", "The desk is open Tue./Thu. 9 a.m. to noon. Call ahead.",
     ["The desk is open Tue./Thu. 9 a.m. to noon.", "Call ahead."]),
    # An era written spaced after a year: its first letter is no unit.
    ("es", "Cicerón nació en el 106 a. C. en Arpino. Murió en el 43 a. C. Luego vino Augusto.",
     ["Cicerón nació en el 106 a. C. en Arpino.", "Murió en el 43 a. C.",
      "Luego vino Augusto."]),
    ("it", "Virgilio morì nel 19 a. C. a Brindisi. Il poema restò incompiuto.",
     ["Virgilio morì nel 19 a. C. a Brindisi.", "Il poema restò incompiuto."]),
    ("pt", "O imperador morreu em 180 d. C. em Viena. Depois veio Cômodo.",
     ["O imperador morreu em 180 d. C. em Viena.", "Depois veio Cômodo."]),
    ("auto", "Pompeya quedó sepultada en el 79 d. C. por el Vesubio.",
     ["Pompeya quedó sepultada en el 79 d. C. por el Vesubio."]),
    ("en", "The rope is 12 m. Ahead is the gate. Add 5 g. Then stir.",
     ["The rope is 12 m.", "Ahead is the gate.", "Add 5 g.", "Then stir."]),
    # German "oder/und Ähnliches" closes a list and may end a sentence.
    ("de", "Nimm Quark, Joghurt o. Ä. Dann rühre alles um. Honig o. ä. Sirupe süßen.",
     ["Nimm Quark, Joghurt o. Ä.", "Dann rühre alles um.", "Honig o. ä. Sirupe süßen."]),
    ("auto", "Er sammelt Münzen, Briefmarken u.Ä. Das kostet Zeit.",
     ["Er sammelt Münzen, Briefmarken u.Ä.", "Das kostet Zeit."]),
    # Titles, places, laws and amounts of each language's tables.
    ("it", "Vedi il d.lgs. Rossi. Il Magg. Bianchi è qui.",
     ["Vedi il d.lgs. Rossi.", "Il Magg. Bianchi è qui."]),
    ("ru", "Зав. кафедрой Петров выступил. Нач. отдела ушёл.",
     ["Зав. кафедрой Петров выступил.", "Нач. отдела ушёл."]),
    ("es", "El Gral. Pérez habló. Los Hnos. García abrieron.",
     ["El Gral. Pérez habló.", "Los Hnos. García abrieron."]),
    ("da", "Fhv. minister Hansen talte. Alle lyttede.",
     ["Fhv. minister Hansen talte.", "Alle lyttede."]),
    ("de", "Er ist am 3. Mai gest. Wir trauern. Anna, geb. Müller, kam.",
     ["Er ist am 3. Mai gest.", "Wir trauern.", "Anna, geb. Müller, kam."]),
    ("bg", "Той живее на бул. Витоша. Това струва 5 лв. Евтино е.",
     ["Той живее на бул. Витоша.", "Това струва 5 лв.", "Евтино е."]),
    ("pl", "Płk. Nowak przyszedł. Był zmęczony.", ["Płk. Nowak przyszedł.", "Był zmęczony."]),
    ("nl", "Mw. Jansen komt morgen. Ze is aardig.", ["Mw. Jansen komt morgen.", "Ze is aardig."]),
    ("pt", "O Cel. Souza chegou. Todos saudaram.", ["O Cel. Souza chegou.", "Todos saudaram."]),
    ("fr", "La ville compte 500 000 hab. Elle grandit.",
     ["La ville compte 500 000 hab.", "Elle grandit."]),
    ("el", "Ο καθ. Παπαδόπουλος μίλησε. Όλοι άκουσαν.",
     ["Ο καθ. Παπαδόπουλος μίλησε.", "Όλοι άκουσαν."]),
    ("hi", "प्रो. शर्मा आए। सबने सुना।", ["प्रो. शर्मा आए।", "सबने सुना।"]),
    ("sk", "Plk. Novák prišiel. Bol unavený.", ["Plk. Novák prišiel.", "Bol unavený."]),
    ("kk", "Доц. Серікбаев келді. Бәрі тыңдады.", ["Доц. Серікбаев келді.", "Бәрі тыңдады."]),
    ("auto", "Keep it in mind. The rest is easy.", ["Keep it in mind.", "The rest is easy."]),
    # Polish titles, references and amounts.
    ("pl", "Ks. Nowak i św. Anna. Zob. rozdz. 3. Tam jest wszystko.",
     ["Ks. Nowak i św. Anna.", "Zob. rozdz. 3.", "Tam jest wszystko."]),
    ("pl", "Zgodnie z art. 5 ust. 2 pkt 3 ustawy. Koszt to 50 gr. Mało.",
     ["Zgodnie z art. 5 ust. 2 pkt 3 ustawy.", "Koszt to 50 gr.", "Mało."]),
    ("pl", "Pełnomocnik ds. Kadr przyszedł. Jan (ur. 1950 r.) milczał.",
     ["Pełnomocnik ds. Kadr przyszedł.", "Jan (ur. 1950 r.) milczał."]),
    # References of German answers: a section, an appendix, "and the following".
    ("de", "Siehe Abschn. 3 und Anh. B. Dort steht es.",
     ["Siehe Abschn. 3 und Anh. B.", "Dort steht es."]),
    ("de", "Das regeln §§ 823 ff. BGB. Lies S. 12 ff. Dort steht mehr.",
     ["Das regeln §§ 823 ff. BGB.", "Lies S. 12 ff.", "Dort steht mehr."]),
    # "auto" reads Polish "np." (for example) and "ul." (street), no English words, as
    # MEDIAL: a sentence starter after one still opens a sentence.
    ("auto", "Kup owoce, np. jabłka. Mieszkam przy ul. Długiej 5. Dziękuję.",
     ["Kup owoce, np. jabłka.", "Mieszkam przy ul. Długiej 5.", "Dziękuję."]),
    ("auto", "Import numpy as np. Then call it.", ["Import numpy as np.", "Then call it."]),
    # "auto" leaves short abbreviations of other languages, and those that are
    # English words, out of its table, but none of them is a plain word: a
    # lower-case word after one goes on.
    ("auto", "Nel cesto metto frutta, ad es. fichi e uva.",
     ["Nel cesto metto frutta, ad es. fichi e uva."]),
    ("auto", "Lejen er 4.000 kr. inkl. varme. Skriv til mig.",
     ["Lejen er 4.000 kr. inkl. varme.", "Skriv til mig."]),
    ("auto", "Bilet kosztuje ok. dwudziestu złotych.", ["Bilet kosztuje ok. dwudziestu złotych."]),
    ("auto", "Lies S. 40 ff. und dann Kap. 2.", ["Lies S. 40 ff. und dann Kap. 2."]),
    ("auto", "Nació el 9 de mar. de 1950 en Lima.", ["Nació el 9 de mar. de 1950 en Lima."]),
    ("auto", "Run it with pip. pip then installs it.",
     ["Run it with pip.", "pip then installs it."]),
    # An abbreviation two languages give different kinds ends only before a
    # sentence starter in "auto": Polish "dr hab." (a title), French "hab."
    # (inhabitants), Russian "т.н." (so-called), Bulgarian "т.н." (and so on).
    ("auto", "Wykład prowadził dr hab. Zieliński z Krakowa.",
     ["Wykład prowadził dr hab. Zieliński z Krakowa."]),
    ("auto", "La commune compte 8 000 hab. Elle est calme.",
     ["La commune compte 8 000 hab.", "Elle est calme."]),
    ("auto", "Это т.н. Золотой век. Купихме хляб, сирене и т.н. Това е всичко.",
     ["Это т.н. Золотой век.", "Купихме хляб, сирене и т.н.", "Това е всичко."]),
    # A Spanish title: "Pdte."/"Pdta." (president).
    ("es", "El Pdte. Sánchez habló. La Pdta. Gómez calló.",
     ["El Pdte. Sánchez habló.", "La Pdta. Gómez calló."]),
    ("auto", "El Pdte. Sánchez habló. Todos callaron.",
     ["El Pdte. Sánchez habló.", "Todos callaron."]),
    # Spanish phone labels ("Tfno.", "Telf.", "Telef.") before their number.
    ("es", "Tfno. 912 345 678 o Telf. 600 111 222. Llame ya.",
     ["Tfno. 912 345 678 o Telf. 600 111 222.", "Llame ya."]),
    ("auto", "Telef. 912 345 678. Llame ya.", ["Telef. 912 345 678.", "Llame ya."]),
    # Greek times of day ("π.μ.", "μ.μ.": a.m., p.m.) end a sentence before a capital.
    ("el", "Έφυγα στις 7 π.μ. Βρέχει ακόμα. Γύρισα στις 5 μ.μ. Πρέπει να φάω.",
     ["Έφυγα στις 7 π.μ.", "Βρέχει ακόμα.", "Γύρισα στις 5 μ.μ.", "Πρέπει να φάω."]),
    # A dotted form whose letters carry vowel signs (Hindi "बी.ए.", "ई.पू.") is one too.
    ("hi", "वह बी.ए. पास है। यह 300 ई.पू. की बात है।",
     ["वह बी.ए. पास है।", "यह 300 ई.पू. की बात है।"]),
    ("auto", "वह बी.ए. पास है। यह 300 ई.पू. की बात है।",
     ["वह बी.ए. पास है।", "यह 300 ई.पू. की बात है।"]),
    # Pronouns, possessives and forms of "to be" and "to have" open sentences.
    ("de", "Das war im 19. Jh. Niemand wusste es.", ["Das war im 19. Jh.", "Niemand wusste es."]),
    ("da", "Det koster 2 mio. Ingen betaler det.", ["Det koster 2 mio.", "Ingen betaler det."]),
    ("es", "Llegamos el 3 de feb. Nadie estaba allí.",
     ["Llegamos el 3 de feb.", "Nadie estaba allí."]),
    ("pt", "Chegamos em 3 de fev. Tudo estava fechado.",
     ["Chegamos em 3 de fev.", "Tudo estava fechado."]),
    ("fr", "Nous sommes arrivés en févr. Personne n'était là.",
     ["Nous sommes arrivés en févr.", "Personne n'était là."]),
    ("it", "Siamo arrivati a feb. Nessuno era lì.", ["Siamo arrivati a feb.", "Nessuno era lì."]),
    ("nl", "Het kost 2 mln. Wat vind jij?", ["Het kost 2 mln.", "Wat vind jij?"]),
    ("pl", "To było w 1989 r. Wszyscy to pamiętają.",
     ["To było w 1989 r.", "Wszyscy to pamiętają."]),
    ("ru", "Это было в 1990 г. Никто не знал.", ["Это было в 1990 г.", "Никто не знал."]),
    ("bg", "Това беше през 1990 г. Никой не знаеше.",
     ["Това беше през 1990 г.", "Никой не знаеше."]),
    ("sk", "Stalo sa to o 10 hod. Nikto neprišiel.", ["Stalo sa to o 10 hod.", "Nikto neprišiel."]),
    ("el", "Ήρθε τον 5ο αι. μ.Χ. Κανείς δεν ξέρει.", ["Ήρθε τον 5ο αι. μ.Χ.", "Κανείς δεν ξέρει."]),
    ("kk", "Бұл 1991 ж. болды, 5 млн. Бәрі қуанды.", ["Бұл 1991 ж. болды, 5 млн.", "Бәрі қуанды."]),
    # A number before a sentence starter of two letters or more is no ordinal.
    ("de", "Die Antwort ist 42. Das heißt viel.", ["Die Antwort ist 42.", "Das heißt viel."]),
    ("da", "Se side 5. Der står det.", ["Se side 5.", "Der står det."]),
    ("sk", "Výsledok je 12. To je veľa.", ["Výsledok je 12.", "To je veľa."]),
    ("sk", "Chodí do 5. A triedy.", ["Chodí do 5. A triedy."]),
    ("de", "Er kam zum 2. Mal zu uns.", ["Er kam zum 2. Mal zu uns."]),
    # In "auto", a number after a word of ORDINAL_LEADS ("zum", "im", "den")
    # is an ordinal before a capitalised word, not only before a month; "I
    # am 12. The" still ends ("am" is English too, no lead).
    ("auto", "Er kam zum 2. Mal. Sie wohnt im 3. Stock. Er belegte den 4. Platz.",
     ["Er kam zum 2. Mal.", "Sie wohnt im 3. Stock.", "Er belegte den 4. Platz."]),
    ("auto", "I am 12. The others are older. Er ist im 5. Das war gut.",
     ["I am 12.", "The others are older.", "Er ist im 5.", "Das war gut."]),
    # An era written spaced ("v. Chr.", "f. Kr.") is one abbreviation: its
    # first letter after a year is no unit ("auto" read "44 v." as volts).
    ("auto", "Caesar starb 44 v. Chr. Er war alt.", ["Caesar starb 44 v. Chr.", "Er war alt."]),
    ("auto", "Das war um 300 n. Chr. in Rom. Gut.", ["Das war um 300 n. Chr. in Rom.", "Gut."]),
    ("da", "Han døde 44 f. Kr. Augustus fulgte efter.",
     ["Han døde 44 f. Kr.", "Augustus fulgte efter."]),
    ("auto", "Byen faldt 30 e. Kr. Ingen flygtede.", ["Byen faldt 30 e. Kr.", "Ingen flygtede."]),
    ("auto", "The bulb takes 12 v. The rest is fine.",
     ["The bulb takes 12 v.", "The rest is fine."]),
    # An inverted mark glued to a terminator run (and its closers) opens the
    # next sentence, in every language: decided as with a space before it.
    ("es", "Llegó tarde.¿Por qué?", ["Llegó tarde.", "¿Por qué?"]),
    ("es", "¿Vienes?¡Sí!", ["¿Vienes?", "¡Sí!"]),
    ("auto", "¿Vienes?¡Sí!", ["¿Vienes?", "¡Sí!"]),
    ("auto", "Dijo «basta.»¿Y ahora?", ["Dijo «basta.»", "¿Y ahora?"]),
    ("en", "We won!¡Olé!", ["We won!", "¡Olé!"]),
    ("es", "Esperé mucho...¡Por fin!", ["Esperé mucho...", "¡Por fin!"]),
    ("es", "Habló el Sr. ¿Quién? El Sr.¿Quién?", ["Habló el Sr. ¿Quién?", "El Sr.¿Quién?"]),
    # An ASCII "!" or "?" right after a kana or ideograph ends a sentence as
    # its full-width form does, no space needed; not after a Latin letter.
    ("ja", "すごい!次は何?", ["すごい!", "次は何?"]),
    ("auto", "すごい!次は何?", ["すごい!", "次は何?"]),
    ("zh", "真的吗?我不信!走吧。", ["真的吗?", "我不信!", "走吧。"]),
    ("auto", "雨だ!?傘を持って。Wow!次", ["雨だ!?", "傘を持って。", "Wow!次"]),
    # A lower-case word starts a sentence only after a plain word ("npm").
    ("auto", "Wear a hat, e.g. a wide one. Use npm. npm is great.",
     ["Wear a hat, e.g. a wide one.", "Use npm.", "npm is great."]),
    # Chinese and Japanese set a Latin word right after a kana or ideograph:
    # an abbreviation glued so is still one ("叫Dr. Wang" goes on); a word of
    # the tables only, not a letter ("是B. 然后" ends) nor a plain word.
    ("zh", "我们采访了Dr. Wang，他很忙。参见Fig. 3的数据。",
     ["我们采访了Dr. Wang，他很忙。", "参见Fig. 3的数据。"]),
    ("auto", "他在U.S. Army服役。然后回国了。", ["他在U.S. Army服役。", "然后回国了。"]),
    ("ja", "昨日はMr. Tanakaに会った。彼は元気だ。",
     ["昨日はMr. Tanakaに会った。", "彼は元気だ。"]),
    ("auto", "答案是B. 然后看下一题。使用mkdir. Then go.",
     ["答案是B.", "然后看下一题。", "使用mkdir.", "Then go."]),
]  # fmt: skip


@pytest.mark.parametrize(("language", "text", "sentences"), EXAMPLES)
def test_language_rules(language: str, text: str, sentences: list[str]) -> None:
    chunker = SentenceChunker(language=language)
    assert chunker.split_text(text) == sentences
    # Streamed one character at a time: the same sentences.
    chunks = [p.chunk for p in stream(chunker, list(text)) if p.chunk is not None]
    assert chunks == sentences


def test_a_typed_terminator_is_no_letter_of_its_script() -> None:
    # A mark after the terminator another mark became stays a mark, in any slicing.
    for letters, mark, term in SCRIPT_TYPED:
        assert re.fullmatch(f"[{letters}]", term) is None, term
        assert re.fullmatch(f"[{letters}]", mark) is None, mark
        # (The scanner skips a text of Latin-1 only: no letter may be there.)
        assert re.search(f"[{letters}]", "".join(map(chr, range(256)))) is None


def test_the_language_is_checked_and_named() -> None:
    with pytest.raises(ValueError, match=r"language='xx' is not a supported language"):
        SentenceChunker(language="xx")
    with pytest.raises(TypeError, match=r"language must be a language code.*int"):
        SentenceChunker(language=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"language must be"):
        SentenceChunker(language=["de"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"language='de' applies to mode='accurate' only"):
        SentenceChunker(mode="simple", language="de")
    assert SentenceChunker(mode="simple", language="auto").mode == "simple"


def test_language_codes_are_normalised_and_shown() -> None:
    chunker = SentenceChunker(language=" DE ")
    assert chunker.language == "de"
    assert repr(chunker) == "SentenceChunker(mode='accurate', language='de')"
    assert chunker == SentenceChunker(language="de") != SentenceChunker()
    assert repr(SentenceChunker()) == "SentenceChunker(mode='accurate')"
    added = SentenceChunker(language="de", abbreviations=["Abk."])
    assert added.abbreviations == frozenset({"abk"})  # "bzw" is the language's own


# Tokens of every script, with terminators, closers, list markers and numbers.
TOKENS = [
    "Wort", "und", "Juni", "12", "3", "z.", "B.", "bzw.", "Co.", "Det", "napr.", "проф.", "Иванов",
    "т.б.", "Srta.", "l'Avv.", "N°.", "[...]", "Ես", "գնում", "हूँ", "هل", "Πού", "κ.", "価格",
    "３．２", "ｅｘ．ｃｏｍ", "《好！》", "「はい。」と", "1.", "2.)", "•", "⁃9.", "a.)", "b.)",
    "npm", "e.g.", "10。0。1", "Jo．Ann@", "x。co。Uk", "Nr.", "5", "p.", "m.", "ex.", "डॉ.",
    "Okt.", "det.", "segg.", "Ｑ．", "Ｎ．Ｙ．", "Ｘ", "😊", "| a.", "2 hrs.", "'90s", "Dipl.-Ing.",
    "ነው", "မိုး", "१", "၇", "１．", "1２．", "Mo.\u2013Fr.", "Sa./", "1.\u2013", "63 a.", "C.",
    "o.", "Ä.",
]  # fmt: skip
MARKS = [
    "", "", ".", "!", "?", ":", ";", ";;", "»:", "։", "।", "؟", "。", "．", "“", "»", '."', "...",
    "‼", "။", "።",
]  # fmt: skip
GAPS = [" ", " ", "", "\n", "\n\n", " - ", "\u3000", "\r\n"]
texts = st.lists(
    st.tuples(st.sampled_from(TOKENS), st.sampled_from(MARKS), st.sampled_from(GAPS)).map("".join),
    max_size=30,
).map("".join) | st.text(max_size=80)


@pytest.mark.parametrize("language", ALL)
@given(case=sliced(texts))
def test_every_language_is_lossless_and_delta_invariant(
    language: str, case: tuple[str, list[str]]
) -> None:
    check_stream(SentenceChunker(language=language), *case)


def many_scripts(size: int) -> str:
    """A deterministic text of ``size`` characters mixing every script's
    words, terminators, list markers and numbers."""
    words = [t for t in TOKENS if t.strip()]
    out: list[str] = []
    total = 0
    for i in itertools.count():
        piece = words[i * 7 % len(words)] + MARKS[i * 5 % len(MARKS)]
        piece += GAPS[i * 3 % len(GAPS)]
        out.append(piece)
        total += len(piece)
        if total >= size:
            break
    return "".join(out)[:size]


KB = 1000


@pytest.mark.parametrize("language", ALL)
def test_streaming_work_grows_linearly_in_every_language(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    text = many_scripts(200 * KB)
    chunker = SentenceChunker(language=language)
    one, two = stream_work(monkeypatch, chunker, text, (100 * KB, 200 * KB))
    assert one.calls > 0, "no pattern was counted: the proxies are not in use"
    assert two.total / one.total <= MAX_DOUBLING, (one, two)
    assert two.total <= MAX_WORK_PER_CHAR * 200 * KB, two


@pytest.mark.parametrize("unit", ["Ա:", "Ա»»:", "ύ;", "Ա: ", "é:"])
@pytest.mark.parametrize("size", [1, 3, 64, None], ids=["1", "3", "64", "whole"])
def test_typed_terminators_cost_linear_work(
    monkeypatch: pytest.MonkeyPatch, unit: str, size: int | None
) -> None:
    # Runs of marks after letters of their script, cut at every delta end:
    # the typed-terminator searches read each character a bounded number of times.
    work = Work()
    counted = tuple((CountingPattern(p, work), term) for p, term in scanning._TYPED)
    monkeypatch.setattr(scanning, "_TYPED", counted)

    def examined(n: int) -> int:
        work.examined = 0
        text = unit * (n // len(unit))
        step = size or len(text)
        stream = ChunkStream(SentenceChunker())
        for i in range(0, len(text), step):
            stream.feed(text[i : i + step])
        stream.close()
        return work.examined

    one, two = examined(10 * KB), examined(20 * KB)
    assert two <= MAX_DOUBLING * max(one, 1), (one, two)
    assert two <= 2 * len(scanning._TYPED) * 20 * KB, two


@pytest.mark.parametrize(
    "unit",
    [
        "Hi! 😊", "a. " + "😊" * 16, "x. 😊 \n", "| a. ", "2 hrs. ", "Ｑ．", "ＡＢ．", "'9 ",
        "ist 42. Das ", "isn't. Try ", "'til 'ti ", "is B. Paris ", "Goed. 's Avonds ",
        "Ja. 'seventie", "a.[^12] ", "a.[^", "a.\u00b9\u00b2 ", "or C. C ",
        "Hi!\U0001f60a\U0001f3fd ", "a.\U0001f642", "\u12a0\u12a0\u12a0\u1362",
        "\u0915\u0916\u0917\u0918\u0964", "EE. UU. ", "EE. ", "Mo.\u2013Fr. 9 ", "Sa./So./",
        "63 a. C. en ", "o. \u00c4. Dann ", "44 v. Chr. Er ", "44 v. Chr", "zum 2. Mal ", "im 3. ",
    ],
)  # fmt: skip
@pytest.mark.parametrize("size", [1, 3, 64], ids=["1", "3", "64"])
def test_this_sessions_rules_cost_linear_work(
    monkeypatch: pytest.MonkeyPatch, unit: str, size: int
) -> None:
    # Runs of what the emoji, table, unit, full-width label, apostrophe,
    # ordinal, contraction, elided-word, letter, sentence-opening elision,
    # footnote-reference, superscript, glued emoji, unspaced script
    # terminator and doubled-capital rules read, cut at every
    # delta end: every pattern the scanner and its rules reach is counted,
    # and doubling the text at most doubles it.
    text = unit * (200 * KB // len(unit))
    chunker = SentenceChunker(language="de" if "Das" in unit else "auto")
    one, two = stream_work(monkeypatch, chunker, text, (len(text) // 2, len(text)), size)
    assert one.calls > 0
    assert two.examined / max(one.examined, 1) <= MAX_DOUBLING, (one, two)
    # (A full-width dot between Latin letters reads around itself for an
    # address, at most 64 characters ahead and 32 back: bounded, not small.
    # A period before "[", which may open a footnote mark, is a candidate the
    # rules decide: a 64-character delta of them makes a call for each, and
    # each call counts the rest of the window, as examined.)
    cap = MAX_WORK_PER_CHAR * (4 if "．" in unit or ".[" in unit else 1)
    assert two.examined <= cap * len(text), two


def test_a_validator_takes_a_language_through_its_chunker() -> None:
    # NoRepetition on German sentences: "am 3. Mai" does not end one, so the
    # repeated sentence is the whole date sentence, streamed or at once.
    from helpers.guardrails import guard_with, joined, run

    from guardrails_ai.chunkwise import NoRepetition

    text = "Wir kommen am 3. Mai an. Wir kommen am 3. Mai an. Bis dann."
    german = NoRepetition(chunker=SentenceChunker(language="de"), on_fail="fix")
    guard = guard_with(german)
    once = guard.validate(text).validated_output
    assert once == "Wir kommen am 3. Mai an.  Bis dann."  # (the repeat is dropped, its space kept)
    deltas = [text[i : i + 5] for i in range(0, len(text), 5)]
    assert joined(run(guard, deltas)) == once


def test_german_sentence_starts_reach_a_validator_through_every_guard() -> None:
    # "Dort" (an adverb) opens a sentence after an ordinal, and a label after
    # another abbreviation makes "3." a count: the repeated sentences are
    # found at once, streamed, and through an AsyncGuard rebuilt from its dict.
    import asyncio

    from guardrails import AsyncGuard
    from helpers.guardrails import arun, guard_with, joined, run

    from guardrails_ai.chunkwise import NoRepetition

    text = (
        "Er wurde 3. Dort blieb er. Sie wurde 4. Dort blieb er. "
        "Lies bzw. Kap. 3. Bilder helfen. Lies bzw. Kap. 3. Bilder helfen."
    )
    want = "Er wurde 3. Dort blieb er. Sie wurde 4.  Lies bzw. Kap. 3. Bilder helfen.  "
    deltas = [text[i : i + 3] for i in range(0, len(text), 3)]
    guard = guard_with(NoRepetition(language="de", on_fail="fix"))
    assert guard.validate(text).validated_output == want
    assert joined(run(guard, deltas)) == want
    async_guard = guard_with(NoRepetition(language="de", on_fail="fix"), asynchronous=True)
    rebuilt = AsyncGuard.from_dict(async_guard.to_dict())
    assert joined(asyncio.run(arun(rebuilt, deltas))) == want  # type: ignore[arg-type]


def test_a_spaced_era_reaches_a_validator_whole_through_a_guard() -> None:
    # "44 v. Chr." is one abbreviation in "auto" (the default): the sentence
    # after it is the one repeated, found at once and streamed.
    from helpers.guardrails import guard_with, joined, run

    from guardrails_ai.chunkwise import NoRepetition

    text = "Caesar starb 44 v. Chr. Er war alt. Er war alt. Gut."
    guard = guard_with(NoRepetition(on_fail="fix"))
    want = "Caesar starb 44 v. Chr. Er war alt.  Gut."
    assert guard.validate(text).validated_output == want
    deltas = [text[i : i + 2] for i in range(0, len(text), 2)]
    assert joined(run(guard, deltas)) == want


def test_an_ordinal_after_a_lead_reaches_a_validator_whole_through_a_guard() -> None:
    # "auto" (the default) reads "im 3. Stock" as an ordinal: the repeated
    # sentence is the whole one, found at once and streamed.
    from helpers.guardrails import guard_with, joined, run

    from guardrails_ai.chunkwise import NoRepetition

    text = "Sie wohnt im 3. Stock. Sie mag den 3. Stock. Er wohnt im 3. Stock."
    guard = guard_with(NoRepetition(on_fail="fix"))
    want = text
    assert guard.validate(text).validated_output == want
    deltas = [text[i : i + 2] for i in range(0, len(text), 2)]
    assert joined(run(guard, deltas)) == want
