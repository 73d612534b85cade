#pragma once
/// Which CUDA major a cuDNN copy was built for, read from its own binaries. cuDNN 8 and 9 ship
/// one build per CUDA major (wheels nvidia-cudnn-cu11/-cu12/-cu13, tarballs _cuda12/_cuda13,
/// apt libcudnn9-cuda-12/-13); a pip wheel's name says which, any other copy does not. Every
/// build opens cuBLAS (and cuDNN 9's engines NVRTC) with dlopen by a versioned soname it keeps
/// in .rodata, and that soname's major is the CUDA major (CUDA 11: libcublas.so.11; 12:
/// libcublasLt.so.12; 13: libcublasLt.so.13). Real builds read: docs/knowledge-base.md.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

class SystemView;

struct CudnnCudaMajor {
  std::optional<int> major;  ///< empty: unknown (no marker, two majors named, unreadable file)
  std::string source;        ///< "libcudnn_adv.so.9 names libcublasLt.so.13"; empty when unknown
};

/// The CUDA major the CUDA library sonames in a table of NUL-terminated strings name
/// (libcublas.so.N, libcublasLt.so.N, libnvrtc.so.N[.M]); empty when none does, or when two
/// majors are named. `named` gets the first soname that counted.
std::optional<int> cuda_major_in_strings(std::string_view strings, std::string* named = nullptr);

/// The bytes of .rodata read at most (cuDNN 9.28's libcudnn_adv.so.9: 0.7 MiB; its
/// libcudnn_engines_precompiled.so.9: 3.9 MiB).
inline constexpr std::size_t kMaxCudnnRodata = 8u << 20;

/// The CUDA major of the cuDNN copy in `dir`, from the first of its sub-libraries there that
/// carries the marker: libcudnn_adv.so.9, then libcudnn_engines_precompiled.so.9 (cuDNN 9),
/// libcudnn_ops_infer.so.8 (cuDNN 8). Linux only.
CudnnCudaMajor cudnn_cuda_major(const SystemView& system, const std::string& dir);

}  // namespace gpudoctor
