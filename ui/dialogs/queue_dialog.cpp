#include "ui/dialogs/queue_dialog.h"

#include "session/session.h"
#include "ui/dialogs/error_label.h"
#include "ui/dialogs/spin_units.h"
#include "ui/widgets/engine_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

QSpinBox* spin(QWidget* parent, const QString& objectName, const QString& suffix)
{
    auto* box = new QSpinBox(parent);
    box->setObjectName(objectName);
    box->setSuffix(suffix);
    box->setAccelerated(true);
    return box;
}

// What each field is called in a sentence about its limits.
QString fieldName(const QSpinBox* box)
{
    static const QHash<QString, const char*> names{
        {QStringLiteral("visibilitySpin"), QT_TRANSLATE_NOOP("QueueDialog", "Visibility timeout")},
        {QStringLiteral("delaySpin"), QT_TRANSLATE_NOOP("QueueDialog", "Delivery delay")},
        {QStringLiteral("retentionSpin"), QT_TRANSLATE_NOOP("QueueDialog", "Retention")},
        {QStringLiteral("maxSizeSpin"), QT_TRANSLATE_NOOP("QueueDialog", "Maximum size")},
        {QStringLiteral("waitSpin"), QT_TRANSLATE_NOOP("QueueDialog", "Receive wait time")},
        {QStringLiteral("maxReceiveSpin"), QT_TRANSLATE_NOOP("QueueDialog", "Maximum receives")},
        {QStringLiteral("deliveryCountSpin"),
         QT_TRANSLATE_NOOP("QueueDialog", "Dead-letter delivery count")},
        {QStringLiteral("channelLimitSpin"),
         QT_TRANSLATE_NOOP("QueueDialog", "Channel consumption limit")},
    };
    return QCoreApplication::translate("QueueDialog", names.value(box->objectName(), ""));
}

// The service's limits, said in words when the value typed is past them (spin_units.h).
void setRange(QSpinBox* box, int low, int high, int value)
{
    setLimits(box, low, high, fieldName(box));
    box->setValue(value);
}

std::string number(const QSpinBox* box)
{
    return std::to_string(box->value());
}

std::string attribute(const engine::StringMap& attributes, const char* name)
{
    const auto it = attributes.find(name);
    return it == attributes.end() ? std::string() : it->second;
}

} // namespace

QueueDialog::QueueDialog(session::Session& session, QWidget* parent)
    : QDialog(parent), m_session(session)
{
    setObjectName(QStringLiteral("queueDialog"));
    setWindowTitle(tr("New queue"));
    build();
    applyType();
    m_original.clear();
}

QueueDialog::QueueDialog(session::Session& session, const QString& name, QWidget* parent)
    : QDialog(parent), m_session(session), m_editing(name)
{
    setObjectName(QStringLiteral("queueDialog"));
    setWindowTitle(tr("Attributes of %1").arg(name));
    build();
    loadQueue();
}

