#pragma once

#include <QColor>
#include <QHash>
#include <QObject>
#include <QString>
#include <QVariant>

#include <cstdint>

namespace inflight::ui {

// What the user calls the endpoint's clients, and their colours, remembered per workspace. A
// client is its traffic-log key (traffic::ClientIdentity::key: "AKIDEXAMPLE aws-cli",
// "curl@127.0.0.1"), which is also the engine origin of its calls while the traffic log is on, so
// every event, receipt and timeline row of a client leads back to it.
class ClientDirectory : public QObject {
    Q_OBJECT
public:
    explicit ClientDirectory(QObject* parent = nullptr);

    // Loads the names and colours kept for the workspace at `path` (empty: a workspace in memory,
    // whose names last as long as the window). Emits changed().
    void setWorkspace(const QString& path);

    // The name given to `key`; empty when none.
    QString name(const QString& key) const { return m_names.value(key); }
    // Invalid when none.
    QColor colour(const QString& key) const { return m_colours.value(key); }
    // An empty name or an invalid colour removes it. Each emits changed() and is saved at once.
    void setName(const QString& key, const QString& name);
    void setColour(const QString& key, const QColor& colour);

    // How an origin reads: its client's name when named, else the origin itself.
    QString label(const QString& origin) const;
    // `text` with every named client's key replaced by its name (for the engine's sentences).
    QString relabel(QString text) const;
    // The colour of the origin's client; invalid when it has none.
    QColor colourOf(const QString& origin) const { return colour(origin); }

    // The colours offered first (distinct on light and dark backgrounds), with their names.
    static QList<QColor> palette();
    static QStringList paletteNames();

Q_SIGNALS:
    void changed();

private:
    void save() const;

    QString m_group; // QSettings group of this workspace; empty: not kept
    QHash<QString, QString> m_names;
    QHash<QString, QColor> m_colours;
};

// For item models: the origin as it reads (its client's name when named) and the swatch of its
// client's colour (invalid when none); `clients` may be null.
QString originLabel(const ClientDirectory* clients, const QString& origin);
QVariant originSwatch(const ClientDirectory* clients, const QString& origin);

} // namespace inflight::ui
