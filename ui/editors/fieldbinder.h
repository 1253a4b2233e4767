#pragma once
// Binds plain editor widgets to fields of the document's campaign: refresh() pulls values (signals
// blocked, so refreshing never creates undo commands) and user edits become ChangeCampaign commands
// with a per-field merge key. Each binding also records the field's JSON pointer so validation
// problems can be shown on the widget that edits the field. GUI thread only.

#include "core/campaign/campaign.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QWidget;

namespace Throughline {

class CampaignDocument;

class FieldBinder : public QObject
{
    Q_OBJECT
public:
    template <typename T>
    using Getter = std::function<T(const Campaign &)>;
    template <typename T>
    using Setter = std::function<void(Campaign &, const T &)>;

    explicit FieldBinder(CampaignDocument *document, QObject *parent = nullptr);

    // `pointer` is the field's JSON pointer; "%1" is replaced by indexProvider() (the selected
    // endpoint, phase or override). `text` names the undo command.
    void bindSpin(QSpinBox *w, const QString &pointer, const QString &text, Getter<int> get, Setter<int> set);
    void bindDouble(QDoubleSpinBox *w, const QString &pointer, const QString &text, Getter<double> get,
                    Setter<double> set);
    // Line edits commit on editingFinished (one command per edit, not per keystroke).
    void bindLine(QLineEdit *w, const QString &pointer, const QString &text, Getter<QString> get,
                  Setter<QString> set);
    // Plain-text edits commit when focus leaves (see eventFilter).
    void bindText(QPlainTextEdit *w, const QString &pointer, const QString &text, Getter<QString> get,
                  Setter<QString> set);
    // Combo boxes edit the item's data (Qt::UserRole) as an int.
    void bindCombo(QComboBox *w, const QString &pointer, const QString &text, Getter<int> get,
                   Setter<int> set);
    void bindCheck(QCheckBox *w, const QString &pointer, const QString &text, Getter<bool> get,
                   Setter<bool> set);

    void setIndexProvider(std::function<int()> provider) { m_index = std::move(provider); }
    // Pull every bound value from the document.
    void refresh();
    // The widget editing the field at `pointer` (exact match first, then the longest prefix).
    QWidget *widgetFor(const QString &pointer) const;
    QList<QWidget *> widgets() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Binding {
        QPointer<QWidget> widget;
        QString pointer;
        std::function<void()> pull; // document → widget
        std::function<void()> push; // widget → document (plain-text edits)
    };
    QString resolve(const QString &pointer) const;
    void add(QWidget *w, const QString &pointer, std::function<void()> pull, std::function<void()> push = {});
    template <typename T>
    void commit(const QString &text, const QString &pointer, const Setter<T> &set, const T &value);

    CampaignDocument *m_document;
    std::function<int()> m_index;
    std::vector<Binding> m_bindings;
};

} // namespace Throughline
