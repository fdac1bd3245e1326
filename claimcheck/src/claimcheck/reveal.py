"""What a reader sees of a checked number: hovering it or moving the keyboard focus to it shows the
source and expression its value came from. In the built HTML (a claim becomes ``<code
data-claim="demo.py: weights[0]">0.3333</code>`` with ``attr_list``), each claim is made focusable
and described by a tooltip right after it, which the page's CSS shows on hover and focus and a
screen reader reads as the claim's description (``aria-describedby``); without CSS or script the
tooltip is plain text after the number."""

from __future__ import annotations

import html as html_lib
import re

# A claim's element, whatever other attributes a later step gave it (a class that keeps it on one line).
CLAIMED = re.compile(r'<(?P<tag>code|span) (?P<attrs>[^>]*\bdata-claim="(?P<target>[^"]*)"[^>]*)>'
                     r'(?P<text>(?:(?!</(?P=tag)>).)*)</(?P=tag)>', re.S)
TIP_CLASS = "claim-source"
TIP = re.compile(rf'<span class="{TIP_CLASS}"[^>]*>[^<]*<code>[^<]*</code></span>')


# The tooltip's look: hidden until its claim is hovered or focused, then a solid box under the line
# (block-level, so it starts at the paragraph's edge and never widens a phone's page). On a narrow
# screen it sits at the foot of the screen instead: a claim in a table that scrolls sideways would
# otherwise show it cut off at the table's visible edge. (A box the page makes a containing block for
# fixed elements, with a transform or paint containment, ``content-visibility: auto`` among them,
# still clips it: leave those off a box that holds claims.)
CSS = """\
.claim-source { display: none; }
:is(code, span)[data-claim]:is(:hover, :focus) + .claim-source {
  display: block; position: absolute; z-index: 3; max-width: min(32rem, 92%); margin-top: 0.2em;
  padding: 0.25em 0.6em; border: 1px solid #8a90a0; border-radius: 0.2em; background: #1f2430; color: #fff;
  font-size: 0.75rem; line-height: 1.5; overflow-wrap: anywhere; pointer-events: none;
}
@media (max-width: 40em) {
  :is(code, span)[data-claim]:is(:hover, :focus) + .claim-source {
    position: fixed; left: 0.5rem; right: 0.5rem; bottom: 0.5rem; max-width: none; margin: 0;
  }
}
.claim-source code { padding: 0; background: none; color: inherit; font-size: inherit; }
"""
CSS_FILE = "assets/claimcheck.css"


def reveal(page_html: str, label: str, prefix: str = "claim-source") -> str:
    """``page_html`` with each claim focusable and followed by its tooltip, ``label`` and the
    claim's target (``Checked against demo.py: weights[0]``); ids ``<prefix>-1``, ``-2`` … in
    page order. A page already revealed is returned as it is."""
    if f'class="{TIP_CLASS}"' in page_html:
        return page_html
    count = 0

    def one(match: re.Match) -> str:
        nonlocal count
        count += 1
        tag, attrs, target, text = match["tag"], match["attrs"], match["target"], match["text"]
        # the target is code (an expression), escaped already as an attribute value
        tip = f"{html_lib.escape(label)} <code>{target}</code>"
        return (f'<{tag} {attrs} tabindex="0" aria-describedby="{prefix}-{count}">{text}</{tag}>'
                f'<span class="{TIP_CLASS}" id="{prefix}-{count}" role="tooltip">{tip}</span>')

    return CLAIMED.sub(one, page_html)


def without_tips(page_html: str) -> str:
    """``page_html`` without the tooltips (what a search index should read)."""
    return TIP.sub("", page_html)
