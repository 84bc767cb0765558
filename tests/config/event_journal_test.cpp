// The control API's journal of events: cursors, the last `capacity` kept, what was dropped said.
#include "config/event_journal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using inflight::config::EventJournal;
using inflight::engine::Event;

namespace {

std::vector<Event> numbered(int from, int count)
{
    std::vector<Event> events(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        events[static_cast<std::size_t>(i)].queue
            = "queue-with-a-long-name-" + std::to_string(from + i);
        events[static_cast<std::size_t>(i)].count = from + i;
    }
    return events;
}

std::vector<std::int64_t> counts(const EventJournal::Page& page)
{
    std::vector<std::int64_t> result;
    for (const Event* e : page.events)
        result.push_back(e->count);
    return result;
}

} // namespace

TEST(EventJournal, keepsTheLastCapacityEventsInOrderAndSaysWhatWasDropped)
{
    EventJournal journal(3);
    journal.append(numbered(1, 2));
    EXPECT_EQ(journal.newest(), 2u);
    EXPECT_EQ(counts(journal.after(0, 10)), (std::vector<std::int64_t>{1, 2}));
    journal.append(numbered(3, 3)); // 5 in all: 1 and 2 dropped
    EXPECT_EQ(journal.newest(), 5u);
    const auto page = journal.after(0, 10);
    EXPECT_EQ(page.dropped, 2u);
    EXPECT_EQ(counts(page), (std::vector<std::int64_t>{3, 4, 5}));
    EXPECT_EQ(page.cursor, 5u);
    EXPECT_EQ(page.events[0]->queue, "queue-with-a-long-name-3");
    EXPECT_EQ(counts(journal.after(3, 10)), (std::vector<std::int64_t>{4, 5}));
    EXPECT_EQ(counts(journal.after(2, 1)), (std::vector<std::int64_t>{3}));
    EXPECT_TRUE(journal.after(5, 10).events.empty());
}

TEST(EventJournal, goesRoundItsRingManyTimes)
{
    EventJournal journal(7);
    for (int i = 0; i < 100; ++i)
        journal.append(numbered(1 + i * 5, 5));
    EXPECT_EQ(journal.newest(), 500u);
    const auto page = journal.after(490, 100);
    EXPECT_EQ(page.dropped, 3u);
    EXPECT_EQ(counts(page), (std::vector<std::int64_t>{494, 495, 496, 497, 498, 499, 500}));
    EXPECT_EQ(page.events.back()->queue, "queue-with-a-long-name-500");
}

TEST(EventJournal, goesOnFromTheCursorItTakesOverAt)
{
    EventJournal journal(10, 41);
    EXPECT_EQ(journal.newest(), 40u);
    journal.append(numbered(1, 2));
    const auto page = journal.after(40, 10);
    EXPECT_EQ(page.cursor, 42u);
    EXPECT_EQ(page.dropped, 0u);
    EXPECT_EQ(counts(page), (std::vector<std::int64_t>{1, 2}));
}
