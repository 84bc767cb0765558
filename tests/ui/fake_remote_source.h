#pragma once

// A test-only QueueSource shaped like a real, remote place (an SQS account): no peek, no events,
// the wall clock, no local engine; counts come from a poll and asks answer after a round trip.
// It keeps its own queues so a test can see what the pages asked of it.
#include "ui/source/queue_source.h"

#include <QCoroTimer>
#include <QDateTime>
#include <QTimer>

#include <deque>
#include <map>
#include <string>

namespace inflight::ui::test {

class FakeRemoteSource : public QueueSource {
public:
    struct Message {
        std::string id;
        std::string body;
        std::uint32_t receives = 0;
        std::string receipt;          // the latest receipt while in flight
        engine::Millis visibleAt = 0; // in flight until (wall clock)
    };
    struct Queue {
        std::deque<Message> messages;
    };

    // Every `pollMs` the counts are read again (countsChanged), as a remote source polls
    // GetQueueAttributes; asks answer after `roundTripMs`.
    explicit FakeRemoteSource(int pollMs = 50, int roundTripMs = 20) : m_roundTrip(roundTripMs)
    {
        m_poll.setInterval(pollMs);
        connect(&m_poll, &QTimer::timeout, this, &FakeRemoteSource::poll);
        m_poll.start();
    }

    // The place itself (what another client of the account would do).
    void addQueue(const std::string& name) { m_queues[name]; }
    void put(const std::string& queue, const std::string& body)
    {
        m_queues[queue].messages.push_back({"m-" + std::to_string(++m_ids), body});
    }
    const Queue& place(const std::string& queue) const { return m_queues.at(queue); }
    int polls() const { return m_polls; }
    std::vector<std::string> asked; // "receive orders", "changeVisibility orders r-1 40", ...

    QString title() const override { return QStringLiteral("the test account"); }
    bool has(Feature) const override { return false; }

    QueueViews queues() const override { return m_polled; }
    std::vector<engine::MessageKey> messageKeys(const QString&) const override { return {}; }
    std::optional<engine::MessageView> peek(const QString&, engine::MessageKey) const override
    {
        return std::nullopt;
    }
    Messages peekAll(const QString&) const override { return {}; }
    std::vector<engine::BlockedMessage> blocked(const QString&) const override { return {}; }
    engine::Millis now() const override { return QDateTime::currentMSecsSinceEpoch(); }

    QCoro::Task<engine::Result<Messages>> receive(QString queue, ReceiveAsk ask) override
    {
        asked.push_back("receive " + queue.toStdString());
        co_await roundTrip();
        Messages got;
        const engine::Millis now = this->now();
        for (Message& m : m_queues[queue.toStdString()].messages) {
            if (static_cast<int>(got.size()) == ask.maxMessages)
                break;
            if (m.visibleAt > now)
                continue;
            ++m.receives;
            m.receipt = "r-" + std::to_string(++m_receipts);
            m.visibleAt = now + ask.visibilitySeconds.value_or(30) * engine::kSecond;
            engine::MessageView view;
            view.messageId = m.id;
            view.body = m.body;
            view.receiptHandle = m.receipt;
            view.receiveCount = m.receives;
            view.receivedAt = now;
            view.visibleAt = m.visibleAt;
            view.state = engine::MessageState::InFlight;
            got.push_back(std::move(view));
        }
        co_return got;
    }
    QString whyEmpty(const QString&, const ReceiveAsk&) const override { return {}; }
    QCoro::Task<engine::Status> changeVisibility(QString queue, std::string receipt,
                                                 std::int64_t seconds) override
    {
        asked.push_back("changeVisibility " + queue.toStdString() + " " + receipt + " "
                        + std::to_string(seconds));
        co_await roundTrip();
        Message* m = byReceipt(queue, receipt);
        if (!m)
            co_return engine::Error{engine::ErrorCode::ReceiptHandleIsInvalid,
                                    "The receipt handle has expired.", "ReceiptHandle"};
        m->visibleAt = now() + seconds * engine::kSecond;
        co_return engine::Done{};
    }
    QCoro::Task<engine::Status> deleteMessage(QString queue, std::string receipt) override
    {
        asked.push_back("deleteMessage " + queue.toStdString() + " " + receipt);
        co_await roundTrip();
        auto& messages = m_queues[queue.toStdString()].messages;
        for (auto it = messages.begin(); it != messages.end(); ++it)
            if (it->receipt == receipt) {
                messages.erase(it);
                break;
            }
        co_return engine::Done{};
    }
    QCoro::Task<engine::Status> purge(QString queue) override
    {
        asked.push_back("purge " + queue.toStdString());
        co_await roundTrip();
        m_queues[queue.toStdString()].messages.clear();
        co_return engine::Done{};
    }

private:
    QCoro::Task<> roundTrip()
    {
        QTimer timer;
        timer.setSingleShot(true);
        timer.start(m_roundTrip);
        co_await timer;
    }
    Message* byReceipt(const QString& queue, const std::string& receipt)
    {
        for (Message& m : m_queues[queue.toStdString()].messages)
            if (m.receipt == receipt && m.visibleAt > now())
                return &m;
        return nullptr;
    }
    // What GetQueueAttributes would say now.
    void poll()
    {
        ++m_polls;
        const bool listChanged = m_polled.size() != m_queues.size();
        QueueViews views;
        QStringList names;
        const engine::Millis now = this->now();
        for (const auto& [name, queue] : m_queues) {
            engine::QueueView view;
            view.name = name;
            view.attributes["VisibilityTimeout"] = "30";
            for (const Message& m : queue.messages)
                ++(m.visibleAt > now ? view.stats.inFlight : view.stats.available);
            views.push_back(std::move(view));
            names << QString::fromStdString(name);
        }
        m_polled = std::move(views);
        if (listChanged)
            Q_EMIT queuesChanged();
        else
            Q_EMIT countsChanged(names);
    }

    std::map<std::string, Queue> m_queues;
    QueueViews m_polled;
    QTimer m_poll;
    int m_roundTrip = 20;
    int m_polls = 0;
    int m_ids = 0;
    int m_receipts = 0;
};

} // namespace inflight::ui::test
