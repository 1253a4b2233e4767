#pragma once
// One phase of the campaign: name, nominal ISL/OSL and their per-request distributions, with a
// "± r %" helper that turns a nominal length into a uniform [n·(1−r), n·(1+r)] range. GUI thread.

#include <QWidget>

class QComboBox;
class QSpinBox;

namespace Throughline {

class CampaignDocument;
class FieldBinder;

class PhaseEditor : public QWidget
{
    Q_OBJECT
public:
    explicit PhaseEditor(CampaignDocument *document, QWidget *parent = nullptr);

    int currentPhase() const;
    void selectPhase(const QString &name);
    // Sets the ISL (input) or OSL distribution of the current phase to uniform nominal ± percent.
    void applySpread(bool input, int percent);
    QWidget *widgetFor(const QString &pointer) const;

private:
    void refresh();

    CampaignDocument *m_document;
    FieldBinder *m_binder;
    QComboBox *m_phase;
    QWidget *m_form;
};

} // namespace Throughline
