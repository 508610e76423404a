"""tf.profiler's text report: the options, the documentation of the selected columns and
the tree (scope view) or table (op view), in TF's layout, to stdout or a file.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Dict, List, Tuple

from tf1compat.training.profiler.views import ROOT, ScopeNode

__all__ = ["report_body", "write_report", "format_number"]

_OPTION_ORDER = ("max_depth", "min_bytes", "min_peak_bytes", "min_residual_bytes",
                 "min_output_bytes", "min_micros", "min_accelerator_micros",
                 "min_cpu_micros", "min_params", "min_float_ops", "min_occurrence", "step",
                 "order_by", "account_type_regexes", "start_name_regexes",
                 "trim_name_regexes", "show_name_regexes", "hide_name_regexes",
                 "account_displayed_op_only", "select", "output")
_VIEW_DOCS = {
    "scope": "scope: The nodes in the model graph are organized by their names, which is "
             "hierarchical like filesystem.",
    "op": "op: The nodes are operation kernel type, such as MatMul, Conv2D. Graph nodes "
          "belonging to the same type are aggregated together.",
}
_TIME_DOCS = {
    "micros": "total execution time: Sum of accelerator execution time and cpu execution "
              "time.",
    "cpu_micros": "cpu execution time: The time from the start to the end of the "
                  "operation. It's the sum of actual cpu run time plus the time that it "
                  "spends waiting if part of computation is launched asynchronously.",
    "accelerator_micros": "accelerator execution time: Time spent executing on the "
                          "accelerator. This is normally measured by the actual hardware "
                          "library.",
}
_DOCS = {
    "bytes": "requested bytes: The memory requested by the operation, accumulatively.",
    "output_bytes": "output bytes: The memory that is output from the operation (not "
                    "necessarily allocated by the operation)",
    "peak_bytes": "peak bytes: The peak amount of memory that the operation is holding at "
                  "some point.",
    "residual_bytes": "residual bytes: The memory not de-allocated after the operation "
                      "finishes.",
    "params": "param: Number of parameters (in the Variable).",
    "float_ops": "flops: Number of float operations. Note: Please read the implementation "
                 "for the math behind it.",
    "occurrence": "occurrence: The number of times it occurs",
    "tensor_value": "tensor_value: Not supported now.",
    "device": "device: which device is placed on.",
    "op_types": "op_types: The attributes of the operation, includes the Kernel name device "
                "placed on and user-defined strings.",
    "input_shapes": "input shape: The shape of input tensors",
}
# (select name, column header, statistic, unit formatter) in TF's column order.
_COLUMNS = (("params", "# parameters", "parameters", "params"),
            ("float_ops", "# float_ops", "float_ops", "flops"),
            ("bytes", "requested bytes", "requested_bytes", "memory"),
            ("peak_bytes", "peak bytes", "peak_bytes", "memory"),
            ("residual_bytes", "residual bytes", "residual_bytes", "memory"),
            ("output_bytes", "output bytes", "output_bytes", "memory"),
            ("micros", "total execution time", "exec_micros", "time"),
            ("accelerator_micros", "accelerator execution time", "accelerator_exec_micros",
             "time"),
            ("cpu_micros", "cpu execution time", "cpu_exec_micros", "time"),
            ("device", "assigned devices", "", ""),
            ("op_types", "op types", "", ""),
            ("occurrence", "op count (run|defined)", "run_count", "occurrence"),
            ("input_shapes", "input shapes", "", ""),
            ("tensor_value", "", "", ""))


def format_number(n: float) -> str:
    if n < 1000:
        return f"{int(n)}"
    if n < 1000000:
        return f"{n / 1000:.2f}k"
    if n < 1000000000:
        return f"{n / 1000000:.2f}m"
    return f"{n / 1000000000:.2f}b"


def _format_time(micros: float) -> str:
    if micros < 1000:
        return f"{int(micros)}us"
    if micros < 1000000:
        return f"{micros / 1000:.2f}ms"
    return f"{micros / 1000000:.2f}sec"


def _format_memory(n: float) -> str:
    if n < 1000:
        return f"{int(n)}B"
    if n < 1000000:
        return f"{n / 1000:.2f}KB"
    if n < 1000000000:
        return f"{n / 1000000:.2f}MB"
    return f"{n / 1000000000:.2f}GB"


_FORMATS: Dict[str, Callable[[float], str]] = {
    "time": _format_time, "memory": _format_memory, "params": format_number,
    "flops": format_number}


def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _options_text(options: Dict[str, Any]) -> str:
    lines = []
    for key in _OPTION_ORDER:
        value = options.get(key, 0)
        if key == "select":
            value = sorted(set(value))      # TF keeps the selection as a set
        if key == "output":
            kind, _, rest = str(value).partition(":")
            value = f"{kind}:{rest}"
        lines.append(f"-{key:<26} {_option_value(value)}")
    return "\n".join(lines)


def _selected(options: Dict[str, Any]) -> List[Tuple[str, str, str, str]]:
    select = set(options.get("select", []))
    if "micros" in select:          # total execution time comes with both of its parts
        select |= {"accelerator_micros", "cpu_micros"}
    if len(select) > 1:
        select.discard("tensor_value")  # a column of its own only when alone
    return [c for c in _COLUMNS if c[0] in select]


def _docs(view: str, options: Dict[str, Any]) -> str:
    """The view's documentation, then each selected attribute's in name order."""
    lines = [_VIEW_DOCS[view]]
    for key in sorted(set(options.get("select", []))):
        if key == "micros":
            lines.extend(_TIME_DOCS[t] for t in ("micros", "cpu_micros",
                                                 "accelerator_micros"))
        elif key in _TIME_DOCS:
            lines.append(_TIME_DOCS[key])
        elif key in _DOCS:
            lines.append(_DOCS[key])
    return "\n".join(lines)


def _scope_cell(node: ScopeNode, column: Tuple[str, str, str, str]) -> str:
    name, _, stat, unit = column
    is_op = node.stats is not None and node.name != ROOT
    if unit == "occurrence":
        own = f"{node.own('run_count')}|1" if is_op else "--|--"
        runs = node.totals.get("run_count", 0)
        own_runs, own_defs = own.split("|")
        return f"{own_runs}/{runs}|{own_defs}/{node.definitions}"
    if not stat:
        if name == "op_types":
            return "|".join(node.stats.op_types) if is_op else "_kTFScopeParent"
        if name == "device":
            return "|".join(node.stats.devices) if is_op else ""
        return ""
    fmt = _FORMATS[unit]
    own = fmt(node.own(stat)) if is_op else "--"
    text = f"{own}/{fmt(node.totals.get(stat, 0))}"
    if unit in ("params", "flops"):
        text += " params" if unit == "params" else " flops"
        if unit == "params" and is_op and node.stats.shape is not None and \
                node.own("parameters"):
            text = "x".join(str(d) for d in node.stats.shape) + ", " + text
    return text


def _scope_lines(node: ScopeNode, columns: List[Tuple[str, str, str, str]], depth: int,
                 out: List[str]) -> None:
    # An empty device cell is left out; other empty cells (input shapes) stay.
    cells = [_scope_cell(node, c) for c in columns]
    cells = [cell for cell, c in zip(cells, columns) if cell or c[0] != "device"]
    if columns and columns[0][0] == "occurrence" and len(columns) == 1:
        body = cells[0]
    else:
        body = ", ".join(cells)
    out.append(f"{'  ' * depth}{node.name} ({body})")
    for child in node.shown:
        _scope_lines(child, columns, depth + 1, out)


# The op view's columns, in TF's order: (select names, statistic, unit, label).
_OP_COLUMNS = ((("bytes",), "requested_bytes", "memory", ""),
               (("peak_bytes",), "peak_bytes", "memory", ""),
               (("residual_bytes",), "residual_bytes", "memory", ""),
               (("output_bytes",), "output_bytes", "memory", ""),
               (("micros",), "exec_micros", "time", ""),
               (("micros", "accelerator_micros"), "accelerator_exec_micros", "time", ""),
               (("micros", "cpu_micros"), "cpu_exec_micros", "time", ""),
               (("params",), "parameters", "params", " params"),
               (("float_ops",), "float_ops", "flops", " float_ops"))


def _op_lines(view: tuple, options: Dict[str, Any]) -> List[str]:
    """One line per shown group: the name in 25 columns, then each selected statistic
    right-aligned in 30 with the shares of the root's total of its total and its own."""
    groups, totals = view
    select = set(options.get("select", []))
    columns = [c for c in _OP_COLUMNS if select & set(c[0])]
    lines = []
    for group in groups:
        cells = []
        for _, stat, unit, label in columns:
            own = group.own[stat]
            rest = group.totals[stat]
            cumulative = 100.0 * rest / totals[stat] if rest > 0 else 0.0
            share = 100.0 * own / totals[stat] if rest > 0 else 0.0
            text = f"{_FORMATS[unit](own)}{label} ({cumulative:.2f}%, {share:.2f}%)"
            cells.append(f"{text:>30}")
        if "device" in select:
            cells.append("|".join(sorted({d for m in group.members for d in m.devices})))
        if "op_types" in select:
            cells.append("|".join(sorted({t for m in group.members for t in m.op_types})))
        if "occurrence" in select:
            runs = sum(m.run_count for m in group.members)
            cells.append(f"{f'{runs}|{len(group.members)}':>10}")
        lines.append(f"{group.name:<25}" + ", ".join(cells))
    return lines


