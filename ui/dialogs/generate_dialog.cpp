#include "ui/dialogs/generate_dialog.h"

#include "session/session.h"
#include "ui/dialogs/error_label.h"
#include "ui/widgets/engine_text.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace inflight::ui {

GenerateDialog::GenerateDialog(session::Session& session, const QString& queue, QWidget* parent)
    : QDialog(parent), m_session(session), m_queue(queue)
{
    setObjectName(QStringLiteral("generateDialog"));
    setWindowTitle(tr("Send generated messages to %1").arg(queue));
    if (auto view = m_session.broker().queueView(toStdString(queue)))
        m_kind = view->kind;

    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_count = new QSpinBox(this);
    m_count->setObjectName(QStringLiteral("countSpin"));
    m_count->setRange(1, 100000);
    m_count->setValue(50);
    m_count->setGroupSeparatorShown(true);
    m_template = new QLineEdit(this);
    m_template->setObjectName(QStringLiteral("templateEdit"));
    m_template->setText(QStringLiteral("{\"n\": {n}, \"generated\": \"{time}\"}"));
    m_template->setToolTip(tr("{n} becomes the message's number, {time} the engine time"));
    m_groups = new QSpinBox(this);
    m_groups->setObjectName(QStringLiteral("groupCountSpin"));
    m_groups->setRange(1, 10000);
    m_groups->setValue(5);
    m_channels = new QLineEdit(this);
    m_channels->setObjectName(QStringLiteral("channelsEdit"));
    m_channels->setText(QStringLiteral("eu, us"));
    m_delay = new QSpinBox(this);
    m_delay->setObjectName(QStringLiteral("delaySpin"));
    m_delay->setRange(0, 900);
    m_delay->setSuffix(tr(" s"));
    m_delay->setSpecialValueText(tr("queue default"));
    form->addRow(tr("&Messages:"), m_count);
    form->addRow(tr("Body &template:"), m_template);
    if (m_kind == engine::QueueKind::Fifo)
        form->addRow(tr("Spread over &groups:"), m_groups);
    if (m_kind == engine::QueueKind::Oci)
        form->addRow(tr("&Channels:"), m_channels);
    if (m_kind == engine::QueueKind::Standard)
        form->addRow(tr("&Delay:"), m_delay);
    m_groups->setVisible(m_kind == engine::QueueKind::Fifo);
    m_channels->setVisible(m_kind == engine::QueueKind::Oci);
    m_delay->setVisible(m_kind == engine::QueueKind::Standard);
    layout->addLayout(form);
    m_error = new ErrorLabel(this);
    layout->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Send"));
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &GenerateDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &GenerateDialog::reject);
    layout->addWidget(buttons);
    setMinimumWidth(440);
}

void GenerateDialog::setCount(int count)
{
    m_count->setValue(count);
}

QString GenerateDialog::errorText() const
{
    return m_error->errorText();
}

void GenerateDialog::accept()
{
    m_error->clearError();
    engine::Broker& broker = m_session.broker();
    QStringList channels;
    for (const QString& channel : m_channels->text().split(QLatin1Char(',')))
        if (!channel.trimmed().isEmpty())
            channels << channel.trimmed();
    const QString run = QString::number(m_session.now());
    m_sent = 0;
    const int count = m_count->value();
    for (int n = 1; n <= count; ++n) {
        QString body = m_template->text();
        body.replace(QStringLiteral("{n}"), QString::number(n));
        body.replace(QStringLiteral("{time}"),
                     QDateTime::fromMSecsSinceEpoch(m_session.now()).toString(Qt::ISODateWithMs));
        engine::SendMessageRequest request{
            .queue = toStdString(m_queue), .body = toStdString(body), .origin = windowOrigin()};
        if (m_kind == engine::QueueKind::Standard && m_delay->value() > 0)
            request.delaySeconds = m_delay->value();
        if (m_kind == engine::QueueKind::Fifo) {
            request.groupId = "group-" + std::to_string(1 + (n - 1) % m_groups->value());
            request.deduplicationId = toStdString(run) + "-" + std::to_string(n);
        }
        if (m_kind == engine::QueueKind::Oci && !channels.isEmpty())
            request.channelId = toStdString(channels.at((n - 1) % channels.size()));
        auto result = broker.sendMessage(request);
        if (!result) {
            m_error->showError(tr("Sent %1 of %2, then: %3")
                                   .arg(m_sent)
                                   .arg(count)
                                   .arg(describeError(result.error())));
            return;
        }
        ++m_sent;
    }
    QDialog::accept();
}

} // namespace inflight::ui
