"""`tensorflow.python.client.timeline`: a traced run's StepStats as a Chrome trace.

`Timeline(run_metadata.step_stats).generate_chrome_trace_format(show_dataflow,
show_memory)` gives the JSON that chrome://tracing and Perfetto load, in TF's layout
(TF 1.15's python/client/timeline.py): process metadata ("Allocators", "<device> Compute",
"<device> Tensors"), one "X" region per node on lanes assigned as TF assigns them
(`thread_id` is rewritten), data-flow arrows between lanes, and with `show_memory` tensor
objects with snapshots and the allocators' memory counters. tf1compat's traced runs fill
the StepStats (runtime/step_stats.py); any StepStats proto works.
"""

from __future__ import annotations

import collections
import copy
import json
import re
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["AllocationMaximum", "StepStatsAnalysis", "Timeline"]


class AllocationMaximum(collections.namedtuple(
        "AllocationMaximum", ("timestamp", "num_bytes", "tensors"))):
    """An allocator's peak: when, how many bytes, and the names of the live tensors."""


class StepStatsAnalysis(collections.namedtuple(
        "StepStatsAnalysis", ("chrome_trace", "allocator_maximums"))):
    """What `Timeline.analyze_step_stats` returns: the trace and allocator peaks."""


class _ChromeTraceFormatter:
    """Collects Chrome trace events and formats them as TF does."""

    def __init__(self) -> None:
        self._events: List[Dict[str, Any]] = []
        self._metadata: List[Dict[str, Any]] = []

    @staticmethod
    def _event(ph: str, category: str, name: str, pid: int, tid: int,
               timestamp: int) -> Dict[str, Any]:
        return {"ph": ph, "cat": category, "name": name, "pid": pid, "tid": tid,
                "ts": timestamp}

    def emit_pid(self, name: str, pid: int) -> None:
        self._metadata.append({"name": "process_name", "ph": "M", "pid": pid,
                               "args": {"name": name}})

    def emit_region(self, timestamp: int, duration: int, pid: int, tid: int, category: str,
                    name: str, args: Dict[str, Any]) -> None:
        event = self._event("X", category, name, pid, tid, timestamp)
        event["dur"] = duration
        event["args"] = args
        self._events.append(event)

    def emit_object(self, ph: str, name: str, timestamp: int, pid: int, tid: int,
                    object_id: int, snapshot: Optional[Dict[str, Any]] = None) -> None:
        """A Tensor object's creation ("N"), deletion ("D") or snapshot ("O")."""
        event = self._event(ph, "Tensor", name, pid, tid, timestamp)
        event["id"] = object_id
        if snapshot is not None:
            event["args"] = {"snapshot": snapshot}
        self._events.append(event)

    def emit_flow(self, ph: str, name: str, timestamp: int, pid: int, tid: int,
                  flow_id: int) -> None:
        """One end of a data-flow arrow: "s" (start) or "t" (end)."""
        event = self._event(ph, "DataFlow", name, pid, tid, timestamp)
        event["id"] = flow_id
        self._events.append(event)

    def emit_counter(self, category: str, name: str, pid: int, timestamp: int,
                     counter: str, value: int) -> None:
        event = self._event("C", category, name, pid, 0, timestamp)
        event["args"] = {counter: value}
        self._events.append(event)

    def format_to_string(self, pretty: bool = False) -> str:
        trace = {"traceEvents": self._metadata + self._events}
        if pretty:
            return json.dumps(trace, indent=4, separators=(",", ": "))
        return json.dumps(trace, separators=(",", ":"))


class _TensorTracker:
    """One produced tensor: where, when, how large, and when it was last used."""

    def __init__(self, name: str, object_id: int, timestamp: int, pid: int, allocator: str,
                 num_bytes: int) -> None:
        self.name = name
        self.object_id = object_id
        self.create_time = timestamp
        self.pid = pid
        self.allocator = allocator
        self.num_bytes = num_bytes
        self.unref_times: List[int] = []

    @property
    def last_unref(self) -> int:
        return max(self.unref_times)


