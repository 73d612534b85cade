# Written by `gpudoctor plan`. Review it before running it.
# Lines marked TODO are done by hand; commands for another shell are shown as comments.
$ErrorActionPreference = 'Stop'
# A failing program does not stop PowerShell: each one's exit code is checked where it runs.
$global:LASTEXITCODE = 0

# ===== tensorflow<2.11 =====
# TensorFlow 2.10 on native Windows (CUDA 11.2, cuDNN 8.1, Python 3.10)
# ! TensorFlow 2.10 has no sm_86 kernels; it runs only through PTX JIT compilation (slow first start; not verified on this architecture)

# NVIDIA driver 537.13 is new enough (>= 461.33)
try { nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv; if ($LASTEXITCODE -ne 0) { throw 'nvidia-smi failed' } } catch { Write-Warning 'nvidia-smi failed: is the NVIDIA driver installed?' }

# Create a conda environment 'tf210' with Python 3.10
# conda provides the Python version the framework supports. (Once per machine: `conda init powershell`, then a new PowerShell.)
conda create -y -n tf210 python=3.10; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): conda create -y -n tf210 python=3.10') }
conda activate tf210; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): conda activate tf210') }
conda install -y -c conda-forge cudatoolkit=11.2 cudnn=8.1.0; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): conda install -y -c conda-forge cudatoolkit=11.2 cudnn=8.1.0') }
python -m pip install --upgrade pip; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): python -m pip install --upgrade pip') }

# Install TensorFlow 2.10
# TensorFlow's documented native-Windows recipe: conda's cudatoolkit 11.2 and cudnn 8.1.0, then pip install "tensorflow<2.11".
python -m pip install "tensorflow<2.11"; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): python -m pip install "tensorflow<2.11"') }

# Check that TensorFlow sees the GPU
python -c "import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices('GPU'))"; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): python -c "import tensorflow as tf; print(tf.__version__, tf.config.list_physical_devices(''GPU''))"') }
gpudoctor; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): gpudoctor') }

# ===== torch =====
# PyTorch 2.14 on native Windows (cu126, CUDA 12.6, cuDNN 9.10.2.21, Python 3.10)

# NVIDIA driver 537.13 is new enough (>= 528.33)
try { nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv; if ($LASTEXITCODE -ne 0) { throw 'nvidia-smi failed' } } catch { Write-Warning 'nvidia-smi failed: is the NVIDIA driver installed?' }

# Create a virtual environment 'torch214' with Python 3.10
# Once per user, if Activate.ps1 fails with "running scripts is disabled on this system" (a default Windows client's Restricted execution policy): `Set-ExecutionPolicy -Scope CurrentUser RemoteSigned`.
py -3.10 -m venv "$HOME\.venvs\torch214"; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): py -3.10 -m venv "$HOME\.venvs\torch214"') }
& "$HOME\.venvs\torch214\Scripts\Activate.ps1"; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): & "$HOME\.venvs\torch214\Scripts\Activate.ps1"') }
python -m pip install --upgrade pip; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): python -m pip install --upgrade pip') }

# Install PyTorch 2.14
# The cu126 wheels bundle the CUDA runtime and cuDNN: no system CUDA toolkit is needed. torchvision and torchaudio are built for one exact torch: install them together, from the same index.
python -m pip install "torch==2.14.*" "torchvision==0.29.*" --index-url https://download.pytorch.org/whl/cu126; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): python -m pip install "torch==2.14.*" "torchvision==0.29.*" --index-url https://download.pytorch.org/whl/cu126') }

# Check that PyTorch sees the GPU
python -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())"; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): python -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())"') }
gpudoctor; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): gpudoctor') }
