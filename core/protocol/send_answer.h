#pragma once

#include "engine/digest.h"
#include "engine/requests.h"
#include "protocol/sqs_output.h"

#include <QByteArray>

#include <string>

namespace inflight::protocol {

class XmlWriter;

// What a sent message's answer says (SendMessage's, a SendMessageBatch success entry's): digests
// of what was sent, its id, its sequence number on a FIFO queue. SendMessage's answer is written
// from it straight into the response rather than built as an Output tree (sqs_output.h) and
// walked again; the bytes are the ones that tree gave (tests/protocol/send_answer_test.cpp).
struct SendAnswer {
    engine::Md5HexText md5OfMessageBody;
    std::string md5OfMessageAttributes;       // empty: no attributes were sent
    std::string md5OfMessageSystemAttributes; // empty: no system attributes were sent
    engine::MessageIdText messageId;
    engine::SequenceNumberText sequenceNumber; // empty: not a FIFO queue
};

// §2.6's digests of `message`, as sent with `result`.
SendAnswer sendAnswerOf(const engine::SendMessageRequest& message,
                        const engine::SendResult& result);

// The same members as an Output object (a SendMessageBatch success entry, its Id added there).
Output sendOutputOf(const SendAnswer& answer);

// The JSON answer's body: its members in key order, the attribute digests only when attributes
// were sent, SequenceNumber only on FIFO queues.
void appendSendJson(QByteArray& out, const SendAnswer& answer);

// The Query answer's members, inside <SendMessageResult>, in the order real SQS prints them.
void writeSendXml(XmlWriter& writer, const SendAnswer& answer);

} // namespace inflight::protocol
