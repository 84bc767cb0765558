#pragma once

#include "engine/requests.h"

#include <QByteArray>

namespace inflight::protocol {

class XmlWriter;

// ReceiveMessage's answer, written from the engine's result straight into the response: the
// answer a consumer asks for most, with up to ten bodies in it, made without an Output tree
// (sqs_output.h) built member by member and walked again to be printed. The bytes are the ones
// the tree gave (tests/protocol/receive_answer_test.cpp holds them against it): `Messages`
// absent when none were received, each message's members in the order each protocol prints them,
// MD5OfBody always, MD5OfMessageAttributes and MessageAttributes when attributes are returned.

// The JSON answer's body: `{}` or `{"Messages":[…]}`, members in key order as appendJson prints
// an object.
void appendReceiveJson(QByteArray& out, const engine::ReceiveResult& result);

// The Query answer's members, inside <ReceiveMessageResult>: a <Message> element per message,
// members in the order SQS prints them (MessageId, ReceiptHandle, MD5OfBody, Body, Attribute…,
// MD5OfMessageAttributes, MessageAttribute…).
void writeReceiveXml(XmlWriter& writer, const engine::ReceiveResult& result);

} // namespace inflight::protocol
