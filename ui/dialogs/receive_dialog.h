#pragma once

#include "engine/requests.h"
#include "session/pending_receive.h"

#include <QCoroTask>
#include <QDialog>
#include <QPointer>

#include <optional>
#include <vector>

class QComboBox;
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

class CheckListButton;
class ErrorLabel;
struct ReceiveAttributeChoice;

// A real receive on one queue (max messages, visibility timeout, wait time, OCI channel): each
// message returned gets a new receipt and its receive count goes up, which counts toward the
// queue's maxReceiveCount — the dialog says so. SQS queues also choose the attributes to ask for,
// as a client does: system attributes (All, None or any of them, from a checkable menu) and
// message attributes (All, None or names, "prefix.*" taking every name with that prefix); the
// choice is remembered (ReceiveAttributeChoice) when a receive starts. OCI receives ask for
// every custom property and no system attribute, as GetMessages does. A receive with wait time
// runs as a coroutine over the session's long poll: the dialog shows it waiting (progress in
// engine time), Cancel ends it, and the window stays usable (the dialog is not modal), so a send
// from the window can answer it. Received messages (id, receive count, visible until, the
// attributes returned, receipt) and any move to the DLQ the receive made are listed in
// resultsTree. Closing the dialog cancels a wait.
// Widgets: maxSpin, visibilitySpin, waitSpin, channelFilterEdit, systemAttributesButton,
// messageAttributesCombo, messageAttributeNamesEdit, countNoteLabel, receiveButton,
// cancelReceiveButton, waitProgress, statusLabel, resultsTree, errorLabel, closeButton.
class ReceiveDialog : public QDialog {
    Q_OBJECT
public:
    ReceiveDialog(session::Session& session, const QString& queue, QWidget* parent = nullptr);
    ~ReceiveDialog() override;

    QString queue() const { return m_queue; }
    bool isWaiting() const { return m_pending != nullptr; }
    // The request the Receive button sends; nullopt (and `error` set) when the attribute names
    // are not valid.
    std::optional<engine::ReceiveRequest> request(QString* error = nullptr) const;
    ReceiveAttributeChoice attributeChoice() const;
    void setAttributeChoice(const ReceiveAttributeChoice& choice);

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
    // The messages the last receive returned, as the engine returned them.
    const std::vector<engine::ReceivedMessage>& receivedMessages() const { return m_received; }

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
    void updateMessageNamesEdit();

    session::Session& m_session;
    QString m_queue;
    engine::QueueKind m_kind = engine::QueueKind::Standard;
    QPointer<session::PendingReceive> m_pending;
    engine::Millis m_waitStart = 0;
    engine::Millis m_waitEnd = 0;
    QStringList m_receivedIds;
    std::vector<engine::ReceivedMessage> m_received;

    QSpinBox* m_max = nullptr;
    QSpinBox* m_visibility = nullptr;
    QSpinBox* m_wait = nullptr;
    QLineEdit* m_channel = nullptr;
    CheckListButton* m_systemAttributes = nullptr;
    QComboBox* m_messageAttributes = nullptr;
    QLineEdit* m_messageNames = nullptr;
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
