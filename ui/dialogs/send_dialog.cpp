#include "ui/dialogs/send_dialog.h"

#include "ui/widgets/body_view.h"

#include "session/session.h"
#include "ui/dialogs/error_label.h"
#include "ui/widgets/engine_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {
enum AttributeColumn { NameColumn, TypeColumn, ValueColumn };
} // namespace

SendDialog::SendDialog(session::Session& session, const QString& queue, QWidget* parent)
    : QDialog(parent), m_session(session), m_queue(queue)
{
    setObjectName(QStringLiteral("sendDialog"));
    setWindowTitle(tr("Send a message to %1").arg(queue));
    if (auto view = m_session.broker().queueView(toStdString(queue)))
        m_kind = view->kind;
    const bool fifo = m_kind == engine::QueueKind::Fifo;
    const bool oci = m_kind == engine::QueueKind::Oci;

    auto* layout = new QVBoxLayout(this);
    auto* bodyRow = new QHBoxLayout;
    auto* bodyLabel = new QLabel(tr("&Body:"), this);
    auto* formatButton = new QPushButton(tr("&Format JSON"), this);
    formatButton->setObjectName(QStringLiteral("formatJsonButton"));
    formatButton->setAutoDefault(false);
    bodyRow->addWidget(bodyLabel);
    bodyRow->addStretch();
    bodyRow->addWidget(formatButton);
    layout->addLayout(bodyRow);
    // A pasted 1 MB body is held, not laid out (BodyView).
    m_body = new BodyView(QStringLiteral("bodyEdit"), false, this);
    m_body->setBody(QStringLiteral("{\n    \"hello\": \"world\"\n}"));
    m_body->editor()->setTabChangesFocus(true);
    bodyLabel->setBuddy(m_body->editor());
    layout->addWidget(m_body, 2);

    auto* attributesRow = new QHBoxLayout;
    attributesRow->addWidget(new QLabel(tr("Message attributes:"), this));
    attributesRow->addStretch();
    auto* add = new QPushButton(tr("&Add"), this);
    add->setObjectName(QStringLiteral("addAttributeButton"));
    add->setAutoDefault(false);
    auto* remove = new QPushButton(tr("Re&move"), this);
    remove->setObjectName(QStringLiteral("removeAttributeButton"));
    remove->setAutoDefault(false);
    attributesRow->addWidget(add);
    attributesRow->addWidget(remove);
    layout->addLayout(attributesRow);
    m_attributes = new QTableWidget(0, 3, this);
    m_attributes->setObjectName(QStringLiteral("attributesTable"));
    m_attributes->setHorizontalHeaderLabels({tr("Name"), tr("Type"), tr("Value")});
    m_attributes->horizontalHeader()->setStretchLastSection(true);
    m_attributes->verticalHeader()->hide();
    m_attributes->setMinimumHeight(90);
    layout->addWidget(m_attributes, 1);

    auto* form = new QFormLayout;
    m_delay = new QSpinBox(this);
    m_delay->setObjectName(QStringLiteral("delaySpin"));
    m_delay->setRange(0, 900);
    m_delay->setSuffix(tr(" s"));
    m_delay->setSpecialValueText(tr("queue default"));
    m_groupId = new QLineEdit(this);
    m_groupId->setObjectName(QStringLiteral("groupIdEdit"));
    m_groupId->setPlaceholderText(fifo ? tr("required") : tr("optional"));
    m_dedupId = new QLineEdit(this);
    m_dedupId->setObjectName(QStringLiteral("dedupIdEdit"));
    m_dedupId->setPlaceholderText(tr("empty: content-based deduplication"));
    m_channel = new QLineEdit(this);
    m_channel->setObjectName(QStringLiteral("channelEdit"));
    m_channel->setPlaceholderText(tr("default channel"));
    if (!oci && !fifo)
        form->addRow(tr("&Delay:"), m_delay);
    if (!oci)
        form->addRow(tr("Message &group id:"), m_groupId);
    if (fifo)
        form->addRow(tr("D&eduplication id:"), m_dedupId);
    if (oci)
        form->addRow(tr("&Channel:"), m_channel);
    m_delay->setVisible(!oci && !fifo);
    m_groupId->setVisible(!oci);
    m_dedupId->setVisible(fifo);
    m_channel->setVisible(oci);
    layout->addLayout(form);

    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("resultLabel"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_result);
    m_error = new ErrorLabel(this);
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(this);
    m_send = buttons->addButton(tr("&Send"), QDialogButtonBox::AcceptRole);
    m_send->setObjectName(QStringLiteral("sendButton"));
    m_send->setDefault(true);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    close->setObjectName(QStringLiteral("closeButton"));
    layout->addWidget(buttons);

    connect(formatButton, &QPushButton::clicked, this, &SendDialog::formatJson);
    connect(add, &QPushButton::clicked, this,
            [this] { addAttribute(QString(), QStringLiteral("String"), QString()); });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_attributes->currentRow();
        if (row >= 0)
            m_attributes->removeRow(row);
    });
    connect(m_send, &QPushButton::clicked, this, &SendDialog::send);
    connect(close, &QPushButton::clicked, this, &SendDialog::reject);
    resize(520, 520);
}

