#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class GroupTableModel;

// The FIFO groups tab: each group of the selected FIFO queue (or channel of an OCI queue), its
// head, whether it is blocked and by which in-flight message, and how many wait behind it.
// Widgets: groupsNoteLabel, groupView.
class GroupsView : public QWidget {
    Q_OBJECT
public:
    GroupsView(session::Session& session, QWidget* parent = nullptr);

    // Shows the groups of `queue`; `kind` is int(engine::QueueKind) for the note above the table.
    void setQueue(const QString& queue, int kind);
    GroupTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

private:
    GroupTableModel* m_model = nullptr;
    QLabel* m_note = nullptr;
    QTableView* m_view = nullptr;
};

} // namespace inflight::ui
