#pragma once

class QAction;

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
};

} // namespace inflight::ui
