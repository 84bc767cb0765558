// Reopening a workspace of 1,000,000 messages to a usable window, for docs/PERFORMANCE.md: the
// path the app takes (WorkspaceSession::open: open the file, restore into the session's
// broker, resume the clock; then MainWindow on it, shown, its first queue's messages listed), timed
// from before the open until the shown window has finished its first event-loop turns.
// Run: build-bench/tests/bench/ui_reopen_bench [messages [FILE]]   (default 1000000; offscreen
// unless QT_QPA_PLATFORM says otherwise). With FILE: that workspace, written only if missing, and
// kept.
#include "bench_store.h"
#include "engine/broker.h"
#include "store/workspace_store.h"
#include "ui/main_window.h"
#include "ui/models/message_table_model.h"
#include "workspace/workspace_session.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QWindow>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

using namespace inflight;

using bench::openStore;

namespace {

// The workspace: queue "big" with `count` messages of 200 bytes, 10,000 of them in flight.
void writeWorkspace(const std::string& path, int count)
{
    std::filesystem::remove(path);
    engine::ManualClock clock(QDateTime::currentMSecsSinceEpoch());
    engine::Broker broker(clock);
    std::vector<engine::Event> events;
    broker.setEventSink([&](std::span<const engine::Event> batch) {
        events.insert(events.end(), batch.begin(), batch.end());
    });
    auto store = openStore(path, store::OpenMode::CreateNew);
    auto commit = [&] {
        if (auto done = store->commit(broker, events, {clock.now(), false, 1.0, clock.now()});
            !done)
            std::fprintf(stderr, "commit failed: %s\n", done.error().message.c_str());
        events.clear();
    };
    (void)broker.createQueue({.name = "big", .attributes = {{"VisibilityTimeout", "3600"}}});
    std::vector<engine::BatchSendEntry> entries;
    for (int i = 0; i < 10; ++i) {
        engine::BatchSendEntry e;
        e.id = std::to_string(i);
        e.message.body = std::string(200, 'm');
        entries.push_back(std::move(e));
    }
    for (int i = 0; i < count / 10; ++i) {
        (void)broker.sendMessageBatch("big", entries, "test");
        if (i % 1000 == 999)
            commit();
    }
    for (int i = 0; i < 1000; ++i)
        (void)broker.receiveMessage({.queue = "big", .maxMessages = 10});
    commit();
    (void)store->saveClock({clock.now(), false, 1.0, clock.now()});
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("InflightBench"));
    QSettings().clear();
    const int count = argc > 1 ? std::atoi(argv[1]) : 1'000'000;
    const std::string dir = std::filesystem::temp_directory_path() / "inflight-reopen-bench";
    std::filesystem::create_directories(dir);
    const std::string path = argc > 2 ? std::string(argv[2]) : dir + "/big.inflight";
    if (argc <= 2 || !std::filesystem::exists(path))
        writeWorkspace(path, count);
    std::printf("workspace: %d messages, %.0f MB\n", count,
                static_cast<double>(std::filesystem::file_size(path)) / 1e6);

    QElapsedTimer timer;
    timer.start();
    auto opened = workspace::WorkspaceSession::open(QString::fromStdString(path),
                                                    store::OpenMode::OpenExisting);
    if (!opened) {
        std::fprintf(stderr, "open failed: %s\n", opened.error().message.c_str());
        return 1;
    }
    std::unique_ptr<workspace::WorkspaceSession> reopened = std::move(*opened);
    const qint64 restored = timer.elapsed();
    ui::MainWindow window(reopened->session());
    const qint64 built = timer.elapsed();
    window.show();
    while (!window.windowHandle() || !window.windowHandle()->isExposed())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    // The first rows painted: the event-loop turn after exposure.
    QCoreApplication::processEvents();
    const qint64 usable = timer.elapsed();
    auto* proxy = qobject_cast<QSortFilterProxyModel*>(window.messageView()->model());
    auto* messages = qobject_cast<ui::MessageTableModel*>(proxy->sourceModel());
    const int firstRows = proxy->rowCount();
    const auto stats = reopened->session().broker().queueStats("big");
    std::printf("reopen %d messages to a usable window: restore %.3f s, window built %.3f s, "
                "first rows shown %.3f s = %.3f s after the restore (queue %s, %d rows listed "
                "then, %lld stored)\n",
                count, restored / 1e3, built / 1e3, usable / 1e3, (usable - restored) / 1e3,
                qPrintable(window.currentQueue()), firstRows,
                static_cast<long long>(stats->available + stats->inFlight));
    // A receive while the table is still listing answers at once: one receive through the
    // session and the event-loop turn that shows it.
    timer.restart();
    (void)reopened->session().broker().receiveMessage({.queue = "big", .maxMessages = 10});
    QCoreApplication::processEvents();
    std::printf("a receive right after (still listing: %s) + one event-loop turn: %lld ms\n",
                messages->isLoading() ? "yes" : "no", static_cast<long long>(timer.elapsed()));
    // The rest of the rows, a block per turn, while the window answers between blocks.
    timer.restart();
    qint64 longestTurn = 0;
    int turns = 0;
    while (messages->isLoading()) {
        QElapsedTimer turn;
        turn.start();
        QCoreApplication::processEvents();
        longestTurn = std::max(longestTurn, turn.elapsed());
        ++turns;
    }
    std::printf("every row listed %.3f s later, in %d event-loop turns of at most %lld ms (%d "
                "rows)\n",
                timer.elapsed() / 1e3, turns, static_cast<long long>(longestTurn),
                proxy->rowCount());
    window.close();
    reopened.reset();
    if (argc <= 2)
        std::filesystem::remove_all(dir);
    return 0;
}
