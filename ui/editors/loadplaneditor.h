#pragma once
// The campaign's load plan: closed loop (concurrency list), open loop (rates, arrival process),
// curve (log2 or MLPerf Endpoints spacing) or search (bisection under the SLOs), plus the per-point
// budget shared by all modes and the engine's read order (first-token priority). GUI thread only.

#include <QWidget>

class QComboBox;
class QStackedWidget;

namespace Throughline {

class CampaignDocument;
class FieldBinder;

class LoadPlanEditor : public QWidget
{
    Q_OBJECT
public:
    explicit LoadPlanEditor(CampaignDocument *document, QWidget *parent = nullptr);
    QWidget *widgetFor(const QString &pointer) const;

    // "1, 2, 4" ⇄ {1, 2, 4}; invalid tokens are dropped (the validator reports empty lists).
    static QString formatList(const std::vector<int> &v);
    static QString formatList(const std::vector<double> &v);
    static std::vector<int> parseInts(const QString &text);
    static std::vector<double> parseDoubles(const QString &text);

private:
    CampaignDocument *m_document;
    FieldBinder *m_binder;
    QComboBox *m_mode;
    QStackedWidget *m_pages;
};

} // namespace Throughline
