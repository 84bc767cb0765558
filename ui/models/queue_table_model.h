#pragma once

#include "engine/events.h"
#include "engine/views.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <string>
#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// Every queue of the session (OCI built-in DLQs included), by name: its type, its counts by
// state and its dead-letter relation. Counts follow the session's event batches: each batch
// re-reads the stats of the queues it names and emits one dataChanged over the rows touched;
// queue creation, deletion and attribute changes insert, remove and update rows.
class QueueTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        TypeColumn,
        AvailableColumn,
        InFlightColumn,
        DelayedColumn,
        DeadLetterColumn,
        ColumnCount
    };
    // Qt::UserRole on every column is the raw value to sort by.
    enum Roles {
        QueueNameRole = Qt::UserRole + 1, // QString
        KindRole,                         // int(engine::QueueKind)
        DeadLetterTargetRole,             // the DLQ's name, empty if none (QString)
        MaxReceiveCountRole,              // 0 = no redrive (qlonglong)
        DeadLetterSourcesRole,            // queues whose DLQ this is (QStringList)
        IsDeadLetterQueueRole,            // some queue sends its dead letters here (bool)
        IsBuiltInDeadLetterRole,          // an OCI queue's built-in DLQ (bool)
    };

    // `session` must outlive the model.
    explicit QueueTableModel(session::Session& session, QObject* parent = nullptr);

    QString queueName(int row) const;
    // -1 if there is no such queue.
    int rowOf(const QString& name) const;
    // Re-reads every queue and merges (rows that stay keep their place).
    void refresh();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        std::string engineName;
        QString name;
        engine::QueueKind kind = engine::QueueKind::Standard;
        engine::QueueStats stats;
        QString deadLetterTarget;
        std::int64_t maxReceiveCount = 0;
        QStringList deadLetterSources;
        bool builtInDeadLetter = false;
        QString deadLetterText;
    };

    void onEvents(const std::vector<engine::Event>& events);
    static Row makeRow(const engine::QueueView& view);
    int indexOf(const std::string& name) const; // -1 if absent
    std::size_t lowerBound(const std::string& name) const;

    session::Session& m_session;
    std::vector<Row> m_rows; // by name, as the engine orders them
};

} // namespace inflight::ui
