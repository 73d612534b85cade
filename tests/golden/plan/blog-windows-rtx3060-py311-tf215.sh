#!/usr/bin/env bash
# Written by `gpudoctor plan`. Review it before running it.
# Lines marked TODO are done by hand; commands for another shell are shown as comments.
# note: no driver version given (--driver VER): the plan states the minimum
set -euo pipefail

# ===== tensorflow==2.15 =====
# TensorFlow 2.15 in WSL2 (tensorflow[and-cuda], CUDA 12.2, cuDNN 8.9, Python 3.11)
# ! Python 3.12 is outside TensorFlow 2.15's range 3.9-3.11: use a new environment with Python 3.11
# ! TensorFlow 2.15 has no sm_86 kernels; it runs only through PTX JIT compilation (slow first start; not verified on this architecture)

# Install WSL2 with Ubuntu and run the next steps inside it
# Needs Windows 10 build 19044 (21H2) or newer. Do not install a Linux NVIDIA driver inside WSL2. Its Python is 3.12, whatever Python Windows has.
# TODO (by hand): wsl --install -d Ubuntu-24.04

# Install NVIDIA Windows driver >= 537.13
# The driver lives on Windows, not inside WSL2: WSL2 reaches the GPU through the Windows driver.
# TODO (by hand): install the NVIDIA driver >= 537.13 from https://www.nvidia.com/Download/index.aspx
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || echo 'nvidia-smi failed: is the NVIDIA driver installed?'

# Create a conda environment 'tf215' with Python 3.11
# A new environment, because the Python you have is outside the supported range.
curl -fsSLo /tmp/miniforge.sh https://github.com/conda-forge/miniforge/releases/latest/download/Miniforge3-Linux-x86_64.sh
bash /tmp/miniforge.sh -b -u -p "$HOME/miniforge3"
eval "$("$HOME/miniforge3/bin/conda" shell.bash hook)"
conda create -y -n tf215 python=3.11
conda activate tf215
python -m pip install --upgrade pip

# Install TensorFlow 2.15
# pip brings CUDA and cuDNN as nvidia-* wheels: no system CUDA toolkit or cuDNN is needed. Install 2.15.1 (the newest patch): 2.15.0's [and-cuda] also pinned tensorrt, which fails to resolve.
python -m pip install "tensorflow[and-cuda]==2.15.1"

# Check that TensorFlow sees the GPU
python -c "import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))"
gpudoctor
