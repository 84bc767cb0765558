#pragma once

#include "config/event_journal.h"
#include "protocol/http_types.h"

#include <QObject>
#include <QString>

#include <functional>
#include <list>
#include <memory>
#include <optional>

class QTimer;

namespace inflight::session {
class Session;
}

namespace inflight::traffic {
class TrafficLog;
}

namespace inflight::control {

struct ControlOptions {
    // `inflight --version`'s, for /health.
    QString version;
    // When set, peers that are not on loopback may use the API with `Authorization: Bearer
    // <token>`; a wrong token is refused from every peer. Without it, only loopback peers.
    QString token;
    // Events the journal keeps for /events.
    std::size_t journalCapacity = 100'000;
    // The cursor of the journal's first event: past the last one of the API this one replaces
    // (a workspace switched in place), so that a client's cursor keeps its meaning.
    std::uint64_t firstCursor = 1;
    // The endpoint's traffic log, for GET traffic, traffic.har and clients (traffic_routes.h);
    // null: they answer 404. Read only; must outlive the API.
    const traffic::TrafficLog* traffic = nullptr;
};

// Inflight's control API for test suites, under /_inflight/v1/ on the endpoint's port (JSON in and
// out; README "Testing with Inflight" documents it for its users):
//
//   GET  health                       {"ready": true, "version": "…"}
//   GET  clock                        {"now", "paused", "speed", "wallOffsetMs"}
//   POST clock                        one of {"pause": true}, {"resume": true}, {"speed": N},
//                                     {"advanceMs": N}, {"advanceTo": epoch ms}; answers the new
//                                     clock once everything that fell due is processed
//   GET  queues/{name}/messages       {"messages": [...]} by peek (changes nothing);
//                                     ?state=available|delayed|inFlight, ?limit, ?offset
//   GET  events?after=C&waitSeconds=N {"events": [...], "cursor": C', "dropped": D}, waiting up to
//                                     N (≤ 20) real seconds for an event after C
//   POST reset                        every queue gone, names free at once
//   POST queues/{name}/reset          the queue's messages and FIFO history gone
//   POST config                       a queue configuration file's JSON (config_file.h)
//   GET  traffic, traffic.har, clients the traffic log (traffic_routes.h)
//   GET  actors, POST actors/{name}/start|stop|pause|resume, POST scenario
//                                     the simulated actors and scenarios (simulation_routes.h)
//
// Errors are `{"error": {"code", "message"}}` with a 4xx status and change nothing. Engine time
// moves only through the session, so what the API does shows up in the window and the event log
// like any other action (origin "control API"). Lives on the session's thread.
class ControlApi : public QObject {
    Q_OBJECT
public:
    using Respond = std::function<void(protocol::HttpResponse)>;

    ControlApi(session::Session& session, ControlOptions options, QObject* parent = nullptr);
    ~ControlApi() override;

    // The answer now, or nullopt when `later` will be called with it (a wait for events, a clock
    // change that settles first). `tag` names the caller's connection for cancel().
    std::optional<protocol::HttpResponse> handle(const protocol::HttpRequest& request, quint64 tag,
                                                 Respond later);
    // The client behind `tag` hung up: its waits end without an answer.
    void cancel(quint64 tag);

    const config::EventJournal& journal() const { return m_journal; }

private:
    struct Waiter {
        quint64 tag;
        std::uint64_t after;
        std::size_t limit;
        Respond respond;
        std::unique_ptr<QTimer> timeout;
    };

    std::optional<protocol::HttpResponse> route(const protocol::HttpRequest& request, quint64 tag,
                                                Respond& later);
    std::optional<protocol::HttpResponse> refusal(const protocol::HttpRequest& request) const;
    protocol::HttpResponse clockState() const;
    std::optional<protocol::HttpResponse> changeClock(const protocol::HttpRequest& request,
                                                      Respond& later);
    protocol::HttpResponse messages(const QString& queue, const protocol::HttpRequest& request);
    std::optional<protocol::HttpResponse> events(const protocol::HttpRequest& request, quint64 tag,
                                                 Respond& later);
    protocol::HttpResponse eventPage(std::uint64_t after, std::size_t limit) const;
    protocol::HttpResponse resetQueue(const QString& queue);
    protocol::HttpResponse loadConfig(const protocol::HttpRequest& request);
    void onEvents();

    session::Session& m_session;
    ControlOptions m_options;
    config::EventJournal m_journal;
    std::list<Waiter> m_waiters;
};

} // namespace inflight::control
