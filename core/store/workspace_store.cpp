// Opening a workspace (every refusal before anything is written), restoring it into a broker,
// and whole-file saves. The per-batch commit is in workspace_commit.cpp.
#include "store/workspace_store.h"

#include "store/message_state_row.h"
#include "store/record_codec.h"
#include "store/schema.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <unistd.h>

namespace inflight::store {

namespace {

engine::Millis wallNow()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string folderOf(const std::string& path)
{
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

StoreError notAWorkspace(const std::string& path, const std::string& what)
{
    return {StoreErrorKind::NotAWorkspace,
            "The file " + path + " is not an Inflight workspace (" + what
                + "). It was left as it is; choose a workspace file (.inflight) or create a new "
                  "one."};
}

StoreError newerVersion(const std::string& path, int version)
{
    return {StoreErrorKind::NewerVersion,
            "The workspace " + path + " was saved by a newer Inflight (workspace format "
                + std::to_string(version) + "; this version reads up to "
                + std::to_string(kSchemaVersion)
                + "). It was left as it is; open it with a newer Inflight."};
}

StoreError readOnly(const std::string& path, const std::string& what)
{
    return {StoreErrorKind::ReadOnly,
            "The workspace " + path + " cannot be written: " + what
                + ". It was left as it is; allow writing, or copy it somewhere writable."};
}

} // namespace

engine::Millis resumeTime(const ClockRecord& saved, engine::Millis wallNow)
{
    return std::max(saved.engineTime, wallNow);
}

WorkspaceStore::WorkspaceStore(std::string path, StoreOptions options)
    : m_path(std::move(path)), m_options(options)
{
}

WorkspaceStore::~WorkspaceStore()
{
    if (m_db.isOpen()) {
        // Fold the WAL into the file so a closed workspace is one file.
        m_db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    }
}

StoreResult<std::unique_ptr<WorkspaceStore>> WorkspaceStore::open(const std::string& path,
                                                                  OpenMode mode,
                                                                  StoreOptions options)
{
    std::unique_ptr<WorkspaceStore> store(new WorkspaceStore(path, options));
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    if (auto initialised = store->initialise(mode, exists); !initialised) {
        store->m_db.close(); // a refused file is closed without a checkpoint
        return initialised.error();
    }
    return std::move(store);
}

StoreError WorkspaceStore::fail(int code, const std::string& doing)
{
    return storeErrorFromSqlite(code, m_path, doing, m_db.isOpen() ? m_db.message() : "");
}

StoreStatus WorkspaceStore::initialise(OpenMode mode, bool exists)
{
    bool fresh = !exists;
    if (exists) {
        std::error_code ec;
        if (std::filesystem::is_directory(m_path, ec))
            return notAWorkspace(m_path, "it is a folder");
        const auto header = readFileHeader(m_path);
        if (!header)
            return StoreError{StoreErrorKind::Io,
                              "The file " + m_path + " cannot be read (no permission?)."};
        if (header->empty) {
            fresh = true;
        } else {
            if (mode == OpenMode::CreateNew)
                return StoreError{StoreErrorKind::Io,
                                  "The file " + m_path + " already exists; choose another name."};
            if (!header->sqlite)
                return notAWorkspace(m_path, "it is not a SQLite database");
            if (header->applicationId != kApplicationId)
                return notAWorkspace(m_path, "it is a SQLite database of another application");
            if (header->userVersion > kSchemaVersion)
                return newerVersion(m_path, header->userVersion);
        }
        if (::access(m_path.c_str(), W_OK) != 0)
            return readOnly(m_path, "the file is read-only");
    } else if (mode == OpenMode::OpenExisting) {
        return StoreError{StoreErrorKind::NotFound, "There is no workspace at " + m_path + "."};
    }
    if (::access(folderOf(m_path).c_str(), W_OK) != 0)
        return readOnly(m_path, "its folder " + folderOf(m_path) + " is read-only");

    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (fresh)
        flags |= SQLITE_OPEN_CREATE;
    int rc = m_db.open(m_path, flags);
    if (rc != SQLITE_OK)
        return storeErrorFromSqlite(rc, m_path, "opening", sqlite3_errstr(rc));
    if (sqlite3_db_readonly(m_db.handle(), "main") == 1)
        return readOnly(m_path, "the file or its disk is read-only");

    // Held for as long as the workspace is open: a second Inflight gets SQLITE_BUSY (InUse).
    rc = m_db.exec("PRAGMA locking_mode = EXCLUSIVE");
    if (rc != SQLITE_OK)
        return fail(rc, "opening");

    int version = 0;
    if (!fresh) {
        // Read-only checks first: nothing is written to a file we are going to refuse.
        Statement pragma = m_db.prepare("PRAGMA application_id");
        if (!pragma.ok())
            return fail(pragma.code(), "opening");
        rc = pragma.step();
        if (rc != SQLITE_ROW)
            return fail(rc, "opening");
        if (pragma.int64(0) != kApplicationId)
            return notAWorkspace(m_path, "it is a SQLite database of another application");
        Statement userVersion = m_db.prepare("PRAGMA user_version");
        if (!userVersion.ok() || userVersion.step() != SQLITE_ROW)
            return fail(userVersion.code(), "opening");
        version = static_cast<int>(userVersion.int64(0));
        if (version > kSchemaVersion)
            return newerVersion(m_path, version);
        Statement schema = m_db.prepare("SELECT count(*) FROM sqlite_master");
        if (!schema.ok())
            return fail(schema.code(), "opening");
        rc = schema.step();
        if (rc != SQLITE_ROW)
            return fail(rc, "opening");
    }

    if (fresh || version < kSchemaVersion) {
        if (fresh) {
            // The first transaction goes straight into the main file (rollback journal), so the
            // header with the application id is on disk before the file turns to WAL.
            rc = m_db.exec("PRAGMA journal_mode = DELETE");
            if (rc != SQLITE_OK)
                return fail(rc, "creating");
        }
        rc = migrate(m_db, version, wallNow());
        if (rc != SQLITE_OK)
            return fail(rc, fresh ? "creating" : "updating the workspace format");
    }
    rc = m_db.exec("PRAGMA journal_mode = WAL");
    // SQLite folds the WAL into the file (a checkpoint, with two syncs) every 1,000 pages by
    // default: 15 times a second under a receive load, each writing the same hot pages (queue,
    // broker, clock, the ends of the message tables) again. At 16,384 pages (a WAL of at most
    // 64 MB, emptied by the checkpoint that normal mode runs every second anyway, and truncated
    // at close) the receive + delete load ran 6-10% faster and SendMessage 0-10% (alternated
    // with the default, docs/PERFORMANCE.md, session 15). What a crash keeps does not change: a
    // commit is in the WAL either way.
    if (rc == SQLITE_OK)
        rc = m_db.exec("PRAGMA wal_autocheckpoint = 16384");
    if (rc != SQLITE_OK)
        return fail(rc, "opening");
    // The page cache at SQLite's default (2 MB): the receive + delete load ran 10-20% faster with
    // it than with 32 MB, whose hash table each commit walks (pcache1Truncate).
    rc = m_db.exec("PRAGMA temp_store = MEMORY");
    if (rc == SQLITE_OK && m_options.maxPageCount > 0)
        rc = m_db.exec("PRAGMA max_page_count = " + std::to_string(m_options.maxPageCount));
    if (rc != SQLITE_OK)
        return fail(rc, "opening");
    // Take the write lock now, so "in use" shows at open and not at the first change.
    rc = m_db.exec("BEGIN IMMEDIATE; COMMIT");
    if (rc != SQLITE_OK)
        return fail(rc, "opening");

    Statement clock
        = m_db.prepare("SELECT engine_time, paused, speed, saved_at FROM clock WHERE id = 1");
    if (!clock.ok())
        return fail(clock.code(), "reading");
    rc = clock.step();
    if (rc == SQLITE_ROW)
        m_savedClock
            = ClockRecord{clock.int64(0), clock.int64(1) != 0, clock.real(2), clock.int64(3)};
    else if (rc != SQLITE_DONE)
        return fail(rc, "reading");

    Statement simulation = m_db.prepare("SELECT scenario FROM simulation WHERE id = 1");
    if (!simulation.ok())
        return fail(simulation.code(), "reading");
    rc = simulation.step();
    if (rc == SQLITE_ROW)
        m_savedSimulation = simulation.string(0);
    else if (rc != SQLITE_DONE)
        return fail(rc, "reading");

    Statement sync = m_db.prepare("SELECT value FROM settings WHERE name = 'sync'");
    if (!sync.ok())
        return fail(sync.code(), "reading");
    rc = sync.step();
    if (rc == SQLITE_ROW)
        m_syncMode = syncModeFromName(sync.string(0)).value_or(kDefaultSyncMode);
    else if (rc != SQLITE_DONE)
        return fail(rc, "reading");
    sync = {};
    if (m_options.sync) {
        if (auto saved = setSyncMode(*m_options.sync); !saved)
            return saved;
    } else if (rc = applySyncMode(); rc != SQLITE_OK) {
        return fail(rc, "opening");
    }

    if (auto prepared = prepareStatements(); !prepared)
        return prepared;
    return loadMirrors();
}

const char* syncModeName(SyncMode mode)
{
    return mode == SyncMode::Full ? "full" : "normal";
}

std::optional<SyncMode> syncModeFromName(std::string_view name)
{
    if (name == "full")
        return SyncMode::Full;
    if (name == "normal")
        return SyncMode::Normal;
    return std::nullopt;
}

int WorkspaceStore::applySyncMode()
{
    return m_db.exec(m_syncMode == SyncMode::Full ? "PRAGMA synchronous = FULL"
                                                  : "PRAGMA synchronous = NORMAL");
}

StoreStatus WorkspaceStore::setSyncMode(SyncMode mode)
{
    Statement write
        = m_db.prepare("INSERT OR REPLACE INTO settings (name, value) VALUES ('sync', ?1)");
    if (!write.ok())
        return fail(write.code(), "saving");
    if (const int rc = write.bindText(1, syncModeName(mode)).run(); rc != SQLITE_DONE)
        return fail(rc, "saving");
    m_syncMode = mode;
    if (const int rc = applySyncMode(); rc != SQLITE_OK)
        return fail(rc, "saving");
    // What was committed before is on the disk too from now on.
    return mode == SyncMode::Full ? checkpoint() : StoreStatus(engine::Done{});
}

StoreStatus WorkspaceStore::checkpoint()
{
    const int rc = sqlite3_wal_checkpoint_v2(m_db.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                             nullptr, nullptr);
    if (rc != SQLITE_OK)
        return fail(rc, "saving");
    return engine::Done{};
}

int WorkspaceStore::synchronousPragma()
{
    Statement read = m_db.prepare("PRAGMA synchronous");
    return read.ok() && read.step() == SQLITE_ROW ? static_cast<int>(read.int64(0)) : -1;
}

StoreStatus WorkspaceStore::prepareStatements()
{
    struct Entry {
        Statement* statement;
        std::string sql;
    };
    const Entry entries[] = {
        {&m_insertMessage,
         std::string("INSERT OR REPLACE INTO messages (key, slot, id_high, id_low, body, "
                     "attributes, system_attributes, group_id, deduplication_id, channel_id, "
                     "dead_letter_source_arn, sent_at, sender_id, ")
             + kStateColumns
             + ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
               "?17, ?18, ?19, ?20, ?21, ?22, ?23)"},
        {&m_writeState,
         std::string("INSERT OR REPLACE INTO message_state (key, ") + kStateColumns
             + ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"},
        {&m_deleteMessageRange, "DELETE FROM messages WHERE key >= ?1 AND key < ?2"},
        {&m_deleteStateRange, "DELETE FROM message_state WHERE key >= ?1 AND key < ?2"},
        {&m_insertQueue,
         "INSERT OR REPLACE INTO queues (id, name, oci, attributes, tags, built_in_dlq, "
         "built_in_dlq_name, created_at, modified_at, last_purge_at, next_sequence, sent, "
         "received, deleted, visibility_expired, moved_to_dlq, retention_expired, purged, "
         "deduplicated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
         "?16, ?17, ?18, ?19)"},
        {&m_deleteQueue, "DELETE FROM queues WHERE id = ?1"},
        {&m_updateCounters,
         "UPDATE queues SET next_sequence = max(next_sequence, ?2), sent = ?3, received = ?4, "
         "deleted = ?5, visibility_expired = ?6, moved_to_dlq = ?7, retention_expired = ?8, "
         "purged = ?9, deduplicated = ?10 WHERE id = ?1"},
        {&m_upsertDedup,
         "INSERT OR REPLACE INTO deduplication (queue_id, key, expires_at, id_high, id_low, "
         "sequence) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"},
        {&m_deleteDedupBefore, "DELETE FROM deduplication WHERE queue_id = ?1 AND sequence < ?2"},
        {&m_deleteDedupOf, "DELETE FROM deduplication WHERE queue_id = ?1"},
        {&m_upsertAttempt,
         "INSERT OR REPLACE INTO receive_attempts (queue_id, attempt_id, expires_at, items) "
         "VALUES (?1, ?2, ?3, ?4)"},
        {&m_deleteAttempt, "DELETE FROM receive_attempts WHERE queue_id = ?1 AND attempt_id = ?2"},
        {&m_deleteAttemptsOf, "DELETE FROM receive_attempts WHERE queue_id = ?1"},
        {&m_updateBroker, // an upsert, as the clock's below
         "INSERT INTO broker (id, next_queue_id, random_state, receipt_key, deleted_at, "
         "move_tasks) VALUES (1, ?1, ?2, ?3, ?4, ?5) ON CONFLICT (id) DO UPDATE SET "
         "next_queue_id = excluded.next_queue_id, random_state = excluded.random_state, "
         "receipt_key = excluded.receipt_key, deleted_at = excluded.deleted_at, "
         "move_tasks = excluded.move_tasks"},
        {&m_writeClock,
         // An upsert, not INSERT OR REPLACE: the row is updated in place, not deleted and
         // inserted again at every commit.
         "INSERT INTO clock (id, engine_time, paused, speed, saved_at) VALUES (1, ?1, ?2, ?3, ?4) "
         "ON CONFLICT (id) DO UPDATE SET engine_time = excluded.engine_time, "
         "paused = excluded.paused, speed = excluded.speed, saved_at = excluded.saved_at"},
        {&m_begin, "BEGIN IMMEDIATE"},
        {&m_commit, "COMMIT"},
    };
    for (const Entry& e : entries) {
        *e.statement = m_db.prepare(e.sql);
        if (!e.statement->ok())
            return fail(e.statement->code(), "preparing");
    }
    return engine::Done{};
}

StoreStatus WorkspaceStore::loadMirrors()
{
    m_queues.clear();
    Statement queues = m_db.prepare("SELECT id, name, attributes, oci FROM queues");
    if (!queues.ok())
        return fail(queues.code(), "reading");
    int rc;
    while ((rc = queues.step()) == SQLITE_ROW) {
        QueueMirror& q = m_queues[static_cast<std::uint32_t>(queues.int64(0))];
        q.name = queues.string(1);
        const auto attributes = stringMapFromJson(queues.bytes(2));
        q.fifo = queues.int64(3) == 0 && attributes && attributes->count("FifoQueue")
            && attributes->at("FifoQueue") == "true";
    }
    if (rc != SQLITE_DONE)
        return fail(rc, "reading");
    // The file holds every record the engine will restore: the next ones start past the last.
    Statement dedup
        = m_db.prepare("SELECT queue_id, max(sequence) FROM deduplication GROUP BY queue_id");
    if (!dedup.ok())
        return fail(dedup.code(), "reading");
    while ((rc = dedup.step()) == SQLITE_ROW) {
        auto it = m_queues.find(static_cast<std::uint32_t>(dedup.int64(0)));
        if (it != m_queues.end())
            it->second.dedupWrittenBelow = static_cast<std::uint64_t>(dedup.int64(1)) + 1;
    }
    if (rc != SQLITE_DONE)
        return fail(rc, "reading");
    Statement attempts
        = m_db.prepare("SELECT queue_id, attempt_id, expires_at, items FROM receive_attempts");
    while ((rc = attempts.step()) == SQLITE_ROW) {
        auto it = m_queues.find(static_cast<std::uint32_t>(attempts.int64(0)));
        if (it != m_queues.end())
            it->second.attempts[attempts.string(1)] = {attempts.int64(2), attempts.string(3)};
    }
    if (rc != SQLITE_DONE)
        return fail(rc, "reading");
    return engine::Done{};
}

StoreStatus WorkspaceStore::restore(engine::Broker& broker)
{
    const auto invalid = [this](const std::string& what) {
        return StoreError{StoreErrorKind::InvalidContent,
                          "The workspace " + m_path + " holds " + what
                              + " that Inflight cannot restore. It was left as it is."};
    };
    Statement brokerRow = m_db.prepare(
        "SELECT next_queue_id, random_state, receipt_key, deleted_at, move_tasks FROM broker");
    int rc = brokerRow.step();
    if (rc == SQLITE_DONE) {
        broker.finishRestore(); // a new workspace: nothing saved yet
        return engine::Done{};
    }
    if (rc != SQLITE_ROW)
        return fail(rc, "reading");
    engine::BrokerRecord br;
    br.nextQueueId = static_cast<std::uint32_t>(brokerRow.int64(0));
    br.randomState = static_cast<std::uint64_t>(brokerRow.int64(1));
    br.receiptKey = static_cast<std::uint64_t>(brokerRow.int64(2));
    auto deletedAt = deletedAtFromJson(brokerRow.bytes(3));
    auto tasks = moveTasksFromJson(brokerRow.bytes(4));
    if (!deletedAt || !tasks)
        return invalid("a broker record");
    br.deletedAt = std::move(*deletedAt);
    br.moveTasks = std::move(*tasks);
    if (auto s = broker.restoreBroker(br); !s)
        return invalid("a broker record (" + engine::describe(s.error()) + ")");

    Statement queues = m_db.prepare(
        "SELECT id, name, oci, attributes, tags, built_in_dlq, built_in_dlq_name, created_at, "
        "modified_at, last_purge_at, next_sequence, sent, received, deleted, visibility_expired, "
        "moved_to_dlq, retention_expired, purged, deduplicated FROM queues "
        "ORDER BY built_in_dlq, id");
    Statement dedup
        = m_db.prepare("SELECT key, expires_at, id_high, id_low, sequence FROM "
                       "deduplication WHERE queue_id = ?1 AND expires_at > ?2 ORDER BY expires_at");
    Statement attempts = m_db.prepare(
        "SELECT attempt_id, expires_at, items FROM "
        "receive_attempts WHERE queue_id = ?1 AND expires_at > ?2 ORDER BY expires_at");
    std::unordered_map<std::uint32_t, std::string> names;
    while ((rc = queues.step()) == SQLITE_ROW) {
        engine::QueueRecord q;
        q.id = static_cast<std::uint32_t>(queues.int64(0));
        q.name = queues.string(1);
        q.oci = queues.int64(2) != 0;
        auto attributes = stringMapFromJson(queues.bytes(3));
        auto tags = stringMapFromJson(queues.bytes(4));
        if (!attributes || !tags)
            return invalid("the attributes of queue " + q.name);
        q.attributes = std::move(*attributes);
        q.tags = std::move(*tags);
        q.isBuiltInDeadLetter = queues.int64(5) != 0;
        q.builtInDeadLetterName = queues.string(6);
        q.createdAt = queues.int64(7);
        q.lastModifiedAt = queues.int64(8);
        q.lastPurgeAt = queues.int64(9);
        q.nextSequence = static_cast<std::uint64_t>(queues.int64(10));
        q.counters.sent = queues.int64(11);
        q.counters.received = queues.int64(12);
        q.counters.deleted = queues.int64(13);
        q.counters.visibilityExpired = queues.int64(14);
        q.counters.movedToDeadLetter = queues.int64(15);
        q.counters.retentionExpired = queues.int64(16);
        q.counters.purged = queues.int64(17);
        q.counters.deduplicated = queues.int64(18);
        // Windows that ended while the workspace was closed are not restored.
        const engine::Millis now = broker.clock().now();
        dedup.bind(1, static_cast<std::int64_t>(q.id)).bind(2, now);
        while ((rc = dedup.step()) == SQLITE_ROW)
            q.deduplication.push_back({dedup.string(0), dedup.int64(1),
                                       static_cast<std::uint64_t>(dedup.int64(2)),
                                       static_cast<std::uint64_t>(dedup.int64(3)),
                                       static_cast<std::uint64_t>(dedup.int64(4))});
        dedup.reset();
        if (rc != SQLITE_DONE)
            return fail(rc, "reading");
        attempts.bind(1, static_cast<std::int64_t>(q.id)).bind(2, now);
        while ((rc = attempts.step()) == SQLITE_ROW) {
            auto items = decodeAttemptItems(attempts.bytes(2));
            if (!items)
                return invalid("a receive attempt of queue " + q.name);
            q.attempts.push_back({attempts.string(0), attempts.int64(1), std::move(*items)});
        }
        attempts.reset();
        if (rc != SQLITE_DONE)
            return fail(rc, "reading");
        names[q.id] = q.name;
        if (auto s = broker.restoreQueue(q); !s)
            return invalid("queue " + q.name + " (" + engine::describe(s.error()) + ")");
    }
    if (rc != SQLITE_DONE)
        return fail(rc, "reading");

    Statement messages = m_db.prepare(
        std::string("SELECT key, slot, id_high, id_low, body, attributes, system_attributes, "
                    "group_id, deduplication_id, channel_id, dead_letter_source_arn, sent_at, "
                    "sender_id, ")
        + kStateColumns + " FROM messages ORDER BY key");
    // The states that changed since their message was written, read alongside in the same key
    // order (a merge, not a look-up per message).
    Statement states = m_db.prepare(std::string("SELECT key, ") + kStateColumns
                                    + " FROM message_state ORDER BY key");
    int stateRc = states.step();
    std::uint32_t currentQueue = 0;
    const std::string* currentName = nullptr;
    while ((rc = messages.step()) == SQLITE_ROW) {
        const auto key = static_cast<std::uint64_t>(messages.int64(0));
        const auto queueId = static_cast<std::uint32_t>(key >> 40);
        if (!currentName || queueId != currentQueue) {
            auto it = names.find(queueId);
            if (it == names.end())
                continue; // a row of a queue that is gone (cannot happen in a file we wrote)
            currentQueue = queueId;
            currentName = &it->second;
        }
        engine::MessageRecord m;
        m.sequence = key & ((std::uint64_t{1} << 40) - 1);
        m.slot = static_cast<std::uint32_t>(messages.int64(1));
        m.idHigh = static_cast<std::uint64_t>(messages.int64(2));
        m.idLow = static_cast<std::uint64_t>(messages.int64(3));
        m.body = messages.string(4);
        if (!messages.isNull(5) || !messages.isNull(6)) {
            auto attributes = decodeAttributes(messages.bytes(5));
            auto system = decodeAttributes(messages.bytes(6));
            if (!attributes || !system)
                return invalid("the attributes of a message in " + *currentName);
            m.attributes = std::move(*attributes);
            m.systemAttributes = std::move(*system);
        }
        m.groupId = messages.string(7);
        m.deduplicationId = messages.string(8);
        m.channelId = messages.string(9);
        m.deadLetterSourceArn = messages.string(10);
        m.sentAt = messages.int64(11);
        m.senderId = messages.string(12); // NULL reads as ""
        readState(messages, 13, m);
        while (stateRc == SQLITE_ROW && static_cast<std::uint64_t>(states.int64(0)) < key)
            stateRc = states.step(); // a state without its message (cannot happen either)
        if (stateRc == SQLITE_ROW && static_cast<std::uint64_t>(states.int64(0)) == key)
            readState(states, 1, m);
        if (auto s = broker.restoreMessage(*currentName, std::move(m)); !s)
            return invalid("a message of " + *currentName + " (" + engine::describe(s.error())
                           + ")");
    }
    if (rc != SQLITE_DONE)
        return fail(rc, "reading");
    if (stateRc != SQLITE_ROW && stateRc != SQLITE_DONE)
        return fail(stateRc, "reading");
    broker.finishRestore();
    return engine::Done{};
}

StoreStatus WorkspaceStore::saveClock(const ClockRecord& clock)
{
    const int rc = writeClock(clock);
    if (rc != SQLITE_DONE)
        return fail(rc, "saving");
    return engine::Done{};
}

StoreStatus WorkspaceStore::saveSimulation(const std::string& scenario)
{
    if (scenario == m_savedSimulation)
        return engine::Done{};
    Statement write = scenario.empty()
        ? m_db.prepare("DELETE FROM simulation")
        : m_db.prepare("INSERT OR REPLACE INTO simulation (id, scenario) VALUES (1, ?1)");
    if (!write.ok())
        return fail(write.code(), "saving");
    if (!scenario.empty())
        write.bindText(1, scenario);
    const int rc = write.run();
    if (rc != SQLITE_DONE)
        return fail(rc, "saving");
    m_savedSimulation = scenario;
    return engine::Done{};
}

StoreError WorkspaceStore::rollback(int code, const std::string& doing)
{
    auto error = fail(code, doing);
    m_db.exec("ROLLBACK");
    // What the in-memory mirrors say may have been rolled back with the transaction.
    (void)loadMirrors();
    return error;
}

StoreStatus WorkspaceStore::saveAll(engine::Broker& broker, const ClockRecord& clock)
{
    int rc = m_db.exec("BEGIN IMMEDIATE");
    if (rc != SQLITE_OK)
        return fail(rc, "saving");
    rc = m_db.exec("DELETE FROM messages; DELETE FROM message_state; DELETE FROM deduplication; "
                   "DELETE FROM "
                   "receive_attempts; DELETE FROM queues; DELETE FROM broker");
    if (rc != SQLITE_OK)
        return rollback(m_db.extendedCode(), "saving");
    m_queues.clear();
    const auto ok = [](int code) { return code == SQLITE_DONE || code == SQLITE_OK; };
    for (const engine::QueueRecord& q : broker.queueRecords()) {
        if (!ok(rc = writeQueue(q)))
            return rollback(rc, "saving");
        QueueMirror& mirror = m_queues[q.id];
        mirror.name = q.name;
        mirror.fifo
            = !q.oci && q.attributes.count("FifoQueue") && q.attributes.at("FifoQueue") == "true";
        if (!ok(rc = writeWindows(broker, q.id, q.name, true, mirror)))
            return rollback(rc, "saving");
        const auto visited = broker.forEachMessage(q.name, [&](const engine::MessageRecord& m) {
            if (ok(rc))
                rc = writeMessage(q.id, m);
        });
        (void)visited;
        if (!ok(rc))
            return rollback(rc, "saving");
    }
    return finishSaving(broker, clock);
}

StoreStatus WorkspaceStore::finishSaving(engine::Broker& broker, const ClockRecord& clock)
{
    int rc = writeBroker(broker.brokerRecord());
    if (rc == SQLITE_DONE || rc == SQLITE_OK)
        rc = writeClock(clock);
    if (rc != SQLITE_DONE && rc != SQLITE_OK)
        return rollback(rc, "saving");
    if (m_commit.run() != SQLITE_DONE) // (the step's error is the connection's after the reset)
        return rollback(m_db.extendedCode(), "saving");
    ++m_commits;
    return engine::Done{};
}

} // namespace inflight::store