void SendDialog::prefill(const engine::MessageView& message)
{
    m_body->setBody(toQString(message.body));
    m_attributes->setRowCount(0);
    for (const auto& [name, value] : message.attributes)
        addAttribute(toQString(name), toQString(value.dataType),
                     value.isBinary() ? QString::fromLatin1(
                         QByteArray::fromStdString(value.binaryValue).toBase64())
                                      : toQString(value.stringValue));
    if (m_groupId)
        m_groupId->setText(toQString(message.groupId));
    if (m_channel)
        m_channel->setText(toQString(message.channelId));
}

void SendDialog::addAttribute(const QString& name, const QString& type, const QString& value)
{
    const int row = m_attributes->rowCount();
    m_attributes->insertRow(row);
    m_attributes->setItem(row, NameColumn, new QTableWidgetItem(name));
    auto* typeCombo = new QComboBox(m_attributes);
    typeCombo->setEditable(true); // custom types: "Number.int", "Binary.png"
    typeCombo->addItems(
        {QStringLiteral("String"), QStringLiteral("Number"), QStringLiteral("Binary")});
    typeCombo->setCurrentText(type);
    m_attributes->setCellWidget(row, TypeColumn, typeCombo);
    m_attributes->setItem(row, ValueColumn, new QTableWidgetItem(value));
    m_attributes->setCurrentCell(row, NameColumn);
}

engine::SendMessageRequest SendDialog::request() const
{
    engine::SendMessageRequest r;
    r.queue = toStdString(m_queue);
    r.body = toStdString(m_body->body());
    r.origin = windowOrigin();
    for (int row = 0; row < m_attributes->rowCount(); ++row) {
        const QTableWidgetItem* name = m_attributes->item(row, NameColumn);
        const QTableWidgetItem* value = m_attributes->item(row, ValueColumn);
        const auto* type = qobject_cast<QComboBox*>(m_attributes->cellWidget(row, TypeColumn));
        if (!name || name->text().trimmed().isEmpty())
            continue;
        engine::MessageAttributeValue attribute;
        attribute.dataType = toStdString(type ? type->currentText().trimmed() : QString());
        const QString text = value ? value->text() : QString();
        if (attribute.dataType.starts_with("Binary"))
            attribute.binaryValue = QByteArray::fromBase64(text.toLatin1()).toStdString();
        else
            attribute.stringValue = toStdString(text);
        r.attributes[toStdString(name->text().trimmed())] = std::move(attribute);
    }
    if (m_kind == engine::QueueKind::Standard && m_delay->value() > 0)
        r.delaySeconds = m_delay->value();
    if (m_kind != engine::QueueKind::Oci && !m_groupId->text().isEmpty())
        r.groupId = toStdString(m_groupId->text());
    if (m_kind == engine::QueueKind::Fifo && !m_dedupId->text().isEmpty())
        r.deduplicationId = toStdString(m_dedupId->text());
    if (m_kind == engine::QueueKind::Oci && !m_channel->text().isEmpty())
        r.channelId = toStdString(m_channel->text());
    return r;
}

void SendDialog::send()
{
    m_error->clearError();
    auto result = m_session.broker().sendMessage(request());
    if (!result) {
        m_result->clear();
        m_error->showError(describeError(result.error()));
        return;
    }
    const QString id = toQString(result->messageId);
    if (result->deduplicated) {
        m_result->setText(tr("Duplicate within the 5-minute deduplication window: acknowledged "
                             "with the original id %1, not enqueued.")
                              .arg(id));
    } else {
        m_result->setText(tr("Sent %1 at %2.").arg(id, formatEngineTime(result->sentAt)));
    }
    Q_EMIT sent(id);
}

void SendDialog::formatJson()
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(m_body->body().toUtf8(), &error);
    if (error.error != QJsonParseError::NoError) {
        m_error->showError(
            tr("Not JSON: %1 at offset %2.").arg(error.errorString()).arg(error.offset));
        return;
    }
    m_error->clearError();
    m_body->setBody(QString::fromUtf8(document.toJson(QJsonDocument::Indented)));
}

QString SendDialog::errorText() const
{
    return m_error->errorText();
}

QString SendDialog::resultText() const
{
    return m_result->text();
}

} // namespace inflight::ui
