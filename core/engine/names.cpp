#include "engine/events.h"
#include "engine/requests.h"
#include "engine/types.h"

namespace inflight::engine {

std::string_view queueKindName(QueueKind kind)
{
    switch (kind) {
    case QueueKind::Standard: return "standard";
    case QueueKind::Fifo: return "fifo";
    case QueueKind::Oci: return "oci";
    }
    return "?";
}

std::string_view messageStateName(MessageState s)
{
    switch (s) {
    case MessageState::Delayed: return "delayed";
    case MessageState::Available: return "available";
    case MessageState::InFlight: return "in flight";
    }
    return "?";
}

bool MessageAttributeValue::isBinary() const
{
    return dataType.rfind("Binary", 0) == 0;
}

std::string_view moveTaskStatusName(MoveTaskStatus s)
{
    switch (s) {
    case MoveTaskStatus::Running: return "RUNNING";
    case MoveTaskStatus::Completed: return "COMPLETED";
    case MoveTaskStatus::Cancelling: return "CANCELLING";
    case MoveTaskStatus::Cancelled: return "CANCELLED";
    case MoveTaskStatus::Failed: return "FAILED";
    }
    return "?";
}

std::string_view eventKindName(EventKind kind)
{
    switch (kind) {
    case EventKind::QueueCreated: return "queue created";
    case EventKind::QueueChanged: return "queue changed";
    case EventKind::QueueDeleted: return "queue deleted";
    case EventKind::QueuePurged: return "purged";
    case EventKind::MessageSent: return "sent";
    case EventKind::MessageDeduplicated: return "deduplicated";
    case EventKind::DelayEnded: return "delay ended";
    case EventKind::MessageReceived: return "received";
    case EventKind::VisibilityChanged: return "visibility changed";
    case EventKind::MessageReleased: return "released";
    case EventKind::VisibilityExpired: return "visibility expired";
    case EventKind::MessageDeleted: return "deleted";
    case EventKind::MovedToDeadLetterQueue: return "moved to DLQ";
    case EventKind::MovedByTask: return "moved by task";
    case EventKind::RetentionExpired: return "retention expired";
    case EventKind::MoveTaskProgress: return "move task progress";
    }
    return "?";
}

} // namespace inflight::engine
