#include "ui/widgets/groups_view.h"

#include "engine/types.h"
#include "ui/models/group_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace inflight::ui {

GroupsView::GroupsView(session::Session& session, QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("groupsView"));
    m_model = new GroupTableModel(session, this);
    m_model->startTicking(2);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(Qt::UserRole);

    auto* layout = new QVBoxLayout(this);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("groupsNoteLabel"));
    m_note->setWordWrap(true);
    layout->addWidget(m_note);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("groupView"));
    m_view->setModel(proxy);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    QHeaderView* header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(GroupTableModel::StateColumn, QHeaderView::Stretch);
    layout->addWidget(m_view, 1);
    setQueue(QString(), 0);
}

void GroupsView::setQueue(const QString& queue, int kind)
{
    const auto k = engine::QueueKind(kind);
    if (queue.isEmpty())
        m_note->setText(tr("Select a FIFO queue to see its message groups."));
    else if (k == engine::QueueKind::Fifo)
        m_note->setText(tr("Message groups of %1. A group whose head is in flight (or delayed) is "
                           "blocked: nothing of it is delivered until that message is deleted or "
                           "visible again.")
                            .arg(queue));
    else if (k == engine::QueueKind::Oci)
        m_note->setText(tr("Channels of %1 (an OCI queue): receives without a channel filter "
                           "take turns over them.")
                            .arg(queue));
    else
        m_note->setText(tr("%1 is a standard queue: it has no message groups. Select a FIFO "
                           "queue.")
                            .arg(queue));
    m_model->setQueue(k == engine::QueueKind::Standard ? QString() : queue);
}

} // namespace inflight::ui
