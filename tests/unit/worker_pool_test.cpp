// The pool behind serve's HTTP connections: a thread for every task that arrives while the
// others are busy (up to the maximum), queueing beyond it, and idle threads ending.
#include "core/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;

/// Tasks that hold their thread until released, like an idle keep-alive connection. In every
/// test what the tasks use is declared before the pool: the pool joins its threads when it is
/// destroyed, so that state must outlive it (ASan caught a gate destroyed first).
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened = open.get_future().share();
};

bool eventually(const std::function<bool()>& done) {
  for (int i = 0; i < 500; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return done();
}

TEST(WorkerPool, ATaskArrivingWhileEveryThreadIsHeldGetsANewThread) {
  Gate gate;
  std::atomic<int> held{0};
  std::promise<void> ran;
  WorkerPool pool({.min_threads = 1, .max_threads = 64, .idle_exit = 30s});
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(pool.enqueue([&] {
      ++held;
      gate.opened.wait();
    }));
  }
  // 40 tasks that never finish by themselves: a fixed pool of 32 would leave 8 queued.
  EXPECT_TRUE(eventually([&] { return held == 40; })) << held << " of 40 running";
  ASSERT_TRUE(pool.enqueue([&] { ran.set_value(); }));
  EXPECT_EQ(ran.get_future().wait_for(5s), std::future_status::ready) << "a 41st task waited for the held ones";
  EXPECT_GE(pool.counts().peak_threads, 41u);
  gate.open.set_value();
}

TEST(WorkerPool, BeyondTheMaximumTasksQueueAndAllRun) {
  Gate gate;
  std::atomic<int> started{0};
  WorkerPool pool({.min_threads = 1, .max_threads = 3, .idle_exit = 30s});
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(pool.enqueue([&] {
      ++started;
      gate.opened.wait();
    }));
  }
  EXPECT_TRUE(eventually([&] { return started == 3; }));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(started, 3) << "more threads than the maximum";
  EXPECT_EQ(pool.counts().queued, 7u);
  gate.open.set_value();
  EXPECT_TRUE(eventually([&] { return started == 10; })) << started << " of 10 ran";
  EXPECT_LE(pool.counts().peak_threads, 3u);
}

TEST(WorkerPool, IdleThreadsEndDownToTheMinimum) {
  Gate gate;
  std::atomic<int> held{0};
  std::promise<void> ran;
  WorkerPool pool({.min_threads = 2, .max_threads = 16, .idle_exit = 50ms});
  for (int i = 0; i < 8; ++i) {
    pool.enqueue([&] {
      ++held;
      gate.opened.wait();
    });
  }
  ASSERT_TRUE(eventually([&] { return held == 8; }));
  EXPECT_EQ(pool.counts().threads, 8u);
  gate.open.set_value();
  EXPECT_TRUE(eventually([&] { return pool.counts().threads == 2; })) << pool.counts().threads << " threads left";
  // The pool still works after shrinking.
  pool.enqueue([&] { ran.set_value(); });
  EXPECT_EQ(ran.get_future().wait_for(5s), std::future_status::ready);
}

TEST(WorkerPool, ShutdownRunsWhatIsQueuedJoinsAndRefusesMore) {
  std::atomic<int> ran{0};
  WorkerPool pool({.min_threads = 1, .max_threads = 2, .idle_exit = 30s});
  for (int i = 0; i < 20; ++i) {
    pool.enqueue([&] {
      std::this_thread::sleep_for(1ms);
      ++ran;
    });
  }
  pool.shutdown();
  EXPECT_EQ(ran, 20);
  EXPECT_EQ(pool.counts().threads, 0u);
  EXPECT_FALSE(pool.enqueue([&] { ++ran; }));
  pool.shutdown();  // idempotent
  EXPECT_EQ(ran, 20);
}

}  // namespace
}  // namespace gpudoctor
