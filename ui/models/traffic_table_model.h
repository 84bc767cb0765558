#pragma once

#include "engine/events.h"
#include "traffic/traffic_record.h"
#include "ui/models/event_record.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QTimer>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace inflight::session {
class Session;
}
namespace inflight::traffic {
class TrafficLog;
}

namespace inflight::ui {

class ClientDirectory;
class EventLogModel;

// The traffic log's requests, oldest first: row r is the log's record of cursor first() + r, read
// from the log itself (the model copies nothing). The log's listener only notes what changed; a
// 10 Hz flush inserts the new rows in one block, removes the rows the ring dropped in one block
// and emits one dataChanged over the completed ones, so a busy endpoint costs the window a few
// signals a second. Also knows the engine events each request caused — those numbered within its
// record's firstEvent … lastEvent with its client as their origin, and a long poll's receive,
// which the call that served it caused (the client's latest receive on that queue) — without
// copying them: their records are the event log's (EventLogModel::recordOfSequence).
class TrafficTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeColumn, // engine time, as every other view; the wall clock in its tooltip
        ClientColumn,
        OperationColumn,
        QueueColumn,
        StatusColumn,
        OutcomeColumn, // "received 4 of max 10"; an error's code
        LatencyColumn,
        ErrorColumn,    // code; its message in the tooltip
        WallTimeColumn, // the wall clock (hidden at first)
        ProtocolColumn,
        RequestIdColumn,
        ColumnCount
    };
    enum Roles {
        CursorRole = Qt::UserRole + 1, // qulonglong
        ClientKeyRole,                 // QString
        OperationRole,                 // QString
        QueueRole,                     // QString
        IsErrorRole,                   // bool: HTTP status 400 or more
        IsEmptyReceiveRole,            // bool: a receive answered with no message
        IsWaitingRole,                 // bool: a long poll not answered yet
        SearchTextRole,                // QString: what the text filter looks in
        // bool: a stale receipt used, or messages received again (a consumer slower than its
        // visibility timeout: the message is processed twice)
        IsRedeliveryRole,
    };

    // `log`, `session`, `clients` and `events` must outlive the model.
    TrafficTableModel(traffic::TrafficLog& log, session::Session& session,
                      const ClientDirectory& clients, const EventLogModel& events,
                      QObject* parent = nullptr);
    ~TrafficTableModel() override;

    traffic::TrafficLog& log() const { return m_log; }
    // The record of a row; nullptr when the log dropped it since the last flush.
    const traffic::TrafficRecord* record(int row) const;
    // -1 when not shown.
    int rowOfCursor(std::uint64_t cursor) const;
    // The engine events of that request still in the event log (oldest first).
    std::vector<EventRecord> eventsOf(std::uint64_t cursor) const;
    // The request an engine event came from (engine::Event::sequence); 0 when none still kept.
    std::uint64_t requestOfEvent(std::uint64_t sequence) const;
    // Applies what the log did since the last flush now (the timer does it 10 times a second
    // while the model is active).
    void flush();
    // Inactive (the Traffic tab hidden), the timer only forgets what belongs to dropped requests
    // and the rows wait; setActive(true) brings them up to date at once. Active by default.
    void setActive(bool active);

    static bool isEmptyReceive(const traffic::TrafficRecord& record);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // After each flush that changed anything.
    void flushed();

private:
    void onRecord(const traffic::TrafficRecord& record, bool isNew);
    void onEvents(const std::vector<engine::Event>& events);

    traffic::TrafficLog& m_log;
    const ClientDirectory& m_clients;
    std::uint64_t m_listener = 0;
    std::uint64_t m_first = 1; // cursor of row 0
    std::uint64_t m_last = 0;  // cursor of the last row (m_first - 1 when none)
    std::uint64_t m_changedFrom = UINT64_MAX;
    std::uint64_t m_changedTo = 0;
    // The request whose call event `sequence` is in (its client being the event's origin).
    std::uint64_t rangeOf(std::uint64_t sequence, const std::string& origin) const;

    const EventLogModel& m_eventLog;
    struct Range {
        std::uint64_t firstEvent = 0;
        std::uint64_t lastEvent = 0;
        std::uint64_t cursor = 0;
        std::shared_ptr<const std::string> client; // the origin of its calls
    };
    std::deque<Range> m_ranges; // in firstEvent order (and so in cursor order)
    std::map<std::string, std::uint64_t> m_latestReceive; // "client\nqueue" → cursor
    // Long polls' receives, made in another request's call: event → request, request → events.
    std::unordered_map<std::uint64_t, std::uint64_t> m_servedReceives;
    std::map<std::uint64_t, std::vector<std::uint64_t>> m_servedOf;
    QString m_lastKey; // the last record's client key, and as the engine spells it
    std::shared_ptr<const std::string> m_lastKeyText;
    void forgetDropped();

    bool m_active = true;
    QTimer m_flush;
};

// Filters a TrafficTableModel: by client key, operation and queue (empty: any), errors only,
// empty receives only, stale receipts and messages received again only, and a case-insensitive
// text in the request's fields, bodies and the ids of the messages its events touched.
class TrafficFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TrafficFilterModel(QObject* parent = nullptr);

    void setClientFilter(const QString& clientKey);
    void setOperationFilter(const QString& operation);
    void setQueueFilter(const QString& queue);
    void setErrorsOnly(bool on);
    void setEmptyReceivesOnly(bool on);
    // Only requests that used a stale receipt or received messages again.
    void setRedeliveriesOnly(bool on);
    void setTextFilter(const QString& text);
    bool isFiltering() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_client;
    QString m_operation;
    QString m_queue;
    bool m_errorsOnly = false;
    bool m_emptyOnly = false;
    bool m_redeliveriesOnly = false;
    QString m_text;
};

} // namespace inflight::ui
