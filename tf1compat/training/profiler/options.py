"""`tf.profiler.ProfileOptionBuilder`: the option dictionaries tf.profiler.profile reads.

The presets (`float_operation`, `trainable_variables_parameter`, `time_and_memory`) and the
`with_*` / `select` / `order_by` builders produce TF's dictionaries key for key, so
options built for TF profile the same way here.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional

__all__ = ["ProfileOptionBuilder", "TRAINABLE_VARIABLES"]

# The extra op type tf.profiler gives the ops of tf.trainable_variables().
TRAINABLE_VARIABLES = "_trainable_variables"


def _preset(**changes: Any) -> Dict[str, Any]:
    options: Dict[str, Any] = {
        "max_depth": 10000, "min_bytes": 0, "min_micros": 0, "min_params": 0,
        "min_float_ops": 0, "min_occurrence": 0, "order_by": "name",
        "account_type_regexes": [".*"], "start_name_regexes": [".*"],
        "trim_name_regexes": [], "show_name_regexes": [".*"], "hide_name_regexes": [],
        "account_displayed_op_only": True, "select": ["micros"], "step": -1,
        "output": "stdout"}
    options.update(changes)
    return options


class ProfileOptionBuilder:
    """Builds the options dictionary of `tf.profiler.profile` (TF's keys and defaults)."""

    def __init__(self, options: Optional[Dict[str, Any]] = None):
        if options is not None:
            self._options = copy.deepcopy(options)
        else:
            self._options = _preset(max_depth=100, account_displayed_op_only=False)

    @staticmethod
    def trainable_variables_parameter() -> Dict[str, Any]:
        """Counts the parameters of the trainable variables, by name scope."""
        return _preset(account_type_regexes=[TRAINABLE_VARIABLES], select=["params"])

    @staticmethod
    def float_operation() -> Dict[str, Any]:
        """Counts the float operations of the ops TF has a flops statistic for."""
        return _preset(min_float_ops=1, order_by="float_ops", select=["float_ops"])

    @staticmethod
    def time_and_memory(min_micros: int = 1, min_bytes: int = 1,
                        min_accelerator_micros: int = 0, min_cpu_micros: int = 0,
                        min_peak_bytes: int = 0, min_residual_bytes: int = 0,
                        min_output_bytes: int = 0) -> Dict[str, Any]:
        """Shows execution time and memory (from the RunMetadata given to profile)."""
        options = _preset(min_bytes=min_bytes, min_micros=min_micros, order_by="micros",
                          select=["micros", "bytes"])
        extra = {"min_peak_bytes": min_peak_bytes, "min_residual_bytes": min_residual_bytes,
                 "min_output_bytes": min_output_bytes,
                 "min_accelerator_micros": min_accelerator_micros,
                 "min_cpu_micros": min_cpu_micros}
        ordered: Dict[str, Any] = {}
        for key, value in options.items():          # TF's key order
            ordered[key] = value
            if key == "min_bytes":
                for k in ("min_peak_bytes", "min_residual_bytes", "min_output_bytes"):
                    ordered[k] = extra[k]
            if key == "min_micros":
                for k in ("min_accelerator_micros", "min_cpu_micros"):
                    ordered[k] = extra[k]
        return ordered

    def build(self) -> Dict[str, Any]:
        """A copy of the options built so far."""
        return copy.deepcopy(self._options)

    def with_max_depth(self, max_depth: int) -> "ProfileOptionBuilder":
        self._options["max_depth"] = max_depth
        return self

    def with_min_memory(self, min_bytes: int = 0, min_peak_bytes: int = 0,
                        min_residual_bytes: int = 0,
                        min_output_bytes: int = 0) -> "ProfileOptionBuilder":
        self._options.update(min_bytes=min_bytes, min_peak_bytes=min_peak_bytes,
                             min_residual_bytes=min_residual_bytes,
                             min_output_bytes=min_output_bytes)
        return self

    def with_min_execution_time(self, min_micros: int = 0, min_accelerator_micros: int = 0,
                                min_cpu_micros: int = 0) -> "ProfileOptionBuilder":
        self._options.update(min_micros=min_micros,
                             min_accelerator_micros=min_accelerator_micros,
                             min_cpu_micros=min_cpu_micros)
        return self

    def with_min_parameters(self, min_params: int) -> "ProfileOptionBuilder":
        self._options["min_params"] = min_params
        return self

    def with_min_occurrence(self, min_occurrence: int) -> "ProfileOptionBuilder":
        self._options["min_occurrence"] = min_occurrence
        return self

    def with_min_float_operations(self, min_float_ops: int) -> "ProfileOptionBuilder":
        self._options["min_float_ops"] = min_float_ops
        return self

    def with_accounted_types(self, account_type_regexes: List[str]) -> "ProfileOptionBuilder":
        self._options["account_type_regexes"] = copy.copy(account_type_regexes)
        return self

    def with_node_names(self, start_name_regexes: Optional[List[str]] = None,
                        show_name_regexes: Optional[List[str]] = None,
                        hide_name_regexes: Optional[List[str]] = None,
                        trim_name_regexes: Optional[List[str]] = None
                        ) -> "ProfileOptionBuilder":
        for key, value in (("start_name_regexes", start_name_regexes),
                           ("show_name_regexes", show_name_regexes),
                           ("hide_name_regexes", hide_name_regexes),
                           ("trim_name_regexes", trim_name_regexes)):
            if value is not None:
                self._options[key] = copy.copy(value)
        return self

    def account_displayed_op_only(self, is_true: bool) -> "ProfileOptionBuilder":
        self._options["account_displayed_op_only"] = is_true
        return self

    def with_empty_output(self) -> "ProfileOptionBuilder":
        self._options["output"] = "none"
        return self

    def with_stdout_output(self) -> "ProfileOptionBuilder":
        self._options["output"] = "stdout"
        return self

    def with_file_output(self, outfile: str) -> "ProfileOptionBuilder":
        self._options["output"] = f"file:outfile={outfile}"
        return self

    def with_timeline_output(self, timeline_file: str) -> "ProfileOptionBuilder":
        self._options["output"] = f"timeline:outfile={timeline_file}"
        return self

    def with_pprof_output(self, pprof_file: str) -> "ProfileOptionBuilder":
        self._options["output"] = f"pprof:outfile={pprof_file}"
        return self

    def order_by(self, attribute: str) -> "ProfileOptionBuilder":
        self._options["order_by"] = attribute
        return self

    def select(self, attributes: List[str]) -> "ProfileOptionBuilder":
        self._options["select"] = copy.copy(attributes)
        return self

    def with_step(self, step: int) -> "ProfileOptionBuilder":
        self._options["step"] = step
        return self
