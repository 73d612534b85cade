#pragma once
/// Threads that grow with the work and shrink when it is gone. serve's HTTP server
/// (cpp-httplib) runs one connection per task for as long as the client keeps it open, so a
/// fixed pool is held by as many idle clients as it has threads, and a scrape then waits for one
/// of them to time out. This pool starts a thread whenever none is idle, up to a maximum, and
/// lets a thread end after it has been idle for a while (above the minimum).
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <thread>

namespace gpudoctor {

class WorkerPool {
 public:
  struct Limits {
    size_t min_threads = 2;
    size_t max_threads = 256;
    std::chrono::milliseconds idle_exit{30000};
  };
  explicit WorkerPool(Limits limits);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Runs `task` on an idle thread, a new one when none is idle and the maximum allows, else
  /// as soon as a thread is free. False after shutdown() (the task is dropped).
  bool enqueue(std::function<void()> task);
  /// Runs what is queued, then ends and joins every thread. Idempotent.
  void shutdown();

  struct Counts {
    size_t threads = 0;  ///< alive now
    size_t idle = 0;
    size_t queued = 0;
    size_t peak_threads = 0;
  };
  [[nodiscard]] Counts counts() const;

 private:
  void work(std::list<std::thread>::iterator self);
  void join_finished(std::unique_lock<std::mutex>& lock);

  const Limits limits_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  std::list<std::thread> threads_;
  std::list<std::thread> finished_;  ///< threads that ended; joined by the next caller
  size_t idle_ = 0;
  size_t peak_ = 0;
  bool stopping_ = false;
};

}  // namespace gpudoctor
