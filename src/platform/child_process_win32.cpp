// Windows variant of the launcher: CreateProcessW with only the child's own handles
// inherited, overlapped named pipes (so one wait covers output, exit and the deadline, as
// poll() does on POSIX), and a job object that kills the whole tree and dies with us.
// Checked with mingw-w64 (-fsyntax-only); not yet run on Windows.
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cwchar>
#include <utility>

#include "platform/child_process.hpp"
#include "platform/win32_text.hpp"

namespace gpudoctor {

// Named, not anonymous: the Impl structs below hold these, and a member whose type is in an
// anonymous namespace is a warning where this file is built together with others (unity builds).
namespace win32_child {

/// Owns one handle.
class OwnedHandle {
 public:
  OwnedHandle() = default;
  explicit OwnedHandle(HANDLE h) : h_(h == INVALID_HANDLE_VALUE ? nullptr : h) {}
  OwnedHandle(OwnedHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  OwnedHandle& operator=(OwnedHandle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  OwnedHandle(const OwnedHandle&) = delete;
  OwnedHandle& operator=(const OwnedHandle&) = delete;
  ~OwnedHandle() { reset(); }
  void reset() {
    if (h_ != nullptr) ::CloseHandle(h_);
    h_ = nullptr;
  }
  [[nodiscard]] HANDLE get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  HANDLE h_ = nullptr;
};

}  // namespace win32_child

namespace {

using Clock = ChildProcess::Clock;
using win32::error_text;
using win32::widen;
using win32_child::OwnedHandle;

constexpr DWORD kReadChunk = 64 * 1024;

/// A pipe whose read end (ours) is overlapped: a named pipe with a unique name, as CreatePipe's
/// ends cannot be waited on with a deadline. The write end is inheritable.
bool make_output_pipe(OwnedHandle& read_end, OwnedHandle& write_end) {
  static std::atomic<unsigned long> counter{0};
  std::wstring name = L"\\\\.\\pipe\\gpudoctor-" + std::to_wstring(::GetCurrentProcessId()) + L"-" +
                      std::to_wstring(counter++) + L"-" + std::to_wstring(::GetTickCount64());
  read_end = OwnedHandle(
      ::CreateNamedPipeW(name.c_str(), PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE,
                         PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS, 1, kReadChunk,
                         kReadChunk, 0, nullptr));
  if (!read_end) return false;
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  write_end = OwnedHandle(
      ::CreateFileW(name.c_str(), GENERIC_WRITE, 0, &inherit, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
  return static_cast<bool>(write_end);
}

OwnedHandle null_device() {
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  return OwnedHandle(::CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                                   OPEN_EXISTING, 0, nullptr));
}

/// An inheritable copy of one of our standard handles; the null device when we have none.
OwnedHandle inherited_std(DWORD which) {
  HANDLE ours = ::GetStdHandle(which);
  HANDLE copy = nullptr;
  if (ours != nullptr && ours != INVALID_HANDLE_VALUE &&
      ::DuplicateHandle(::GetCurrentProcess(), ours, ::GetCurrentProcess(), &copy, 0, TRUE, DUPLICATE_SAME_ACCESS)) {
    return OwnedHandle(copy);
  }
  return null_device();
}

ErrorKind kind_for_create_error(DWORD code) {
  switch (code) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
      return ErrorKind::not_found;
    case ERROR_ACCESS_DENIED:
    case ERROR_BAD_EXE_FORMAT:
    case ERROR_EXE_MACHINE_TYPE_MISMATCH:
      return ErrorKind::permission_denied;
    default:
      return ErrorKind::io_error;
  }
}

bool same_name(const std::wstring& a, const std::wstring& b) {
  return ::CompareStringOrdinal(a.c_str(), static_cast<int>(a.size()), b.c_str(), static_cast<int>(b.size()), TRUE) ==
         CSTR_EQUAL;
}

std::wstring name_of(const std::wstring& entry) {
  // "=C:=C:\dir" entries start with '=': the name ends at the second one.
  return entry.substr(0, entry.find(L'=', 1));
}

/// Our environment with `changes` applied, as CreateProcessW's block: sorted by name without
/// regard to case, each entry ended by a NUL, the block by another.
std::wstring environment_block(const std::vector<EnvChange>& changes) {
  std::vector<std::wstring> entries;
  if (wchar_t* env = ::GetEnvironmentStringsW()) {
    for (const wchar_t* p = env; *p != L'\0'; p += std::wcslen(p) + 1) entries.emplace_back(p);
    ::FreeEnvironmentStringsW(env);
  }
  for (const EnvChange& c : changes) {
    std::wstring name = widen(c.name);
    std::erase_if(entries, [&](const std::wstring& e) { return same_name(name_of(e), name); });
    if (c.value) entries.push_back(name + L"=" + widen(*c.value));
  }
  std::sort(entries.begin(), entries.end(), [](const std::wstring& a, const std::wstring& b) {
    std::wstring na = name_of(a);
    std::wstring nb = name_of(b);
    return ::CompareStringOrdinal(na.c_str(), static_cast<int>(na.size()), nb.c_str(), static_cast<int>(nb.size()),
                                  TRUE) == CSTR_LESS_THAN;
  });
  std::wstring block;
  for (const std::wstring& e : entries) {
    block += e;
    block += L'\0';
  }
  block += L'\0';
  return block;
}

/// NTSTATUS values a crashed Windows program ends with (ntstatus.h).
const char* ntstatus_name(unsigned code) {
  switch (code) {
    case 0xC0000005u:
      return "STATUS_ACCESS_VIOLATION";
    case 0xC000001Du:
      return "STATUS_ILLEGAL_INSTRUCTION";
    case 0xC0000094u:
      return "STATUS_INTEGER_DIVIDE_BY_ZERO";
    case 0xC00000FDu:
      return "STATUS_STACK_OVERFLOW";
    case 0xC0000135u:
      return "STATUS_DLL_NOT_FOUND";
    case 0xC0000139u:
      return "STATUS_ENTRYPOINT_NOT_FOUND";
    case 0xC0000409u:
      return "STATUS_STACK_BUFFER_OVERRUN";
    case 0xC000013Au:
      return "STATUS_CONTROL_C_EXIT";
    default:
      return "an exception";
  }
}

ExitStatus status_of(DWORD code) {
  // Severity "error" (0xC...): the process ended from an exception, not by exiting.
  return ExitStatus{.crashed = (code & 0xF0000000u) == 0xC0000000u, .code = static_cast<int>(code)};
}

}  // namespace

namespace win32_child {

struct StreamPipe {
  OwnedHandle pipe;
  OwnedHandle event;
  OVERLAPPED ov{};
  std::vector<char> buffer = std::vector<char>(kReadChunk);
  bool in_flight = false;
  std::string pending;
};

}  // namespace win32_child

using win32_child::StreamPipe;

struct ChildProcess::Impl : ChildProcess::State {
  OwnedHandle process;
  OwnedHandle job;
  OwnedHandle stdin_pipe;
  DWORD pid = 0;
  bool own_group = true;
  StreamPipe streams[2];

