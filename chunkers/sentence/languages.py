# ruff: noqa: RUF001, RUF002
# (The tables hold words of other scripts, some of whose letters look Latin.)
"""Per-language data for accurate sentence chunking: ``SentenceChunker(language=...)``.

A :class:`Language` is data only, read by the rules of :mod:`.rules`:

* ``abbreviations``: canonical form (see :mod:`.abbreviations`) -> kind
  (``PREFIX`` never ends a sentence, ``FINAL`` ends it before a capitalised
  word, ``MEDIAL`` before a capitalised sentence starter);
* ``starters``: lower-case words that typically open a sentence (after a
  ``MEDIAL`` abbreviation or an initial, a capitalised starter begins a new
  sentence: ``in the U.S. Det var`` splits in Danish);
* ``ordinals``: what a period after a number of one or two digits means before
  a capitalised word: :data:`ORDINAL_ALWAYS` (German, Danish, Slovak...: ``am
  12. Juni``, ``der 3. Platz`` never end there), :data:`ORDINAL_MONTHS` (only
  before a month name of any language: ``vom 12. Juni``), or
  :data:`ORDINAL_NEVER`; "auto" reads :data:`ORDINAL_AFTER_LEADS`: the
  month rule, and any other capitalised word after one of
  :data:`ORDINAL_LEADS` and the number (``zum 2. Mal``, ``im 3. Stock``);
* ``ordinal_leads``: words that come before an ordinal of the language and
  no count ending a sentence, and are no word of another language that may
  (German ``zum``, ``im``, ``den``; not ``am``: ``I am 12. The``);
* ``continuations``: lower-case words that never open a sentence, written
  Capitalised or in upper case after a terminator (``language="en"`` has
  none; a language whose ``And`` or ``Und`` never starts a sentence would list
  it); "auto" and every language take English's too;
* ``compounds``: abbreviations that also end compound words, which are then
  that abbreviation (German ``Hauptstr. 5`` is ``str.``, a street);
* ``plain_words``: whether a word missing from the tables (two ASCII
  lower-case letters or more) ends a sentence before a lower-case word
  (``Use npm. npm is great.``): English and "auto" only, where a sentence
  may begin with a lower-case name; in the other languages an abbreviation
  missing from the tables is likelier (``pag. 12 e segg. per``);
* ``foreign``: in "auto", the abbreviations of other languages left out of
  its table (English words, month names, two letters or fewer), which are no
  plain words either: ``ad es. mele``, ``200 kr. inkl. moms`` go on;
* ``translate``: characters that this language writes as a terminator and
  others do not, mapped one to one onto the terminator they stand for before
  the text is scanned (Armenian ``:`` is ``։``, Greek ``;`` is ``;``); the
  offsets, and so the chunks, stay those of the original text.

Terminators of every script (:data:`SCRIPT_TERMINATORS`: Armenian ``։``,
Devanagari ``।`` ``॥``, Arabic ``؟`` ``۔``, Ethiopic ``።`` ``፧``, Myanmar
``။``, the Greek question mark, ``‼`` ``⁇`` ``⁈`` ``⁉``) end a sentence like
``!`` in every language: none of them means anything else.  Those of
:data:`.marks.UNSPACED_SCRIPT_TERMINATORS` (all but ``‼`` ``⁇`` ``⁈`` ``⁉``)
end one with no whitespace after them too, between two characters above
U+00FF (Burmese and Ethiopic text often sets no space).

``language="auto"`` (the default) is safe for mixed text: the marks of
:data:`SCRIPT_TYPED` right after a letter of their script, the English tables
extended by the abbreviations of every other language that are no English word
(``bzw``, ``Srta``, ``проф``...; not ``Set`` or ``on``; ``MEDIAL`` where two
languages give one different kinds: ``hab``), the starters of every
language, and the month rule for ordinals.  A named language uses its own
tables plus the English ones (LLM answers mix in English names and terms),
less the English abbreviations that are words of the language: its starters
and month names (Danish ``det``, ``med``, ``maj``: ``Jeg ved det. Peter kom.``
ends).

To add a language: one :class:`Language` entry in :data:`_SPECS` below
(abbreviations by kind, starters, the ordinal rule), then examples of your own
in ``tests/chunkers/test_sentence_languages.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from .abbreviations import (
    DEFAULT_ABBREVIATIONS,
    FINAL,
    MEDIAL,
    PREFIX,
    SENTENCE_STARTERS,
)
from .marks import SCRIPT_TERMINATORS

__all__ = [
    "AUTO",
    "LANGUAGES",
    "MONTHS",
    "MONTH_ABBREVIATIONS",
    "ORDINAL_AFTER_LEADS",
    "ORDINAL_ALWAYS",
    "ORDINAL_LEADS",
    "ORDINAL_MONTHS",
    "ORDINAL_NEVER",
    "SCRIPT_TERMINATORS",
    "SCRIPT_TYPED",
    "Language",
    "language",
]


ORDINAL_NEVER, ORDINAL_MONTHS, ORDINAL_ALWAYS, ORDINAL_AFTER_LEADS = range(4)

AUTO = "auto"


@dataclass(frozen=True)
class Language:
    """The tables the sentence rules read for one language (see the module docstring)."""

    code: str
    abbreviations: Mapping[str, int]
    starters: frozenset[str]
    ordinals: int
    translate: Mapping[int, int]
    continuations: frozenset[str] = frozenset()
    compounds: frozenset[str] = frozenset()
    plain_words: bool = False
    foreign: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Spec:
    prefix: str = ""
    final: str = ""
    medial: str = ""
    starters: str = ""
    ordinals: int = ORDINAL_NEVER
    translate: str = ""  # pairs: "ab" maps "a" to "b"
    months: str = ""
    continuations: str = ""
    compounds: str = ""
    plain_words: bool = False
    ordinal_leads: str = ""


_SPECS: dict[str, _Spec] = {
    "en": _Spec(plain_words=True),
    "de": _Spec(
        prefix="hr hrn fr frl dr prof dipl ing z.b bzw vgl ca evtl ggf inkl zzgl bspw sog"
        " d.h u.a z.t abs gem fa gebr dt hl mind zw allg bes insb"
        " urspr zit abt kfm"
        # Prepositions, which govern the noun after them ("bzgl. Ihrer Frage").
        " bzgl exkl ggü",
        # Eras end a sentence before a capital, also written spaced: "44 v.
        # Chr. Er" (no unit "v." after a year, no title "Chr." of Danish).
        final="usw etc nr usf v.chr n.chr",
        medial="str tel jh jhd mio mrd tsd hrsg bd s v n febr mär okt dez anm aufl ausg bearb"
        " hbf kap geb gest verh verw abschn anh ff"
        # "oder/und Ähnliches" ends a list, "o. ä. Produkte" goes on.
        " o.ä u.ä",
        compounds="str",
        starters="der die das den dem ein eine es er sie wir ich ihr aber und doch dann"
        " danach dies diese dieser heute morgen im am auf mit nach wenn als auch so da was"
        " wie wo warum wer man nun jetzt bitte ja nein"
        # Adverbs, conjunctions, prepositions and determiners: never nouns, so
        # capitalised only where a sentence opens ("Siehe Kap. 3. Dort steht es.").
        " hier dort deshalb daher darum deswegen trotzdem außerdem zudem leider zuerst"
        " zunächst später gestern damals allerdings jedoch vielleicht natürlich sonst dabei"
        " dazu dafür davon darauf damit seitdem inzwischen schließlich endlich plötzlich"
        " anschließend übrigens stattdessen immerhin sogar bereits schon noch oft manchmal"
        " immer nie nicht aus durch für gegen ohne unter über vor zum zur zwischen seit"
        " während wegen trotz mein meine unser unsere dieses jeder jede jedes alle viele"
        " einige kein keine welche wann wieso weshalb weil obwohl bevor nachdem sobald dass"
        " denn sondern"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " niemand jemand nichts etwas keiner alles dein deine seine ist sind hatte wird"
        " wurde",
        ordinals=ORDINAL_ALWAYS,
        ordinal_leads="der dem des den zum zur im beim vom",
        months="januar jänner februar märz april mai juni juli august september oktober"
        " november dezember",
    ),
    "da": _Spec(
        prefix="hr fr dr prof ca bl.a f.eks jf evt vedr iflg pga ang mht dvs ift vha ifm iht"
        " skt chr afd sdr ndr fhv fmd hhv sml stk adr ndf ovf",
        final="osv m.m mm mv nr kr inkl ekskl lign o.l o.lign f.kr e.kr",
        medial="kl tlf st s mio mia kap maks årh",
        starters="det der den de jeg vi du han hun hvad hvor hvordan hvorfor hvem men og så"
        " da nu her efter før hvis når i på til med ja nej"
        # Adverbs, conjunctions and prepositions: capitalised, they open a
        # sentence (none is a name): "5 mio. Alligevel" ends.
        " alligevel derfor desuden desværre heldigvis måske selvfølgelig altså ellers"
        " imidlertid endelig senere først stadig aldrig altid ofte derefter bagefter"
        " dermed endnu allerede fordi selvom mens af fra ved mod uden blandt"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " alle ingen nogen intet ingenting noget mit mine din dit dine hendes vores jeres"
        " deres var har havde blev",
        ordinals=ORDINAL_ALWAYS,
        months="januar februar marts april maj juni juli august september oktober november"
        " december",
    ),
    "es": _Spec(
        prefix="sr sra srta dr dra lic ing prof ud uds vd vds dña aprox ej ee sta sto pza excmo"
        " excma ilmo ilma arq gral cnel tte pbro hno hna hnos hnas sres sras dres ldo lda mtro"
        " mtra abog ctra urb depto dpto pje atte coord pdte pdta",
        final="etc pág núm sigs hs págs",
        medial="ene feb mar abr may jun jul ago sep sept oct nov dic lun mié jue vie sáb dom"
        " tel tfno telf telef av avda cía art doc izq dcha secc a.c d.c",
        starters="el la los las un una es esta este esto eso pero y o si no que qué cómo"
        " cuándo dónde por para en con yo tú él ella nosotros ellos hoy ayer también"
        " entonces después"
        " luego además sin así aunque ahora todavía aún siempre nunca quizás quizá incluso"
        " primero finalmente mientras porque cuando donde como desde hasta durante según"
        " sobre tras entre hacia contra mañana pues nuestro nuestra cada todo todos toda"
        " todas algunos muchos otro otra otros"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " nadie nada alguien algo había fue era mis tus sus quién quiénes cuál ningún"
        " ninguna ninguno",
        months="enero febrero marzo abril mayo junio julio agosto septiembre setiembre"
        " octubre noviembre diciembre",
    ),
    "pt": _Spec(
        prefix="sr sra srta dr dra prof eng exmo exma ex profa aprox sto sta cel arq apto obs trav",
        final="etc pág págs",
        medial="jan fev mar abr mai jun jul ago set out nov dez av tel séc art ltda a.c d.c",
        starters="o a os as um uma ele ela eles elas nós eu você isso este esta mas e ou se"
        " não que quando onde hoje ontem também então depois"
        " além porém contudo todavia entretanto assim ainda já agora logo primeiro"
        " finalmente enquanto porque como desde até durante sobre entre sem com para por em"
        " meu minha seu sua nosso nossa cada todo todos toda todas alguns muitos outro"
        " outra amanhã sempre nunca talvez aliás portanto pois embora"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " ninguém nada alguém algo havia foi era teu tua quem qual nenhum nenhuma tudo",
        months="janeiro fevereiro março abril maio junho julho agosto setembro outubro"
        " novembro dezembro",
    ),
    "fr": _Spec(
        prefix="m mm mme mmes mlle mlles dr pr me cf ex mgr vve c.-à-d tél ets apr",
        final="etc hab",
        medial="av bd ste janv févr avr juil sept oct nov déc env art fg imp réf éd cie",
        starters="le la les un une il elle ils elles nous vous je on ce cette ces mais et ou"
        " si ne que quand où pourquoi comment aujourd'hui puis ensuite alors"
        " cependant pourtant donc ainsi enfin aussi toutefois néanmoins après avant depuis"
        " pendant selon sans avec pour dans sur sous chez parmi vers entre malgré maintenant"
        " déjà encore toujours jamais souvent parfois heureusement malheureusement demain"
        " hier notre votre leur leurs chaque tout tous toute toutes plusieurs certains"
        " quelques parce lorsque puisque bien car"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " personne rien quoi quel quelle était sont mes tes ses aucun aucune",
        months="janvier février mars avril mai juin juillet août septembre octobre novembre"
        " décembre",
    ),
    "it": _Spec(
        prefix="sig sigg sig.ra sig.na dott dott.ssa ing avv prof arch geom rag on dr es egr"
        " gent.mo gent.ma spett.le ill.mo ch.mo mons sen dep cfr vol artt magg pagg figg trad"
        " cod reg int d.lgs d.p.r c.d c.a c.c c.p",
        final="ecc pag cap",
        medial="gen feb mar apr mag giu lug ago set ott nov dic tel meteor idraul sec art segg"
        " sgg gg a.c d.c",
        starters="il lo la i gli le un una è questo questa quello quella ma e o se non che"
        " come quando dove perché io tu lui lei noi voi loro oggi ieri anche poi allora"
        " tuttavia però quindi dunque inoltre infatti invece ora adesso già ancora sempre"
        " spesso forse dopo prima intanto infine finalmente mentre benché sebbene così"
        " domani con in su tra senza durante verso contro mio mia suo sua nostro nostra"
        " ogni tutto tutti tutta tutte alcuni molti altri ciò qui qua lì là"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " nessuno niente nulla qualcuno qualcosa cosa quale era erano hanno tuo tua",
        months="gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre"
        " novembre dicembre",
    ),
    "nl": _Spec(
        prefix="dhr mevr mr dr prof ir drs ing bijv m.a.w mw ds evt zgn vnl t.a.v i.p.v",
        final="enz",
        medial="aanw vnw blz nr st str jl mln mld afb hfd hfst",
        compounds="str",
        starters="de het een dit dat deze die er hij zij ze wij we ik je jij maar en of als"
        " toen nu hier daar vandaag"
        " toch bovendien daarna daarom echter ook later eerst verder dus want helaas"
        " gelukkig misschien natuurlijk soms vaak altijd nooit ondertussen inmiddels"
        " uiteindelijk daardoor hierdoor op met voor bij door over tot uit zonder tijdens"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " niemand iemand niets iets alles wat wie waar waarom wanneer welke mijn jouw"
        " zijn onze waren heeft werd",
        months="januari februari maart april mei juni juli augustus september oktober"
        " november december",
    ),
    "pl": _Spec(
        prefix="dr prof mgr inż hab tzw np m.in ok ul zob płk mjr kpt gen doc tj tzn wg św ks ds",
        final="itd itp zł gr cdn",
        medial="godz tel pl tys mln mld r woj pow pkt ust rozdz rys poz wyd przyp ur zm str art",
        starters="to ten ta te on ona oni my ja ty ale i a lub jeśli nie że kiedy gdzie"
        " dlaczego jak dziś wczoraj w na"
        " jednak potem później też także również więc zatem dlatego ponadto niestety może"
        " oczywiście wtedy teraz tu tam już jeszcze zawsze nigdy często czasem najpierw"
        " następnie wreszcie natomiast bo choć chociaż gdy jeżeli aby żeby do od po przez"
        " przy dla bez za pod nad przed"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " nikt nic ktoś coś wszyscy wszystko każdy kto czy był była było były jest mój"
        " moja moje twój jego nasz nasza",
        months="stycznia lutego marca kwietnia maja czerwca lipca sierpnia września"
        " października listopada grudnia",
    ),
    "ru": _Spec(
        prefix="т.е т.к т.н напр проф акад доц ул пр пгт им см просп пер наб пл ср зам гр кв"
        " корп пос оз тов св табл зав нач отд каф и.о т.о т.ч ст",
        final="т.д т.п др руб коп стр рис дол",
        medial="г гг т.г куб млн млрд тыс гл ред изд вып обл прим англ лат франц греч разд",
        starters="это этот эта он она они мы я ты вы но и а или если не что когда где"
        " почему как сегодня вчера в на по тогда потом затем теперь сейчас там здесь"
        " однако впрочем кроме также тоже поэтому итак значит зато хотя конечно наверное"
        " возможно сначала наконец вдруг уже ещё всегда никогда часто иногда из от до для"
        " без при про через после перед между над под за во со"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " все всё никто ничего ничто кто мой моя моё мои наш наша его её был была было"
        " были каждый именно",
        months="января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    ),
    "bg": _Spec(
        prefix="г-н г-жа д-р ул пл гр т.е напр проф бул доц акад инж вж",
        final="лв др т.н сл",
        medial="т.г млн млрд стр хил",
        starters="това този тази той тя те ние аз ти вие но и а или ако не че когато къде"
        " обаче тогава после след преди също така затова следователно вече още винаги"
        " никога често понякога може първо накрая сега днес вчера утре тук там защото"
        " докато въпреки от до за на във със по при без през към между над под всеки"
        " всички някои много"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " никой нищо някой нещо кой какво беше бяха има моят моята нашият",
    ),
    "kk": _Spec(
        prefix="проф акад мыс ж доц",
        final="т.б т.с.с",
        medial="ж.б ғ б.з.б б.з обл ауд көш млн млрд",
        starters="бұл ол олар біз мен сен сіз бірақ және егер"
        " бәрі барлығы ешкім кім менің оның біздің",
    ),
    "sk": _Spec(
        prefix="napr tzv resp ing mgr doc prof mudr judr phdr rndr bc č p ul cca tzn príp kpt"
        " plk paeddr mvdr thdr",
        final="atď a.s s.r.o spol tis mil",
        medial="r hod str pozn zv",
        starters="to ten ta toto on ona oni my ja ty ale a alebo ak nie že keď kde prečo"
        " potom teraz dnes včera zajtra tam tu preto však takže navyše okrem najprv"
        " nakoniec zrazu už ešte vždy nikdy často niekedy možno samozrejme bohužiaľ"
        " našťastie hoci aby pretože lebo na po pri so zo do od pre bez podľa počas medzi"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " všetci všetko nikto nič niekto niečo kto čo môj moja bol bola bolo boli",
        ordinals=ORDINAL_ALWAYS,
        months="januára februára marca apríla mája júna júla augusta septembra októbra"
        " novembra decembra",
    ),
    "el": _Spec(
        prefix="κ κα κος δρ π.χ δηλ καθ οδ λεωφ τηλ αρ",
        final="κτλ κ.λπ κ.ά π.μ μ.μ",
        medial="μ.χ εκ χιλ σελ κεφ",
        starters="ο η το οι τα ένας μια αυτό αυτή αλλά και ή αν δεν ότι όταν πού"
        " ωστόσο όμως μετά τότε έτσι επίσης επομένως λοιπόν ακόμα ακόμη ήδη πάντα ποτέ"
        " συχνά ίσως πρώτα τέλος τώρα σήμερα χθες αύριο εδώ εκεί γιατί επειδή ενώ αφού"
        " πριν μέχρι από με για σε στο στη στην στον στα στους κατά χωρίς κάθε όλοι όλα"
        " όλες πολλοί κάποιοι"
        # Pronouns, possessives and forms of "to be" or "to have": never names.
        " κανείς τίποτα κάποιος ποιος ποια τι ήταν είναι έχει",
        translate=";\u037e",  # the Greek question mark, often typed as ";"
    ),
    "hy": _Spec(
        prefix="տ",
        medial="թ",
        translate=":\u0589",  # the Armenian full stop, often typed as ":"
    ),
    "am": _Spec(),
    "ar": _Spec(),
    "fa": _Spec(),
    "hi": _Spec(prefix="डॉ प्रो", medial="रु"),
    "mr": _Spec(prefix="डॉ प्रा सौ कु"),
    "ja": _Spec(),
    "my": _Spec(),
    "ur": _Spec(),
    "zh": _Spec(),
}

#: ASCII marks that the text of a script writes for its own terminator (the
#: letters of the script as a character class, the mark, the terminator):
#: "auto" reads the mark as that terminator right after a letter of the
#: script, or after such a letter and up to two closers (``Ես եկա: Դու``,
#: ``Πού πας; Πάω``), where a named language maps every such mark
#: (``Language.translate``).  The letters never hold a terminator: a mark
#: after one it produced (``ύ;;``) stays a mark, whatever the deltas.
SCRIPT_TYPED: tuple[tuple[str, str, str], ...] = (
    ("\u0531-\u0556\u0561-\u0587\u055b-\u055f", ":", "\u0589"),  # Armenian
    (
        "\u0370-\u0373\u0376\u0377\u037b-\u037d\u037f\u0386\u0388-\u03ff"
        "\u1f00-\u1fbc\u1fbe\u1fc2-\u1fcc\u1fd0-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ffc",
        ";",
        "\u037e",
    ),  # Greek
)

#: The language codes ``SentenceChunker(language=...)`` accepts, besides ``"auto"``.
LANGUAGES: tuple[str, ...] = tuple(sorted(_SPECS))

#: Month names of every language (lower case): a period after a day number
#: before one of them is an ordinal, never a sentence end (``am 3. Mai``).
MONTHS: frozenset[str] = frozenset(
    word for spec in _SPECS.values() for word in spec.months.split()
) | frozenset(
    "january february march april may june july august september october november december".split()
)

#: Their abbreviations, read before a period: the first three or four letters
#: of a month name (``am 3. Okt.``, ``le 5. févr.``).
MONTH_ABBREVIATIONS: frozenset[str] = frozenset(
    month[:size] for month in MONTHS for size in (3, 4) if len(month) > size
)

# Abbreviations of other languages that are English words (or too short to
# tell apart from one), or month names, stay out of "auto".
_ENGLISH_LOOKALIKES = frozenset(
    "on me set mar may dom gen ing tel env pag cap ago ave cia ok pr hr fr av bd ste ud vd"
    " ir mm mr dr st nr pl ul ang arch mag out doc cod int mind".split()
)


# But for these two letters, frequent in their language and no English word
# (Polish "np.", for example; "ul.", street), which "auto" reads as MEDIAL:
# a sentence starter after one still opens a sentence ("as np. Then").
_SHORT_IN_AUTO = frozenset({"np", "ul"})


#: The words before an ordinal that "auto" reads (``_Spec.ordinal_leads`` of
#: every language): a number of one or two digits and a period after one is
#: an ordinal before a capitalised word that is no sentence starter.
ORDINAL_LEADS = frozenset(w for spec in _SPECS.values() for w in spec.ordinal_leads.split())


def _own_table(spec: _Spec) -> dict[str, int]:
    table: dict[str, int] = {}
    for kind, words in ((PREFIX, spec.prefix), (FINAL, spec.final), (MEDIAL, spec.medial)):
        for word in words.split():
            table[word] = kind
    return table


def _continuations(spec: _Spec) -> frozenset[str]:
    words = frozenset(spec.continuations.split())
    for word in words:
        # (The rules read at most 13 letters of a word: see rules.STARTER_MAX.)
        if not (word.isalpha() and word.islower() and len(word) <= 13):
            raise ValueError(f"continuation {word!r}: lower-case letters only, 13 at most")
    return words


def _compounds(spec: _Spec, table: Mapping[str, int]) -> frozenset[str]:
    words = frozenset(spec.compounds.split())
    for word in words:
        # (The searches exclude a compound's last four characters: see fast_path.)
        if not (word in table and word.isalpha() and word.islower() and len(word) >= 3):
            raise ValueError(f"compound {word!r}: an abbreviation of the tables, 3 letters or more")
    return words


@cache
def _build(code: str) -> Language:
    if code != AUTO:
        spec = _SPECS[code]
        words = frozenset(spec.starters.split()) | frozenset(spec.months.split())
        table = {w: kind for w, kind in DEFAULT_ABBREVIATIONS.items() if w not in words}
        table.update(_own_table(spec))
        return Language(
            code,
            table,
            SENTENCE_STARTERS | frozenset(spec.starters.split()),
            spec.ordinals if spec.ordinals != ORDINAL_NEVER else ORDINAL_MONTHS,
            {ord(a): ord(b) for a, b in zip(*[iter(spec.translate)] * 2, strict=True)},
            _continuations(_SPECS["en"]) | _continuations(spec),
            _compounds(spec, table),
            plain_words=spec.plain_words,
        )
    table = dict(DEFAULT_ABBREVIATIONS)
    starters = set(SENTENCE_STARTERS)
    for spec in _SPECS.values():
        for word, kind in _own_table(spec).items():
            if word in _SHORT_IN_AUTO:
                table.setdefault(word, MEDIAL)
            elif (
                word in _ENGLISH_LOOKALIKES or word in MONTHS or (len(word) < 3 and word.isascii())
            ):
                continue  # (nor a month name of another language: "am 5. Mai. Bis")
            elif word in table and word not in DEFAULT_ABBREVIATIONS and table[word] != kind:
                # Languages that disagree ("hab.": French inhabitants, FINAL;
                # Polish "dr hab.", PREFIX): it ends only before a starter.
                table[word] = MEDIAL
            else:
                table.setdefault(word, kind)
        starters.update(spec.starters.split())
    compounds = frozenset().union(*(_compounds(spec, table) for spec in _SPECS.values()))
    foreign = frozenset(w for spec in _SPECS.values() for w in _own_table(spec) if w not in table)
    return Language(
        AUTO,
        table,
        frozenset(starters),
        ORDINAL_AFTER_LEADS,
        {},
        _continuations(_SPECS["en"]),
        compounds,
        plain_words=True,  # (English's rule: "auto" is English first)
        foreign=foreign,
    )


def language(code: object, *, param: str = "language") -> Language:
    """The tables of ``code`` (``"auto"`` or one of :data:`LANGUAGES`, any case).

    Raises ``TypeError`` for a non-string and ``ValueError`` for an unknown
    code; both name ``param`` and the value.
    """
    if not isinstance(code, str):
        raise TypeError(
            f"{param} must be a language code such as 'de' or 'auto', "
            f"got {type(code).__name__}: {code!r:.80}"
        )
    key = code.strip().lower()
    if key != AUTO and key not in _SPECS:
        raise ValueError(
            f"{param}={code!r:.80} is not a supported language; choose 'auto' or one of "
            f"{', '.join(map(repr, LANGUAGES))}"
        )
    return _build(key)
