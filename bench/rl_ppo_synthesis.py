"""PPO on the synthesis environment over random targets: the figures the README and docs/reinforcement-learning.md
quote (held-out mean final GS of the blank square, the random policy and PPO before and after training, the
learning curve, wall time), from one run of ``examples/train_lattice_ppo.py``, written as JSON beside the picture.

    python bench/rl_ppo_synthesis.py --out docs/train_lattice_ppo.png --json docs/train_lattice_ppo.json

Extra arguments go to the example (``--timesteps``, ``--envs``, ``--seed``, ...). Needs ``foldbench[rl]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_lattice_ppo.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", type=Path, required=True, help="where to write the figures")
    args, rest = parser.parse_known_args()
    spec = importlib.util.spec_from_file_location("train_lattice_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example
    spec.loader.exec_module(example)
    summary = example.main(rest)
    record = {"command": " ".join(["python", "bench/rl_ppo_synthesis.py", *sys.argv[1:]]),
              "machine": f"{platform.machine()}, shared 2-core", **summary}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"figures: {args.json}")


if __name__ == "__main__":
    main()
