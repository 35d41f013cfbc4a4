"""Dataset fingerprints, saved or compared with saved ones: shared by the fingerprint scripts in bench/."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def item_hashes(task: Any, items: Iterable[Any]) -> dict[str, str]:
    """The hash of every item's record and of each of its pictures, keyed by item id and picture path."""
    hashes: dict[str, str] = {}
    for item in items:
        hashes[item.id] = hashlib.sha256(item.model_dump_json().encode()).hexdigest()
        for path, data in task.assets(item):
            hashes[f"{item.id}:{path}"] = hashlib.sha256(data).hexdigest()
    return hashes


def save_or_compare(current: dict[str, dict[str, str]], save: Path | None, compare: Path | None) -> None:
    """Write ``current`` (key -> {file: hash}) to ``save``, or print per key whether it matches ``compare``'s and
    exit 1 when any differs or is missing."""
    if save is not None:
        save.write_text(json.dumps(current, indent=0, sort_keys=True))
        print(f"saved {sum(len(v) for v in current.values())} hashes to {save}")
        return
    assert compare is not None
    saved = json.loads(compare.read_text())
    failures = 0
    for key, hashes in current.items():
        before = saved.get(key)
        if before is None:
            print(f"{key}: not in {compare}")
            failures += 1
            continue
        differing = sorted(k for k in hashes.keys() | before.keys() if hashes.get(k) != before.get(k))
        failures += bool(differing)
        status = "identical" if not differing else f"{len(differing)} differ, first: {', '.join(differing[:3])}"
        print(f"{key}: {len(hashes)} hashes, {status}")
    sys.exit(1 if failures else 0)
