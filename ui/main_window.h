#pragma once

#include <QMainWindow>

class QLabel;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// The workbench's main window. For now a placeholder that shows the engine is linked and its
// clock running; queues, messages and charts come with the session layer.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `session` must outlive the window.
    explicit MainWindow(session::Session& session, QWidget* parent = nullptr);

private:
    void refreshStatus();

    session::Session& m_session;
    QLabel* m_status = nullptr;
};

} // namespace inflight::ui
