#pragma once
/// The one way gpudoctor starts another program: external tools (`nvcc --version`, Python),
/// the command `explain -- CMD` watches, and gpudoctor itself for isolated GPU tasks
/// (gpu/isolated_child.hpp). One file per platform: child_process_posix.cpp (posix_spawn,
/// so it is safe while other threads run) and child_process_win32.cpp (CreateProcessW and a
/// job object). See docs/child-processes.md.
#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor {

/// What one of the child's standard streams is connected to.
enum class ChildStdio {
  pipe,     ///< a pipe to us: stdin written with write_stdin, stdout/stderr read with wait/take_output
  inherit,  ///< ours
  null,     ///< the null device
};

enum class ChildStream { out, err };

struct EnvChange {
  std::string name;
  std::optional<std::string> value;  ///< nullopt: removed from the child's environment
};

struct ChildSpec {
  /// argv[0] is looked up on PATH when it has no slash and `program` is empty.
  std::vector<std::string> argv;
  /// The file to run instead of looking argv[0] up (this executable, for internal tasks).
  std::string program;
  ChildStdio in = ChildStdio::null;
  ChildStdio out = ChildStdio::pipe;
  ChildStdio err = ChildStdio::pipe;
  std::vector<EnvChange> env;  ///< applied to a copy of our environment
  /// A process group (POSIX) / job (Windows) of its own, so that kill() reaches everything it
  /// started. false: it stays in ours, as a command run from a shell does, so the terminal's
  /// Ctrl-C reaches it directly; kill() then reaches the child only.
  bool own_group = true;
};

struct ExitStatus {
  /// POSIX: killed by a signal (code = the signal); Windows: ended by an exception (code =
  /// the NTSTATUS, 0xC0000005 for an access violation).
  bool crashed = false;
  int code = 0;  ///< the exit status when not crashed
};

/// "exited with status 7", "died from SIGABRT (Aborted)", "died from
/// STATUS_ACCESS_VIOLATION (0xC0000005)".
std::string describe(const ExitStatus& status);

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;
  /// The most bytes of one stream held until take_output: beyond it the child is not read
  /// (it blocks on a full pipe), so memory stays bounded whatever it writes.
  static constexpr size_t kMaxPendingBytes = 256 * 1024;

  /// Errors: invalid_data (empty argv), not_found (no such program), permission_denied (not
  /// an executable file), io_error.
  static Result<ChildProcess> start(const ChildSpec& spec);

  ChildProcess(ChildProcess&&) noexcept;
  ChildProcess& operator=(ChildProcess&&) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  ///< a child still running is killed (with its group) and reaped

  /// Waits until output arrives, the child ends, or `until`. Returns whether anything
  /// happened (output read, the child reaped, a pipe closed).
  bool wait(Clock::time_point until);
  /// What arrived on a piped stream since the last call.
  std::string take_output(ChildStream stream);
  /// Whether a piped stream may still deliver: not at end of file and not let go of.
  [[nodiscard]] bool reading(ChildStream stream) const;
  /// Stops reading both pipes and closes them: a background grandchild may hold them open long
  /// after the child itself has ended.
  void stop_reading();
  /// Reaped: exit_status() and ended_at() are known.
  [[nodiscard]] bool ended() const { return state().ended; }
  [[nodiscard]] const ExitStatus& exit_status() const { return state().status; }
  [[nodiscard]] Clock::time_point ended_at() const { return state().ended_at; }
  /// Kills the child, and everything in its group when own_group, then reaps it. The group is
  /// killed even when the child itself has already ended. With own_group, Linux also kills
  /// every descendant that left the group (setsid()), found through /proc and stopped first
  /// so that none can fork while they are gathered.
  void kill();
  /// Writes all of `data` to a piped stdin. Error io_error when the child has closed it or
  /// ended (never SIGPIPE).
  Status write_stdin(std::string_view data);
  void close_stdin();
  [[nodiscard]] long id() const;  ///< process id

 private:
  /// What every platform's Impl records once the child is reaped.
  struct State {
    bool ended = false;
    ExitStatus status;
    Clock::time_point ended_at;
  };
  struct Impl;  ///< a State, and the platform's handles
  /// Defined with Impl, per platform, so that the rest of the class is common code.
  struct ImplDeleter {
    void operator()(Impl* impl) const;
  };
  [[nodiscard]] const State& state() const;
  static Result<ChildProcess> spawn(const ChildSpec& spec);  ///< per platform; argv not empty
  explicit ChildProcess(Impl* impl);
  std::unique_ptr<Impl, ImplDeleter> impl_;
  friend bool wait_any(std::span<ChildProcess* const> children, Clock::time_point until);
};

/// Waits on several children at once until one of them has output or ends, or `until`.
bool wait_any(std::span<ChildProcess* const> children, ChildProcess::Clock::time_point until);

