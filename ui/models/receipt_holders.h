#pragma once

#include "engine/events.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// Who holds each in-flight message: the origin of the receive whose receipt is current, from the
// session's events since the window opened (a receive sets it; a delete, release, expiry, move,
// purge or queue deletion ends it; a visibility change keeps it). Counts the receipts held per
// origin (a client's key while the traffic log is on). Bounded by the messages in flight.
class ReceiptHolders : public QObject {
    Q_OBJECT
public:
    explicit ReceiptHolders(session::Session& session, QObject* parent = nullptr);

    // The origin holding message `sequence` of `queue` now; empty when none is known.
    QString holder(const std::string& queue, std::uint64_t sequence) const;
    // The receipts held by a client key now.
    int heldBy(const QString& clientKey) const { return m_perClient.value(clientKey); }

Q_SIGNALS:
    void changed();

private:
    void onEvents(const std::vector<engine::Event>& events);
    void release(const std::string& queue, std::uint64_t sequence);
    void releaseQueue(const std::string& queue);

    // queue name → sequence → origin
    std::unordered_map<std::string, std::unordered_map<std::uint64_t, QString>> m_holders;
    QHash<QString, int> m_perClient;
    QHash<QString, QString> m_origins; // one shared QString per origin text
};

} // namespace inflight::ui
