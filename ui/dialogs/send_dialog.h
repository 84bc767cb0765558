#pragma once

#include "engine/requests.h"

#include "engine/views.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class BodyView;

class ErrorLabel;

// Sends one message to a queue: body, message attributes (name, type, value), delay, group id,
// deduplication id and channel — the fields the queue's type takes. The dialog stays open after a
// send (resultLabel says what happened) so a trainer can send several; engine errors show inline.
// Widgets: bodyEdit, formatJsonButton, attributesTable, addAttributeButton,
// removeAttributeButton, delaySpin, groupIdEdit, dedupIdEdit, channelEdit, sendButton,
// closeButton, resultLabel, errorLabel.
class SendDialog : public QDialog {
    Q_OBJECT
public:
    SendDialog(session::Session& session, const QString& queue, QWidget* parent = nullptr);

    QString queue() const { return m_queue; }
    // The request the Send button would make.
    engine::SendMessageRequest request() const;
    // Adds an attribute row (also what the Add button does, with empty fields).
    void addAttribute(const QString& name, const QString& type, const QString& value);
    // Starts from an existing message: its body, attributes, group and channel (not its
    // deduplication id: a copy is a new message) — to send a copy, or repair and resubmit it.
    void prefill(const engine::MessageView& message);

    QString errorText() const;
    QString resultText() const;

Q_SIGNALS:
    void sent(const QString& messageId);

private:
    void send();
    void formatJson();

    session::Session& m_session;
    QString m_queue;
    engine::QueueKind m_kind = engine::QueueKind::Standard;
    BodyView* m_body = nullptr;
    QTableWidget* m_attributes = nullptr;
    QSpinBox* m_delay = nullptr;
    QLineEdit* m_groupId = nullptr;
    QLineEdit* m_dedupId = nullptr;
    QLineEdit* m_channel = nullptr;
    QLabel* m_result = nullptr;
    ErrorLabel* m_error = nullptr;
    QPushButton* m_send = nullptr;
};

} // namespace inflight::ui
