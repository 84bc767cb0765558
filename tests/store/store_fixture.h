#pragma once

// A broker wired to a workspace store the way Session wires them (every batch of events committed
// in one transaction), with a manual clock, plus comparisons of whole broker states.
#include "engine/broker.h"
#include "store/workspace_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace inflight::store::testing {

inline std::string freshFolder(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path()
        / ("inflight-store-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

// A broker whose events go to a store, committed after every call (commitNow()).
struct Workbench {
    engine::ManualClock clock;
    std::unique_ptr<engine::Broker> broker;
    std::unique_ptr<WorkspaceStore> store;
    std::vector<engine::Event> pending;

    explicit Workbench(engine::Millis start = 1'700'000'000'000) : clock(start) {}

    // Opens (or creates) `path` and restores it into a fresh broker whose clock starts at the
    // resume time.
    StoreStatus open(const std::string& path, OpenMode mode = OpenMode::OpenOrCreate,
                     StoreOptions options = {})
    {
        auto opened = WorkspaceStore::open(path, mode, options);
        if (!opened)
            return opened.error();
        store = std::move(opened).value();
        if (auto saved = store->savedClock())
            clock.set(std::max(clock.now(), resumeTime(*saved, clock.now())));
        broker = std::make_unique<engine::Broker>(clock);
        broker->setEventSink([this](std::span<const engine::Event> batch) {
            pending.insert(pending.end(), batch.begin(), batch.end());
        });
        if (auto restored = store->restore(*broker); !restored)
            return restored;
        return commitNow();
    }

    ClockRecord clockRecord() const { return {clock.now(), false, 1.0, clock.now()}; }

    StoreStatus commitNow()
    {
        auto committed = store->commit(*broker, pending, clockRecord());
        if (committed)
            pending.clear();
        return committed;
    }

    void close()
    {
        store.reset();
        broker.reset();
        pending.clear();
    }
};

inline void expectSameMessageRecords(engine::Broker& a, engine::Broker& b, const std::string& q)
{
    std::vector<engine::MessageRecord> left, right;
    ASSERT_TRUE(
        a.forEachMessage(q, [&](const engine::MessageRecord& m) { left.push_back(m); }).ok());
    ASSERT_TRUE(
        b.forEachMessage(q, [&](const engine::MessageRecord& m) { right.push_back(m); }).ok());
    ASSERT_EQ(left.size(), right.size()) << q;
    for (std::size_t i = 0; i < left.size(); ++i) {
        const auto& x = left[i];
        const auto& y = right[i];
        SCOPED_TRACE(q + " message " + std::to_string(i));
        EXPECT_EQ(x.slot, y.slot);
        EXPECT_EQ(x.sequence, y.sequence);
        EXPECT_EQ(x.idHigh, y.idHigh);
        EXPECT_EQ(x.idLow, y.idLow);
        EXPECT_EQ(x.body, y.body);
        EXPECT_EQ(x.attributes, y.attributes);
        EXPECT_EQ(x.systemAttributes, y.systemAttributes);
        EXPECT_EQ(x.groupId, y.groupId);
        EXPECT_EQ(x.deduplicationId, y.deduplicationId);
        EXPECT_EQ(x.channelId, y.channelId);
        EXPECT_EQ(x.deadLetterSourceArn, y.deadLetterSourceArn);
        EXPECT_EQ(x.state, y.state);
        EXPECT_EQ(x.sentAt, y.sentAt);
        EXPECT_EQ(x.retentionBase, y.retentionBase);
        EXPECT_EQ(x.deadline, y.deadline);
        EXPECT_EQ(x.receivedAt, y.receivedAt);
        EXPECT_EQ(x.firstReceivedAt, y.firstReceivedAt);
        EXPECT_EQ(x.receiveCount, y.receiveCount);
        EXPECT_EQ(x.receiptNonce, y.receiptNonce);
        EXPECT_EQ(x.visibilityChanges, y.visibilityChanges);
        EXPECT_EQ(x.senderId, y.senderId);
        EXPECT_EQ(x.lastReceiveOrigin, y.lastReceiveOrigin);
        EXPECT_EQ(x.returnCause, y.returnCause);
    }
}

// Everything the snapshot API exports, queue by queue and message by message.
// The deduplication and receive-attempt records still inside their windows, in a stable order.
inline engine::QueueRecord liveWindows(engine::QueueRecord q, engine::Millis now)
{
    std::erase_if(q.deduplication, [now](const auto& d) { return d.expiresAt <= now; });
    std::erase_if(q.attempts, [now](const auto& a) { return a.expiresAt <= now; });
    std::sort(q.deduplication.begin(), q.deduplication.end(),
              [](const auto& x, const auto& y) { return x.key < y.key; });
    std::sort(q.attempts.begin(), q.attempts.end(),
              [](const auto& x, const auto& y) { return x.attemptId < y.attemptId; });
    return q;
}

inline void expectSameBroker(engine::Broker& a, engine::Broker& b)
{
    const engine::BrokerRecord ba = a.brokerRecord();
    const engine::BrokerRecord bb = b.brokerRecord();
    EXPECT_EQ(ba.nextQueueId, bb.nextQueueId);
    EXPECT_EQ(ba.randomState, bb.randomState);
    EXPECT_EQ(ba.receiptKey, bb.receiptKey);
    EXPECT_EQ(ba.deletedAt, bb.deletedAt);
    ASSERT_EQ(ba.moveTasks.size(), bb.moveTasks.size());
    for (std::size_t i = 0; i < ba.moveTasks.size(); ++i) {
        const auto& x = ba.moveTasks[i];
        const auto& y = bb.moveTasks[i];
        EXPECT_EQ(x.taskId, y.taskId);
        EXPECT_EQ(x.handle, y.handle);
        EXPECT_EQ(x.sourceArn, y.sourceArn);
        EXPECT_EQ(x.destinationArn, y.destinationArn);
        EXPECT_EQ(x.maxMessagesPerSecond, y.maxMessagesPerSecond);
        EXPECT_EQ(x.status, y.status);
        EXPECT_EQ(x.moved, y.moved);
        EXPECT_EQ(x.toMove, y.toMove);
        EXPECT_EQ(x.startedAt, y.startedAt);
        EXPECT_EQ(x.origin, y.origin);
    }
    const auto qa = a.queueRecords();
    const auto qb = b.queueRecords();
    ASSERT_EQ(qa.size(), qb.size());
    for (std::size_t i = 0; i < qa.size(); ++i) {
        const auto x = liveWindows(qa[i], a.clock().now());
        const auto y = liveWindows(qb[i], b.clock().now());
        SCOPED_TRACE("queue " + x.name);
        EXPECT_EQ(x.id, y.id);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.oci, y.oci);
        EXPECT_EQ(x.attributes, y.attributes);
        EXPECT_EQ(x.tags, y.tags);
        EXPECT_EQ(x.isBuiltInDeadLetter, y.isBuiltInDeadLetter);
        EXPECT_EQ(x.builtInDeadLetterName, y.builtInDeadLetterName);
        EXPECT_EQ(x.createdAt, y.createdAt);
        EXPECT_EQ(x.lastModifiedAt, y.lastModifiedAt);
        EXPECT_EQ(x.lastPurgeAt, y.lastPurgeAt);
        EXPECT_EQ(x.nextSequence, y.nextSequence);
        EXPECT_EQ(x.counters.sent, y.counters.sent);
        EXPECT_EQ(x.counters.received, y.counters.received);
        EXPECT_EQ(x.counters.deleted, y.counters.deleted);
        EXPECT_EQ(x.counters.visibilityExpired, y.counters.visibilityExpired);
        EXPECT_EQ(x.counters.movedToDeadLetter, y.counters.movedToDeadLetter);
        EXPECT_EQ(x.counters.retentionExpired, y.counters.retentionExpired);
        EXPECT_EQ(x.counters.purged, y.counters.purged);
        EXPECT_EQ(x.counters.deduplicated, y.counters.deduplicated);
        ASSERT_EQ(x.deduplication.size(), y.deduplication.size());
        for (std::size_t d = 0; d < x.deduplication.size(); ++d) {
            EXPECT_EQ(x.deduplication[d].key, y.deduplication[d].key);
            EXPECT_EQ(x.deduplication[d].expiresAt, y.deduplication[d].expiresAt);
            EXPECT_EQ(x.deduplication[d].idHigh, y.deduplication[d].idHigh);
            EXPECT_EQ(x.deduplication[d].sequence, y.deduplication[d].sequence);
        }
        // Every live attempt is kept. The file may also hold one the engine dropped, without an
        // event, on a replay that found its messages changed: such a record can never replay.
        for (const auto& live : x.attempts) {
            auto kept = std::find_if(y.attempts.begin(), y.attempts.end(),
                                     [&](const auto& r) { return r.attemptId == live.attemptId; });
            ASSERT_NE(kept, y.attempts.end()) << live.attemptId;
            EXPECT_EQ(live.expiresAt, kept->expiresAt);
            ASSERT_EQ(live.items.size(), kept->items.size());
            for (std::size_t k = 0; k < live.items.size(); ++k)
                EXPECT_EQ(live.items[k].receipt, kept->items[k].receipt);
        }
        expectSameMessageRecords(a, b, x.name);
    }
}

} // namespace inflight::store::testing
