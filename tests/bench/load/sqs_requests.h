#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace inflight::load {

enum class Protocol { Json, Query };

// Raw HTTP/1.1 requests for the few SQS actions the load generator uses, in either protocol, and
// the few fields it reads back. No signatures: both servers under test accept unsigned requests.
class SqsRequests {
public:
    SqsRequests(Protocol protocol, std::string hostHeader);

    void setQueueUrl(std::string queueUrl) { m_queueUrl = std::move(queueUrl); }
    const std::string& queueUrl() const { return m_queueUrl; }

    std::string createQueue(std::string_view name) const;
    std::string sendMessage(std::string_view body) const;
    std::string sendMessageBatch(std::string_view body, int entries) const;
    std::string receiveMessage(int maxMessages) const;
    std::string deleteMessageBatch(const std::vector<std::string>& receiptHandles) const;

    // The QueueUrl of a CreateQueue reply; empty if absent.
    std::string queueUrlOf(std::string_view replyBody) const;
    // Every ReceiptHandle of a ReceiveMessage reply, in order.
    std::vector<std::string> receiptHandlesOf(std::string_view replyBody) const;

private:
    std::string post(std::string_view action, std::string_view payload) const;

    Protocol m_protocol;
    std::string m_hostHeader;
    std::string m_queueUrl;
};

} // namespace inflight::load
