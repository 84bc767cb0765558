#include "ui/pages/window_actions.h"

#include <QAction>
#include <QWidget>

namespace inflight::ui {

QAction* makeWindowAction(QWidget* window, const QString& objectName, const QString& text,
                          const QString& tip, const QKeySequence& shortcut)
{
    auto* action = new QAction(text, window);
    action->setObjectName(objectName);
    action->setShortcut(shortcut);
    action->setStatusTip(tip);
    action->setToolTip(shortcut.isEmpty() ? tip
                                          : QStringLiteral("%1 (%2)").arg(
                                              tip, shortcut.toString(QKeySequence::NativeText)));
    window->addAction(action); // shortcuts work wherever the focus is in the window
    return action;
}

WindowActions makeWindowActions(QWidget* window)
{
    WindowActions a;

    // Ctrl+N is the File menu's New Workspace; a queue is Ctrl+Shift+N.
    a.newQueue
        = makeWindowAction(window, QStringLiteral("newQueueAction"), QObject::tr("&New queue…"),
                           QObject::tr("Create a queue with any attributes"),
                           QKeySequence(QObject::tr("Ctrl+Shift+N")));
    a.editQueue = makeWindowAction(
        window, QStringLiteral("editQueueAction"), QObject::tr("&Edit attributes…"),
        QObject::tr("Change the selected queue's attributes"), QKeySequence(QObject::tr("Ctrl+E")));
    a.deleteQueue = makeWindowAction(window, QStringLiteral("deleteQueueAction"),
                                     QObject::tr("&Delete queue…"),
                                     QObject::tr("Delete the selected queue and its messages"),
                                     QKeySequence(QObject::tr("Ctrl+Shift+Del")));
    a.purgeQueue
        = makeWindowAction(window, QStringLiteral("purgeQueueAction"), QObject::tr("&Purge…"),
                           QObject::tr("Remove every message of the selected queue (OCI: or of its "
                                       "dead-letter queue, or both)"),
                           QKeySequence(QObject::tr("Ctrl+Shift+P")));
    a.redrive = makeWindowAction(
        window, QStringLiteral("redriveAction"), QObject::tr("Re&drive…"),
        QObject::tr("Move the messages of a dead-letter queue back, at a chosen rate"),
        QKeySequence(QObject::tr("Ctrl+Shift+D")));
    a.send = makeWindowAction(window, QStringLiteral("sendAction"), QObject::tr("&Send…"),
                              QObject::tr("Send a message to the selected queue"),
                              QKeySequence(QObject::tr("Ctrl+M")));
    a.sendGenerated = makeWindowAction(window, QStringLiteral("sendGeneratedAction"),
                                       QObject::tr("Send &generated…"),
                                       QObject::tr("Send N generated messages for quick load"),
                                       QKeySequence(QObject::tr("Ctrl+Shift+M")));
    a.receive = makeWindowAction(window, QStringLiteral("receiveAction"), QObject::tr("&Receive…"),
                                 QObject::tr("A real receive: counts toward maxReceiveCount"),
                                 QKeySequence(QObject::tr("Ctrl+R")));
    a.receiveOne = makeWindowAction(
        window, QStringLiteral("receiveOneAction"), QObject::tr("Receive &1"),
        QObject::tr("Receive one message now, with the queue's visibility timeout "
                    "(a real receive: counts toward maxReceiveCount)"),
        QKeySequence(QObject::tr("Ctrl+Alt+R")));
    a.extend
        = makeWindowAction(window, QStringLiteral("extendAction"), QObject::tr("E&xtend +30 s"),
                           QObject::tr("Give the selected in-flight messages 30 more seconds"),
                           QKeySequence(QObject::tr("Ctrl+Shift+E")));
    a.changeVisibility = makeWindowAction(
        window, QStringLiteral("changeVisibilityAction"), QObject::tr("Change &visibility…"),
        QObject::tr("Extend by any value or set an exact visibility timeout"),
        QKeySequence(QObject::tr("Ctrl+Shift+V")));
    a.release = makeWindowAction(
        window, QStringLiteral("releaseAction"), QObject::tr("Re&lease"),
        QObject::tr("Make the selected in-flight messages visible now (visibility 0)"),
        QKeySequence(QObject::tr("Ctrl+Shift+R")));
    a.deleteMessage = makeWindowAction(
        window, QStringLiteral("deleteMessageAction"), QObject::tr("De&lete message"),
        QObject::tr("Delete the selected in-flight messages with their receipts"),
        QKeySequence(QKeySequence::Delete));
    a.deleteMessage->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    window->removeAction(a.deleteMessage); // Delete acts on the message table only (MessagesPage)
    a.quit = makeWindowAction(window, QStringLiteral("quitAction"), QObject::tr("&Quit"),
                              QObject::tr("Close the workbench"), QKeySequence(QKeySequence::Quit));
    // Short labels for the toolbar; menus keep the full text.
    a.newQueue->setIconText(QObject::tr("New queue"));
    a.send->setIconText(QObject::tr("Send"));
    a.sendGenerated->setIconText(QObject::tr("Send N"));
    a.receive->setIconText(QObject::tr("Receive"));
    a.receiveOne->setIconText(QObject::tr("Receive 1"));
    a.extend->setIconText(QObject::tr("Extend +30 s"));
    a.changeVisibility->setIconText(QObject::tr("Visibility"));
    a.release->setIconText(QObject::tr("Release"));
    a.deleteMessage->setIconText(QObject::tr("Delete"));
    a.purgeQueue->setIconText(QObject::tr("Purge"));
    a.redrive->setIconText(QObject::tr("Redrive"));
    a.find = new QAction(QObject::tr("&Filter messages"), window);
    a.find->setObjectName(QStringLiteral("findAction"));
    a.find->setShortcut(QKeySequence::Find);
    window->addAction(a.find);
    return a;
}

} // namespace inflight::ui
