#include "ui/settings/preferences.h"

namespace Throughline {

namespace {
QString themeKey(Preferences::Theme t)
{
    switch (t) {
    case Preferences::Theme::Light:
        return QStringLiteral("light");
    case Preferences::Theme::Dark:
        return QStringLiteral("dark");
    case Preferences::Theme::System:
        break;
    }
    return QStringLiteral("system");
}
} // namespace

Preferences::Preferences(QObject *parent)
    : QObject(parent)
{
}

Preferences::Theme Preferences::theme() const
{
    const QString v = m_theme.get();
    if (v == u"light")
        return Theme::Light;
    if (v == u"dark")
        return Theme::Dark;
    return Theme::System;
}

void Preferences::setTheme(Theme theme)
{
    if (m_theme.set(themeKey(theme)))
        emit themeChanged(theme);
}

QStringList Preferences::recentFiles() const
{
    return m_recentFiles.get();
}

void Preferences::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    if (m_recentFiles.set(files))
        emit recentFilesChanged(files);
}

void Preferences::clearRecentFiles()
{
    if (m_recentFiles.set({}))
        emit recentFilesChanged({});
}

} // namespace Throughline
