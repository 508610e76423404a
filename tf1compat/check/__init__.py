"""`tf1compat check`: a static scan of TF1 scripts for the TensorFlow names they use and
whether tf1compat supports them (report.py); the support answer itself (support.py) is
shared with scripts/gen_api_support.py."""

from tf1compat.check.report import Finding, Report, check_paths
from tf1compat.check.support import Support, support_of

__all__ = ["check_paths", "Report", "Finding", "Support", "support_of"]
