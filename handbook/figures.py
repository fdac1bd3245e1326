"""A snippet's figure as the pages show it: the SVG it drew, and a copy laid out for a phone.

A phone's column is narrower than most figures. Scaled down to it, their text would shrink below
9 px (a 7.2-inch figure to half its size); scrolled in a box, half a legend or the one bar that
makes the point lies off screen. So each figure wider than the column is drawn a second time at the
column's width: the same axes, the same data, text at the size it has (points), the axes narrower;
a row of panels becomes a column of them, and panels that keep their aspect (heatmaps) get a
height to match. The page offers both (``render.Example``); the browser loads the one that fits.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.figure import Figure
from matplotlib.gridspec import GridSpec
from matplotlib.layout_engine import ConstrainedLayoutEngine

from .capture import Capture, SnippetError, one_line

# What a page without sidebars keeps beside its column (16 px each side, measured at 390 and 600 px),
# and a 390 px phone's column in inches (CSS has 96 px to the inch).
PAGE_MARGINS = 32
PHONE_INCHES = (390 - PAGE_MARGINS) / 96


def svg(fig: Figure) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})  # no date: the same bytes each build
    return buffer.getvalue()


def phone_svg(fig: Figure) -> str | None:
    """``fig`` drawn again for a phone's column, or None where it fits one as it is. Call it after
    ``svg(fig)``: it changes the figure."""
    width, height = fig.get_size_inches()
    if width <= PHONE_INCHES:
        return None
    panels = [a for a in fig.axes if a.get_subplotspec() is not None and not hasattr(a, "_colorbar")]
    grids = {id(a.get_subplotspec().get_gridspec()) for a in panels}
    grid = panels[0].get_subplotspec().get_gridspec() if len(grids) == 1 else None
    if grid is not None and grid.nrows == 1 and grid.ncols > 1:  # a row of panels: one under another
        column = GridSpec(grid.ncols, 1, figure=fig)
        for a in panels:
            a.set_subplotspec(column[a.get_subplotspec().colspan.start, 0])
        height *= grid.ncols
    elif panels and all(a.get_aspect() != "auto" for a in panels):  # heatmaps: their height follows
        height *= PHONE_INCHES / width
    fig.set_size_inches(PHONE_INCHES, height)
    for a in fig.axes:
        if a.get_title():
            a.title.set_wrap(True)  # a title wider than the column takes two lines
    _lay_out(fig)
    if _crowded(fig):  # tick labels that now run into each other ("key 1key 2"): turned aslant
        for a in fig.axes:
            for label in a.get_xticklabels():
                label.set(rotation=40, horizontalalignment="right", rotation_mode="anchor")
        _lay_out(fig)
    return svg(fig)


def _lay_out(fig: Figure) -> None:
    if not isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        fig.tight_layout()  # what the snippet asked for at its own size (constrained layout redoes itself)
    fig.draw_without_rendering()  # tick labels placed, nothing painted (a full draw costs 0.1-0.3 s)


def _crowded(fig: Figure) -> bool:
    """Whether two neighbouring x tick labels of an axes overlap."""
    renderer = fig.canvas.get_renderer()
    for a in fig.axes:
        boxes = sorted((t.get_window_extent(renderer) for t in a.get_xticklabels() if t.get_visible() and t.get_text()),
                       key=lambda box: box.x0)
        if any(left.x1 > right.x0 for left, right in zip(boxes, boxes[1:])):
            return True
    return False


@dataclass
class Shown:
    """A figure a snippet showed, not yet written out: the figure, the snippet's file, and the
    matplotlib settings in force when it was shown (a snippet may change them; what it drew is
    written out under the same ones)."""

    figure: Any
    path: Path
    rc: Any


def draw(name: str, shown: list[Shown], writer: Any) -> list[Any]:
    """``writer(figure)`` (``svg``, ``phone_svg``) for each figure, as the snippet showed it: a
    warning, stderr write or log line while it draws fails the snippet, as one while it ran does."""
    drawn = []
    for figure in shown:
        capture = Capture(figure.path)
        try:
            with capture, matplotlib.rc_context(), _rc(figure.rc):
                drawn.append(writer(figure.figure))
        except Exception as error:  # noqa: BLE001  (reported in one line, as a raise in the snippet is)
            raise SnippetError(f"snippets/{name} raised {one_line(error)} while its figure was drawn") from None
        capture.raise_what_it_caught(f"snippets/{name}", " while its figure was drawn")
    return drawn


@contextlib.contextmanager
def _rc(settings: Any):
    """matplotlib's settings exactly as ``settings`` holds them, set as ``rc_context`` puts them back
    (without validating each again); inside one, which restores the settings after."""
    dict.update(matplotlib.rcParams, settings)
    yield
