#pragma once
/// LineJoiner: puts back together a message that the log broke over several lines, so that a
/// rule (matched one line at a time) sees it whole. Three shapes, all seen in real logs:
///  - a sentence hard-wrapped by a terminal, a mail client or an issue form: the next line goes
///    on in lower case ("...cannot open shared object" / "file: No such file or directory");
///  - a message whose head ends with ':' and whose body follows ("UserWarning:" / "NVIDIA
///    GeForce RTX 3090 with CUDA capability sm_86 is not compatible ...", XLA's statuses);
///  - a Python warning or exception whose further lines are indented (PyTorch's multi-line
///    warnings).
/// A line that starts a new log record (a timestamp, a glog or logger prefix, a traceback
/// frame) is never joined. A joined line is at most kMaxJoinedBytes and kMaxParts lines, and
/// carries the number of its first line.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace gpudoctor {

class LineJoiner {
 public:
  static constexpr size_t kMaxJoinedBytes = 2048;
  static constexpr size_t kMaxParts = 8;
  using LineSink = std::function<void(std::string_view line, std::uint64_t line_no)>;

  explicit LineJoiner(LineSink sink) : sink_(std::move(sink)) {}

  void add(std::string_view line, std::uint64_t line_no);
  /// As add(), but may take `line`'s buffer instead of copying it (it is left holding some
  /// other text): the usual line, which continues nothing, costs no copy.
  void take(std::string& line, std::uint64_t line_no);
  /// Delivers the line still held; call once at the end.
  void finish();

  /// Whether `next` continues the message that began with line `first` and whose last line
  /// is `last`.
  static bool continues(std::string_view first, std::string_view last, std::string_view next);

 private:
  LineSink sink_;
  std::string held_;
  std::uint64_t held_no_ = 0;
  size_t held_parts_ = 0;
  size_t first_end_ = 0;   ///< where the first physical line ends in held_
  size_t last_start_ = 0;  ///< where the last physical line begins in held_
  bool holding_ = false;

  /// Appends `line` to the held message when it continues it.
  bool extend(std::string_view line);
  void hold_started(std::uint64_t line_no);
};

}  // namespace gpudoctor
