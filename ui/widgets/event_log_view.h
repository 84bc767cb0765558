#pragma once

#include "engine/events.h"

#include <QWidget>

class QAbstractItemModel;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

class CheckListButton;
class EventLogModel;
class EventLogFilterModel;

// The event log tab: every lifecycle event of every queue, live, with its engine time and origin
// (window, a client address, engine), filtered by queue, by any set of kinds (a button with a
// checkable menu: All, None and one entry per kind) and by text; follows the newest event unless
// the user scrolls away. Widgets: eventQueueCombo, eventKindButton, eventTextEdit,
// eventFollowCheck, eventLogView, eventCountLabel.
class EventLogView : public QWidget {
    Q_OBJECT
public:
    EventLogView(session::Session& session, QWidget* parent = nullptr);

    EventLogModel* model() const { return m_model; }
    EventLogFilterModel* filterModel() const { return m_filter; }
    QTableView* view() const { return m_view; }

    // The queue names offered by the queue filter (kept in step with the queue list).
    void setQueueNames(const QStringList& names);
    void setQueueFilter(const QString& queue); // empty: all queues
    // Bit int(engine::EventKind) set: events of that kind are shown (EventLogFilterModel).
    void setKindMask(quint32 mask);
    quint32 kindMask() const;
    CheckListButton* kindButton() const { return m_kind; }

private:
    void updateCount();

    EventLogModel* m_model = nullptr;
    EventLogFilterModel* m_filter = nullptr;
    QComboBox* m_queue = nullptr;
    CheckListButton* m_kind = nullptr;
    QLineEdit* m_text = nullptr;
    QCheckBox* m_follow = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_count = nullptr;
};

} // namespace inflight::ui
