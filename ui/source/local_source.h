#pragma once

#include "ui/source/queue_source.h"

namespace inflight::ui {

// The queues of the local engine (a workspace's session): every feature, engine time, events as
// they happen. Every call it makes carries the origin "window". The session must outlive it.
class LocalSource : public QueueSource {
    Q_OBJECT
public:
    explicit LocalSource(session::Session& session, QObject* parent = nullptr);

    QString title() const override;
    bool has(Feature) const override { return true; }

    QueueViews queues() const override;
    std::optional<engine::QueueView> queue(const QString& name) const override;
    std::optional<engine::QueueStats> stats(const QString& name) const override;
    std::vector<engine::MessageKey> messageKeys(const QString& queue) const override;
    std::optional<engine::MessageView> peek(const QString& queue,
                                            engine::MessageKey key) const override;
    Messages peekAll(const QString& queue) const override;
    std::vector<engine::BlockedMessage> blocked(const QString& queue) const override;
    engine::Millis now() const override;
    session::Session* localSession() override { return &m_session; }

    QCoro::Task<engine::Result<Messages>> receive(QString queue, ReceiveAsk ask) override;
    QString whyEmpty(const QString& queue, const ReceiveAsk& ask) const override;
    QCoro::Task<engine::Status> changeVisibility(QString queue, std::string receipt,
                                                 std::int64_t seconds) override;
    QCoro::Task<engine::Status> deleteMessage(QString queue, std::string receipt) override;
    QCoro::Task<engine::Status> purge(QString queue) override;

private:
    // Which queues an event batch touched (countsChanged), or that the list changed.
    void onEvents(const std::vector<engine::Event>& events);

    session::Session& m_session;
};

} // namespace inflight::ui
