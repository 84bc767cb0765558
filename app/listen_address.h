#pragma once

#include <QHostAddress>
#include <QString>

#include <optional>

namespace inflight::app {

inline constexpr quint16 kDefaultPort = 9324;

// Where the endpoint listens (--listen).
struct ListenAddress {
    QHostAddress host;
    quint16 port = kDefaultPort;
};

// "127.0.0.1:9324", "0.0.0.0:9324", "[::1]:9324", "localhost:9324" or a bare port ("9324", on
// 127.0.0.1); nullopt for anything else.
std::optional<ListenAddress> parseListen(const QString& text);

} // namespace inflight::app
