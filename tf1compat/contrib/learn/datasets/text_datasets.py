"""`tf.contrib.learn.datasets.text_datasets` (TF 1.15): the DBpedia ontology dataset.

`load_dbpedia(size)` downloads and unpacks the DBpedia CSVs into
`$TF_EXP_BASE_DIR/dbpedia_data` once; size "small" keeps every 1000th row (shrink_csv).
`test_with_fake_data=True` reads the two tiny CSVs TF 1.15 ships (copied in `data/`).
"""

from __future__ import annotations

import os
import tarfile

import numpy as np

from tf1compat.contrib.learn.datasets import base
from tf1compat.util import gfile

__all__ = ["DBPEDIA_URL", "maybe_download_dbpedia", "load_dbpedia"]

DBPEDIA_URL = "https://github.com/le-scientifique/torchDatasets/raw/master/dbpedia_csv.tar.gz"


def maybe_download_dbpedia(data_dir: str) -> None:
    """Downloads and unpacks `dbpedia_csv/{train,test}.csv` into `data_dir` if missing."""
    train_path = os.path.join(data_dir, "dbpedia_csv/train.csv")
    test_path = os.path.join(data_dir, "dbpedia_csv/test.csv")
    if not (gfile.Exists(train_path) and gfile.Exists(test_path)):
        archive_path = base.maybe_download("dbpedia_csv.tar.gz", data_dir, DBPEDIA_URL)
        with tarfile.open(archive_path, "r:*") as archive:
            archive.extractall(data_dir, filter="data")


def load_dbpedia(size: str = "small", test_with_fake_data: bool = False) -> base.Datasets:
    """DBpedia (class id, title, abstract) rows as Datasets(train, None, test): targets
    int32 (column 0), data the two text columns."""
    if not test_with_fake_data:
        data_dir = os.path.join(os.getenv("TF_EXP_BASE_DIR", ""), "dbpedia_data")
        maybe_download_dbpedia(data_dir)
        train_path = os.path.join(data_dir, "dbpedia_csv", "train.csv")
        test_path = os.path.join(data_dir, "dbpedia_csv", "test.csv")
        if size == "small":
            base.shrink_csv(train_path, 1000)
            base.shrink_csv(test_path, 1000)
            train_path = train_path.replace("train.csv", "train_small.csv")
            test_path = test_path.replace("test.csv", "test_small.csv")
    else:
        train_path = os.path.join(base._DATA_DIR, "text_train.csv")
        test_path = os.path.join(base._DATA_DIR, "text_test.csv")
    train = base.load_csv_without_header(train_path, target_dtype=np.int32,
                                         features_dtype=np.str_, target_column=0)
    test = base.load_csv_without_header(test_path, target_dtype=np.int32,
                                        features_dtype=np.str_, target_column=0)
    return base.Datasets(train=train, validation=None, test=test)
