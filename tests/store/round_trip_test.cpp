// Everything a workspace keeps comes back after close and reopen: queues with attributes, tags and
// DLQ relations; messages available, delayed and in flight with their deadlines, receipts and
// receive counts; FIFO dedup ids and receive attempts inside their windows; move tasks; the clock;
// the counters. The store is fed only by the event stream (one commit per engine call here).
#include "store_fixture.h"

#include <sqlite3.h>

#include <array>
#include <random>

using namespace inflight::engine;
using namespace inflight::store;
using namespace inflight::store::testing;

namespace {

std::string redrive(Broker& b, const std::string& dlq, int max)
{
    return R"({"deadLetterTargetArn":")" + b.arnForName(dlq) + R"(","maxReceiveCount":)"
        + std::to_string(max) + "}";
}

class RoundTripTest : public ::testing::Test {
protected:
    std::string dir = freshFolder(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path = dir + "/w.inflight";
    Workbench bench;

    void SetUp() override { ASSERT_TRUE(bench.open(path)); }
    void TearDown() override { std::filesystem::remove_all(dir); }

    Broker& b() { return *bench.broker; }
    void commit() { ASSERT_TRUE(bench.commitNow()); }

    // Closes the workspace and opens it into a fresh broker; returns the old broker to compare.
    std::unique_ptr<Broker> reopen()
    {
        b().advance(); // what is due now happens before the close, as a reopen would do it
        commit();
        auto old = std::move(bench.broker);
        old->setEventSink({});
        bench.store.reset();
        EXPECT_TRUE(bench.open(path, OpenMode::OpenExisting));
        return old;
    }
};

TEST_F(RoundTripTest, everyStateAndAttributeSurvivesCloseAndReopen)
{
    // Standard queue with a DLQ, tags, attributes.
    ASSERT_TRUE(b().createQueue({.name = "dlq", .tags = {{"team", "ops"}}}).ok());
    ASSERT_TRUE(b().createQueue({.name = "orders",
                                 .attributes = {{"VisibilityTimeout", "60"},
                                                {"RedrivePolicy", redrive(b(), "dlq", 2)}},
                                 .tags = {{"env", "demo"}}})
                    .ok());
    commit();
    SendMessageRequest withAttributes{.queue = "orders", .body = std::string("first")};
    withAttributes.attributes["s"] = MessageAttributeValue{"String", "v", ""};
    withAttributes.attributes["n"] = MessageAttributeValue{"Number.int", "42", ""};
    withAttributes.attributes["b"] = MessageAttributeValue{"Binary", "", std::string("\0\1\2", 3)};
    withAttributes.systemAttributes["AWSTraceHeader"]
        = MessageAttributeValue{"String", "Root=1-2-3", ""};
    ASSERT_TRUE(b().sendMessage(withAttributes).ok());
    ASSERT_TRUE(b().sendMessage({.queue = "orders", .body = std::string("second")}).ok());
    ASSERT_TRUE(
        b().sendMessage({.queue = "orders", .body = std::string("delayed"), .delaySeconds = 600})
            .ok());
    commit();
    auto inFlight = b().receiveMessage({.queue = "orders", .maxMessages = 1});
    ASSERT_EQ(inFlight->messages.size(), 1u);
    commit();
    // A message received twice with visibility 0 moves to the DLQ on its next receive.
    ASSERT_TRUE(b().sendMessage({.queue = "orders", .body = std::string("poison")}).ok());
    commit();
    bench.clock.advance(1000);
    for (int i = 0; i < 3; ++i) {
        auto r = b().receiveMessage({.queue = "orders", .maxMessages = 10, .visibilityTimeout = 0});
        ASSERT_TRUE(r.ok());
        commit();
    }
    EXPECT_GE(b().queueStats("dlq")->available, 1);

    // FIFO with dedup and attempts inside their windows.
    ASSERT_TRUE(b().createQueue({.name = "f.fifo", .attributes = {{"FifoQueue", "true"}}}).ok());
    for (const char* body : {"a1", "a2", "b1"})
        ASSERT_TRUE(b().sendMessage({.queue = "f.fifo",
                                     .body = std::string(body),
                                     .deduplicationId = std::string(body),
                                     .groupId = std::string(1, body[0])})
                        .ok());
    commit();
    auto attempt = b().receiveMessage(
        {.queue = "f.fifo", .maxMessages = 1, .receiveRequestAttemptId = std::string("try-1")});
    ASSERT_EQ(attempt->messages.size(), 1u);
    commit();

    // OCI with channels and its built-in DLQ.
    ASSERT_TRUE(b().createQueue({.name = "telemetry",
                                 .attributes = {{"deadLetterQueueDeliveryCount", "2"}},
                                 .oci = true})
                    .ok());
    ASSERT_TRUE(
        b().sendMessage(
               {.queue = "telemetry", .body = std::string("eu-1"), .channelId = std::string("eu")})
            .ok());
    commit();

    // A move task back from the DLQ, part way.
    auto task
        = b().startMessageMoveTask({.sourceArn = b().arnForName("dlq"), .maxMessagesPerSecond = 1});
    ASSERT_TRUE(task.ok());
    commit();

    auto old = reopen();
    expectSameBroker(*old, b());
    EXPECT_EQ(b().getQueueAttributes("orders", {"All"}).value(),
              old->getQueueAttributes("orders", {"All"}).value());
    EXPECT_EQ(b().listQueueTags("orders").value(), (StringMap{{"env", "demo"}}));

    // The receipt handed out before the close deletes after it.
    EXPECT_TRUE(b().deleteMessage("orders", inFlight->messages[0].receiptHandle, "test").ok());
    EXPECT_EQ(b().queueStats("orders")->inFlight, 0);
    // The dedup window: a resend is a duplicate answered with the original id.
    auto dup = b().sendMessage({.queue = "f.fifo",
                                .body = std::string("a1"),
                                .deduplicationId = std::string("a1"),
                                .groupId = std::string("a")});
    ASSERT_TRUE(dup.ok());
    EXPECT_TRUE(dup->deduplicated);
    // The attempt replays with the same receipt.
    auto replay = b().receiveMessage(
        {.queue = "f.fifo", .maxMessages = 1, .receiveRequestAttemptId = std::string("try-1")});
    ASSERT_EQ(replay->messages.size(), 1u);
    EXPECT_EQ(replay->messages[0].receiptHandle, attempt->messages[0].receiptHandle);
    // The move task is still running and goes on.
    auto tasks = b().listMessageMoveTasks(b().arnForName("dlq"), 10);
    ASSERT_EQ(tasks->size(), 1u);
    EXPECT_EQ(tasks->at(0).status, MoveTaskStatus::Running);
}

TEST_F(RoundTripTest, theSenderIdOfEveryMessageSurvives)
{
    ASSERT_TRUE(b().createQueue({.name = "dlq"}).ok());
    ASSERT_TRUE(
        b().createQueue({.name = "q", .attributes = {{"RedrivePolicy", redrive(b(), "dlq", 1)}}})
            .ok());
    SendMessageRequest signedSend{.queue = "q", .body = std::string("signed")};
    signedSend.senderId = "AKIDPRODUCER";
    ASSERT_TRUE(b().sendMessage(signedSend).ok());
    ASSERT_TRUE(b().sendMessage({.queue = "q", .body = std::string("unsigned")}).ok());
    signedSend.body = "poison";
    ASSERT_TRUE(b().sendMessage(signedSend).ok());
    commit();
    // "poison" goes to the DLQ on its second receive, keeping its sender.
    ReceiveRequest all{.queue = "q", .maxMessages = 10, .visibilityTimeout = 0};
    ASSERT_EQ(b().receiveMessage(all)->messages.size(), 3u);
    commit();
    ASSERT_EQ(b().receiveMessage({.queue = "q", .maxMessages = 10})->messages.size(), 0u);
    commit();
    ASSERT_EQ(b().queueStats("dlq")->available, 3);

    auto old = reopen();
    expectSameBroker(*old, b());
    auto received = b().receiveMessage(
        {.queue = "dlq", .maxMessages = 10, .systemAttributeNames = {"SenderId"}});
    ASSERT_EQ(received->messages.size(), 3u);
    std::vector<std::string> senders;
    for (const auto& m : received->messages)
        senders.push_back(m.systemAttributes.at("SenderId"));
    EXPECT_EQ(senders, (std::vector<std::string>{"AKIDPRODUCER", "000000000000", "AKIDPRODUCER"}));
}

// The facts behind explainMessage (explain.h) — the origin of the last receive and how a message
// became visible again — come back, so a message's explanation reads the same after a reopen.
TEST_F(RoundTripTest, theExplanationOfEveryMessageSurvives)
{
    ASSERT_TRUE(b().createQueue({.name = "dlq"}).ok());
    ASSERT_TRUE(
        b().createQueue({.name = "q", .attributes = {{"RedrivePolicy", redrive(b(), "dlq", 3)}}})
            .ok());
    ASSERT_TRUE(
        b().createQueue({.name = "d", .attributes = {{"RedrivePolicy", redrive(b(), "dlq", 1)}}})
            .ok());
    for (const char* body : {"expired", "released", "in flight", "zero"})
        ASSERT_TRUE(b().sendMessage({.queue = "q", .body = std::string(body)}).ok());
    ASSERT_TRUE(b().sendMessage({.queue = "d", .body = std::string("dead")}).ok());
    commit();
    auto receive = [&](const char* queue, std::int64_t visibility, const std::string& origin) {
        ReceiveRequest r{.queue = queue, .maxMessages = 1, .visibilityTimeout = visibility};
        r.origin = origin;
        auto got = b().receiveMessage(r);
        commit();
        return got && !got->messages.empty() ? got->messages[0].receiptHandle : std::string();
    };
    EXPECT_FALSE(receive("q", 10, "expiring-worker").empty()); // runs out below
    const std::string released = receive("q", 60, "releaser"); // set to 0 below
    EXPECT_FALSE(receive("q", 600, "holder").empty());
    EXPECT_FALSE(receive("q", 0, "peeker").empty());
    ASSERT_TRUE(b().changeMessageVisibility("q", released, 0, "releaser").ok());
    commit();
    bench.clock.advance(11 * kSecond);
    b().advance();
    commit();
    EXPECT_FALSE(receive("d", 0, "dead-worker").empty());
    EXPECT_TRUE(receive("d", 0, "dead-worker").empty()); // moved to the DLQ instead
    ASSERT_EQ(b().queueStats("dlq")->available, 1);

    auto explanations = [](Broker& broker) {
        std::string texts;
        for (const char* queue : {"q", "dlq"}) {
            const auto views = broker.peekMessages(queue);
            for (const auto& view : views.value()) {
                auto x = broker.explainMessage(queue, view.key);
                texts += std::string(queue) + ": " + (x ? x->text : describe(x.error())) + "\n";
            }
        }
        return texts;
    };
    const std::string before = explanations(b());
    auto old = reopen();
    expectSameBroker(*old, b());
    EXPECT_EQ(explanations(b()), before);
    for (const char* fact : {"visibility timeout of receive #1 (client `expiring-worker`) ran out",
                             "receive #1 (client `releaser`) was set to 0", "in flight until",
                             "(client `holder`)", "(client `peeker`) at",
                             "used visibility timeout 0", "moved here as a dead letter from `d`"})
        EXPECT_NE(before.find(fact), std::string::npos) << fact << " in\n" << before;
}

TEST_F(RoundTripTest, visibilityThatRanOutWhileClosedIsAvailableAfterReopen)
{
    ASSERT_TRUE(b().createQueue({.name = "q"}).ok());
    ASSERT_TRUE(b().sendMessage({.queue = "q", .body = std::string("m")}).ok());
    ASSERT_EQ(b().receiveMessage({.queue = "q"})->messages.size(), 1u);
    commit();
    bench.close();
    bench.clock.advance(31'000); // the app was closed for 31 s (visibility 30 s)
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    EXPECT_EQ(b().queueStats("q")->available, 1);
    EXPECT_EQ(b().queueStats("q")->inFlight, 0);
    EXPECT_EQ(b().queueStats("q")->visibilityExpired, 1);
}

TEST_F(RoundTripTest, engineTimeResumesAtTheLaterOfSavedAndWallClock)
{
    EXPECT_EQ(resumeTime({.engineTime = 5000}, 4000), 5000); // ran ahead: never moved back
    EXPECT_EQ(resumeTime({.engineTime = 5000}, 9000), 9000); // time passed while closed
    ASSERT_TRUE(bench.store->saveClock({.engineTime = 123, .paused = true, .speed = 60.0}));
    bench.close();
    auto reopened = WorkspaceStore::open(path, OpenMode::OpenExisting);
    ASSERT_TRUE(reopened);
    const auto saved = (*reopened)->savedClock();
    ASSERT_TRUE(saved);
    EXPECT_TRUE(saved->paused);
    EXPECT_EQ(saved->speed, 60.0);
    EXPECT_EQ(saved->engineTime, 123);
}

TEST_F(RoundTripTest, deletesPurgesAndQueueDeletionsLeaveNothingBehind)
{
    ASSERT_TRUE(b().createQueue({.name = "gone"}).ok());
    ASSERT_TRUE(b().createQueue({.name = "purged"}).ok());
    ASSERT_TRUE(b().createQueue({.name = "kept"}).ok());
    for (int i = 0; i < 5; ++i)
        for (const char* q : {"gone", "purged", "kept"})
            ASSERT_TRUE(b().sendMessage({.queue = q, .body = "m" + std::to_string(i)}).ok());
    commit();
    auto r = b().receiveMessage({.queue = "kept", .maxMessages = 3});
    commit();
    for (const auto& m : r->messages)
        ASSERT_TRUE(b().deleteMessage("kept", m.receiptHandle, "test").ok());
    ASSERT_TRUE(b().purgeQueue("purged", PurgeTarget::Normal, "test").ok());
    ASSERT_TRUE(b().deleteQueue("gone", "test").ok());
    ASSERT_TRUE(b().sendMessage({.queue = "purged", .body = std::string("after purge")}).ok());
    auto old = reopen();
    expectSameBroker(*old, b());
    EXPECT_EQ(b().queueStats("kept")->available, 2);
    EXPECT_EQ(b().queueStats("purged")->available, 1);
    EXPECT_FALSE(b().queueStats("gone").ok());
    // The re-create window of the deleted queue survived.
    EXPECT_FALSE(b().createQueue({.name = "gone"}).ok());
}

// Rows of a table of the closed workspace at `path`.
std::int64_t rowsOf(const std::string& path, const std::string& table)
{
    sqlite3* db = nullptr;
    std::int64_t rows = -1;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* count = nullptr;
        if (sqlite3_prepare_v2(db, ("SELECT count(*) FROM " + table).c_str(), -1, &count, nullptr)
                == SQLITE_OK
            && sqlite3_step(count) == SQLITE_ROW)
            rows = sqlite3_column_int64(count, 0);
        sqlite3_finalize(count);
    }
    sqlite3_close(db);
    return rows;
}

// One commit that deletes runs of neighbours and lone messages among messages whose state it also
// changes: exactly the deleted ones go, with their states, and the others come back as they were.
TEST_F(RoundTripTest, aCommitDeletesExactlyTheDeletedMessagesAmongTheirNeighbours)
{
    ASSERT_TRUE(b().createQueue({.name = "q"}).ok());
    for (int i = 0; i < 20; ++i)
        ASSERT_TRUE(b().sendMessage({.queue = "q", .body = "m" + std::to_string(i)}).ok());
    commit();
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(b().receiveMessage({.queue = "q", .maxMessages = 10, .origin = "worker"})
                      ->messages.size(),
                  10u);
    const auto got = b().peekMessages("q").value(); // in sequence order, with their receipts
    ASSERT_EQ(got.size(), 20u);
    commit(); // the 20 states, each in a row of its own
    // In one batch: delete 0-3, 5, 7-8, 12-15 and 19; let 4 go back; leave the others in flight.
    for (int i : {0, 1, 2, 3, 5, 7, 8, 12, 13, 14, 15, 19})
        ASSERT_TRUE(b().deleteMessage("q", got[std::size_t(i)].receiptHandle, "test").ok());
    ASSERT_TRUE(b().changeMessageVisibility("q", got[4].receiptHandle, 0, "test").ok());
    auto old = reopen();
    expectSameBroker(*old, b());
    EXPECT_EQ(b().queueStats("q")->available, 1);
    EXPECT_EQ(b().queueStats("q")->inFlight, 7);
    for (int i : {4, 6, 9, 10, 11, 16, 17, 18}) {
        auto record = b().messageRecord("q", got[std::size_t(i)].key);
        ASSERT_TRUE(record.ok()) << i;
        EXPECT_EQ(record->body, got[std::size_t(i)].body);
        EXPECT_EQ(record->receiveCount, 1u);
        EXPECT_EQ(record->lastReceiveOrigin, "worker");
    }
    // Nothing of the deleted messages is left in the file: neither the row nor the state.
    bench.close();
    EXPECT_EQ(rowsOf(path, "messages"), 8);
    EXPECT_EQ(rowsOf(path, "message_state"), 8);
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    ASSERT_TRUE(b().purgeQueue("q", PurgeTarget::Normal, "test").ok());
    commit();
    bench.close();
    EXPECT_EQ(rowsOf(path, "messages"), 0);
    EXPECT_EQ(rowsOf(path, "message_state"), 0);
}

// A FIFO queue's deduplication window is written as it changes, not whole at every commit: new
// records are added, expired ones dropped, a purge empties it, and across reopens and later
// commits the file holds exactly the engine's window (a duplicate is still refused after a reopen;
// an expired id is new again).
TEST_F(RoundTripTest, theDeduplicationWindowIsKeptExactAsItGrowsExpiresAndIsPurged)
{
    ASSERT_TRUE(b().createQueue({.name = "f.fifo", .attributes = {{"FifoQueue", "true"}}}).ok());
    const auto send = [&](const std::string& id) {
        SendMessageRequest r{.queue = "f.fifo", .body = "body " + id};
        r.groupId = "g";
        r.deduplicationId = id;
        return b().sendMessage(r).value();
    };
    for (int i = 0; i < 30; ++i) {
        send("early-" + std::to_string(i));
        if (i % 10 == 9)
            commit(); // several commits, several sends in each at the same instant
    }
    bench.clock.advance(200'000);
    for (int i = 0; i < 20; ++i)
        send("late-" + std::to_string(i));
    commit();
    auto old = reopen(); // the file's rows come back in key order, not the order they were made
    expectSameBroker(*old, b());
    EXPECT_TRUE(send("early-3").deduplicated);
    EXPECT_TRUE(send("late-3").deduplicated);

    // Past the early records' five minutes: the next send lets them expire, and the commit drops
    // their rows.
    bench.clock.advance(150'000);
    EXPECT_FALSE(send("after").deduplicated);
    commit();
    old = reopen();
    expectSameBroker(*old, b());
    bench.close();
    EXPECT_EQ(rowsOf(path, "deduplication"), 21); // late-0..19 and "after"
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    EXPECT_FALSE(send("early-3").deduplicated);
    EXPECT_TRUE(send("late-3").deduplicated);

    ASSERT_TRUE(b().purgeQueue("f.fifo", PurgeTarget::Normal, "test").ok());
    EXPECT_FALSE(send("post-purge").deduplicated);
    commit();
    bench.close();
    EXPECT_EQ(rowsOf(path, "deduplication"), 1);
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    EXPECT_TRUE(send("post-purge").deduplicated);
    EXPECT_FALSE(send("late-3").deduplicated);
}

// A long random run of mixed operations, committed per call, always reopens to the exact state.
TEST_F(RoundTripTest, randomOperationsReopenToTheExactState)
{
    ASSERT_TRUE(b().createQueue({.name = "dlq"}).ok());
    ASSERT_TRUE(
        b().createQueue({.name = "s", .attributes = {{"RedrivePolicy", redrive(b(), "dlq", 3)}}})
            .ok());
    ASSERT_TRUE(b().createQueue({.name = "fdlq.fifo", .attributes = {{"FifoQueue", "true"}}}).ok());
    ASSERT_TRUE(b().createQueue({.name = "f.fifo",
                                 .attributes = {{"FifoQueue", "true"},
                                                {"ContentBasedDeduplication", "true"},
                                                {"RedrivePolicy", redrive(b(), "fdlq.fifo", 2)}}})
                    .ok());
    commit();
    std::mt19937 random(7);
    std::vector<std::pair<std::string, std::string>> receipts;
    for (int step = 0; step < 1500; ++step) {
        const std::string queue = random() % 2 ? "s" : "f.fifo";
        switch (random() % 6) {
        case 0:
        case 1: {
            SendMessageRequest r{.queue = queue, .body = "m" + std::to_string(random() % 50)};
            r.senderId = std::array{"", "AKIDA", "AKIDB"}[random() % 3];
            if (queue == "f.fifo")
                r.groupId = "g" + std::to_string(random() % 4);
            else if (random() % 4 == 0)
                r.delaySeconds = random() % 5;
            ASSERT_TRUE(b().sendMessage(r).ok());
            break;
        }
        case 2: {
            ReceiveRequest r{.queue = queue, .maxMessages = 1 + random() % 10};
            r.origin = random() % 2 ? "worker-1" : "worker-2";
            r.visibilityTimeout = random() % 3 == 0 ? 0 : 2;
            if (queue == "f.fifo" && random() % 3 == 0)
                r.receiveRequestAttemptId = "a" + std::to_string(random() % 3);
            auto got = b().receiveMessage(r);
            if (got)
                for (const auto& m : got->messages)
                    receipts.emplace_back(queue, m.receiptHandle);
            break;
        }
        case 3:
            if (!receipts.empty()) {
                const auto [q, h] = receipts[random() % receipts.size()];
                (void)b().deleteMessage(q, h, "test");
            }
            break;
        case 4:
            if (!receipts.empty()) {
                const auto [q, h] = receipts[random() % receipts.size()];
                (void)b().changeMessageVisibility(q, h, random() % 3, "test");
            }
            break;
        case 5: bench.clock.advance(random() % 1500); b().advance();
        }
        commit();
        if (step % 500 == 499) {
            b().advance();
            auto old = reopen();
            expectSameBroker(*old, b());
        }
    }
}

} // namespace

namespace {

// The sync mode is a setting of the workspace: SQLite's synchronous follows it at once and after
// reopening; a mode given at open is saved; a file without one has the default (normal).
TEST_F(RoundTripTest, theSyncModeIsSavedInTheWorkspaceAndApplied)
{
    EXPECT_EQ(bench.store->syncMode(), SyncMode::Normal);
    EXPECT_EQ(bench.store->synchronousPragma(), 1); // NORMAL
    ASSERT_TRUE(bench.store->setSyncMode(SyncMode::Full));
    EXPECT_EQ(bench.store->synchronousPragma(), 2); // FULL
    bench.close();
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    EXPECT_EQ(bench.store->syncMode(), SyncMode::Full);
    EXPECT_EQ(bench.store->synchronousPragma(), 2);
    bench.close();
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting, {.sync = SyncMode::Normal}));
    EXPECT_EQ(bench.store->synchronousPragma(), 1);
    bench.close();
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    EXPECT_EQ(bench.store->syncMode(), SyncMode::Normal);
    ASSERT_TRUE(bench.store->checkpoint());

    EXPECT_STREQ(syncModeName(SyncMode::Full), "full");
    EXPECT_EQ(syncModeFromName("normal"), SyncMode::Normal);
    EXPECT_EQ(syncModeFromName("FULL"), std::nullopt);
}

} // namespace
