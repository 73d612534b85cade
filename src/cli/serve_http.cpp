#include "cli/serve_http.hpp"

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "core/worker_pool.hpp"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;

#ifdef _WIN32
constexpr int kSendFlags = 0;
int poll_socket(socket_t sock, short events, int timeout_ms) {
  WSAPOLLFD p{sock, events, 0};
  return ::WSAPoll(&p, 1, timeout_ms);
}
void close_connection(socket_t sock) {
  ::shutdown(sock, SD_BOTH);
  ::closesocket(sock);
}
#else
constexpr int kSendFlags = MSG_NOSIGNAL;
int poll_socket(socket_t sock, short events, int timeout_ms) {
  pollfd p{sock, events, 0};
  int rc = 0;
  do {
    rc = ::poll(&p, 1, timeout_ms);
  } while (rc < 0 && errno == EINTR);
  return rc;
}
void close_connection(socket_t sock) {
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
}
#endif

/// Rounded up: a wait that ends early would see the deadline not yet passed.
int to_ms(Clock::duration d) {
  return static_cast<int>(std::max<std::int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(d).count()));
}

/// cpp-httplib's task queue over our WorkerPool: a connection gets a thread at once while
/// fewer than the maximum are open, however many idle clients hold one.
class GrowingTaskQueue : public httplib::TaskQueue {
 public:
  explicit GrowingTaskQueue(size_t max_threads)
      : pool_({.min_threads = 4, .max_threads = max_threads, .idle_exit = std::chrono::seconds(30)}) {}
  void enqueue(std::function<void()> fn) override { pool_.enqueue(std::move(fn)); }
  void shutdown() override { pool_.shutdown(); }

 private:
  WorkerPool pool_;
};

/// A connection as cpp-httplib reads it (its SocketStream is not in Debian's header): buffered
/// reads, each waiting at most the read timeout and never past the request's deadline.
class DeadlineStream : public httplib::Stream {
 public:
  DeadlineStream(socket_t sock, std::chrono::microseconds read_timeout, std::chrono::microseconds write_timeout)
      : sock_(sock), read_timeout_(read_timeout), write_timeout_(write_timeout) {}

  /// A request starts: it has `deadline` to arrive whole.
  void start_request(Clock::duration deadline) { deadline_ = Clock::now() + deadline; }
  /// A read waited past the deadline: the connection is closed, not given another request.
  [[nodiscard]] bool past_deadline() const { return past_deadline_; }
  /// Bytes of the next request already read (a pipelining client).
  [[nodiscard]] bool has_buffered() const { return begin_ < end_; }

  bool is_readable() const override { return has_buffered() || wait_readable(); }
  bool is_writable() const override { return poll_socket(sock_, POLLOUT, to_ms(write_timeout_)) > 0; }
  ssize_t read(char* ptr, size_t size) override {
    if (!has_buffered()) {
      if (!wait_readable()) return -1;
      const auto n = ::recv(sock_, buffer_.data(), static_cast<int>(buffer_.size()), 0);
      if (n <= 0) return n < 0 ? -1 : 0;
      begin_ = 0;
      end_ = static_cast<size_t>(n);
    }
    const size_t n = std::min(size, end_ - begin_);
    std::copy_n(buffer_.data() + begin_, n, ptr);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
#ifdef _WIN32
    // Winsock's send takes an int: a larger write goes out in pieces, as the caller loops.
    return ::send(sock_, ptr, static_cast<int>(std::min<size_t>(size, INT_MAX)), kSendFlags);
#else
    return ::send(sock_, ptr, size, kSendFlags);
#endif
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address(true, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address(false, ip, port);
  }
  socket_t socket() const override {
    return sock_;
  }

 private:
  /// Readable within the read timeout and before the deadline.
  bool wait_readable() const {
    const auto left = deadline_ - Clock::now();
    if (left > Clock::duration::zero() &&
        poll_socket(sock_, POLLIN, to_ms(std::min<Clock::duration>(left, read_timeout_))) > 0) {
      return true;
    }
    past_deadline_ = Clock::now() >= deadline_;
    return false;
  }
  void address(bool peer, std::string& ip, int& port) const {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    auto* a = reinterpret_cast<sockaddr*>(&addr);
    if ((peer ? ::getpeername(sock_, a, &len) : ::getsockname(sock_, a, &len)) != 0) return;
    std::array<char, NI_MAXHOST> host{};
    std::array<char, NI_MAXSERV> service{};
    if (::getnameinfo(a, len, host.data(), static_cast<socklen_t>(host.size()), service.data(),
                      static_cast<socklen_t>(service.size()), NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
      ip = host.data();
      port = std::atoi(service.data());
    }
  }

  socket_t sock_;
  std::chrono::microseconds read_timeout_;
  std::chrono::microseconds write_timeout_;
  Clock::time_point deadline_ = Clock::now();
  mutable bool past_deadline_ = false;
  std::array<char, 4096> buffer_{};
  size_t begin_ = 0;
  size_t end_ = 0;
};

}  // namespace

ServeHttpServer::ServeHttpServer(size_t max_threads, std::chrono::milliseconds request_deadline)
    : request_deadline_(request_deadline) {
  new_task_queue = [max_threads] { return new GrowingTaskQueue(max_threads); };
}

// A keep-alive connection's next request starts within the keep-alive timeout; a server that
// stops does not wait for it.
// The socket is polled at least once, so a keep-alive timeout of 0 still serves what is there.
bool ServeHttpServer::next_request_comes(socket_t sock) const {
  const auto end = Clock::now() + std::chrono::seconds(keep_alive_timeout_sec_);
  while (svr_sock_ != INVALID_SOCKET) {
    const auto left = std::max(end - Clock::now(), Clock::duration::zero());
    const int rc = poll_socket(sock, POLLIN, to_ms(std::min<Clock::duration>(left, std::chrono::milliseconds(100))));
    if (rc != 0) return rc > 0;
    if (left == Clock::duration::zero()) return false;
  }
  return false;
}

// cpp-httplib's own loop (detail::process_server_socket, 0.11) over DeadlineStream: up to
// keep_alive_max_count requests while the server runs, each after at most the keep-alive wait.
bool ServeHttpServer::process_and_close_socket(socket_t sock) {
  using std::chrono::microseconds;
  using std::chrono::seconds;
  DeadlineStream stream(sock, seconds(read_timeout_sec_) + microseconds(read_timeout_usec_),
                        seconds(write_timeout_sec_) + microseconds(write_timeout_usec_));
  bool ok = false;
  for (size_t left = keep_alive_max_count_; left > 0 && svr_sock_ != INVALID_SOCKET; --left) {
    if (!stream.has_buffered() && !next_request_comes(sock)) break;
    stream.start_request(request_deadline_);
    bool connection_closed = false;
    ok = process_request(stream, left == 1, connection_closed, nullptr);
    if (!ok || connection_closed || stream.past_deadline()) break;
  }
  close_connection(sock);
  return ok;
}

}  // namespace gpudoctor
