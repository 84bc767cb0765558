#pragma once

#include <QWidget>

#include <string>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTimer;

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// The Lesson panel: the built-in lessons to open, and the lesson being played (Session::
// lessonRun()): its title, the steps with a tick on each one met, the current step's text, a
// "Do it" button when it has an action (Session::lessonDoIt), its check as it stands now (ticked
// when met), Next and Restart. The clock pauses at the steps' pauseWhenMet moments (the session
// does it). Emits openLessonRequested for the window to load the chosen lesson's scenario.
// objectName lessonView.
class LessonView : public QWidget {
    Q_OBJECT
public:
    explicit LessonView(session::Session& session, QWidget* parent = nullptr);

    // Reads the lesson's state again (on lessonChanged, and while it runs).
    void refresh();
    // A line under the steps (what the last "Do it" showed, or a refusal).
    void showNote(const QString& text, bool error = false);
    // Fills the chooser with the built-in lessons.
    void setLessons(const QStringList& titles, const QStringList& paths);
    // A step's text as shown: its file's lines joined into paragraphs that wrap to the dock.
    static QString displayText(const std::string& text);
    // The picker shows the lesson at `path` (the one opened, however it was opened).
    void setCurrentLesson(const QString& path);

    void doIt();
    void next();
    void restart();

Q_SIGNALS:
    void openLessonRequested(const QString& path);
    // A step's Do it received or peeked these messages of `queue`: the window selects them.
    void showMessagesRequested(const QString& queue, const QStringList& messageIds);

private:
    session::Session& m_session;
    QComboBox* m_chooser = nullptr;
    QLabel* m_title = nullptr;
    QListWidget* m_steps = nullptr;
    QLabel* m_counter = nullptr;
    QLabel* m_text = nullptr;
    QLabel* m_check = nullptr;
    QLabel* m_doText = nullptr; // what Do it does, wrapped (a button's label cannot wrap)
    QLabel* m_note = nullptr;
    QPushButton* m_doIt = nullptr;
    QPushButton* m_next = nullptr;
    QPushButton* m_restart = nullptr;
    QTimer* m_tick = nullptr;
};

} // namespace inflight::ui
