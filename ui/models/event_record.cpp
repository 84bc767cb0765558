#include "ui/models/event_record.h"

#include <QCoreApplication>
#include <QStringList>

namespace inflight::ui {

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("inflight::ui::EventRecord", text);
}
} // namespace

EventRecord makeEventRecord(const engine::Event& e, StringPool& strings)
{
    EventRecord record;
    record.sequence = e.sequence;
    record.time = e.time;
    record.deadline = e.deadline;
    record.count = e.count;
    record.queue = strings.intern(e.queue);
    record.origin = strings.intern(e.origin);
    record.messageId = toQString(e.messageId);
    record.receipt = QByteArray(e.receipt.data(), static_cast<qsizetype>(e.receipt.size()));
    record.detail = toQString(e.detail);
    record.receiveCount = e.receiveCount;
    record.kind = e.kind;
    return record;
}

QString describeEvent(const EventRecord& e)
{
    using engine::EventKind;
    switch (e.kind) {
    case EventKind::MessageSent: {
        QStringList parts;
        if (!e.detail.isEmpty())
            parts.append(e.detail);
        if (e.deadline > e.time)
            parts.append(tr("delayed until %1").arg(formatEngineTime(e.deadline)));
        return parts.join(QStringLiteral(", "));
    }
    case EventKind::MessageReceived:
        return tr("receive #%1, visible at %2")
            .arg(e.receiveCount)
            .arg(formatEngineTime(e.deadline));
    case EventKind::VisibilityChanged: return tr("visible at %1").arg(formatEngineTime(e.deadline));
    case EventKind::MessageReleased:
    case EventKind::VisibilityExpired: return tr("after receive #%1").arg(e.receiveCount);
    case EventKind::MovedToDeadLetterQueue:
        return tr("\u2192 %1 after %2 receives").arg(e.detail).arg(e.receiveCount);
    case EventKind::MovedByTask: return QStringLiteral("\u2192 %1").arg(e.detail);
    case EventKind::QueuePurged: return tr("%1 messages removed").arg(e.count);
    case EventKind::MoveTaskProgress:
        return tr("task %1: %2 moved").arg(shortId(e.detail)).arg(e.count);
    case EventKind::DelayEnded:
    case EventKind::MessageDeleted:
    case EventKind::RetentionExpired:
    case EventKind::MessageDeduplicated:
    case EventKind::QueueCreated:
    case EventKind::QueueChanged:
    case EventKind::QueueDeleted: break;
    }
    return e.detail;
}

QString originText(const EventRecord& e)
{
    return e.origin.isEmpty() ? QStringLiteral("\u2014") : e.origin;
}

} // namespace inflight::ui
