// The message browser under load, for docs/PERFORMANCE.md: 100,000 messages in flight in one
// queue, shown in a MessageTableModel behind a MessageFilterModel sorted by the countdown column,
// in a 1200×800 QTableView on the offscreen platform.
//   (a) one 10 Hz presentation tick: setNow + the view's repaint; CPU % of one core at 10 Hz
//   (b) receive / ChangeMessageVisibility / delete through the broker → the proxy shows the row
//       updated (engine call → session batch → model → proxy → repaint)
//   (c) loading the 100,000 rows (setQueue, sorted by the proxy)
// Run: build-bench/tests/bench/ui_countdown_bench --benchmark_counters_tabular=true
#include "session/session.h"
#include "ui/models/message_filter_model.h"
#include "ui/models/message_table_model.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QTableView>

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

using namespace inflight;
using Model = ui::MessageTableModel;

namespace {

// Messages in flight: 100,000, or INFLIGHT_BENCH_IN_FLIGHT (issue 15 asks about 1,000,000).
const int kInFlight = [] {
    const char* text = std::getenv("INFLIGHT_BENCH_IN_FLIGHT");
    const int n = text ? std::atoi(text) : 0;
    return n > 0 ? n / 10 * 10 : 100'000;
}();
constexpr int kSpare = 2'000; // available messages for the receive measurements
constexpr engine::Millis kStart = 1'700'000'000'000;
const std::string kQueue = "load";

// Resident set size in MiB (Linux).
double residentMiB()
{
    long pages = 0;
    long resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        std::fclose(f);
    }
    return static_cast<double>(resident) * 4096.0 / (1024.0 * 1024.0);
}

double threadCpuMillis()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// One engine with 100k messages in flight (visibility 10 min to 70 min, so that deadlines spread
// and none expires), the model, the proxy and the view; built once.
engine::BrokerOptions options()
{
    engine::BrokerOptions o;
    o.inFlightLimitStandard = std::max<std::int64_t>(o.inFlightLimitStandard, kInFlight + kSpare);
    return o;
}

struct World {
    session::Session session{options(), kStart};
    Model model{session};
    ui::MessageFilterModel proxy;
    QTableView view;
    engine::Millis now = kStart;
    double engineMiB = 0; // resident size before any row is loaded

    World()
    {
        session.pause();
        engine::Broker& broker = session.broker();
        (void)broker.createQueue({.name = kQueue});
        std::vector<engine::BatchSendEntry> batch(10);
        for (int i = 0; i < kInFlight + kSpare; i += 10) {
            for (int k = 0; k < 10; ++k) {
                batch[k].id = std::to_string(k);
                batch[k].message.body = R"({"order":)" + std::to_string(i + k)
                    + R"(,"customer":"c-0042","items":[1,2,3],"note":"bench"})";
            }
            (void)broker.sendMessageBatch(kQueue, batch, "test");
        }
        for (int i = 0; i < kInFlight; i += 10) {
            auto r = broker.receiveMessage(
                {.queue = kQueue, .maxMessages = 10, .visibilityTimeout = 600 + (i / 10) % 3600});
            if (!r || r->messages.size() != 10)
                std::abort();
        }
        QCoreApplication::processEvents(); // the set-up's events, before any model listens
        engineMiB = residentMiB();

        proxy.setSourceModel(&model);
        proxy.sort(Model::VisibilityColumn, Qt::AscendingOrder);
        view.setModel(&proxy);
        view.setSortingEnabled(true);
        view.horizontalHeader()->setSortIndicator(Model::VisibilityColumn, Qt::AscendingOrder);
        view.verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        view.resize(1200, 800);
        view.show();
        QCoreApplication::processEvents();
    }

    void load()
    {
        model.setQueue({});
        model.setQueue(QString::fromStdString(kQueue));
        model.finishLoading(); // every row now, not a block per turn: what is timed is all of them
        view.viewport()->repaint();
    }

    // Runs the event loop until `done()` (the proxy shows the change), then paints.
    template <class Done>
    void waitShown(Done done)
    {
        while (!done())
            QCoreApplication::processEvents();
        view.viewport()->repaint();
    }

    QModelIndex proxyIndexOf(engine::MessageKey key, int column)
    {
        const int row = model.rowOfKey(key);
        return row < 0 ? QModelIndex() : proxy.mapFromSource(model.index(row, column));
    }
};

World* g_world = nullptr;

World& world()
{
    if (!g_world) {
        g_world = new World;
        g_world->load();
    }
    return *g_world;
}

