#pragma once

#include "ui/source/queue_source.h"
#include "ui/widgets/message_actions.h"

#include <QHash>
#include <QSplitter>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace inflight::ui {

class ClientDirectory;
class MessageFilterModel;
class MessageHistory;
class MessageInspector;
class MessageTableModel;
class NoticeBar;
class ReceiptHolders;
struct WindowActions;

// The Messages tab: the selected queue's messages with live countdowns (filtered by state and
// text), the inspector of the selected message on the right, and the message actions (receive 1,
// extend, change visibility, release, delete, the context menu's copies and moves).
//
// Over a source that cannot peek (a real queue) the table lists the messages the window received
// and still holds, and says so; over one without the local engine there is no inspector.
class MessagesPage : public QSplitter {
    Q_OBJECT
public:
    // `history` (the inspector's timelines): null without the local engine. `actions` are the
    // window's; the page puts the message actions in its table's context menu.
    MessagesPage(QueueSource& source, const WindowActions& actions, MessageHistory* history,
                 QWidget* parent = nullptr);

    // Shows `queue` (empty: none); `kind` is its engine::QueueKind. A text filter belongs to the
    // queue it was typed for: it goes with that queue and comes back with it.
    void setQueue(const QString& queue, int kind);
    QString queue() const { return m_queue; }
    // Re-reads the title line (the queue's timeout, delay, dead-letter relation).
    void updateTitle();

    MessageTableModel* model() const { return m_messages; }
    MessageFilterModel* filter() const { return m_filter; }
    QTableView* view() const { return m_view; }
    MessageInspector* inspector() const { return m_inspector; }
    NoticeBar* notice() const { return m_notice; }
    QComboBox* stateFilter() const { return m_stateFilter; }
    void setClients(const ClientDirectory* clients, const ReceiptHolders* holders);

    QStringList selectedMessageIds() const;
    // Selects these messages (listing them first if the table is still listing); how many found.
    int selectMessages(const QStringList& messageIds);
    // Any selected message in flight: what the message actions need.
    bool hasInFlightSelection() const;
    // The filter line, focused with its text selected (Ctrl+F).
    void focusFilter();

    // ---- actions (messages_page_actions.cpp) ----------------------------------------------------
    void receiveOne();
    void extend30();
    void release();
    void changeVisibility();
    void deleteSelected();
    // The table's menu at `at` (viewport coordinates): the message actions, then copy id / body /
    // receipt, send a copy, copy or move to another queue. Runs the menu.
    void showMenu(const QPoint& at);
    // "Copy as JSON": the message as a ReceiveMessage answer gives it, with its system and
    // message attributes.
    static QString messageJson(const engine::MessageView& message);
    // `queues`: where a copy or a move may go (the queue list's names).
    void setQueueNames(const QStringList& queues) { m_queueNames = queues; }

protected:
    void changeEvent(QEvent* event) override;

Q_SIGNALS:
    // A line for the status bar, for `milliseconds`.
    void statusMessage(const QString& text, int milliseconds);
    // What the message actions can act on changed.
    void selectionChanged();

private:
    void updateCount();
    void applyStateFilter();
    void onCurrentChanged();
    // The selected messages that are in flight, with their receipts (by peek, or those the window
    // holds), and how many of the selection are not in flight.
    std::vector<InFlightMessage> selectedInFlight(int* skipped = nullptr) const;
    void reportOutcome(const ActionOutcome& outcome, const QString& done, int skipped);
    QCoro::Task<> changeSelected(VisibilityChange change);
    QCoro::Task<> deleteSelectedTask();
    QCoro::Task<> receiveOneTask();
    void resubmit(const engine::MessageView& message, const QString& toQueue, bool move);
    // A move's second half: the original deleted with its receipt once the copy is in.
    QCoro::Task<> deleteMoved(QString from, std::string receipt, QString id, QString toQueue,
                              QString copyId);

    QueueSource& m_source;
    const WindowActions& m_actions;
    QString m_queue;
    MessageTableModel* m_messages = nullptr;
    MessageFilterModel* m_filter = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_details = nullptr; // its type, visibility timeout, delay and DLQ
    QComboBox* m_stateFilter = nullptr;
    QLineEdit* m_textFilter = nullptr;
    QLabel* m_count = nullptr;
    NoticeBar* m_notice = nullptr;
    QTableView* m_view = nullptr;
    MessageInspector* m_inspector = nullptr;
    QHash<QString, QString> m_queueFilters; // the text filter typed for each queue
    QStringList m_queueNames;
    // A source without peek: the receipts of the messages the window holds, by message id.
    QHash<QString, std::string> m_heldReceipts;
};

} // namespace inflight::ui
