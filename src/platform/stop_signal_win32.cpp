#include <windows.h>

#include <atomic>

#include "platform/stop_signal.hpp"

namespace gpudoctor {
namespace {

// A console control handler runs on a thread of its own and takes no argument: one event.
HANDLE g_stop_event = nullptr;
std::atomic<bool> g_requested{false};

BOOL WINAPI on_console_event(DWORD type) {
  if (type == CTRL_C_EVENT || type == CTRL_BREAK_EVENT || type == CTRL_CLOSE_EVENT) {
    g_requested = true;
    if (g_stop_event != nullptr) ::SetEvent(g_stop_event);
    return TRUE;
  }
  return FALSE;
}

}  // namespace

struct StopSignal::State {};

StopSignal::StopSignal() : state_(nullptr) {
  g_requested = false;
  g_stop_event = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
  ::SetConsoleCtrlHandler(on_console_event, TRUE);
}

StopSignal::~StopSignal() {
  ::SetConsoleCtrlHandler(on_console_event, FALSE);
  if (g_stop_event != nullptr) ::CloseHandle(g_stop_event);
  g_stop_event = nullptr;
}

bool StopSignal::wait() {
  if (g_stop_event != nullptr) ::WaitForSingleObject(g_stop_event, INFINITE);
  return g_requested;
}

void StopSignal::release() {
  if (g_stop_event != nullptr) ::SetEvent(g_stop_event);
}

}  // namespace gpudoctor
