#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace inflight::traffic {
class TrafficLog;
}

namespace inflight::ui {

class ClientDirectory;
class ClientTableModel;
class ReceiptHolders;

// The Clients panel: the endpoint's clients (ClientTableModel), each nameable (double-click) and
// colourable (right-click), the colour marking its receipts, timeline rows, events and requests
// everywhere in the window. "Show requests" filters the traffic log to one client. Widgets:
// clientsView, clientsHintLabel.
class ClientsView : public QWidget {
    Q_OBJECT
public:
    ClientsView(const traffic::TrafficLog& log, ClientDirectory& directory,
                const ReceiptHolders& holders, QWidget* parent = nullptr);

    ClientTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

Q_SIGNALS:
    void showRequestsOf(const QString& clientKey);

private:
    void contextMenu(const QPoint& at);

    ClientDirectory& m_directory;
    ClientTableModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_hint = nullptr;
};

} // namespace inflight::ui
