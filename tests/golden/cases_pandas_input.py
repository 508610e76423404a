"""Golden cases: `tf.estimator.inputs.pandas_input_fn` (recorded under TF 2.15 +
tensorflow-estimator with pandas): the graph it builds, batches in order (the DataFrame's
index first, then its columns), a Series or DataFrame as `y`, epochs and the partial last
batch, TF's errors, and a LinearRegressor trained on it. pandas is a test dependency."""

import numpy as np

from tests.golden.estimator_util import as_py, capture_logs, drain, model_dir
from tests.golden.harness import catch

TF_VERSION = "2.15"


def _frame():
    import pandas as pd
    return pd.DataFrame({"b": np.arange(7, dtype=np.float32) / 2,
                         "a": np.arange(7, dtype=np.int64) * 3,
                         "s": [f"r{i}" for i in range(7)]},
                        index=np.arange(100, 107))


def case_pandas_input_fn_graph(tf):
    import pandas as pd
    out = {}
    for shuffle, epochs in ((False, 1), (True, None)):
        with tf.Graph().as_default() as g:
            features, labels = tf.estimator.inputs.pandas_input_fn(
                _frame(), pd.Series(np.arange(7.), index=np.arange(100, 107)),
                batch_size=3, num_epochs=epochs, shuffle=shuffle, queue_capacity=20)()
            out[f"ops_{shuffle}_{epochs}"] = [[op.name, op.type] for op in g.get_operations()]
            out[f"features_{shuffle}_{epochs}"] = {
                k: [t.name, t.dtype.name, t.shape.as_list()] for k, t in features.items()}
            out[f"labels_{shuffle}_{epochs}"] = [labels.name, labels.dtype.name,
                                                 labels.shape.as_list()]
    return out


def case_pandas_input_fn_order_and_labels(tf):
    import pandas as pd
    out = {}
    index = np.arange(100, 107)
    labels = {"series": pd.Series(np.arange(7.) * 10, index=index),
              "frame": pd.DataFrame({"y1": np.arange(7.), "y0": np.arange(7) % 2},
                                    index=index),
              "none": None}
    for name, y in labels.items():
        for epochs, batch in ((1, 3), (2, 5)):
            with tf.Graph().as_default():
                got = tf.estimator.inputs.pandas_input_fn(
                    _frame(), y, batch_size=batch, num_epochs=epochs, shuffle=False)()
                out[f"{name}_{epochs}_{batch}"] = drain(tf, got)
    return out


def case_pandas_input_fn_errors(tf):
    import pandas as pd
    x = _frame()
    return {
        "shuffle_required": catch(lambda: tf.estimator.inputs.pandas_input_fn(x), True),
        "index_mismatch": catch(lambda: tf.estimator.inputs.pandas_input_fn(
            x, pd.Series(np.arange(7.)), shuffle=False), True),
        "target_column_clash": catch(lambda: tf.estimator.inputs.pandas_input_fn(
            x, pd.Series(np.arange(7.), index=x.index), shuffle=False, target_column="a"),
            True),
        "frame_label_clash": catch(lambda: tf.estimator.inputs.pandas_input_fn(
            x, pd.DataFrame({"a": np.arange(7.)}, index=x.index), shuffle=False), True),
    }


def case_pandas_input_fn_linear_regressor(tf):
    import pandas as pd
    rng = np.random.RandomState(0)
    x = pd.DataFrame({"u": rng.rand(40).astype(np.float32),
                      "v": rng.rand(40).astype(np.float32)})
    y = pd.Series(2 * x["u"] - x["v"] + 0.5)
    columns = [tf.feature_column.numeric_column("u"), tf.feature_column.numeric_column("v")]
    with model_dir() as d:
        est = tf.estimator.LinearRegressor(columns, model_dir=d)
        with capture_logs(tf) as logs:
            est.train(tf.estimator.inputs.pandas_input_fn(x, y, batch_size=8, num_epochs=3,
                                                          shuffle=False))
        metrics = est.evaluate(tf.estimator.inputs.pandas_input_fn(
            x, y, batch_size=40, num_epochs=1, shuffle=False))
        preds = [p["predictions"] for p in est.predict(tf.estimator.inputs.pandas_input_fn(
            x.iloc[:5], batch_size=5, num_epochs=1, shuffle=False))]
    return {"metrics": as_py(metrics), "predictions": as_py(preds), "train_logs": logs}
