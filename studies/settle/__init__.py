"""The settle room: claims players argue about, answered by the other studies with a
verdict each (``unosim settle``), and how often those verdicts are wrong
(``unosim settle --error-rate``).

``play`` is the typed entry (the claims asked, the run, its report); ``claims`` reads
and checks a claim and ships the catalogue (``claims/*.toml``); ``stages`` turns a
claim into runs of the compare, tournament, skill or sweep study; ``looks`` plays a
claim look by look until its places are decided; ``verdicts`` holds the verdicts and
how they read (the one line, the JSON, the CSV); ``cards`` draws a card per claim and
the page of them; ``report`` is the result object for Python; ``files`` writes what
``--out`` asks for; ``error_rate`` measures the wrong-verdict rate on claims with a
known answer and ``tallies`` counts and reads those verdicts.
"""
