#pragma once
// Latency limits per phase ("*" = every phase) and per-scenario overrides (a key=glob rule with an
// optional SLO, concurrency list and recipe concurrency), applied in order after the phase SLO.
// GUI thread only.

#include <QWidget>

class QTableWidget;

namespace Throughline {

class CampaignDocument;

class SloEditor : public QWidget
{
    Q_OBJECT
public:
    explicit SloEditor(CampaignDocument *document, QWidget *parent = nullptr);
    QWidget *widgetFor(const QString &pointer) const;

    QTableWidget *sloTable() const { return m_slos; }
    QTableWidget *overrideTable() const { return m_overrides; }

private:
    void refresh();
    void commitSlo(int row, int column);
    void commitOverride(int row, int column);

    CampaignDocument *m_document;
    QTableWidget *m_slos;
    QTableWidget *m_overrides;
    bool m_refreshing = false;
};

} // namespace Throughline
