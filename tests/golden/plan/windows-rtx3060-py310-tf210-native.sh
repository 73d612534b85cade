#!/usr/bin/env bash
# Written by `gpudoctor plan`. Review it before running it.
# Lines marked TODO are done by hand; commands for another shell are shown as comments.
# Every command of this plan is for PowerShell: this script runs none of them. Write it with `gpudoctor plan ... --script powershell`.
set -euo pipefail

# ===== tensorflow<2.11 =====
# TensorFlow 2.10 on native Windows (CUDA 11.2, cuDNN 8.1, Python 3.10)
# ! TensorFlow 2.10 has no sm_86 kernels; it runs only through PTX JIT compilation (slow first start; not verified on this architecture)

# NVIDIA driver 537.13 is new enough (>= 461.33)
# (run in PowerShell) nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv

# Create a conda environment 'tf210' with Python 3.10
# conda provides the Python version the framework supports. (Once per machine: `conda init powershell`, then a new PowerShell.)
# (run in PowerShell) conda create -y -n tf210 python=3.10
# (run in PowerShell) conda activate tf210
# (run in PowerShell) conda install -y -c conda-forge cudatoolkit=11.2 cudnn=8.1.0
# (run in PowerShell) python -m pip install --upgrade pip

# Install TensorFlow 2.10
# TensorFlow's documented native-Windows recipe: conda's cudatoolkit 11.2 and cudnn 8.1.0, then pip install "tensorflow<2.11".
# (run in PowerShell) python -m pip install "tensorflow<2.11"

# Check that TensorFlow sees the GPU
# (run in PowerShell) python -c "import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))"
# (run in PowerShell) gpudoctor

# ===== torch =====
# PyTorch 2.14 on native Windows (cu126, CUDA 12.6, cuDNN 9.10.2.21, Python 3.10)

# NVIDIA driver 537.13 is new enough (>= 528.33)
# (run in PowerShell) nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv

# Create a virtual environment 'torch214' with Python 3.10
# Once per user, if Activate.ps1 fails with "running scripts is disabled on this system" (a default Windows client's Restricted execution policy): `Set-ExecutionPolicy -Scope CurrentUser RemoteSigned`.
# (run in PowerShell) py -3.10 -m venv "$HOME\.venvs\torch214"
# (run in PowerShell) & "$HOME\.venvs\torch214\Scripts\Activate.ps1"
# (run in PowerShell) python -m pip install --upgrade pip

# Install PyTorch 2.14
# The cu126 wheels bundle the CUDA runtime and cuDNN: no system CUDA toolkit is needed. torchvision and torchaudio are built for one exact torch: install them together, from the same index.
# (run in PowerShell) python -m pip install "torch==2.14.*" "torchvision==0.29.*" --index-url https://download.pytorch.org/whl/cu126

# Check that PyTorch sees the GPU
# (run in PowerShell) python -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())"
# (run in PowerShell) gpudoctor
