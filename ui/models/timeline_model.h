#pragma once

#include "engine/events.h"

#include <QAbstractTableModel>

#include <cstdint>

namespace inflight::ui {

class ClientDirectory;

class MessageHistory;
struct EventRecord;

// The life of one message, from the MessageHistory: sent, each receive (receipt, receive count,
// visibility deadline), visibility changes, releases, expiries, the move to a DLQ (the id stays,
// so the timeline goes on in the DLQ), deletion — with engine times and origins. Rows are appended
// as the message's events arrive.
class TimelineModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        QueueColumn,
        KindColumn,
        ReceivesColumn,
        ReceiptColumn,    // short receipt
        VisibilityColumn, // "visible at …" for receives and changes
        OriginColumn,
        DetailColumn,
        ColumnCount
    };
    // Qt::UserRole on every column is the raw value to sort by.
    enum Roles {
        KindRole = Qt::UserRole + 1, // int(engine::EventKind)
        ReceiptRole,                 // full receipt handle (QString)
        DeadlineRole,                // epoch ms (qlonglong), 0 if none
        TimeRole,                    // epoch ms (qlonglong)
        SequenceRole,                // the engine's number of the event (qulonglong)
    };

    // `history` must outlive the model.
    explicit TimelineModel(MessageHistory& history, QObject* parent = nullptr);

    // Shows the events of `messageId` (in any queue; `queue` is where it was selected).
    void setMessage(const QString& queue, const QString& messageId);
    void clear();
    QString queue() const { return m_queue; }
    QString messageId() const { return m_messageId; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Origins read as their clients' names, with their colours (null: as they are).
    void setClients(const ClientDirectory* clients);

private:
    void onHistoryChanged();
    // "stale receipt: of receive #1, used after receive #2" for a delete, visibility change or
    // release made with the receipt of an earlier receive; empty otherwise.
    QString staleNote(int row) const;
    const EventRecord* record(int row) const;

    MessageHistory& m_history;
    QString m_queue;
    QString m_messageId;
    std::uint64_t m_generation = 0;
    int m_rows = 0;
    const ClientDirectory* m_clients = nullptr;
};

} // namespace inflight::ui
