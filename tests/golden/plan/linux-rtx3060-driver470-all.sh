#!/usr/bin/env bash
# Written by `gpudoctor plan`. Review it before running it.
# Lines marked TODO are done by hand; commands for another shell are shown as comments.
set -euo pipefail

# ===== pytorch =====
# PyTorch 2.7 on Linux (cu118, CUDA 11.8, cuDNN 9.1.0.70, Python 3.11)
# ! PyTorch 2.7 cu118 has kernels for compute capability 8.6 (Ampere) (assumed from its CUDA toolkit's architecture list; its own list is not recorded, so this is not verified)

# NVIDIA driver 470.82.01 is new enough (>= 450.80.02)
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || echo 'nvidia-smi failed: is the NVIDIA driver installed?'

# Create a virtual environment 'torch27' with Python 3.11
python3.11 -m venv "$HOME/.venvs/torch27"
# shellcheck disable=SC1091
source "$HOME/.venvs/torch27/bin/activate"
python -m pip install --upgrade pip

# Install PyTorch 2.7
# The cu118 wheels bundle the CUDA runtime and cuDNN: no system CUDA toolkit is needed. torchvision and torchaudio are built for one exact torch: install them together, from the same index.
python -m pip install "torch==2.7.*" "torchvision==0.22.*" "torchaudio==2.7.*" --index-url https://download.pytorch.org/whl/cu118

# Check that PyTorch sees the GPU
python -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())"
gpudoctor

# ===== tensorflow =====
# TensorFlow 2.21 on Linux (tensorflow[and-cuda], CUDA 12.5, cuDNN 9.3, Python 3.11)
# ! driver 470.82.01 is older than 525.60.13, the minimum Linux driver for CUDA 12.5 builds: update the driver first

# Install NVIDIA Linux driver >= 525.60.13
# Or use your distribution's driver packages.
# TODO (by hand): install the NVIDIA driver >= 525.60.13 from https://www.nvidia.com/Download/index.aspx
drv=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)
if [ -z "$drv" ] || [ "$(printf '%s\n' '525.60.13' "$drv" | sort -V | head -n1)" != '525.60.13' ]; then
  echo "NVIDIA driver ${drv:-not found} is older than 525.60.13: update it (see the TODO above), then run this script again." >&2
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || echo 'nvidia-smi failed: is the NVIDIA driver installed?'

# Create a virtual environment 'tf221' with Python 3.11
python3.11 -m venv "$HOME/.venvs/tf221"
# shellcheck disable=SC1091
source "$HOME/.venvs/tf221/bin/activate"
python -m pip install --upgrade pip

# Install TensorFlow 2.21
# pip brings CUDA and cuDNN as nvidia-* wheels: no system CUDA toolkit or cuDNN is needed. Ranges, as 2.20: the newest CUDA 12.x wheels (runtime >= 12.5.82) and cuDNN 9.x (>= 9.3.0.75); NCCL >= 2.27.7. Its wheels are manylinux_2_27: glibc 2.27 or newer.
python -m pip install "tensorflow[and-cuda]==2.21.*"

# Check that TensorFlow sees the GPU
python -c "import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))"
gpudoctor

# ===== jax =====
# JAX 0.10.2 (jax[cuda13]) on Linux (CUDA 13.0, cuDNN 9.12.0.46, Python 3.11)
# ! driver 470.82.01 is older than 580, the minimum Linux driver for CUDA 13.0 builds: update the driver first

# Install NVIDIA Linux driver >= 580
# Or use your distribution's driver packages.
# TODO (by hand): install the NVIDIA driver >= 580 from https://www.nvidia.com/Download/index.aspx
drv=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)
if [ -z "$drv" ] || [ "$(printf '%s\n' '580.0' "$drv" | sort -V | head -n1)" != '580.0' ]; then
  echo "NVIDIA driver ${drv:-not found} is older than 580: update it (see the TODO above), then run this script again." >&2
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || echo 'nvidia-smi failed: is the NVIDIA driver installed?'

# Create a virtual environment 'jax' with Python 3.11
python3.11 -m venv "$HOME/.venvs/jax"
# shellcheck disable=SC1091
source "$HOME/.venvs/jax/bin/activate"
python -m pip install --upgrade pip

# Install JAX (jax[cuda13])
# The jax[cuda13] extra brings CUDA and cuDNN as pip wheels. Do not let LD_LIBRARY_PATH override them.
python -m pip install -U "jax[cuda13]==0.10.2"

# Check that JAX sees the GPU
python -c "import jax; print(jax.__version__, jax.devices())"
gpudoctor
