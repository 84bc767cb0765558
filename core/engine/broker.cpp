// The public face of the engine: each call opens a CallScope (events and long-poll completions
// are delivered when the outermost call ends), finds its queue, brings it up to date with the
// clock and hands over to the rules in the broker_*.cpp files.
#include "engine/broker.h"

#include "engine/internal/broker_state.h"
#include "engine/message_validation.h"

#include <algorithm>

namespace inflight::engine {

namespace {

std::size_t maxBatchEntries(const Queue& q)
{
    return q.isOci() ? 20 : 10;
}

template <class Entry>
Status validateIds(const Queue& q, const std::vector<Entry>& entries)
{
    std::vector<std::string_view> ids;
    ids.reserve(entries.size());
    for (const Entry& e : entries)
        ids.push_back(e.id);
    return validateBatchEntryIds(ids, maxBatchEntries(q));
}

// Runs `one` on every entry; successes and failures are collected in request order.
template <class T, class Entry, class One>
BatchResult<T> collectBatch(const std::vector<Entry>& entries, One one)
{
    BatchResult<T> result;
    // Nearly every entry succeeds: room for all at once, not five growths for a batch of ten.
    result.successful.reserve(entries.size());
    result.succeededInOrder.reserve(entries.size());
    for (const Entry& e : entries) {
        Result<T> r = one(e);
        result.succeededInOrder.push_back(r.ok());
        if (r)
            result.successful.push_back({e.id, std::move(r).value()});
        else
            result.failed.push_back({e.id, r.error(), true});
    }
    return result;
}

} // namespace

Broker::Broker(const Clock& clock, BrokerOptions options)
    : m_state(std::make_unique<BrokerState>(clock, std::move(options)))
{
}

Broker::~Broker() = default;

const Clock& Broker::clock() const
{
    return m_state->clock;
}
const BrokerOptions& Broker::options() const
{
    return m_state->options;
}
void Broker::setEventSink(EventSink sink)
{
    m_state->sink = std::move(sink);
}

std::uint64_t Broker::eventsEmitted() const
{
    return m_state->eventsEmitted;
}
std::string Broker::arnForName(std::string_view name) const
{
    return m_state->arnFor(name);
}

// ---- queues ------------------------------------------------------------------------------------

Result<QueueRef> Broker::createQueue(const CreateQueueRequest& request)
{
    CallScope scope(*m_state);
    return m_state->createQueue(request, clock().now());
}

Result<QueueRef> Broker::getQueue(std::string_view name)
{
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return refOf(**q);
}

Result<QueueKind> Broker::queueKind(std::string_view name)
{
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return (*q)->kind();
}

Result<ListQueuesResult> Broker::listQueues(const ListQueuesRequest& request)
{
    return m_state->listQueues(request);
}

Status Broker::deleteQueue(std::string_view name, const Origin& origin)
{
    CallScope scope(*m_state);
    return m_state->deleteQueue(name, clock().now(), origin);
}

Result<StringMap> Broker::getQueueAttributes(std::string_view name,
                                             const std::vector<std::string>& names)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    m_state->settle(**q, clock().now());
    return m_state->getAttributes(**q, names);
}

Status Broker::setQueueAttributes(std::string_view name, const StringMap& attributes,
                                  const Origin& origin)
{
    CallScope scope(*m_state);
    const Millis now = clock().now();
    auto q = m_state->settledQueue(name, now);
    if (!q)
        return q.error();
    return m_state->setAttributes(**q, attributes, now, origin);
}

Status Broker::tagQueue(std::string_view name, const StringMap& tags, const Origin& origin)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return m_state->tag(**q, tags, clock().now(), origin);
}

Status Broker::untagQueue(std::string_view name, const std::vector<std::string>& keys,
                          const Origin& origin)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return m_state->untag(**q, keys, clock().now(), origin);
}

Result<StringMap> Broker::listQueueTags(std::string_view name)
{
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return (*q)->tags;
}

Status Broker::purgeQueue(std::string_view name, PurgeTarget target, const Origin& origin)
{
    CallScope scope(*m_state);
    const Millis now = clock().now();
    auto q = m_state->settledQueue(name, now);
    if (!q)
        return q.error();
    return m_state->purge(**q, target, now, origin);
}

