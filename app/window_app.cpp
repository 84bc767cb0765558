#include "window_app.h"

#include "oci_queue_option.h"
#include "run_setup.h"
#include "ui/dialogs/endpoint_dialog.h"
#include "ui/main_window.h"
#include "ui/models/client_directory.h"
#include "ui/workspace/workspace_controller.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>

namespace inflight::app {

WindowApp::WindowApp(WindowOptions options, QObject* parent)
    : QObject(parent),
      m_options(std::move(options)),
      m_host(sessionSettings(m_options.run)),
      m_access(m_host)
{
    // The old session goes: nothing may hold it (the window, the control API, the endpoint's
    // long polls). The new one: the endpoint and a new window on it.
    connect(&m_host, &workspace::WorkspaceHost::sessionChanging, this, [this] {
        if (m_window) {
            m_window->close(); // saves its layout for the next one
            m_window.reset();
        }
        if (m_server) {
            m_server->setControlApi(nullptr);
            m_server->endWaits();
        }
        if (m_control)
            m_nextCursor = m_control->journal().newest() + 1; // the next one goes on from here
        m_control.reset();                                    // answers its waiting clients
    });
    connect(&m_host, &workspace::WorkspaceHost::sessionChanged, this, [this] {
        if (m_server)
            startServices(true);
    });
}

WindowApp::~WindowApp()
{
    m_window.reset();
}

Status WindowApp::start()
{
    if (auto opened = m_host.open(m_options.workspacePath); !opened) {
        QMessageBox::warning(nullptr, QStringLiteral("Inflight"),
                             QString::fromStdString(opened.error().message)
                                 + QStringLiteral("\n\nInflight starts without a workspace "
                                                  "(nothing is kept)."));
        if (auto memory = m_host.open(QString()); !memory)
            return QString::fromStdString(memory.error().message);
    }
    // --sync: the first workspace's setting (a workspace switched to later keeps its own).
    if (m_options.run.sync && !m_host.path().isEmpty())
        if (auto set = m_host.setSyncMode(*m_options.run.sync); !set)
            return QString::fromStdString(set.error().message);
    session::Session& session = m_host.session();
    if (auto created = createOciQueues(session, m_options.ociQueues); !created)
        return created.error();
    if (const QString failed = applyRunOptions(session, m_options.run); !failed.isEmpty())
        return failed;
    auto traffic = trafficLog(m_options.run);
    if (!traffic)
        return traffic.error();
    m_traffic = std::move(*traffic);
    // The window's thread stays free of socket work (see SocketThreading).
    m_server = std::make_unique<server::HttpServer>(session, server::SocketThreading::OwnThread);
    const RunOptions& run = m_options.run;
    m_server->setLimits(m_options.endpoint.limits);
    m_server->setAccessPolicy(m_options.endpoint.access);
    m_server->setAdvertisedUrl(run.advertisedUrl);
    startServices(false);
    m_endpoint = std::make_unique<EndpointAdapter>(*m_server);
    // --credentials wins over the file last chosen in Endpoint settings, as --listen does.
    if (!m_options.endpoint.credentialsFile.isEmpty()) {
        m_endpoint->setCredentialsFileShown(m_options.endpoint.credentialsFile);
    } else if (const QString remembered = ui::EndpointSettings::load().credentialsFile;
               !remembered.isEmpty()) {
        if (const QString failed = m_endpoint->checkSignaturesWith(remembered); !failed.isEmpty())
            std::fprintf(stderr, "inflight: the endpoint accepts any signature: %s\n",
                         qPrintable(failed));
    }
    // --listen wins over what the user last chose in Endpoint settings (on 127.0.0.1:9324 by
    // default). A taken port does not stop the window: its status bar says why.
    if (m_options.listen) {
        m_server->listen(m_options.listen->host, m_options.listen->port);
    } else {
        const auto chosen = ui::EndpointSettings::load();
        if (chosen.enabled)
            m_endpoint->listen(chosen.host, chosen.port);
    }
    // The examples go into a new workspace (or an in-memory run) only: one the user emptied
    // stays empty.
    buildWindow(m_host.isNew() && m_options.examples);
    return engine::Done{};
}

void WindowApp::startServices(bool renewTraffic)
{
    session::Session& session = m_host.session();
    m_server->setSession(session);
    // A traffic log per workspace: its records name the events of its session (numbered anew by
    // each broker). The --traffic-log file goes on (it is appended to).
    if (renewTraffic && m_traffic.log) {
        if (auto traffic = trafficLog(m_options.run)) {
            m_server->setTrafficLog(traffic->log.get()); // before the old one goes
            m_traffic = std::move(*traffic);
        }
    }
    m_control = controlApi(session, m_options.run, m_traffic.log.get(), m_nextCursor);
    m_server->setControlApi(m_control.get());
    m_server->setTrafficLog(m_traffic.log.get());
}

Status WindowApp::switchWorkspace(const QString& path, bool withExamples)
{
    return change([this, path] { return m_host.switchTo(path); }, withExamples);
}

Status WindowApp::saveWorkspaceAs(const QString& path)
{
    return change([this, path] { return m_host.switchToCopy(path); }, false);
}

Status WindowApp::change(const std::function<workspace::Status()>& change, bool withExamples)
{
    if (m_switching)
        return QStringLiteral("Another workspace is being opened.");
    m_switching = true;
    // Between the old window and the new one the app has none: that is not the end of the run.
    const bool quits = QGuiApplication::quitOnLastWindowClosed();
    QGuiApplication::setQuitOnLastWindowClosed(false);
    auto switched = change();
    if (switched)
        buildWindow(m_host.isNew() && withExamples);
    QGuiApplication::setQuitOnLastWindowClosed(quits);
    m_switching = false;
    if (!switched) {
        const QString why = QString::fromStdString(switched.error().message);
        if (m_window) {
            m_window->statusBar()->showMessage(why, 10000);
            auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("Inflight"), why,
                                        QMessageBox::Ok, m_window.get());
            box->setObjectName(QStringLiteral("switchFailedBox"));
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        return why;
    }
    Q_EMIT windowReplaced(m_window.get());
    return engine::Done{};
}

void WindowApp::buildWindow(bool examples)
{
    session::Session& session = m_host.session();
    m_window = std::make_unique<ui::MainWindow>(session, nullptr, examples);
    ui::MainWindow& window = *m_window;
    window.setEndpoint(m_endpoint.get());
    window.clientDirectory()->setWorkspace(m_host.path());
    if (m_traffic.log)
        window.setTrafficLog(*m_traffic.log);
    auto* files = new ui::WorkspaceController(m_access, session, &window);
    files->setSelection([&window] { return window.currentQueue(); },
                        [&window] { return window.selectedMessageIds(); });
    // Later, from the event loop: the window that asks is the one the switch replaces.
    connect(files, &ui::WorkspaceController::switchRequested, this,
            [this](const QString& path, bool withExamples) {
                QTimer::singleShot(0, this, [this, path, withExamples] {
                    (void)switchWorkspace(path, withExamples);
                });
            });
    connect(files, &ui::WorkspaceController::saveAsRequested, this, [this](const QString& path) {
        QTimer::singleShot(0, this, [this, path] { (void)saveWorkspaceAs(path); });
    });
    // A lesson opened in a new workspace: switched to, then opened in the window made for it.
    window.setLessonElsewhere(
        [files](const QString& lesson) { files->newWorkspaceForLesson(lesson); });
    connect(files, &ui::WorkspaceController::switchForLessonRequested, this,
            [this](const QString& path, const QString& lesson) {
                QTimer::singleShot(0, this, [this, path, lesson] {
                    if (switchWorkspace(path, false) && m_window)
                        m_window->openLesson(lesson);
                });
            });
    if (!m_host.path().isEmpty())
        window.setWindowTitle(QFileInfo(m_host.path()).completeBaseName()
                              + QStringLiteral(" — Inflight"));
    window.show();
}

} // namespace inflight::app
