#pragma once

#include "engine/clock.h"

#include <QObject>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QSpinBox;
class QTimer;
class QToolBar;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// The engine-time controls: the time shown, pause, 1×/10×/60×/600×/3600× and steps of +1 s, +30 s
// and +5 min, all through the Session so that countdowns, delays, long polls, move tasks and charts
// follow; for demos, "Run N s" (Session::runFor: runs that long at the current speed, then
// pauses) and "Next event" (Session::runToNextEvent). Owns its actions (objectNames pauseAction,
// speed1Action, speed10Action, speed60Action, speed600Action, speed3600Action, step1sAction,
// step30sAction, step5minAction, runForAction, nextEventAction), the label engineTimeLabel and
// the spin box runForSeconds.
class TimeControls : public QObject {
    Q_OBJECT
public:
    TimeControls(session::Session& session, QWidget* parent);

    // Adds the label and actions to a toolbar, naming each action's button <action>Button.
    void populate(QToolBar* toolBar);
    void populate(QMenu* menu);

    QAction* pauseAction() const { return m_pause; }
    QAction* speedAction(int speed) const;
    // The speed button of `speed`; nullptr when no button has it (2.5×, 7×).
    QAction* presetFor(double speed) const;
    QAction* stepAction(engine::Millis delta) const;
    QLabel* clockLabel() const { return m_label; }
    // What the clock's label cannot say in its fixed width: "12 s left" of a Run, or engine
    // time's distance from the wall clock ("2:30 ahead") when it is not zero.
    QLabel* offsetLabel() const { return m_offset; }
    // "2:30 ahead", "1:00:05 behind"; empty within a second of the wall clock.
    static QString offsetText(engine::Millis engineMinusWall);
    QAction* runForAction() const { return m_runFor; }
    QAction* nextEventAction() const { return m_nextEvent; }
    // The N of "Run N s".
    QSpinBox* runForSeconds() const { return m_runForSeconds; }

    // Redraws the clock label (called by the window's presentation tick and on clock changes).
    void refresh();

private:
    QAction* makeAction(const QString& objectName, const QString& text, const QString& toolTip,
                        const QKeySequence& shortcut);
    void syncActions();

    session::Session& m_session;
    QLabel* m_label = nullptr;
    QLabel* m_offset = nullptr;
    QLabel* m_clockGroup = nullptr; // "Clock" before its steps
    QAction* m_pause = nullptr;
    QActionGroup* m_speeds = nullptr;
    QAction* m_speed1 = nullptr;
    QAction* m_speed10 = nullptr;
    QAction* m_speed60 = nullptr;
    QAction* m_speed600 = nullptr;
    QAction* m_speed3600 = nullptr;
    QAction* m_runFor = nullptr;
    QAction* m_nextEvent = nullptr;
    QSpinBox* m_runForSeconds = nullptr;
    QAction* m_step1s = nullptr;
    QAction* m_step30s = nullptr;
    QAction* m_step5min = nullptr;
    QTimer* m_tick = nullptr;
};

} // namespace inflight::ui
