#include "ui/editors/fieldbinder.h"

#include "ui/document/campaigndocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSpinBox>

namespace Throughline {

FieldBinder::FieldBinder(CampaignDocument *document, QObject *parent)
    : QObject(parent)
    , m_document(document)
{
}

QString FieldBinder::resolve(const QString &pointer) const
{
    if (!pointer.contains(u"%1"))
        return pointer;
    return pointer.arg(m_index ? m_index() : 0);
}

void FieldBinder::add(QWidget *w, const QString &pointer, std::function<void()> pull,
                      std::function<void()> push)
{
    w->setProperty("jsonPointer", pointer);
    m_bindings.push_back({w, pointer, std::move(pull), std::move(push)});
}

template <typename T>
void FieldBinder::commit(const QString &text, const QString &pointer, const Setter<T> &set, const T &value)
{
    const QString resolved = resolve(pointer);
    m_document->edit(
        text, [&](Campaign &c) { set(c, value); }, resolved);
}

void FieldBinder::bindSpin(QSpinBox *w, const QString &pointer, const QString &text, Getter<int> get,
                           Setter<int> set)
{
    add(w, pointer, [this, w, get] {
        const QSignalBlocker b(w);
        w->setValue(get(m_document->campaign()));
    });
    connect(w, &QSpinBox::valueChanged, this, [=, this](int v) { commit<int>(text, pointer, set, v); });
}

void FieldBinder::bindDouble(QDoubleSpinBox *w, const QString &pointer, const QString &text,
                             Getter<double> get, Setter<double> set)
{
    add(w, pointer, [this, w, get] {
        const QSignalBlocker b(w);
        w->setValue(get(m_document->campaign()));
    });
    connect(w, &QDoubleSpinBox::valueChanged, this,
            [=, this](double v) { commit<double>(text, pointer, set, v); });
}

void FieldBinder::bindLine(QLineEdit *w, const QString &pointer, const QString &text, Getter<QString> get,
                           Setter<QString> set)
{
    add(w, pointer, [this, w, get] {
        const QString v = get(m_document->campaign());
        if (w->text() != v) {
            const QSignalBlocker b(w);
            w->setText(v);
        }
    });
    connect(w, &QLineEdit::editingFinished, this,
            [=, this] { commit<QString>(text, pointer, set, w->text()); });
}

void FieldBinder::bindText(QPlainTextEdit *w, const QString &pointer, const QString &text,
                           Getter<QString> get, Setter<QString> set)
{
    add(
        w, pointer,
        [this, w, get] {
            const QString v = get(m_document->campaign());
            if (w->toPlainText() != v) {
                const QSignalBlocker b(w);
                w->setPlainText(v);
            }
        },
        [=, this] { commit<QString>(text, pointer, set, w->toPlainText()); });
    w->installEventFilter(this);
}

void FieldBinder::bindCombo(QComboBox *w, const QString &pointer, const QString &text, Getter<int> get,
                            Setter<int> set)
{
    add(w, pointer, [this, w, get] {
        const QSignalBlocker b(w);
        w->setCurrentIndex(qMax(0, w->findData(get(m_document->campaign()))));
    });
    connect(w, &QComboBox::activated, this,
            [=, this](int i) { commit<int>(text, pointer, set, w->itemData(i).toInt()); });
}

void FieldBinder::bindCheck(QCheckBox *w, const QString &pointer, const QString &text, Getter<bool> get,
                            Setter<bool> set)
{
    add(w, pointer, [this, w, get] {
        const QSignalBlocker b(w);
        w->setChecked(get(m_document->campaign()));
    });
    connect(w, &QCheckBox::toggled, this, [=, this](bool v) { commit<bool>(text, pointer, set, v); });
}

void FieldBinder::refresh()
{
    for (const Binding &b : m_bindings)
        if (b.widget)
            b.pull();
}

bool FieldBinder::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::FocusOut) {
        for (const Binding &b : m_bindings)
            if (b.widget == watched && b.push)
                b.push();
    }
    return QObject::eventFilter(watched, event);
}

QWidget *FieldBinder::widgetFor(const QString &pointer) const
{
    QWidget *best = nullptr;
    qsizetype bestLen = -1;
    for (const Binding &b : m_bindings) {
        if (!b.widget)
            continue;
        const QString p = resolve(b.pointer);
        if (p == pointer)
            return b.widget;
        // A problem at /plan/concurrencies/2 belongs to the widget editing /plan/concurrencies.
        if (pointer.startsWith(p + u'/') && p.size() > bestLen) {
            best = b.widget;
            bestLen = p.size();
        }
    }
    return best;
}

QList<QWidget *> FieldBinder::widgets() const
{
    QList<QWidget *> r;
    for (const Binding &b : m_bindings)
        if (b.widget)
            r << b.widget;
    return r;
}

} // namespace Throughline
