// Export and restore of the whole engine state (snapshot.h) for persistence.
#include "engine/broker.h"

#include "engine/internal/broker_state.h"

#include <algorithm>

namespace inflight::engine {

namespace {

Error restoreError(std::string message)
{
    return makeError(ErrorCode::InvalidParameterValue, std::move(message), "record");
}

MessageRecord recordOf(const BrokerState& s, const Message& m, std::uint32_t slot,
                       bool withContent = true)
{
    MessageRecord r = withContent ? MessageRecord{m.content()} : MessageRecord{};
    r.slot = slot;
    r.sequence = m.sequence;
    r.idHigh = m.idHigh;
    r.idLow = m.idLow;
    r.state = m.state;
    r.sentAt = m.sentAt;
    r.retentionBase = m.retentionBase;
    r.deadline = m.deadline;
    r.receivedAt = m.receivedAt;
    r.firstReceivedAt = m.firstReceivedAt;
    r.receiveCount = m.receiveCount;
    r.receiptNonce = m.receiptNonce;
    r.visibilityChanges = m.visibilityChanges;
    r.lastReceiveOrigin = s.originName(m.lastReceiveOrigin);
    r.returnCause = m.returnCause;
    r.senderId = s.senderName(m.sender);
    return r;
}

std::vector<ReceiveAttemptRecord> attemptRecordsOf(const Queue& q)
{
    std::vector<ReceiveAttemptRecord> records;
    records.reserve(q.attempts.size());
    for (const auto& [id, a] : q.attempts) {
        ReceiveAttemptRecord ar;
        ar.attemptId = id;
        ar.expiresAt = a.expiresAt;
        for (const auto& item : a.items)
            ar.items.push_back({item.slot, item.sequence, item.receiveCount, item.visibleAt,
                                item.visibilityChanges, item.receipt});
        records.push_back(std::move(ar));
    }
    std::sort(records.begin(), records.end(),
              [](const auto& a, const auto& b) { return a.expiresAt < b.expiresAt; });
    return records;
}

QueueRecord recordOf(const Queue& q)
{
    QueueRecord r;
    r.id = q.id;
    r.name = q.name;
    r.oci = q.isOci();
    r.attributes = formatAttributes(q.config);
    r.tags = q.tags;
    r.isBuiltInDeadLetter = q.isBuiltInDeadLetter;
    r.builtInDeadLetterName = q.builtInDeadLetterName;
    r.createdAt = q.createdAt;
    r.lastModifiedAt = q.lastModifiedAt;
    r.lastPurgeAt = q.lastPurgeAt;
    r.nextSequence = q.nextSequence;
    r.counters = q.counters;
    r.deduplication.reserve(q.dedup.size());
    q.dedup.forEach([&r](const DedupWindow::Record& d) {
        r.deduplication.push_back({d.key, d.expiresAt, d.idHigh, d.idLow, d.sequence});
    });
    r.attempts = attemptRecordsOf(q);
    return r;
}

} // namespace

BrokerRecord Broker::brokerRecord()
{
    BrokerState& s = *m_state;
    BrokerRecord r;
    r.nextQueueId = s.nextQueueId;
    r.randomState = s.random.state();
    r.receiptKey = s.receiptKey;
    const Millis now = clock().now();
    for (const auto& [name, at] : s.deletedAt)
        if (now - at < s.options.recreateDelay)
            r.deletedAt.emplace(name, at);
    for (const MoveTask& t : s.tasks)
        r.moveTasks.push_back({t.taskId, t.handle, t.sourceName, t.sourceArn, t.destinationArn,
                               t.maxMessagesPerSecond, t.status, t.moved, t.toMove, t.startedAt,
                               t.failureReason, t.origin});
    return r;
}

std::vector<QueueRecord> Broker::queueRecords()
{
    std::vector<QueueRecord> result;
    for (const auto& [name, q] : m_state->queues)
        result.push_back(recordOf(*q));
    // A built-in DLQ after the queue it belongs to.
    std::stable_sort(result.begin(), result.end(), [](const QueueRecord& a, const QueueRecord& b) {
        return !a.isBuiltInDeadLetter && b.isBuiltInDeadLetter;
    });
    return result;
}

Result<QueueRecord> Broker::queueRecord(std::string_view name)
{
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return recordOf(**q);
}

Result<DeduplicationTail> Broker::deduplicationSince(std::string_view name,
                                                     std::uint64_t fromSequence)
{
    auto found = m_state->requireQueue(name);
    if (!found)
        return found.error();
    const Queue& q = **found;
    DeduplicationTail tail;
    tail.queueId = q.id;
    tail.nextSequence = q.nextSequence;
    const DedupWindow::Record* oldest = q.dedup.oldest();
    tail.keptFrom = oldest ? oldest->sequence : q.nextSequence;
    q.dedup.forEachNewestWhile([&](const DedupWindow::Record& d) {
        if (d.sequence < fromSequence)
            return false;
        tail.records.push_back({d.key, d.expiresAt, d.idHigh, d.idLow, d.sequence});
        return true;
    });
    std::reverse(tail.records.begin(), tail.records.end());
    return tail;
}

Result<std::vector<ReceiveAttemptRecord>> Broker::receiveAttempts(std::string_view name)
{
    auto found = m_state->requireQueue(name);
    if (!found)
        return found.error();
    return attemptRecordsOf(**found);
}

Status Broker::forEachMessage(std::string_view name,
                              const std::function<void(const MessageRecord&)>& visit)
{
    auto found = m_state->requireQueue(name);
    if (!found)
        return found.error();
    const Queue& q = **found;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order;
    order.reserve(q.store.size());
    for (std::uint32_t slot = 0; slot < q.store.end(); ++slot)
        if (const std::uint64_t sequence = q.store.at(slot).sequence)
            order.emplace_back(sequence, slot);
    std::sort(order.begin(), order.end());
    for (const auto& [sequence, slot] : order)
        visit(recordOf(*m_state, q.store.at(slot), slot));
    return Done{};
}

Result<MessageRecord> Broker::messageRecord(std::string_view name, MessageKey key,
                                            RecordContent content)
{
    auto found = m_state->requireQueue(name);
    if (!found)
        return found.error();
    const Message* m = (*found)->store.find(key.slot, key.sequence);
    if (!m)
        return makeError(ErrorCode::ResourceNotFound, "The message is no longer in the queue.",
                         "MessageKey");
    return recordOf(*m_state, *m, key.slot, content == RecordContent::Included);
}

Status Broker::restoreBroker(const BrokerRecord& r)
{
    BrokerState& s = *m_state;
    s.nextQueueId = std::max(s.nextQueueId, r.nextQueueId);
    s.random.setState(r.randomState);
    s.receiptKey = r.receiptKey;
    for (const auto& [name, at] : r.deletedAt)
        s.deletedAt[name] = at;
    s.tasks.clear();
    for (const MoveTaskRecord& t : r.moveTasks) {
        MoveTask task;
        task.taskId = t.taskId;
        task.handle = t.handle;
        task.sourceName = t.sourceName;
        task.sourceArn = t.sourceArn;
        task.destinationArn = t.destinationArn;
        task.maxMessagesPerSecond = t.maxMessagesPerSecond;
        task.status = t.status;
        task.moved = t.moved;
        task.toMove = t.toMove;
        task.startedAt = t.startedAt;
        task.failureReason = t.failureReason;
        task.origin = t.origin;
        s.tasks.push_back(std::move(task));
    }
    return Done{};
}

Status Broker::restoreQueue(const QueueRecord& r)
{
    BrokerState& s = *m_state;
    if (s.findQueue(r.name))
        return restoreError("A queue named " + r.name + " is already restored.");
    if (r.name.empty() || r.name.size() > kMaxQueueNameLength)
        return restoreError("A stored queue's name is not 1 to "
                            + std::to_string(kMaxQueueNameLength) + " characters long.");
    StringMap attributes = r.attributes;
    // formatAttributes shows SqsManagedSseEnabled=true next to nothing else; with a KMS key it is
    // false. configForCreate takes the pair back as it was shown.
    auto config = configForCreate(attributes, r.oci, s.options);
    if (!config)
        return config.error();
    auto q = std::make_unique<Queue>();
    q->id = r.id;
    q->name = r.name;
    q->arn = s.arnFor(r.name);
    q->config = std::move(*config);
    q->tags = r.tags;
    q->isBuiltInDeadLetter = r.isBuiltInDeadLetter;
    q->builtInDeadLetterName = r.builtInDeadLetterName;
    q->createdAt = r.createdAt;
    q->lastModifiedAt = r.lastModifiedAt;
    q->lastPurgeAt = r.lastPurgeAt;
    q->nextSequence = r.nextSequence;
    q->counters = r.counters;
    // The window holds its records in the order they were made: that of their sequences, which
    // deduplicationSince relies on (the store drops the rows below the oldest's), and, the clock
    // being monotonic, the order they expire in. A store may give them in any order (by key).
    std::vector<const DeduplicationRecord*> dedup;
    dedup.reserve(r.deduplication.size());
    for (const DeduplicationRecord& d : r.deduplication)
        dedup.push_back(&d);
    std::stable_sort(dedup.begin(), dedup.end(),
                     [](const auto* a, const auto* b) { return a->sequence < b->sequence; });
    for (const DeduplicationRecord* d : dedup) {
        // Keys are unique in a snapshot; were one given twice, the earlier record stands.
        auto [entry, fresh] = q->dedup.insert(d->key, d->expiresAt);
        if (fresh) {
            entry->idHigh = d->idHigh;
            entry->idLow = d->idLow;
            entry->sequence = d->sequence;
        }
    }
    for (const ReceiveAttemptRecord& a : r.attempts) {
        AttemptRecord record;
        record.expiresAt = a.expiresAt;
        for (const auto& item : a.items)
            record.items.push_back({item.slot, item.sequence, item.receiveCount, item.visibleAt,
                                    static_cast<std::uint16_t>(item.visibilityChanges),
                                    item.receipt});
        q->attempts[a.attemptId] = std::move(record);
        q->attemptExpiry.emplace_back(a.expiresAt, a.attemptId);
    }
    std::sort(q->attemptExpiry.begin(), q->attemptExpiry.end());
    s.nextQueueId = std::max(s.nextQueueId, r.id + 1);
    s.queues[r.name] = std::move(q);
    return Done{};
}

Status Broker::restoreMessage(std::string_view queue, MessageRecord r)
{
    BrokerState& s = *m_state;
    auto found = s.requireQueue(queue);
    if (!found)
        return found.error();
    Queue& q = **found;
    if (r.sequence == 0 || q.store.occupied(r.slot))
        return restoreError("Message slot " + std::to_string(r.slot) + " of " + q.name
                            + " is taken.");
    if (r.sequence >= q.nextSequence)
        q.nextSequence = r.sequence + 1;
    if (q.isFifo() && r.groupId.empty())
        return restoreError("A FIFO message needs its group id.");
    Message& m = q.store.place(r.slot, r.sequence);
    m.idHigh = r.idHigh;
    m.idLow = r.idLow;
    m.sentAt = r.sentAt;
    m.retentionBase = r.retentionBase;
    m.deadline = r.deadline;
    m.receivedAt = r.receivedAt;
    m.firstReceivedAt = r.firstReceivedAt;
    m.receiveCount = r.receiveCount;
    m.receiptNonce = r.receiptNonce;
    m.visibilityChanges = static_cast<std::uint16_t>(r.visibilityChanges);
    m.sender = s.internSender(r.senderId);
    m.lastReceiveOrigin = s.internOrigin(r.lastReceiveOrigin);
    m.returnCause = r.returnCause;
    m.setContent(std::move(static_cast<MessageContent&>(r)));
    s.attachMessage(q, r.slot, m, r.state);
    return Done{};
}

void Broker::finishRestore()
{
    CallScope scope(*m_state);
    for (auto& [name, q] : m_state->queues)
        q->store.rebuildFreeList();
    // What became due while the workspace was closed happens now, as on the real service.
    m_state->advanceAll(clock().now());
}

} // namespace inflight::engine
