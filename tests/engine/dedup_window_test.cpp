// DedupWindow: the FIFO deduplication window's own container, against a plain map doing the same.
#include "engine/internal/dedup_window.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace inflight::engine;

TEST(DedupWindow, findsWhatWasInsertedAndAnswersTheFirstRecordForARepeatedKey)
{
    DedupWindow window;
    EXPECT_EQ(window.find("a"), nullptr);
    auto [record, fresh] = window.insert("a", 100);
    ASSERT_TRUE(fresh);
    record->idHigh = 7;
    record->sequence = 1;
    auto [again, freshAgain] = window.insert("a", 200);
    EXPECT_FALSE(freshAgain);
    EXPECT_EQ(again->idHigh, 7u);
    EXPECT_EQ(again->expiresAt, 100); // the first record's window, not the repeat's
    ASSERT_NE(window.find("a"), nullptr);
    EXPECT_EQ(window.find("a")->sequence, 1u);
    EXPECT_EQ(window.find("b"), nullptr);
    EXPECT_EQ(window.size(), 1u);
}

TEST(DedupWindow, expiresRecordsAtTheirTimeOldestFirst)
{
    DedupWindow window;
    window.insert("a", 100);
    window.insert("b", 150);
    window.insert("c", 150);
    window.expire(99);
    EXPECT_EQ(window.size(), 3u);
    window.expire(100);
    EXPECT_EQ(window.find("a"), nullptr);
    EXPECT_NE(window.find("b"), nullptr);
    window.expire(150);
    EXPECT_TRUE(window.empty());
    // An expired key is new again.
    EXPECT_TRUE(window.insert("a", 300).second);
}

TEST(DedupWindow, keepsLongKeysAndListsRecordsInTheOrderTheyWereMade)
{
    DedupWindow window;
    const std::string group = "group-with-a-long-name\x1f";
    for (int i = 0; i < 40; ++i)
        window.insert(group + std::to_string(i) + std::string(100, 'x'), i);
    std::vector<Millis> order;
    window.forEach([&](const DedupWindow::Record& r) { order.push_back(r.expiresAt); });
    ASSERT_EQ(order.size(), 40u);
    for (int i = 0; i < 40; ++i)
        EXPECT_EQ(order[i], i);
    EXPECT_NE(window.find(group + "39" + std::string(100, 'x')), nullptr);
    window.clear();
    EXPECT_TRUE(window.empty());
    EXPECT_EQ(window.find(group + "39" + std::string(100, 'x')), nullptr);
}

TEST(DedupWindow, givesItsRoomBackOnceABurstHasExpired)
{
    DedupWindow window;
    for (int i = 0; i < 100'000; ++i)
        window.insert("burst-" + std::to_string(i), 1'000 + i / 1'000);
    EXPECT_GE(window.capacity(), 100'000u);
    window.expire(1'098); // 1,000 left
    EXPECT_EQ(window.size(), 1'000u);
    EXPECT_LE(window.capacity(), 2'048u);
    EXPECT_NE(window.find("burst-99999"), nullptr);
    EXPECT_EQ(window.find("burst-98999"), nullptr);
    window.expire(1'099);
    EXPECT_TRUE(window.empty());
    EXPECT_LE(window.capacity(), 1'024u);
    EXPECT_TRUE(window.insert("burst-5", 2'000).second);
}

// Random sends and expiries, across growing and shrinking: the window holds exactly the keys a
// plain map of unexpired records holds, each with the record it was first given.
TEST(DedupWindow, agreesWithAPlainMapThroughGrowthAndShrinking)
{
    struct Expected {
        Millis expiresAt;
        std::uint64_t sequence;
    };
    std::mt19937_64 random(15);
    DedupWindow window;
    std::map<std::string, Expected> model;
    std::deque<std::string> made; // the model's keys, oldest first
    Millis now = 0;
    std::uint64_t sequence = 0;
    for (int step = 0; step < 200'000; ++step) {
        // Bursts of sends, then quiet stretches in which most of the window expires.
        const bool quiet = (step / 20'000) % 2 == 1;
        now += quiet ? static_cast<Millis>(random() % 40) : static_cast<Millis>(random() % 2);
        window.expire(now);
        while (!made.empty() && model.at(made.front()).expiresAt <= now) {
            model.erase(made.front());
            made.pop_front();
        }
        if (!quiet || random() % 8 == 0) {
            const std::string key = "id-" + std::to_string(random() % 30'000);
            auto [record, fresh] = window.insert(key, now + 1'000);
            const auto found = model.find(key);
            ASSERT_EQ(fresh, found == model.end()) << key << " at step " << step;
            if (fresh) {
                record->sequence = ++sequence;
                model[key] = {now + 1'000, sequence};
                made.push_back(key);
            } else {
                ASSERT_EQ(record->sequence, found->second.sequence);
                ASSERT_EQ(record->expiresAt, found->second.expiresAt);
            }
        }
        ASSERT_EQ(window.size(), model.size()) << "at step " << step;
        if (step % 997 == 0) {
            for (const auto& [key, expected] : model) {
                const DedupWindow::Record* record = window.find(key);
                ASSERT_NE(record, nullptr) << key;
                EXPECT_EQ(record->sequence, expected.sequence);
            }
            for (int probe = 0; probe < 50; ++probe) {
                const std::string key = "id-" + std::to_string(random() % 30'000);
                EXPECT_EQ(window.find(key) != nullptr, model.count(key) == 1) << key;
            }
        }
    }
}

// The ring grows when full; with its oldest record inside a block (some expired), the newest
// records are split off below the head and must keep their order and stay found.
TEST(DedupWindow, growsAroundAHeadInsideABlockKeepingOrderAndKeys)
{
    for (int expired : {0, 1, 37, 64, 65, 100, 127}) {
        DedupWindow window;
        int made = 0;
        for (; made < 128; ++made)
            window.insert("k" + std::to_string(made), made);
        window.expire(expired - 1); // records 0 .. expired-1 go
        // Fill the ring again (it wraps below the head), then past full so it grows twice.
        for (; made < 128 + expired + 300; ++made)
            window.insert("k" + std::to_string(made), made);
        std::vector<Millis> order;
        window.forEach([&](const DedupWindow::Record& r) { order.push_back(r.expiresAt); });
        ASSERT_EQ(order.size(), static_cast<std::size_t>(made - expired)) << expired;
        for (std::size_t i = 0; i < order.size(); ++i)
            ASSERT_EQ(order[i], static_cast<Millis>(expired + i)) << expired;
        for (int i = 0; i < made; ++i)
            ASSERT_EQ(window.find("k" + std::to_string(i)) != nullptr, i >= expired)
                << i << " after expiring " << expired;
        EXPECT_EQ(window.oldest()->expiresAt, expired);
    }
}
