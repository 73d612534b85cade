# Written by `gpudoctor plan`. Review it before running it.
# Lines marked TODO are done by hand; commands for another shell are shown as comments.
# Every command of this plan is for bash: this script runs none of them. Write it with `gpudoctor plan ... --script bash`.
$ErrorActionPreference = 'Stop'
# A failing program does not stop PowerShell: each one's exit code is checked where it runs.
$global:LASTEXITCODE = 0

# ===== tensorflow =====
# TensorFlow 2.21 in WSL2 (tensorflow[and-cuda], CUDA 12.5, cuDNN 9.3, Python 3.10)

# NVIDIA driver 560.94 is new enough (>= 528.33)
# The driver lives on Windows, not inside WSL2: WSL2 reaches the GPU through the Windows driver.
# (run in bash) nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv

# Create a virtual environment 'tf221' with Python 3.10
# (run in bash) python3.10 -m venv "$HOME/.venvs/tf221"
# (run in bash) source "$HOME/.venvs/tf221/bin/activate"
# (run in bash) python -m pip install --upgrade pip

# Install TensorFlow 2.21
# pip brings CUDA and cuDNN as nvidia-* wheels: no system CUDA toolkit or cuDNN is needed. Ranges, as 2.20: the newest CUDA 12.x wheels (runtime >= 12.5.82) and cuDNN 9.x (>= 9.3.0.75); NCCL >= 2.27.7. Its wheels are manylinux_2_27: glibc 2.27 or newer.
# (run in bash) python -m pip install "tensorflow[and-cuda]==2.21.*"

# Check that TensorFlow sees the GPU
# (run in bash) python -c "import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))"
# (run in bash) gpudoctor

# ===== jax =====
# JAX 0.6.2 (jax[cuda12]) in WSL2 (CUDA 12.8, cuDNN 9.8, Python 3.10)
# ! JAX GPU support in WSL2 is experimental

# NVIDIA driver 560.94 is new enough (>= 528.33)
# The driver lives on Windows, not inside WSL2: WSL2 reaches the GPU through the Windows driver.
# (run in bash) nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv

# Create a virtual environment 'jax' with Python 3.10
# (run in bash) python3.10 -m venv "$HOME/.venvs/jax"
# (run in bash) source "$HOME/.venvs/jax/bin/activate"
# (run in bash) python -m pip install --upgrade pip

# Install JAX (jax[cuda12])
# The jax[cuda12] extra brings CUDA and cuDNN as pip wheels. Do not let LD_LIBRARY_PATH override them.
# (run in bash) python -m pip install -U "jax[cuda12]==0.6.2"

# Check that JAX sees the GPU
# (run in bash) python -c "import jax; print(jax.__version__, jax.devices())"
# (run in bash) gpudoctor
