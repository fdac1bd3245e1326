"""The mask explorer shows, for every parameter set a reader can pick, exactly what the chapter's
function returns: a sample of them (seeded, with the first and last of every pattern) picked with the
page's controls in both editions, each grid read cell by cell and compared with the function run here,
its skipped blocks with FlexAttention's own BlockMask, its weights with one over the kept keys. By
keyboard, the controls move the grid and the summary a screen reader hears; without script, every
frame is in the list."""

import random
from fractions import Fraction

import pytest
import torch
from browsing import PHONE, VIEWPORT
from handbook.explorer import BLOCK, PATTERNS
from project import RUNNER
from torch.nn.attention.flex_attention import create_block_mask

pytestmark = pytest.mark.browser
FRAMES = [(pattern, combination) for pattern in PATTERNS for combination in pattern.combinations()]
SAMPLE = sorted({*random.Random(2026).sample(range(len(FRAMES)), 12),
                 *(i for i, (p, _) in enumerate(FRAMES) if FRAMES[i - 1][0] is not p or i + 1 == len(FRAMES)
                   or FRAMES[i + 1][0] is not p)})


def expected(pattern, combination):
    """The mask from the chapter's function, the weights, and FlexAttention's skipped blocks."""
    keep = torch.tensor(RUNNER.run(pattern.snippet).value(pattern.call(combination)))
    weights = [str(Fraction(1, int(row.sum()))) if row.any() else "nan" for row in keep]
    q, k = keep.shape
    block = create_block_mask(lambda b, h, i, j: keep[i, j], 1, 1, q, k, device="cpu", BLOCK_SIZE=BLOCK)
    dense = block.to_dense()[0, 0][: -(-q // BLOCK), : -(-k // BLOCK)]  # the blocks it computes
    skipped = {(i, j) for i in range(q) for j in range(k) if not dense[i // BLOCK, j // BLOCK]}
    return keep.tolist(), weights, skipped


def shown(page):
    """What the grid shows: each cell's kept or not, its number, and whether it is hatched."""
    cells = page.locator(".explorer__grid tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(c => [c.classList.contains('kept'), "
        "c.textContent, c.classList.contains('skipped')]))")
    return cells


@pytest.mark.parametrize("edition", ["", "en/"])
def test_every_sampled_parameter_set_shows_what_the_function_returns(base, browser, edition):
    page = browser.new_page(viewport=VIEWPORT)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + edition + "explorer/", wait_until="networkidle")
    for index in SAMPLE:
        pattern, combination = FRAMES[index]
        page.select_option('.explorer__ui select[name="pattern"]', pattern.key)
        for name, value in pattern.fields(combination).items():
            page.select_option(f'.explorer__ui select[name="{name}"]', str(value))
        keep, weights, skipped = expected(pattern, combination)
        cells = shown(page)
        where = f"{edition}explorer: {pattern.key} {combination}"
        assert [[kept for kept, _, _ in row] for row in cells] == keep, where
        assert [[text for _, text, _ in row] for row in cells] == [
            [weights[i] if keep[i][j] else "0" for j in range(len(keep[0]))] for i in range(len(keep))], where
        assert {(i, j) for i, row in enumerate(cells) for j, (_, _, hatched) in enumerate(row) if hatched} == skipped, where
        kept = sum(map(sum, keep))
        assert str(kept) in page.locator(".explorer__summary").text_content(), where
    assert not errors, errors
    page.close()


def test_the_keyboard_moves_the_grid_and_the_summary_says_so(base, browser):
    page = browser.new_page(viewport=PHONE)
    page.goto(base + "explorer/", wait_until="networkidle")
    summary = page.locator(".explorer__summary")
    assert summary.get_attribute("aria-live") == "polite"
    before, rows = summary.text_content(), page.locator(".explorer__grid tbody tr").count()
    length = page.locator('.explorer__ui select[name="L_Q"]')
    length.focus()
    page.keyboard.press("ArrowDown")  # a closed select takes the next option
    assert length.input_value() != "2"
    assert summary.text_content() != before and page.locator(".explorer__grid tbody tr").count() > rows
    page.close()


def test_without_script_every_frame_is_in_the_list(base, browser):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(base + "en/explorer/")
    assert page.locator(".explorer__grid").count() == 0
    frames = page.locator(".explorer li[data-frame]")
    assert frames.count() == len(FRAMES)
    for index in SAMPLE[:6]:
        pattern, combination = FRAMES[index]
        keep, _, _ = expected(pattern, combination)
        rows = frames.nth(index).locator("pre").text_content().split("\n")
        assert rows == ["".join("■" if k else "⬚" for k in row) for row in keep], (pattern.key, combination)
    context.close()
