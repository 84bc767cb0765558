#include "sim/consumer.h"

namespace inflight::sim {

namespace {

constexpr Millis kNone = engine::kNoDeadline;
// How long a client waits for an answer before it asks again (ReceiveSettings::attemptIds).
constexpr Millis kLostAnswerRetry = 1'000;

std::string workerOrigin(const ConsumerSpec& spec, std::size_t w)
{
    std::string origin = "consumer " + spec.name;
    if (spec.workers > 1)
        origin += "/" + std::to_string(w + 1);
    return origin;
}

} // namespace

Consumer::Consumer(ActorId id, engine::Broker& broker, std::uint64_t seed, ConsumerSpec spec)
    : Actor(id, ActorKind::Consumer, broker, seed, "consumer " + spec.name), m_spec(std::move(spec))
{
    configure();
}

Consumer::~Consumer()
{
    for (Worker& worker : m_workers)
        if (worker.waitId != 0)
            m_broker.cancelWait(worker.waitId);
}

void Consumer::setSpec(const ActorSpec& spec)
{
    m_spec = std::get<ConsumerSpec>(spec);
    m_origin = "consumer " + consumer().name;
    configure();
}

void Consumer::configure()
{
    const ConsumerSpec& c = consumer();
    m_poison.reset();
    if (c.poison)
        m_poison.emplace(*c.poison, std::regex::ECMAScript);
    m_workers.assign(static_cast<std::size_t>(c.workers), Worker{});
    for (std::size_t w = 0; w < m_workers.size(); ++w)
        m_workers[w].origin = workerOrigin(c, w);
}

std::size_t Consumer::held() const
{
    std::size_t count = 0;
    for (const Worker& worker : m_workers)
        count += worker.held.size();
    return count;
}

std::pair<Consumer::Step, Millis> Consumer::nextOf(const Worker& worker) const
{
    std::pair<Step, Millis> best{Step::Finish, worker.finishAt};
    if (worker.heartbeatAt < best.second)
        best = {Step::Heartbeat, worker.heartbeatAt};
    if (worker.wakeAt < best.second)
        best = {Step::Wake, worker.wakeAt};
    return best;
}

std::optional<Millis> Consumer::nextAction() const
{
    if (m_state != ActorState::Running)
        return std::nullopt;
    Millis t = kNone;
    for (const Worker& worker : m_workers)
        t = std::min(t, nextOf(worker).second);
    if (t == kNone)
        return std::nullopt;
    return t;
}

void Consumer::act()
{
    const Millis at = *nextAction();
    const Millis t = now();
    for (std::size_t w = 0; w < m_workers.size(); ++w) {
        Worker& worker = m_workers[w];
        const auto [step, due] = nextOf(worker);
        if (due != at)
            continue;
        switch (step) {
        case Step::Finish: finish(worker, t); break;
        case Step::Heartbeat: heartbeat(worker, t); break;
        case Step::Wake:
            worker.wakeAt = kNone;
            if (worker.phase == Phase::Processing)
                startNext(worker, t);
            else
                receive(w, t);
            break;
        }
        return;
    }
}

void Consumer::start(Millis now, Millis delay)
{
    if (m_state != ActorState::Stopped)
        return;
    m_state = ActorState::Running;
    for (Worker& worker : m_workers) {
        worker.phase = Phase::Idle;
        worker.wakeAt = now + delay;
    }
}

void Consumer::stop()
{
    for (Worker& worker : m_workers) {
        if (worker.waitId != 0)
            m_broker.cancelWait(worker.waitId);
        worker.waitId = 0;
        ++worker.receiveToken;
        abandon(worker);
        worker.phase = Phase::Stopped;
        worker.wakeAt = kNone;
        worker.attemptId.reset();
    }
    m_state = ActorState::Stopped;
}

void Consumer::shift(Millis delta)
{
    for (Worker& worker : m_workers) {
        for (Millis* t : {&worker.wakeAt, &worker.finishAt, &worker.heartbeatAt})
            if (*t != kNone)
                *t += delta;
        worker.heartbeatBase += delta;
    }
}

void Consumer::receive(std::size_t w, Millis now)
{
    const ConsumerSpec& c = consumer();
    Worker& worker = m_workers[w];
    engine::ReceiveRequest request;
    request.queue = c.queue;
    request.maxMessages = c.receive.maxMessages;
    request.visibilityTimeout = c.receive.visibilityTimeout;
    request.waitTimeSeconds = c.receive.waitTimeSeconds;
    request.channelFilter = c.receive.channelFilter;
    if (c.receive.attemptIds) {
        if (!worker.attemptId)
            worker.attemptId
                = c.name + "-" + std::to_string(w + 1) + "-" + std::to_string(++worker.attempts);
        request.receiveRequestAttemptId = worker.attemptId;
    }
    request.origin = worker.origin;
    worker.phase = Phase::Receiving;
    worker.askedAt = now;
    const std::uint64_t token = ++m_tokens;
    worker.receiveToken = token;
    worker.waitId = 0;
    const engine::WaitId id = m_broker.receiveMessageAsync(
        request, [this, w, token](engine::Result<engine::ReceiveResult> result) {
            answered(w, token, std::move(result));
        });
    // The answer may have come already (then the id is 0 and the worker has moved on).
    if (worker.phase == Phase::Receiving && worker.receiveToken == token)
        worker.waitId = id;
}

void Consumer::answered(std::size_t w, std::uint64_t token,
                        engine::Result<engine::ReceiveResult> result)
{
    if (w >= m_workers.size())
        return;
    Worker& worker = m_workers[w];
    if (worker.phase != Phase::Receiving || worker.receiveToken != token)
        return;
    worker.waitId = 0;
    const Millis t = now();
    ++m_figures.receives;
    if (!result) {
        ++m_figures.receiveErrors;
        recordError(result.error());
        worker.attemptId.reset();
        goIdle(worker, t);
        return;
    }
    if (result->messages.empty()) {
        ++m_figures.emptyReceives;
        worker.attemptId.reset();
        goIdle(worker, t);
        return;
    }
    const ConsumerSpec& c = consumer();
    if (c.receive.attemptIds && m_random.chance(c.receive.lostAnswerProbability)) {
        // As if the answer never arrived: the client's timeout, then the same receive again.
        ++m_figures.lostAnswers;
        worker.phase = Phase::Idle;
        worker.wakeAt = planFrom(t) + kLostAnswerRetry;
        return;
    }
    worker.attemptId.reset();
    m_figures.received += static_cast<std::int64_t>(result->messages.size());
    for (engine::ReceivedMessage& message : result->messages) {
        const Millis visibleAt = message.visibleAt;
        worker.held.push_back(Held{std::move(message), t, visibleAt});
    }
    worker.phase = Phase::Processing;
    ++m_figures.busyWorkers;
    worker.started = false;
    if (c.heartbeat) {
        worker.heartbeatBase = planFrom(t);
        worker.heartbeatCount = 0;
        worker.heartbeatAt = worker.heartbeatBase + c.heartbeat->every;
    }
    if (m_state == ActorState::Paused)
        worker.wakeAt = m_pausedAt; // processing begins when resumed
    else
        startNext(worker, t);
}

void Consumer::goIdle(Worker& worker, Millis now)
{
    worker.phase = Phase::Idle;
    const bool atOnce = now == worker.askedAt; // the receive did not wait
    const auto& given = consumer().receive.idle;
    Millis idle = given ? *given : (atOnce ? 1'000 : 0);
    if (atOnce)
        idle = std::max<Millis>(idle, 1);
    worker.wakeAt = planFrom(now) + idle;
}

Outcome Consumer::drawOutcome()
{
    const Outcomes& o = consumer().outcomes;
    if (o.succeed >= 1.0)
        return Outcome::Succeed;
    const double u = m_random.uniform();
    if (u < o.succeed)
        return Outcome::Succeed;
    if (u < o.succeed + o.fail)
        return Outcome::Fail;
    if (u < o.succeed + o.fail + o.crash)
        return Outcome::Crash;
    if (o.release > 0.0)
        return Outcome::Release;
    // Rounding left u above the sum: the last outcome with a probability.
    return o.crash > 0.0 ? Outcome::Crash : o.fail > 0.0 ? Outcome::Fail : Outcome::Succeed;
}

void Consumer::startNext(Worker& worker, Millis now)
{
    const ConsumerSpec& c = consumer();
    const Held& front = worker.held.front();
    Seen& seen = m_seen[front.message.messageId];
    if (seen.completed > 0 || seen.active > 0)
        ++m_figures.processedMoreThanOnce;
    ++seen.active;
    worker.started = true;
    const Millis duration = c.processing.draw(m_random);
    worker.poisoned = m_poison && std::regex_search(front.message.body, *m_poison);
    worker.outcome = worker.poisoned ? Outcome::Fail : drawOutcome();
    worker.finishAt = now + duration;
}

void Consumer::forget(const std::string& messageId)
{
    const auto it = m_seen.find(messageId);
    if (it != m_seen.end() && it->second.active == 0 && it->second.deleted)
        m_seen.erase(it);
}

void Consumer::finish(Worker& worker, Millis now)
{
    const ConsumerSpec& c = consumer();
    worker.finishAt = kNone;
    Held front = std::move(worker.held.front());
    const std::string& id = front.message.messageId;
    Seen& seen = m_seen[id];
    --seen.active;
    worker.started = false;
    switch (worker.outcome) {
    case Outcome::Succeed: {
        const auto deleted
            = m_broker.deleteMessage(c.queue, front.message.receiptHandle, worker.origin);
        if (deleted) {
            seen.deleted = true;
        } else {
            ++m_figures.deleteErrors;
            recordError(deleted.error());
        }
        ++seen.completed;
        ++m_figures.processed;
        const Millis latency = now - front.message.sentAt;
        ++m_figures.latencyCount;
        m_figures.latencyTotal += latency;
        m_figures.latencyMax = std::max(m_figures.latencyMax, latency);
        break;
    }
    case Outcome::Fail:
        ++m_figures.failed;
        if (worker.poisoned)
            ++m_figures.poisoned;
        break;
    case Outcome::Release: {
        ++m_figures.released;
        const auto released = m_broker.changeMessageVisibility(c.queue, front.message.receiptHandle,
                                                               0, worker.origin);
        if (!released) {
            ++m_figures.visibilityErrors;
            recordError(released.error());
        }
        break;
    }
    case Outcome::Crash:
        ++m_figures.crashed;
        worker.held.pop_front();
        forget(id);
        abandon(worker);
        worker.phase = Phase::Crashed;
        worker.wakeAt = now + c.crashDowntime;
        return;
    }
    worker.held.pop_front();
    forget(id);
    if (!worker.held.empty()) {
        startNext(worker, now);
        return;
    }
    endProcessing(worker);
    worker.phase = Phase::Idle;
    worker.wakeAt = now;
}

void Consumer::heartbeat(Worker& worker, Millis now)
{
    const Heartbeat& h = *consumer().heartbeat;
    ++worker.heartbeatCount;
    const Millis receivedAt = worker.held.front().receivedAt;
    const std::int64_t seconds
        = std::min<std::int64_t>(h.extendBy, (h.maximum * 1000 - (now - receivedAt)) / 1000);
    if (seconds <= 0) {
        worker.heartbeatAt = kNone;
        return;
    }
    const Millis visibleAt = now + seconds * 1000;
    for (Held& held : worker.held) {
        if (visibleAt <= held.visibleAt)
            continue;
        const auto changed = m_broker.changeMessageVisibility(
            consumer().queue, held.message.receiptHandle, seconds, worker.origin);
        if (changed) {
            ++m_figures.heartbeats;
            held.visibleAt = changed->visibleAt;
        } else {
            ++m_figures.visibilityErrors;
            recordError(changed.error());
        }
    }
    worker.heartbeatAt = worker.heartbeatBase + (worker.heartbeatCount + 1) * h.every;
}

void Consumer::endProcessing(Worker& worker)
{
    if (worker.phase == Phase::Processing)
        --m_figures.busyWorkers;
    worker.finishAt = kNone;
    worker.heartbeatAt = kNone;
}

void Consumer::abandon(Worker& worker)
{
    if (worker.started && !worker.held.empty()) {
        const std::string id = worker.held.front().message.messageId;
        --m_seen[id].active;
        forget(id);
    }
    worker.started = false;
    worker.held.clear();
    endProcessing(worker);
}

} // namespace inflight::sim
