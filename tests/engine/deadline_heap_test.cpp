// DeadlineHeap: entries come out earliest first (ties by sequence), whatever order they went in,
// against a plain priority queue doing the same.
#include "engine/internal/deadline_heap.h"

#include <gtest/gtest.h>

#include <queue>
#include <random>
#include <tuple>
#include <vector>

using namespace inflight::engine;

namespace {

using Key = std::tuple<Millis, std::uint64_t, std::uint32_t>;

Key keyOf(const DeadlineEntry& e)
{
    return {e.at, e.sequence, e.slot};
}

} // namespace

TEST(DeadlineHeap, givesEntriesEarliestFirstWhetherTheyArriveInOrderOrNot)
{
    DeadlineHeap heap;
    EXPECT_TRUE(heap.empty());
    heap.push(10, 1, 1);
    heap.push(20, 2, 2);
    heap.push(5, 3, 3);  // earlier than the last: out of order
    heap.push(20, 4, 1); // same time, lower sequence: comes before (20, 2)
    heap.push(30, 5, 5);
    EXPECT_EQ(heap.size(), 5u);
    std::vector<std::uint32_t> slots;
    while (!heap.empty()) {
        slots.push_back(heap.top().slot);
        heap.pop();
    }
    EXPECT_EQ(slots, (std::vector<std::uint32_t>{3, 1, 4, 2, 5}));
}

TEST(DeadlineHeap, agreesWithAPriorityQueueOnMostlyOrderedPushesAndInterleavedPops)
{
    std::mt19937_64 random(15);
    DeadlineHeap heap;
    std::priority_queue<Key, std::vector<Key>, std::greater<>> model;
    Millis now = 0;
    std::uint64_t sequence = 0;
    for (int step = 0; step < 200'000; ++step) {
        now += static_cast<Millis>(random() % 3);
        const int what = static_cast<int>(random() % 10);
        if (what < 6) {
            // Mostly now + a fixed timeout (in order); sometimes shorter or older (out of order).
            const Millis at
                = random() % 8 == 0 ? now - static_cast<Millis>(random() % 500) : now + 300;
            const auto slot = static_cast<std::uint32_t>(random() % 1000);
            heap.push(at, slot, ++sequence);
            model.emplace(at, sequence, slot);
        } else if (!model.empty()) {
            ASSERT_FALSE(heap.empty());
            ASSERT_EQ(keyOf(heap.top()), model.top()) << "at step " << step;
            heap.pop();
            model.pop();
        }
        ASSERT_EQ(heap.size(), model.size());
        if (step % 50'000 == 0) {
            std::size_t seen = 0;
            heap.forEach([&](const DeadlineEntry&) { ++seen; });
            EXPECT_EQ(seen, model.size());
        }
    }
    while (!model.empty()) {
        ASSERT_EQ(keyOf(heap.top()), model.top());
        heap.pop();
        model.pop();
    }
    EXPECT_TRUE(heap.empty());
    heap.push(1, 1, 1);
    heap.clear();
    EXPECT_TRUE(heap.empty());
}
