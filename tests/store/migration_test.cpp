// A workspace written before a schema step opens: it is migrated in place and its messages come
// back, with what the older file could not hold at its defaults (SenderId the account id, no
// origin of the last receive, no return cause).
#include "store/schema.h"
#include "store_fixture.h"

#include <sqlite3.h>

using namespace inflight::engine;
using namespace inflight::store;
using namespace inflight::store::testing;

namespace {

class MigrationTest : public ::testing::Test {
protected:
    std::string dir = freshFolder(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path = dir + "/w.inflight";
    Workbench bench;

    void TearDown() override { std::filesystem::remove_all(dir); }

    // Turns the closed workspace at `path` into one of schema 1: the columns and tables later
    // steps added dropped, their migrations forgotten.
    void downgradeToVersion1()
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        char* error = nullptr;
        const int rc = sqlite3_exec(db,
                                    "ALTER TABLE messages DROP COLUMN sender_id; "
                                    "ALTER TABLE messages DROP COLUMN last_receive_origin; "
                                    "ALTER TABLE messages DROP COLUMN return_cause; "
                                    "DROP TABLE simulation; "
                                    "DROP TABLE settings; "
                                    "DROP TABLE message_state; "
                                    "DROP INDEX deduplication_by_sequence; "
                                    "DELETE FROM migrations WHERE version > 1; "
                                    "PRAGMA user_version = 1",
                                    nullptr, nullptr, &error);
        EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
        sqlite3_free(error);
        sqlite3_close(db);
    }

    int userVersion()
    {
        auto header = readFileHeader(path);
        return header ? header->userVersion : -1;
    }
};

TEST_F(MigrationTest, aVersion1WorkspaceOpensWithItsMessages)
{
    ASSERT_TRUE(bench.open(path));
    ASSERT_TRUE(bench.broker->createQueue({.name = "q"}).ok());
    SendMessageRequest send{.queue = "q", .body = std::string("old")};
    send.senderId = "AKIDOLD";
    ASSERT_TRUE(bench.broker->sendMessage(send).ok());
    ASSERT_TRUE(bench.broker->receiveMessage({.queue = "q", .origin = "old-worker"}).ok());
    ASSERT_TRUE(bench.commitNow());
    bench.close();
    downgradeToVersion1();
    ASSERT_EQ(userVersion(), 1);

    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    auto peeked = bench.broker->peekMessages("q");
    ASSERT_EQ(peeked->size(), 1u);
    auto record = bench.broker->messageRecord("q", peeked->at(0).key);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record->body, "old");
    EXPECT_EQ(record->state, MessageState::InFlight);
    EXPECT_EQ(record->receiveCount, 1u);
    EXPECT_EQ(record->senderId, "");
    EXPECT_EQ(record->lastReceiveOrigin, "");
    EXPECT_EQ(record->returnCause, ReturnCause::None);

    // The migrated file takes the new facts from now on.
    send.body = "new";
    ASSERT_TRUE(bench.broker->sendMessage(send).ok());
    ASSERT_TRUE(bench.commitNow());
    bench.close();
    EXPECT_EQ(userVersion(), kSchemaVersion); // read from the file: once closed, not in the WAL
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    std::vector<std::string> senders;
    ASSERT_TRUE(
        bench.broker
            ->forEachMessage(
                "q", [&](const MessageRecord& m) { senders.push_back(m.body + "=" + m.senderId); })
            .ok());
    EXPECT_EQ(senders, (std::vector<std::string>{"old=", "new=AKIDOLD"}));
    // Schema 4: the simulation, none in an older file, kept once saved.
    EXPECT_EQ(bench.store->savedSimulation(), "");
    ASSERT_TRUE(bench.store->saveSimulation(R"({"version": 1, "actors": []})"));
    bench.close();
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    EXPECT_EQ(bench.store->savedSimulation(), R"({"version": 1, "actors": []})");
    ASSERT_TRUE(bench.store->saveSimulation(""));
    bench.close();
    ASSERT_TRUE(bench.open(path, OpenMode::OpenExisting));
    EXPECT_EQ(bench.store->savedSimulation(), "");
    // Schema 5: the settings; an older file has the default sync mode.
    EXPECT_EQ(bench.store->syncMode(), kDefaultSyncMode);
}

} // namespace
