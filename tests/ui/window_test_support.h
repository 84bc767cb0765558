#pragma once

// Shared by the window tests: the model tests' paused Session at a fixed engine time, the real
// MainWindow on it, and short ways to find, fill and click its widgets by objectName with QTest.
#include "model_test_support.h"
#include "session/session.h"
#include "ui/main_window.h"
#include "ui/models/message_filter_model.h"
#include "ui/models/message_table_model.h"
#include "ui/widgets/notice_bar.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace inflight::ui::test {

// Settings go to a test location and start empty, so no test sees another's layout.
inline void isolateSettings()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("InflightTests"));
    QCoreApplication::setApplicationName(QStringLiteral("window-tests"));
    QSettings().clear();
}

// Delivers the session's batched events, queued signals and deferred deletes.
inline void flush()
{
    for (int i = 0; i < 4; ++i) {
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
}

// The model tests' paused session (kStart, createQueue, send, receive, stats, step) with the real
// window on it.
class WindowFixture : public SessionFixture {
public:
    // Create queues before open(): an empty broker makes the window load the default workspace.
    explicit WindowFixture(bool show = true) : m_show(show) {}

    ui::MainWindow& open()
    {
        window = std::make_unique<ui::MainWindow>(session);
        if (m_show) {
            window->show();
            if (!QTest::qWaitForWindowExposed(window.get()))
                QTest::qFail("window not exposed", __FILE__, __LINE__);
        }
        ui::test::flush();
        return *window;
    }

    std::vector<engine::MessageView> peek(const std::string& queue)
    {
        return broker().peekMessages(queue).value();
    }

    engine::MessageView peekId(const std::string& queue, const std::string& messageId)
    {
        for (const engine::MessageView& view : peek(queue))
            if (view.messageId == messageId)
                return view;
        QTest::qFail("message not in queue", __FILE__, __LINE__);
        return {};
    }

    std::unique_ptr<ui::MainWindow> window;

private:
    bool m_show = true;
};

// Finds a named child or fails the test.
template <class T>
T* child(QObject* parent, const QString& name)
{
    T* found = parent->findChild<T*>(name);
    if (!found)
        QTest::qFail(qPrintable(QStringLiteral("no child named ") + name), __FILE__, __LINE__);
    return found;
}

inline void click(QObject* parent, const QString& name)
{
    auto* button = child<QAbstractButton>(parent, name);
    if (!button)
        return;
    QVERIFY2(button->isEnabled(), qPrintable(name + QStringLiteral(" is disabled")));
    QTest::mouseClick(button, Qt::LeftButton);
    flush();
}

// A dialog the window opened (non-blocking: open() or show()), the newest of its type. A guarded
// pointer: dialogs opened with open() delete themselves when closed.
template <class T>
QPointer<T> openedDialog(QWidget* window)
{
    flush();
    const QList<T*> dialogs = window->findChildren<T*>();
    for (auto it = dialogs.rbegin(); it != dialogs.rend(); ++it)
        if ((*it)->isVisible())
            return *it;
    QTest::qFail("no dialog of that type is open", __FILE__, __LINE__);
    return nullptr;
}

// Answers the next modal confirmation (a QMessageBox or dialog run with exec()) with `button`
// ("yesButton" or "cancelButton"), after clicking the `choices` (radio buttons, check boxes) in
// it by name.
inline void answerConfirmation(const QString& button, const QStringList& choices = {})
{
    QTimer::singleShot(0, [button, choices] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal)
            return;
        for (const QString& choice : choices)
            if (auto* c = modal->findChild<QAbstractButton*>(choice))
                QTest::mouseClick(c, Qt::LeftButton, {}, QPoint(4, c->height() / 2));
        if (auto* b = modal->findChild<QAbstractButton*>(button))
            b->click();
    });
}

// Opens the menu of a button with a real click, clicks `entries` in it one after the other, then
// closes it with Escape. For menus that stay open while checking (CheckListButton); returns once
// the menu is closed.
inline void clickInMenu(QPushButton* button, const QList<QAction*>& entries)
{
    QTimer::singleShot(0, [button, entries] {
        QMenu* menu = button->menu();
        const auto closeOnFailure = qScopeGuard([menu] { menu->close(); });
        QTRY_VERIFY(menu->isVisible());
        for (QAction* entry : entries) {
            QVERIFY2(menu->isVisible(),
                     qPrintable(entry->text() + QStringLiteral(": menu closed")));
            QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(entry).center());
        }
        QTest::keyClick(menu, Qt::Key_Escape);
    });
    QTest::mouseClick(button, Qt::LeftButton); // the menu's event loop runs inside the press
    flush();
}

// The message ids shown in the message table, top to bottom (full ids).
inline QStringList shownMessageIds(const ui::MainWindow& window)
{
    QStringList ids;
    const QAbstractItemModel* model = window.messageView()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        ids << model->index(row, 0).data(ui::MessageTableModel::MessageIdRole).toString();
    return ids;
}

// The text shown in one cell of the message table for the message `id` (empty if not shown).
inline QString shownCell(const ui::MainWindow& window, const QString& id, int column,
                         int role = Qt::DisplayRole)
{
    const QAbstractItemModel* model = window.messageView()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, 0).data(ui::MessageTableModel::MessageIdRole).toString() == id)
            return model->index(row, column).data(role).toString();
    return {};
}

inline QString shownState(const ui::MainWindow& window, const std::string& id)
{
    return shownCell(window, QString::fromStdString(id), ui::MessageTableModel::StateColumn);
}

// The queue names shown in the queue list, top to bottom.
inline QStringList shownQueues(const ui::MainWindow& window)
{
    QStringList names;
    const QAbstractItemModel* model = window.queueView()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        names << model->index(row, 0).data().toString();
    return names;
}

// Clicks a message row in the table (selecting it), with `modifier` for multi-selection.
inline void clickMessage(ui::MainWindow& window, const std::string& id,
                         Qt::KeyboardModifiers modifier = Qt::NoModifier)
{
    QTableView* view = window.messageView();
    const QAbstractItemModel* model = view->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, ui::MessageTableModel::MessageIdColumn);
        if (index.data(ui::MessageTableModel::MessageIdRole).toString().toStdString() != id)
            continue;
        view->scrollTo(index);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, modifier,
                          view->visualRect(index).center());
        flush();
        return;
    }
    QTest::qFail("message not shown", __FILE__, __LINE__);
}

// Clicks a queue in the queue list.
inline void clickQueue(ui::MainWindow& window, const QString& name)
{
    QTreeView* view = window.queueView();
    const QAbstractItemModel* model = view->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, 0);
        if (index.data().toString() != name)
            continue;
        view->scrollTo(index);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier,
                          view->visualRect(index).center());
        flush();
        return;
    }
    QTest::qFail("queue not shown", __FILE__, __LINE__);
}

} // namespace inflight::ui::test
