// serve's HTTP server (cli/serve_http.hpp) over real loopback sockets: clients that trickle a
// request are cut off at the deadline and scrapes go on; the keep-alive wait and a request that
// arrives in pieces within the deadline are not cut (review 43A, item 02).
#include <gtest/gtest.h>

#if defined(GPUDOCTOR_HAVE_HTTP_SERVER) && !defined(_WIN32)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cli/serve_http.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

class ServeHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.set_read_timeout(1, 0);
    server_.set_keep_alive_timeout(5);
    server_.Get("/metrics",
                [](const httplib::Request&, httplib::Response& res) { res.set_content("ok", "text/plain"); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(1ms);
  }
  void TearDown() override {
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }
  [[nodiscard]] int connect_client() const {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    return fd;
  }

  // Two workers, a one-second deadline: what the defaults (256, 5 s) do, in test time.
  ServeHttpServer server_{2, 1000ms};
  int port_ = 0;
  std::thread thread_;
};

bool send_text(int fd, const std::string& text) {
  return ::send(fd, text.data(), text.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(text.size());
}

/// True when the peer has closed the connection (what it sent before, a 400, is read past).
bool closed_by_peer(int fd) {
  char buffer[512];
  for (;;) {
    const auto n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n > 0) continue;
    return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
  }
}

/// What arrives until the body "ok" of a response has, or `limit` passes.
std::string read_response(int fd, std::chrono::milliseconds limit) {
  std::string got;
  const auto end = SteadyClock::now() + limit;
  while (got.find("\r\n\r\nok") == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - SteadyClock::now());
    pollfd p{fd, POLLIN, 0};
    if (left <= 0ms || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    char buffer[512];
    const auto n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    got.append(buffer, static_cast<size_t>(n));
  }
  return got;
}

double seconds_since(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

// Review 43A item 02: clients sending a header line every 0.3 s held serve's workers with no end,
// and more of them than workers stopped every scrape.
TEST_F(ServeHttp, TricklingClientsAreCutOffAtTheDeadlineAndAScrapeGetsThrough) {
  const auto start = SteadyClock::now();
  std::vector<int> tricklers;
  for (int i = 0; i < 3; ++i) {
    tricklers.push_back(connect_client());
    ASSERT_TRUE(send_text(tricklers.back(), "GET /metrics HTTP/1.1\r\nHost: x\r\n"));
  }
  double scrape_s = -1;
  std::string scrape;
  std::thread scraper([&] {
    std::this_thread::sleep_for(300ms);
    const auto t = SteadyClock::now();
    int fd = connect_client();
    send_text(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    scrape = read_response(fd, 3500ms);
    scrape_s = seconds_since(t);
    ::close(fd);
  });
  // A header line per client every 0.2 s, for at most 4 s, until the server closes it.
  std::vector<double> closed_at(tricklers.size(), -1);
  while (seconds_since(start) < 4.0) {
    bool open = false;
    for (size_t i = 0; i < tricklers.size(); ++i) {
      if (closed_at[i] >= 0) continue;
      if (closed_by_peer(tricklers[i]) || !send_text(tricklers[i], "X: b\r\n")) {
        closed_at[i] = seconds_since(start);
      } else {
        open = true;
      }
    }
    if (!open) break;
    std::this_thread::sleep_for(200ms);
  }
  scraper.join();
  for (int fd : tricklers) ::close(fd);
  // Two at once from the start, the third once a worker is free: each within its deadline, and
  // closed then (the header lines that keep coming are not a new request on the same worker).
  for (size_t i = 0; i < closed_at.size(); ++i) {
    EXPECT_GE(closed_at[i], 0) << "trickling client " << i << " was never cut off";
    EXPECT_LE(closed_at[i], 3.0) << "trickling client " << i;
  }
  EXPECT_NE(scrape.find("HTTP/1.1 200 OK"), std::string::npos) << scrape;
  EXPECT_LE(scrape_s, 2.5) << scrape;
}

// A request that ran out of time ends its connection: a client may not get a fresh deadline by
// sending another request on the worker it holds.
TEST_F(ServeHttp, ARequestPastTheDeadlineClosesItsConnection) {
  int fd = connect_client();
  ASSERT_TRUE(send_text(fd, "GET /metrics HTTP/1.1\r\n"));
  for (int i = 0; i < 4; ++i) {
    std::this_thread::sleep_for(200ms);
    ASSERT_TRUE(send_text(fd, "X: b\r\n"));
  }
  std::this_thread::sleep_for(500ms);  // past the deadline, silent
  send_text(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string got = read_response(fd, 1500ms);
  EXPECT_EQ(got.find("200 OK"), std::string::npos) << got;
  ::close(fd);
}

// Near misses: the deadline is per request, from its first byte; the wait between keep-alive
// requests is not counted, and a request that arrives in pieces within it is served.
TEST_F(ServeHttp, KeepAliveWaitAndARequestInPiecesWithinTheDeadlineAreServed) {
  int fd = connect_client();
  ASSERT_TRUE(send_text(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_NE(read_response(fd, 2000ms).find("200 OK"), std::string::npos);
  std::this_thread::sleep_for(1500ms);  // longer than the deadline, shorter than the keep-alive wait
  ASSERT_TRUE(send_text(fd, "GET /metrics HTTP/1.1\r\n"));
  std::this_thread::sleep_for(300ms);
  ASSERT_TRUE(send_text(fd, "Host: x\r\n"));
  std::this_thread::sleep_for(300ms);
  ASSERT_TRUE(send_text(fd, "\r\n"));
  EXPECT_NE(read_response(fd, 2000ms).find("200 OK"), std::string::npos);
  ::close(fd);
}

}  // namespace
}  // namespace gpudoctor

#else
TEST(ServeHttp, NotInThisBuild) {
  GTEST_SKIP() << "this build has no HTTP server (cpp-httplib)";
}
#endif
