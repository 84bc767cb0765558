#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace inflight::ui {

// How a request or an answer reads in the traffic log's detail: bodies decoded for people.

// JSON indented, XML indented, a form (application/x-www-form-urlencoded) as one "name = value"
// line per field, percent-decoded; anything else as it is (bytes that are not UTF-8 as hex).
QString readableBody(const QByteArray& body, const QByteArray& contentType);

// "Name: value" lines.
QString headerLines(const QList<QPair<QByteArray, QByteArray>>& headers);

} // namespace inflight::ui