Status Broker::resetQueue(std::string_view name, const Origin& origin)
{
    CallScope scope(*m_state);
    const Millis now = clock().now();
    auto q = m_state->settledQueue(name, now);
    if (!q)
        return q.error();
    Queue& queue = **q;
    queue.lastPurgeAt = -1; // the reset is no PurgeQueue: neither limited by one nor limiting
    const Status purged = m_state->purge(
        queue, queue.isOci() ? PurgeTarget::Both : PurgeTarget::Normal, now, origin);
    queue.lastPurgeAt = -1;
    return purged;
}

void Broker::reset(const Origin& origin)
{
    CallScope scope(*m_state);
    const Millis now = clock().now();
    std::vector<std::string> names;
    for (const auto& [name, queue] : m_state->queues)
        if (!queue->isBuiltInDeadLetter)
            names.push_back(name); // built-in DLQs go with their OCI queue
    for (const std::string& name : names)
        (void)m_state->deleteQueue(name, now, origin);
    m_state->deletedAt.clear();
    m_state->tasks.clear();
}

Result<ListQueuesResult> Broker::listDeadLetterSourceQueues(std::string_view name,
                                                            const ListQueuesRequest& page)
{
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return m_state->listDeadLetterSources(**q, page);
}

Status Broker::addPermission(std::string_view name, const std::string& label,
                             const std::vector<std::string>& accountIds,
                             const std::vector<std::string>& actions, const Origin& origin)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return m_state->addPermission(**q, label, accountIds, actions, clock().now(), origin);
}

Status Broker::removePermission(std::string_view name, const std::string& label,
                                const Origin& origin)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    return m_state->removePermission(**q, label, clock().now(), origin);
}

// ---- messages ----------------------------------------------------------------------------------

Result<SendResult> Broker::sendMessage(const SendMessageRequest& request)
{
    CallScope scope(*m_state);
    const Millis now = clock().now();
    auto q = m_state->settledQueue(request.queue, now);
    if (!q)
        return q.error();
    return m_state->sendOne(**q, request, false, now, request.origin);
}

Result<BatchResult<SendResult>> Broker::sendMessageBatch(std::string_view queue,
                                                         const std::vector<BatchSendEntry>& entries,
                                                         const Origin& origin)
{
    CallScope scope(*m_state);
    auto found = m_state->requireQueue(queue);
    if (!found)
        return found.error();
    Queue& q = **found;
    if (Status s = validateIds(q, entries); !s)
        return s.error();
    if (!q.isOci()) {
        std::int64_t total = 0;
        for (const BatchSendEntry& e : entries)
            total += messageSize(e.message.body.value_or(std::string()), e.message.attributes);
        constexpr std::int64_t kMaxBatchBytes = 1'048'576;
        if (total > kMaxBatchBytes)
            return makeError(ErrorCode::BatchRequestTooLong,
                             "Batch requests cannot be longer than 1048576 bytes. You have sent "
                                 + std::to_string(total) + " bytes.");
        if (q.isFifo()) {
            for (const BatchSendEntry& e : entries) {
                if (!e.message.groupId)
                    return makeError(ErrorCode::InvalidParameterValue,
                                     "The request must contain the parameter MessageGroupId.",
                                     "MessageGroupId");
                if (!e.message.deduplicationId && !q.config.contentBasedDeduplication)
                    return makeError(
                        ErrorCode::InvalidParameterValue,
                        "The queue should either have ContentBasedDeduplication enabled or "
                        "MessageDeduplicationId provided explicitly",
                        "MessageDeduplicationId");
            }
        }
    }
    const Millis now = clock().now();
    m_state->settle(q, now);
    return collectBatch<SendResult>(entries, [&](const BatchSendEntry& e) {
        return m_state->sendOne(q, e.message, true, now, origin);
    });
}

Result<ReceiveResult> Broker::receiveMessage(const ReceiveRequest& request)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(request.queue);
    if (!q)
        return q.error();
    auto plan = m_state->planReceive(**q, request);
    if (!plan)
        return plan.error();
    const Millis now = clock().now();
    m_state->settle(**q, now);
    auto result = m_state->receiveNow(**q, *plan, plan->wait > 0, now);
    if (result && result->messages.empty())
        ++(*q)->counters.emptyReceives;
    return result;
}

