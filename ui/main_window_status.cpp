// The status bar: the endpoint (its address, copy, settings) and a receive's wait.

#include "ui/main_window.h"

#include "ui/dialogs/endpoint_dialog.h"
#include "ui/widgets/endpoint_control.h"
#include "ui/widgets/endpoint_status.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QStatusBar>

namespace inflight::ui {

void MainWindow::buildStatusBar()
{
    m_waitLabel = new QLabel(statusBar());
    m_waitLabel->setObjectName(QStringLiteral("waitStatusLabel"));
    m_waitProgress = new QProgressBar(statusBar());
    m_waitProgress->setObjectName(QStringLiteral("waitStatusProgress"));
    m_waitProgress->setRange(0, 0); // busy: the wait's end is in the receive dialog
    m_waitProgress->setMaximumWidth(120);
    m_waitProgress->setMaximumHeight(statusBar()->fontMetrics().height());
    statusBar()->addPermanentWidget(m_waitLabel);
    statusBar()->addPermanentWidget(m_waitProgress);
    m_waitLabel->hide();
    m_waitProgress->hide();
}

void MainWindow::setEndpoint(EndpointControl* endpoint)
{
    m_endpoint = endpoint;
    if (!m_endpointStatus) {
        m_endpointStatus = new EndpointStatus(statusBar());
        statusBar()->insertPermanentWidget(0, m_endpointStatus);
        QAction* settings = makeWindowAction(
            this, QStringLiteral("endpointSettingsAction"), tr("Endpoint &settings…"),
            tr("Change the SQS endpoint's host or port, or turn it off"), QKeySequence());
        connect(settings, &QAction::triggered, this, &MainWindow::endpointSettings);
        m_endpointMenu->addAction(
            m_endpointStatus->findChild<QAction*>(QStringLiteral("copyEndpointAction")));
        m_endpointMenu->addAction(settings);
        m_endpointStatus->addMenuAction(settings);
    }
    m_endpointStatus->setEndpoint(endpoint);
    m_endpointMenu->menuAction()->setVisible(endpoint != nullptr);
    m_endpointStatus->setVisible(endpoint != nullptr);
}

void MainWindow::endpointSettings()
{
    if (!m_endpoint)
        return;
    auto* dialog = new EndpointDialog(*m_endpoint, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::showWaiting(bool waiting, const QString& text)
{
    m_waitLabel->setText(text);
    m_waitLabel->setVisible(waiting);
    m_waitProgress->setVisible(waiting);
}

} // namespace inflight::ui