void QueueDialog::build()
{
    auto* layout = new QVBoxLayout(this);

    auto* identity = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("orders, payments.fifo, …"));
    m_type = new QComboBox(this);
    m_type->setObjectName(QStringLiteral("typeCombo"));
    m_type->addItem(tr("Standard (SQS)"));
    m_type->addItem(tr("FIFO (SQS)"));
    m_type->addItem(tr("OCI Queue"));
    m_typeHint = new QLabel(this);
    m_typeHint->setWordWrap(true);
    m_typeHint->setForegroundRole(QPalette::PlaceholderText);
    identity->addRow(tr("&Name:"), m_name);
    identity->addRow(tr("&Type:"), m_type);
    identity->addRow(QString(), m_typeHint);
    layout->addLayout(identity);

    auto* timing = new QGroupBox(tr("Messages"), this);
    auto* timingForm = new QFormLayout(timing);
    m_visibility = spin(timing, QStringLiteral("visibilitySpin"), tr(" s"));
    m_visibility->setToolTip(tr("How long a received message stays hidden before it comes back"));
    m_delay = spin(timing, QStringLiteral("delaySpin"), tr(" s"));
    m_delay->setToolTip(tr("How long a new message waits before it can be received"));
    m_retention = spin(timing, QStringLiteral("retentionSpin"), tr(" s"));
    m_retention->setToolTip(tr("How long a message is kept before the queue drops it"));
    m_maxSize = spin(timing, QStringLiteral("maxSizeSpin"), tr(" bytes"));
    m_wait = spin(timing, QStringLiteral("waitSpin"), tr(" s"));
    m_wait->setToolTip(tr("Default long-poll wait of a receive"));
    m_delayLabel = new QLabel(tr("&Delivery delay:"), timing);
    m_delayLabel->setBuddy(m_delay);
    m_waitLabel = new QLabel(tr("Receive &wait time:"), timing);
    m_waitLabel->setBuddy(m_wait);
    for (QSpinBox* seconds : {m_visibility, m_delay, m_retention, m_wait})
        showSecondsInWords(seconds);
    showBytesInWords(m_maxSize);
    timingForm->addRow(tr("&Visibility timeout:"), m_visibility);
    timingForm->addRow(m_delayLabel, m_delay);
    timingForm->addRow(tr("&Retention:"), m_retention);
    timingForm->addRow(tr("Maximum &size:"), m_maxSize);
    timingForm->addRow(m_waitLabel, m_wait);
    layout->addWidget(timing);

    m_fifoGroup = new QGroupBox(tr("FIFO"), this);
    auto* fifoForm = new QFormLayout(m_fifoGroup);
    m_contentDedup
        = new QCheckBox(tr("Content-based deduplication (SHA-256 of the body)"), m_fifoGroup);
    m_contentDedup->setObjectName(QStringLiteral("contentDedupCheck"));
    m_dedupScope = new QComboBox(m_fifoGroup);
    m_dedupScope->setObjectName(QStringLiteral("dedupScopeCombo"));
    m_dedupScope->addItem(tr("Queue"), QStringLiteral("queue"));
    m_dedupScope->addItem(tr("Message group"), QStringLiteral("messageGroup"));
    m_throughput = new QComboBox(m_fifoGroup);
    m_throughput->setObjectName(QStringLiteral("throughputCombo"));
    m_throughput->addItem(tr("Per queue"), QStringLiteral("perQueue"));
    m_throughput->addItem(tr("Per message group id"), QStringLiteral("perMessageGroupId"));
    fifoForm->addRow(m_contentDedup);
    fifoForm->addRow(tr("Deduplication &scope:"), m_dedupScope);
    fifoForm->addRow(tr("Throughput &limit:"), m_throughput);
    layout->addWidget(m_fifoGroup);

    m_dlqGroup = new QGroupBox(tr("Dead-letter queue"), this);
    m_dlqGroup->setObjectName(QStringLiteral("dlqGroup"));
    m_dlqGroup->setCheckable(true);
    m_dlqGroup->setChecked(false);
    auto* dlqForm = new QFormLayout(m_dlqGroup);
    m_dlqTarget = new QComboBox(m_dlqGroup);
    m_dlqTarget->setObjectName(QStringLiteral("dlqTargetCombo"));
    m_maxReceive = spin(m_dlqGroup, QStringLiteral("maxReceiveSpin"), QString());
    setRange(m_maxReceive, 1, 1000, 3);
    m_maxReceive->setToolTip(tr("A message received this many times moves to the dead-letter "
                                "queue on its next receive"));
    dlqForm->addRow(tr("T&arget queue:"), m_dlqTarget);
    dlqForm->addRow(tr("Maximum &receives:"), m_maxReceive);
    layout->addWidget(m_dlqGroup);

    m_ociGroup = new QGroupBox(tr("OCI Queue"), this);
    auto* ociForm = new QFormLayout(m_ociGroup);
    m_deliveryCount = spin(m_ociGroup, QStringLiteral("deliveryCountSpin"), QString());
    setRange(m_deliveryCount, 0, 20, 0);
    m_deliveryCount->setSpecialValueText(tr("off (no dead-letter queue)"));
    m_deliveryCount->setToolTip(tr("Deliveries after which a message moves to the queue's "
                                   "built-in dead-letter queue <name>.dlq"));
    m_channelLimit = spin(m_ociGroup, QStringLiteral("channelLimitSpin"), tr(" %"));
    setRange(m_channelLimit, 1, 100, 100);
    m_channelLimit->setToolTip(tr("Share of the queue's capacity one channel may use"));
    ociForm->addRow(tr("Dead-letter &delivery count:"), m_deliveryCount);
    ociForm->addRow(tr("&Channel consumption limit:"), m_channelLimit);
    layout->addWidget(m_ociGroup);

    m_error = new ErrorLabel(this);
    layout->addWidget(m_error);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->setObjectName(QStringLiteral("buttonBox"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(isEditing() ? tr("Apply") : tr("Create"));
    m_buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QueueDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QueueDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_type, &QComboBox::currentIndexChanged, this, &QueueDialog::applyType);
    connect(m_type, &QComboBox::activated, this, [this] { m_typeChosen = true; });
    connect(m_dlqTarget, &QComboBox::activated, this, [this] { m_targetChosen = true; });
    connect(m_name, &QLineEdit::textChanged, this, &QueueDialog::onNameChanged);
    // A field that cannot change looks it (the name and type of a queue being edited).
    setStyleSheet(QStringLiteral("QLineEdit[readOnly=\"true\"] { background: palette(window); }"));
}