WaitId Broker::receiveMessageAsync(const ReceiveRequest& request, ReceiveCallback done)
{
    CallScope scope(*m_state);
    auto answer = [&](Result<ReceiveResult> r) -> WaitId {
        m_state->completions.emplace_back(std::move(done), std::move(r));
        return 0;
    };
    auto q = m_state->requireQueue(request.queue);
    if (!q)
        return answer(q.error());
    auto plan = m_state->planReceive(**q, request);
    if (!plan)
        return answer(plan.error());
    const Millis now = clock().now();
    m_state->settle(**q, now);
    auto result = m_state->receiveNow(**q, *plan, plan->wait > 0, now);
    if (!result || !result->messages.empty() || plan->wait == 0) {
        if (result && result->messages.empty())
            ++(*q)->counters.emptyReceives;
        return answer(std::move(result));
    }
    return m_state->addWaiter(**q, std::move(*plan), std::move(done), now);
}

bool Broker::cancelWait(WaitId id)
{
    auto it = m_state->waiters.find(id);
    if (it == m_state->waiters.end())
        return false;
    if (Queue* q = m_state->findQueue(it->second.queue)) {
        auto pos = std::find(q->waiters.begin(), q->waiters.end(), id);
        if (pos != q->waiters.end())
            q->waiters.erase(pos);
    }
    m_state->waiters.erase(it);
    return true;
}

std::size_t Broker::pendingWaits() const
{
    return m_state->waiters.size();
}

Status Broker::deleteMessage(std::string_view queue, std::string_view receiptHandle,
                             const Origin& origin)
{
    CallScope scope(*m_state);
    const Millis now = clock().now();
    auto q = m_state->settledQueue(queue, now);
    if (!q)
        return q.error();
    return m_state->deleteOne(**q, receiptHandle, now, origin);
}

Result<BatchResult<Done>> Broker::deleteMessageBatch(std::string_view queue,
                                                     const std::vector<BatchReceiptEntry>& entries,
                                                     const Origin& origin)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(queue);
    if (!q)
        return q.error();
    if (Status s = validateIds(**q, entries); !s)
        return s.error();
    const Millis now = clock().now();
    m_state->settle(**q, now);
    return collectBatch<Done>(entries, [&](const BatchReceiptEntry& e) {
        return m_state->deleteOne(**q, e.receiptHandle, now, origin);
    });
}

Result<ChangeVisibilityResult> Broker::changeMessageVisibility(
    std::string_view queue, std::string_view receiptHandle,
    std::optional<std::int64_t> visibilityTimeout, const Origin& origin)
{
    CallScope scope(*m_state);
    const Millis now = clock().now();
    auto q = m_state->settledQueue(queue, now);
    if (!q)
        return q.error();
    return m_state->changeOne(**q, receiptHandle, visibilityTimeout, now, origin);
}

Result<BatchResult<ChangeVisibilityResult>> Broker::changeMessageVisibilityBatch(
    std::string_view queue, const std::vector<BatchReceiptEntry>& entries, const Origin& origin)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(queue);
    if (!q)
        return q.error();
    if (Status s = validateIds(**q, entries); !s)
        return s.error();
    const Millis now = clock().now();
    m_state->settle(**q, now);
    return collectBatch<ChangeVisibilityResult>(entries, [&](const BatchReceiptEntry& e) {
        return m_state->changeOne(**q, e.receiptHandle, e.visibilityTimeout, now, origin);
    });
}

// ---- move tasks --------------------------------------------------------------------------------

Result<std::string> Broker::startMessageMoveTask(const StartMoveTaskRequest& request)
{
    CallScope scope(*m_state);
    return m_state->startMoveTask(request, clock().now());
}

Result<std::vector<MoveTaskInfo>> Broker::listMessageMoveTasks(
    std::string_view sourceArn, std::optional<std::int64_t> maxResults)
{
    CallScope scope(*m_state);
    return m_state->listMoveTasks(sourceArn, maxResults, clock().now());
}

Result<std::int64_t> Broker::cancelMessageMoveTask(std::string_view taskHandle,
                                                   const Origin& origin)
{
    CallScope scope(*m_state);
    return m_state->cancelMoveTask(taskHandle, clock().now(), origin);
}

// ---- time --------------------------------------------------------------------------------------

Millis Broker::nextDeadline()
{
    return m_state->nextDeadlineAll();
}

void Broker::advance(Millis now)
{
    CallScope scope(*m_state);
    m_state->advanceAll(std::min(now, clock().now()));
}

