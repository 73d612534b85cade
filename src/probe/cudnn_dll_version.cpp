#include "probe/cudnn_dll_version.hpp"

#include "probe/version_files.hpp"

namespace gpudoctor {

namespace {
// cudnn64_8.dll and cudnn64_9.dll are some 300 KB (they load the sub-libraries); cuDNN 7's
// single cudnn64_7.dll is hundreds of MB, whose resources past this bound leave it to the header.
constexpr size_t kMaxDllBytes = 64 * 1024 * 1024;
}  // namespace

Result<Version> cudnn_version_from_file_version(const PeFileVersion& file_version, int major) {
  const auto& p = file_version.parts;
  if (p[0] != major) {
    return Error{ErrorKind::invalid_data,
                 "file version " + file_version.str() + " is not a cuDNN " + std::to_string(major) + " version", "", 0};
  }
  return Version::of({p[0], p[1], p[2], p[3]});
}

void read_cudnn_dll_version(const SystemView& system, const std::string& dll_path, int major, DllLoad& load) {
  std::string why;
  if (auto bytes = system.read_head(dll_path, kMaxDllBytes); !bytes) {
    why = "cannot read it: " + bytes.error().message;
  } else if (auto fv = pe_file_version(*bytes); !fv) {
    why = "no file version: " + fv.error().message;
  } else if (auto v = cudnn_version_from_file_version(*fv, major); !v) {
    why = v.error().message;
  } else {
    load.version = *v;
    load.version_source = dll_path + " file version " + fv->str();
    return;
  }
  // The include folder beside the DLL's bin folder, as NVIDIA's zip lays them out.
  const std::string include = system.join(system.parent(system.parent(dll_path)), "include");
  for (const char* header : {"cudnn_version.h", "cudnn.h"}) {
    const std::string h = system.join(include, header);
    auto text = system.read_head(h, 256 * 1024);
    if (!text) continue;
    auto v = parse_cudnn_header(*text);
    if (!v) continue;
    if (v->major() != major) {
      why += "; " + h + " says cuDNN " + v->str() + ", another major";
      continue;
    }
    load.version = *v;
    load.version_source = h + " (" + why + ")";
    return;
  }
  load.version_problem = why + "; no cudnn_version.h or cudnn.h of cuDNN " + std::to_string(major) + " in " + include;
}

}  // namespace gpudoctor
