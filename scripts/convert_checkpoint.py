"""Converts checkpoints both ways between TF's layout and one safetensors file (no TF needed).

    python scripts/convert_checkpoint.py SRC OUT [--to {tf,safetensors}] [--to-names] [--strict]

SRC is a checkpoint prefix (`model.ckpt-1000`: a TF V2 checkpoint, one tf1compat wrote,
or an earlier tf1compat `.safetensors` file) or a directory with a `checkpoint` state
file (its latest checkpoint is used).

* `--to tf` (the default): `OUT.index` + `OUT.data-00000-of-00001`, TF's layout, which
  TensorFlow restores (`tf.train.Saver`, `tf.train.load_checkpoint`,
  `tf.train.Checkpoint`) and whose data shard `safetensors.torch.load_file` reads;
* `--to safetensors` (or an OUT ending in `.safetensors`): `OUT.safetensors`, one file
  in tf1compat's earlier format.

Keys are kept (partitioned variables become one full tensor; object-based checkpoints
keep their object graph). `--to-names` renames object-based keys
(`model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE`) to variable names (`dense/kernel`) using
the object graph, for `tf.train.Saver`; `--strict` fails instead of keeping a key that has
no unique variable name.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", help="checkpoint prefix or directory")
    parser.add_argument("out", help="output prefix")
    parser.add_argument("--to", choices=("tf", "safetensors"), default=None,
                        help="output layout (default: safetensors if OUT ends in "
                             ".safetensors, else tf)")
    parser.add_argument("--to-names", action="store_true",
                        help="rename object-based keys to variable names")
    parser.add_argument("--strict", action="store_true",
                        help="with --to-names: fail if a key has no unique variable name")
    args = parser.parse_args(argv)
    from tf1compat.training.saving.checkpoint_convert import convert_checkpoint
    summary = convert_checkpoint(args.src, args.out, to=args.to, to_names=args.to_names,
                                 strict=args.strict)
    kind = "an object-based" if summary["object_based"] else "a name-based"
    print(f"wrote {summary['path']} ({summary['format']}): {summary['tensors']} tensors from "
          f"{kind} checkpoint"
          + (f", {len(summary['renamed'])} renamed" if summary["renamed"] else ""))
    for new, old in sorted(summary["renamed"].items()):
        print(f"  {old} -> {new}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
