#include "cli/output.hpp"

#include <cerrno>
#include <cstring>

#include "core/text.hpp"

namespace gpudoctor {

OutputError::OutputError(int errno_value)
    : std::runtime_error(std::string("cannot write output: ") + std::strerror(errno_value)),
      errno_value_(errno_value) {}

void write_output(std::string_view text, std::FILE* stream) {
  const std::string safe = output_safe(text);
  errno = 0;
  const bool written = std::fwrite(safe.data(), 1, safe.size(), stream) == safe.size();
  // Flushed at once: a full disk or a closed descriptor shows up here, not silently at exit.
  if (!written || std::fflush(stream) != 0) throw OutputError(errno != 0 ? errno : EIO);
}

}  // namespace gpudoctor
