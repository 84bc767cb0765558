// Workspace store figures (issue 5): reopening a workspace of 1,000,000 messages (open + restore
// into a broker), and group-commit throughput of SendMessageBatch-sized and ReceiveMessage(10) +
// DeleteMessageBatch-sized batches against the same calls without a store; export and import of
// 100,000 messages as JSON (queue_transfer), the import committed to a workspace as the window's
// is. Run: build-bench/tests/bench/store_bench [messages]   (default 1000000)
#include "bench_store.h"
#include "engine/broker.h"
#include "store/queue_transfer.h"
#include "store/workspace_store.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

using namespace inflight;

using bench::openStore;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Bench {
    engine::ManualClock clock;
    engine::Broker broker{clock};
    std::vector<engine::Event> events;
    std::unique_ptr<store::WorkspaceStore> store;

    Bench()
    {
        broker.setEventSink([this](std::span<const engine::Event> batch) {
            events.insert(events.end(), batch.begin(), batch.end());
        });
    }
    void commit()
    {
        if (store)
            if (auto done = store->commit(broker, events, {clock.now(), false, 1.0, clock.now()});
                !done)
                std::fprintf(stderr, "commit failed: %s\n", done.error().message.c_str());
        events.clear();
    }
};

std::vector<engine::BatchSendEntry> batchOf10()
{
    std::vector<engine::BatchSendEntry> entries;
    for (int i = 0; i < 10; ++i) {
        engine::BatchSendEntry e;
        e.id = std::to_string(i);
        e.message.body = std::string(200, 'm');
        entries.push_back(std::move(e));
    }
    return entries;
}

// `requests` calls per commit: how many requests one event-loop turn groups.
void throughput(const std::string& path, bool persistent, int requestsPerCommit, bool fullSync)
{
    std::filesystem::remove(path);
    Bench b;
    if (persistent)
        b.store = openStore(path, store::OpenMode::CreateNew,
                            {.sync = fullSync ? store::SyncMode::Full : store::SyncMode::Normal});
    (void)b.broker.createQueue({.name = "q"});
    b.commit();
    const auto entries = batchOf10();
    const int rounds = 2000;
    auto start = Clock::now();
    for (int i = 0; i < rounds; ++i) {
        (void)b.broker.sendMessageBatch("q", entries, "test");
        if ((i + 1) % requestsPerCommit == 0)
            b.commit();
    }
    b.commit();
    const double sendSeconds = secondsSince(start);
    start = Clock::now();
    int received = 0;
    for (int i = 0; i < rounds; ++i) {
        auto r = b.broker.receiveMessage({.queue = "q", .maxMessages = 10});
        std::vector<engine::BatchReceiptEntry> deletes;
        for (std::size_t k = 0; k < r->messages.size(); ++k)
            deletes.push_back({std::to_string(k), r->messages[k].receiptHandle, {}});
        received += static_cast<int>(r->messages.size());
        if (!deletes.empty())
            (void)b.broker.deleteMessageBatch("q", deletes, "test");
        if ((i + 1) % requestsPerCommit == 0)
            b.commit();
    }
    b.commit();
    const double receiveSeconds = secondsSince(start);
    std::printf("%-34s SendMessageBatch(10): %8.0f req/s   Receive(10)+DeleteBatch: %8.0f "
                "pairs/s\n",
                persistent ? (std::string(fullSync ? "store FULL sync, " : "store NORMAL sync, ")
                              + std::to_string(requestsPerCommit) + " req/commit")
                                 .c_str()
                           : "in memory",
                rounds / sendSeconds, rounds / receiveSeconds);
    (void)received;
}

