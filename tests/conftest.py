"""Suite-wide settings.

On a CUDA machine (scripts/gpu_check.sh --full-suite runs the whole suite there, every
graph op placed on cuda:0) the goldens, recorded from TF's float32 CPU kernels, are
compared with full float32 GPU arithmetic: torch's cuDNN convolutions and RNNs otherwise
use TensorFloat-32 (10-bit mantissas) on Ampere and later GPUs.
"""

import torch

if torch.cuda.is_available():
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
