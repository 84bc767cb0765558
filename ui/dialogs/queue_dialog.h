#pragma once

#include "engine/types.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// Creates a queue with every attribute, or edits an existing queue's attributes. The dialog makes
// the engine call itself when OK is pressed and stays open with the service's error shown inline
// (errorLabel) when the engine rejects it. Widgets: nameEdit, typeCombo, visibilitySpin,
// delaySpin, retentionSpin, maxSizeSpin, waitSpin, contentDedupCheck, dedupScopeCombo,
// throughputCombo, dlqGroup (checkable), dlqTargetCombo, maxReceiveSpin, deliveryCountSpin,
// channelLimitSpin.
class ErrorLabel;

class QueueDialog : public QDialog {
    Q_OBJECT
public:
    enum class Type { Standard = 0, Fifo = 1, Oci = 2 };

    // Create mode.
    explicit QueueDialog(session::Session& session, QWidget* parent = nullptr);
    // Edit mode for the queue `name` (name and type fixed).
    QueueDialog(session::Session& session, const QString& name, QWidget* parent = nullptr);

    bool isEditing() const { return !m_editing.isEmpty(); }
    QString queueName() const;
    QString errorText() const;

    // The attributes the dialog would send: every field for a new queue, the changed ones when
    // editing. SQS names for standard and FIFO queues, OCI names for OCI queues.
    engine::StringMap attributes() const;

    void accept() override;

private:
    void build();
    void loadQueue();
    void applyType();
    void fillDeadLetterTargets();
    void onNameChanged();
    // "orders" → "orders-dlq", "payments.fifo" → "payments-dlq.fifo".
    static QString suggestedDeadLetterQueue(const QString& name);
    Type type() const;
    engine::StringMap allAttributes() const;

    session::Session& m_session;
    QString m_editing;
    engine::StringMap m_original;

    QLineEdit* m_name = nullptr;
    QComboBox* m_type = nullptr;
    QLabel* m_typeHint = nullptr;
    QSpinBox* m_visibility = nullptr;
    QSpinBox* m_delay = nullptr;
    QSpinBox* m_retention = nullptr;
    QSpinBox* m_maxSize = nullptr;
    QSpinBox* m_wait = nullptr;
    QLabel* m_waitLabel = nullptr;
    QLabel* m_delayLabel = nullptr;
    QGroupBox* m_fifoGroup = nullptr;
    QCheckBox* m_contentDedup = nullptr;
    QComboBox* m_dedupScope = nullptr;
    QComboBox* m_throughput = nullptr;
    QGroupBox* m_dlqGroup = nullptr;
    QComboBox* m_dlqTarget = nullptr;
    bool m_typeChosen = false;   // the user picked a type: the name no longer sets it
    bool m_targetChosen = false; // the user picked a dead-letter target
    QSpinBox* m_maxReceive = nullptr;
    QGroupBox* m_ociGroup = nullptr;
    QSpinBox* m_deliveryCount = nullptr;
    QSpinBox* m_channelLimit = nullptr;
    ErrorLabel* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace inflight::ui
