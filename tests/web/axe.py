"""axe-core for the browser tests: fetched from npm at test time, pinned and checked.

The version and its integrity (npm's ``dist.integrity`` of the tarball) are pinned
here and only here. ``npm pack`` fetches the tarball into ``.cache/`` (ignored by
git) the first time; its SHA-512 must match before ``axe.min.js`` is taken out of
it, and later runs read the file from there. :func:`axe_violations` injects it
into a Playwright page and runs the WCAG 2.1 A and AA rules. :func:`raw_words` finds a
catalogue key or an unfilled hole of a message shown as it is.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from tests.web.helpers import ROOT

AXE_VERSION = "4.14.1"
AXE_INTEGRITY = (
    "sha512-"
    "FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
)
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
PRACTICES = (
    "heading-order",
    "page-has-heading-one",
    "empty-table-header",
    "aria-dialog-name",
    "landmark-one-main",
)
"""axe's best practices checked too: headings a screen reader can walk, named dialogs."""
CACHE = ROOT / ".cache" / f"axe-core-{AXE_VERSION}"


def integrity_of(data: bytes) -> str:
    """The npm integrity string (SRI, SHA-512) of a tarball's bytes."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def axe_script() -> str:
    """The text of ``axe.min.js`` at the pinned version (fetched once, integrity checked)."""
    script = CACHE / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is needed to fetch axe-core for the accessibility tests")
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run(
                [npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", folder, "--silent"],
                check=True,
                capture_output=True,
                timeout=300,
            )
            tarball = next(Path(folder).glob("axe-core-*.tgz"))
            found = integrity_of(tarball.read_bytes())
            if found != AXE_INTEGRITY:
                raise RuntimeError(
                    f"axe-core {AXE_VERSION} from npm is not the pinned one: {found}"
                )
            with tarfile.open(tarball) as archive:
                member = archive.extractfile("package/axe.min.js")
                assert member is not None
                text = member.read()
        CACHE.mkdir(parents=True, exist_ok=True)
        # a file of this process's own: test workers running at once may fetch it together
        partial = script.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(text)
        partial.replace(script)
    return script.read_text(encoding="utf-8")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Run axe-core's WCAG 2.1 A and AA rules (and :data:`PRACTICES`) on the page as it is."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_script())
    result = page.evaluate(
        """async ([tags, practices]) => {
            const rules = Object.fromEntries(practices.map((id) => [id, { enabled: true }]));
            const out = await axe.run(document, {
                runOnly: { type: "tag", values: tags }, rules, resultTypes: ["violations"],
            });
            return out.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => ({
                    target: n.target.join(" "), summary: n.failureSummary,
                })),
            }));
        }""",
        [list(WCAG_TAGS), list(PRACTICES)],
    )
    return list(result)


def describe(violations: list[dict[str, Any]]) -> str:
    """Violations as lines a person can act on: rule, impact, where, why."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:6]:
            summary = " ".join(str(node["summary"]).split())
            lines.append(f"    {node['target']}: {summary[:300]}")
    return "\n".join(lines)


KEYS = frozenset(
    json.loads((ROOT / "src/basra/server/static/locales/en.json").read_text(encoding="utf-8"))
)


def raw_words(page: Any) -> list[str]:
    """What a page shows that is not yet words: a catalogue key shown as it is
    (``nav_play``) or a message's hole left unfilled (``{n}``, ``{n, plural, ...``), in its
    text or its names for screen readers (aria-label, title, alt, placeholder)."""
    text = page.evaluate(
        """() => [document.body.innerText, document.title,
          ...[...document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')]
            .flatMap((e) => ['aria-label', 'title', 'alt', 'placeholder']
              .map((a) => e.getAttribute(a) || ''))].join('\\n')"""
    )
    found = [
        word for word in re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", text) if word in KEYS
    ]
    found += re.findall(r"\{[a-z_]+(?:\}|,\s*(?:plural|select))", text)
    return sorted(set(found))
