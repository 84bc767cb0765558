// The window's debugging half: the Traffic and Clients tabs over the endpoint's traffic log, and
// the links between a request, its client, its events and the messages it touched.
#include "ui/main_window.h"

#include "ui/models/client_directory.h"
#include "ui/models/event_log_model.h"
#include "ui/models/timeline_model.h"
#include "ui/models/traffic_table_model.h"
#include "ui/widgets/clients_view.h"
#include "ui/widgets/event_log_view.h"
#include "ui/widgets/message_inspector.h"
#include "ui/widgets/traffic_view.h"

#include <QAction>
#include <QTabWidget>
#include <QTableView>

namespace inflight::ui {

void MainWindow::setTrafficLog(traffic::TrafficLog& log)
{
    if (m_trafficView)
        return;
    m_trafficView
        = new TrafficView(log, m_session, *m_clientDirectory, *m_eventLog->model(), m_tabs);
    m_tabs->addTab(m_trafficView, tr("Traffic"));
    m_clientsView = new ClientsView(log, *m_clientDirectory, *m_receiptHolders, m_tabs);
    m_tabs->addTab(m_clientsView, tr("Clients"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_trafficView),
                          tr("Every request the endpoint handled, with what it sent and got"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_clientsView),
                          tr("The endpoint's clients, by access key and SDK"));
    connect(m_trafficView, &TrafficView::messageActivated, this, &MainWindow::showMessage);
    connect(m_clientsView, &ClientsView::showRequestsOf, this, [this](const QString& key) {
        m_trafficView->setClientFilter(key);
        m_tabs->setCurrentWidget(m_trafficView);
    });

    // A timeline row's request is one click away: double-click it, or its context menu.
    QTableView* timeline = inspector()->timelineView();
    const auto cursorAt = [this](const QModelIndex& index) -> std::uint64_t {
        if (!index.isValid())
            return 0;
        return m_trafficView->model()->requestOfEvent(
            index.data(TimelineModel::SequenceRole).toULongLong());
    };
    connect(timeline, &QTableView::doubleClicked, this, [this, cursorAt](const QModelIndex& index) {
        if (const std::uint64_t cursor = cursorAt(index))
            showRequest(cursor);
    });
    auto* showRequestAction = new QAction(tr("Show its request in the traffic log"), timeline);
    showRequestAction->setObjectName(QStringLiteral("showRequestAction"));
    connect(showRequestAction, &QAction::triggered, this, [this, timeline, cursorAt] {
        if (const std::uint64_t cursor = cursorAt(timeline->currentIndex()))
            showRequest(cursor);
    });
    timeline->setContextMenuPolicy(Qt::ActionsContextMenu);
    timeline->addAction(showRequestAction);
    timeline->setToolTip(tr("Double-click a row that came from a client to see its request"));
}

bool MainWindow::showRequest(std::uint64_t cursor)
{
    if (!m_trafficView || !m_trafficView->selectRequest(cursor))
        return false;
    m_tabs->setCurrentWidget(m_trafficView);
    return true;
}

void MainWindow::showMessage(const QString& queue, const QString& messageId)
{
    selectQueue(queue);
    m_tabs->setCurrentIndex(0);
    if (selectMessages({messageId}) == 0) // gone: its timeline is still there
        inspector()->setMessage(queue, {}, messageId);
}

} // namespace inflight::ui
