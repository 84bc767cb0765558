#pragma once

#include "engine/broker.h"
#include "store/sqlite.h"
#include "store/store_error.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace inflight::store {

// The engine clock as a workspace keeps it.
struct ClockRecord {
    engine::Millis engineTime = 0; // engine time when saved
    bool paused = false;
    double speed = 1.0;
    engine::Millis savedAt = 0; // wall-clock time when saved
};

// Engine time for a workspace reopened at wall-clock `wallNow`: the real service's clock kept
// running while the app was closed, and a clock the user ran ahead is never moved back, so
// max(saved engine time, wallNow). docs/BEHAVIOUR.md ("Time") states it for users.
engine::Millis resumeTime(const ClockRecord& saved, engine::Millis wallNow);

enum class OpenMode {
    OpenExisting, // the file must exist and be a workspace
    CreateNew,    // the file must not exist, or be empty
    OpenOrCreate,
};

// How far a commit goes before the change it holds is acknowledged: a workspace setting, saved in
// the file (README "Workspaces" and docs/BEHAVIOUR.md "Durability" say it for users).
enum class SyncMode {
    // synchronous=FULL: the WAL is flushed to the disk (fdatasync) at every commit, before the
    // request that made the change is answered. Nothing acknowledged is lost to a crash of the
    // app, of the OS or to a power cut (given a disk that keeps what it says it wrote).
    Full,
    // synchronous=NORMAL: every commit is written to the WAL (the OS holds it) before the answer,
    // and the WAL is flushed to the disk by a checkpoint at least once a second while changes come
    // (checkpoint()). Nothing acknowledged is lost to a crash of the app (kill -9 included); a
    // crash of the OS or a power cut loses at most the last second of changes and leaves the
    // workspace as it was at an earlier commit, never damaged.
    Normal,
};
inline constexpr SyncMode kDefaultSyncMode = SyncMode::Normal;
// "full", "normal".
const char* syncModeName(SyncMode mode);
std::optional<SyncMode> syncModeFromName(std::string_view name);

struct StoreOptions {
    // Set (and save) this sync mode at open; nullopt: the file's own (kDefaultSyncMode if none).
    std::optional<SyncMode> sync;
    // A size limit in pages (0 = none); the tests use it to fill the "disk".
    std::int64_t maxPageCount = 0;
};

// One workspace: a SQLite file (WAL, exclusive lock while open) holding everything a Broker
// knows. Open it, restore() into an empty broker, then commit() each batch of the broker's events
// as they come: each commit is one transaction that writes the current state of everything the
// events touched (group commit), so the file always holds a state the engine was in. A failed
// commit leaves the file as it was before it; pass the same events again (with newer ones) to
// retry. Single-threaded; not tied to Qt.
class WorkspaceStore {
public:
    // Opens or creates the workspace at `path`. Never changes a file it refuses (not a workspace,
    // damaged, newer schema, read-only, in use). An older schema is migrated.
    static StoreResult<std::unique_ptr<WorkspaceStore>> open(const std::string& path, OpenMode mode,
                                                             StoreOptions options = {});
    ~WorkspaceStore();
    WorkspaceStore(const WorkspaceStore&) = delete;
    WorkspaceStore& operator=(const WorkspaceStore&) = delete;

    const std::string& path() const { return m_path; }
    // The clock as last saved; nullopt for a workspace that holds no state yet.
    std::optional<ClockRecord> savedClock() const { return m_savedClock; }

    // Restores everything into `broker`, which must have no queues and whose clock should start
    // at resumeTime(*savedClock(), now); then calls finishRestore() (what fell due while closed
    // happens now, as events). InvalidContent or Damaged on records it cannot read; the broker is
    // then half-filled and should be dropped.
    StoreStatus restore(engine::Broker& broker);

