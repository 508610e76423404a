"""Golden cases that need two devices on a CPU-only machine: the CPU split in two.

TF allows the split only before its runtime starts (so such modules are recorded in a
process of their own); tf1compat allows it at any time, and the replay puts the device
configuration back after each case so that the two CPUs do not leak into other tests.
"""

import functools


def on_two_cpus(case):
    """`case(tf, devices)` run as a golden case `case(tf)`, `devices` being
    ["/cpu:0", "/cpu:1"] after splitting the CPU into two logical devices."""
    @functools.wraps(case)
    def run(tf):
        cpu = tf.config.list_physical_devices("CPU")[0]
        before = tf.config.get_logical_device_configuration(cpu)
        if not before:
            tf.config.set_logical_device_configuration(
                cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        try:
            return case(tf, ["/cpu:0", "/cpu:1"])
        finally:
            if not tf.__name__.startswith("tensorflow"):
                tf.config.set_logical_device_configuration(cpu, before)
    return run
