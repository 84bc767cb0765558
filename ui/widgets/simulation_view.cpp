#include "ui/widgets/simulation_view.h"

#include "session/session.h"
#include "ui/dialogs/actor_dialog.h"
#include "ui/models/actor_table_model.h"
#include "ui/widgets/notice_bar.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

QString errorText(const engine::Error& error)
{
    return QString::fromStdString(engine::describe(error));
}

} // namespace

SimulationView::SimulationView(session::Session& session, QWidget* parent)
    : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("simulationView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // A toolbar: a narrow window folds the last buttons into its ">>" menu.
    auto* buttons = new QToolBar(this);
    buttons->setObjectName(QStringLiteral("simulationToolBar"));
    const auto button
        = [this, buttons](const QString& name, const QString& text, const QString& tip) {
              auto* b = new QPushButton(text, this);
              b->setObjectName(name);
              b->setToolTip(tip);
              b->setAutoDefault(false);
              buttons->addWidget(b);
              return b;
          };
    m_start = button(QStringLiteral("startActorButton"), tr("Start"),
                     tr("Start the selected actor (a stopped or finished one begins again)"));
    m_stop = button(QStringLiteral("stopActorButton"), tr("Stop"),
                    tr("Stop it: what it holds comes back when its visibility timeout ends"));
    m_pause = button(QStringLiteral("pauseActorButton"), tr("Pause"),
                     tr("Pause it: it keeps what it holds, its deadlines wait"));
    m_resume = button(QStringLiteral("resumeActorButton"), tr("Resume"), tr("Resume it"));
    buttons->addSeparator();
    QPushButton* add
        = button(QStringLiteral("addActorButton"), tr("Add…"), tr("Add a producer or consumer"));
    m_edit
        = button(QStringLiteral("editActorButton"), tr("Edit…"), tr("Change the selected actor"));
    m_remove = button(QStringLiteral("removeActorButton"), tr("Remove"),
                      tr("Stop and remove the selected actor"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("simulationSummary"));
    // However long the summary, it never sets the window's width (at 1280×800 it is cut).
    m_summary->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_summary->setMinimumWidth(0);
    m_summary->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    buttons->addWidget(m_summary);
    layout->addWidget(buttons);

    m_notice = new NoticeBar(this);
    m_notice->setObjectName(QStringLiteral("simulationNotice"));
    layout->addWidget(m_notice);

    m_model = new ActorTableModel(session, this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("actorTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    layout->addWidget(m_table, 1);

    connect(m_start, &QPushButton::clicked, this, [this] { control(0); });
    connect(m_stop, &QPushButton::clicked, this, [this] { control(1); });
    connect(m_pause, &QPushButton::clicked, this, [this] { control(2); });
    connect(m_resume, &QPushButton::clicked, this, [this] { control(3); });
    connect(add, &QPushButton::clicked, this, &SimulationView::addActor);
    connect(m_edit, &QPushButton::clicked, this, &SimulationView::editActor);
    connect(m_remove, &QPushButton::clicked, this, &SimulationView::removeActor);
    connect(m_table, &QTableView::doubleClicked, this, &SimulationView::editActor);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SimulationView::updateButtons);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &SimulationView::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SimulationView::updateButtons);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &SimulationView::updateSummary);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SimulationView::updateSummary);
    updateButtons();
    updateSummary();
}

bool SimulationView::selectActor(const QString& name)
{
    const int row = m_model->rowOf(name);
    if (row < 0)
        return false;
    m_table->selectRow(row);
    return true;
}

quint64 SimulationView::selectedId() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return 0;
    if (const sim::ActorInfo* actor = m_model->actorAt(rows.front().row()))
        return actor->id;
    return 0;
}

void SimulationView::updateButtons()
{
    const sim::ActorInfo* actor = nullptr;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (!rows.isEmpty())
        actor = m_model->actorAt(rows.front().row());
    const sim::ActorState state = actor ? actor->state : sim::ActorState::Stopped;
    m_start->setEnabled(
        actor && (state == sim::ActorState::Stopped || state == sim::ActorState::Finished));
    m_stop->setEnabled(actor && state != sim::ActorState::Stopped);
    m_pause->setEnabled(actor && state == sim::ActorState::Running);
    m_resume->setEnabled(actor && state == sim::ActorState::Paused);
    m_edit->setEnabled(actor != nullptr);
    m_remove->setEnabled(actor != nullptr);
}

void SimulationView::updateSummary()
{
    int running = 0;
    for (int row = 0; row < m_model->rowCount(); ++row)
        running += m_model->actorAt(row)->state == sim::ActorState::Running;
    m_summary->setText(m_model->rowCount() == 0
                           ? tr("No actors: add one, or open a scenario or lesson")
                           : tr("%1 actors, %2 running").arg(m_model->rowCount()).arg(running));
    m_summary->setToolTip(m_summary->text());
}

void SimulationView::control(int which)
{
    const quint64 id = selectedId();
    if (id == 0)
        return;
    engine::Status status = engine::Done{};
    switch (which) {
    case 0: status = m_session.startActor(id); break;
    case 1: status = m_session.stopActor(id); break;
    case 2: status = m_session.pauseActor(id); break;
    default: status = m_session.resumeActor(id); break;
    }
    if (!status)
        m_notice->showError(errorText(status.error()));
    else
        m_notice->clear();
    m_model->refresh();
    updateButtons();
}

void SimulationView::addActor()
{
    openDialog(false);
}

void SimulationView::editActor()
{
    if (selectedId() != 0)
        openDialog(true);
}

void SimulationView::openDialog(bool edit)
{
    if (m_dialog)
        m_dialog->close();
    QStringList queues;
    for (const engine::QueueView& queue : m_session.broker().queues())
        queues << QString::fromStdString(queue.name);
    std::optional<sim::ActorSpec> spec;
    const quint64 id = edit ? selectedId() : 0;
    if (edit) {
        const auto actor
            = m_session.simulation() ? m_session.simulation()->actor(id) : std::nullopt;
        if (!actor)
            return;
        spec = actor->spec;
    }
    auto* dialog = new ActorDialog(queues, spec, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    connect(dialog, &ActorDialog::submitted, this, [this, dialog, id] {
        const sim::ActorSpec wanted = dialog->spec();
        if (id != 0) {
            if (const engine::Status status = m_session.editActor(id, wanted); !status) {
                dialog->showError(errorText(status.error()));
                return;
            }
        } else if (const auto added = m_session.addActor(wanted); !added) {
            dialog->showError(errorText(added.error()));
            return;
        }
        dialog->accept();
        m_model->refresh();
        selectActor(QString::fromStdString(sim::actorName(wanted)));
    });
    dialog->open();
}

void SimulationView::removeActor()
{
    const quint64 id = selectedId();
    if (id == 0)
        return;
    if (const engine::Status status = m_session.removeActor(id); !status)
        m_notice->showError(errorText(status.error()));
    m_model->refresh();
    updateButtons();
}

} // namespace inflight::ui
