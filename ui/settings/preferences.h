#pragma once
// Application preferences as typed settings with change signals (tiled's Preferences). Stored in the
// platform QSettings of organisation "Throughline", application "throughline". Lives in the GUI thread.

#include "ui/settings/settingvalue.h"

#include <QByteArray>
#include <QObject>
#include <QStringList>

namespace Throughline {

class Preferences : public QObject
{
    Q_OBJECT
public:
    enum class Theme { System, Light, Dark };
    Q_ENUM(Theme)

    static constexpr int kMaxRecentFiles = 8;

    explicit Preferences(QObject *parent = nullptr);

    Theme theme() const;
    void setTheme(Theme theme);

    // Interface language: "system", "en" or "de" (TranslationLoader). Read once at start-up.
    QString language() const { return m_language.get(); }
    void setLanguage(const QString &language) { m_language.set(language); }

    QStringList recentFiles() const;
    void addRecentFile(const QString &path); // most recent first, de-duplicated, capped
    void clearRecentFiles();

    QByteArray windowGeometry() const { return m_geometry.get(); }
    void setWindowGeometry(const QByteArray &g) { m_geometry.set(g); }
    QByteArray windowState() const { return m_windowState.get(); }
    void setWindowState(const QByteArray &s) { m_windowState.set(s); }
    int currentPage() const { return m_currentPage.get(); }
    void setCurrentPage(int page) { m_currentPage.set(page); }

    // False until the first window closed once: the first launch opens the demo campaign.
    bool launchedBefore() const { return m_launchedBefore.get(); }
    void setLaunchedBefore(bool b) { m_launchedBefore.set(b); }
    QString lastCampaign() const { return m_lastCampaign.get(); }
    void setLastCampaign(const QString &path) { m_lastCampaign.set(path); }

signals:
    void themeChanged(Throughline::Preferences::Theme theme);
    void recentFilesChanged(const QStringList &files);

private:
    SettingValue<QString> m_theme{QStringLiteral("ui/theme"), QStringLiteral("system")};
    SettingValue<QString> m_language{QStringLiteral("ui/language"), QStringLiteral("system")};
    SettingValue<QStringList> m_recentFiles{QStringLiteral("ui/recentFiles")};
    SettingValue<QByteArray> m_geometry{QStringLiteral("mainWindow/geometry")};
    SettingValue<QByteArray> m_windowState{QStringLiteral("mainWindow/state")};
    SettingValue<int> m_currentPage{QStringLiteral("mainWindow/page"), 0};
    SettingValue<bool> m_launchedBefore{QStringLiteral("app/launchedBefore"), false};
    SettingValue<QString> m_lastCampaign{QStringLiteral("app/lastCampaign")};
};

} // namespace Throughline
