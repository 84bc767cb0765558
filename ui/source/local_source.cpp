#include "ui/source/local_source.h"

#include "session/pending_receive.h"
#include "session/session.h"
#include "ui/widgets/engine_text.h"

#include <QCoroSignal>

#include <set>

namespace inflight::ui {

namespace {

engine::ReceiveRequest receiveRequest(const QString& queue, const QueueSource::ReceiveAsk& ask)
{
    engine::ReceiveRequest request;
    request.queue = toStdString(queue);
    request.maxMessages = ask.maxMessages;
    request.waitTimeSeconds = ask.waitSeconds;
    request.visibilityTimeout = ask.visibilitySeconds;
    request.origin = windowOrigin();
    return request;
}

engine::MessageView heldView(const engine::ReceivedMessage& m)
{
    engine::MessageView view;
    view.messageId = m.messageId.str();
    view.receiptHandle = m.receiptHandle.str();
    view.body = m.body;
    view.groupId = m.groupId;
    view.channelId = m.channelId;
    view.receiveCount = m.receiveCount;
    view.sentAt = m.sentAt;
    view.visibleAt = m.visibleAt;
    view.state = engine::MessageState::InFlight;
    return view;
}

} // namespace

LocalSource::LocalSource(session::Session& session, QObject* parent)
    : QueueSource(parent), m_session(session)
{
    connect(&m_session, &session::Session::eventsReady, this, &LocalSource::onEvents);
}

QString LocalSource::title() const
{
    return tr("this workspace");
}

void LocalSource::onEvents(const std::vector<engine::Event>& events)
{
    using engine::EventKind;
    std::set<std::string> touched;
    bool listChanged = false;
    for (const engine::Event& e : events) {
        switch (e.kind) {
        case EventKind::QueueCreated:
        case EventKind::QueueChanged:
        case EventKind::QueueDeleted: listChanged = true; break;
        case EventKind::MovedToDeadLetterQueue:
        case EventKind::MovedByTask:
            touched.insert(e.detail);
            touched.insert(e.queue);
            break;
        default: touched.insert(e.queue); break;
        }
    }
    // Relations between queues may change with the list: readers re-read it all (rare).
    if (listChanged)
        Q_EMIT queuesChanged();
    else if (!touched.empty()) {
        QStringList names;
        for (const std::string& name : touched)
            names << toQString(name);
        Q_EMIT countsChanged(names);
    }
    Q_EMIT eventsReady(events);
}

QueueSource::QueueViews LocalSource::queues() const
{
    return m_session.broker().queues();
}

std::optional<engine::QueueView> LocalSource::queue(const QString& name) const
{
    if (auto view = m_session.broker().queueView(toStdString(name)))
        return std::move(*view);
    return std::nullopt;
}

std::optional<engine::QueueStats> LocalSource::stats(const QString& name) const
{
    if (auto stats = m_session.broker().queueStats(toStdString(name)))
        return *stats;
    return std::nullopt;
}

std::vector<engine::MessageKey> LocalSource::messageKeys(const QString& queue) const
{
    if (auto keys = m_session.broker().messageKeys(toStdString(queue)))
        return std::move(*keys);
    return {};
}

std::optional<engine::MessageView> LocalSource::peek(const QString& queue,
                                                     engine::MessageKey key) const
{
    if (auto view = m_session.broker().peekMessage(toStdString(queue), key))
        return std::move(*view);
    return std::nullopt;
}

QueueSource::Messages LocalSource::peekAll(const QString& queue) const
{
    if (auto views = m_session.broker().peekMessages(toStdString(queue)))
        return std::move(*views);
    return {};
}

std::vector<engine::BlockedMessage> LocalSource::blocked(const QString& queue) const
{
    if (auto blocked = m_session.broker().blockedMessages(toStdString(queue)))
        return std::move(*blocked);
    return {};
}

engine::Millis LocalSource::now() const
{
    return m_session.displayTime();
}

QCoro::Task<engine::Result<QueueSource::Messages>> LocalSource::receive(QString queue,
                                                                        ReceiveAsk ask)
{
    // The session's receive, as the endpoint's: a long poll waits on engine time.
    session::PendingReceive* pending = m_session.receive(receiveRequest(queue, ask));
    // finished() comes from the event loop even for a short poll answered at once.
    if (!pending->isFinished())
        co_await qCoro(pending, &session::PendingReceive::finished);
    pending->deleteLater();
    const auto& result = pending->result();
    if (!result)
        co_return result.error();
    Messages held;
    for (const engine::ReceivedMessage& m : result->messages)
        held.push_back(heldView(m));
    co_return held;
}

QString LocalSource::whyEmpty(const QString& queue, const ReceiveAsk& ask) const
{
    if (const auto explained = m_session.broker().explainEmptyReceive(receiveRequest(queue, ask)))
        return toQString(explained->text);
    return {};
}

QCoro::Task<engine::Status> LocalSource::changeVisibility(QString queue, std::string receipt,
                                                          std::int64_t seconds)
{
    auto result = m_session.broker().changeMessageVisibility(toStdString(queue), receipt, seconds,
                                                             windowOrigin());
    if (!result)
        co_return result.error();
    co_return engine::Done{};
}

QCoro::Task<engine::Status> LocalSource::deleteMessage(QString queue, std::string receipt)
{
    co_return m_session.broker().deleteMessage(toStdString(queue), receipt, windowOrigin());
}

QCoro::Task<engine::Status> LocalSource::purge(QString queue)
{
    co_return m_session.broker().purgeQueue(toStdString(queue), engine::PurgeTarget::Normal,
                                            windowOrigin());
}

} // namespace inflight::ui
