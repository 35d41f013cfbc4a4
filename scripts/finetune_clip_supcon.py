"""Fine-tune a CLIP image encoder on origami pictures with a supervised contrastive loss (the recipe behind the
published CLIP-based SS metric), for use with ``foldbench.envs.OpenClipEmbedder(weights=...)``.

Usage (needs ``pip install 'foldbench[clip]'``; a GPU helps):
    python scripts/finetune_clip_supcon.py PICTURES_DIR --out clip-origami.pt [--epochs 100]

``PICTURES_DIR`` holds one sub-folder per category (``animals/``, ``plants/``, ...) of PNG or JPEG pictures of
folded models. The recipe: CLIP ViT-B/16 from OpenAI's weights (or ``--init`` a checkpoint of yours); 90/10
train/validation split (seeded); the text tower frozen; batches of 32 drawn so that each holds at least two
pictures of every category it contains; loss

    L = -1/N sum_i 1/|P(i)| sum_{p in P(i)} log( exp(z_i . z_p / tau) / sum_{k != i} exp(z_i . z_k / tau) )

with z the L2-normalised image embeddings, P(i) the other pictures of i's category in the batch, tau = 0.07;
AdamW (learning rate 5e-6, weight decay 1e-3), cosine annealing over the epochs, gradient norm clipped at 1.0.
After each epoch it prints the mean cosine similarity of same-category pairs (intra), of different-category pairs
(inter) and their difference over all pictures, and the validation loss. The saved file is the model's state
dict, which ``open_clip.create_model_and_transforms("ViT-B-16", pretrained=PATH)`` loads.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SUFFIXES = (".png", ".jpg", ".jpeg")


def _require() -> tuple[Any, Any]:
    try:
        import open_clip
        import torch
    except ImportError as error:  # pragma: no cover - depends on the extra
        raise SystemExit("this script needs open_clip and torch: pip install 'foldbench[clip]'") from error
    return open_clip, torch


def pictures_by_category(folder: Path) -> dict[str, list[Path]]:
    """Every picture under ``folder``, grouped by its sub-folder (the category)."""
    grouped: dict[str, list[Path]] = {}
    for category in sorted(p for p in folder.iterdir() if p.is_dir()):
        files = sorted(p for p in category.rglob("*") if p.suffix.lower() in SUFFIXES)
        if files:
            grouped[category.name] = files
    if len(grouped) < 2:
        raise SystemExit(f"{folder}: need at least two category sub-folders with pictures")
    return grouped


def split(grouped: dict[str, list[Path]], seed: int, validation: float = 0.1) -> tuple[list, list]:
    """A seeded split per category: ``(path, label)`` lists for training and validation."""
    rng = random.Random(seed)
    train, held = [], []
    for label, (_, files) in enumerate(sorted(grouped.items())):
        shuffled = files[:]
        rng.shuffle(shuffled)
        cut = max(1, round(len(shuffled) * validation)) if len(shuffled) > 2 else 0
        held += [(p, label) for p in shuffled[:cut]]
        train += [(p, label) for p in shuffled[cut:]]
    return train, held


def balanced_batches(labels: list[int], batch_size: int, rng: random.Random) -> Iterator[list[int]]:
    """Batches of indices covering every picture once per epoch, two or more per category present."""
    by_label: dict[int, list[int]] = defaultdict(list)
    for index, label in enumerate(labels):
        by_label[label].append(index)
    pools = {label: rng.sample(indices, len(indices)) for label, indices in by_label.items() if len(indices) >= 2}
    while pools:
        batch: list[int] = []
        for label in rng.sample(sorted(pools), len(pools)):
            # a pool of three goes whole (one left over could not pair); it must fit as a whole
            take = 2 if len(pools[label]) != 3 else 3
            if len(batch) + take > batch_size:
                break
            batch += pools[label][:take]
            pools[label] = pools[label][take:]
            if len(pools[label]) < 2:
                del pools[label]
        if len(batch) < 4:
            return
        yield batch


def has_pair(labels: list[int]) -> bool:
    """Whether two of the labels are equal (the supervised contrastive loss needs a positive pair)."""
    return len(set(labels)) < len(labels)


def supcon_loss(torch: Any, embeddings: Any, labels: Any, temperature: float = 0.07) -> Any:
    """The supervised contrastive loss of L2-normalised embeddings (see the module docstring)."""
    logits = embeddings @ embeddings.T / temperature
    eye = torch.eye(len(labels), dtype=torch.bool, device=embeddings.device)
    logits = logits.masked_fill(eye, float("-inf"))
    log_probability = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    positives = (labels[:, None] == labels[None, :]) & ~eye
    counts = positives.sum(dim=1)
    has = counts > 0
    per_anchor = -(log_probability.masked_fill(~positives, 0.0).sum(dim=1)[has] / counts[has])
    return per_anchor.mean()


def separation(torch: Any, embeddings: Any, labels: Any) -> tuple[float, float]:
    """Mean cosine similarity of same-category pairs and of different-category pairs."""
    similarity = embeddings @ embeddings.T
    same = labels[:, None] == labels[None, :]
    off_diagonal = ~torch.eye(len(labels), dtype=torch.bool, device=embeddings.device)
    return float(similarity[same & off_diagonal].mean()), float(similarity[~same].mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pictures", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--model", default="ViT-B-16")
    parser.add_argument("--init", default="openai", help="open_clip pretrained tag or a checkpoint path")
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-6)
    parser.add_argument("--weight-decay", type=float, default=1e-3)
    parser.add_argument("--temperature", type=float, default=0.07)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cuda")
    arguments = parser.parse_args()
    open_clip, torch = _require()
    from PIL import Image

    torch.manual_seed(arguments.seed)
    rng = random.Random(arguments.seed)
    device = arguments.device if arguments.device != "cuda" or torch.cuda.is_available() else "cpu"
    model, _, preprocess = open_clip.create_model_and_transforms(arguments.model, pretrained=arguments.init,
                                                                 device=device)
    for name, parameter in model.named_parameters():
        parameter.requires_grad = name.startswith("visual.")
    train, held = split(pictures_by_category(arguments.pictures), arguments.seed)
    every = train + held

    def encode(indices: list[int], data: list) -> tuple[Any, Any]:
        images = torch.stack([preprocess(Image.open(data[i][0]).convert("RGB")) for i in indices]).to(device)
        labels = torch.tensor([data[i][1] for i in indices], device=device)
        return torch.nn.functional.normalize(model.encode_image(images), dim=-1), labels

    trainable = [p for p in model.parameters() if p.requires_grad]
    optimiser = torch.optim.AdamW(trainable, lr=arguments.lr, weight_decay=arguments.weight_decay)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=arguments.epochs)
    for epoch in range(1, arguments.epochs + 1):
        model.train()
        for batch in balanced_batches([label for _, label in train], arguments.batch_size, rng):
            embeddings, labels = encode(batch, train)
            loss = supcon_loss(torch, embeddings, labels, arguments.temperature)
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainable, max_norm=1.0)
            optimiser.step()
        schedule.step()
        model.eval()
        with torch.no_grad():
            chunks = [encode(list(range(i, min(i + 64, len(every)))), every) for i in range(0, len(every), 64)]
            embeddings = torch.cat([c[0] for c in chunks])
            labels = torch.cat([c[1] for c in chunks])
            intra, inter = separation(torch, embeddings, labels)
            held_text = "n/a (no two held-out pictures share a category)"
            if has_pair([label for _, label in held]):
                held_loss = supcon_loss(torch, *encode(list(range(len(held))), held), arguments.temperature)
                held_text = f"{float(held_loss):.4f}"
        print(f"epoch {epoch}: intra {intra:.4f} inter {inter:.4f} delta {intra - inter:.4f} "
              f"validation loss {held_text}")
    torch.save(model.state_dict(), arguments.out)
    print(f"saved {arguments.out}")


if __name__ == "__main__":
    main()
