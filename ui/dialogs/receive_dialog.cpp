#include "ui/dialogs/receive_dialog.h"

#include "engine/explain.h"
#include "session/session.h"
#include "ui/dialogs/error_label.h"
#include "ui/dialogs/receive_attributes.h"
#include "ui/dialogs/spin_units.h"
#include "ui/widgets/check_list_button.h"
#include "ui/widgets/engine_text.h"
#include "ui/widgets/receipt_delegate.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QCoroSignal>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <memory>

namespace inflight::ui {

namespace {

enum ReceivedColumn { IdColumn, CountColumn, VisibleColumn, ReceiptColumn, AttributesColumn };

// The names of the attributes a receive returned, message attributes first ("customer, priority ·
// SenderId, SentTimestamp"), with every value in the tooltip.
void showAttributes(QTreeWidgetItem* item, const engine::ReceivedMessage& message)
{
    QStringList messageNames;
    QStringList systemNames;
    QStringList values;
    for (const auto& [name, value] : message.attributes) {
        messageNames << toQString(name);
        values << QStringLiteral("%1 (%2) = %3")
                      .arg(toQString(name), toQString(value.dataType), attributeValueText(value));
    }
    for (const auto& [name, value] : message.systemAttributes) {
        systemNames << toQString(name);
        values << QStringLiteral("%1 = %2").arg(toQString(name), toQString(value));
    }
    QStringList parts;
    for (const QStringList& names : {messageNames, systemNames})
        if (!names.isEmpty())
            parts << names.join(QStringLiteral(", "));
    item->setText(AttributesColumn,
                  parts.isEmpty() ? ReceiveDialog::tr("none")
                                  : parts.join(QStringLiteral(" \u00b7 ")));
    item->setToolTip(AttributesColumn, values.join(QLatin1Char('\n')));
}

} // namespace

ReceiveDialog::ReceiveDialog(session::Session& session, const QString& queue, QWidget* parent)
    : QDialog(parent), m_session(session), m_queue(queue)
{
    setObjectName(QStringLiteral("receiveDialog"));
    setWindowTitle(tr("Receive from %1").arg(queue));
    setModal(false);
    setAttribute(Qt::WA_DeleteOnClose, false);

    int visibility = 30;
    int wait = 0;
    if (auto view = m_session.broker().queueView(toStdString(queue))) {
        m_kind = view->kind;
        const bool oci = m_kind == engine::QueueKind::Oci;
        visibility
            = attributeInt(view->attributes, oci ? "visibilityInSeconds" : "VisibilityTimeout", 30);
        wait = attributeInt(view->attributes,
                            oci ? "timeoutInSeconds" : "ReceiveMessageWaitTimeSeconds", 0);
    }
    const bool oci = m_kind == engine::QueueKind::Oci;

    auto* layout = new QVBoxLayout(this);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("countNoteLabel"));
    m_note->setWordWrap(true);
    m_note->setText(countNote());
    layout->addWidget(m_note);

