"""Lighthouse on every page, served like GitHub Pages: at least 95 in each of the four categories."""

import audit
import pytest

pytestmark = pytest.mark.audit
FLOOR = 95


@pytest.fixture(scope="module")
def results(site):
    return audit.audit(site)


def test_lighthouse_scores(results):
    print("\n" + audit.table(results))
    low = [f"{page} {c} {s[c]}" for page, s in results.items() for c in audit.CATEGORIES if s[c] < FLOOR]
    assert not low, f"below {FLOOR}: {low}\n{audit.table(results)}"