// ---- peek --------------------------------------------------------------------------------------

std::vector<QueueView> Broker::queues()
{
    std::vector<QueueView> result;
    for (const auto& [name, q] : m_state->queues)
        result.push_back(*queueView(name));
    return result;
}

Result<QueueView> Broker::queueView(std::string_view name)
{
    CallScope scope(*m_state);
    auto found = m_state->requireQueue(name);
    if (!found)
        return found.error();
    Queue& q = **found;
    const Millis now = clock().now();
    m_state->settle(q, now);
    QueueView v;
    v.id = q.id;
    v.name = q.name;
    v.arn = q.arn;
    v.kind = q.kind();
    v.attributes = m_state->allAttributes(q);
    v.tags = q.tags;
    v.stats = m_state->stats(q, now);
    if (q.isOci()) {
        v.deadLetterTarget = q.builtInDeadLetterName;
    } else if (q.config.redrivePolicy) {
        v.deadLetterTarget
            = queueNameFromArn(q.config.redrivePolicy->deadLetterTargetArn).value_or("");
    }
    v.maxReceiveCount = m_state->maxReceiveCount(q);
    v.isBuiltInDeadLetterQueue = q.isBuiltInDeadLetter;
    for (const auto& [otherName, other] : m_state->queues) {
        if (other->config.redrivePolicy
            && other->config.redrivePolicy->deadLetterTargetArn == q.arn)
            v.deadLetterSources.push_back(otherName);
        if (other->builtInDeadLetterName == q.name)
            v.deadLetterSources.push_back(otherName);
    }
    return v;
}

Result<QueueStats> Broker::queueStats(std::string_view name)
{
    CallScope scope(*m_state);
    auto q = m_state->requireQueue(name);
    if (!q)
        return q.error();
    const Millis now = clock().now();
    m_state->settle(**q, now);
    return m_state->stats(**q, now);
}

namespace {

// The (sequence, slot) of the messages `request` selects past its cursor, the first `offset +
// limit` of them in sequence order (a partial sort: the rest are left out); returns how many.
std::size_t selectInOrder(const Queue& q, const PeekRequest& request,
                          std::vector<std::pair<std::uint64_t, std::uint32_t>>& order)
{
    // Slots are not in sequence order once reused: collect what is wanted past the cursor, then
    // put only the page in order, so that paging through a queue does not sort it per page.
    order.reserve(q.store.size());
    for (std::uint32_t slot = 0; slot < q.store.end(); ++slot) {
        const Message& m = q.store.at(slot);
        if (m.sequence <= request.after) // free slots (sequence 0) too
            continue;
        const bool wanted = (m.state == MessageState::Delayed && request.delayed)
            || (m.state == MessageState::Available && request.available)
            || (m.state == MessageState::InFlight && request.inFlight);
        if (wanted)
            order.emplace_back(m.sequence, slot);
    }
    const std::size_t end = request.limit >= order.size() - std::min(order.size(), request.offset)
        ? order.size()
        : request.offset + request.limit;
    if (end < order.size())
        std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(end),
                         order.end());
    std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(end));
    return end;
}

} // namespace

Result<std::vector<MessageView>> Broker::peekMessages(std::string_view name,
                                                      const PeekRequest& request)
{
    std::vector<MessageView> result;
    auto visited
        = forEachMessage(name, request, [&](const MessageView& view) { result.push_back(view); });
    if (!visited)
        return visited.error();
    return result;
}

Status Broker::forEachMessage(std::string_view name, const PeekRequest& request,
                              const std::function<void(const MessageView&)>& visit)
{
    CallScope scope(*m_state);
    auto found = m_state->settledQueue(name, clock().now());
    if (!found)
        return found.error();
    Queue& q = **found;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order;
    const std::size_t end = selectInOrder(q, request, order);
    for (std::size_t i = request.offset; i < end; ++i)
        visit(m_state->view(q, order[i].second, q.store.at(order[i].second)));
    return Done{};
}