QString QueueDialog::suggestedDeadLetterQueue(const QString& name)
{
    if (name.isEmpty())
        return {};
    return name.endsWith(QLatin1String(".fifo")) ? name.chopped(5) + QStringLiteral("-dlq.fifo")
                                                 : name + QStringLiteral("-dlq");
}

void QueueDialog::onNameChanged()
{
    if (isEditing())
        return;
    // A name ending in .fifo is a FIFO queue (SQS requires it): the type follows the name until
    // the user picks one.
    const bool fifoName = queueName().endsWith(QLatin1String(".fifo"));
    if (!m_typeChosen && type() != Type::Oci) {
        const Type wanted = fifoName ? Type::Fifo : Type::Standard;
        if (type() != wanted) {
            m_type->setCurrentIndex(int(wanted)); // applyType refills the targets
            return;
        }
    }
    fillDeadLetterTargets();
}

QueueDialog::Type QueueDialog::type() const
{
    return static_cast<Type>(m_type->currentIndex());
}

QString QueueDialog::queueName() const
{
    return m_name->text().trimmed();
}

QString QueueDialog::errorText() const
{
    return m_error->errorText();
}

void QueueDialog::applyType()
{
    const Type t = type();
    const bool oci = t == Type::Oci;
    if (!isEditing()) {
        // Each profile's own ranges and defaults.
        if (oci) {
            setRange(m_visibility, 1, 43200, 30);
            setRange(m_retention, 10, 604800, 86400);
            setRange(m_maxSize, 1024, 1048576, 131072);
            setRange(m_wait, 0, 30, 30);
        } else {
            setRange(m_visibility, 0, 43200, 30);
            setRange(m_retention, 60, 1209600, 345600);
            setRange(m_maxSize, 1024, 1048576, 1048576);
            setRange(m_wait, 0, 20, 0);
        }
        setRange(m_delay, 0, 900, 0);
    }
    m_typeHint->setText(t == Type::Fifo ? tr("FIFO queue names end in .fifo. Messages of one "
                                             "group are delivered in order, one at a time.")
                            : oci ? tr("OCI queues have channels and a built-in dead-letter queue "
                                       "named <name>.dlq.")
                                  : tr("At-least-once delivery, best-effort order."));
    m_fifoGroup->setVisible(t == Type::Fifo);
    m_ociGroup->setVisible(oci);
    m_dlqGroup->setVisible(!oci);
    m_delay->setVisible(!oci);
    m_delayLabel->setVisible(!oci);
    m_waitLabel->setText(oci ? tr("Receive &timeout:") : tr("Receive &wait time:"));
    fillDeadLetterTargets();
    adjustSize();
}

