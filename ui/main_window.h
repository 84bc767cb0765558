#pragma once

#include <QMainWindow>

class QLabel;

namespace inflight::engine {
class Clock;
}

namespace inflight::ui {

// The workbench's main window. For now a placeholder that shows the engine is linked and its
// clock running; queues, messages and charts come with the session layer.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `clock` must outlive the window.
    explicit MainWindow(const engine::Clock& clock, QWidget* parent = nullptr);

private:
    void refreshStatus();

    const engine::Clock& m_clock;
    QLabel* m_status = nullptr;
};

} // namespace inflight::ui
