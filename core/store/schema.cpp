#include "store/schema.h"

#include <sqlite3.h>

#include <array>
#include <cstdio>
#include <cstring>

namespace inflight::store {

namespace {

struct Migration {
    int version;
    const char* description;
    const char* sql;
};

// Step n takes a file from version n - 1 to n. Never edit a released step: add one.
constexpr std::array kMigrations{
    Migration{1, "queues, messages, deduplication and receive-attempt windows, move tasks, clock",
              R"sql(
CREATE TABLE broker (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    next_queue_id INTEGER NOT NULL,
    random_state INTEGER NOT NULL,
    receipt_key INTEGER NOT NULL,
    deleted_at TEXT NOT NULL,   -- JSON {name: engine ms} of re-create windows still open
    move_tasks TEXT NOT NULL    -- JSON array of move tasks
);
CREATE TABLE clock (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    engine_time INTEGER NOT NULL, -- engine ms at the last save
    paused INTEGER NOT NULL,
    speed REAL NOT NULL,
    saved_at INTEGER NOT NULL     -- wall-clock ms of that save
);
CREATE TABLE queues (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    oci INTEGER NOT NULL,
    attributes TEXT NOT NULL,   -- JSON of the settable attributes, CreateQueue form
    tags TEXT NOT NULL,         -- JSON
    built_in_dlq INTEGER NOT NULL,
    built_in_dlq_name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    modified_at INTEGER NOT NULL,
    last_purge_at INTEGER NOT NULL,
    next_sequence INTEGER NOT NULL,
    sent INTEGER NOT NULL, received INTEGER NOT NULL, deleted INTEGER NOT NULL,
    visibility_expired INTEGER NOT NULL, moved_to_dlq INTEGER NOT NULL,
    retention_expired INTEGER NOT NULL, purged INTEGER NOT NULL, deduplicated INTEGER NOT NULL
);
-- key = queue id * 2^40 + sequence: one B-tree in queue, then sequence order (the restore order).
CREATE TABLE messages (
    key INTEGER PRIMARY KEY,
    slot INTEGER NOT NULL,
    id_high INTEGER NOT NULL,
    id_low INTEGER NOT NULL,
    body BLOB NOT NULL,
    attributes BLOB,            -- record_codec.h; NULL when none
    system_attributes BLOB,
    group_id TEXT,
    deduplication_id TEXT,
    channel_id TEXT,
    dead_letter_source_arn TEXT,
    state INTEGER NOT NULL,     -- 0 delayed, 1 available, 2 in flight
    sent_at INTEGER NOT NULL,
    retention_base INTEGER NOT NULL,
    deadline INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    first_received_at INTEGER NOT NULL,
    receive_count INTEGER NOT NULL,
    receipt_nonce INTEGER NOT NULL,
    visibility_changes INTEGER NOT NULL
);
CREATE TABLE deduplication (
    queue_id INTEGER NOT NULL,
    key BLOB NOT NULL,
    expires_at INTEGER NOT NULL,
    id_high INTEGER NOT NULL,
    id_low INTEGER NOT NULL,
    sequence INTEGER NOT NULL,
    PRIMARY KEY (queue_id, key)
) WITHOUT ROWID;
CREATE TABLE receive_attempts (
    queue_id INTEGER NOT NULL,
    attempt_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    items BLOB NOT NULL,        -- record_codec.h
    PRIMARY KEY (queue_id, attempt_id)
) WITHOUT ROWID;
)sql"},
    Migration{2, "messages: the sender's access key id (SenderId)", R"sql(
ALTER TABLE messages ADD COLUMN sender_id TEXT; -- NULL: none (SenderId is the account id)
)sql"},
    Migration{3,
              "messages: who made the last receive and how the message became visible again "
              "(the message explanations)",
              R"sql(
ALTER TABLE messages ADD COLUMN last_receive_origin TEXT; -- NULL: unknown
-- 0 none, 1 visibility expired, 2 released (visibility set to 0), 3 moved here as a dead letter
ALTER TABLE messages ADD COLUMN return_cause INTEGER NOT NULL DEFAULT 0;
)sql"},
    Migration{4, "the simulation that runs in the workspace (its actors, as a scenario file)",
              R"sql(
CREATE TABLE simulation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    scenario TEXT NOT NULL -- a scenario file (sim/scenario.h) of the actors, without queues
);
)sql"},
    Migration{5, "workspace settings (the sync mode)", R"sql(
CREATE TABLE settings (
    name TEXT PRIMARY KEY, -- 'sync': 'full' or 'normal' (store::SyncMode); none: the default
    value TEXT NOT NULL
) WITHOUT ROWID;
)sql"},
    Migration{6,
              "message_state: a message's state since it was written whole, in a narrow row "
              "of its own (a receive rewrites this row, not the message with its body)",
              R"sql(
-- Present only for a message whose state changed after its row in messages was written; then it
-- holds the state, and the state columns of messages are those of the write. Deleted with the
-- message.
CREATE TABLE message_state (
    key INTEGER PRIMARY KEY,    -- messages.key
    state INTEGER NOT NULL,
    deadline INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    first_received_at INTEGER NOT NULL,
    receive_count INTEGER NOT NULL,
    receipt_nonce INTEGER NOT NULL,
    visibility_changes INTEGER NOT NULL,
    retention_base INTEGER NOT NULL,
    last_receive_origin TEXT,
    return_cause INTEGER NOT NULL
);
)sql"},
    Migration{7,
              "deduplication: an index by sequence, so that a commit drops the expired records "
              "as one range instead of comparing the whole window",
              R"sql(
CREATE INDEX deduplication_by_sequence ON deduplication (queue_id, sequence);
)sql"},
};

static_assert(kMigrations.back().version == kSchemaVersion);

std::int32_t bigEndian32(const unsigned char* p)
{
    return static_cast<std::int32_t>((std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16)
                                     | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]});
}

} // namespace