void QueueDialog::fillDeadLetterTargets()
{
    const QString current
        = m_dlqTarget->currentIndex() >= 0 ? m_dlqTarget->currentText() : QString();
    const QSignalBlocker blocker(m_dlqTarget);
    m_dlqTarget->clear();
    const engine::QueueKind kind
        = type() == Type::Fifo ? engine::QueueKind::Fifo : engine::QueueKind::Standard;
    for (const engine::QueueView& queue : m_session.broker().queues()) {
        const QString name = toQString(queue.name);
        if (queue.kind != kind || queue.isBuiltInDeadLetterQueue || name == m_editing)
            continue;
        m_dlqTarget->addItem(name);
    }
    // The target the user chose stays; otherwise this queue's own "<name>-dlq" (or
    // "<name>-dlq.fifo") when it exists, else none — never just the first queue of the list.
    int index = m_targetChosen ? m_dlqTarget->findText(current) : -1;
    if (index < 0)
        index = m_dlqTarget->findText(suggestedDeadLetterQueue(queueName()));
    m_dlqTarget->setPlaceholderText(
        m_dlqTarget->count() == 0 ? tr("no %1 queue to use — create one first")
                                        .arg(type() == Type::Fifo ? tr("FIFO") : tr("standard"))
                                  : tr("choose a queue"));
    m_dlqTarget->setCurrentIndex(index);
}

void QueueDialog::loadQueue()
{
    auto view = m_session.broker().queueView(toStdString(m_editing));
    m_name->setText(m_editing);
    m_name->setReadOnly(true);
    m_type->setEnabled(false);
    if (!view) {
        m_error->showError(describeError(view.error()));
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
        return;
    }
    const engine::StringMap& a = view->attributes;
    const Type t = view->kind == engine::QueueKind::Oci ? Type::Oci
        : view->kind == engine::QueueKind::Fifo         ? Type::Fifo
                                                        : Type::Standard;
    {
        const QSignalBlocker blocker(m_type);
        m_type->setCurrentIndex(int(t));
    }
    if (t == Type::Oci) {
        setRange(m_visibility, 1, 43200, attributeInt(a, "visibilityInSeconds", 30));
        setRange(m_retention, 10, 604800, attributeInt(a, "retentionInSeconds", 86400));
        m_retention->setEnabled(false);
        m_retention->setToolTip(tr("Retention can only be set when the queue is created"));
        setRange(m_maxSize, 1024, 1048576, attributeInt(a, "maxMessageSizeInBytes", 131072));
        setRange(m_wait, 0, 30, attributeInt(a, "timeoutInSeconds", 30));
        m_deliveryCount->setValue(attributeInt(a, "deadLetterQueueDeliveryCount", 0));
        m_channelLimit->setValue(attributeInt(a, "channelConsumptionLimit", 100));
    } else {
        setRange(m_visibility, 0, 43200, attributeInt(a, "VisibilityTimeout", 30));
        setRange(m_delay, 0, 900, attributeInt(a, "DelaySeconds", 0));
        setRange(m_retention, 60, 1209600, attributeInt(a, "MessageRetentionPeriod", 345600));
        setRange(m_maxSize, 1024, 1048576, attributeInt(a, "MaximumMessageSize", 1048576));
        setRange(m_wait, 0, 20, attributeInt(a, "ReceiveMessageWaitTimeSeconds", 0));
        m_contentDedup->setChecked(attribute(a, "ContentBasedDeduplication") == "true");
        m_dedupScope->setCurrentIndex(attribute(a, "DeduplicationScope") == "messageGroup" ? 1 : 0);
        m_throughput->setCurrentIndex(
            attribute(a, "FifoThroughputLimit") == "perMessageGroupId" ? 1 : 0);
    }
    applyType();
    if (!view->deadLetterTarget.empty() && t != Type::Oci) {
        m_dlqGroup->setChecked(true);
        const int index = m_dlqTarget->findText(toQString(view->deadLetterTarget));
        if (index >= 0)
            m_dlqTarget->setCurrentIndex(index);
        m_maxReceive->setValue(int(view->maxReceiveCount));
    }
    m_original = allAttributes();
}

