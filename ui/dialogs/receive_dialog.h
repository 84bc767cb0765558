#pragma once

#include "engine/requests.h"
#include "session/pending_receive.h"

#include <QCoroTask>
#include <QDialog>
#include <QPointer>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;
class QTreeWidget;

namespace inflight::session {
class PendingReceive;
class Session;
} // namespace inflight::session

namespace inflight::ui {

class ErrorLabel;

// A real receive on one queue (max messages, visibility timeout, wait time, OCI channel): each
// message returned gets a new receipt and its receive count goes up, which counts toward the
// queue's maxReceiveCount — the dialog says so. A receive with wait time runs as a coroutine over
// the session's long poll: the dialog shows it waiting (progress in engine time), Cancel ends
// it, and the window stays usable (the dialog is not modal), so a send from the window can answer
// it. Received messages (id, receive count, receipt, visible until) and any move to the DLQ the
// receive made are listed in resultsTree. Closing the dialog cancels a wait.
// Widgets: maxSpin, visibilitySpin, waitSpin, channelFilterEdit, countNoteLabel, receiveButton,
// cancelReceiveButton, waitProgress, statusLabel, resultsTree, errorLabel, closeButton.
class ReceiveDialog : public QDialog {
    Q_OBJECT
public:
    ReceiveDialog(session::Session& session, const QString& queue, QWidget* parent = nullptr);
    ~ReceiveDialog() override;

    QString queue() const { return m_queue; }
    bool isWaiting() const { return m_pending != nullptr; }
    engine::ReceiveRequest request() const;

    void setMaxMessages(int count);
    void setVisibilityTimeout(int seconds);
    void setWaitTime(int seconds);

    // Starts a receive with the dialog's parameters (what the Receive button does).
    void startReceive();
    // Ends a waiting receive empty (what the Cancel button does).
    void cancelReceive();

    QString statusText() const;
    QString errorText() const;
    // Message ids received by the last receive, in order.
    QStringList receivedIds() const { return m_receivedIds; }

Q_SIGNALS:
    // A long poll started (true) or ended (false); `text` describes it for the status bar.
    void waitingChanged(bool waiting, const QString& text);
    // A receive finished (empty list when it ended empty or was cancelled).
    void receiveFinished(const QStringList& messageIds);

protected:
    void closeEvent(QCloseEvent* event) override;
    void reject() override;

private:
    QCoro::Task<> run(engine::ReceiveRequest request);
    void showResult(const engine::Result<engine::ReceiveResult>& result, bool cancelled);
    void onEvents(const std::vector<engine::Event>& events);
    void refreshWait();
    void setWaiting(bool waiting);
    QString countNote() const;

    session::Session& m_session;
    QString m_queue;
    engine::QueueKind m_kind = engine::QueueKind::Standard;
    QPointer<session::PendingReceive> m_pending;
    engine::Millis m_waitStart = 0;
    engine::Millis m_waitEnd = 0;
    QStringList m_receivedIds;

    QSpinBox* m_max = nullptr;
    QSpinBox* m_visibility = nullptr;
    QSpinBox* m_wait = nullptr;
    QLineEdit* m_channel = nullptr;
    QLabel* m_note = nullptr;
    QPushButton* m_receive = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QTreeWidget* m_results = nullptr;
    ErrorLabel* m_error = nullptr;
    QTimer* m_tick = nullptr;
};

} // namespace inflight::ui
