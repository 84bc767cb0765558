#pragma once

#include "ui/dialogs/actor_dialog.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class ActorTableModel;
class NoticeBar;

// The Simulation tab: one row per simulated actor with its state and live figures (refreshed on
// Session::actorsChanged), and the buttons to start, stop, pause and resume the selected actor
// and to add, edit and remove actors (ActorDialog, its refusals inline). Engine refusals of the
// other buttons are shown in its notice bar (simulationNotice). objectName simulationView.
class SimulationView : public QWidget {
    Q_OBJECT
public:
    explicit SimulationView(session::Session& session, QWidget* parent = nullptr);

    ActorTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    NoticeBar* notice() const { return m_notice; }
    // The add or edit dialog while it is open.
    ActorDialog* actorDialog() const { return m_dialog; }
    // Selects the actor of that name; false if there is none.
    bool selectActor(const QString& name);

    void addActor();
    void editActor();
    void removeActor();

private:
    void control(int which);
    void openDialog(bool edit);
    void updateButtons();
    void updateSummary();
    quint64 selectedId() const;

    session::Session& m_session;
    ActorTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    NoticeBar* m_notice = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_pause = nullptr;
    QPushButton* m_resume = nullptr;
    QPushButton* m_edit = nullptr;
    QPushButton* m_remove = nullptr;
    QPointer<ActorDialog> m_dialog;
};

} // namespace inflight::ui
