"""Golden cases: `tf.contrib.learn.datasets.base`'s CSV loaders on the CSV files TF 1.15
ships. The oracle is TF 1.15's own base.py run under TF 2.21 (scripts/oracle_contrib.py);
its load_iris/load_boston name numpy aliases numpy 2 removed (np.int, np.float), so the
cases call the loaders they wrap with those dtypes' numpy 2 names."""

import os

import numpy as np


def _base(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        base = contrib.learn.datasets.base
        return base, base._DATA_DIR
    import oracle_contrib
    base = oracle_contrib.tf115_package("contrib.learn.python.learn.datasets", ["base"])
    root = os.environ.get("TF115_SRC", "/tmp/tf115src/tensorflow_core")
    return base, os.path.join(root, "contrib", "learn", "python", "learn", "datasets", "data")


def case_load_csv_with_header(tf):
    base, data = _base(tf)
    iris = base.load_csv_with_header(os.path.join(data, "iris.csv"), np.int_, np.float64)
    boston = base.load_csv_with_header(os.path.join(data, "boston_house_prices.csv"),
                                       np.float64, np.float64)
    first = base.load_csv_with_header(os.path.join(data, "iris.csv"), np.int32, np.float32,
                                      target_column=0)
    return {"iris": [iris.data, iris.target], "boston": [boston.data, boston.target],
            "target_first": [first.data[:5], first.target[:5]]}


def case_load_csv_without_header(tf):
    base, data = _base(tf)
    text = base.load_csv_without_header(os.path.join(data, "text_train.csv"), np.int32,
                                        np.str_, target_column=0)
    return {"data": text.data.tolist(), "target": text.target, "dtype": str(text.data.dtype)}
