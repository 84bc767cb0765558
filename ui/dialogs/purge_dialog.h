#pragma once

#include "engine/requests.h"

#include <QDialog>

class QRadioButton;

namespace inflight::ui {

// Confirms the purge of an OCI queue and what it removes, as OCI's PurgeQueue purgeType does:
// the queue's own messages (NORMAL, the default), those of its built-in dead-letter queue (DLQ)
// or both (BOTH). Each choice says how many messages it removes. Run it with exec(); Purge
// accepts. SQS queues have nothing to choose and keep the plain confirmation.
// Widgets: purgeNormalRadio, purgeDeadLetterRadio, purgeBothRadio, yesButton, cancelButton.
class PurgeDialog : public QDialog {
    Q_OBJECT
public:
    // `queueMessages` and `deadLetterMessages`: what each holds now (all states).
    PurgeDialog(const QString& queue, const QString& deadLetterQueue, qint64 queueMessages,
                qint64 deadLetterMessages, QWidget* parent = nullptr);

    engine::PurgeTarget target() const;
    void setTarget(engine::PurgeTarget target);

private:
    QRadioButton* m_normal = nullptr;
    QRadioButton* m_deadLetter = nullptr;
    QRadioButton* m_both = nullptr;
};

} // namespace inflight::ui
