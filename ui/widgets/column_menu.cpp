#include "ui/widgets/column_menu.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QMenu>

namespace inflight::ui {

void addColumnMenu(QHeaderView* header)
{
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(header, &QWidget::customContextMenuRequested, header, [header](QPoint at) {
        const QAbstractItemModel* model = header->model();
        if (!model)
            return;
        QMenu menu(header);
        menu.setObjectName(QStringLiteral("columnMenu"));
        const int shown = header->count() - header->hiddenSectionCount();
        for (int visual = 0; visual < header->count(); ++visual) {
            const int column = header->logicalIndex(visual);
            QAction* action = menu.addAction(
                model->headerData(column, header->orientation(), Qt::DisplayRole).toString());
            action->setCheckable(true);
            action->setChecked(!header->isSectionHidden(column));
            action->setEnabled(header->isSectionHidden(column) || shown > 1);
            QObject::connect(action, &QAction::toggled, header,
                             [header, column](bool on) { header->setSectionHidden(column, !on); });
        }
        menu.exec(header->mapToGlobal(at));
    });
}

} // namespace inflight::ui
