"""Ordinary prose for false-positive tests of the example validators.

Written for these tests.  It holds no personal data, no sentence twice, and no
sentence over 45 words, but plenty of things that look like them to a careless
matcher: numbers with dots, colons and hyphens (times, dates, versions, prices,
scores, ranges, ISBN-like codes), words containing short banned words
(``class``, ``assistant``, ``Scunthorpe``), e-mail-like text without an
address, and accented and non-Latin words.
"""

from __future__ import annotations

__all__ = ["BANNED_FOR_PROSE", "PROSE"]

#: Phrases that do not occur in :data:`PROSE` as whole words, though several
#: occur inside longer words there.
BANNED_FOR_PROSE = (
    "ass",
    "hell",
    "damn",
    "idiot",
    "kill yourself",
    "guaranteed returns",
    "cunt",
    "tit",
    "crap",
)

PROSE = """\
The morning train left the station at 07:45, twelve minutes late, and the \
conductor apologised twice before we reached the river. Most passengers \
did not look up from their books. A child near the window counted the \
bridges out loud: one, two, three, and then a fourth that nobody else had \
noticed.

Our assistant manager, who grew up in Scunthorpe, explained the new \
schedule in a short passage of the handbook. The first class starts on \
Monday, 3 March 2025, in room 101; the second class meets on Thursday \
afternoon. Each session lasts 90 minutes, with a break of 10 to 15 minutes \
in the middle. Bring a notebook, a pencil and, if you can, a calculator.

Version 3.12 of the library fixed the bug reported in issue 4521, and the \
release notes for 3.12.1 list eleven smaller changes. The test suite now \
runs in 4.5 seconds instead of 38. Nobody expected the speed-up to be that \
large, but the old code scanned every file twice.

Prices rose by 2.5% last year. A loaf of bread cost $3.49 in January and \
$3.79 by December, while a litre of milk went from 1.10 to 1.25 euros. The \
bakery on the corner still sells day-old rolls at half price after 6 p.m., \
which students appreciate.

The final score was 3-2 after extra time. In the 87th minute the visitors \
equalised, and the home side needed a header from a defender to win it. \
Attendance was 41,806, the highest since the stadium reopened in 2019. \
Tickets for the semi-final, on 14 May, go on sale at 10:00 tomorrow.

She wrote her thesis on the history of the printing press in Mainz and \
cited works from 1450 to 1520. The library catalogue lists the main source \
under shelf mark 978-3-16-1484, which is easy to confuse with a book number. \
Her supervisor, a patient man with a grey beard, read every chapter twice.

The recipe is simple. Mix 200 g of flour with 2 eggs and 300 ml of milk, \
then rest the batter for 30 minutes. Heat a pan, add a little butter, and \
pour in a thin layer. Turn the crêpe after about a minute, when the edges \
lift easily.

Hiking in the Alps in late September is a pleasure: the paths are quiet, \
the air is clear, and the huts are still open. We walked from the valley at \
1,200 m to the pass at 2,480 m in five hours. On the way down, a marmot \
whistled at us from a boulder and vanished into its burrow.

The committee met on 2024-11-05 and approved the budget for the coming \
year, with 7 votes in favour and 2 abstentions. The minutes, numbered \
12/2024, are available at the front desk. Questions may be sent by post to \
the secretary, whose office is open from 9:00 to 12:30 on weekdays.

Ask the help desk at the front of the building if you lose your badge. \
They will print a new one while you wait; it takes about five minutes. \
Please do not write your password on the badge, on a sticky note or \
anywhere else that others can see it.

In the garden the tomatoes ripened late this year, and the beans climbed \
higher than the fence. My neighbour grows pumpkins that weigh over 20 kg, \
and every October she gives the smallest ones away to the children on our \
street. The biggest goes to the village fair.

Die Brücke über den Fluss wurde 1896 gebaut und 1978 renoviert. \
Le musée ouvre à 10 h et ferme à 18 h, sauf le mardi. \
東京の朝はとても静かです。 \
Пожалуйста, закройте дверь.

Astronomers measured the distance to the star at 4.24 light years, give or \
take a few hundredths. Its light left it before most of today's students \
were born. The telescope, which cost about 1.5 billion dollars, can see \
objects a hundred times fainter than its predecessor.

To install the package, run the command shown in the README and then \
restart your shell. Windows users should use the second set of \
instructions. If the installer asks for a proxy, enter host:port, for \
example cache.internal:3128, or leave the field empty.
"""
