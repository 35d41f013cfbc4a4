"""Targets written to a few decimals and reproduced from the file: does the synthesis environment call them solved?

For each seed, a target of 1 to 4 free simple folds is written as a ``.fold`` file with unit-square coordinates
rounded to ``--decimals``, read back with ``target_from_file``, and replayed fold step by fold step with the crease
coordinates rounded the same way (as the file gives them). Prints how many episodes end solved, the largest
``1 - exact IoU`` before the match rule, and the largest Hausdorff distance between the two folded outlines
(paper frame, side 10) beside the match distance the target's precision allows.

    python bench/synthesis_target_precision.py --targets 200 --decimals 9 --first-seed 1000
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np
import shapely

from foldbench.envs import OrigamiSynthesisEnv
from foldbench.origami.folded import silhouette_of
from foldbench.origami.metrics import geometric_similarity
from foldbench.origami.targets import match_distance, random_simple_fold_target, target_from_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, default=200)
    parser.add_argument("--decimals", type=int, default=9)
    parser.add_argument("--first-seed", type=int, default=1000)
    args = parser.parse_args()
    solved, worst_gap, worst_distance, allowed = 0, 0.0, 0.0, float("inf")
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.first_seed, args.first_seed + args.targets):
            rng = np.random.default_rng(seed)
            exact = random_simple_fold_target(rng, int(rng.integers(1, 5)), grid=None)
            fold = exact.to_dict()["fold"]
            coords = np.asarray(fold["vertices_coords"], float) / 10
            path = Path(folder) / f"target-{seed}.fold"
            path.write_text(json.dumps({**fold, "vertices_coords": np.round(coords, args.decimals).tolist()}))
            target = target_from_file(path)
            env = OrigamiSynthesisEnv(target=target, observation_mode="text", final_metrics=False)
            env.reset(seed=0)
            for action in exact.actions or ():
                creases = [{**c, "p1": [round(v, args.decimals - 1) for v in c["p1"]],
                            "p2": [round(v, args.decimals - 1) for v in c["p2"]]} for c in action["creases"]]
                *_, info = env.step({"action": "add_creases", "creases": creases})
            target_shape, result_shape = silhouette_of(target.aligned), silhouette_of(env.sheet.aligned)
            solved += env.gs == 1.0
            worst_gap = max(worst_gap, 1.0 - geometric_similarity(target_shape, result_shape))
            worst_distance = max(worst_distance, shapely.hausdorff_distance(target_shape, result_shape, densify=0.01))
            allowed = min(allowed, match_distance(target))
    print(f"{args.targets} targets written to {args.decimals} decimals (seeds {args.first_seed}..): "
          f"{solved} solved; largest 1 - exact IoU {worst_gap:.2e}; largest Hausdorff gap {worst_distance:.2e} "
          f"(smallest match distance allowed {allowed:.2e})")


if __name__ == "__main__":
    main()
