#pragma once
/// The version of a Windows cuDNN DLL (cudnn64_8.dll, cudnn64_9.dll), whose name gives only its
/// major. Two places state it, read in this order of trust:
/// - the DLL's own version resource: NVIDIA's cudnn64_8.dll of nvidia-cudnn-cu11 8.9.4.25 and
///   cudnn64_9.dll of nvidia-cudnn-cu12 9.10.2.21 (PyPI win_amd64 wheels, bin/) carry the cuDNN
///   version as their FileVersion (8.9.4.25, 9.10.2.21; FileDescription "NVIDIA cuDNN Library");
/// - the header next to it: NVIDIA's zip (bin\, include\, lib\), which the install guides copy
///   into CUDA\vX.Y\{bin,include,lib}, has include\cudnn_version.h (cuDNN 8 and later) or
///   include\cudnn.h (cuDNN 7 and earlier, whose cudnn.h defines CUDNN_MAJOR itself).
/// A version of another major than the file name's is not believed.
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "core/version.hpp"
#include "model/facts.hpp"
#include "platform/system_view.hpp"
#include "probe/pe_version.hpp"

namespace gpudoctor {

/// The cuDNN version a cuDNN DLL's file version states ("8.9.4.25"): an error when its major is
/// not `major` (the one the file name gives), so that a resource of some other product is not
/// taken for cuDNN's.
Result<Version> cudnn_version_from_file_version(const PeFileVersion& file_version, int major);

/// Reads the version of the cuDNN DLL at `dll_path` (of `major`) into `load`: version and
/// version_source, or version_problem saying what was tried. At most 64 MiB of the DLL are read.
void read_cudnn_dll_version(const SystemView& system, const std::string& dll_path, int major, DllLoad& load);

}  // namespace gpudoctor
