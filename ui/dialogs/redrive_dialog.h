#pragma once

#include "engine/events.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTreeWidget;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class ErrorLabel;

// DLQ redrive: starts a message move task from a dead-letter queue back to where each message
// came from or to a chosen queue, at a chosen rate (engine time), shows the progress of its tasks
// (ListMessageMoveTasks, refreshed on each MoveTaskProgress event) and cancels the running one.
// Not modal: the move runs while the window is used. Widgets: originRadio, queueRadio,
// destinationCombo, rateCheck, rateSpin, startButton, cancelTaskButton, moveProgress,
// progressLabel, tasksTree, errorLabel, closeButton.
class RedriveDialog : public QDialog {
    Q_OBJECT
public:
    RedriveDialog(session::Session& session, const QString& deadLetterQueue,
                  QWidget* parent = nullptr);

    QString sourceQueue() const { return m_source; }
    void setDestination(const QString& queue); // empty: back to the origin
    void setRate(int messagesPerSecond);       // 0: the service's default
    void startTask();
    void cancelTask();
    // Re-reads the tasks of the source queue (also done on every move-task event).
    void refresh();

    QString errorText() const;
    QString progressText() const;
    bool hasRunningTask() const { return !m_runningHandle.empty(); }

Q_SIGNALS:
    void notice(const QString& text);

private:
    void onEvents(const std::vector<engine::Event>& events);

    session::Session& m_session;
    QString m_source;
    std::string m_runningHandle;
    QRadioButton* m_origin = nullptr;
    QRadioButton* m_toQueue = nullptr;
    QComboBox* m_destination = nullptr;
    QCheckBox* m_limitRate = nullptr;
    QSpinBox* m_rate = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QTreeWidget* m_tasks = nullptr;
    ErrorLabel* m_error = nullptr;
};

} // namespace inflight::ui
