#include "listen_address.h"

namespace inflight::app {

std::optional<ListenAddress> parseListen(const QString& text)
{
    QString host = QStringLiteral("127.0.0.1");
    QString port = text;
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0) {
        host = text.left(colon);
        port = text.mid(colon + 1);
        if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
            host = host.mid(1, host.size() - 2);
    }
    bool ok = false;
    const uint number = port.toUInt(&ok);
    const QHostAddress address(host == QStringLiteral("localhost") ? QStringLiteral("127.0.0.1")
                                                                   : host);
    if (!ok || number > 65535 || address.isNull())
        return std::nullopt;
    return ListenAddress{address, static_cast<quint16>(number)};
}

} // namespace inflight::app
