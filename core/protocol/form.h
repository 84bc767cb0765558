#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace inflight::protocol {

// The name/value pairs of an application/x-www-form-urlencoded text (a form body or a query
// string), fully decoded, in order. '+' is a space, as form encoding writes it.
QList<QPair<QString, QString>> decodeForm(const QByteArray& encoded);

} // namespace inflight::protocol