void reopen(const std::string& path, int count)
{
    std::filesystem::remove(path);
    {
        Bench b;
        b.store = openStore(path, store::OpenMode::CreateNew);
        (void)b.broker.createQueue({.name = "big"});
        (void)b.broker.createQueue({.name = "big.fifo", .attributes = {{"FifoQueue", "true"}}});
        b.commit();
        const auto entries = batchOf10();
        auto start = Clock::now();
        for (int i = 0; i < count / 10; ++i) {
            (void)b.broker.sendMessageBatch("big", entries, "test");
            if (i % 1000 == 999)
                b.commit();
        }
        b.commit();
        // Some in flight, as a workspace in use has.
        for (int i = 0; i < 1000; ++i)
            (void)b.broker.receiveMessage({.queue = "big", .maxMessages = 10});
        b.commit();
        std::printf("wrote %d messages in %.2f s\n", count, secondsSince(start));
    }
    std::printf("file: %.0f MB\n", std::filesystem::file_size(path) / 1e6);
    auto start = Clock::now();
    auto opened = openStore(path, store::OpenMode::OpenExisting);
    const double openSeconds = secondsSince(start);
    engine::ManualClock clock;
    engine::Broker broker(clock);
    start = Clock::now();
    if (auto done = opened->restore(broker); !done)
        std::fprintf(stderr, "restore failed: %s\n", done.error().message.c_str());
    const double restoreSeconds = secondsSince(start);
    std::printf("reopen %d messages: open %.3f s + restore %.3f s = %.3f s (%lld stored)\n", count,
                openSeconds, restoreSeconds, openSeconds + restoreSeconds,
                static_cast<long long>(broker.queueStats("big")->available
                                       + broker.queueStats("big")->inFlight));
}

// Export `count` messages (200-byte bodies, one attribute) of a queue to JSON, then import the
// text into another queue of a workspace and commit it.
void transfer(const std::string& path, int count)
{
    std::filesystem::remove(path);
    Bench b;
    b.store = openStore(path, store::OpenMode::CreateNew);
    (void)b.broker.createQueue({.name = "from"});
    (void)b.broker.createQueue({.name = "to"});
    auto entries = batchOf10();
    for (auto& e : entries)
        e.message.attributes["order"] = {"Number", "12345", {}};
    for (int i = 0; i < count / 10; ++i)
        (void)b.broker.sendMessageBatch("from", entries, "test");
    b.commit();

    auto start = Clock::now();
    std::int64_t progressCalls = 0;
    auto text = store::exportQueues(
        b.broker, {.queues = {"from"}, .progress = [&](std::int64_t, std::int64_t) {
                       ++progressCalls;
                       return true;
                   }});
    const double exportSeconds = secondsSince(start);
    start = Clock::now();
    const auto result = store::importQueues(
        b.broker, *text, {.intoQueue = "to", .progress = [&](std::int64_t, std::int64_t) {
                              ++progressCalls;
                              return true;
                          }});
    const double importSeconds = secondsSince(start);
    start = Clock::now();
    b.commit();
    const double commitSeconds = secondsSince(start);
    std::printf("export %d messages: %.3f s (%.1f MB JSON)\n", count, exportSeconds,
                text->size() / 1e6);
    std::printf("import %lld messages: %.3f s + commit %.3f s = %.3f s (%lld progress calls)\n",
                static_cast<long long>(result ? result->messages : 0), importSeconds, commitSeconds,
                importSeconds + commitSeconds, static_cast<long long>(progressCalls));
}

} // namespace

int main(int argc, char** argv)
{
    const int count = argc > 1 ? std::atoi(argv[1]) : 1'000'000;
    const std::string dir = std::filesystem::temp_directory_path() / "inflight-store-bench";
    std::filesystem::create_directories(dir);
    throughput(dir + "/t.inflight", false, 1, true);
    for (int perCommit : {1, 4, 16})
        throughput(dir + "/t.inflight", true, perCommit, true);
    throughput(dir + "/t.inflight", true, 1, false);
    transfer(dir + "/x.inflight", 100'000);
    if (count > 0)
        reopen(dir + "/big.inflight", count);
    std::filesystem::remove_all(dir);
}
