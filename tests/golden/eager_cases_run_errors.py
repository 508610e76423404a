"""Eager golden cases: the messages of kernel failures on shapes TF's kernels refuse,
raised eagerly (graph mode: cases_run_errors.py)."""

from tests.golden.cases_run_errors import CASES


def case_eager_messages(tf):
    out = {}
    for name, (build, feeds) in CASES.items():
        try:
            build(tf, *[tf.constant(f) for f in feeds])
            out[name] = {"error": None}
        except tf.errors.OpError as e:
            # TF 2 prefixes the kernel's text with "{{function_node ...}} " and ends it with
            # " [Op:Type] name: ": the kernel's text and the op type are compared.
            text = e.message.split("}} ", 1)[-1]
            out[name] = {"error": type(e).__name__, "message": text.split(" [Op:")[0],
                         "op": text.split(" [Op:")[1].split("]")[0] if " [Op:" in text
                         else None}
        except (ValueError, TypeError) as e:
            out[name] = {"error": type(e).__name__}
    return out
