#include "ui/widgets/clients_view.h"

#include "ui/models/client_directory.h"
#include "ui/models/client_table_model.h"

#include <QColorDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPixmap>
#include <QTableView>
#include <QVBoxLayout>

namespace inflight::ui {

ClientsView::ClientsView(const traffic::TrafficLog& log, ClientDirectory& directory,
                         const ReceiptHolders& holders, QWidget* parent)
    : QWidget(parent), m_directory(directory)
{
    setObjectName(QStringLiteral("clientsPage"));
    m_model = new ClientTableModel(log, directory, holders, this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_hint = new QLabel(tr("No client has called the endpoint yet. Point an SDK at it: its "
                           "requests appear in the Traffic tab, and it appears here."),
                        this);
    m_hint->setObjectName(QStringLiteral("clientsHintLabel"));
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("clientsView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    const QFontMetrics metrics = m_view->fontMetrics();
    m_view->setColumnWidth(ClientTableModel::NameColumn,
                           metrics.horizontalAdvance(QStringLiteral("AKIAEXAMPLE aws-cli")) + 36);
    m_view->setColumnWidth(ClientTableModel::SdkColumn,
                           metrics.horizontalAdvance(QStringLiteral("aws-cli/2.13.25")) + 16);
    m_view->setColumnWidth(ClientTableModel::AccessKeyColumn,
                           metrics.horizontalAdvance(QStringLiteral("AKIAEXAMPLE1")) + 16);
    m_view->setColumnWidth(ClientTableModel::AddressColumn,
                           metrics.horizontalAdvance(QStringLiteral("127.0.0.1:65535")) + 16);
    for (int column :
         {int(ClientTableModel::FirstSeenColumn), int(ClientTableModel::LastSeenColumn)})
        m_view->setColumnWidth(column, metrics.horizontalAdvance(QStringLiteral("00:00:00")) + 16);
    for (int column = ClientTableModel::RequestsColumn; column < ClientTableModel::ColumnCount;
         ++column)
        m_view->setColumnWidth(column, metrics.horizontalAdvance(QStringLiteral("Requests")) + 12);
    layout->addWidget(m_view, 1);
    const auto updateHint = [this] { m_hint->setVisible(m_model->rowCount() == 0); };
    connect(m_model, &QAbstractItemModel::modelReset, this, updateHint);
    updateHint();
    connect(m_view, &QWidget::customContextMenuRequested, this, &ClientsView::contextMenu);
}

void ClientsView::contextMenu(const QPoint& at)
{
    const QModelIndex index = m_view->indexAt(at);
    if (!index.isValid())
        return;
    const QString key = m_model->clientKey(index.row());
    QMenu menu(this);
    menu.addAction(tr("Rename…"), this, [this, index] {
        m_view->edit(m_model->index(index.row(), ClientTableModel::NameColumn));
    });
    QMenu* colours = menu.addMenu(tr("Colour"));
    const QList<QColor> palette = ClientDirectory::palette();
    const QStringList names = ClientDirectory::paletteNames();
    for (qsizetype i = 0; i < palette.size(); ++i) {
        const QColor colour = palette[i];
        QPixmap swatch(14, 14);
        swatch.fill(colour);
        colours->addAction(QIcon(swatch), names.value(i, colour.name()), this,
                           [this, key, colour] { m_directory.setColour(key, colour); });
    }
    colours->addAction(tr("Other…"), this, [this, key] {
        const QColor chosen = QColorDialog::getColor(m_directory.colour(key), this);
        if (chosen.isValid())
            m_directory.setColour(key, chosen);
    });
    colours->addAction(tr("None"), this, [this, key] { m_directory.setColour(key, QColor()); });
    menu.addSeparator();
    menu.addAction(tr("Show its requests"), this, [this, key] { Q_EMIT showRequestsOf(key); });
    menu.exec(m_view->viewport()->mapToGlobal(at));
}

} // namespace inflight::ui
