#pragma once

#include "engine/events.h"
#include "engine/views.h"

#include <QAbstractTableModel>
#include <QTimer>

#include <string>
#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// The FIFO groups (or OCI channels) of one queue, from peek: each group's head, whether it is
// blocked and by which message, how many wait behind it and how many are in flight. Re-read on
// every event batch that touches the queue (peekGroups is O(groups)). A group keeps its row while
// it exists; new groups are appended; EngineOrderRole gives the engine's order (oldest head
// first) for a view that wants it.
class GroupTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        GroupColumn,
        HeadColumn,
        StateColumn,
        WaitingColumn,
        InFlightColumn,
        ColumnCount
    };
    // Qt::UserRole on every column is the raw value to sort by.
    enum Roles {
        GroupIdRole = Qt::UserRole + 1, // QString
        HeadMessageIdRole,              // full id (QString; empty for an OCI channel)
        BlockedRole,                    // bool
        BlockingMessageIdRole,          // full id (QString)
        BlockedUntilRole,               // epoch ms (qlonglong), 0 if not blocked
        EngineOrderRole,                // position in peekGroups (int)
    };

    // `session` must outlive the model.
    explicit GroupTableModel(session::Session& session, QObject* parent = nullptr);

    // Shows the groups of `queue` (none for an empty name or a standard queue). Resets the model.
    void setQueue(const QString& queue);
    QString queue() const { return m_queue; }
    // Re-reads the groups and merges.
    void refresh();

    // "blocked by … (in flight, 12 s)" counts down from `now`; emits dataChanged over the state
    // column when some group is blocked.
    void setNow(engine::Millis now);
    // Calls setNow(session.now()) `hz` times a second of real time until stopTicking().
    void startTicking(int hz = 1);
    void stopTicking();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        engine::GroupView view;
        QString groupId;
        int engineOrder = 0;
    };

    void onEvents(const std::vector<engine::Event>& events);
    QString stateText(const Row& row) const;

    session::Session& m_session;
    QString m_queue;
    std::string m_queueName;
    bool m_hasGroups = false; // a FIFO or OCI queue
    std::vector<Row> m_rows;
    engine::Millis m_now = 0;
    QTimer m_tick;
};

} // namespace inflight::ui