engine::StringMap QueueDialog::allAttributes() const
{
    engine::StringMap a;
    if (type() == Type::Oci) {
        a["visibilityInSeconds"] = number(m_visibility);
        if (!isEditing())
            a["retentionInSeconds"] = number(m_retention);
        a["maxMessageSizeInBytes"] = number(m_maxSize);
        a["timeoutInSeconds"] = number(m_wait);
        a["deadLetterQueueDeliveryCount"] = number(m_deliveryCount);
        a["channelConsumptionLimit"] = number(m_channelLimit);
        return a;
    }
    a["VisibilityTimeout"] = number(m_visibility);
    a["DelaySeconds"] = number(m_delay);
    a["MessageRetentionPeriod"] = number(m_retention);
    a["MaximumMessageSize"] = number(m_maxSize);
    a["ReceiveMessageWaitTimeSeconds"] = number(m_wait);
    if (type() == Type::Fifo) {
        a["FifoQueue"] = "true";
        a["ContentBasedDeduplication"] = m_contentDedup->isChecked() ? "true" : "false";
        a["DeduplicationScope"] = toStdString(m_dedupScope->currentData().toString());
        a["FifoThroughputLimit"] = toStdString(m_throughput->currentData().toString());
    }
    if (m_dlqGroup->isChecked()) {
        a["RedrivePolicy"] = "{\"deadLetterTargetArn\":\""
            + m_session.broker().arnForName(toStdString(m_dlqTarget->currentText()))
            + "\",\"maxReceiveCount\":" + number(m_maxReceive) + "}";
    } else if (isEditing()) {
        a["RedrivePolicy"] = "";
    }
    return a;
}

engine::StringMap QueueDialog::attributes() const
{
    engine::StringMap all = allAttributes();
    if (!isEditing())
        return all;
    engine::StringMap changed;
    for (const auto& [name, value] : all) {
        const auto it = m_original.find(name);
        if (it == m_original.end() || it->second != value)
            changed[name] = value;
    }
    return changed;
}

void QueueDialog::accept()
{
    if (const auto past = valueOutOfLimits(this)) {
        m_error->showError(past->text);
        past->box->setFocus();
        past->box->selectAll();
        return;
    }
    engine::Broker& broker = m_session.broker();
    QString error;
    if (isEditing()) {
        const engine::StringMap changed = attributes();
        if (!changed.empty()) {
            auto status
                = broker.setQueueAttributes(toStdString(m_editing), changed, windowOrigin());
            if (!status)
                error = describeError(status.error());
        }
    } else {
        if (broker.getQueue(toStdString(queueName()))) {
            error = tr("A queue named %1 already exists.").arg(queueName());
        } else if (m_dlqGroup->isChecked() && m_dlqTarget->currentText().isEmpty()) {
            error = tr("Choose the dead-letter queue, or turn the dead-letter queue off.");
        } else {
            auto created
                = broker.createQueue(engine::CreateQueueRequest{.name = toStdString(queueName()),
                                                                .attributes = allAttributes(),
                                                                .oci = type() == Type::Oci,
                                                                .origin = windowOrigin()});
            if (!created)
                error = describeError(created.error());
        }
    }
    if (!error.isEmpty()) {
        m_error->showError(error);
        return;
    }
    QDialog::accept();
}

} // namespace inflight::ui