    auto* form = new QFormLayout;
    m_max = new QSpinBox(this);
    m_max->setObjectName(QStringLiteral("maxSpin"));
    m_max->setRange(1, oci ? 20 : 10);
    m_max->setValue(1);
    m_visibility = new QSpinBox(this);
    m_visibility->setObjectName(QStringLiteral("visibilitySpin"));
    m_visibility->setRange(0, 43200);
    m_visibility->setSuffix(tr(" s"));
    m_visibility->setValue(visibility);
    showSecondsInWords(m_visibility);
    m_visibility->setToolTip(tr("How long the received messages stay hidden from other receives"));
    m_wait = new QSpinBox(this);
    m_wait->setObjectName(QStringLiteral("waitSpin"));
    m_wait->setRange(0, oci ? 30 : 20);
    m_wait->setSuffix(tr(" s"));
    m_wait->setSpecialValueText(tr("0 s (short poll)"));
    m_wait->setValue(wait);
    m_wait->setToolTip(tr("Long poll: wait this long (engine time) for a message to arrive"));
    m_channel = new QLineEdit(this);
    m_channel->setObjectName(QStringLiteral("channelFilterEdit"));
    m_channel->setPlaceholderText(tr("any channel"));
    // The three figures of a receive on one row: the panel below the table stays low.
    auto* figures = new QHBoxLayout;
    const auto figure = [this, figures](const QString& text, QSpinBox* spin) {
        auto* label = new QLabel(text, this);
        label->setBuddy(spin);
        figures->addWidget(label);
        figures->addWidget(spin, 1);
        figures->addSpacing(12);
    };
    figure(tr("&Maximum messages:"), m_max);
    figure(tr("&Visibility timeout:"), m_visibility);
    figure(tr("&Wait time:"), m_wait);
    form->addRow(figures);
    if (oci)
        form->addRow(tr("&Channel:"), m_channel);
    m_channel->setVisible(oci);

    // The attributes to ask for (SQS AttributeNames / MessageAttributeNames).
    m_systemAttributes = new CheckListButton(this);
    m_systemAttributes->setObjectName(QStringLiteral("systemAttributesButton"));
    m_systemAttributes->setSummaryTexts(tr("All"), tr("None"), tr("%1 of %2"));
    for (const QString& name : systemAttributeNamesFor(m_kind))
        m_systemAttributes->addItem(name, name);
    m_messageAttributes = new QComboBox(this);
    m_messageAttributes->setObjectName(QStringLiteral("messageAttributesCombo"));
    m_messageAttributes->addItem(tr("All"), int(ReceiveAttributeChoice::Messages::All));
    m_messageAttributes->addItem(tr("None"), int(ReceiveAttributeChoice::Messages::None));
    m_messageAttributes->addItem(tr("Only these:"), int(ReceiveAttributeChoice::Messages::Names));
    m_messageNames = new QLineEdit(this);
    m_messageNames->setObjectName(QStringLiteral("messageAttributeNamesEdit"));
    m_messageNames->setPlaceholderText(tr("customer, trace.*"));
    m_messageNames->setToolTip(tr("Exact names, or a prefix followed by .* for every name that "
                                  "starts with it (trace.* returns trace.id and trace.parent)"));
    auto* systemRow = new QHBoxLayout;
    systemRow->addWidget(m_systemAttributes);
    systemRow->addStretch(1);
    auto* messageRow = new QHBoxLayout;
    messageRow->addWidget(m_messageAttributes);
    messageRow->addWidget(m_messageNames, 1);
    if (!oci) {
        auto* systemLabel = new QLabel(tr("S&ystem attributes:"), this);
        systemLabel->setBuddy(m_systemAttributes);
        form->addRow(systemLabel, systemRow);
        auto* messageLabel = new QLabel(tr("Message &attributes:"), this);
        messageLabel->setBuddy(m_messageAttributes);
        form->addRow(messageLabel, messageRow);
    }
    for (QWidget* widget :
         {static_cast<QWidget*>(m_systemAttributes), static_cast<QWidget*>(m_messageAttributes),
          static_cast<QWidget*>(m_messageNames)})
        widget->setVisible(!oci);
    setAttributeChoice(ReceiveAttributeChoice::load());
    connect(m_messageAttributes, &QComboBox::currentIndexChanged, this,
            &ReceiveDialog::updateMessageNamesEdit);
    layout->addLayout(form);

