#pragma once

#include "engine/events.h"
#include "engine/views.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <string>
#include <vector>

namespace inflight::ui {

class QueueSource;

// Every queue of a source (OCI built-in DLQs included), by name: its type, its counts by state
// and its dead-letter relation. Counts follow the source's countsChanged (the local engine's
// event batches, a remote place's polls): each re-reads the stats of the queues it names and
// emits one dataChanged over the rows touched; queuesChanged (queues created, deleted, their
// attributes changed) inserts, removes and updates rows.
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

    // `source` must outlive the model.
    explicit QueueTableModel(QueueSource& source, QObject* parent = nullptr);

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

    // One dataChanged over the rows of these queues (QueueSource::countsChanged).
    void updateCounts(const QStringList& queues);
    static Row makeRow(const engine::QueueView& view);
    int indexOf(const std::string& name) const; // -1 if absent
    std::size_t lowerBound(const std::string& name) const;

    QueueSource& m_source;
    std::vector<Row> m_rows; // by name, as the engine orders them
};

} // namespace inflight::ui
