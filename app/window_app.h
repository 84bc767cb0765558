#pragma once

#include "app_result.h"
#include "endpoint_adapter.h"
#include "endpoint_options.h"
#include "listen_address.h"
#include "run_options.h"
#include "run_services.h"
#include "server/http_server.h"
#include "workspace/workspace_host.h"
#include "workspace_access_adapter.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace inflight::ui {
class MainWindow;
}

namespace inflight::app {

// What the window's run starts with, from the command line.
struct WindowOptions {
    QString workspacePath;               // empty: in memory
    bool examples = true;                // a new workspace gets the example queues (not --empty)
    QStringList ociQueues;               // --oci-queue
    std::optional<ListenAddress> listen; // --listen: wins over the Endpoint settings
    EndpointOptions endpoint;
    RunOptions run;
};

// The window's run: the workspace host, the endpoint, the control API and the window on the open
// workspace. File ▸ New, Open, Save As and a recent workspace switch in place: the host opens the
// chosen file, the endpoint keeps its port and connections and answers from the new workspace
// (its open long polls end empty), and a new window on the new session takes the old one's place
// (its layout kept through the window's settings). The control API's event cursors go on from
// the old one's; the traffic log starts afresh (its records name the old session's events).
class WindowApp : public QObject {
    Q_OBJECT
public:
    explicit WindowApp(WindowOptions options, QObject* parent = nullptr);
    ~WindowApp() override;

    // Opens the workspace (in memory, after saying why, when it is refused), applies the run's
    // options, starts the endpoint and shows the window. The error (a bad option) ends the run.
    Status start();

    // Switches to the workspace at `path` (created if missing) as the class comment says; a new
    // workspace gets the example queues with `withExamples`. On failure the open workspace stays
    // and the window's status bar says why.
    Status switchWorkspace(const QString& path, bool withExamples);
    // Save As: a copy of the open workspace at `path`, switched to as above.
    Status saveWorkspaceAs(const QString& path);

    workspace::WorkspaceHost& host() { return m_host; }
    server::HttpServer& server() { return *m_server; }
    ui::MainWindow* window() { return m_window.get(); }

Q_SIGNALS:
    // A new window took the old one's place (after a switch).
    void windowReplaced(ui::MainWindow* window);

private:
    void buildWindow(bool examples);
    // switchWorkspace and saveWorkspaceAs: `change` makes the host switch.
    Status change(const std::function<workspace::Status()>& change, bool withExamples);
    // The endpoint on the open session, with a control API (and, `renewTraffic`, a traffic log)
    // of its own.
    void startServices(bool renewTraffic);

    WindowOptions m_options;
    workspace::WorkspaceHost m_host;
    Traffic m_traffic;
    std::unique_ptr<control::ControlApi> m_control;
    std::unique_ptr<server::HttpServer> m_server;
    std::unique_ptr<EndpointAdapter> m_endpoint;
    WorkspaceAccessAdapter m_access;
    std::unique_ptr<ui::MainWindow> m_window; // destroyed first: it holds the session
    bool m_switching = false;                 // a switch is under way (it runs the event loop)
    std::uint64_t m_nextCursor = 1;           // the control API's next event cursor
};

} // namespace inflight::app