    // Makes the effects of `events` durable in one transaction: for each message, queue and task
    // the events name, the broker's current state of it, plus the broker's ids and random state
    // and the clock. `broker` must be the one the events came from.
    StoreStatus commit(engine::Broker& broker, std::span<const engine::Event> events,
                       const ClockRecord& clock);
    // Replaces the file's content with everything `broker` holds (Save As, first save).
    StoreStatus saveAll(engine::Broker& broker, const ClockRecord& clock);
    // Saves the clock alone (pause, speed, step, closing).
    StoreStatus saveClock(const ClockRecord& clock);
    // The simulation that runs in the workspace, as the text of a scenario file of its actors (the
    // store does not read it); "" for none. Saved on its own, like the clock.
    const std::string& savedSimulation() const { return m_savedSimulation; }
    StoreStatus saveSimulation(const std::string& scenario);
    // The workspace's sync mode; changing it saves it in the file and applies from the next commit.
    SyncMode syncMode() const { return m_syncMode; }
    StoreStatus setSyncMode(SyncMode mode);
    // Flushes the WAL to the disk and folds what it can into the file (a passive checkpoint: it
    // never waits). SyncMode::Normal calls this once a second while changes come.
    StoreStatus checkpoint();

    // Statistics for tests and benchmarks.
    std::int64_t commitCount() const { return m_commits; }
    // PRAGMA synchronous as SQLite has it now (1 NORMAL, 2 FULL); -1 if it cannot be read.
    int synchronousPragma();

private:
    struct QueueMirror {
        std::string name;
        bool fifo = false;
        // What the file holds of the FIFO windows, to write only what changed: every
        // deduplication record below this sequence (the engine's, after the last commit), and
        // the receive attempts.
        std::uint64_t dedupWrittenBelow = 0;
        std::unordered_map<std::string, std::pair<engine::Millis, std::string>> attempts;
    };

    WorkspaceStore(std::string path, StoreOptions options);
    StoreStatus initialise(OpenMode mode, bool exists);
    StoreStatus prepareStatements();
    StoreStatus loadMirrors();
    StoreError fail(int code, const std::string& doing);
    StoreError rollback(int code, const std::string& doing);
    // The end of a transaction that saved state: the broker row, the clock, COMMIT.
    StoreStatus finishSaving(engine::Broker& broker, const ClockRecord& clock);
    // PRAGMA synchronous for m_syncMode; an SQLite code.
    int applySyncMode();

    // Writers used inside a transaction; each returns an SQLite code (SQLITE_OK / SQLITE_DONE).
    int writeQueue(const engine::QueueRecord& record);
    int deleteQueue(std::uint32_t queueId);
    int deleteMessagesOf(std::uint32_t queueId);
    // A message whole, in messages (its state as it is now).
    int writeMessage(std::uint32_t queueId, const engine::MessageRecord& record);
    // A stored message's state alone, in message_state.
    int writeState(std::uint32_t queueId, const engine::MessageRecord& record);
    // The messages [first, end) of a queue, with their states.
    int deleteMessages(std::uint32_t queueId, std::uint64_t first, std::uint64_t end);
    int writeCounters(std::uint32_t queueId, const engine::QueueStats& stats,
                      std::uint64_t nextSequence);
    // A FIFO queue's deduplication and receive-attempt windows; `reset`: the engine emptied them
    // (a purge), so the file's are dropped first.
    int writeWindows(engine::Broker& broker, std::uint32_t queueId, std::string_view queue,
                     bool reset, QueueMirror& mirror);
    int writeBroker(const engine::BrokerRecord& record);
    int writeClock(const ClockRecord& clock);

    std::string m_path;
    StoreOptions m_options;
    Database m_db; // declared before the statements: destroyed after them
    std::optional<ClockRecord> m_savedClock;
    std::string m_savedSimulation;
    SyncMode m_syncMode = kDefaultSyncMode;
    std::unordered_map<std::uint32_t, QueueMirror> m_queues;
    std::int64_t m_commits = 0;

    Statement m_insertMessage;
    Statement m_writeState;
    Statement m_deleteMessageRange;
    Statement m_deleteStateRange;
    Statement m_insertQueue;
    Statement m_deleteQueue;
    Statement m_updateCounters;
    Statement m_upsertDedup;
    Statement m_deleteDedupBefore;
    Statement m_deleteDedupOf;
    Statement m_upsertAttempt;
    Statement m_deleteAttempt;
    Statement m_deleteAttemptsOf;
    Statement m_updateBroker;
    Statement m_writeClock;
    // A commit's BEGIN and COMMIT, prepared once rather than parsed at every commit.
    Statement m_begin;
    Statement m_commit;
};

} // namespace inflight::store