    auto* waitRow = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("waitProgress"));
    m_progress->setTextVisible(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setWordWrap(true);
    waitRow->addWidget(m_status, 2);
    waitRow->addWidget(m_progress, 1);
    layout->addLayout(waitRow);

    m_results = new QTreeWidget(this);
    m_results->setObjectName(QStringLiteral("resultsTree"));
    m_results->setRootIsDecorated(false);
    m_results->setHeaderLabels({tr("Message id"), tr("Receives"), tr("Visible until"),
                                tr("Receipt handle"), tr("Attributes")});
    m_results->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Receipts share a long prefix: a fixed column shows each by its end (the tooltip has it
    // whole), and the attributes returned take the rest.
    m_results->header()->setSectionResizeMode(ReceiptColumn, QHeaderView::Interactive);
    m_results->setColumnWidth(ReceiptColumn,
                              m_results->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 15);
    m_results->setItemDelegateForColumn(ReceiptColumn, new ReceiptDelegate(m_results));
    m_results->header()->setStretchLastSection(true);
    m_results->setMinimumHeight(72);
    m_results->setSelectionMode(QAbstractItemView::ExtendedSelection);
    layout->addWidget(m_results, 1);

    m_error = new ErrorLabel(this);
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(this);
    m_receive = buttons->addButton(tr("&Receive"), QDialogButtonBox::ActionRole);
    m_receive->setObjectName(QStringLiteral("receiveButton"));
    m_receive->setDefault(true);
    m_cancel = buttons->addButton(tr("&Cancel wait"), QDialogButtonBox::ActionRole);
    m_cancel->setObjectName(QStringLiteral("cancelReceiveButton"));
    m_cancel->setEnabled(false);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    close->setObjectName(QStringLiteral("closeButton"));
    close->setAutoDefault(false);
    layout->addWidget(buttons);

    connect(m_receive, &QPushButton::clicked, this, &ReceiveDialog::startReceive);
    connect(m_cancel, &QPushButton::clicked, this, &ReceiveDialog::cancelReceive);
    connect(close, &QPushButton::clicked, this, &ReceiveDialog::reject);
    connect(&m_session, &session::Session::eventsReady, this, &ReceiveDialog::onEvents);

    // Presentation only: redraws how long the wait has left in engine time.
    m_tick = new QTimer(this);
    m_tick->setInterval(100);
    connect(m_tick, &QTimer::timeout, this, &ReceiveDialog::refreshWait);
    m_status->setText(tr("Ready."));
    m_progress->hide();
    resize(880, 500);
}

ReceiveDialog::~ReceiveDialog()
{
    // The coroutine owns the pending receive; cancelling lets it finish and free it.
    if (m_pending)
        m_pending->cancel();
}

QString ReceiveDialog::countNote() const
{
    QString text = tr("This is a real receive, not a peek: each message returned gets a new "
                      "receipt handle, its receive count goes up by one, and it stays hidden for "
                      "the visibility timeout.");
    auto view = m_session.broker().queueView(toStdString(m_queue));
    if (!view)
        return text;
    if (view->maxReceiveCount > 0 && !view->deadLetterTarget.empty()) {
        text += QLatin1Char(' ')
            + (m_kind == engine::QueueKind::Oci
                   ? tr("This counts toward the dead-letter delivery count: a message delivered "
                        "%1 times moves to %2 instead of being delivered again.")
                   : tr("This counts toward maxReceiveCount: a message already received %1 times "
                        "moves to %2 on its next receive instead of being delivered."))
                  .arg(view->maxReceiveCount)
                  .arg(toQString(view->deadLetterTarget));
    } else {
        text += QLatin1Char(' ') + tr("%1 has no dead-letter queue.").arg(m_queue);
    }
    return text;
}

std::optional<engine::ReceiveRequest> ReceiveDialog::request(QString* error) const
{
    engine::ReceiveRequest r;
    r.queue = toStdString(m_queue);
    r.maxMessages = m_max->value();
    r.visibilityTimeout = m_visibility->value();
    r.waitTimeSeconds = m_wait->value();
    if (m_kind == engine::QueueKind::Oci) {
        r.messageAttributeNames = {"All"}; // GetMessages returns every custom property
        if (!m_channel->text().trimmed().isEmpty())
            r.channelFilter = toStdString(m_channel->text().trimmed());
    } else {
        const ReceiveAttributeChoice choice = attributeChoice();
        auto messageNames = choice.messageAttributeNames(error);
        if (!messageNames)
            return std::nullopt;
        r.systemAttributeNames = choice.systemAttributeNames();
        r.messageAttributeNames = std::move(*messageNames);
    }
    r.origin = windowOrigin();
    return r;
}

ReceiveAttributeChoice ReceiveDialog::attributeChoice() const
{
    ReceiveAttributeChoice choice;
    choice.allSystem = m_systemAttributes->allChecked();
    for (const QVariant& name : m_systemAttributes->checkedValues())
        choice.systemNames << name.toString();
    choice.messages = ReceiveAttributeChoice::Messages(m_messageAttributes->currentData().toInt());
    choice.messageNamesText = m_messageNames->text().trimmed();
    return choice;
}

void ReceiveDialog::setAttributeChoice(const ReceiveAttributeChoice& choice)
{
    if (choice.allSystem) {
        m_systemAttributes->setAllChecked(true);
    } else {
        QVariantList names;
        for (const QString& name : choice.systemNames)
            names << name;
        m_systemAttributes->setCheckedValues(names);
    }
    m_messageAttributes->setCurrentIndex(m_messageAttributes->findData(int(choice.messages)));
    m_messageNames->setText(choice.messageNamesText);
    updateMessageNamesEdit();
}

void ReceiveDialog::updateMessageNamesEdit()
{
    m_messageNames->setEnabled(!isWaiting()
                               && m_messageAttributes->currentData().toInt()
                                   == int(ReceiveAttributeChoice::Messages::Names));
}

void ReceiveDialog::setMaxMessages(int count)
{
    m_max->setValue(count);
}

void ReceiveDialog::setVisibilityTimeout(int seconds)
{
    m_visibility->setValue(seconds);
}

void ReceiveDialog::setWaitTime(int seconds)
{
    m_wait->setValue(seconds);
}

QString ReceiveDialog::statusText() const
{
    return m_status->text();
}

QString ReceiveDialog::errorText() const
{
    return m_error->errorText();
}

void ReceiveDialog::startReceive()
{
    if (isWaiting())
        return;
    QString error;
    auto r = request(&error);
    if (!r) {
        m_error->showError(error);
        m_status->setText(tr("Not received: the attribute names need a look."));
        m_messageNames->setFocus();
        return;
    }
    if (m_kind != engine::QueueKind::Oci)
        attributeChoice().save();
    run(std::move(*r));
}

void ReceiveDialog::cancelReceive()
{
    if (m_pending)
        m_pending->cancel();
}

QCoro::Task<> ReceiveDialog::run(engine::ReceiveRequest request)
{
    m_error->clearError();
    m_results->clear();
    m_receivedIds.clear();
    m_received.clear();
    m_waitStart = m_session.displayTime();
    m_waitEnd = m_waitStart + request.waitTimeSeconds.value_or(0) * engine::kSecond;

    std::unique_ptr<session::PendingReceive> op(m_session.receive(std::move(request)));
    if (!op->isFinished()) {
        QPointer<ReceiveDialog> self(this);
        m_pending = op.get();
        setWaiting(true);
        co_await qCoro(op.get(), &session::PendingReceive::finished);
        if (!self)
            co_return; // the dialog went away; its destructor cancelled the wait
        m_pending = nullptr;
        setWaiting(false);
    }
    showResult(op->result(), op->wasCancelled());
}

void ReceiveDialog::showResult(const engine::Result<engine::ReceiveResult>& result, bool cancelled)
{
    if (!result) {
        m_status->setText(tr("The receive failed."));
        m_error->showError(describeError(result.error()));
        Q_EMIT receiveFinished({});
        return;
    }
    const std::vector<engine::ReceivedMessage>& messages = result->messages;
    for (const engine::ReceivedMessage& message : messages) {
        auto* item = new QTreeWidgetItem(m_results);
        const QString id = toQString(message.messageId);
        const QString receipt = toQString(message.receiptHandle);
        item->setText(IdColumn, id);
        item->setText(CountColumn, QString::number(message.receiveCount));
        item->setText(VisibleColumn, formatEngineTime(message.visibleAt));
        showAttributes(item, message);
        item->setText(ReceiptColumn, receipt);
        item->setData(ReceiptColumn, Qt::UserRole, receipt); // ReceiptDelegate: shown by its end
        item->setToolTip(ReceiptColumn, receipt);
        item->setData(IdColumn, Qt::UserRole, id);
        m_receivedIds << id;
    }
    m_received = messages;
    if (cancelled)
        m_status->setText(tr("Cancelled: the wait ended without a message."));
    else if (messages.empty()) {
        // Why, with the numbers (engine/explain.h): what is in flight or delayed, and until when.
        QString why;
        if (const auto asked = request(nullptr))
            if (const auto explained = m_session.broker().explainEmptyReceive(*asked))
                why = toQString(explained->text);
        m_status->setText(
            tr("No message: the queue had none to deliver%1.")
                .arg(m_waitEnd > m_waitStart ? tr(" within the wait time") : QString())
            + (why.isEmpty() ? QString() : QLatin1Char('\n') + why));
    } else
        m_status->setText(tr("Received %1 at %2.")
                              .arg(messagesText(qint64(messages.size())),
                                   formatEngineTime(m_session.displayTime())));
    Q_EMIT receiveFinished(m_receivedIds);
}

void ReceiveDialog::onEvents(const std::vector<engine::Event>& events)
{
    for (const engine::Event& event : events) {
        if (event.kind != engine::EventKind::MovedToDeadLetterQueue || event.origin != "window"
            || toQString(event.queue) != m_queue || event.time < m_waitStart)
            continue;
        auto* item = new QTreeWidgetItem(m_results);
        item->setText(IdColumn, toQString(event.messageId));
        item->setText(CountColumn, QString::number(event.receiveCount));
        item->setText(VisibleColumn, tr("moved to %1").arg(toQString(event.detail)));
        item->setText(AttributesColumn,
                      tr("not delivered: its receive count had reached the maximum"));
        item->setForeground(VisibleColumn, m_error->palette().color(QPalette::WindowText));
    }
}

void ReceiveDialog::setWaiting(bool waiting)
{
    m_receive->setEnabled(!waiting);
    m_cancel->setEnabled(waiting);
    m_max->setEnabled(!waiting);
    m_visibility->setEnabled(!waiting);
    m_wait->setEnabled(!waiting);
    m_systemAttributes->setEnabled(!waiting);
    m_messageAttributes->setEnabled(!waiting);
    updateMessageNamesEdit();
    m_progress->setVisible(waiting);
    if (waiting) {
        m_progress->setRange(0, int(std::max<engine::Millis>(m_waitEnd - m_waitStart, 1)));
        m_tick->start();
        refreshWait();
        Q_EMIT waitingChanged(true, tr("Waiting for a message on %1…").arg(m_queue));
    } else {
        m_tick->stop();
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        Q_EMIT waitingChanged(false, QString());
    }
}

void ReceiveDialog::refreshWait()
{
    if (!isWaiting())
        return;
    const engine::Millis now = m_session.displayTime();
    m_progress->setValue(
        int(std::clamp<engine::Millis>(now - m_waitStart, 0, m_waitEnd - m_waitStart)));
    m_status->setText(tr("Waiting for a message (long poll): %1 left in engine time%2.")
                          .arg(formatTimeLeft(m_waitEnd - now),
                               m_session.isPaused() ? tr(", paused") : QString()));
}

void ReceiveDialog::closeEvent(QCloseEvent* event)
{
    cancelReceive();
    QDialog::closeEvent(event);
}

void ReceiveDialog::reject()
{
    cancelReceive();
    QDialog::reject();
}

} // namespace inflight::ui