/// The first and the last `half` bytes of a stream, in bounded memory (at most 3 * half while
/// collecting): a program's last words (a traceback, the real error after pages of warnings)
/// come after its chatter. run_to_end's streams and the isolated children's stderr keep this.
class HeadAndTail {
 public:
  explicit HeadAndTail(size_t half_bytes) : half_(half_bytes) {}
  void add(std::string_view chunk);
  /// The text kept, at most 2 * half (and the marker's line); a cut tail starts at its first whole line, after a line
  /// break of its own. `marked`: a line of dropped_marker() between the head and the tail
  /// (when something was dropped), for text read as is.
  std::string text(bool marked = false);
  /// Bytes cut from the middle so far (text() may cut a few more, to a line's start).
  [[nodiscard]] size_t dropped() const { return dropped_; }
  /// "[... 12345 bytes from the middle not kept ...]"
  static std::string dropped_marker(size_t bytes);

 private:
  void trim(size_t n);
  size_t half_;
  std::string head_;
  std::string tail_;
  size_t dropped_ = 0;
};

struct CollectedOutput {
  ExitStatus status;
  std::string out;  ///< at most max_bytes: the first half and the last half (whole lines)
  std::string err;
  size_t out_dropped = 0;  ///< bytes cut from the middle
  size_t err_dropped = 0;
};

/// Runs `spec` (stdout and stderr piped) to its end: until it has ended and both pipes are
/// closed. A stream longer than max_bytes keeps its head and its tail: a program's last words
/// (a traceback, a result line) come after its chatter. Errors: those of start, timeout
/// (killed with its group at the deadline).
Result<CollectedOutput> run_to_end(const ChildSpec& spec, std::chrono::milliseconds timeout, size_t max_bytes);

/// The running executable, to start it again for an internal task: /proc/self/exe on Linux
/// (works even when the file was replaced since), GetModuleFileNameW on Windows.
Result<std::string> current_executable();

/// Replaces the running program with argv (argv[0] a path), keeping the process, its
/// environment and descriptors: how `gpudoctor fleet` becomes gpudoctor-fleet under mpirun,
/// whose rank environment must reach MPI_Init in the same process. Returns only on failure;
/// unsupported on Windows (no MPI build there).
Status replace_process(const std::vector<std::string>& argv);

/// An internal task's side of its pipes to the parent. take() moves stdin and stdout to
/// private descriptors and points the standard ones at the null device, so that what a vendor
/// library prints (or reads) never mixes with the task's answer. stderr stays ours: a
/// library's error message still reaches the user.
class ParentPipe {
 public:
  static ParentPipe take();
  ParentPipe(ParentPipe&&) noexcept;
  ParentPipe& operator=(ParentPipe&&) = delete;
  ParentPipe(const ParentPipe&) = delete;
  ParentPipe& operator=(const ParentPipe&) = delete;
  ~ParentPipe();
  /// Writes `line` and a newline at once, so a child killed mid-way leaves whole lines.
  /// false once the parent has gone.
  bool write_line(std::string_view line);
  /// The next line without its newline; false at end of input (the parent closed the pipe or
  /// ended). A line longer than max_bytes is cut there and the rest of it dropped.
  bool read_line(std::string& line, size_t max_bytes);

 private:
  ParentPipe() = default;
  /// Per platform: some bytes of input, 0 at its end; all of `data` to the parent.
  size_t read_input(char* buffer, size_t size);
  bool write_output(std::string_view data);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string buffer_;
  bool eof_ = false;
};

/// A last resort for a one-shot task whose parent died without killing it (POSIX: alarm;
/// Windows: nothing to do, the job object dies with the parent).
void exit_after(std::chrono::seconds seconds);

/// Called by a task child as it starts: a process its descendants leave behind (a vendor
/// library's helper that forks twice and calls setsid()) becomes the task's child instead of
/// init's, so it stays in the tree that kill() ends (Linux: PR_SET_CHILD_SUBREAPER; Windows:
/// nothing to do, the job object holds every descendant).
void keep_descendants();

/// While alive, Ctrl-C and Ctrl-\ do not end gpudoctor: a child left in our process group
/// (own_group = false) gets them from the terminal and decides, and its exit status says what
/// it decided. As system() does; restores the previous handling when it goes.
class InterruptsToChild {
 public:
  InterruptsToChild();
  ~InterruptsToChild();
  InterruptsToChild(const InterruptsToChild&) = delete;
  InterruptsToChild& operator=(const InterruptsToChild&) = delete;

 private:
  struct Saved;
  std::unique_ptr<Saved> saved_;
};

/// The status a shell would give: the exit status, or 128 + the signal (POSIX); Windows has
/// no signals and gives the exit code (an NTSTATUS for a crash) as it is.
int shell_exit_status(const ExitStatus& status);

/// Writes a child's output through to our own stdout or stderr, unchanged (no text-mode
/// translation). false when ours is closed.
bool pass_through(ChildStream to, std::string_view data);

/// argv as one Windows command line, quoted by the rules CommandLineToArgvW and the C runtime
/// read it back with. Pure text, so the tests check it on any host.
std::string windows_command_line(const std::vector<std::string>& argv);

}  // namespace gpudoctor