def _parse_op_label(label: str) -> Tuple[str, str, List[str]]:
    match = re.match(r"(.*) = (.*)\((.*)\)", label)
    if match is None:
        return "unknown", "unknown", []
    name, op, inputs = match.groups()
    return name, op, inputs.split(", ") if inputs else []


class Timeline:
    """The execution of one traced step, for visualization (not thread safe, as TF)."""

    def __init__(self, step_stats: Any, graph: Any = None) -> None:
        self._step_stats = step_stats
        self._graph = graph
        self._chrome_trace = _ChromeTraceFormatter()
        self._next_pid = 0
        self._device_pids: Dict[str, int] = {}
        self._tensor_pids: Dict[str, int] = {}
        self._tensors: Dict[str, _TensorTracker] = {}
        self._next_flow_id = 0
        self._flow_starts: Dict[str, Tuple[int, int, int]] = {}
        self._allocator_maximums: Dict[str, AllocationMaximum] = {}
        self._allocators_pid = 0

    def _alloc_pid(self) -> int:
        pid = self._next_pid
        self._next_pid += 1
        return pid

    def _assign_lanes(self) -> None:
        """Each node's `thread_id` becomes the first lane free at its start, as TF."""
        for device_stats in self._step_stats.dev_stats:
            lanes = [0]
            for ns in device_stats.node_stats:
                end = ns.all_start_micros + ns.all_end_rel_micros
                for i, lane_end in enumerate(lanes):
                    if ns.all_start_micros > lane_end:
                        lanes[i] = end
                        ns.thread_id = i
                        break
                else:
                    ns.thread_id = len(lanes)
                    lanes.append(end)

    @staticmethod
    def _is_gputrace_device(device_name: str) -> bool:
        return "/stream:" in device_name or "/memcpy" in device_name

    def _emit_op(self, ns: Any, pid: int, is_gputrace: bool) -> None:
        node_name, inputs = ns.node_name, []
        if is_gputrace:
            node_name, op = (node_name.split(":") + ["unknown"])[:2]
        elif node_name == "RecvTensor":
            op = "RecvTensor"
        else:
            _, op, inputs = _parse_op_label(ns.timeline_label)
        args = {"name": node_name, "op": op}
        for i, input_name in enumerate(inputs):
            args[f"input{i}"] = input_name
        self._chrome_trace.emit_region(ns.all_start_micros, ns.all_end_rel_micros, pid,
                                       ns.thread_id, "Op", op, args)

    def _allocate_pids(self) -> None:
        self._allocators_pid = self._alloc_pid()
        self._chrome_trace.emit_pid("Allocators", self._allocators_pid)
        for dev_stats in self._step_stats.dev_stats:
            device_pid = self._device_pids[dev_stats.device] = self._alloc_pid()
            tensors_pid = self._tensor_pids[dev_stats.device] = self._alloc_pid()
            self._chrome_trace.emit_pid(dev_stats.device + " Compute", device_pid)
            self._chrome_trace.emit_pid(dev_stats.device + " Tensors", tensors_pid)

    def _analyze_tensors(self, show_memory: bool) -> None:
        for dev_stats in self._step_stats.dev_stats:
            device_pid = self._device_pids[dev_stats.device]
            tensors_pid = self._tensor_pids[dev_stats.device]
            for ns in dev_stats.node_stats:
                tid, start = ns.thread_id, ns.all_start_micros
                end = start + ns.all_end_rel_micros
                for index, output in enumerate(ns.output):
                    name = f"{ns.node_name}:{index}" if index else ns.node_name
                    allocation = output.tensor_description.allocation_description
                    tensor = _TensorTracker(name, len(self._tensors), start, tensors_pid,
                                            allocation.allocator_name,
                                            allocation.requested_bytes)
                    self._tensors[name] = tensor
                    tensor.unref_times.append(end)
                    self._flow_starts[name] = (end, device_pid, tid)
                    if show_memory:
                        self._chrome_trace.emit_object("N", name, start, tensors_pid, tid,
                                                       tensor.object_id)
                        desc = str(output.tensor_description).replace('"', "")
                        self._chrome_trace.emit_object("O", name, end - 1, tensors_pid, tid,
                                                       tensor.object_id,
                                                       {"tensor_description": desc})

    def _show_compute(self, show_dataflow: bool) -> None:
        for dev_stats in self._step_stats.dev_stats:
            device_pid = self._device_pids[dev_stats.device]
            is_gputrace = self._is_gputrace_device(dev_stats.device)
            for ns in dev_stats.node_stats:
                tid, start = ns.thread_id, ns.all_start_micros
                end = start + ns.all_end_rel_micros
                self._emit_op(ns, device_pid, is_gputrace)
                if is_gputrace or ns.node_name == "RecvTensor":
                    continue
                for input_name in _parse_op_label(ns.timeline_label)[2]:
                    if input_name not in self._tensors:
                        index = input_name.rfind("/_")
                        if index > 0:
                            input_name = input_name[:index]
                    tensor = self._tensors.get(input_name)
                    if tensor is None:
                        continue        # a fed tensor or a constant: no producing node
                    tensor.unref_times.append(end - 1)
                    if show_dataflow:
                        create_time, create_pid, create_tid = self._flow_starts[input_name]
                        if create_pid != device_pid or create_tid != tid:
                            flow_id = self._next_flow_id
                            self._next_flow_id += 1
                            self._chrome_trace.emit_flow("s", input_name, create_time,
                                                         create_pid, create_tid, flow_id)
                            self._chrome_trace.emit_flow("t", input_name, start, device_pid,
                                                         tid, flow_id)

    def _show_memory_counters(self) -> None:
        allocations: Dict[str, List[Tuple[int, int, str]]] = {}
        for name, tensor in self._tensors.items():
            self._chrome_trace.emit_object("D", name, tensor.last_unref, tensor.pid, 0,
                                           tensor.object_id)
            records = allocations.setdefault(tensor.allocator, [])
            records.append((tensor.create_time, tensor.num_bytes, name))
            records.append((tensor.last_unref, -tensor.num_bytes, name))
        maxima: Dict[str, AllocationMaximum] = {}
        for allocator, records in allocations.items():
            records.sort()
            total, live = 0, set()
            maxima[allocator] = AllocationMaximum(timestamp=0, num_bytes=0, tensors=set())
            for timestamp, num_bytes, name in sorted(records, key=lambda r: r[0]):
                total += num_bytes
                if num_bytes < 0:
                    live.discard(name)
                else:
                    live.add(name)
                if total > maxima[allocator].num_bytes:
                    maxima[allocator] = AllocationMaximum(
                        timestamp=timestamp, num_bytes=total, tensors=copy.deepcopy(live))
                self._chrome_trace.emit_counter("Memory", allocator, self._allocators_pid,
                                                timestamp, allocator, total)
        self._allocator_maximums = maxima

    def analyze_step_stats(self, show_dataflow: bool = True,
                           show_memory: bool = True) -> StepStatsAnalysis:
        """The Chrome trace and the allocators' peaks of the step."""
        self._allocate_pids()
        self._assign_lanes()
        self._analyze_tensors(show_memory)
        self._show_compute(show_dataflow)
        if show_memory:
            self._show_memory_counters()
        return StepStatsAnalysis(chrome_trace=self._chrome_trace,
                                 allocator_maximums=self._allocator_maximums)

    def generate_chrome_trace_format(self, show_dataflow: bool = True,
                                     show_memory: bool = False) -> str:
        """The step as Chrome trace JSON (pretty-printed, as TF writes it)."""
        return self.analyze_step_stats(show_dataflow=show_dataflow,
                                       show_memory=show_memory
                                       ).chrome_trace.format_to_string(pretty=True)
