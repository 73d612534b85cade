# Written by `gpudoctor plan`. Review it before running it.
# Lines marked TODO are done by hand; commands for another shell are shown as comments.
# note: no driver version given (--driver VER): the plan states the minimum
# Every command of this plan is for bash: this script runs none of them. Write it with `gpudoctor plan ... --script bash`.
$ErrorActionPreference = 'Stop'
# A failing program does not stop PowerShell: each one's exit code is checked where it runs.
$global:LASTEXITCODE = 0

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
# (run in bash) nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv

# Create a conda environment 'tf215' with Python 3.11
# A new environment, because the Python you have is outside the supported range.
# (run in bash) curl -fsSLo /tmp/miniforge.sh https://github.com/conda-forge/miniforge/releases/latest/download/Miniforge3-Linux-x86_64.sh
# (run in bash) bash /tmp/miniforge.sh -b -u -p "$HOME/miniforge3"
# (run in bash) eval "$("$HOME/miniforge3/bin/conda" shell.bash hook)"
# (run in bash) conda create -y -n tf215 python=3.11
# (run in bash) conda activate tf215
# (run in bash) python -m pip install --upgrade pip

# Install TensorFlow 2.15
# pip brings CUDA and cuDNN as nvidia-* wheels: no system CUDA toolkit or cuDNN is needed. Install 2.15.1 (the newest patch): 2.15.0's [and-cuda] also pinned tensorrt, which fails to resolve.
# (run in bash) python -m pip install "tensorflow[and-cuda]==2.15.1"

# Check that TensorFlow sees the GPU
# (run in bash) python -c "import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))"
# (run in bash) gpudoctor
