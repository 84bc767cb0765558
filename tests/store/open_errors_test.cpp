// Every way a workspace can be refused gives a clear message, leaves the file as it was and
// acknowledges nothing that was not stored: not a workspace, damaged, newer format, read-only,
// full disk, in use by another Inflight.
#include "store_fixture.h"

#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace inflight::engine;
using namespace inflight::store;
using namespace inflight::store::testing;

namespace {

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeAll(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class OpenErrorsTest : public ::testing::Test {
protected:
    std::string dir = freshFolder(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::string path = dir + "/w.inflight";

    void TearDown() override { std::filesystem::remove_all(dir); }

    // A closed workspace holding one queue with `count` messages.
    void makeWorkspace(int count = 200)
    {
        Workbench bench;
        ASSERT_TRUE(bench.open(path));
        ASSERT_TRUE(bench.broker->createQueue({.name = "q"}).ok());
        for (int i = 0; i < count; ++i)
            ASSERT_TRUE(
                bench.broker->sendMessage({.queue = "q", .body = std::string(500, 'a' + i % 26)})
                    .ok());
        ASSERT_TRUE(bench.commitNow());
    }

    // Opening `path` fails with `kind`, says `words`, and changes nothing on disk.
    void expectRefused(StoreErrorKind kind, const std::string& words)
    {
        const std::string before = readAll(path);
        auto opened = WorkspaceStore::open(path, OpenMode::OpenExisting);
        ASSERT_FALSE(opened);
        const StoreError& error = opened.error();
        EXPECT_EQ(error.kind, kind) << error.message;
        EXPECT_NE(error.message.find(words), std::string::npos) << error.message;
        EXPECT_NE(error.message.find(path), std::string::npos) << error.message;
        EXPECT_EQ(readAll(path), before);
        EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
    }
};

TEST_F(OpenErrorsTest, aTextFileIsNotAWorkspace)
{
    writeAll(path, "hello, this is not a database\n");
    expectRefused(StoreErrorKind::NotAWorkspace, "not an Inflight workspace");
}

TEST_F(OpenErrorsTest, anotherApplicationsSqliteFileIsNotAWorkspace)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t VALUES (1)", nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
    expectRefused(StoreErrorKind::NotAWorkspace, "another application");
}

TEST_F(OpenErrorsTest, aNewerFormatIsRefused)
{
    makeWorkspace();
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    expectRefused(StoreErrorKind::NewerVersion, "newer Inflight");
}

TEST_F(OpenErrorsTest, aDamagedWorkspaceIsRefusedAndLeftAsItIs)
{
    makeWorkspace();
    std::string bytes = readAll(path);
    ASSERT_GT(bytes.size(), 4096u * 4);
    // Scribble over every page after the schema page: the B-trees of messages and queues.
    for (std::size_t at = 4096 * 2; at < bytes.size(); ++at)
        bytes[at] = static_cast<char>(at * 7);
    writeAll(path, bytes);
    const std::string before = readAll(path);
    Workbench bench;
    auto opened = bench.open(path, OpenMode::OpenExisting);
    ASSERT_FALSE(opened);
    EXPECT_EQ(opened.error().kind, StoreErrorKind::Damaged) << opened.error().message;
    EXPECT_NE(opened.error().message.find("damaged"), std::string::npos) << opened.error().message;
    bench.close();
    EXPECT_EQ(readAll(path), before);
}

TEST_F(OpenErrorsTest, aTruncatedWorkspaceIsDamaged)
{
    makeWorkspace();
    std::string bytes = readAll(path);
    writeAll(path, bytes.substr(0, bytes.size() / 2));
    Workbench bench;
    auto opened = bench.open(path, OpenMode::OpenExisting);
    ASSERT_FALSE(opened);
    EXPECT_EQ(opened.error().kind, StoreErrorKind::Damaged) << opened.error().message;
}

TEST_F(OpenErrorsTest, aWorkspaceOpenElsewhereIsInUse)
{
    makeWorkspace();
    Workbench first;
    ASSERT_TRUE(first.open(path, OpenMode::OpenExisting));
    // Another process (a second Inflight) is refused while the first keeps it open.
    const pid_t child = ::fork();
    if (child == 0) {
        auto opened = WorkspaceStore::open(path, OpenMode::OpenExisting);
        ::_exit(!opened && opened.error().kind == StoreErrorKind::InUse
                        && opened.error().message.find("open in another Inflight")
                            != std::string::npos
                    ? 0
                    : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    // And in this process too.
    auto second = WorkspaceStore::open(path, OpenMode::OpenExisting);
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().kind, StoreErrorKind::InUse) << second.error().message;
    // The first one still works.
    ASSERT_TRUE(first.broker->sendMessage({.queue = "q", .body = std::string("more")}).ok());
    EXPECT_TRUE(first.commitNow());
}

TEST_F(OpenErrorsTest, aFullDiskFailsTheCommitAndKeepsEverythingAcknowledgedBefore)
{
    Workbench bench;
    ASSERT_TRUE(bench.open(path, OpenMode::OpenOrCreate, {.maxPageCount = 40}));
    ASSERT_TRUE(bench.broker->createQueue({.name = "q"}).ok());
    ASSERT_TRUE(bench.commitNow());
    int stored = 0;
    StoreStatus committed = inflight::engine::Done{};
    for (int i = 0; i < 1000 && committed; ++i) {
        ASSERT_TRUE(bench.broker->sendMessage({.queue = "q", .body = std::string(2000, 'x')}).ok());
        committed = bench.commitNow();
        if (committed)
            ++stored;
    }
    ASSERT_FALSE(committed) << "the size limit was never reached";
    const StoreError& error = committed.error();
    EXPECT_EQ(error.kind, StoreErrorKind::DiskFull);
    EXPECT_NE(error.message.find("full"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("not acknowledged"), std::string::npos) << error.message;
    bench.close();
    // Exactly what was committed before the failure comes back: nothing half-written.
    Workbench reopened;
    ASSERT_TRUE(reopened.open(path, OpenMode::OpenExisting));
    EXPECT_EQ(reopened.broker->queueStats("q")->available, stored);
}

TEST_F(OpenErrorsTest, aFailedCommitIsRetriedWithTheSameEventsOnceThereIsRoom)
{
    Workbench bench;
    ASSERT_TRUE(bench.open(path, OpenMode::OpenOrCreate, {.maxPageCount = 30}));
    ASSERT_TRUE(bench.broker->createQueue({.name = "q"}).ok());
    ASSERT_TRUE(bench.commitNow());
    StoreStatus committed = inflight::engine::Done{};
    int sent = 0;
    while (committed && sent < 1000) {
        ASSERT_TRUE(bench.broker->sendMessage({.queue = "q", .body = std::string(2000, 'x')}).ok());
        ++sent;
        committed = bench.commitNow();
    }
    ASSERT_FALSE(committed);
    // Make room: delete most messages; the retry carries the failed events and the new ones.
    auto received = bench.broker->receiveMessage({.queue = "q", .maxMessages = 10});
    for (const auto& m : received->messages)
        ASSERT_TRUE(bench.broker->deleteMessage("q", m.receiptHandle, "test").ok());
    EXPECT_TRUE(bench.commitNow());
    bench.close();
    Workbench reopened;
    ASSERT_TRUE(reopened.open(path, OpenMode::OpenExisting));
    EXPECT_EQ(reopened.broker->queueStats("q")->available
                  + reopened.broker->queueStats("q")->inFlight,
              sent - 10);
}

TEST_F(OpenErrorsTest, aReadOnlyWorkspaceIsRefused)
{
    makeWorkspace();
    if (::geteuid() != 0) {
        std::filesystem::permissions(path, std::filesystem::perms::owner_read);
        expectRefused(StoreErrorKind::ReadOnly, "cannot be written");
        std::filesystem::permissions(path, std::filesystem::perms::owner_all);
        return;
    }
    // root writes through permissions: use a read-only bind mount of the folder instead.
    const std::string view = dir + "-ro";
    std::filesystem::create_directories(view);
    if (::mount(dir.c_str(), view.c_str(), nullptr, MS_BIND, nullptr) != 0)
        GTEST_SKIP() << "cannot bind-mount here (no CAP_SYS_ADMIN)";
    if (::mount(nullptr, view.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0) {
        ::umount(view.c_str());
        GTEST_SKIP() << "cannot remount read-only here";
    }
    const std::string readOnlyPath = view + "/w.inflight";
    const std::string before = readAll(path);
    auto opened = WorkspaceStore::open(readOnlyPath, OpenMode::OpenExisting);
    ::umount(view.c_str());
    std::filesystem::remove_all(view);
    ASSERT_FALSE(opened);
    EXPECT_EQ(opened.error().kind, StoreErrorKind::ReadOnly) << opened.error().message;
    EXPECT_NE(opened.error().message.find("cannot be written"), std::string::npos);
    EXPECT_EQ(readAll(path), before);
}

TEST_F(OpenErrorsTest, aMissingWorkspaceIsNotFoundAndCreateNewRefusesAnExistingFile)
{
    auto missing = WorkspaceStore::open(path, OpenMode::OpenExisting);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, StoreErrorKind::NotFound);
    EXPECT_FALSE(std::filesystem::exists(path));
    makeWorkspace(1);
    auto again = WorkspaceStore::open(path, OpenMode::CreateNew);
    EXPECT_FALSE(again);
}

} // namespace
