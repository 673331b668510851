"""The comparison study: variants side by side on the same deals, paired differences
from the baseline, verdicts, charts, report.html and the files of ``compare --out``."""
