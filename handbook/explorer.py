"""The mask explorer (docs/explorer.md): a reader picks a pattern and its parameters from small finite
sets and sees the mask, the blocks FlexAttention's BlockMask would skip, and the weight each key gets
when every score is equal.

Every frame is computed at build time by a chapter's own copyable function, in that snippet's process
(``handbook.run(snippet).value(expression)``), and the page holds the frames as a plain list, each with
its ■/⬚ rows: the page's script (``SCRIPT``) turns the list into controls and a grid; without it, the
list is what a reader reads. tests/browser/test_explorer.py compares what the grid shows with the
chapter's function.
"""

from __future__ import annotations

import html
import itertools
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

BLOCK = 2  # the BlockMask view's block size: small, so a grid of 8 shows 16 blocks


@dataclass(frozen=True)
class Pattern:
    """A pattern: the chapter snippet whose function makes it, the expression that calls that function
    (``{name}`` fields are the parameters), and each parameter's values; ``when`` leaves out the
    combinations that mean nothing (a query axis longer than the key axis)."""

    key: str
    snippet: str
    expression: str
    params: dict[str, tuple[Any, ...]]
    when: str = "True"

    def combinations(self) -> list[dict[str, Any]]:
        names = list(self.params)
        found = [dict(zip(names, values)) for values in itertools.product(*self.params.values())]
        return [c for c in found if eval(self.when, {}, dict(c))]  # noqa: S307 (our own conditions)

    def fields(self, combination: dict[str, Any]) -> dict[str, Any]:
        """A combination's values as the expression and the page write them (a tuple as a list)."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in combination.items()}

    def call(self, combination: dict[str, Any]) -> str:
        """The expression, in the pattern's snippet, whose value is that combination's mask as lists."""
        return self.expression.format(**self.fields(combination)) + ".tolist()"


PATTERNS = (
    Pattern("causal", "flex/zoo.py", "create_mask(causal({align} * ({L_K} - {L_Q})), 1, 1, {L_Q}, {L_K})[0, 0]",
            {"L_Q": (2, 4, 6, 8), "L_K": (4, 6, 8), "align": (0, 1)}, "L_Q <= L_K"),
    Pattern("window", "flex/zoo.py", "create_mask(and_masks(causal(), window({window})), 1, 1, {L}, {L})[0, 0]",
            {"L": (4, 6, 8), "window": (1, 2, 3, 4)}),
    Pattern("sinks", "ring/mask.py", "window_mask({L}, {window}, {sinks})",
            {"L": (6, 8), "window": (2, 3, 4), "sinks": (1, 2)}),
    Pattern("prefix", "flex/zoo.py", "create_mask(or_masks(causal(), first({prefix})), 1, 1, {L}, {L})[0, 0]",
            {"L": (4, 6, 8), "prefix": (1, 2, 3, 4)}),
    Pattern("chunk", "flex/zoo.py", "create_mask(and_masks(causal(), chunk({chunk})), 1, 1, {L}, {L})[0, 0]",
            {"L": (4, 6, 8), "chunk": (2, 3, 4)}),
    Pattern("documents", "varlen/mask.py", "document_mask(torch.tensor([0, *{lengths}]).cumsum(0))",
            {"lengths": ((8,), (4, 4), (3, 5), (2, 3, 3), (1, 2, 5), (2, 2, 2, 2))}),
    Pattern("tree", "trees/mask.py", "ancestor_mask({parents})",
            {"parents": ((-1, 0, 1, 2), (-1, -1, 0, 1), (-1, 0, 0, 1, 1, 2, 2), (-1, -1, 0, 0, 1, 1))}),
    Pattern("images", "multimodal/mask.py", "multimodal_mask(image_blocks(torch.tensor([{types}])), {window})[0]",
            {"types": ((0, 1, 1, 1, 1, 0), (0, 0, 1, 1, 1, 1, 0, 0), (1, 1, 1, 0, 0, 1, 1, 0)), "window": (None, 2, 3)}),
)


def blocks(keep: list[list[bool]], size: int = BLOCK) -> list[str]:
    """Each block of ``size`` rows and columns, row by row of blocks: ``f`` every cell kept (a full
    block: no mask to apply), ``p`` some (partial), ``e`` none (empty: FlexAttention skips it). A block
    the sequence's end cuts short is never full, as in FlexAttention's BlockMask."""
    rows, cols = len(keep), len(keep[0])
    out = []
    for r in range(0, rows, size):
        line = ""
        for c in range(0, cols, size):
            cells = [keep[i][j] for i in range(r, min(r + size, rows)) for j in range(c, min(c + size, cols))]
            line += "f" if all(cells) and len(cells) == size * size else "p" if any(cells) else "e"
        out.append(line)
    return out


def weights(keep: list[list[bool]]) -> list[str]:
    """The weight each kept key of a row gets when every score is equal: one over the keys it keeps
    (a row that keeps none has no weights: softmax gives nan there)."""
    return [str(Fraction(1, sum(row))) if any(row) else "nan" for row in keep]


def _label(pattern: Pattern, combination: dict[str, Any], words: dict[str, Any]) -> str:
    parts = []
    for name, value in combination.items():
        shown = words["values"].get(f"{name}={value}", value if not isinstance(value, tuple) else list(value))
        parts.append(f"{words['params'][name]} = {shown}")
    return " · ".join(parts)


def explorer(value: Any, words: dict[str, Any], patterns: tuple[Pattern, ...] = PATTERNS) -> str:
    """The explorer's HTML: every frame of every pattern, as a list a reader reads without script, and
    the script that makes it a grid with controls. ``value(snippet, expression)`` evaluates in that
    snippet's namespace (the page passes ``handbook.run(s).value(e)``); ``words``, in the page's
    language: ``patterns`` (a title for each key), ``params`` (a label for each parameter), ``values``
    (a label for ``name=value``, where the value alone says too little) and ``ui`` (the controls')."""
    missing = [f"patterns: {p.key}" for p in patterns if p.key not in words.get("patterns", {})]
    missing += [f"params: {n}" for p in patterns for n in p.params if n not in words.get("params", {})]
    missing += [f"ui: {k}" for k in UI if k not in words.get("ui", {})]
    if missing:
        raise ValueError(f"the explorer's words lack {', '.join(sorted(set(missing)))}")
    sections = []
    for pattern in patterns:
        items = []
        for combination in pattern.combinations():
            keep = value(pattern.snippet, pattern.call(combination))
            if not (keep and all(isinstance(r, list) and len(r) == len(keep[0]) for r in keep)):
                raise ValueError(f"{pattern.snippet}: {pattern.expression} with {combination} is not a 2-D mask")
            rows = ["".join("■" if k else "⬚" for k in row) for row in keep]
            data = {"pattern": pattern.key, **{k: str(v) for k, v in pattern.fields(combination).items()}}
            items.append(
                f'<li data-frame="{html.escape(json.dumps(data, ensure_ascii=False))}" data-rows="{"|".join(rows)}" '
                f'data-blocks="{"|".join(blocks(keep))}" data-weights="{",".join(weights(keep))}">'
                f'<p>{html.escape(_label(pattern, combination, words))}</p>'
                f'<pre class="explorer__rows">{chr(10).join(rows)}</pre></li>')
        sections.append(f'<details><summary>{html.escape(words["patterns"][pattern.key])} · {len(items)}</summary>'
                        f'<ul>{"".join(items)}</ul></details>')
    labels = {"patterns": words["patterns"], "params": words["params"], "values": words["values"], "ui": words["ui"]}
    return (f'<div class="explorer" data-words="{html.escape(json.dumps(labels, ensure_ascii=False))}" '
            f'data-block="{BLOCK}">{"".join(sections)}</div>\n<script>{SCRIPT}</script>')


# The controls' words a page gives (``words["ui"]``): the pattern's label, the grid's caption, what a
# kept and a masked cell and a skipped block are (a cell's title), the summary line, whose {kept},
# {cells}, {skipped} and {blocks} the script fills from the frame, and the folded list's name.
UI = ("pattern", "caption", "kept", "masked", "skipped", "summary", "list")

SCRIPT = """(()=>{const R=document.querySelector(".explorer");if(!R)return;
const W=JSON.parse(R.dataset.words),B=+R.dataset.block,F=[...R.querySelectorAll("[data-frame]")].map(li=>({p:JSON.parse(li.dataset.frame),rows:li.dataset.rows.split("|"),blocks:li.dataset.blocks.split("|"),w:li.dataset.weights.split(",")}));
const keys=[...new Set(F.map(f=>f.p.pattern))],ui=document.createElement("div");ui.className="explorer__ui";
const form=document.createElement("form"),out=document.createElement("div"),say=document.createElement("p");
say.setAttribute("aria-live","polite");say.className="explorer__summary";form.onsubmit=e=>e.preventDefault();
const sel=(name,label,opts)=>{const l=document.createElement("label"),s=document.createElement("select");s.name=name;
l.append(label+" ",s);opts.forEach(([v,t])=>s.add(new Option(t,v)));form.append(l);return s};
const vlabel=(n,v)=>W.values[n+"="+v]??v;
let P=sel("pattern",W.ui.pattern,keys.map(k=>[k,W.patterns[k]])),S=[];
const build=()=>{S.forEach(s=>s.parentNode.remove());const fs=F.filter(f=>f.p.pattern==P.value);
S=Object.keys(fs[0].p).filter(n=>n!="pattern").map(n=>sel(n,W.params[n],[...new Set(fs.map(f=>f.p[n]))].map(v=>[v,vlabel(n,v)])));
S.forEach((s,i)=>s.onchange=()=>{fit(i);show()});fit(-1);show()};
const pick=()=>F.find(f=>f.p.pattern==P.value&&S.every(s=>f.p[s.name]==s.value));
const fit=i=>{S.forEach((s,j)=>{if(j<=i)return;const ok=new Set(F.filter(f=>f.p.pattern==P.value&&S.slice(0,j).every(t=>f.p[t.name]==t.value)).map(f=>f.p[s.name]));
[...s.options].forEach(o=>o.disabled=!ok.has(o.value));if(!ok.has(s.value))s.value=[...ok][0]})};
const show=()=>{const f=pick(),t=document.createElement("table");t.className="explorer__grid";
t.createCaption().textContent=W.ui.caption;const h=t.createTHead().insertRow();h.append(document.createElement("th"));
[...f.rows[0]].forEach((_,j)=>{const c=document.createElement("th");c.scope="col";c.textContent=j;h.append(c)});
const b=t.createTBody();let kept=0,skipped=0;f.blocks.forEach(r=>skipped+=[...r].filter(x=>x=="e").length);
f.rows.forEach((r,i)=>{const row=b.insertRow(),th=document.createElement("th");th.scope="row";th.textContent=i;row.append(th);
[...r].forEach((x,j)=>{const c=row.insertCell(),k=x=="■",e=f.blocks[Math.floor(i/B)][Math.floor(j/B)]=="e";kept+=k;
c.className=(k?"kept":"masked")+(e?" skipped":"")+(i%B==B-1?" edge-row":"")+(j%B==B-1?" edge-col":"");c.textContent=k?f.w[i]:"0";
c.title=k?W.ui.kept:e?W.ui.skipped:W.ui.masked})});
out.replaceChildren(t);say.textContent=W.ui.summary.replace("{kept}",kept).replace("{cells}",f.rows.length*f.rows[0].length)
.replace("{skipped}",skipped).replace("{blocks}",f.blocks.length*f.blocks[0].length)};
P.onchange=build;ui.append(form,say,out);R.before(ui);
const d=document.createElement("details"),s=document.createElement("summary");s.textContent=W.ui.list;R.before(d);d.append(s,R);build()})()"""
