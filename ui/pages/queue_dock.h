#pragma once

#include <QDockWidget>
#include <QString>

class QSortFilterProxyModel;
class QTreeView;

namespace inflight::ui {

class NoticeBar;
class QueueSource;
class QueueTableModel;
struct WindowActions;

// The queue list (left dock): every queue of the source with its counts, sortable, the dead-letter
// relation on demand; the queue actions in its context menu and under it. Selecting a row is
// choosing the queue the pages show (queueSelected).
class QueueDock : public QDockWidget {
    Q_OBJECT
public:
    QueueDock(QueueSource& source, const WindowActions& actions, QWidget* parent = nullptr);

    QueueTableModel* model() const { return m_queues; }
    QTreeView* view() const { return m_view; }
    NoticeBar* notice() const { return m_notice; }
    // The selected queue; empty if none.
    QString selectedQueue() const;
    // Selects `queue` (and signals it). False if there is none.
    bool selectQueue(const QString& queue);
    // Selects the first queue in the list's order, or none when it is empty.
    void selectFirst();
    // The dock's width with every name shown (within a limit) and room for the longest
    // dead-letter relation: the first layout's.
    int fittingWidth() const;

    QByteArray saveHeader() const;
    void restoreHeader(const QByteArray& state);

Q_SIGNALS:
    // The selection moved to `queue` (empty: none); `kind` is its engine::QueueKind.
    void queueSelected(const QString& queue, int kind);
    // Queues came or went.
    void queuesChanged();
    // A queue's counts or relations changed.
    void queueDataChanged();

private:
    void onCurrentChanged();

    QueueTableModel* m_queues = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTreeView* m_view = nullptr;
    NoticeBar* m_notice = nullptr;
};

} // namespace inflight::ui
