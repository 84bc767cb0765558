#include "ui/widgets/endpoint_status.h"

#include "ui/widgets/endpoint_control.h"
#include "ui/widgets/palette_colors.h"

#include <QAction>
#include <QClipboard>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace inflight::ui {

EndpointStatus::EndpointStatus(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("endpointStatus"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("endpointLabel"));
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setContextMenuPolicy(Qt::NoContextMenu); // the widget's menu, not the label's
    layout->addWidget(m_label);

    m_copy = new QAction(tr("&Copy endpoint URL"), this);
    m_copy->setObjectName(QStringLiteral("copyEndpointAction"));
    m_copy->setToolTip(tr("Copy the endpoint's URL to the clipboard"));
    connect(m_copy, &QAction::triggered, this, &EndpointStatus::copyUrl);
    m_copyButton = new QToolButton(this);
    m_copyButton->setObjectName(QStringLiteral("endpointCopyButton"));
    m_copyButton->setDefaultAction(m_copy);
    m_copyButton->setAutoRaise(true);
    m_copyButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    layout->addWidget(m_copyButton);

    setContextMenuPolicy(Qt::ActionsContextMenu);
    addAction(m_copy);
    refresh();
}

void EndpointStatus::setEndpoint(EndpointControl* endpoint)
{
    if (m_endpoint)
        disconnect(m_endpoint, nullptr, this, nullptr);
    m_endpoint = endpoint;
    if (endpoint) {
        connect(endpoint, &EndpointControl::changed, this, &EndpointStatus::refresh);
        connect(endpoint, &QObject::destroyed, this, &EndpointStatus::refresh,
                Qt::QueuedConnection);
    }
    refresh();
}

QString EndpointStatus::text() const
{
    return m_label->text();
}

QString EndpointStatus::url() const
{
    if (!m_endpoint || !m_endpoint->isListening() || m_endpoint->address().isEmpty())
        return {};
    return QStringLiteral("http://") + m_endpoint->address();
}

void EndpointStatus::copyUrl() const
{
    const QString text = url();
    if (!text.isEmpty())
        QGuiApplication::clipboard()->setText(text);
}

void EndpointStatus::addMenuAction(QAction* action)
{
    addAction(action);
}

void EndpointStatus::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refresh();
}

void EndpointStatus::refresh()
{
    const QString address = url();
    QString tip;
    if (!address.isEmpty()) {
        m_label->setText(tr("SQS endpoint: %1").arg(address));
        tip = tr("SDKs and the AWS CLI reach Inflight here, for example:\n"
                 "aws --endpoint-url %1 sqs list-queues\n"
                 "Their traffic appears in the window with the client's address as its origin.")
                  .arg(address);
        m_warning = false;
    } else {
        const QString error = m_endpoint ? m_endpoint->errorString() : QString();
        m_label->setText(error.isEmpty() ? tr("Endpoint off")
                                         : tr("Endpoint failed: %1").arg(error));
        tip = tr("No SQS endpoint: SDKs and the AWS CLI cannot reach Inflight. Change it in "
                 "Endpoint settings.");
        m_warning = true;
    }
    m_copy->setEnabled(!address.isEmpty());
    m_copyButton->setVisible(!address.isEmpty());
    setToolTip(tip);
    m_label->setToolTip(tip);
    QPalette p = palette();
    if (m_warning)
        p.setColor(QPalette::WindowText, warningColor(p));
    m_label->setPalette(p);
}

} // namespace inflight::ui
