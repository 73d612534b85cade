#include "platform/child_process.hpp"

namespace gpudoctor {

ChildProcess::ChildProcess(Impl* impl) : impl_(impl) {}
ChildProcess::ChildProcess(ChildProcess&&) noexcept = default;
ChildProcess& ChildProcess::operator=(ChildProcess&&) noexcept = default;
ChildProcess::~ChildProcess() {
  if (impl_ && !ended()) kill();
}

Result<ChildProcess> ChildProcess::start(const ChildSpec& spec) {
  if (spec.argv.empty()) return Error{ErrorKind::invalid_data, "empty command", "", 0};
  return spawn(spec);
}

bool ChildProcess::wait(Clock::time_point until) {
  ChildProcess* self = this;
  return wait_any(std::span<ChildProcess* const>(&self, 1), until);
}

void HeadAndTail::add(std::string_view chunk) {
  size_t to_head = head_.size() < half_ ? std::min(chunk.size(), half_ - head_.size()) : 0;
  head_.append(chunk.substr(0, to_head));
  tail_.append(chunk.substr(to_head));
  if (tail_.size() > 2 * half_) trim(tail_.size() - half_);  // amortised: erase once per half
}

void HeadAndTail::trim(size_t n) {
  tail_.erase(0, n);
  dropped_ += n;
}

std::string HeadAndTail::text(bool marked) {
  if (tail_.size() > half_) trim(tail_.size() - half_);
  size_t nl = tail_.find('\n');
  bool whole_line = nl != std::string::npos && nl + 1 < tail_.size();
  if (dropped_ > 0 && whole_line) trim(nl + 1);  // at least the byte the separator takes: never over 2 * half
  if (dropped_ == 0) return head_ + tail_;
  std::string between = head_.ends_with('\n') || !whole_line ? "" : "\n";
  if (marked) between += (between.empty() && !head_.ends_with('\n') ? "\n" : "") + dropped_marker(dropped_) + "\n";
  return head_ + between + tail_;
}

std::string HeadAndTail::dropped_marker(size_t bytes) {
  return "[... " + std::to_string(bytes) + " bytes from the middle not kept ...]";
}

Result<CollectedOutput> run_to_end(const ChildSpec& spec, std::chrono::milliseconds timeout, size_t max_bytes) {
  ChildSpec piped = spec;
  piped.out = ChildStdio::pipe;
  piped.err = ChildStdio::pipe;
  auto started = ChildProcess::start(piped);
  if (!started) return started.error();
  ChildProcess& child = *started;
  const auto deadline = ChildProcess::Clock::now() + timeout;
  CollectedOutput result;
  HeadAndTail out(max_bytes / 2);
  HeadAndTail err(max_bytes / 2);
  // Both pipes closed does not mean the program ended (it may close them and linger), nor
  // the reverse (a grandchild may hold them): wait for both, never past the deadline.
  while (!child.ended() || child.reading(ChildStream::out) || child.reading(ChildStream::err)) {
    if (ChildProcess::Clock::now() >= deadline) {
      child.kill();
      return Error{ErrorKind::timeout, "no answer within " + std::to_string(timeout.count()) + " ms; killed",
                   spec.argv.front(), 0};
    }
    child.wait(deadline);
    out.add(child.take_output(ChildStream::out));
    err.add(child.take_output(ChildStream::err));
  }
  result.status = child.exit_status();
  result.out = out.text();
  result.err = err.text();
  result.out_dropped = out.dropped();
  result.err_dropped = err.dropped();
  return result;
}

bool ParentPipe::write_line(std::string_view line) {
  std::string data(line);
  data += '\n';
  return write_output(data);
}

bool ParentPipe::read_line(std::string& line, size_t max_bytes) {
  line.clear();
  bool dropping = false;
  for (;;) {
    size_t nl = buffer_.find('\n');
    size_t take = nl == std::string::npos ? buffer_.size() : nl;
    if (!dropping) line.append(buffer_, 0, std::min(take, max_bytes - line.size()));
    dropping = line.size() >= max_bytes;
    if (nl != std::string::npos) {
      buffer_.erase(0, nl + 1);
      return true;
    }
    buffer_.clear();
    if (eof_) return !line.empty();
    char chunk[4096];
    size_t n = read_input(chunk, sizeof chunk);
    if (n == 0) eof_ = true;
    buffer_.assign(chunk, n);
  }
}

std::string windows_command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& arg : argv) {
    if (!line.empty()) line += ' ';
    if (!arg.empty() && arg.find_first_of(" \t\n\v\"") == std::string::npos) {
      line += arg;
      continue;
    }
    // Backslashes are literal except before a quote: there each one doubles, and the quote
    // itself is escaped; before the closing quote they double too.
    line += '"';
    size_t backslashes = 0;
    for (char c : arg) {
      if (c == '\\') {
        ++backslashes;
        continue;
      }
      if (c == '"') {
        line.append(backslashes * 2 + 1, '\\');
      } else {
        line.append(backslashes, '\\');
      }
      backslashes = 0;
      line += c;
    }
    line.append(backslashes * 2, '\\');
    line += '"';
  }
  return line;
}

}  // namespace gpudoctor
