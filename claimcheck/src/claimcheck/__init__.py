"""Claims: numbers typed in prose, tied to the expression that produced them and checked.

``forms`` (what a literal means, and its mutants), ``numbers`` (what a number in text is),
``document`` (claims in a Markdown page), ``sources`` (where values come from), ``words`` (numbers
written as words, in Korean and English), ``check`` (checking
and updating); ``cli``, ``pytest_plugin`` and ``mkdocs_plugin`` put them to use.
"""

from .check import Result, check, check_text, update_text
from .document import Claim, read_claims
from .forms import FORMS, Form, matches, parse, register
from .numbers import numbers_in
from .sources import PythonSource, Scripts, Source, SourceError, Values

__all__ = ["FORMS", "Claim", "Form", "PythonSource", "Result", "Scripts", "Source", "SourceError", "Values", "check", "check_text",
           "matches", "numbers_in", "parse", "read_claims", "register", "update_text"]
