#pragma once

#include "engine/events.h"
#include "ui/models/event_record.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <cstdint>
#include <deque>
#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class ClientDirectory;

// Every event of every queue, oldest first, appended live: one beginInsertRows per event batch.
// Holds at most capacity() rows; past that the oldest go, in blocks of a tenth of the capacity so
// that a busy session does not remove rows on every batch.
class EventLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        QueueColumn,
        KindColumn,
        MessageColumn, // short id
        ReceiptColumn, // short receipt
        DetailColumn,
        OriginColumn,
        ColumnCount
    };
    // Qt::UserRole on every column is the raw value to sort by.
    enum Roles {
        KindRole = Qt::UserRole + 1, // int(engine::EventKind)
        QueueNameRole,               // QString
        MessageIdRole,               // full id (QString)
        ReceiptRole,                 // full receipt handle (QString)
        TimeRole,                    // epoch ms (qlonglong)
    };

    static constexpr int kDefaultCapacity = 50'000;

    // `session` must outlive the model.
    explicit EventLogModel(session::Session& session, QObject* parent = nullptr);

    int capacity() const { return m_capacity; }
    // Drops the oldest rows at once if there are more than `rows` (>= 1).
    void setCapacity(int rows);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const EventRecord& record(int row) const { return m_entries[static_cast<std::size_t>(row)]; }
    // The event of that number (engine::Event::sequence) while the log holds it; else nullptr.
    // O(1): rows are in the broker's order without gaps.
    const EventRecord* recordOfSequence(std::uint64_t sequence) const;

    // Origins read as their clients' names, with their colours (null: as they are).
    void setClients(const ClientDirectory* clients);

private:
    void onEvents(const std::vector<engine::Event>& events);
    void dropOldest(int rows);

    std::deque<EventRecord> m_entries;
    int m_capacity = kDefaultCapacity;
    StringPool m_strings;
    const ClientDirectory* m_clients = nullptr;
};

// Filters an EventLogModel (its only source) by queue name (empty: every queue), by kind and by
// text (a case-insensitive substring of the message id, receipt, detail or origin).
class EventLogFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EventLogFilterModel(QObject* parent = nullptr);

    QString queueFilter() const { return m_queue; }
    void setQueueFilter(const QString& queue);
    // Bit `int(kind)` set ⇒ events of that kind are shown. Default: every kind.
    quint32 kindMask() const { return m_kinds; }
    void setKindMask(quint32 mask);
    void setKindEnabled(engine::EventKind kind, bool enabled);
    bool isKindEnabled(engine::EventKind kind) const;
    static quint32 allKinds();
    QString textFilter() const { return m_text; }
    void setTextFilter(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_queue;
    quint32 m_kinds = allKinds();
    QString m_text;
};

} // namespace inflight::ui
