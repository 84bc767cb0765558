#pragma once

#include "engine/events.h"
#include "engine/views.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace inflight::ui {

class ClientDirectory;
class QueueSource;
class ReceiptHolders;

// The messages of one queue of a source, browsed by peek only: looking never changes a message.
// (A source that cannot peek — a real queue — shows the messages the window holds: hold().) Rows
// are in the engine's sequence order (oldest first) and hold absolute deadlines, never "time left";
// the countdown text is computed from now(), which a presentation tick moves (setNow /
// startTicking). The source's event batches keep the rows current (message_table_updates.cpp):
// sends insert, receives, visibility changes, releases, expiries and delay ends update, deletes and
// moves remove, a purge resets — each batch with the fewest signals (one dataChanged over the
// smallest covering range, removals in contiguous blocks, inserts in one block).
class MessageTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        StateColumn,
        VisibilityColumn, // countdown
        MessageIdColumn,
        BodyColumn,
        GroupColumn, // FIFO group or OCI channel
        ReceivesColumn,
        SentColumn,
        DeduplicationColumn,
        ColumnCount
    };
    // Qt::UserRole on every column is the raw value to sort by (the absolute deadline on the
    // visibility column; kNoDeadline for available rows, so they sort last).
    enum Roles {
        MessageIdRole = Qt::UserRole + 1, // the full id (QString)
        StateRole,                        // int(engine::MessageState)
        CountdownRole, // fraction of the visibility (or delay) window left, 0..1; invalid if none
        WarningRole,   // in flight with < 5 s or < 20% of its visibility left
        DlqNextRole,   // the next receive moves it to the dead-letter queue
        DeadlineRole,  // visible-at (in flight) or deliver-at (delayed), epoch ms; 0 if none
        SequenceRole,  // the engine's sequence in this queue (qulonglong)
        BlockedRole,   // FIFO: available but behind its group's in-flight or delayed head (bool)
    };

    // What a row keeps: what is shown, the key and the deadlines (no attributes: 100k rows fit).
    struct Row {
        engine::MessageKey key;
        QString messageId;
        QString ociId; // OCI queues: the numeric id an OCI client sees; empty otherwise
        QString bodyPreview;
        QString group; // group id or channel id
        QString deduplicationId;
        engine::Millis sentAt = 0;
        engine::Millis windowStart = 0; // receivedAt (in flight) or sentAt (delayed)
        engine::Millis deadline = 0;    // visibleAt (in flight) or deliverAt (delayed), else 0
        std::uint32_t receiveCount = 0;
        engine::MessageState state = engine::MessageState::Available;
        bool movesToDeadLetterOnNextReceive = false;
    };

    // `source` must outlive the model.
    explicit MessageTableModel(QueueSource& source, QObject* parent = nullptr);
    ~MessageTableModel() override;

    // Shows the messages of `queue` (empty: none). Resets the model; peeks, changes nothing. The
    // first kFirstRows messages (in sequence order) are rows at once; a larger queue is listed
    // kRowsPerTurn at a time, one block per event-loop turn, so that a million messages show
    // their first rows, and the window answers, at once (isLoading, loadingChanged). Events
    // for messages not listed yet are left to the turn that lists them.
    void setQueue(const QString& queue);
    static constexpr std::size_t kFirstRows = 5'000;
    static constexpr std::size_t kRowsPerTurn = 10'000;
    // Some of the queue's messages are not rows yet.
    bool isLoading() const { return m_nextPending < m_pending.size(); }
    // How many of the queue's messages (as it was when listing began) are still to be listed.
    std::size_t pendingCount() const { return m_pending.size() - m_nextPending; }
    // Lists every message not listed yet, now.
    void finishLoading();
    // Lists blocks now until every one of `messageIds` is a row (or nothing is left to list):
    // before looking them up by id. A receive's messages are usually in the first blocks.
    void listUntilShown(const QStringList& messageIds);
    QString queue() const { return m_queue; }
    // The queue shown is an OCI queue: OCI's names and numeric ids.
    bool isOci() const { return m_oci; }
    // Re-reads every message of the queue and merges (rows that stay keep their place).
    void refresh();
    // A source without peek: these messages, received by the window, become rows (or update the
    // row of the same id), in the order received; forget() removes them (deleted, or no longer
    // held). Keys are made here: a remote message has no sequence of ours.
    void hold(const std::vector<engine::MessageView>& received);
    void forget(const QStringList& messageIds);

    // The presentation tick: moves the countdowns to `now` and emits one dataChanged over the
    // visibility column (roles Display, Countdown, Warning) when a row is in flight or delayed.
    void setNow(engine::Millis now);
    engine::Millis now() const { return m_now; }
    // Calls setNow(source.now()) `hz` times a second of real time until stopTicking().
    void startTicking(int hz = 10);
    void stopTicking();

    const Row& row(int row) const { return *m_rows[static_cast<std::size_t>(row)]; }
    QString messageId(int row) const { return this->row(row).messageId; }
    engine::MessageKey messageKey(int row) const { return this->row(row).key; }
    // Marks each in-flight row with the colour of the client holding its receipt (State column).
    // Both must outlive the model; null: no marks.
    void setReceiptHolders(const ReceiptHolders* holders, const ClientDirectory* clients);
    // FIFO: the available messages behind an in-flight or delayed group head, re-read at most
    // four times a second while events come; "Blocked" in the State column with the head named.
    void updateBlocked();
    bool isBlocked(int row) const;

    // -1 if not shown. O(log n).
    int rowOfKey(engine::MessageKey key) const;
    // -1 if not shown. O(n).
    int rowOfMessageId(const QString& messageId) const;
    // Rows in flight or delayed (those the tick updates).
    int timedRowCount() const { return m_timedRows; }
    // Raw-value order of two rows on `column` (what Qt::UserRole sorts by), without QVariants.
    bool rawLessThan(int left, int right, int column, Qt::CaseSensitivity cs) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // A block of rows was listed; isLoading() is false after the last.
    void loadingChanged();

