"""`tf.contrib.learn.datasets` (TF 1.15): `load_dataset(name)` for "iris", "boston",
"mnist" and "dbpedia", `load_iris`/`load_boston`, and the `base`, `mnist` and
`text_datasets` modules. The synthetic generators (`make_dataset`, `synthetic.circles` /
`spirals`) are not provided."""

# ruff: noqa: F401
from typing import Any

from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.learn.datasets import base, mnist, text_datasets

load_iris = base.load_iris
load_boston = base.load_boston

DATASETS = {
    "iris": base.load_iris,              # a base.Dataset
    "boston": base.load_boston,          # a base.Dataset
    "mnist": mnist.load_mnist,           # base.Datasets
    "dbpedia": text_datasets.load_dbpedia,
}


def load_dataset(name: str, size: str = "small", test_with_fake_data: bool = False) -> Any:
    """The dataset `name` (a key of DATASETS).

    Raises:
      ValueError: an unknown name.
    """
    if name not in DATASETS:
        raise ValueError(f"Name of dataset is not found: {name}")
    if name == "dbpedia":
        return DATASETS[name](size, test_with_fake_data)
    return DATASETS[name]()


__getattr__ = _missing("tf.contrib.learn.datasets")
