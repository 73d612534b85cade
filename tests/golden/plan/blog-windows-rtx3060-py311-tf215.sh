#!/usr/bin/env bash
# Written by `gpudoctor plan`. Review it before running it.
# Lines marked TODO are done by hand; commands for another shell are shown as comments.
# note: no driver version given (--driver VER): the plan states the minimum
set -euo pipefail

# ===== tensorflow==2.15 =====
# TensorFlow 2.15 in WSL2 (tensorflow[and-cuda], CUDA 12.2, cuDNN 8.9, Python 3.11)
# ! TensorFlow 2.15 has no sm_86 kernels; it runs only through PTX JIT compilation (slow first start; not verified on this architecture)

# Install WSL2 with Ubuntu and run the next steps inside it
# Needs Windows 10 build 19044 (21H2) or newer. Do not install a Linux NVIDIA driver inside WSL2.
# TODO (by hand): wsl --install -d Ubuntu

# Install NVIDIA Windows driver >= 537.13
# The driver lives on Windows, not inside WSL2: WSL2 reaches the GPU through the Windows driver.
# TODO (by hand): install the NVIDIA driver >= 537.13 from https://www.nvidia.com/Download/index.aspx
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || echo 'nvidia-smi failed: is the NVIDIA driver installed?'

# Create a virtual environment 'tf215' with Python 3.11
python3.11 -m venv "$HOME/.venvs/tf215"
# shellcheck disable=SC1091
source "$HOME/.venvs/tf215/bin/activate"
python -m pip install --upgrade pip

# Install TensorFlow 2.15
# pip brings CUDA and cuDNN as nvidia-* wheels: no system CUDA toolkit or cuDNN is needed. Install 2.15.1 (the newest patch): 2.15.0's [and-cuda] also pinned tensorrt, which fails to resolve.
python -m pip install "tensorflow[and-cuda]==2.15.1"

# Check that TensorFlow sees the GPU
python -c "import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))"
gpudoctor