Result<std::vector<MessageKey>> Broker::messageKeys(std::string_view name)
{
    CallScope scope(*m_state);
    auto found = m_state->settledQueue(name, clock().now());
    if (!found)
        return found.error();
    const Queue& q = **found;
    std::vector<MessageKey> keys;
    keys.reserve(q.store.size());
    for (std::uint32_t slot = 0; slot < q.store.end(); ++slot) {
        const Message& m = q.store.at(slot);
        if (m.sequence != 0) // 0: a free slot
            keys.push_back({slot, m.sequence});
    }
    // Slots are in sequence order until one is reused: usually nothing to move.
    const auto bySequence = [](MessageKey a, MessageKey b) { return a.sequence < b.sequence; };
    if (!std::is_sorted(keys.begin(), keys.end(), bySequence))
        std::sort(keys.begin(), keys.end(), bySequence);
    return keys;
}

Result<MessageView> Broker::peekMessage(std::string_view name, MessageKey key)
{
    CallScope scope(*m_state);
    auto found = m_state->settledQueue(name, clock().now());
    if (!found)
        return found.error();
    Queue& q = **found;
    const Message* m = q.store.find(key.slot, key.sequence);
    if (!m)
        return makeError(ErrorCode::ResourceNotFound, "The message is no longer in the queue.",
                         "MessageKey");
    return m_state->view(q, key.slot, *m);
}

Result<std::vector<GroupView>> Broker::peekGroups(std::string_view name)
{
    CallScope scope(*m_state);
    auto found = m_state->requireQueue(name);
    if (!found)
        return found.error();
    Queue& q = **found;
    const Millis now = clock().now();
    m_state->settle(q, now);
    std::vector<GroupView> result;
    if (q.isFifo()) {
        std::vector<FifoGroup*> groups;
        for (const auto& g : q.groups)
            groups.push_back(g.get());
        std::sort(groups.begin(), groups.end(), [&](FifoGroup* a, FifoGroup* b) {
            return q.store.at(a->head).sequence < q.store.at(b->head).sequence;
        });
        for (FifoGroup* g : groups) {
            const Message& head = q.store.at(g->head);
            GroupView v;
            v.groupId = g->id;
            v.headMessageId = m_state->messageId(head);
            v.headState = head.state;
            v.blocked = head.state != MessageState::Available;
            if (v.blocked) {
                v.blockingMessageId = v.headMessageId;
                v.blockedUntil = head.state == MessageState::InFlight ? head.deadline
                                                                      : m_state->deliverAt(q, head);
            }
            v.waiting = g->count - 1;
            v.inFlight = g->inFlight;
            result.push_back(std::move(v));
        }
        return result;
    }
    auto describe = [&](const Channel& c) {
        GroupView v;
        v.groupId = c.id;
        v.waiting = c.availableCount + c.delayedCount;
        v.inFlight = c.inFlightCount;
        return v;
    };
    if (q.defaultChannel.availableCount + q.defaultChannel.inFlightCount
            + q.defaultChannel.delayedCount
        > 0)
        result.push_back(describe(q.defaultChannel));
    std::vector<const Channel*> channels;
    for (const auto& [id, c] : q.channels)
        channels.push_back(c.get());
    std::sort(channels.begin(), channels.end(),
              [](const Channel* a, const Channel* b) { return a->id < b->id; });
    for (const Channel* c : channels)
        result.push_back(describe(*c));
    return result;
}

Result<QueueStats> Broker::channelStats(std::string_view name, std::string_view channelId)
{
    CallScope scope(*m_state);
    auto found = m_state->requireQueue(name);
    if (!found)
        return found.error();
    Queue& q = **found;
    m_state->settle(q, clock().now());
    QueueStats s;
    const Channel* c = nullptr;
    if (channelId.empty()) {
        c = &q.defaultChannel;
    } else if (auto it = q.channels.find(std::string(channelId)); it != q.channels.end()) {
        c = it->second.get();
    }
    if (c) {
        s.available = c->availableCount;
        s.inFlight = c->inFlightCount;
        s.delayed = c->delayedCount;
        s.sizeInBytes = c->bytes;
    }
    return s;
}

Result<std::vector<std::string>> Broker::listChannels(std::string_view name,
                                                      std::string_view filter)
{
    CallScope scope(*m_state);
    auto found = m_state->requireQueue(name);
    if (!found)
        return found.error();
    Queue& q = **found;
    m_state->settle(q, clock().now());
    std::vector<std::string> result;
    for (const auto& [id, c] : q.channels)
        if (id.compare(0, filter.size(), filter) == 0)
            result.push_back(id);
    std::sort(result.begin(), result.end());
    return result;
}

} // namespace inflight::engine
