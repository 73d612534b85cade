#include "core/worker_pool.hpp"

#include <algorithm>
#include <system_error>

namespace gpudoctor {

namespace {
WorkerPool::Limits at_least_one(WorkerPool::Limits limits) {
  limits.max_threads = std::max<size_t>(limits.max_threads, 1);
  return limits;
}
}  // namespace

WorkerPool::WorkerPool(Limits limits) : limits_(at_least_one(limits)) {}

WorkerPool::~WorkerPool() {
  shutdown();
}

bool WorkerPool::enqueue(std::function<void()> task) {
  std::unique_lock lock(mutex_);
  join_finished(lock);
  if (stopping_) return false;
  queue_.push_back(std::move(task));
  // A queued task that an idle thread has not taken yet counts against the idle ones.
  if (idle_ < queue_.size() && threads_.size() < limits_.max_threads) {
    threads_.emplace_back();
    auto self = std::prev(threads_.end());
    try {
      *self = std::thread([this, self] { work(self); });
      peak_ = std::max(peak_, threads_.size());
      return true;
    } catch (const std::system_error&) {
      // No thread to be had (the system's limit): the task waits for one of the others, and
      // shutdown() does not wait for a thread that never started.
      threads_.erase(self);
    }
  }
  wake_.notify_one();
  return true;
}

void WorkerPool::work(std::list<std::thread>::iterator self) {
  std::unique_lock lock(mutex_);
  for (;;) {
    ++idle_;
    const bool woke = wake_.wait_for(lock, limits_.idle_exit, [this] { return stopping_ || !queue_.empty(); });
    --idle_;
    if (queue_.empty()) {
      // Idle for the whole period (or stopping with nothing left): end, unless this is one of
      // the threads kept for the next burst.
      if (stopping_ || (!woke && threads_.size() > limits_.min_threads)) break;
      continue;
    }
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    task();
    task = nullptr;  // the task's captures (a socket) are released before the next wait
    lock.lock();
  }
  // Another thread joins this one; the list node moves so that `self` stays valid.
  finished_.splice(finished_.end(), threads_, self);
  wake_.notify_all();
}

void WorkerPool::join_finished(std::unique_lock<std::mutex>& lock) {
  if (finished_.empty()) return;
  std::list<std::thread> done;
  done.swap(finished_);
  lock.unlock();
  for (std::thread& t : done) t.join();
  lock.lock();
}

void WorkerPool::shutdown() {
  std::unique_lock lock(mutex_);
  stopping_ = true;
  wake_.notify_all();
  wake_.wait(lock, [this] { return threads_.empty(); });
  join_finished(lock);
}

WorkerPool::Counts WorkerPool::counts() const {
  std::lock_guard lock(mutex_);
  return Counts{.threads = threads_.size(), .idle = idle_, .queued = queue_.size(), .peak_threads = peak_};
}

}  // namespace gpudoctor