  ~Impl() {
    for (StreamPipe& s : streams) close(s);
  }

  /// A read in flight must finish (or be cancelled) before its buffer goes.
  static void close(StreamPipe& s) {
    if (s.in_flight) {
      ::CancelIoEx(s.pipe.get(), &s.ov);
      DWORD n = 0;
      ::GetOverlappedResult(s.pipe.get(), &s.ov, &n, TRUE);
      s.in_flight = false;
    }
    s.pipe.reset();
  }

  bool try_reap() {
    if (ended || ::WaitForSingleObject(process.get(), 0) != WAIT_OBJECT_0) return false;
    DWORD code = 0;
    ::GetExitCodeProcess(process.get(), &code);
    ended = true;
    ended_at = Clock::now();
    status = status_of(code);
    return true;
  }

  /// Collects a finished read and starts the next one, until one is pending.
  static void pump(StreamPipe& s, bool& activity) {
    while (s.pipe) {
      if (s.in_flight) {
        DWORD n = 0;
        if (!::GetOverlappedResult(s.pipe.get(), &s.ov, &n, FALSE)) {
          if (::GetLastError() == ERROR_IO_INCOMPLETE) return;
          s.in_flight = false;
          s.pipe.reset();  // ERROR_BROKEN_PIPE: every writer has gone
          activity = true;
          return;
        }
        s.in_flight = false;
        s.pending.append(s.buffer.data(), n);
        if (n > 0) activity = true;
      }
      if (s.pending.size() >= kMaxPendingBytes) return;
      ::ResetEvent(s.event.get());
      s.ov = OVERLAPPED{};
      s.ov.hEvent = s.event.get();
      DWORD room = static_cast<DWORD>(std::min<size_t>(kReadChunk, kMaxPendingBytes - s.pending.size()));
      if (::ReadFile(s.pipe.get(), s.buffer.data(), room, nullptr, &s.ov) || ::GetLastError() == ERROR_IO_PENDING) {
        s.in_flight = true;  // done at once or later: collected through GetOverlappedResult
        continue;
      }
      s.pipe.reset();
      activity = true;
      return;
    }
  }
};

Result<ChildProcess> ChildProcess::spawn(const ChildSpec& spec) {
  auto impl = std::make_unique<Impl>();
  impl->own_group = spec.own_group;
  OwnedHandle child_std[3];
  const ChildStdio modes[3] = {spec.in, spec.out, spec.err};
  const DWORD std_ids[3] = {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};
  for (int fd = 0; fd < 3; ++fd) {
    bool ok = true;
    if (modes[fd] == ChildStdio::inherit) {
      child_std[fd] = inherited_std(std_ids[fd]);
    } else if (modes[fd] == ChildStdio::null) {
      child_std[fd] = null_device();
    } else if (fd == 0) {
      SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
      HANDLE r = nullptr;
      HANDLE w = nullptr;
      ok = ::CreatePipe(&r, &w, &inherit, 0) != 0;
      if (ok) {
        child_std[0] = OwnedHandle(r);
        impl->stdin_pipe = OwnedHandle(w);
        ::SetHandleInformation(w, HANDLE_FLAG_INHERIT, 0);
      }
    } else {
      StreamPipe& s = impl->streams[fd - 1];
      ok = make_output_pipe(s.pipe, child_std[fd]);
      s.event = OwnedHandle(::CreateEventW(nullptr, TRUE, FALSE, nullptr));
      ok = ok && s.event;
    }
    if (!ok || !child_std[fd]) {
      DWORD code = ::GetLastError();
      return Error{ErrorKind::io_error, error_text(code), "pipe", static_cast<int>(code)};
    }
  }
  // Only these three handles reach the child, whatever else is inheritable in this process.
  std::vector<HANDLE> handles;
  for (const OwnedHandle& h : child_std) {
    if (std::find(handles.begin(), handles.end(), h.get()) == handles.end()) handles.push_back(h.get());
  }
  SIZE_T list_size = 0;
  ::InitializeProcThreadAttributeList(nullptr, 1, 0, &list_size);
  std::vector<char> list_buffer(list_size);
  auto* list = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(list_buffer.data());
  if (!::InitializeProcThreadAttributeList(list, 1, 0, &list_size) ||
      !::UpdateProcThreadAttribute(list, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles.data(),
                                   handles.size() * sizeof(HANDLE), nullptr, nullptr)) {
    DWORD code = ::GetLastError();
    return Error{ErrorKind::io_error, error_text(code), "InitializeProcThreadAttributeList", static_cast<int>(code)};
  }
  STARTUPINFOEXW info{};
  info.StartupInfo.cb = sizeof info;
  info.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  info.StartupInfo.hStdInput = child_std[0].get();
  info.StartupInfo.hStdOutput = child_std[1].get();
  info.StartupInfo.hStdError = child_std[2].get();
  info.lpAttributeList = list;

  std::wstring command_line = widen(windows_command_line(spec.argv));
  std::wstring program = widen(spec.program);
  std::wstring env = spec.env.empty() ? std::wstring() : environment_block(spec.env);
  DWORD flags = CREATE_UNICODE_ENVIRONMENT | EXTENDED_STARTUPINFO_PRESENT | CREATE_SUSPENDED;
  if (spec.own_group) flags |= CREATE_NEW_PROCESS_GROUP;
  PROCESS_INFORMATION pi{};
  BOOL created = ::CreateProcessW(program.empty() ? nullptr : program.c_str(), command_line.data(), nullptr, nullptr,
                                  TRUE, flags, env.empty() ? nullptr : env.data(), nullptr, &info.StartupInfo, &pi);
  DWORD code = created ? 0 : ::GetLastError();
  ::DeleteProcThreadAttributeList(list);
  if (!created) {
    return Error{kind_for_create_error(code), "cannot run: " + error_text(code),
                 spec.program.empty() ? spec.argv[0] : spec.program, static_cast<int>(code)};
  }
  impl->process = OwnedHandle(pi.hProcess);
  OwnedHandle thread(pi.hThread);
  impl->pid = pi.dwProcessId;
  if (spec.own_group) {
    // The job kills the whole tree at once, ends it when we end (we hold its only handle),
    // and turns an unhandled exception into an exit instead of an error-report dialog.
    OwnedHandle job(::CreateJobObjectW(nullptr, nullptr));
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
    limits.BasicLimitInformation.LimitFlags =
        JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
    if (job && ::SetInformationJobObject(job.get(), JobObjectExtendedLimitInformation, &limits, sizeof limits) &&
        ::AssignProcessToJobObject(job.get(), pi.hProcess)) {
      impl->job = std::move(job);
    }
  }
  ::ResumeThread(thread.get());
  return ChildProcess(impl.release());
}

bool wait_any(std::span<ChildProcess* const> children, Clock::time_point until) {
  bool activity = false;
  std::vector<HANDLE> handles;
  for (ChildProcess* c : children) {
    ChildProcess::Impl& p = *c->impl_;
    if (p.try_reap()) activity = true;
    for (StreamPipe& s : p.streams) {
      ChildProcess::Impl::pump(s, activity);
      if (s.pending.size() >= ChildProcess::kMaxPendingBytes) activity = true;  // the caller takes it first
      if (s.pipe && s.in_flight) handles.push_back(s.event.get());
    }
    if (!p.ended) handles.push_back(p.process.get());
  }
  if (handles.empty()) return activity;
  long long wait_ms = 0;
  if (!activity) {
    wait_ms =
        std::clamp<long long>(std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count(), 0, 1'000'000);
  }
  if (handles.size() > MAXIMUM_WAIT_OBJECTS) {
    // More than one wait can watch: watch the first ones, look at the rest again soon.
    handles.resize(MAXIMUM_WAIT_OBJECTS);
    wait_ms = std::min<long long>(wait_ms, 10);
  }
  ::WaitForMultipleObjects(static_cast<DWORD>(handles.size()), handles.data(), FALSE, static_cast<DWORD>(wait_ms));
  for (ChildProcess* c : children) {
    ChildProcess::Impl& p = *c->impl_;
    for (StreamPipe& s : p.streams) ChildProcess::Impl::pump(s, activity);
    if (p.try_reap()) activity = true;
  }
  return activity;
}

std::string ChildProcess::take_output(ChildStream stream) {
  return std::exchange(impl_->streams[stream == ChildStream::out ? 0 : 1].pending, std::string());
}

bool ChildProcess::reading(ChildStream stream) const {
  return static_cast<bool>(impl_->streams[stream == ChildStream::out ? 0 : 1].pipe);
}

void ChildProcess::stop_reading() {
  for (StreamPipe& s : impl_->streams) Impl::close(s);
}

const ChildProcess::State& ChildProcess::state() const {
  return *impl_;
}

void ChildProcess::ImplDeleter::operator()(Impl* impl) const {
  delete impl;
}

void ChildProcess::kill() {
  Impl& p = *impl_;
  if (p.job) {
    ::TerminateJobObject(p.job.get(), 1);  // the whole tree, even when the child itself has ended
  } else if (!p.ended) {
    ::TerminateProcess(p.process.get(), 1);
  }
  if (p.ended) return;
  ::WaitForSingleObject(p.process.get(), 5000);
  if (!p.try_reap()) {
    p.ended = true;
    p.ended_at = Clock::now();
    p.status = ExitStatus{.crashed = true, .code = 1};
  }
  // Whatever was written before the kill is still in the pipe.
  bool ignored = false;
  for (StreamPipe& s : p.streams) Impl::pump(s, ignored);
}

Status ChildProcess::write_stdin(std::string_view data) {
  Impl& p = *impl_;
  if (!p.stdin_pipe) return Error{ErrorKind::io_error, "stdin is not a pipe, or was closed", "stdin", 0};
  while (!data.empty()) {
    DWORD n = 0;
    if (!::WriteFile(p.stdin_pipe.get(), data.data(), static_cast<DWORD>(std::min<size_t>(data.size(), 1 << 20)), &n,
                     nullptr)) {
      DWORD code = ::GetLastError();
      return Error{ErrorKind::io_error, error_text(code), "stdin", static_cast<int>(code)};
    }
    data.remove_prefix(n);
  }
  return Ok{};
}

void ChildProcess::close_stdin() {
  impl_->stdin_pipe.reset();
}

long ChildProcess::id() const {
  return static_cast<long>(impl_->pid);
}

std::string describe(const ExitStatus& status) {
  if (!status.crashed) return "exited with status " + std::to_string(status.code);
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08X", static_cast<unsigned>(status.code));
  return std::string("died from ") + ntstatus_name(static_cast<unsigned>(status.code)) + " (" + hex + ")";
}

int shell_exit_status(const ExitStatus& status) {
  return status.code;
}

Status replace_process(const std::vector<std::string>& argv) {
  return Error{ErrorKind::unsupported, "replacing the running program is not done on Windows",
               argv.empty() ? std::string() : argv[0]};
}

Result<std::string> current_executable() {
  std::wstring path(MAX_PATH, L'\0');
  for (;;) {
    DWORD n = ::GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
    if (n == 0) {
      DWORD code = ::GetLastError();
      return Error{ErrorKind::not_found, "cannot find this executable: " + error_text(code), "GetModuleFileNameW",
                   static_cast<int>(code)};
    }
    if (n < path.size()) return win32::narrow(path.substr(0, n));
    if (path.size() >= 32768) return Error{ErrorKind::too_large, "executable path too long", "", 0};
    path.resize(path.size() * 2);
  }
}

struct ParentPipe::Impl {
  OwnedHandle in;
  OwnedHandle out;
};

ParentPipe ParentPipe::take() {
  // Private, non-inheritable copies of the handles the parent gave us.
  HANDLE self = ::GetCurrentProcess();
  HANDLE in = nullptr;
  HANDLE out = nullptr;
  ::DuplicateHandle(self, ::GetStdHandle(STD_INPUT_HANDLE), self, &in, 0, FALSE, DUPLICATE_SAME_ACCESS);
  ::DuplicateHandle(self, ::GetStdHandle(STD_OUTPUT_HANDLE), self, &out, 0, FALSE, DUPLICATE_SAME_ACCESS);
  ParentPipe pipe;
  pipe.impl_ = std::make_unique<Impl>();
  pipe.impl_->in = OwnedHandle(in);
  pipe.impl_->out = OwnedHandle(out);
  // Both the C runtime's descriptors and the process's standard handles: vendor code may
  // write through either.
  std::fflush(stdout);
  if (std::freopen("NUL", "r", stdin) == nullptr) ::_close(0);
  if (std::freopen("NUL", "w", stdout) == nullptr) ::_close(1);
  HANDLE null_in =
      ::CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0, nullptr);
  HANDLE null_out =
      ::CreateFileW(L"NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0, nullptr);
  ::SetStdHandle(STD_INPUT_HANDLE, null_in);
  ::SetStdHandle(STD_OUTPUT_HANDLE, null_out);
  return pipe;
}

ParentPipe::ParentPipe(ParentPipe&&) noexcept = default;
ParentPipe::~ParentPipe() = default;

bool ParentPipe::write_output(std::string_view data) {
  while (!data.empty()) {
    DWORD n = 0;
    if (!::WriteFile(impl_->out.get(), data.data(), static_cast<DWORD>(data.size()), &n, nullptr) || n == 0) {
      return false;
    }
    data.remove_prefix(n);
  }
  return true;
}

size_t ParentPipe::read_input(char* buffer, size_t size) {
  DWORD n = 0;
  if (!::ReadFile(impl_->in.get(), buffer, static_cast<DWORD>(size), &n, nullptr)) return 0;
  return n;
}

void exit_after(std::chrono::seconds /*seconds*/) {
  // Nothing to do: the parent's job object ends us when the parent ends.
}

void keep_descendants() {
  // Nothing to do: the job object holds every descendant, however it was started.
}

namespace {

BOOL WINAPI leave_interrupts_to_the_child(DWORD type) {
  return type == CTRL_C_EVENT || type == CTRL_BREAK_EVENT ? TRUE : FALSE;
}

}  // namespace

struct InterruptsToChild::Saved {};

InterruptsToChild::InterruptsToChild() : saved_(std::make_unique<Saved>()) {
  ::SetConsoleCtrlHandler(&leave_interrupts_to_the_child, TRUE);
}

InterruptsToChild::~InterruptsToChild() {
  ::SetConsoleCtrlHandler(&leave_interrupts_to_the_child, FALSE);
}

bool pass_through(ChildStream to, std::string_view data) {
  HANDLE h = ::GetStdHandle(to == ChildStream::out ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
  while (!data.empty()) {
    DWORD n = 0;
    if (!::WriteFile(h, data.data(), static_cast<DWORD>(data.size()), &n, nullptr) || n == 0) return false;
    data.remove_prefix(n);
  }
  return true;
}

}  // namespace gpudoctor
