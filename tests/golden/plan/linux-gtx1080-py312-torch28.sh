#!/usr/bin/env bash
# Written by `gpudoctor plan`. Review it before running it.
# Lines marked TODO are done by hand; commands for another shell are shown as comments.
set -euo pipefail

# ===== torch==2.8 =====
# PyTorch 2.8 on Linux (cu126, CUDA 12.6, cuDNN 9.10.2.21, Python 3.12)
# ! PyTorch 2.8 cu126 has kernels for compute capability 6.1 (Pascal) (assumed from its CUDA toolkit's architecture list; its own list is not recorded, so this is not verified)

# NVIDIA driver 550.54.14 is new enough (>= 525.60.13)
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || echo 'nvidia-smi failed: is the NVIDIA driver installed?'

# Create a virtual environment 'torch28' with Python 3.12
python3.12 -m venv "$HOME/.venvs/torch28"
# shellcheck disable=SC1091
source "$HOME/.venvs/torch28/bin/activate"
python -m pip install --upgrade pip

# Install PyTorch 2.8
# The cu126 wheels bundle the CUDA runtime and cuDNN: no system CUDA toolkit is needed. torchvision and torchaudio are built for one exact torch: install them together, from the same index.
python -m pip install "torch==2.8.*" "torchvision==0.23.*" "torchaudio==2.8.*" --index-url https://download.pytorch.org/whl/cu126

# Check that PyTorch sees the GPU
python -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())"
gpudoctor
