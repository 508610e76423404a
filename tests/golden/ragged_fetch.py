"""What the ragged golden cases record of their results: each fetched value (a RaggedTensor
as its nested list), its dtype and ragged_rank (0 for a dense result)."""

from tests.golden.harness import catch


def fetch(tf, out):
    """Runs the dict `out` of tensors / RaggedTensors in one session."""
    with tf.Session() as sess:
        got = sess.run(out)

    def plain(v):
        return v.to_list() if hasattr(v, "to_list") else v
    return {k: {"value": plain(v), "dtype": out[k].dtype.name,
                "ragged_rank": getattr(out[k], "ragged_rank", 0)} for k, v in got.items()}


def run_error(tf, build):
    """Builds and runs `build()`, recording its value or the error class (TF raises some of
    these when the op is built, tf1compat when it runs, or the other way round)."""
    def run():
        with tf.Session() as sess:
            v = sess.run(build())
            return v.to_list() if hasattr(v, "to_list") else v
    return catch(run)
