#include "ui/dialogs/actor_dialog.h"

#include "ui/dialogs/error_label.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

QSpinBox* spin(QWidget* parent, const QString& name, int min, int max, const QString& special = {})
{
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(min, max);
    if (!special.isEmpty())
        box->setSpecialValueText(special);
    return box;
}

} // namespace

ActorDialog::ActorDialog(const QStringList& queues, const std::optional<sim::ActorSpec>& spec,
                         QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("actorDialog"));
    setWindowTitle(spec ? tr("Edit actor") : tr("Add actor"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_type = new QComboBox(this);
    m_type->setObjectName(QStringLiteral("actorTypeCombo"));
    m_type->addItems({tr("Producer"), tr("Consumer")});
    m_type->setEnabled(!spec);
    form->addRow(tr("&Type:"), m_type);
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("actorNameEdit"));
    form->addRow(tr("&Name:"), m_name);
    m_queue = new QComboBox(this);
    m_queue->setObjectName(QStringLiteral("actorQueueCombo"));
    m_queue->setEditable(true);
    m_queue->addItems(queues);
    form->addRow(tr("&Queue:"), m_queue);
    layout->addLayout(form);

    m_pages = new QStackedWidget(this);
    auto* producer = new QWidget(m_pages);
    auto* p = new QFormLayout(producer);
    p->setContentsMargins(0, 0, 0, 0);
    m_rate = new QDoubleSpinBox(producer);
    m_rate->setObjectName(QStringLiteral("actorRateSpin"));
    m_rate->setRange(0, 100'000);
    m_rate->setDecimals(3);
    m_rate->setSuffix(tr(" /s"));
    p->addRow(tr("&Rate:"), m_rate);
    m_total = spin(producer, QStringLiteral("actorTotalSpin"), 0, 100'000'000, tr("unbounded"));
    p->addRow(tr("T&otal:"), m_total);
    m_body = new QLineEdit(producer);
    m_body->setObjectName(QStringLiteral("actorBodyEdit"));
    m_body->setToolTip(tr("A template: {n}, {uuid}, {time}, …"));
    p->addRow(tr("&Body:"), m_body);
    m_groupId = new QLineEdit(producer);
    m_groupId->setObjectName(QStringLiteral("actorGroupEdit"));
    m_groupId->setPlaceholderText(tr("FIFO queues: e.g. customer-{n%5}"));
    p->addRow(tr("&Group id:"), m_groupId);
    m_batch = spin(producer, QStringLiteral("actorBatchSpin"), 0, 1000);
    m_batch->setToolTip(tr("Messages per SendMessageBatch (1: SendMessage)"));
    p->addRow(tr("B&atch size:"), m_batch);
    m_pages->addWidget(producer);

    auto* consumer = new QWidget(m_pages);
    auto* c = new QFormLayout(consumer);
    c->setContentsMargins(0, 0, 0, 0);
    m_workers = spin(consumer, QStringLiteral("actorWorkersSpin"), 0, 100'000);
    c->addRow(tr("&Workers:"), m_workers);
    m_maxMessages = spin(consumer, QStringLiteral("actorMaxMessagesSpin"), 0, 1000);
    c->addRow(tr("&Max messages:"), m_maxMessages);
    m_wait = spin(consumer, QStringLiteral("actorWaitSpin"), -1, 1000, tr("the queue's"));
    m_wait->setSuffix(tr(" s"));
    m_wait->setToolTip(tr("Wait time: 0 is a short poll, above 0 a long poll"));
    c->addRow(tr("Wait t&ime:"), m_wait);
    m_visibility
        = spin(consumer, QStringLiteral("actorVisibilitySpin"), -1, 100'000, tr("the queue's"));
    m_visibility->setSuffix(tr(" s"));
    c->addRow(tr("&Visibility timeout:"), m_visibility);
    m_processing = spin(consumer, QStringLiteral("actorProcessingSpin"), 0, 100'000'000);
    m_processing->setSuffix(tr(" ms"));
    m_processing->setToolTip(tr("Fixed processing time per message"));
    c->addRow(tr("&Processing:"), m_processing);
    m_fail = new QDoubleSpinBox(consumer);
    m_fail->setObjectName(QStringLiteral("actorFailSpin"));
    m_fail->setRange(-1, 2);
    m_fail->setDecimals(3);
    m_fail->setSingleStep(0.05);
    m_fail->setToolTip(tr("Probability that processing fails (the message comes back after its "
                          "visibility timeout); the rest succeeds and is deleted"));
    c->addRow(tr("&Fail probability:"), m_fail);
    m_poison = new QLineEdit(consumer);
    m_poison->setObjectName(QStringLiteral("actorPoisonEdit"));
    m_poison->setPlaceholderText(tr("a regular expression: bodies it matches always fail"));
    c->addRow(tr("P&oison:"), m_poison);
    m_heartbeat = new QCheckBox(tr("&Heartbeat: extend the visibility timeout"), consumer);
    m_heartbeat->setObjectName(QStringLiteral("actorHeartbeatCheck"));
    c->addRow(m_heartbeat);
    m_extendBy = spin(consumer, QStringLiteral("actorExtendBySpin"), 0, 100'000);
    m_extendBy->setSuffix(tr(" s"));
    c->addRow(tr("  by:"), m_extendBy);
    m_every = spin(consumer, QStringLiteral("actorEverySpin"), 0, 100'000);
    m_every->setSuffix(tr(" s"));
    c->addRow(tr("  every:"), m_every);
    connect(m_heartbeat, &QCheckBox::toggled, m_extendBy, &QWidget::setEnabled);
    connect(m_heartbeat, &QCheckBox::toggled, m_every, &QWidget::setEnabled);
    m_pages->addWidget(consumer);
    layout->addWidget(m_pages);
    connect(m_type, &QComboBox::currentIndexChanged, m_pages, &QStackedWidget::setCurrentIndex);

    m_autoStart = new QCheckBox(tr("&Start at once"), this);
    m_autoStart->setObjectName(QStringLiteral("actorAutoStartCheck"));
    layout->addWidget(m_autoStart);
    m_error = new ErrorLabel(this);
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ActorDialog::submitted);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    if (spec) {
        load(*spec);
    } else {
        m_consumer.name = "worker";
        if (!queues.isEmpty())
            m_consumer.queue = m_producer.queue = queues.front().toStdString();
        m_producer.name = "producer";
        load(m_producer);
        load(m_consumer); // both pages filled; the consumer shown
    }
}

void ActorDialog::load(const sim::ActorSpec& spec)
{
    if (const auto* producer = std::get_if<sim::ProducerSpec>(&spec)) {
        m_producer = *producer;
        m_type->setCurrentIndex(0);
        m_name->setText(QString::fromStdString(producer->name));
        m_queue->setCurrentText(QString::fromStdString(producer->queue));
        m_rate->setValue(producer->rate);
        m_total->setValue(producer->total ? int(*producer->total) : 0);
        m_body->setText(QString::fromStdString(producer->body));
        m_groupId->setText(QString::fromStdString(producer->groupId.value_or(std::string())));
        m_batch->setValue(int(producer->batchSize));
        m_autoStart->setChecked(producer->autoStart);
        return;
    }
    const auto& consumer = std::get<sim::ConsumerSpec>(spec);
    m_consumer = consumer;
    m_type->setCurrentIndex(1);
    m_name->setText(QString::fromStdString(consumer.name));
    m_queue->setCurrentText(QString::fromStdString(consumer.queue));
    m_workers->setValue(int(consumer.workers));
    m_maxMessages->setValue(int(consumer.receive.maxMessages));
    m_wait->setValue(consumer.receive.waitTimeSeconds ? int(*consumer.receive.waitTimeSeconds)
                                                      : -1);
    m_visibility->setValue(
        consumer.receive.visibilityTimeout ? int(*consumer.receive.visibilityTimeout) : -1);
    m_processing->setValue(int(consumer.processing.a));
    m_fail->setValue(consumer.outcomes.fail);
    m_poison->setText(QString::fromStdString(consumer.poison.value_or(std::string())));
    m_heartbeat->setChecked(consumer.heartbeat.has_value());
    const sim::Heartbeat beat = consumer.heartbeat.value_or(sim::Heartbeat{});
    m_extendBy->setValue(int(beat.extendBy));
    m_every->setValue(int(beat.every / 1000));
    m_extendBy->setEnabled(consumer.heartbeat.has_value());
    m_every->setEnabled(consumer.heartbeat.has_value());
    m_autoStart->setChecked(consumer.autoStart);
}

sim::ActorSpec ActorDialog::spec() const
{
    const auto optionalText = [](const QLineEdit* edit) -> std::optional<std::string> {
        if (edit->text().isEmpty())
            return std::nullopt;
        return edit->text().toStdString();
    };
    if (m_type->currentIndex() == 0) {
        sim::ProducerSpec spec = m_producer;
        spec.name = m_name->text().toStdString();
        spec.queue = m_queue->currentText().toStdString();
        spec.rate = m_rate->value();
        spec.total
            = m_total->value() > 0 ? std::optional<std::int64_t>(m_total->value()) : std::nullopt;
        spec.body = m_body->text().toStdString();
        spec.groupId = optionalText(m_groupId);
        spec.batchSize = m_batch->value();
        spec.autoStart = m_autoStart->isChecked();
        return spec;
    }
    sim::ConsumerSpec spec = m_consumer;
    spec.name = m_name->text().toStdString();
    spec.queue = m_queue->currentText().toStdString();
    spec.workers = m_workers->value();
    spec.receive.maxMessages = m_maxMessages->value();
    spec.receive.waitTimeSeconds
        = m_wait->value() >= 0 ? std::optional<std::int64_t>(m_wait->value()) : std::nullopt;
    spec.receive.visibilityTimeout = m_visibility->value() >= 0
        ? std::optional<std::int64_t>(m_visibility->value())
        : std::nullopt;
    spec.processing = sim::Duration{sim::Duration::Kind::Fixed, m_processing->value(), 0};
    // The fail probability given; what it leaves goes to success (crash and release as they were).
    const double others = m_consumer.outcomes.crash + m_consumer.outcomes.release;
    spec.outcomes.fail = m_fail->value();
    spec.outcomes.succeed = std::max(0.0, 1.0 - others - m_fail->value());
    if (m_fail->value() > 1.0 || m_fail->value() < 0.0)
        spec.outcomes.succeed = 1.0 - others; // out of range: let the check name "outcomes.fail"
    spec.poison = optionalText(m_poison);
    if (m_heartbeat->isChecked()) {
        sim::Heartbeat beat = m_consumer.heartbeat.value_or(sim::Heartbeat{});
        beat.extendBy = m_extendBy->value();
        beat.every = sim::Millis(m_every->value()) * 1000;
        spec.heartbeat = beat;
    } else {
        spec.heartbeat.reset();
    }
    spec.autoStart = m_autoStart->isChecked();
    return spec;
}

void ActorDialog::showError(const QString& text)
{
    m_error->showError(text);
}

QString ActorDialog::errorText() const
{
    return m_error->errorText();
}

} // namespace inflight::ui