private:
    using RowPtr = std::unique_ptr<Row>;

    // Lists up to `count` pending messages: as rows inside a reset, or inserted (`signal`).
    // Removes the ids of the rows it makes from `wanted`, if given.
    void loadPending(std::size_t count, bool signal, QSet<QString>* wanted = nullptr);
    // The message at `sequence` is one still to be listed.
    bool isPending(std::uint64_t sequence) const;

    void onEvents(const std::vector<engine::Event>& events);
    void clearRows();
    RowPtr makeRow(const engine::MessageView& view) const;
    void assign(Row& row, const engine::MessageView& view) const;
    // Index of the first row with sequence >= `sequence`.
    std::size_t lowerBound(std::uint64_t sequence) const;
    void removeSequences(std::vector<std::uint64_t> sequences);
    // Inserts rows not shown yet (sorted by sequence), in as few blocks as possible.
    void insertRows(std::vector<RowPtr> rows);
    void countTimed(const Row& row, int delta);
    QString visibilityText(const Row& row) const;
    QVariant countdownFraction(const Row& row) const;
    bool warning(const Row& row) const;

    QueueSource& m_source;
    QString m_queue;
    std::string m_queueName; // m_queue as the engine spells it
    std::vector<RowPtr> m_rows;
    std::vector<engine::MessageKey> m_pending; // what setQueue found, in sequence order
    std::size_t m_nextPending = 0;             // m_pending[< this] are rows (or gone)
    QTimer m_loadTimer;
    engine::Millis m_now = 0;
    int m_timedRows = 0;
    QTimer m_tick;
    const ReceiptHolders* m_holders = nullptr;
    const ClientDirectory* m_clients = nullptr;
    bool m_fifo = false;
    bool m_oci = false; // OCI names (id, deliveryCount, visibleAfter, channel)
    std::unordered_map<std::uint64_t, QString> m_blocked; // sequence → why
    QTimer m_blockedTimer;
    std::uint64_t m_heldSequence = 0; // the last key hold() made
};

} // namespace inflight::ui
