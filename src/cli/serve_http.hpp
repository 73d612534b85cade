#pragma once
/// serve's HTTP server: cpp-httplib's, with a deadline on receiving each request. cpp-httplib
/// 0.11 times out each read (1 s) but not a request as a whole, so a client that sends a header
/// line every 0.9 s held a worker for as long as it liked, and more such clients than workers
/// stopped every scrape (review 43A, item 02). Here the request line, the headers and the body
/// must all arrive within `request_deadline` of the request's first byte (Go's
/// http.Server.ReadHeaderTimeout, nginx's client_header_timeout); after it the connection is
/// closed. The wait for a keep-alive connection's next request stays the keep-alive timeout.
#include <httplib.h>

#include <chrono>
#include <cstddef>

namespace gpudoctor {

class ServeHttpServer : public httplib::Server {
 public:
  /// Connections get a worker thread each, up to `max_threads` (a pool that grows and shrinks).
  ServeHttpServer(size_t max_threads, std::chrono::milliseconds request_deadline);

 private:
  bool process_and_close_socket(socket_t sock) override;
  [[nodiscard]] bool next_request_comes(socket_t sock) const;

  std::chrono::milliseconds request_deadline_;
};

}  // namespace gpudoctor
