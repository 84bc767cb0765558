#include "ui/models/receipt_holders.h"

#include "session/session.h"

namespace inflight::ui {

ReceiptHolders::ReceiptHolders(session::Session& session, QObject* parent) : QObject(parent)
{
    connect(&session, &session::Session::eventsReady, this, &ReceiptHolders::onEvents);
}

QString ReceiptHolders::holder(const std::string& queueName, std::uint64_t sequence) const
{
    const auto queue = m_holders.find(queueName);
    if (queue == m_holders.end())
        return {};
    const auto it = queue->second.find(sequence);
    return it == queue->second.end() ? QString() : it->second;
}

void ReceiptHolders::release(const std::string& queueName, std::uint64_t sequence)
{
    const auto queue = m_holders.find(queueName);
    if (queue == m_holders.end())
        return;
    const auto it = queue->second.find(sequence);
    if (it == queue->second.end())
        return;
    const QString key = it->second;
    if (--m_perClient[key] <= 0)
        m_perClient.remove(key);
    queue->second.erase(it);
}

void ReceiptHolders::releaseQueue(const std::string& queueName)
{
    const auto queue = m_holders.find(queueName);
    if (queue == m_holders.end())
        return;
    for (const auto& [sequence, origin] : queue->second) {
        const QString key = origin;
        if (--m_perClient[key] <= 0)
            m_perClient.remove(key);
    }
    m_holders.erase(queue);
}

void ReceiptHolders::onEvents(const std::vector<engine::Event>& events)
{
    using engine::EventKind;
    bool any = false;
    for (const engine::Event& event : events) {
        switch (event.kind) {
        case EventKind::MessageReceived: {
            release(event.queue, event.key.sequence);
            const QString text = QString::fromStdString(event.origin);
            auto pooled = m_origins.constFind(text);
            if (pooled == m_origins.cend()) {
                if (m_origins.size() > 4096)
                    m_origins.clear();
                pooled = m_origins.insert(text, text);
            }
            m_holders[event.queue][event.key.sequence] = *pooled;
            ++m_perClient[text];
            any = true;
            break;
        }
        case EventKind::MessageReleased:
        case EventKind::VisibilityExpired:
        case EventKind::MessageDeleted:
        case EventKind::MovedToDeadLetterQueue:
        case EventKind::MovedByTask:
        case EventKind::RetentionExpired:
            release(event.queue, event.key.sequence);
            any = true;
            break;
        case EventKind::QueuePurged:
        case EventKind::QueueDeleted:
            releaseQueue(event.queue);
            any = true;
            break;
        default: break;
        }
    }
    if (any)
        Q_EMIT changed();
}

} // namespace inflight::ui
