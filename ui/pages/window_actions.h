#pragma once

#include <QKeySequence>
#include <QString>

class QAction;
class QWidget;

namespace inflight::ui {

// The window's actions on queues and messages, made once by the main window (its menus, toolbar
// and shortcuts) and shared with the pages that put them in their own context menus and buttons.
struct WindowActions {
    QAction* newQueue = nullptr;
    QAction* editQueue = nullptr;
    QAction* deleteQueue = nullptr;
    QAction* purgeQueue = nullptr;
    QAction* redrive = nullptr;
    QAction* send = nullptr;
    QAction* sendGenerated = nullptr;
    QAction* receive = nullptr;
    QAction* receiveOne = nullptr;
    QAction* extend = nullptr;
    QAction* changeVisibility = nullptr;
    QAction* release = nullptr;
    QAction* deleteMessage = nullptr;
    QAction* find = nullptr;
    QAction* quit = nullptr;
};

// The actions with their names (objectName: "newQueueAction", …), texts, tips and shortcuts,
// added to `window` (their shortcuts work wherever the focus is in it; Delete only in the
// message table). Their triggers are for the window to connect.
WindowActions makeWindowActions(QWidget* window);
// One action so made.
QAction* makeWindowAction(QWidget* window, const QString& objectName, const QString& text,
                          const QString& tip, const QKeySequence& shortcut);

} // namespace inflight::ui