std::optional<FileHeader> readFileHeader(const std::string& path)
{
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return std::nullopt;
    unsigned char header[100] = {};
    const std::size_t got = std::fread(header, 1, sizeof header, file);
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed)
        return std::nullopt;
    FileHeader result;
    result.empty = got == 0;
    result.sqlite = got == sizeof header && std::memcmp(header, "SQLite format 3", 16) == 0;
    if (result.sqlite) {
        result.userVersion = bigEndian32(header + 60);
        result.applicationId = bigEndian32(header + 68);
    }
    return result;
}

int migrate(Database& db, int fromVersion, std::int64_t now)
{
    int rc = db.exec("BEGIN IMMEDIATE");
    if (rc != SQLITE_OK)
        return rc;
    if (fromVersion == 0)
        rc = db.exec("CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, "
                     "description TEXT NOT NULL, applied_at INTEGER NOT NULL)");
    for (const Migration& step : kMigrations) {
        if (rc != SQLITE_OK)
            break;
        if (step.version <= fromVersion)
            continue;
        rc = db.exec(step.sql);
        if (rc != SQLITE_OK)
            break;
        Statement record = db.prepare(
            "INSERT INTO migrations (version, description, applied_at) VALUES (?1, ?2, ?3)");
        rc = record.bind(1, std::int64_t{step.version})
                 .bindText(2, step.description)
                 .bind(3, now)
                 .run();
        if (rc == SQLITE_DONE)
            rc = SQLITE_OK;
    }
    if (rc == SQLITE_OK)
        rc = db.exec("PRAGMA application_id = " + std::to_string(kApplicationId)
                     + "; PRAGMA user_version = " + std::to_string(kSchemaVersion));
    if (rc == SQLITE_OK)
        rc = db.exec("COMMIT");
    if (rc != SQLITE_OK) {
        const int failed = db.extendedCode();
        db.exec("ROLLBACK");
        return failed != SQLITE_OK ? failed : rc;
    }
    return SQLITE_OK;
}

} // namespace inflight::store