void BM_LoadRows(benchmark::State& state)
{
    World& w = world();
    for (auto _ : state)
        w.load();
    state.counters["rows"] = static_cast<double>(w.model.rowCount());
    state.counters["in_flight"] = static_cast<double>(w.model.timedRowCount());
}
BENCHMARK(BM_LoadRows)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_CountdownTick(benchmark::State& state)
{
    World& w = world();
    double cpu = 0;
    for (auto _ : state) {
        const double before = threadCpuMillis();
        w.now += 100; // 10 Hz
        w.model.setNow(w.now);
        w.view.viewport()->repaint();
        cpu += threadCpuMillis() - before;
    }
    const double perTick = cpu / static_cast<double>(state.iterations());
    state.counters["tick_cpu_ms"] = perTick;
    state.counters["cpu_pct_at_10Hz"] = perTick * 10.0 / 1000.0 * 100.0;
    state.counters["rows"] = static_cast<double>(w.model.rowCount());
}
BENCHMARK(BM_CountdownTick)->Unit(benchmark::kMillisecond)->Iterations(100)->UseRealTime();

// Just the model's and proxy's part of a tick (no painting): what the tick costs in itself.
void BM_CountdownTickWithoutPaint(benchmark::State& state)
{
    World& w = world();
    for (auto _ : state) {
        w.now += 100;
        w.model.setNow(w.now);
    }
}
BENCHMARK(BM_CountdownTickWithoutPaint)->Unit(benchmark::kMicrosecond)->Iterations(100);

void BM_ReceiveShown(benchmark::State& state)
{
    World& w = world();
    engine::Broker& broker = w.session.broker();
    std::unordered_map<std::string, engine::MessageKey> keys;
    engine::PeekRequest available{.delayed = false, .inFlight = false};
    const auto views = broker.peekMessages(kQueue, available);
    for (const engine::MessageView& v : views.value())
        keys.emplace(v.messageId, v.key);
    for (auto _ : state) {
        auto r
            = broker.receiveMessage({.queue = kQueue, .maxMessages = 1, .visibilityTimeout = 30});
        const engine::MessageKey key = keys.at(r->messages.at(0).messageId);
        w.waitShown([&] {
            return w.proxyIndexOf(key, Model::StateColumn).data().toString()
                == QStringLiteral("In flight");
        });
    }
}
BENCHMARK(BM_ReceiveShown)->Unit(benchmark::kMillisecond)->Iterations(200)->UseRealTime();

struct InFlightSample {
    engine::MessageKey key;
    std::string receipt;
};

std::vector<InFlightSample> inFlightSample(World& w, std::size_t count)
{
    std::vector<InFlightSample> result;
    engine::PeekRequest inFlight{.delayed = false, .available = false, .limit = count};
    const auto views = w.session.broker().peekMessages(kQueue, inFlight);
    for (const engine::MessageView& v : views.value())
        result.push_back({v.key, v.receiptHandle});
    return result;
}

void BM_ChangeVisibilityShown(benchmark::State& state)
{
    World& w = world();
    const auto sample = inFlightSample(w, 200);
    std::size_t i = 0;
    for (auto _ : state) {
        const InFlightSample& m = sample.at(i++);
        const std::int64_t seconds = 300 + static_cast<std::int64_t>(i) * 7;
        auto r = w.session.broker().changeMessageVisibility(kQueue, m.receipt, seconds, "test");
        const qlonglong deadline = r->visibleAt;
        w.waitShown([&] {
            return w.proxyIndexOf(m.key, Model::VisibilityColumn).data(Qt::UserRole).toLongLong()
                == deadline;
        });
    }
}
BENCHMARK(BM_ChangeVisibilityShown)->Unit(benchmark::kMillisecond)->Iterations(200)->UseRealTime();

void BM_DeleteShown(benchmark::State& state)
{
    World& w = world();
    const auto sample = inFlightSample(w, 200);
    std::size_t i = 0;
    for (auto _ : state) {
        const InFlightSample& m = sample.at(i++);
        const int rowsBefore = w.proxy.rowCount();
        (void)w.session.broker().deleteMessage(kQueue, m.receipt, "test");
        w.waitShown([&] { return w.proxy.rowCount() == rowsBefore - 1; });
        if (w.model.rowOfKey(m.key) >= 0)
            state.SkipWithError("row still shown");
    }
}
BENCHMARK(BM_DeleteShown)->Unit(benchmark::kMillisecond)->Iterations(200)->UseRealTime();

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    QElapsedTimer setUp;
    setUp.start();
    world();
    std::printf("set-up: %d messages in flight, %d available, loaded in %lld ms; resident "
                "%.0f MiB before the rows, %.0f MiB with them\n",
                kInFlight, kSpare, static_cast<long long>(setUp.elapsed()), g_world->engineMiB,
                residentMiB());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    delete g_world;
    return 0;
}
