// Group commit: one transaction per batch of engine events, writing the current state of what the
// events touched.
#include "store/workspace_store.h"

#include "store/message_state_row.h"
#include "store/record_codec.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

namespace inflight::store {

namespace {

constexpr int kSequenceBits = 40;

std::int64_t messageKey(std::uint32_t queueId, std::uint64_t sequence)
{
    return static_cast<std::int64_t>((std::uint64_t{queueId} << kSequenceBits) | sequence);
}

bool ok(int code)
{
    return code == SQLITE_OK || code == SQLITE_DONE;
}

bool isFifoRecord(const engine::QueueRecord& q)
{
    auto it = q.attributes.find("FifoQueue");
    return !q.oci && it != q.attributes.end() && it->second == "true";
}

// Events that may change a FIFO queue's deduplication or receive-attempt records.
bool touchesWindows(engine::EventKind kind)
{
    using K = engine::EventKind;
    return kind == K::MessageSent || kind == K::MessageReceived || kind == K::VisibilityChanged;
}

bool isMessageEvent(engine::EventKind kind)
{
    using K = engine::EventKind;
    switch (kind) {
    case K::MessageSent:
    case K::DelayEnded:
    case K::MessageReceived:
    case K::VisibilityChanged:
    case K::MessageReleased:
    case K::VisibilityExpired:
    case K::MessageDeleted:
    case K::MovedToDeadLetterQueue:
    case K::MovedByTask:
    case K::RetentionExpired: return true;
    default: return false;
    }
}

} // namespace

int WorkspaceStore::writeQueue(const engine::QueueRecord& q)
{
    const std::string attributes = stringMapToJson(q.attributes);
    const std::string tags = stringMapToJson(q.tags);
    Statement& s = m_insertQueue;
    s.bind(1, static_cast<std::int64_t>(q.id))
        .bindText(2, q.name)
        .bind(3, std::int64_t{q.oci})
        .bindText(4, attributes)
        .bindText(5, tags)
        .bind(6, std::int64_t{q.isBuiltInDeadLetter})
        .bindText(7, q.builtInDeadLetterName)
        .bind(8, q.createdAt)
        .bind(9, q.lastModifiedAt)
        .bind(10, q.lastPurgeAt)
        .bind(11, static_cast<std::int64_t>(q.nextSequence))
        .bind(12, q.counters.sent)
        .bind(13, q.counters.received)
        .bind(14, q.counters.deleted)
        .bind(15, q.counters.visibilityExpired)
        .bind(16, q.counters.movedToDeadLetter)
        .bind(17, q.counters.retentionExpired)
        .bind(18, q.counters.purged)
        .bind(19, q.counters.deduplicated);
    return s.run();
}

int WorkspaceStore::deleteQueue(std::uint32_t queueId)
{
    int rc = m_deleteQueue.bind(1, static_cast<std::int64_t>(queueId)).run();
    if (ok(rc))
        rc = deleteMessagesOf(queueId);
    if (ok(rc))
        rc = m_deleteDedupOf.bind(1, static_cast<std::int64_t>(queueId)).run();
    if (ok(rc))
        rc = m_deleteAttemptsOf.bind(1, static_cast<std::int64_t>(queueId)).run();
    return rc;
}

int WorkspaceStore::deleteMessagesOf(std::uint32_t queueId)
{
    return deleteMessages(queueId, 0, std::uint64_t{1} << kSequenceBits);
}

int WorkspaceStore::deleteMessages(std::uint32_t queueId, std::uint64_t first, std::uint64_t end)
{
    const std::int64_t from = messageKey(queueId, 0) + static_cast<std::int64_t>(first);
    const std::int64_t to = messageKey(queueId, 0) + static_cast<std::int64_t>(end);
    const int rc = m_deleteMessageRange.bind(1, from).bind(2, to).run();
    return ok(rc) ? m_deleteStateRange.bind(1, from).bind(2, to).run() : rc;
}

int WorkspaceStore::writeMessage(std::uint32_t queueId, const engine::MessageRecord& m)
{
    Statement& s = m_insertMessage;
    std::string attributes, system;
    s.bind(1, messageKey(queueId, m.sequence))
        .bind(2, static_cast<std::int64_t>(m.slot))
        .bind(3, static_cast<std::int64_t>(m.idHigh))
        .bind(4, static_cast<std::int64_t>(m.idLow))
        .bindBlob(5, m.body);
    if (!m.attributes.empty()) {
        attributes = encodeAttributes(m.attributes);
        s.bindBlob(6, attributes);
    }
    if (!m.systemAttributes.empty()) {
        system = encodeAttributes(m.systemAttributes);
        s.bindBlob(7, system);
    }
    const auto optionalText = [&s](int index, const std::string& text) {
        if (!text.empty())
            s.bindText(index, text);
    };
    optionalText(8, m.groupId);
    optionalText(9, m.deduplicationId);
    optionalText(10, m.channelId);
    optionalText(11, m.deadLetterSourceArn);
    s.bind(12, m.sentAt);
    optionalText(13, m.senderId);
    bindState(s, 14, m);
    return s.run();
}

int WorkspaceStore::writeState(std::uint32_t queueId, const engine::MessageRecord& m)
{
    m_writeState.bind(1, messageKey(queueId, m.sequence));
    bindState(m_writeState, 2, m);
    return m_writeState.run();
}

int WorkspaceStore::writeCounters(std::uint32_t queueId, const engine::QueueStats& c,
                                  std::uint64_t nextSequence)
{
    return m_updateCounters.bind(1, static_cast<std::int64_t>(queueId))
        .bind(2, static_cast<std::int64_t>(nextSequence))
        .bind(3, c.sent)
        .bind(4, c.received)
        .bind(5, c.deleted)
        .bind(6, c.visibilityExpired)
        .bind(7, c.movedToDeadLetter)
        .bind(8, c.retentionExpired)
        .bind(9, c.purged)
        .bind(10, c.deduplicated)
        .run();
}

int WorkspaceStore::writeWindows(engine::Broker& broker, std::uint32_t queueId,
                                 std::string_view queue, bool reset, QueueMirror& mirror)
{
    const auto id = static_cast<std::int64_t>(queueId);
    int rc = SQLITE_OK;
    // Deduplication: the records made since the last commit are added, and those the engine let
    // expire (the oldest, below its oldest record's sequence) dropped as one range. The window's
    // size does not matter, only what changed.
    auto tail = broker.deduplicationSince(queue, reset ? 0 : mirror.dedupWrittenBelow);
    if (!tail || tail->queueId != queueId)
        return SQLITE_DONE; // deleted, or replaced, later in the batch
    if (reset && !ok(rc = m_deleteDedupOf.bind(1, id).run()))
        return rc;
    rc = m_deleteDedupBefore.bind(1, id).bind(2, static_cast<std::int64_t>(tail->keptFrom)).run();
    if (!ok(rc))
        return rc;
    for (const engine::DeduplicationRecord& d : tail->records) {
        rc = m_upsertDedup.bind(1, id)
                 .bindBlob(2, d.key)
                 .bind(3, d.expiresAt)
                 .bind(4, static_cast<std::int64_t>(d.idHigh))
                 .bind(5, static_cast<std::int64_t>(d.idLow))
                 .bind(6, static_cast<std::int64_t>(d.sequence))
                 .run();
        if (!ok(rc))
            return rc;
    }
    mirror.dedupWrittenBelow = tail->nextSequence;

    // Receive attempts: few, rewritten when they differ.
    auto attempts = broker.receiveAttempts(queue);
    if (!attempts)
        return SQLITE_DONE;
    std::unordered_set<std::string> present;
    for (const engine::ReceiveAttemptRecord& a : *attempts) {
        present.insert(a.attemptId);
        std::string items = encodeAttemptItems(a.items);
        auto it = mirror.attempts.find(a.attemptId);
        if (it != mirror.attempts.end() && it->second.first == a.expiresAt
            && it->second.second == items)
            continue;
        rc = m_upsertAttempt.bind(1, id)
                 .bindText(2, a.attemptId)
                 .bind(3, a.expiresAt)
                 .bindBlob(4, items)
                 .run();
        if (!ok(rc))
            return rc;
        mirror.attempts[a.attemptId] = {a.expiresAt, std::move(items)};
    }
    for (auto it = mirror.attempts.begin(); it != mirror.attempts.end();) {
        if (present.count(it->first)) {
            ++it;
            continue;
        }
        rc = m_deleteAttempt.bind(1, id).bindText(2, it->first).run();
        if (!ok(rc))
            return rc;
        it = mirror.attempts.erase(it);
    }
    return SQLITE_DONE;
}

int WorkspaceStore::writeBroker(const engine::BrokerRecord& b)
{
    const std::string deletedAt = deletedAtToJson(b.deletedAt);
    const std::string tasks = moveTasksToJson(b.moveTasks);
    return m_updateBroker.bind(1, static_cast<std::int64_t>(b.nextQueueId))
        .bind(2, static_cast<std::int64_t>(b.randomState))
        .bind(3, static_cast<std::int64_t>(b.receiptKey))
        .bindText(4, deletedAt)
        .bindText(5, tasks)
        .run();
}

int WorkspaceStore::writeClock(const ClockRecord& clock)
{
    const int rc = m_writeClock.bind(1, clock.engineTime)
                       .bind(2, std::int64_t{clock.paused})
                       .bind(3, clock.speed)
                       .bind(4, clock.savedAt)
                       .run();
    if (ok(rc))
        m_savedClock = clock;
    return rc;
}

StoreStatus WorkspaceStore::commit(engine::Broker& broker, std::span<const engine::Event> events,
                                   const ClockRecord& clock)
{
    using K = engine::EventKind;
    // A message an event touched. Names point into the events, which outlive the commit.
    struct Touched {
        std::uint32_t queueId = 0;
        std::uint64_t sequence = 0;
        std::uint32_t slot = 0;
        bool created = false;
        std::string_view queue;
    };
    // Gathered in event order; written below in an order that gives the final state. Per queue
    // there are few entries; per message one entry per event, sorted and merged after.
    std::set<std::uint32_t> deleted;
    std::map<std::uint32_t, std::string_view> rewrite; // created or changed queues
    std::set<std::uint32_t> purged;
    std::map<std::uint32_t, std::string_view> countersOf;
    std::map<std::uint32_t, std::string_view> windowsOf;
    std::vector<Touched> messages;
    messages.reserve(events.size());
    std::map<std::uint32_t, std::uint64_t> nextSequence;
    std::vector<std::pair<std::string_view, engine::MessageKey>> arrivals; // DLQ/task moves

    for (const engine::Event& e : events) {
        switch (e.kind) {
        case K::QueueCreated:
        case K::QueueChanged: rewrite[e.queueId] = e.queue; break;
        case K::QueueDeleted:
            deleted.insert(e.queueId);
            rewrite.erase(e.queueId);
            break;
        case K::QueuePurged: // lastPurgeAt and the purged counter
            purged.insert(e.queueId);
            rewrite[e.queueId] = e.queue;
            break;
        default: break;
        }
        if (e.kind != K::QueueDeleted)
            countersOf[e.queueId] = e.queue;
        if (touchesWindows(e.kind) || e.kind == K::QueuePurged || e.kind == K::QueueChanged)
            windowsOf[e.queueId] = e.queue;
        if (isMessageEvent(e.kind)) {
            messages.push_back(
                {e.queueId, e.key.sequence, e.key.slot, e.kind == K::MessageSent, e.queue});
            if (e.kind == K::MessageSent) {
                auto& next = nextSequence[e.queueId];
                next = std::max(next, e.key.sequence + 1);
            }
            if ((e.kind == K::MovedToDeadLetterQueue || e.kind == K::MovedByTask)
                && e.relatedKey.sequence != 0)
                arrivals.emplace_back(e.detail, e.relatedKey);
        }
    }

    int rc = m_begin.run();
    if (rc != SQLITE_DONE)
        return fail(m_db.extendedCode(), "saving");

    for (std::uint32_t id : deleted) {
        if (!ok(rc = deleteQueue(id)))
            return rollback(rc, "saving");
        m_queues.erase(id);
    }
    for (const auto& [id, name] : rewrite) {
        auto record = broker.queueRecord(name);
        if (!record || record->id != id)
            continue; // deleted again, or replaced, later in the batch
        if (!ok(rc = writeQueue(*record)))
            return rollback(rc, "saving");
        QueueMirror& mirror = m_queues[id];
        mirror.name = record->name;
        mirror.fifo = isFifoRecord(*record);
    }
    for (std::uint32_t id : purged) {
        if (deleted.count(id))
            continue;
        if (!ok(rc = deleteMessagesOf(id)))
            return rollback(rc, "saving");
    }

    // An arrival in a DLQ or a task's destination is named by queue name: find its id.
    for (const auto& [name, key] : arrivals) {
        for (const auto& [id, mirror] : m_queues) {
            if (mirror.name != name)
                continue;
            messages.push_back({id, key.sequence, key.slot, true, name});
            auto& next = nextSequence[id];
            next = std::max(next, key.sequence + 1);
            countersOf[id] = name;
            windowsOf[id] = name;
            break;
        }
    }

    // One entry per message, in key order; the last event's name and slot, created if any was.
    std::stable_sort(messages.begin(), messages.end(), [](const Touched& a, const Touched& b) {
        return std::tie(a.queueId, a.sequence) < std::tie(b.queueId, b.sequence);
    });
    // Deletions of consecutive sequences go as one range (a receive's batch is deleted together).
    struct Run {
        std::uint32_t queueId = 0;
        std::uint64_t first = 0, end = 0;
    } run;
    const auto flushRun = [&] {
        const int code
            = run.end > run.first ? deleteMessages(run.queueId, run.first, run.end) : SQLITE_DONE;
        run = {};
        return code;
    };
    std::optional<std::uint32_t> checkedQueue;
    bool queueStored = false;
    for (std::size_t i = 0; i < messages.size();) {
        Touched t = messages[i];
        for (++i; i < messages.size() && messages[i].queueId == t.queueId
             && messages[i].sequence == t.sequence;
             ++i) {
            t.created = t.created || messages[i].created;
            t.slot = messages[i].slot;
            t.queue = messages[i].queue;
        }
        if (checkedQueue != t.queueId) {
            checkedQueue = t.queueId;
            queueStored = !deleted.count(t.queueId) && m_queues.count(t.queueId);
        }
        if (!queueStored)
            continue;
        // A message the file has already: only its state changes, so its content is not copied.
        const bool whole = t.created || purged.count(t.queueId);
        auto record = broker.messageRecord(t.queue, {t.slot, t.sequence},
                                           whole ? engine::Broker::RecordContent::Included
                                                 : engine::Broker::RecordContent::Left);
        if (!record || record->sequence != t.sequence) {
            if (run.end != t.sequence || run.queueId != t.queueId) {
                if (!ok(rc = flushRun()))
                    return rollback(rc, "saving");
                run = {t.queueId, t.sequence, t.sequence};
            }
            ++run.end;
            continue;
        }
        // Deletions first, so that a full disk has their room for the rows written after them.
        if (!ok(rc = flushRun()))
            return rollback(rc, "saving");
        rc = whole ? writeMessage(t.queueId, *record) : writeState(t.queueId, *record);
        if (!ok(rc))
            return rollback(rc, "saving");
    }
    if (!ok(rc = flushRun()))
        return rollback(rc, "saving");

    for (const auto& [id, name] : countersOf) {
        if (deleted.count(id) || !m_queues.count(id))
            continue;
        auto stats = broker.queueStats(name);
        if (!stats)
            continue;
        const auto next = nextSequence.find(id);
        if (!ok(rc = writeCounters(id, *stats, next == nextSequence.end() ? 0 : next->second)))
            return rollback(rc, "saving");
    }
    for (const auto& [id, name] : windowsOf) {
        auto mirror = m_queues.find(id);
        if (deleted.count(id) || mirror == m_queues.end() || !mirror->second.fifo)
            continue;
        if (!ok(rc = writeWindows(broker, id, name, purged.count(id) != 0, mirror->second)))
            return rollback(rc, "saving");
    }
    return finishSaving(broker, clock);
}

} // namespace inflight::store
