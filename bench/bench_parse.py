"""Reply parsing speed on adversarial replies: every parser, every hostile shape, up to 1 MB.

Usage: python bench/bench_parse.py [--sizes 32768,1000000] [--repeats 7]

For each size (by default the searched tail, :data:`foldbench.text.replies.SCAN_LIMIT`, where a whole reply is
searched, and 1 MB), each hostile shape (``src/foldbench/testing/hostile_text.py``) and each reply parser
(MentalBlackboard prediction and planning, Paper Folding Puzzles' letter), the median time over the repeats is
printed; the last line is the worst of them, against the target of 50 ms for any reply of up to 1 MB.
"""

from __future__ import annotations

import argparse
import statistics
import time

from foldbench.tasks.choice import parse_choice
from foldbench.tasks.mentalblackboard.answers import parse_planning, parse_prediction
from foldbench.testing.hostile_text import HOSTILE_REPLIES, hostile_reply

PARSERS = {"prediction": parse_prediction, "planning": parse_planning, "pfp-letter": parse_choice}
TARGET_MS = 50.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32768,1000000", help="characters per reply, comma-separated")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    worst = (0.0, "", "", 0)
    for size in (int(s) for s in args.sizes.split(",")):
        print(f"\n{size:,} characters: median ms per reply")
        print(f"{'shape':<22} " + " ".join(f"{name:>12}" for name in PARSERS))
        for shape in HOSTILE_REPLIES:
            text = hostile_reply(shape, size)
            row = []
            for name, parse in PARSERS.items():
                times = []
                for _ in range(args.repeats):
                    started = time.perf_counter()
                    parse(text)
                    times.append(time.perf_counter() - started)
                median_ms = statistics.median(times) * 1000
                row.append(median_ms)
                worst = max(worst, (median_ms, shape, name, size))
            print(f"{shape:<22} " + " ".join(f"{ms:12.2f}" for ms in row))
    verdict = "within" if worst[0] <= TARGET_MS else "OVER"
    where = f"{worst[1]}, {worst[2]}, {worst[3]:,} characters"
    print(f"\nworst: {worst[0]:.2f} ms ({where}), {verdict} the {TARGET_MS:g} ms target")


if __name__ == "__main__":
    main()
