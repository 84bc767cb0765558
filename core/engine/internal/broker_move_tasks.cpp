// Message move tasks (§5.5): redrive out of a dead-letter queue, at a rate, in engine time.
#include "engine/internal/broker_state.h"
#include "text/base64.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

namespace inflight::engine {

namespace {

constexpr std::int64_t kDefaultRate = 500; // AWS: "system-optimized"; 500/s, the documented maximum
constexpr char kNonExistentQueue[] = "AWS.SimpleQueueService.NonExistentQueue";

bool isDeadLetterQueueOfAny(BrokerState& s, const Queue& q)
{
    return std::any_of(s.queues.begin(), s.queues.end(), [&](const auto& entry) {
        const auto& policy = entry.second->config.redrivePolicy;
        return policy && policy->deadLetterTargetArn == q.arn;
    });
}

void fail(MoveTask& task, std::string reason)
{
    task.status = MoveTaskStatus::Failed;
    task.failureReason = std::move(reason);
}

} // namespace

Millis MoveTask::nextMoveAt() const
{
    const std::int64_t rate = maxMessagesPerSecond.value_or(kDefaultRate);
    return startedAt + moved * kSecond / rate;
}

bool BrokerState::moveOneByTask(MoveTask& task, Millis at)
{
    Queue* source = findQueueByArn(task.sourceArn);
    if (!source) {
        fail(task, kNonExistentQueue);
        return false;
    }
    settle(*source, at);
    if (task.moved >= task.toMove) {
        task.status = MoveTaskStatus::Completed;
        return false;
    }
    std::uint32_t slot = kNoSlot;
    if (source->isFifo()) {
        if (FifoGroup* g = source->servableGroups.front())
            slot = g->head;
    } else {
        Channel& channel = source->defaultChannel;
        while (!channel.available.empty()) {
            const auto e = channel.available.front();
            const Message* m = source->store.find(e.slot, e.sequence);
            if (m && m->state == MessageState::Available) {
                slot = e.slot;
                break;
            }
            channel.available.popFront();
        }
    }
    if (slot == kNoSlot) {
        task.status = MoveTaskStatus::Completed;
        return false;
    }
    Message& m = source->store.at(slot);
    const std::string destinationArn = !task.destinationArn.empty()
        ? task.destinationArn
        : (m.extras ? m.extras->deadLetterSourceArn : std::string());
    Queue* destination = destinationArn.empty() ? nullptr : findQueueByArn(destinationArn);
    if (!destination) {
        fail(task, kNonExistentQueue);
        return false;
    }

    NewMessage n;
    n.idHigh = random.next();
    n.idLow = random.next();
    // Moved as it was sent: no longer from a dead-letter source, and move tasks are SQS's (no
    // channels).
    n.content = m.content();
    n.content.deadLetterSourceArn.clear();
    n.content.channelId.clear();
    if (destination->isFifo() && n.content.groupId.empty())
        n.content.groupId = "redrive";
    if (destination->isFifo() && n.content.deduplicationId.empty())
        n.content.deduplicationId = formatMessageId(n.idHigh, n.idLow);
    n.sentAt = at;
    n.retentionBase = at;
    n.deliverAt = at;
    n.sender = m.sender; // moved, not sent again: the message is still its sender's

    // One event names both ends (events.h, isMove), as a dead-letter move does.
    std::optional<Event> moved;
    if (wantEvents()) {
        moved = messageEvent(EventKind::MovedByTask, *source, slot, m, at, task.origin);
        moved->detail = destination->name;
    }
    removeMessage(*source, slot, m);
    const std::uint64_t sequence = destination->nextSequence;
    const std::uint32_t newSlot = storeMessage(*destination, std::move(n), at);
    ++destination->counters.sent;
    if (moved) {
        moved->relatedKey = MessageKey{newSlot, sequence};
        moved->relatedMessageId = messageId(destination->store.at(newSlot));
        emit(std::move(*moved));
    }
    if (!destination->waiters.empty())
        serveWaiters(*destination, at);
    ++task.moved;
    if (wantEvents()) {
        Event e = queueEvent(EventKind::MoveTaskProgress, *source, at, task.origin);
        e.detail = task.handle;
        e.count = task.moved;
        emit(std::move(e));
    }
    if (task.moved >= task.toMove)
        task.status = MoveTaskStatus::Completed;
    return true;
}

void BrokerState::runTasks(Millis now)
{
    for (MoveTask& task : tasks)
        while (task.status == MoveTaskStatus::Running && task.nextMoveAt() <= now)
            if (!moveOneByTask(task, task.nextMoveAt()))
                break;
}

Result<std::string> BrokerState::startMoveTask(const StartMoveTaskRequest& r, Millis now)
{
    Queue* source = findQueueByArn(r.sourceArn);
    if (!source)
        return makeError(
            ErrorCode::ResourceNotFound,
            "The resource that you specified for the SourceArn parameter doesn't exist.",
            "SourceArn");
    if (!isDeadLetterQueueOfAny(*this, *source))
        return makeError(ErrorCode::InvalidParameterValue,
                         "Source queue must be configured as a Dead Letter Queue.", "SourceArn");
    if (r.destinationArn && !findQueueByArn(*r.destinationArn))
        return makeError(
            ErrorCode::ResourceNotFound,
            "The resource that you specified for the DestinationArn parameter doesn't exist.",
            "DestinationArn");
    if (r.maxMessagesPerSecond && (*r.maxMessagesPerSecond < 1 || *r.maxMessagesPerSecond > 500))
        return makeError(ErrorCode::InvalidParameterValue,
                         "Value " + std::to_string(*r.maxMessagesPerSecond)
                             + " for parameter MaxNumberOfMessagesPerSecond is invalid. Reason: "
                               "Must be between 1 "
                               "and 500.",
                         "MaxNumberOfMessagesPerSecond");
    runTasks(now);
    for (const MoveTask& t : tasks)
        if (t.sourceArn == source->arn && t.status == MoveTaskStatus::Running)
            return makeError(ErrorCode::InvalidParameterValue,
                             "There is already a task running. Only one active task is allowed for "
                             "a source queue "
                             "arn at a given time.",
                             "SourceArn");
    MoveTask task;
    task.taskId = formatMessageId(random.next(), random.next());
    task.handle = text::base64Encode(
        nlohmann::json{{"taskId", task.taskId}, {"sourceArn", source->arn}}.dump());
    task.sourceName = source->name;
    task.sourceArn = source->arn;
    task.destinationArn = r.destinationArn.value_or("");
    task.maxMessagesPerSecond = r.maxMessagesPerSecond;
    task.toMove = static_cast<std::int64_t>(source->store.size());
    task.startedAt = now;
    task.origin = r.origin;
    if (task.toMove == 0)
        task.status = MoveTaskStatus::Completed;
    tasks.push_back(task);
    if (wantEvents()) {
        Event e = queueEvent(EventKind::MoveTaskProgress, *source, now, r.origin);
        e.detail = task.handle;
        e.count = 0;
        emit(std::move(e));
    }
    return task.handle;
}

Result<std::vector<MoveTaskInfo>> BrokerState::listMoveTasks(std::string_view sourceArn,
                                                             std::optional<std::int64_t> maxResults,
                                                             Millis now)
{
    if (!findQueueByArn(sourceArn))
        return makeError(
            ErrorCode::ResourceNotFound,
            "The resource that you specified for the SourceArn parameter doesn't exist.",
            "SourceArn");
    if (maxResults && (*maxResults < 1 || *maxResults > 10))
        return makeError(
            ErrorCode::InvalidParameterValue,
            "Value " + std::to_string(*maxResults)
                + " for parameter MaxResults is invalid. Reason: Must be between 1 and 10.",
            "MaxResults");
    runTasks(now);
    const std::size_t limit = static_cast<std::size_t>(maxResults.value_or(1));
    std::vector<MoveTaskInfo> result;
    for (auto it = tasks.rbegin(); it != tasks.rend() && result.size() < limit; ++it) {
        if (it->sourceArn != sourceArn)
            continue;
        MoveTaskInfo info;
        info.status = it->status;
        if (it->status == MoveTaskStatus::Running)
            info.taskHandle = it->handle;
        info.sourceArn = it->sourceArn;
        info.destinationArn = it->destinationArn;
        info.maxMessagesPerSecond = it->maxMessagesPerSecond;
        info.moved = it->moved;
        info.toMove = it->toMove;
        info.startedAt = it->startedAt;
        info.failureReason = it->failureReason;
        result.push_back(std::move(info));
    }
    return result;
}

Result<std::int64_t> BrokerState::cancelMoveTask(std::string_view handle, Millis now,
                                                 const Origin& origin)
{
    const auto decoded = text::base64Decode(handle);
    const nlohmann::json parsed
        = decoded ? nlohmann::json::parse(*decoded, nullptr, false) : nlohmann::json();
    if (!parsed.is_object() || !parsed.contains("taskId") || !parsed["taskId"].is_string())
        return makeError(ErrorCode::InvalidParameterValue,
                         "Value for parameter TaskHandle is invalid.", "TaskHandle");
    runTasks(now);
    const std::string taskId = parsed["taskId"].get<std::string>();
    auto it = std::find_if(tasks.begin(), tasks.end(),
                           [&](const MoveTask& t) { return t.taskId == taskId; });
    if (it == tasks.end() || it->status != MoveTaskStatus::Running)
        return makeError(ErrorCode::ResourceNotFound, "Task does not exist.", "TaskHandle");
    it->status = MoveTaskStatus::Cancelled;
    if (wantEvents())
        if (Queue* source = findQueueByArn(it->sourceArn)) {
            Event e = queueEvent(EventKind::MoveTaskProgress, *source, now, origin);
            e.detail = it->handle + " cancelled";
            e.count = it->moved;
            emit(std::move(e));
        }
    return it->moved;
}

} // namespace inflight::engine
