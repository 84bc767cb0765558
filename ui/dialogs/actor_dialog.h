#pragma once

#include "sim/actor_spec.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace inflight::ui {

class ErrorLabel;

// Adds or edits one simulated actor: the spec fields that matter most (producer: rate, total,
// body, group id, batch size; consumer: workers, receive settings, processing time, failure
// probability, poison pattern, heartbeat). Fields it does not show keep the edited spec's values.
// It does not close itself on OK: it emits submitted(); the window applies spec() through the
// session (checkActorSpec, checkActorFits, Simulation::addActor) and either accept()s or shows
// the refusal inline with showError(). objectName actorDialog.
class ActorDialog : public QDialog {
    Q_OBJECT
public:
    // `spec` given: edits it (its type fixed); otherwise adds a consumer of `queues.front()`.
    ActorDialog(const QStringList& queues, const std::optional<sim::ActorSpec>& spec,
                QWidget* parent = nullptr);

    sim::ActorSpec spec() const;
    void showError(const QString& text);
    QString errorText() const;

Q_SIGNALS:
    void submitted();

private:
    void load(const sim::ActorSpec& spec);

    sim::ProducerSpec m_producer{};
    sim::ConsumerSpec m_consumer{};
    QComboBox* m_type = nullptr;
    QLineEdit* m_name = nullptr;
    QComboBox* m_queue = nullptr;
    QStackedWidget* m_pages = nullptr;
    // producer
    QDoubleSpinBox* m_rate = nullptr;
    QSpinBox* m_total = nullptr;
    QLineEdit* m_body = nullptr;
    QLineEdit* m_groupId = nullptr;
    QSpinBox* m_batch = nullptr;
    // consumer
    QSpinBox* m_workers = nullptr;
    QSpinBox* m_maxMessages = nullptr;
    QSpinBox* m_wait = nullptr;
    QSpinBox* m_visibility = nullptr;
    QSpinBox* m_processing = nullptr;
    QDoubleSpinBox* m_fail = nullptr;
    QLineEdit* m_poison = nullptr;
    QCheckBox* m_heartbeat = nullptr;
    QSpinBox* m_extendBy = nullptr;
    QSpinBox* m_every = nullptr;
    QCheckBox* m_autoStart = nullptr;
    ErrorLabel* m_error = nullptr;
};

} // namespace inflight::ui