def _op_header_columns(options: Dict[str, Any]) -> List[Tuple[str, str, str, str]]:
    """The op view's header columns, in its cell order (TF's names)."""
    select = set(options.get("select", []))
    by_stat = {c[2]: c for c in _COLUMNS if c[2]}
    out = [by_stat[stat] for names, stat, _, _ in _OP_COLUMNS if select & set(names)]
    out += [c for c in _COLUMNS if c[0] in ("device", "op_types") and c[0] in select]
    if "occurrence" in select:
        out.append(("occurrence", "op occurrence (run|defined)", "run_count", "occurrence"))
    return out


def report_body(view: str, options: Dict[str, Any], tree: Any) -> str:
    """The report TF writes to a file for a scope view (`tree`: the root ScopeNode) or an
    op view (`tree`: the shown OpGroups): the columns' documentation and the profile."""
    columns = _selected(options)
    if view == "op":
        columns = _op_header_columns(options)
    header = "node name | " + " | ".join(c[1] for c in columns)
    lines: List[str] = []
    if view == "scope":
        _scope_lines(tree, columns, 0, lines)
    else:
        lines = _op_lines(tree, options)
    return ("\nDoc:\n" + _docs(view, options) + "\n\nProfile:\n" + header + "\n"
            + "".join(line + "\n" for line in lines))


def _stdout_text(options: Dict[str, Any], body: str) -> str:
    """What TF prints to stdout: the options, then the report between banners."""
    return ("\n=========================Options=============================\n"
            + _options_text(options)
            + "\n\n==================Model Analysis Report======================\n"
            + body + "\n======================End of Report==========================\n")


def write_report(options: Dict[str, Any], body: str) -> None:
    """Sends the report where `options["output"]` says: stdout, `file:outfile=PATH`, or
    nowhere (`none`). timeline and pprof outputs are TF's trace formats: not written."""
    output = str(options.get("output", "stdout"))
    kind, _, rest = output.partition(":")
    if kind == "none":
        return
    if kind == "stdout":
        sys.stdout.write(_stdout_text(options, body))
        sys.stdout.flush()
        return
    if kind == "file":
        params = dict(p.split("=", 1) for p in rest.split(",") if "=" in p)
        if "outfile" not in params:
            raise ValueError(f"tf.profiler output {output!r}: file output needs outfile=")
        with open(params["outfile"], "w") as f:
            f.write(body)
        return
    raise NotImplementedError(f"tf.profiler output {output!r}: tf1compat writes the text "
                              "report to stdout or a file; TF's timeline and pprof trace "
                              "formats are not written")
